package endgame

import (
	"os"
	"strconv"
	"testing"
	"time"

	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// greedyEndgames plays greedy English games (full word list) from seed
// 1 on until the bag is empty, and returns the first n that reach an
// endgame, with the generator.
func greedyEndgames(b testing.TB, n int) ([]*game.Game, movegen.Generator) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	gen := movegen.NewGaddag(lex)
	var games []*game.Game
	for seed := uint64(1); len(games) < n; seed++ {
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
	return games, gen
}

// BenchmarkNodes plays greedy English games (full word list) until the
// bag is empty and searches each endgame with a node budget, reporting
// nodes per second: the cost of a node (move generation, make/unmake,
// ordering) on real positions.
func BenchmarkNodes(b *testing.B) {
	games, gen := greedyEndgames(b, 8)
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

// BenchmarkSolve12 solves the endgames of the first 12 greedy English
// games that reach one (seeds 1 to 12), each with a time budget of 20 s
// (ATRIL_ENDGAME_BUDGET sets another; ATRIL_ENDGAME_THREADS the
// threads, Options.Threads), and reports how many were solved
// to the end, how many within a second, and the seconds spent; -v logs
// each (tiles on the racks, depth, nodes, value, time). Run it with
// -benchtime 1x: one round takes up to 12 budgets.
func BenchmarkSolve12(b *testing.B) {
	games, gen := greedyEndgames(b, 12)
	budget := 20 * time.Second
	if d, err := time.ParseDuration(os.Getenv("ATRIL_ENDGAME_BUDGET")); err == nil {
		budget = d
	}
	threads, _ := strconv.Atoi(os.Getenv("ATRIL_ENDGAME_THREADS"))
	b.ResetTimer()
	solved, fast := 0, 0
	var el time.Duration
	for i := 0; i < b.N; i++ {
		solved, fast, el = 0, 0, 0
		for _, g := range games {
			s := g.Current()
			me, opp := g.Seats[s].Rack, g.Seats[1-s].Rack
			t0 := time.Now()
			res := Solve(gen, g.Board, me, opp, false, Options{TimeLimit: budget, Threads: threads})
			d := time.Since(t0)
			el += d
			if res.Exact {
				solved++
				if d < time.Second {
					fast++
				}
			}
			b.Logf("seed %d: %d v %d tiles, solved %v, depth %d, %d nodes, value %d, %s, %v",
				g.Seed, me.Len(), opp.Len(), res.Exact, res.Depth, res.Nodes, res.Value, res.Move.String(g.Board), d.Round(time.Millisecond))
		}
	}
	b.ReportMetric(float64(solved), "solved")
	b.ReportMetric(float64(fast), "solved<1s")
	b.ReportMetric(el.Seconds(), "s/round")
}

// TestThreads solves endgames of greedy English games (full word list)
// with one thread and with two: the exact values must agree, and the
// two-thread move must be worth the value (checked by solving the
// position after it with one thread).
func TestThreads(t *testing.T) {
	games, gen := greedyEndgames(t, 7)
	pick := []int{6, 5, 1} // seeds 7, 6 and 2 (7 against 7): solved within a second
	if testing.Short() {
		pick = pick[:1]
	}
	for _, i := range pick {
		g := games[i]
		s := g.Current()
		me, opp := g.Seats[s].Rack, g.Seats[1-s].Rack
		one := Solve(gen, g.Board, me, opp, false, Options{})
		two := Solve(gen, g.Board, me, opp, false, Options{Threads: 2})
		if !one.Exact || !two.Exact || one.Value != two.Value {
			t.Fatalf("seed %d: one thread %d (exact %v), two %d (exact %v)", g.Seed, one.Value, one.Exact, two.Value, two.Exact)
		}
		m := two.Move
		if m.Kind != move.Place {
			continue
		}
		b := g.Board.Clone()
		left := m.Kept(me)
		got := m.Score
		if left.Len() == 0 {
			got += 2 * opp.Value(b.Variant.Scores)
		} else {
			squares, tiles := m.Placed()
			b.Place(squares, tiles, 1000)
			after := Solve(gen, b, opp, left, false, Options{})
			got -= after.Value
		}
		if got != two.Value {
			t.Errorf("seed %d: the two-thread move %s is worth %d, the value is %d", g.Seed, m.String(g.Board), got, two.Value)
		}
		t.Logf("seed %d: value %d; nodes one thread %d, two %d", g.Seed, one.Value, one.Nodes, two.Nodes)
	}
	// A time budget stops both threads (the first waits for the second
	// at shared nodes) with a legal move, on an endgame (seed 3, 7
	// against 7) that takes far longer to solve.
	g := games[2]
	s := g.Current()
	me, opp := g.Seats[s].Rack, g.Seats[1-s].Rack
	t0 := time.Now()
	res := Solve(gen, g.Board, me, opp, false, Options{Threads: 2, TimeLimit: 200 * time.Millisecond})
	if el := time.Since(t0); !res.Stopped || res.Exact || el > 3*time.Second {
		t.Errorf("seed %d with 200 ms: stopped %v, exact %v, after %v", g.Seed, res.Stopped, res.Exact, el)
	}
	if m := res.Move; m.Kind == move.Place {
		if err := move.Validate(g.Board, &me, &m, 0); err != nil {
			t.Errorf("seed %d: the stopped search's move %s: %v", g.Seed, m.String(g.Board), err)
		}
	}
	// A node budget bounds each thread's nodes.
	res = Solve(gen, g.Board, me, opp, false, Options{Threads: 2, NodeLimit: 20000})
	if !res.Stopped || res.Nodes > 2*20000 {
		t.Errorf("seed %d with 20,000 nodes a thread: stopped %v after %d nodes", g.Seed, res.Stopped, res.Nodes)
	}
}
