package hashtab

import (
	"errors"
	"math/bits"
)

// Filter is a blocked Bloom filter over uint64 keys: each key sets two
// bits of one 64-bit word. A generator asks it before a hash-table
// lookup that usually misses: the filter is a few bits per key, small
// enough to stay in cache, and answers "certainly absent" for most
// misses (false positives about 2–5% at 8–16 bits per key).
type Filter struct {
	words []uint64
	size  uint64
}

// NewFilter returns a filter for about n keys with bitsPerKey bits each.
func NewFilter(n, bitsPerKey int) *Filter {
	size := uint64(n*bitsPerKey/64) + 1
	return &Filter{words: make([]uint64, size), size: size}
}

func (f *Filter) pos(k uint64) (uint64, uint64) {
	h := mix64(k ^ 0x5851F42D4C957F2D)
	w, _ := bits.Mul64(h, f.size)
	return w, uint64(1)<<(h&63) | uint64(1)<<((h>>6)&63)
}

// Add inserts a key.
func (f *Filter) Add(k uint64) {
	w, m := f.pos(k)
	f.words[w] |= m
}

// Has reports whether k may have been added (false: it certainly was not).
func (f *Filter) Has(k uint64) bool {
	w, m := f.pos(k)
	return f.words[w]&m == m
}

// Words is the filter's storage, for a file to hold as it is.
func (f *Filter) Words() []uint64 { return f.words }

// FilterFrom returns the filter whose storage is words (as Words gave
// them), which it reads without copying. It fails on an empty slice.
func FilterFrom(words []uint64) (*Filter, error) {
	if len(words) == 0 {
		return nil, errors.New("hashtab: a filter of no words")
	}
	return &Filter{words: words, size: uint64(len(words))}, nil
}

// Bytes is the memory held by the filter.
func (f *Filter) Bytes() int { return 8 * len(f.words) }

// PairKey folds a (uint64, uint32) key into one uint64 for a Filter.
func PairKey(k uint64, k2 uint32) uint64 { return k ^ uint64(k2)*0xD6E8FEB86659FD93 }
