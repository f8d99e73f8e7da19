package main

import (
	"bytes"
	"testing"

	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/study"
	"atril/variant"
)

func TestWriteAlphagram(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "ACT", "CAT", "SCAT", "CATS", "ACTS", "TACT")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := study.Build(lex, v.Counts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hooks bool
		want  string
	}{
		// ACT: 9 A × 2 C × 6 T = 108 draws, + 2·(2·6 + 9·6 + 9·2) = 168
		// with one blank (of two), + 9 + 2 + 6 with both: 293 of C(100, 3)
		// = 161,700, 1 in 552. TACT hooks ACT, SCAT and CATS hook CAT.
		{false, "1/1\tACT\t1 in 552\tACT CAT\n"},
		{true, "1/1\tACT\t1 in 552\tt:ACT:s s:CAT:s\n"},
	} {
		var d *automaton.Automaton
		if c.hooks {
			d = automaton.Build(lex, automaton.DAWG)
		}
		var out bytes.Buffer
		writeAlphagram(&out, v.Alphabet, d, ix.Count(3), ix.Rank(3, 1))
		if out.String() != c.want {
			t.Errorf("hooks %v: %q, want %q", c.hooks, out.String(), c.want)
		}
	}
}
