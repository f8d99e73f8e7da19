package match

import (
	"sync"
	"testing"

	"atril/lexicon"
	"atril/movegen"
	"atril/player"
	"atril/variant"
)

var (
	benchOnce sync.Once
	benchLex  *lexicon.Lexicon
	benchGen  movegen.Generator
)

func benchConfig(b *testing.B, level string) Config {
	b.Helper()
	v := variant.MustLoad("english")
	benchOnce.Do(func() {
		lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
		if err != nil {
			b.Fatal(err)
		}
		benchLex = lex
		benchGen = movegen.NewGaddag(lex)
	})
	return Config{Variant: v, Lexicon: benchLex, Generator: benchGen, Players: [2]string{level, level},
		Options: [2]player.Options{{}, {}}, Threads: 1, Seed: 7}
}

// BenchmarkSelfPlay plays whole English games between two copies of a
// level on one thread and reports games per second.
func BenchmarkSelfPlay(b *testing.B) {
	for _, level := range []string{"professional", "inhuman"} {
		b.Run(level, func(b *testing.B) {
			cfg := benchConfig(b, level)
			cfg.Games = b.N
			b.ResetTimer()
			rep, err := Run(cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/rep.Elapsed.Seconds(), "games/s")
		})
	}
}
