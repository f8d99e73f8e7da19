package automaton

import (
	"math/rand/v2"
	"testing"

	"atril/alphabet"
)

// TestCrossSets checks the DAWG's and the GADDAG's cross-set answers
// against one word lookup per letter, on prefixes and suffixes cut from
// real words (so most answers are not empty) and on random ones.
func TestCrossSets(t *testing.T) {
	for _, l := range languages {
		if testing.Short() && l.variant != "english" {
			continue
		}
		lex := sample(loadLexicon(t, l), 7)
		dawg := NewCrossSets(Build(lex, DAWG))
		gaddag := NewCrossSets(Build(lex, GADDAG))
		rng := rand.New(rand.NewPCG(1, 2))
		size := lex.Alphabet.Size()
		nonEmpty := 0
		for i := 0; i < 3000; i++ {
			var pre, suf []alphabet.Tile
			if i%3 != 0 {
				w := lex.Word(rng.IntN(lex.Len()))
				k := rng.IntN(len(w))
				pre, suf = w[:k], w[k+1:]
			} else {
				for n := rng.IntN(4); n > 0; n-- {
					pre = append(pre, alphabet.Tile(1+rng.IntN(size)))
				}
				for n := rng.IntN(4); n > 0; n-- {
					suf = append(suf, alphabet.Tile(1+rng.IntN(size)))
				}
			}
			var want uint64
			w := append(append(append([]alphabet.Tile(nil), pre...), 0), suf...)
			for x := 1; x <= size; x++ {
				w[len(pre)] = alphabet.Tile(x)
				if lex.Contains(w) {
					want |= 1 << x
				}
			}
			if want != 0 {
				nonEmpty++
			}
			if got := dawg.CrossSet(pre, suf); got != want {
				t.Fatalf("%s: DAWG cross-set of %v_%v = %b, want %b", l.lexicon, pre, suf, got, want)
			}
			if got := gaddag.CrossSet(pre, suf); got != want {
				t.Fatalf("%s: GADDAG cross-set of %v_%v = %b, want %b", l.lexicon, pre, suf, got, want)
			}
		}
		if nonEmpty < 1000 {
			t.Errorf("%s: only %d non-empty cross-sets tested", l.lexicon, nonEmpty)
		}
	}
}
