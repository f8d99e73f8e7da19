package movegen

import (
	"math/bits"
	"sync"

	"atril/alphabet"
	"atril/internal/bloom"
	"atril/lexicon"
	"atril/lexicon/automaton"
)

// AnagramFilter answers "could these letters, plus b blanks, be
// rearranged into a word?": for every word with 0 or 1 blank, and for
// words of up to shortLen letters (rack size + 1) with 2 blanks. It is
// made of blocked Bloom filters over additive multiset hashes, one per
// number of blanks: it never says no to letters that make a word, and
// says yes to letters that do not about 1% of the time, which only
// loosens a bound. The shadow bounds use it to drop long extents the
// rack cannot fill and bingos it cannot make.
//
// Most questions are about letters without a blank, whose keys (one a
// word, 400 KB for English) are kept apart from those of one and
// two blanks (eight times as many), and the keys of 0 and 1 blank are
// filed by word length as well: a question reads only the filter of its
// length, and the filters of short words, which most questions ask
// about, stay in a core's first-level cache.
type AnagramFilter struct {
	// bl[b][n], b < 2: the keys of words of n letters with b blanks;
	// bl[2][0]: those with two blanks.
	bl       [3][]bloom.Filter
	shortLen int // longest word length tabulated with 2 blanks
	weights  [alphabet.MaxLetters + 1]uint64
}

// filterKeys are the keys of a filter as it is built, laid out as
// AnagramFilter.bl.
type filterKeys [3][][]uint64

// add files key for a word of n letters with b blanks.
func (k *filterKeys) add(b, n int, key uint64) {
	if b == 2 {
		n = 0
	}
	for len(k[b]) <= n {
		k[b] = append(k[b], nil)
	}
	k[b][n] = append(k[b][n], key)
}

// letterWeight is the random 64-bit weight of a letter in the additive
// multiset hash (SplitMix64 of the letter code).
func letterWeight(l int) uint64 {
	z := uint64(l)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newAnagramFilter returns an empty filter.
func newAnagramFilter(shortLen int) *AnagramFilter {
	f := &AnagramFilter{shortLen: shortLen}
	for l := range f.weights {
		f.weights[l] = letterWeight(l)
	}
	return f
}

// anagramFilterBits is the anagram filter's bits a key (about 1% of the
// questions about letters that make no word answered yes).
const anagramFilterBits = 12

// fill sizes the filters for keys and adds them.
func (f *AnagramFilter) fill(keys *filterKeys) *AnagramFilter {
	for b := range keys {
		f.bl[b] = make([]bloom.Filter, max(len(keys[b]), 1))
		for n := range f.bl[b] {
			var ks []uint64
			if n < len(keys[b]) {
				ks = keys[b][n]
			}
			f.bl[b][n] = bloom.New(len(ks), anagramFilterBits)
			for _, k := range ks {
				f.bl[b][n].Add(k)
			}
		}
	}
	return f
}

// has reports whether the letters of hash h with b blanks, n tiles in
// all, may make a word.
func (f *AnagramFilter) has(h uint64, b, n int) bool {
	switch {
	case b > 2 || b == 2 && n > f.shortLen:
		return true
	case b == 2:
		n = 0
	case n >= len(f.bl[b]):
		// No word is that long.
		return false
	}
	return f.bl[b][n].Has(h)
}

// buildAnagramFilter lists the words of a GADDAG (the paths that never
// take the separator spell reversed words) and files each word's letters
// with 0 and 1 of them taken out, and 2 for words of up to shortLen
// letters.
func buildAnagramFilter(arcs []automaton.Arc, root automaton.Arc, shortLen int) *AnagramFilter {
	f := newAnagramFilter(shortLen)
	var keys filterKeys
	var word [32]int
	var walk func(nd automaton.Arc, depth int)
	walk = func(nd automaton.Arc, depth int) {
		if nd.IsFinal() && depth > 0 {
			f.wordKeys(word[:depth], &keys)
		}
		if depth == len(word) {
			return
		}
		mask := nd.Mask() &^ 1
		idx := nd.First&^automaton.Final + uint32(nd.Mask()&1)
		for ; mask != 0; mask &= mask - 1 {
			word[depth] = bits.TrailingZeros64(mask)
			walk(arcs[idx], depth+1)
			idx++
		}
	}
	walk(root, 0)
	return f.fill(&keys)
}

// buildLexiconAnagramFilter files the words of a word list as
// buildAnagramFilter does: the same filter as its GADDAG's.
func buildLexiconAnagramFilter(lex *lexicon.Lexicon, shortLen int) *AnagramFilter {
	f := newAnagramFilter(shortLen)
	var keys filterKeys
	var word []int
	for i := 0; i < lex.Len(); i++ {
		word = word[:0]
		for _, t := range lex.Word(i) {
			word = append(word, int(t))
		}
		f.wordKeys(word, &keys)
	}
	return f.fill(&keys)
}

// wordKeys files the keys of a word: its letters, and its letters less
// any one and any two of them (distinct multisets only; the ones taken
// out are the blanks).
func (f *AnagramFilter) wordKeys(w []int, keys *filterKeys) {
	h := uint64(0)
	for _, l := range w {
		h += f.weights[l]
	}
	keys.add(0, len(w), h)
	for i, x := range w {
		if dupBefore(w, i) {
			continue
		}
		h1 := h - f.weights[x]
		keys.add(1, len(w), h1)
		if len(w) > f.shortLen {
			continue
		}
		for j := i; j < len(w); j++ {
			if j == i {
				if count(w, x) < 2 {
					continue
				}
			} else if dupBefore(w, j) || w[j] == x {
				continue
			}
			keys.add(2, len(w), h1-f.weights[w[j]])
		}
	}
}

// dupBefore reports whether w[i] occurs earlier in w.
func dupBefore(w []int, i int) bool {
	for _, y := range w[:i] {
		if y == w[i] {
			return true
		}
	}
	return false
}

func count(w []int, x int) int {
	n := 0
	for _, y := range w {
		if y == x {
			n++
		}
	}
	return n
}

// Weight is letter l's term in the additive hash of a multiset of
// letters that LeaveBounds.Through takes: the hash of a multiset is the
// sum of its letters' weights (wrapping around). Every filter has the
// same weights: AnagramWeight.
func (f *AnagramFilter) Weight(l alphabet.Tile) uint64 { return f.weights[l.Letter()] }

// AnagramWeight is AnagramFilter.Weight without a filter.
func AnagramWeight(l alphabet.Tile) uint64 { return letterWeight(int(l.Letter())) }

// anagramFilters caches one filter per word list and length.
var anagramFilters sync.Map // key anagramKey → *anagramOnce

// anagramKey names a filter: by the word list's key, or by its automaton
// when that has none (automata built in tests).
type anagramKey struct {
	a        *automaton.Automaton
	key      [32]byte
	shortLen int
}

type anagramOnce struct {
	once sync.Once
	f    *AnagramFilter
}

// anagramFilterFor returns the (shared, read-only) filter of a GADDAG.
func anagramFilterFor(a *automaton.Automaton, arcs []automaton.Arc, root automaton.Arc, shortLen int) *AnagramFilter {
	k := anagramKey{key: a.Key, shortLen: shortLen}
	if a.Key == [32]byte{} {
		k.a = a
	}
	return sharedAnagramFilter(k, a.Words, func() *AnagramFilter { return buildAnagramFilter(arcs, root, shortLen) })
}

// LexiconAnagramFilter returns the (shared, read-only) anagram filter of
// a word list for racks of rackSize tiles, the one its GADDAG generator
// uses: from memory, from the cache directory, or built from the words
// (about a second for a quarter of a million).
func LexiconAnagramFilter(lex *lexicon.Lexicon, rackSize int) *AnagramFilter {
	shortLen := rackSize + 1
	return sharedAnagramFilter(anagramKey{key: automaton.Key(lex), shortLen: shortLen}, lex.Len(),
		func() *AnagramFilter { return buildLexiconAnagramFilter(lex, shortLen) })
}

// sharedAnagramFilter returns the filter named k from memory, or loads
// or builds it (a word list of words words) once for the process.
func sharedAnagramFilter(k anagramKey, words int, build func() *AnagramFilter) *AnagramFilter {
	v, _ := anagramFilters.LoadOrStore(k, &anagramOnce{})
	o := v.(*anagramOnce)
	o.once.Do(func() { o.f = loadOrBuildAnagramFilter(k.key, words, k.shortLen, build) })
	return o.f
}
