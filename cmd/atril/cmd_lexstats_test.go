package main

import (
	"bytes"
	"regexp"
	"testing"

	"atril/lexicon"
	"atril/variant"
)

// The inner words of Sánchez Bello 2025, section 5.1.1: CORAZON has 12 (C,
// COR, CORA, O, ORA, R, RA, RAZON, A, Z, O, N); with COR (3), CORA (7), ORA
// (4), RA (2) and RAZON (6) the list holds 34 occurrences, 24 of them
// single letters; R is in all six words.
func TestLexStatsCorazon(t *testing.T) {
	v := variant.MustLoad("spanish")
	lex, err := lexicon.FromWords(v.Alphabet, "CORAZON", "COR", "CORA", "ORA", "RA", "RAZON")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeLexStats(&out, lex, v.Counts, 10, true, 3); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		`inner-word occurrences\s+34 `,
		`length 1\s+24 `,
		`distinct inner words\s+11 \(5 words and 6 letters\)`,
		`most frequent #1\s+R in 6 words`,
		`2 / 3 / 4\+ letters\s+1 / 2 / 3`,
	} {
		if !regexp.MustCompile(want).MatchString(s) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}
