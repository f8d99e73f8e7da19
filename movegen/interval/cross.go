package interval

import (
	"math/bits"

	"atril/alphabet"
	"atril/lexicon"
	"atril/multiset"
)

// CrossSets answers a lexicon's cross-set queries (lexicon.CrossSetter)
// through the anagram tables, for programs that build no automaton of
// the list: the one-blank table of the cross word's length, keyed by the
// multiset of the letters around the square, holds the letters x that
// make a word's multiset with them; only those are looked up in the word
// list, instead of every letter of the alphabet. The answer is exact.
type CrossSets struct {
	at *AnagramTables
}

// NewCrossSets returns the cross-set answers of at's word list. at must
// hold the one-blank tables (MaxBlanks ≥ 1).
func NewCrossSets(at *AnagramTables) *CrossSets { return &CrossSets{at: at} }

// CrossSet implements lexicon.CrossSetter: the letters l (bit l) for
// which prefix·l·suffix is a word; designated blanks count as their
// letters.
func (c *CrossSets) CrossSet(prefix, suffix []alphabet.Tile) uint64 {
	at := c.at
	n := len(prefix) + 1 + len(suffix)
	if n >= len(at.lens) || n > MaxBoard {
		return 0 // no word is that long
	}
	var buf [MaxBoard]alphabet.Tile
	w := buf[:n]
	for i, t := range prefix {
		w[i] = t.Letter()
	}
	for i, t := range suffix {
		w[len(prefix)+1+i] = t.Letter()
	}
	cand := ^uint64(0) >> (63 - at.Lex.Alphabet.Size()) &^ 1
	if tl := &at.lens[n]; at.MaxBlanks >= 1 && tl.keys[1] != nil {
		var key multiset.PER
		for i, l := range w {
			if i == len(prefix) {
				continue
			}
			if key = at.PER.Add(key, l); key == multiset.Invalid {
				return 0 // no word holds these letters
			}
		}
		v, ok := tl.keys[1].get(uint64(key))
		if !ok {
			return 0
		}
		cand &= v
	}
	var set uint64
	for m := cand; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m)
		w[len(prefix)] = alphabet.Tile(x)
		if at.Lex.Contains(w) {
			set |= 1 << x
		}
	}
	return set
}

var _ lexicon.CrossSetter = (*CrossSets)(nil)
