package player

import (
	"testing"

	"atril/game"
	"atril/lexicon"
	"atril/movegen"
	"atril/variant"
)

// midgames plays greedy English games (full word list) and keeps the
// view of the player on turn at turns 4, 10 and 16 of each.
func midgames(b testing.TB, games int) ([]*View, Options) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	gen := movegen.NewGaddag(lex)
	var views []*View
	for seed := uint64(1); seed <= uint64(games); seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			b.Fatal(err)
		}
		pro := &Greedy{Gen: gen}
		for turn := 0; turn < 17 && !g.Over(); turn++ {
			if turn == 4 || turn == 10 || turn == 16 {
				views = append(views, ViewOf(g, g.Current()))
			}
			if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
				b.Fatal(err)
			}
		}
	}
	return views, Options{Variant: v, Lexicon: lex, Generator: gen}
}

// BenchmarkSimulation times the simulation player's choice on mid-game
// positions at its defaults (one thread), and reports the
// candidate-iterations it played per second and per move.
func BenchmarkSimulation(b *testing.B) {
	views, o := midgames(b, 4)
	o.Seed = 1
	benchSimulation(b, views, o)
}

// BenchmarkSimulation40x100 times the simulation player's choice on the
// same positions at 40 candidates × 100 iterations, one ply (the setting
// the move-generation core was measured at).
func BenchmarkSimulation40x100(b *testing.B) {
	views, o := midgames(b, 4)
	o.Seed, o.Candidates, o.Iterations, o.Plies = 1, 40, 100, 1
	benchSimulation(b, views, o)
}

func benchSimulation(b *testing.B, views []*View, o Options) {
	p, err := New("simulation", o)
	if err != nil {
		b.Fatal(err)
	}
	s := p.(*Simulation)
	b.ResetTimer()
	sims := 0
	for i := 0; i < b.N; i++ {
		s.Choose(views[i%len(views)])
		sims += s.Simulated
	}
	b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "iters/s")
	b.ReportMetric(float64(sims)/float64(b.N), "iters/move")
}
