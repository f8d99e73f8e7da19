package movegen_test

import (
	"sync"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/movegen"
)

type benchPos struct {
	b    *board.Board
	rack alphabet.Rack
}

var (
	bestPosOnce sync.Once
	bestPos     []benchPos
	bestGen     *movegen.Gaddag
)

// bestPositions plays 40 greedy English games on the full list and keeps
// every position with the rack on turn.
func bestPositions(b testing.TB) ([]benchPos, *movegen.Gaddag) {
	bestPosOnce.Do(func() {
		v, lex := fullLexicon(b, languages[0])
		bestGen = movegen.NewGaddag(lex)
		for seed := uint64(1); seed <= 40; seed++ {
			g, err := game.New(v, lex, []string{"a", "b"}, seed)
			if err != nil {
				b.Fatal(err)
			}
			for !g.Over() {
				p := &g.Seats[g.Current()]
				bestPos = append(bestPos, benchPos{g.Board.Clone(), p.Rack})
				m, ok := movegen.Best(bestGen, g.Board, &p.Rack)
				if !ok {
					m = move.Move{Kind: move.Pass}
				}
				if err := g.Play(m); err != nil {
					b.Fatal(err)
				}
			}
		}
		bestGen.Best(bestPos[0].b, &bestPos[0].rack, nil) // build the anagram filter
	})
	return bestPos, bestGen
}

// BenchmarkBest compares, on the positions of 40 greedy English games,
// listing every move (all), the best move by score (best) and the best
// by score plus a leave (best-leave), per position.
func BenchmarkBest(b *testing.B) {
	ps, g := bestPositions(b)
	b.Run("all", func(b *testing.B) {
		n := 0
		for i := 0; b.Loop(); i++ {
			p := &ps[i%len(ps)]
			g.Generate(p.b, &p.rack, func(*move.Move) { n++ })
		}
	})
	b.Run("best", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			p := &ps[i%len(ps)]
			g.Best(p.b, &p.rack, nil)
		}
	})
	b.Run("best-leave", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			p := &ps[i%len(ps)]
			g.Best(p.b, &p.rack, hashLeave{})
		}
	})
}
