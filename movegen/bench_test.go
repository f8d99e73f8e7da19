package movegen_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/cgp"
	"atril/game"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
)

// BenchGenerators are the generators the benchmarks time on the full word
// lists. Another generator joins from its own test file in init().
var BenchGenerators = []func(lex *lexicon.Lexicon) movegen.Generator{
	func(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewBrute(lex) },
	func(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewDawg(lex) },
	func(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewGaddag(lex) },
}

// position is a board and the rack of the player on turn.
type position struct {
	b    *board.Board
	rack alphabet.Rack
}

// positionsFile is the fixed benchmark position file of a language.
func positionsFile(l language) string {
	return filepath.Join("testdata", l.variant+".cgp")
}

// benchGames and benchSeed fix the games the positions come from.
const (
	benchGames = 3
	benchSeed  = 2026
)

// TestWritePositions rewrites the benchmark position files when
// ATRIL_WRITE_POSITIONS=1: every position (board and rack on turn) of
// benchGames greedy games per language, seeded from benchSeed.
func TestWritePositions(t *testing.T) {
	if os.Getenv("ATRIL_WRITE_POSITIONS") == "" {
		t.Skip("set ATRIL_WRITE_POSITIONS=1 to rewrite testdata/*.cgp")
	}
	for _, l := range languages {
		v, lex := fullLexicon(t, l)
		gen := movegen.NewGaddag(lex)
		var sb strings.Builder
		fmt.Fprintf(&sb, "# %s, %s: every position of %d greedy games, seeds %d..%d (rewrite: ATRIL_WRITE_POSITIONS=1 go test ./movegen -run WritePositions)\n",
			v.Name, lex.Name, benchGames, benchSeed, benchSeed+benchGames-1)
		for i := 0; i < benchGames; i++ {
			g, err := game.New(v, lex, []string{"a", "b"}, benchSeed+uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			for !g.Over() {
				sb.WriteString(cgp.FromGame(g).String() + "\n")
				m, ok := movegen.Best(gen, g.Board, &g.Seats[g.Current()].Rack)
				if !ok {
					m = move.Move{Kind: move.Pass}
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := os.WriteFile(positionsFile(l), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loadPositions reads a language's benchmark positions.
func loadPositions(t testing.TB, l language, lex *lexicon.Lexicon) []position {
	t.Helper()
	v, _ := fullLexicon(t, l)
	f, err := os.Open(positionsFile(l))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []position
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		p, err := cgp.Parse(s, v)
		if err != nil {
			t.Fatalf("%s:%d: %v", positionsFile(l), line, err)
		}
		b, err := p.Board(lex)
		if err != nil {
			t.Fatalf("%s:%d: %v", positionsFile(l), line, err)
		}
		out = append(out, position{b, p.RackTiles[0]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no positions", positionsFile(l))
	}
	return out
}

// BenchmarkGenerate times full move generation over the fixed positions
// of each language: one op generates every move of every position of the
// file. It reports ns per position, moves per second and allocations.
//
//	go test ./movegen -run '^$' -bench Generate -benchtime 3x
func BenchmarkGenerate(b *testing.B) {
	for _, l := range languages {
		_, lex := fullLexicon(b, l)
		ps := loadPositions(b, l, lex)
		for _, mk := range BenchGenerators {
			gen := mk(lex)
			b.Run(l.variant+"/"+gen.Name(), func(b *testing.B) {
				moves, runs := 0, 0
				sink := func(*move.Move) { moves++ }
				b.ReportAllocs()
				t0 := time.Now()
				for b.Loop() {
					for i := range ps {
						gen.Generate(ps[i].b, &ps[i].rack, sink)
					}
					runs++
				}
				el := time.Since(t0)
				b.ReportMetric(float64(el.Nanoseconds())/float64(runs*len(ps)), "ns/position")
				b.ReportMetric(float64(moves)/el.Seconds(), "moves/s")
			})
		}
	}
}

// TestNoAllocs checks that the fast generators allocate nothing per
// generation (so nothing per move) once warmed up, on the benchmark
// positions of English (with cross-sets from a sample of the list, so the
// automata build quickly in memory).
func TestNoAllocs(t *testing.T) {
	l := languages[0]
	_, full := fullLexicon(t, l)
	lex := sampleLexicon(full, 10)
	ps := loadPositions(t, l, lex)
	for _, gen := range []movegen.Generator{
		movegen.NewDawgFrom(automaton.BuildDAWG(lex)),
		movegen.NewGaddagFrom(automaton.BuildGADDAG(lex)),
	} {
		moves := 0
		sink := func(*move.Move) { moves++ }
		i := 0
		allocs := testing.AllocsPerRun(2*len(ps), func() {
			gen.Generate(ps[i%len(ps)].b, &ps[i%len(ps)].rack, sink)
			i++
		})
		if allocs > 0.1 {
			t.Errorf("%s: %.2f allocations per generation (%d moves in all), want 0", gen.Name(), allocs, moves)
		}
	}
}

// BenchmarkCompare times the generators interleaved, position by
// position, so that on a busy machine every generator meets the same
// load, and reports each one's mean time per position (the fastest of a
// few runs for the quick ones, by the thread's CPU clock where there is
// one) and the speed ratios between them (one op
// is one pass over the positions with every generator; the oracle makes
// a pass take seconds to minutes, so run it with -benchtime 1x):
//
//	go test ./movegen -run '^$' -bench Compare -benchtime 1x
func BenchmarkCompare(b *testing.B) {
	for _, l := range languages {
		_, lex := fullLexicon(b, l)
		ps := loadPositions(b, l, lex)
		var gens []movegen.Generator
		for _, mk := range BenchGenerators {
			gens = append(gens, mk(lex))
		}
		b.Run(l.variant, func(b *testing.B) {
			total := make([]time.Duration, len(gens))
			moves := make([]int, len(gens))
			runs := 0
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for b.Loop() {
				for i := range ps {
					for k, g := range gens {
						// The fastest of up to five runs (while they take
						// under 50ms in all), timed by the thread's CPU
						// clock, so that time spent waiting for a core on a
						// busy machine does not count.
						best, spent := time.Duration(1<<62), time.Duration(0)
						for r := 0; r < 5 && spent < 50*time.Millisecond; r++ {
							n := 0
							t0 := threadCPU()
							g.Generate(ps[i].b, &ps[i].rack, func(*move.Move) { n++ })
							d := threadCPU() - t0
							best, spent = min(best, d), spent+d
							if r == 0 {
								moves[k] += n
							}
						}
						total[k] += best
					}
				}
				runs++
			}
			b.Logf("%s: %d positions, times by %s", l.variant, len(ps), clockName)
			per := func(k int) float64 { return float64(total[k].Nanoseconds()) / float64(runs*len(ps)) }
			for k, g := range gens {
				b.ReportMetric(per(k), g.Name()+"-ns/position")
				if k > 0 && moves[k] != moves[0] {
					b.Errorf("%s found %d moves, %s %d", g.Name(), moves[k], gens[0].Name(), moves[0])
				}
			}
			for i := range gens {
				for j := range gens {
					if i < j {
						b.ReportMetric(per(i)/per(j), gens[j].Name()+"-vs-"+gens[i].Name()+"-speedup")
					}
				}
			}
		})
	}
}
