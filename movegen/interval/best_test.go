package interval_test

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"atril/board"
	"atril/game"
	"atril/move"
	"atril/movegen"
	"atril/movegen/internal/searchtest"
	"atril/movegen/interval"
)

// TestIntervalBestCrossCheck compares the interval generators'
// best-by-equity search (slots bounded and solved best bound first; the
// Anagram Method, the IWM, and the IWM with the adaptive threshold and
// shared lookups)
// with every move of the GADDAG ranked, on positions of games of random
// good moves and racks with 0, 1 and 2 blanks, for score alone and for a
// leave with no structure: the best equity and the top 12 equities must
// be the same, and the best move's score must be the rules' score; and
// over random sets of lines above a random floor (TopNIn), the entries
// that reach the floor must be those of every move on the lines ranked;
// and after one of the position's placements, near the squares it
// changed (TopNTouching), those of every move that touches them ranked.
// ATRIL_IV_BEST_POSITIONS sets the positions per language (default 30;
// English only with -short), ATRIL_IV_STEP the sampling of long words
// (default 40; 1: the full lists).
func TestIntervalBestCrossCheck(t *testing.T) {
	positions := ivEnv("ATRIL_IV_BEST_POSITIONS", 30)
	step := ivEnv("ATRIL_IV_STEP", 40)
	for li, l := range ivLanguages {
		if testing.Short() && l.variant != "english" {
			continue
		}
		t.Run(l.variant, func(t *testing.T) {
			v, full := ivLexicon(t, l.variant, l.lexicon)
			lex := ivSample(full, step)
			all := movegen.NewGaddag(lex)
			ana, err := interval.NewAnagram(lex)
			if err != nil {
				t.Fatal(err)
			}
			iwm, err := interval.NewIWM(lex, interval.IWMOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fast, err := interval.NewIWM(lex, interval.IWMOptions{Adaptive: true, Share: true})
			if err != nil {
				t.Fatal(err)
			}
			searchers := []movegen.Searcher{all, ana, iwm, fast}
			rng := rand.New(rand.NewPCG(uint64(li)+11, 3))
			n, checked, touching := 0, 0, 0
			for game0 := 0; n < positions; game0++ {
				g, err := game.New(v, lex, []string{"a", "b"}, uint64(game0)*17+uint64(li))
				if err != nil {
					t.Fatal(err)
				}
				for !g.Over() && n < positions {
					b := g.Board
					// Placements of the player on turn, one of which is put on a
					// copy of the board for the TopNTouching check.
					placed := movegen.All(all, b, &g.Seats[g.Current()].Rack)
					if len(placed) > 40 {
						placed = placed[:40]
					}
					for _, rack := range ivRacks(rng, v, g.Seats[g.Current()].Rack) {
						for _, leave := range []movegen.Leave{nil, searchtest.HashLeave{}} {
							want := searchtest.Equities(all, b, &rack, leave)
							for _, s := range searchers {
								if err := searchtest.Check(s, b, &rack, leave, want); err != nil {
									t.Fatalf("%s game %d turn %d rack %s, leave %v: %s: %v\n%s",
										l.variant, game0, len(g.History), v.Alphabet.RackString(&rack), leave != nil, s.Name(), err, b)
								}
								checked++
							}
							// Some lines, above a floor.
							lines := board.Lines{rng.Uint64(), rng.Uint64()}
							in := searchtest.EquitiesIn(all, b, &rack, leave, lines)
							floor := math.Inf(-1)
							if len(in) > 0 && rng.IntN(3) > 0 {
								floor = in[rng.IntN(min(len(in), searchtest.TopN+2))]
							}
							for _, s := range searchers {
								if err := searchtest.CheckIn(s.(movegen.LineSearcher), b, &rack, leave, lines, floor, in); err != nil {
									t.Fatalf("%s game %d turn %d rack %s, leave %v: %s: %v\n%s",
										l.variant, game0, len(g.History), v.Alphabet.RackString(&rack), leave != nil, s.Name(), err, b)
								}
							}
							// Near the squares a placement changed, above a floor.
							if len(placed) > 0 {
								pm := placed[rng.IntN(len(placed))]
								after := b.Clone()
								after.PlaceLine(pm.Dir, pm.Row, pm.Col, pm.Tiles, 1)
								var ch board.Changes
								after.ChangedSquares(&ch)
								near := searchtest.EquitiesWhere(all, after, &rack, leave, func(m *move.Move) bool { return movegen.Touches(m, &ch) })
								floor := math.Inf(-1)
								if len(near) > 0 && rng.IntN(3) > 0 {
									floor = near[rng.IntN(min(len(near), searchtest.TopN+2))]
								}
								for _, s := range searchers[1:] { // the GADDAG's may list others
									if err := searchtest.CheckTouching(s.(movegen.ChangeSearcher), after, &rack, leave, &ch, floor, near); err != nil {
										t.Fatalf("%s game %d turn %d after %s, rack %s, leave %v: %s: %v\n%s",
											l.variant, game0, len(g.History), pm.String(b), v.Alphabet.RackString(&rack), leave != nil, s.Name(), err, after)
									}
								}
								touching++
							}
						}
					}
					n++
					ms := placed
					m := move.Move{Kind: move.Pass}
					if len(ms) > 0 {
						m = ms[rng.IntN(min(len(ms), 1+rng.IntN(10)))]
					}
					if err := g.Play(m); err != nil {
						t.Fatal(err)
					}
				}
			}
			if checked == 0 || touching == 0 {
				t.Fatalf("%d checks, %d near changes", checked, touching)
			}
			t.Logf("%s (%d words): %d positions × 3 racks × 2 equities × %d searchers agree", l.variant, lex.Len(), n, len(searchers))
		})
	}
	if os.Getenv("ATRIL_IV_BEST_POSITIONS") == "" && testing.Verbose() {
		t.Log("ATRIL_IV_BEST_POSITIONS=N ATRIL_IV_STEP=1 runs N positions per language on the full lists")
	}
}
