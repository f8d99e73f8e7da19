package match

import (
	"sync"
	"testing"

	"atril/board"
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
		g := movegen.NewGaddag(lex)
		// The first search builds the anagram filter of the word list,
		// a one-time cost of the process that games/s leaves out.
		b := board.New(v, lex)
		rack, _ := v.Alphabet.ParseRack("AEINRST")
		g.Best(b, &rack, nil)
		benchGen = g
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
