package movegen_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/move"
	"atril/movegen"
	"atril/movegen/internal/searchtest"
)

// TestBestAfter checks BestAfter against a whole-board Best on the
// positions of greedy English games: after each of the top placements of
// the rack on turn, a random rack's best reply (score only and with a
// leave table) found from the squares the placement changed and the
// ranking before it equals Best's, move for move; with a short ranking,
// a complete one, and an empty one; searching near the changed squares
// (the GADDAG's TopNTouching) and along the changed lines (a searcher
// with TopNIn only). Some of the short rankings touch the changes alone,
// where the best reply near them must rank ahead of the ranking's last
// entry to be taken without a whole-board search.
func TestBestAfter(t *testing.T) {
	ps, g := bestPositions(t)
	rng := rand.New(rand.NewPCG(5, 6))
	checked, fromBefore, allOn := 0, 0, 0
	for i := 0; i < len(ps); i += 11 {
		p := &ps[i]
		b := p.b.Clone()
		var bag []alphabet.Tile
		for l, c := range b.Variant.Counts {
			for k := 0; k < c; k++ {
				bag = append(bag, alphabet.Tile(l))
			}
		}
		var opp alphabet.Rack
		for k := 0; k < 7; k++ {
			opp.Add(bag[rng.IntN(len(bag))])
		}
		cands := g.TopN(b, &p.rack, nil, 6, nil)
		for ci := range cands {
			cands[ci].Move = movegen.Clone(&cands[ci].Move)
		}
		for _, leave := range []movegen.Leave{nil, hashLeave{}} {
			short := searchtest.CloneAll(g.TopN(b, &opp, leave, 3, nil))
			full := movegen.Search(onlyGenerate{g}, b, &opp, leave, 0)
			for _, c := range cands {
				m := c.Move
				b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1)
				var ch board.Changes
				if !b.ChangedSquares(&ch) {
					t.Fatal("no placement to look back on")
				}
				want, wok := g.Best(b, &opp, leave)
				for _, s := range []movegen.LineSearcher{g, linesOnly{g}} {
					_, near := s.(movegen.ChangeSearcher)
					unchanged := func(m *move.Move) bool { return movegen.Unchanged(s, m, &ch) }
					for _, before := range []struct {
						list     []movegen.Scored
						complete bool
					}{{short, false}, {full, true}, {nil, false}} {
						if len(before.list) > 0 && !before.complete && !slices.ContainsFunc(before.list, func(s movegen.Scored) bool {
							return unchanged(&s.Move)
						}) {
							allOn++
						}
						got, gok := movegen.BestAfter(s, b, &opp, leave, before.list, before.complete, &ch, nil)
						if gok != wok || gok && (got.Equity != want.Equity || !searchtest.SameMove(&got.Move, &want.Move)) {
							t.Fatalf("position %d after %s, rack %s, leave %v, near %v, %d before (complete %v): BestAfter %s (%v), Best %s (%v)",
								i, m.String(p.b), b.Variant.Alphabet.RackString(&opp), leave != nil, near, len(before.list), before.complete,
								got.Move.String(b), got.Equity, want.Move.String(b), want.Equity)
						}
						if gok && unchanged(&got.Move) {
							fromBefore++
						}
						checked++
					}
				}
				b.Undo()
			}
		}
	}
	if checked < 500 || fromBefore == 0 || allOn < 10 {
		t.Fatalf("%d checks, %d answered off the changed lines, %d short rankings on the changed lines alone", checked, fromBefore, allOn)
	}
}

// linesOnly hides the GADDAG's TopNTouching, so that BestAfter searches
// whole changed lines.
type linesOnly struct{ movegen.LineSearcher }

// onlyGenerate hides a generator's search, so that movegen.Search lists
// and ranks every move.
type onlyGenerate struct{ movegen.Generator }
