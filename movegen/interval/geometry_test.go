package interval_test

import (
	"os"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/movegen"
	"atril/movegen/internal/searchtest"
	"atril/movegen/interval"
)

// cachePosition is a board, the board after a placement with its
// changes, and racks to search them with.
type cachePosition struct {
	b, after *board.Board
	ch       board.Changes
	lines    board.Lines
	racks    []alphabet.Rack
	dir      board.Dir // of the placement
	line     int
}

// TestCacheBoards checks the interval searchers with CacheBoards on,
// which bound the intervals of a board they have seen before from its
// recorded geometry. Positions of greedy games are searched in rounds:
// each round every board (whole, near a placement's changes, and over
// some of its lines) with racks of seven, three and one tiles, with
// blanks, and of letters few squares admit, under no leave, a fixed
// leave or a salted one; every list must be that of a searcher without
// the cache. There are more boards than the searcher keeps, so it also
// drops and rebuilds them. English; ATRIL_CACHE_LANGS=all adds Spanish
// and Czech, ATRIL_CACHE_GAMES sets the number of games (2) and
// ATRIL_IV_STEP the sampling of the word lists (8; 1: the full lists).
func TestCacheBoards(t *testing.T) {
	langs := languages[:1]
	if os.Getenv("ATRIL_CACHE_LANGS") == "all" {
		langs = languages
	}
	for _, l := range langs {
		t.Run(l.variant, func(t *testing.T) { checkCacheBoards(t, l) })
	}
}

func checkCacheBoards(t *testing.T, l language) {
	v, full := fullLexicon(t, l)
	lex := ivSample(full, ivEnv("ATRIL_IV_STEP", 8))
	games := ivEnv("ATRIL_CACHE_GAMES", 2)
	ana, err := interval.NewAnagram(lex)
	if err != nil {
		t.Fatal(err)
	}
	iwm, err := interval.NewIWM(lex, interval.IWMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	parse := func(s string) alphabet.Rack {
		r, err := v.Alphabet.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	extra := []alphabet.Rack{parse("AE?"), parse("S"), parse("A??")}
	if l.variant == "english" {
		extra = append(extra, parse("QXZJVVW"), parse("EIRST??"))
	}
	var pos []cachePosition
	eachGreedyPlacement(t, v, lex, games, func(b *board.Board, rack alphabet.Rack, m move.Move, g *game.Game) {
		p := cachePosition{b: b, after: b.Clone(), racks: append([]alphabet.Rack{rack, g.Seats[g.Current()].Rack}, extra...)}
		p.after.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1)
		p.dir, p.line = m.Dir, m.Row
		if m.Dir == board.Down {
			p.line = m.Col
		}
		p.after.ChangedSquares(&p.ch)
		for r := 0; r < v.Size; r += 2 {
			p.lines.Add(board.Across, r)
			p.lines.Add(board.Down, r+1)
		}
		pos = append(pos, p)
	})
	if len(pos) < 15*games {
		t.Fatalf("%d positions", len(pos))
	}
	fixed, salted := &searchtest.FixedLeave{}, &searchtest.SaltedLeave{Salt: 3}
	for _, tc := range []struct {
		name string
		s    movegen.ChangeSearcher
		ref  movegen.ChangeSearcher
	}{
		{"anagram", ana, interval.NewAnagramFrom(ana.Tables)},
		{"iwm", iwm, interval.NewIWMFrom(iwm.Tables, 1)},
	} {
		tc.s.(movegen.BoardCacher).CacheBoards(true)
		kept := 0
		for round := 0; round < 3; round++ {
			for i := range pos {
				p := &pos[i]
				for ri := range p.racks {
					rack := &p.racks[ri]
					for _, leave := range []movegen.Leave{nil, fixed, salted}[ri%3:][:1] {
						check := func(what string, b *board.Board, got, want []movegen.Scored) {
							t.Helper()
							if err := searchtest.SameList(b, got, want); err != nil {

								t.Fatalf("%s, round %d, position %d, %s, rack %s, leave %T: %v\n%s",
									tc.name, round, i, what, v.Alphabet.RackString(rack), leave, err, b)
							}
						}
						check("whole board", p.b, searchtest.CloneAll(tc.s.TopN(p.b, rack, leave, 5, nil)),
							tc.ref.TopN(p.b, rack, leave, 5, nil))
						// Placements below the floor need not be listed:
						// those a searcher's memo finds may be.
						check("near the changes", p.after, above(searchtest.CloneAll(tc.s.TopNTouching(p.after, rack, leave, 3, &p.ch, 5, nil)), 5),
							above(tc.ref.TopNTouching(p.after, rack, leave, 3, &p.ch, 5, nil), 5))
						// The same board and lines with fewer changes.
						fewer := p.ch
						fewer.Squares[p.dir][p.line] = 0
						check("near fewer changes", p.after, above(searchtest.CloneAll(tc.s.TopNTouching(p.after, rack, leave, 3, &fewer, 5, nil)), 5),
							above(tc.ref.TopNTouching(p.after, rack, leave, 3, &fewer, 5, nil), 5))
						check("some lines", p.after, searchtest.CloneAll(tc.s.TopNIn(p.after, rack, leave, 4, p.lines, -1e9, nil)),
							tc.ref.TopNIn(p.after, rack, leave, 4, p.lines, -1e9, nil))
					}
				}
				kept = max(kept, interval.KeptGeometries(tc.s.(movegen.BoardCacher)))
			}
		}
		if kept == 0 {
			t.Fatalf("%s kept no geometry", tc.name)
		}
		t.Logf("%s: %d positions, at most %d geometries kept", tc.name, len(pos), kept)
	}
}

// above is the head of a ranked list that reaches floor.
func above(l []movegen.Scored, floor float64) []movegen.Scored {
	for i, s := range l {
		if s.Equity < floor {
			return l[:i]
		}
	}
	return l
}
