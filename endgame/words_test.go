package endgame

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
)

// formable is NewWords's rule written out for one word: some line of b
// has squares lo..lo+len(w)−1 with the squares just outside them empty
// or off the board, every tile on them equal to w's letter there, and
// the pool (blanks for any letter) holding w's letters for the others.
func formable(b *board.Board, w []alphabet.Tile, pool alphabet.Rack) bool {
	n := b.Size
	for d := board.Across; d <= board.Down; d++ {
		for r := 0; r < n; r++ {
			line := b.Line(d, r)
		starts:
			for lo := 0; lo+len(w) <= n; lo++ {
				hi := lo + len(w) - 1
				if (lo > 0 && line[lo-1] != board.Empty) || (hi+1 < n && line[hi+1] != board.Empty) {
					continue
				}
				p := pool
				for i, l := range w {
					switch t := line[lo+i]; {
					case t != board.Empty:
						if t.Letter() != l {
							continue starts
						}
					case p[l] > 0:
						p[l]--
					case p[alphabet.Blank] > 0:
						p[alphabet.Blank]--
					default:
						continue starts
					}
				}
				return true
			}
		}
	}
	return false
}

// TestNewWordsAgainstRule checks the cut word list against the rule word
// by word, on endgame boards of greedy games with a sixteenth of the
// English list, for the two racks, and for them with a blank added.
func TestNewWordsAgainstRule(t *testing.T) {
	games, _ := greedyEndgames(t, 3)
	v := games[0].Board.Variant
	// a sixteenth of the whole list, its own generator
	whole := games[0].Board.Words().(*lexicon.Lexicon)
	var some [][]alphabet.Tile
	for i := 0; i < whole.Len(); i += 16 {
		some = append(some, whole.Word(i))
	}
	lex := lexicon.FromTiles(v.Alphabet, some)
	gen := movegen.NewOwnGaddag(lex)
	for _, g := range games {
		pool := g.Seats[0].Rack
		for t, c := range g.Seats[1].Rack {
			pool[t] += c
		}
		withBlank := pool
		withBlank[alphabet.Blank]++
		for _, p := range []alphabet.Rack{pool, withBlank} {
			w, ok := NewWords(gen, g.Board, p)
			if !ok {
				t.Fatal("NewWords refused a GADDAG generator")
			}
			kept := 0
			for i := 0; i < lex.Len(); i++ {
				word := lex.Word(i)
				want := formable(g.Board, word, p)
				if got := w.lex.Contains(word); got != want {
					t.Errorf("seed %d, pool %s: %s kept %v, the rule says %v", g.Seed, v.Alphabet.Word(p.Tiles()), v.Alphabet.Word(word), got, want)
				}
				if want {
					kept++
				}
			}
			if w.Len() != kept {
				t.Errorf("seed %d: %d words kept, the rule keeps %d", g.Seed, w.Len(), kept)
			}
			if kept == 0 || kept == lex.Len() {
				t.Errorf("seed %d: the rule keeps %d words of %d: no test", g.Seed, kept, lex.Len())
			}
		}
	}
	if _, ok := NewWords(movegen.NewDawg(whole), games[0].Board, alphabet.Rack{}); ok {
		t.Error("NewWords accepted a generator that is not a GADDAG")
	}
	if _, ok := NewWords(gen, games[0].Board, alphabet.Rack{alphabet.Blank: 2}); ok {
		t.Error("NewWords cut the list for two blanks")
	}
}

// listing is a position's moves as sorted text, scores included.
func listing(gen movegen.Generator, b *board.Board, r *alphabet.Rack) []string {
	var out []string
	gen.Generate(b, r, func(m *move.Move) {
		out = append(out, m.String(b)+" "+strconv.Itoa(m.Score))
	})
	slices.Sort(out)
	return out
}

// TestWordsListSameMoves plays random lines through endgames of greedy
// games (the whole English list) and checks at every position that the
// cut-down list and the whole one give both sides the same moves with
// the same scores.
func TestWordsListSameMoves(t *testing.T) {
	n, walks := 6, 12
	if testing.Short() {
		n, walks = 3, 4
	}
	games, gen := greedyEndgames(t, n)
	rng := rand.New(rand.NewPCG(3, 4))
	positions := 0
	for _, g := range games {
		racks := [2]alphabet.Rack{g.Seats[0].Rack, g.Seats[1].Rack}
		pool := racks[0]
		for t, c := range racks[1] {
			pool[t] += c
		}
		w, ok := NewWords(gen, g.Board, pool)
		if !ok {
			t.Fatal("NewWords refused a GADDAG generator")
		}
		for walk := 0; walk < walks; walk++ {
			fb, cb := g.Board.Clone(), g.Board.WithWords(w.lex)
			rs := racks
			passes := 0
			for side := 0; rs[0].Len() > 0 && rs[1].Len() > 0 && passes < 2; side = 1 - side {
				positions++
				var ms []string
				for s := 0; s < 2; s++ {
					a, b := listing(gen, fb, &rs[s]), listing(w.gen, cb, &rs[s])
					if !slices.Equal(a, b) {
						t.Fatalf("seed %d, walk %d: %d moves with the whole list, %d with the cut one (%d words)", g.Seed, walk, len(a), len(b), w.Len())
					}
					if s == side {
						ms = a
					}
				}
				if len(ms) == 0 || rng.IntN(8) == 0 {
					passes++
					continue
				}
				passes = 0
				all := movegen.All(gen, fb, &rs[side])
				m := all[rng.IntN(len(all))]
				fb.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1)
				cb.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1)
				rs[side] = m.Kept(rs[side])
			}
		}
	}
	if positions < 10*n {
		t.Fatalf("only %d positions compared", positions)
	}
}

// TestListsFromTwoPliesUp checks every move list the search makes from
// the one two plies up (and a search of the changed lines) against a
// listing of the whole board, in endgames of greedy games, with one
// thread and with three.
func TestListsFromTwoPliesUp(t *testing.T) {
	n, nodes, want := 6, int64(20000), 1000
	if testing.Short() {
		n, nodes, want = 2, 8000, 200
	}
	games, gen := greedyEndgames(t, n)
	checked := 0
	for _, threads := range []int{1, 3} {
		for _, g := range games {
			c := g.Current()
			s := newSolver(gen, g.Board.Clone(), g.Seats[c].Rack, g.Seats[1-c].Rack, Options{NodeLimit: nodes, Threads: threads})
			var mu sync.Mutex
			check := func(gen movegen.Generator) func(*board.Board, *alphabet.Rack, []move.Move) {
				return func(b *board.Board, rack *alphabet.Rack, ms []move.Move) {
					mu.Lock()
					defer mu.Unlock()
					checked++
					var got []string
					for i := range ms {
						got = append(got, ms[i].String(b)+" "+strconv.Itoa(ms[i].Score))
					}
					slices.Sort(got)
					if want := listing(gen, b, rack); !slices.Equal(got, want) {
						t.Errorf("game %d: %d moves from two plies up, %d on the whole board", g.Seed, len(got), len(want))
					}
				}
			}
			s.checkList = check(s.gen)
			if threads > 1 {
				s.split = s.startHelpers(gen, g.Board)
				for _, hs := range s.split.solvers {
					hs.checkList = check(hs.gen)
				}
			}
			for d := 1; ; d++ {
				if _, exact, done := s.root(d, false); !done || exact {
					break
				}
			}
			if s.split != nil {
				s.split.stop()
			}
		}
	}
	if checked < want {
		t.Errorf("only %d lists checked", checked)
	}
}
