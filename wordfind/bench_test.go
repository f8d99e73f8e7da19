package wordfind

import (
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/variant"
)

// BenchmarkFind times questions to the word finder on the whole English
// list: the words of a rack with no blank and with two, its anagrams,
// a suffix pattern, and a pattern that no word matches (the walk reads
// the whole DAWG). It reports the DAWG states visited a question.
func BenchmarkFind(b *testing.B) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	d := automaton.Build(lex, automaton.DAWG)
	for _, c := range []struct {
		name, letters, pattern string
		all                    bool
	}{
		{"build-RETAINS", "RETAINS", "", false},
		{"build-RETAI??", "RETAI??", "", false},
		{"anagram-RETAINS", "RETAINS", "", true},
		{"pattern-*ING", "", "*ING", false},
		{"pattern-*QX*", "", "*QX*", false},
	} {
		b.Run(c.name, func(b *testing.B) {
			q := Query{Limit: 1 << 20, MaxSteps: 1 << 30, AllTiles: c.all}
			if c.letters != "" {
				ts, err := v.Alphabet.Parse(c.letters, alphabet.WithBlanks)
				if err != nil {
					b.Fatal(err)
				}
				q.Rack = ts
			}
			if c.pattern != "" {
				if q.Pattern, err = ParsePattern(v.Alphabet, c.pattern); err != nil {
					b.Fatal(err)
				}
			}
			var res Result
			for b.Loop() {
				if res, err = Find(d, v.Alphabet, q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Steps), "states/op")
			b.ReportMetric(float64(len(res.Words)), "words/op")
		})
	}
}
