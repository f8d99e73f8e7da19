package movegen_test

import (
	"atril/lexicon"
	"atril/movegen"
	"atril/movegen/interval"
)

// The interval generators (package movegen/interval) join the shared
// cross-check and the opening test: anagram and iwm at its default
// threshold. The other thresholds and the parallel mode are checked by
// TestIntervalCrossCheck in their own package.
func init() {
	Generators = append(Generators,
		func(lex *lexicon.Lexicon) movegen.Generator {
			g, err := interval.NewAnagram(lex)
			if err != nil {
				panic(err)
			}
			return g
		},
		func(lex *lexicon.Lexicon) movegen.Generator {
			g, err := interval.NewIWM(lex, interval.IWMOptions{})
			if err != nil {
				panic(err)
			}
			return g
		},
	)
}
