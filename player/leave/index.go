package leave

import (
	"fmt"

	"atril/alphabet"
	"atril/variant"
)

// Index numbers every leave a tile set allows: each multiset of 0 to
// RackSize−1 tiles, no tile more often than the set holds it, gets a
// distinct rank in [0, Len()), the empty leave 0. The ranks are dense and
// follow the lexicographic order of the count vectors (blank count first,
// then each letter in code order), so a rank is a minimal perfect hash of
// the leave that needs no stored keys: it is a sum of one precomputed
// term per distinct tile on the rack. Removing a tile from a leave always
// gives a smaller rank, so a pass in rank order meets every sub-leave
// before the leaves that contain it.
type Index struct {
	types   int // tile codes 0..types−1 (0 is the blank)
	max     int // largest leave: rack size − 1
	caps    []uint8
	g       []uint32 // g[(t*(max+1)+s)*(max+1)+x]: leaves ranked before count x of tile t with s tiles of budget
	f       []uint32 // f[t*(max+1)+s]: multisets of tiles t.. of at most s tiles
	n       int
	letters []string // letters[t]: text of tile t ("?" for the blank)
	counts  []int
}

// NewIndex builds the index of a variant's tile set.
func NewIndex(v *variant.Variant) (*Index, error) {
	letters := append([]string{"?"}, v.Alphabet.Letters()...)
	return newIndex(letters, v.Counts, v.RackSize-1)
}

func newIndex(letters []string, counts []int, max int) (*Index, error) {
	T := len(letters)
	if len(counts) != T {
		return nil, fmt.Errorf("leave index: %d letters but %d counts", T, len(counts))
	}
	if max < 1 || max > 15 {
		return nil, fmt.Errorf("leave index: leaves of up to %d tiles (rack size %d); 1 to 15 supported", max, max+1)
	}
	ix := &Index{types: T, max: max, caps: make([]uint8, T), letters: letters, counts: counts}
	for t, c := range counts {
		ix.caps[t] = uint8(min(c, max))
	}
	W := max + 1
	ix.f = make([]uint32, (T+1)*W)
	for s := 0; s < W; s++ {
		ix.f[T*W+s] = 1
	}
	for t := T - 1; t >= 0; t-- {
		for s := 0; s < W; s++ {
			var sum uint64
			for k := 0; k <= min(int(ix.caps[t]), s); k++ {
				sum += uint64(ix.f[(t+1)*W+s-k])
			}
			if sum > 1<<31 {
				return nil, fmt.Errorf("leave index: more than 2^31 leaves; tile set too large for an exhaustive table")
			}
			ix.f[t*W+s] = uint32(sum)
		}
	}
	ix.n = int(ix.f[max])
	ix.g = make([]uint32, T*W*W)
	for t := 0; t < T; t++ {
		for s := 0; s < W; s++ {
			var acc uint32
			for x := 0; x < W; x++ {
				ix.g[(t*W+s)*W+x] = acc
				if x <= s && x <= int(ix.caps[t]) {
					acc += ix.f[(t+1)*W+s-x]
				}
			}
		}
	}
	return ix, nil
}

// Len is the number of leaves, the empty leave included.
func (ix *Index) Len() int { return ix.n }

// MaxLeave is the largest leave: rack size − 1.
func (ix *Index) MaxLeave() int { return ix.max }

// Types is the number of tile codes (letters plus the blank).
func (ix *Index) Types() int { return ix.types }

// Rank returns a leave's rank; ok is false when r holds more than
// MaxLeave tiles, more copies of a tile than the set has, or a tile
// outside the set. It does not allocate.
func (ix *Index) Rank(r *alphabet.Rack) (rank int, ok bool) {
	W := ix.max + 1
	s := ix.max
	var idx uint32
	for t := 0; t < ix.types; t++ {
		x := int(r[t])
		if x == 0 {
			continue
		}
		if x > s || x > int(ix.caps[t]) {
			return 0, false
		}
		idx += ix.g[(t*W+s)*W+x]
		s -= x
	}
	for t := ix.types; t < len(r); t++ {
		if r[t] != 0 {
			return 0, false
		}
	}
	return int(idx), true
}

// Unrank returns the leave of a rank (0 ≤ rank < Len()).
func (ix *Index) Unrank(rank int) alphabet.Rack {
	var r alphabet.Rack
	W := ix.max + 1
	s := ix.max
	i := uint32(rank)
	for t := 0; t < ix.types && s > 0; t++ {
		row := ix.g[(t*W+s)*W : (t*W+s+1)*W]
		x := 0
		for x+1 <= min(s, int(ix.caps[t])) && row[x+1] <= i {
			x++
		}
		i -= row[x]
		r[t] = uint8(x)
		s -= x
	}
	return r
}

// Each calls fn with every leave in rank order (fn must not keep r).
func (ix *Index) Each(fn func(rank int, r *alphabet.Rack)) {
	var r alphabet.Rack
	rank := 0
	var rec func(t, s int)
	rec = func(t, s int) {
		if t == ix.types || s == 0 {
			fn(rank, &r)
			rank++
			return
		}
		for x := 0; x <= min(s, int(ix.caps[t])); x++ {
			r[t] = uint8(x)
			rec(t+1, s-x)
		}
		r[t] = 0
	}
	rec(0, ix.max)
}

// String renders a leave in the usual writing order (letters, then "?").
func (ix *Index) String(r *alphabet.Rack) string {
	out := ""
	for t := 1; t < ix.types; t++ {
		for i := 0; i < int(r[t]); i++ {
			out += ix.letters[t]
		}
	}
	for i := 0; i < int(r[0]); i++ {
		out += "?"
	}
	return out
}
