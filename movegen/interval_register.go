package movegen

import "atril/lexicon"

// The interval generators join the --algo registry: "anagram", "iwm"
// (threshold 10, sequential) and "iwm-parallel" (threshold 10, two
// workers).
func init() {
	Register("anagram", func(l *lexicon.Lexicon) (Generator, error) { return NewAnagram(l) })
	Register("iwm", func(l *lexicon.Lexicon) (Generator, error) { return NewIWM(l, IWMOptions{}) })
	Register("iwm-parallel", func(l *lexicon.Lexicon) (Generator, error) {
		return NewIWM(l, IWMOptions{Workers: 2})
	})
}
