package endgame_test

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"atril/endgame"
	"atril/game"
	"atril/lexicon"
	"atril/movegen"
	"atril/player"
	"atril/variant"
)

// BenchmarkSolveStrong solves 7-against-7 endgames of strong play: the
// first 30 English games (full word list) between two inhuman players
// (the learnt leave table), game.New's random seed counting up from one,
// whose bag empties with seven tiles on each rack, each with a time
// budget of 5 s (ATRIL_ENDGAME_BUDGET sets another, ATRIL_ENDGAME_THREADS
// the threads, ATRIL_ENDGAME_GAMES the number of endgames;
// ATRIL_ENDGAME_FULL=1 searches with the whole word list instead of one
// cut down to the two racks). It reports how many were solved to the
// end, how many within a second, and the median time to solve (the
// budget when unsolved); -v logs each. Run it with -benchtime 1x.
func BenchmarkSolveStrong(b *testing.B) {
	budget := 5 * time.Second
	if d, err := time.ParseDuration(os.Getenv("ATRIL_ENDGAME_BUDGET")); err == nil {
		budget = d
	}
	threads, _ := strconv.Atoi(os.Getenv("ATRIL_ENDGAME_THREADS"))
	full := os.Getenv("ATRIL_ENDGAME_FULL") == "1"
	want := 30
	if n, err := strconv.Atoi(os.Getenv("ATRIL_ENDGAME_GAMES")); err == nil && n > 0 {
		want = n
	}
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	gen := movegen.NewGaddag(lex)
	p, err := player.New("inhuman", player.Options{Variant: v, Lexicon: lex, Generator: gen})
	if err != nil {
		b.Fatal(err)
	}
	var games []*game.Game
	for seed := uint64(1); len(games) < want; seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() && g.BagLen() > 0 {
			if err := g.Play(p.Choose(player.ViewOf(g, g.Current()))); err != nil {
				b.Fatal(err)
			}
		}
		s := g.Current()
		if !g.Over() && g.Seats[s].Rack.Len() == 7 && g.Seats[1-s].Rack.Len() == 7 {
			games = append(games, g)
		}
	}
	b.ResetTimer()
	var times []time.Duration
	solved, fast := 0, 0
	for i := 0; i < b.N; i++ {
		times, solved, fast = times[:0], 0, 0
		for _, g := range games {
			s := g.Current()
			me, opp := g.Seats[s].Rack, g.Seats[1-s].Rack
			t0 := time.Now()
			res := endgame.Solve(gen, g.Board, me, opp, false, endgame.Options{TimeLimit: budget, Threads: threads, FullList: full})
			d := time.Since(t0)
			if res.Exact {
				solved++
				if d < time.Second {
					fast++
				}
			} else {
				d = budget
			}
			times = append(times, d)
			b.Logf("seed %d: %s v %s, solved %v, depth %d, %d nodes, value %d, %v",
				g.Seed, v.Alphabet.Word(me.Tiles()), v.Alphabet.Word(opp.Tiles()), res.Exact, res.Depth, res.Nodes, res.Value, d.Round(time.Millisecond))
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(solved), "solved")
	b.ReportMetric(float64(fast), "solved<1s")
	b.ReportMetric(times[len(times)/2].Seconds(), "median-s")
}
