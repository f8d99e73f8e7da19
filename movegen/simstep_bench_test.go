package movegen_test

import (
	"math/rand/v2"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/movegen"
)

// BenchmarkSimStep is the inner step of a one-ply simulation, on the
// positions of 20 greedy English games (full list): make a candidate
// (the position's best move), find the best reply of a random opponent
// rack drawn from the unseen tiles, and take the candidate back. It uses
// only Place, Remove and Best, so the same file measures older commits.
func BenchmarkSimStep(b *testing.B) {
	v, lex := fullLexicon(b, languages[0])
	gen := movegen.NewGaddag(lex)
	type step struct {
		b    *board.Board
		m    move.Move
		opps []alphabet.Rack
	}
	var steps []step
	rng := rand.New(rand.NewPCG(1, 2))
	for seed := uint64(1); seed <= 20; seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() {
			s := g.Current()
			rack := g.Seats[s].Rack
			m, ok := movegen.Best(gen, g.Board, &rack)
			if !ok {
				m = move.Move{Kind: move.Pass}
			}
			if ok && g.BagLen() > 0 {
				st := step{b: g.Board.Clone(), m: m}
				unseen := g.Unseen(s)
				pool := unseen.Tiles()
				for k := 0; k < 8; k++ {
					rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
					st.opps = append(st.opps, alphabet.RackOf(pool[:min(7, len(pool))]))
				}
				steps = append(steps, st)
			}
			if err := g.Play(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := &steps[i%len(steps)]
		opp := &st.opps[(i/len(steps))%len(st.opps)]
		sq, ts := st.m.Placed()
		st.b.Place(sq, ts, 1000)
		movegen.Best(gen, st.b, opp)
		st.b.Remove(sq)
	}
}
