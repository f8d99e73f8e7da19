package movegen_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// hashLeave is a leave table with no structure a bound could exploit: a
// per-tile term plus a pseudo-random value for every multiset, in
// [−12, 12] points.
type hashLeave struct{}

func (hashLeave) Eval(kept *alphabet.Rack) float64 {
	h := uint64(0x9e3779b97f4a7c15)
	v := 0.0
	for i, c := range kept {
		if c > 0 {
			h = (h ^ uint64(i)<<8 ^ uint64(c)) * 0xbf58476d1ce4e5b9
			v += float64(int(c)*(i%7) - 3)
		}
	}
	h ^= h >> 31
	return float64(int64(h%2401)-1200)/100 + v/4
}

// equities lists every placement's equity, best first (all moves, then
// ranked).
func equities(g movegen.Generator, b *board.Board, rack *alphabet.Rack, leave movegen.Leave) []float64 {
	var out []float64
	g.Generate(b, rack, func(m *move.Move) {
		e := float64(m.Score)
		if leave != nil {
			kept := *rack
			for _, t := range m.Tiles {
				if t != move.PlayThrough {
					kept.Remove(t)
				}
			}
			e += leave.Eval(&kept)
		}
		out = append(out, e)
	})
	slices.Sort(out)
	slices.Reverse(out) // best first
	return out
}

// checkBest compares the GADDAG's best-by-equity search with all moves
// ranked, for score alone and for a leave table, on one position: the
// best move's equity, and the equities of the top N.
func checkBest(t *testing.T, s movegen.Searcher, all movegen.Generator, b *board.Board, rack *alphabet.Rack) error {
	const n = 12
	for _, leave := range []movegen.Leave{nil, hashLeave{}} {
		want := equities(all, b, rack, leave)
		best, ok := s.Best(b, rack, leave)
		if ok != (len(want) > 0) {
			return fmt.Errorf("leave %v: Best found a move: %v, all moves: %d", leave != nil, ok, len(want))
		}
		if !ok {
			continue
		}
		if best.Equity != want[0] {
			return fmt.Errorf("leave %v: Best %s equity %v, all moves' best %v", leave != nil, best.Move.String(b), best.Equity, want[0])
		}
		if sc := move.Score(b, &best.Move); sc != best.Move.Score {
			return fmt.Errorf("Best %s: score %d, rules say %d", best.Move.String(b), best.Move.Score, sc)
		}
		top := s.TopN(b, rack, leave, n, nil)
		if len(top) != min(n, len(want)) {
			return fmt.Errorf("leave %v: TopN gave %d moves, want %d", leave != nil, len(top), min(n, len(want)))
		}
		for i := range top {
			if top[i].Equity != want[i] {
				return fmt.Errorf("leave %v: TopN #%d %s equity %v, want %v", leave != nil, i+1, top[i].Move.String(b), top[i].Equity, want[i])
			}
		}
	}
	return nil
}

// TestBestCrossCheck plays random games and at every position compares
// best-by-equity generation with all-moves-then-max on racks with 0, 1
// and 2 blanks. Quick version: sample word lists; ATRIL_BEST_POSITIONS=N
// runs N positions per language on the full lists.
func TestBestCrossCheck(t *testing.T) {
	long := envInt(t, "ATRIL_BEST_POSITIONS", 0)
	for li, l := range languages {
		t.Run(l.variant, func(t *testing.T) {
			if testing.Short() && long == 0 && l.variant != "english" {
				t.Skip("-short: English only")
			}
			v, full := fullLexicon(t, l)
			lex, positions := sampleLexicon(full, 10), 150
			if testing.Short() {
				positions = 60
			}
			var s movegen.Searcher
			if long > 0 {
				lex, positions = full, long
				s = movegen.NewGaddag(lex)
			} else {
				s = movegen.NewGaddagFrom(automaton.BuildGADDAG(lex))
			}
			all := movegen.NewGaddagFrom(s.(*movegen.Gaddag).Automaton())
			n := bestCrossCheck(t, v, lex, s, all, positions, uint64(li)*77+uint64(envInt(t, "ATRIL_SEED", 1)))
			t.Logf("%s (%d words): %d positions × 3 racks × 2 equities agree", lex.Name, lex.Len(), n)
		})
	}
}

func bestCrossCheck(t *testing.T, v *variant.Variant, lex *lexicon.Lexicon, s movegen.Searcher, all movegen.Generator, positions int, seed uint64) int {
	rng := rand.New(rand.NewPCG(seed, 0xbe57))
	n := 0
	for gameNo := 0; n < positions; gameNo++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed*1000+uint64(gameNo))
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() && n < positions {
			b := g.Board
			rack := g.Seats[g.Current()].Rack
			for nb, r := range blankRacks(rng, v, rack) {
				if err := checkBest(t, s, all, b, &r); err != nil {
					t.Fatalf("%s game %d turn %d rack %s (%d blanks): %v\n%s", v.Name, gameNo, len(g.History), v.Alphabet.RackString(&r), nb, err, b)
				}
			}
			n++
			if n%1000 == 0 && os.Getenv("ATRIL_BEST_POSITIONS") != "" {
				t.Logf("%s: %d positions", v.Name, n)
			}
			played := topMoves(all, b, &rack, 20)
			m := move.Move{Kind: move.Pass}
			if len(played) > 0 {
				m = played[rng.IntN(min(len(played), 1+rng.IntN(20)))]
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: playing %s: %v", v.Name, m.String(b), err)
			}
		}
	}
	return n
}
