package study

import (
	"testing"

	"atril/lexicon"
	"atril/variant"
)

// BenchmarkBuild times grouping and ranking the whole English list.
func BenchmarkBuild(b *testing.B) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Build(lex, v.Counts); err != nil {
			b.Fatal(err)
		}
	}
}
