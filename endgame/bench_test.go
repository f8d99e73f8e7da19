package endgame

import (
	"testing"
	"time"

	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// BenchmarkNodes plays greedy English games (full word list) until the
// bag is empty and searches each endgame with a node budget, reporting
// nodes per second: the cost of a node (move generation, make/unmake,
// ordering) on real positions.
func BenchmarkNodes(b *testing.B) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	gen := movegen.NewGaddag(lex)
	var games []*game.Game
	for seed := uint64(1); len(games) < 8; seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() && g.BagLen() > 0 {
			p := &g.Seats[g.Current()]
			m, ok := movegen.Best(gen, g.Board, &p.Rack)
			if !ok {
				m = move.Move{Kind: move.Pass}
			}
			if err := g.Play(m); err != nil {
				b.Fatal(err)
			}
		}
		if !g.Over() {
			games = append(games, g)
		}
	}
	b.ResetTimer()
	var nodes int64
	var el time.Duration
	for i := 0; i < b.N; i++ {
		g := games[i%len(games)]
		s := g.Current()
		t0 := time.Now()
		res := Solve(gen, g.Board, g.Seats[s].Rack, g.Seats[1-s].Rack, false, Options{NodeLimit: 20000})
		el += time.Since(t0)
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/el.Seconds(), "nodes/s")
}
