package interval_test

import (
	"testing"
	"time"

	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/movegen/interval"
	"atril/multiset"
)

// intervalBench builds the interval generators over one lexicon, sharing
// the PER tables: the Anagram Method and the IWM at a few thresholds.
func intervalBench(b *testing.B, lex *lexicon.Lexicon) []movegen.Generator {
	b.Helper()
	per, err := multiset.Build(lex.Alphabet.Size(), lex)
	if err != nil {
		b.Fatal(err)
	}
	at, err := interval.BuildAnagram(lex, per, interval.AnagramOptions{})
	if err != nil {
		b.Fatal(err)
	}
	gens := []movegen.Generator{interval.NewAnagramFrom(at)}
	for _, th := range []int{10} {
		it, err := interval.BuildIWM(lex, per, interval.IWMOptions{Threshold: th})
		if err != nil {
			b.Fatal(err)
		}
		gens = append(gens, interval.NewIWMFrom(it, 1))
	}
	return gens
}

// BenchmarkIntervalGenerate times the interval generators (anagram, iwm
// at threshold 10) over the same fixed positions as BenchmarkGenerate:
// one op generates every move of every position of the file. It reports
// ns per position, moves per second, allocations, and the counters of
// Sánchez Bello 2025 chapter 6 per position.
//
//	go test ./movegen/interval -run '^$' -bench IntervalGenerate -benchtime 3x
func BenchmarkIntervalGenerate(b *testing.B) {
	for _, l := range languages {
		// Tables are built inside the language's sub-benchmark, so a
		// -bench filter naming one language builds only its tables.
		b.Run(l.variant, func(b *testing.B) {
			_, lex := fullLexicon(b, l)
			ps := loadPositions(b, l, lex)
			for _, gen := range intervalBench(b, lex) {
				c, _ := gen.(interface{ Stats() interval.Stats })
				b.Run(gen.Name(), func(b *testing.B) {
					moves, runs := 0, 0
					var st interval.Stats
					sink := func(*move.Move) { moves++ }
					b.ReportAllocs()
					t0 := time.Now()
					for b.Loop() {
						for i := range ps {
							gen.Generate(ps[i].b, &ps[i].rack, sink)
							if c != nil {
								s := c.Stats()
								st.Add(&s)
							}
						}
						runs++
					}
					el := time.Since(t0)
					n := float64(runs * len(ps))
					b.ReportMetric(float64(el.Nanoseconds())/n, "ns/position")
					b.ReportMetric(float64(moves)/el.Seconds(), "moves/s")
					b.ReportMetric(float64(st.Instances)/n, "instances/position")
					b.ReportMetric(float64(st.Candidates)/n, "candidates/position")
				})
			}
		})
	}
}
