package multiset

import (
	"math/bits"

	"atril/alphabet"
)

// Wide is the PER of an alphabet whose parity mask and exceedance id do
// not fit one 64-bit word together (L letters plus the bits of the
// exceedance count above 64): the same two parts, kept side by side in
// 96 bits. Its operations are those of PER, with the same tables, and
// cost the same lookups; only the packing differs. A table of any
// alphabet offers them; a table with Fits64 also offers the 64-bit PER,
// which the interval generators use as a hash key.
type Wide struct {
	Parity uint64 // letter l in bit l-1
	ID     uint32 // exceedance id
}

// InvalidWide is the error code of the wide representation.
var InvalidWide = Wide{Parity: ^uint64(0), ID: NoID}

// Fits64 reports whether the table's PERs fit 64 bits. When it is false
// only the Wide methods may be used.
func (t *Table) Fits64() bool { return !t.wide }

// Widen returns p in the wide representation.
func (t *Table) Widen(p PER) Wide {
	if p == Invalid {
		return InvalidWide
	}
	return Wide{Parity: uint64(p) & t.pmask, ID: uint32(uint64(p) >> t.shift)}
}

// AddWide adds one letter (1..L) to p: Add for the wide representation.
func (t *Table) AddWide(p Wide, l alphabet.Tile) Wide {
	if p == InvalidWide {
		return InvalidWide
	}
	b := uint64(1) << (l - 1)
	if p.Parity&b == 0 {
		return Wide{Parity: p.Parity | b, ID: p.ID}
	}
	e := t.succ[int(p.ID)*(t.Letters+1)+int(l)]
	if e == NoID {
		return InvalidWide
	}
	return Wide{Parity: p.Parity &^ b, ID: e}
}

// WideFromCounts returns the wide PER of a count vector (the blank count
// is ignored), or InvalidWide.
func (t *Table) WideFromCounts(c *alphabet.Rack) Wide {
	var p Wide
	for l := 1; l <= t.Letters; l++ {
		for k := 0; k < int(c[l]); k++ {
			p = t.AddWide(p, alphabet.Tile(l))
		}
	}
	return p
}

// CountsWide decodes p into a count vector.
func (t *Table) CountsWide(p Wide) alphabet.Rack {
	var c alphabet.Rack
	for l := 1; l <= t.Letters; l++ {
		if p.Parity&(1<<(l-1)) != 0 {
			c[l]++
		}
	}
	var buf [32]alphabet.Tile
	for _, l := range unpack(t.exc[p.ID], buf[:0]) {
		c[l] += 2
	}
	return c
}

// SizeWide is the number of elements of p.
func (t *Table) SizeWide(p Wide) int {
	return bits.OnesCount64(p.Parity) + 2*len(unpack(t.exc[p.ID], nil))
}

// SumWide is Sum for the wide representation.
func (t *Table) SumWide(a, b Wide) Wide {
	if a == InvalidWide || b == InvalidWide {
		return InvalidWide
	}
	cid, ok := uint32(0), true
	if r := a.Parity & b.Parity; r != 0 {
		if cid, ok = t.carry.Get(r); !ok {
			return InvalidWide
		}
	}
	s, ok := t.triad.Get(triadKey(a.ID, b.ID, cid))
	if !ok {
		return InvalidWide
	}
	return Wide{Parity: a.Parity ^ b.Parity, ID: s}
}

// SubsetWide is Subset for the wide representation: whether b ⊆ a.
func (t *Table) SubsetWide(b, a Wide) bool {
	r := b.Parity &^ a.Parity
	if r == 0 && b.ID == 0 {
		return true
	}
	if a.ID == 0 {
		return false
	}
	cid := uint32(0)
	if r != 0 {
		var ok bool
		if cid, ok = t.carry.Get(r); !ok {
			return false
		}
	}
	_, ok := t.diff.Get(triadKey(a.ID, b.ID, cid))
	return ok
}
