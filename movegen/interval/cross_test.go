package interval_test

import (
	"math/rand/v2"
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/movegen/interval"
)

// crossByLetter is the reference cross-set: one word lookup per letter.
func crossByLetter(lex *lexicon.Lexicon, pre, suf []alphabet.Tile) uint64 {
	w := make([]alphabet.Tile, 0, len(pre)+1+len(suf))
	for _, t := range pre {
		w = append(w, t.Letter())
	}
	w = append(w, 0)
	for _, t := range suf {
		w = append(w, t.Letter())
	}
	var set uint64
	for l := 1; l <= lex.Alphabet.Size(); l++ {
		w[len(pre)] = alphabet.Tile(l)
		if lex.Contains(w) {
			set |= 1 << l
		}
	}
	return set
}

// TestCrossSetsAgreeWithWordList checks the anagram tables' cross-sets
// against a lookup per letter: around pieces of real words (so most
// have answers), random letters, designated blanks, and pieces longer
// than any word, in every language.
func TestCrossSetsAgreeWithWordList(t *testing.T) {
	for li, l := range languages {
		if testing.Short() && l.variant != "english" {
			continue
		}
		t.Run(l.variant, func(t *testing.T) {
			_, full := fullLexicon(t, l)
			lex := sampleLexicon(full, 20)
			at, err := interval.BuildAnagram(lex, nil, interval.AnagramOptions{})
			if err != nil {
				t.Fatal(err)
			}
			cs := interval.NewCrossSets(at)
			rng := rand.New(rand.NewPCG(uint64(li), 99))
			size := lex.Alphabet.Size()
			check := func(pre, suf []alphabet.Tile) {
				t.Helper()
				if got, want := cs.CrossSet(pre, suf), crossByLetter(lex, pre, suf); got != want {
					t.Fatalf("%q _ %q: cross-set %b, word list says %b", lex.Alphabet.Word(pre), lex.Alphabet.Word(suf), got, want)
				}
			}
			nonEmpty := 0
			for i := 0; i < 4000; i++ {
				w := lex.Word(rng.IntN(lex.Len()))
				hole := rng.IntN(len(w))
				pre := append([]alphabet.Tile(nil), w[:hole]...)
				suf := append([]alphabet.Tile(nil), w[hole+1:]...)
				if len(pre) > 0 && rng.IntN(4) == 0 {
					pre[0] |= alphabet.BlankBit
				}
				if crossByLetter(lex, pre, suf) != 0 {
					nonEmpty++
				}
				check(pre, suf)
				// Random letters around the square.
				r := make([]alphabet.Tile, 1+rng.IntN(4))
				for k := range r {
					r[k] = alphabet.Tile(1 + rng.IntN(size))
				}
				check(r[:1+rng.IntN(len(r))], nil)
				check(nil, r)
			}
			if nonEmpty < 4000 {
				t.Fatalf("only %d of 4000 holes in words have a cross-set", nonEmpty)
			}
			long := make([]alphabet.Tile, lex.MaxLen())
			for k := range long {
				long[k] = 1
			}
			check(long, nil)
			check(nil, long)
		})
	}
}
