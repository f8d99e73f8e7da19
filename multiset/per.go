package multiset

import (
	"fmt"
	"math/bits"
	"sort"

	"atril/alphabet"
	"atril/internal/hashtab"
)

// PER is the Parity-Exceedance Representation of a feasible multiset
// (see the package comment for the layout). Its meaning depends on the
// Table that made it.
type PER uint64

// Invalid is the error code: the multiset is not feasible.
const Invalid PER = ^PER(0)

// NoID marks a missing exceedance id in Table.Succ.
const NoID = ^uint32(0)

// Words is the word source a Table is built from (*lexicon.Lexicon).
type Words interface {
	Len() int
	Word(i int) []alphabet.Tile
}

// Table holds the feasible exceedances of a lexicon with their ids, the
// carry-mask table, the feasible-triad table and its reading as a
// difference table, and the successor table (exceedance id, letter) →
// exceedance id used to add one letter at a time.
type Table struct {
	// Letters is the alphabet size L; letters are 1..L.
	Letters int
	shift   uint   // = L: where the exceedance id starts
	pmask   uint64 // low L bits
	// exc[id] is the exceedance as a packed sorted letter list.
	exc []uint64
	// succ[id*(L+1)+l]: id of exc[id] ⊎ {l}, or NoID if not feasible.
	succ []uint32
	// carry: repeat-free exceedance as a parity-style mask → id.
	carry *hashtab.U64Map
	// triad: (a, b, c) → id of a ⊎ b ⊎ c, c repeat-free (a carry).
	triad *hashtab.U64Map
	// diff: (sum, a, c) present iff some feasible b has a ⊎ b ⊎ c = sum.
	diff *hashtab.U64Map
	// AllTriads counts every ordered triad of feasible exceedances whose
	// multisum is feasible (c not restricted to carries).
	AllTriads int
	// wide: the parity mask and the ids do not fit 64 bits together; only
	// the Wide methods work.
	wide bool
}

const idBits = 21 // per id inside a triad key

func triadKey(a, b, c uint32) uint64 {
	return uint64(a)<<(2*idBits) | uint64(b)<<idBits | uint64(c)
}

// packed exceedances: letters sorted ascending, 6 bits each, low first.
func packLetters(ls []alphabet.Tile) uint64 {
	var k uint64
	for i, l := range ls {
		k |= uint64(l) << (6 * uint(i))
	}
	return k
}

func unpack(k uint64, dst []alphabet.Tile) []alphabet.Tile {
	for k != 0 {
		dst = append(dst, alphabet.Tile(k&63))
		k >>= 6
	}
	return dst
}

// Build computes the tables for the words of ws over an alphabet of
// letters letters. Words may hold at most 20 letters.
func Build(letters int, ws Words) (*Table, error) {
	t, err := BuildAdd(letters, ws)
	if err != nil {
		return nil, err
	}
	t.arith()
	return t, nil
}

// BuildAdd computes only the feasible exceedances and the successor
// table: the result supports Add, Of, FromCounts, Counts and Size (what
// a table keyed by PER needs to make its keys) but not Sum or Subset,
// which panic. It is a small fraction of Build's time and memory.
func BuildAdd(letters int, ws Words) (*Table, error) {
	if letters < 1 || letters > alphabet.MaxLetters {
		return nil, fmt.Errorf("multiset: alphabet of %d letters not supported", letters)
	}
	// 1. The exceedance of each word; the feasible exceedances are the
	// sub-multisets of these (closed downward).
	seen := map[uint64]bool{}
	var buf [64]alphabet.Tile
	var cnt alphabet.Rack
	for i := 0; i < ws.Len(); i++ {
		w := ws.Word(i)
		if len(w) > 20 {
			return nil, fmt.Errorf("multiset: word %d has %d letters, at most 20 supported", i, len(w))
		}
		for _, t := range w {
			cnt[t.Letter()]++
		}
		e := buf[:0]
		for _, t := range w {
			l := t.Letter()
			for cnt[l] >= 2 {
				e = append(e, l)
				cnt[l] -= 2
			}
			cnt[l] = 0
		}
		sort.Slice(e, func(a, b int) bool { return e[a] < e[b] })
		k := packLetters(e)
		if !seen[k] {
			subMultisets(e, func(sub []alphabet.Tile) { seen[packLetters(sub)] = true })
		}
	}
	keys := make([]uint64, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	// Order by size then key so id 0 is the empty exceedance.
	sort.Slice(keys, func(i, j int) bool {
		li, lj := bits.Len64(keys[i]), bits.Len64(keys[j])
		if (li+5)/6 != (lj+5)/6 {
			return (li+5)/6 < (lj+5)/6
		}
		return keys[i] < keys[j]
	})
	return FromExceedances(letters, keys)
}

// Packed returns the feasible exceedances in id order, each as its
// letters sorted ascending, 6 bits a letter, the first in the low bits
// (shares the table's slice; do not modify). FromExceedances rebuilds
// an add-only table with the same ids from it, so PERs stored with it
// (in a file) keep their meaning.
func (t *Table) Packed() []uint64 { return t.exc }

// FromExceedances returns the add-only table (see BuildAdd) of the
// exceedances exc, given in id order as Packed returns them. The first
// must be the empty one and the set must be closed under taking
// sub-multisets.
func FromExceedances(letters int, exc []uint64) (*Table, error) {
	if letters < 1 || letters > alphabet.MaxLetters {
		return nil, fmt.Errorf("multiset: alphabet of %d letters not supported", letters)
	}
	n := len(exc)
	if n == 0 || exc[0] != 0 {
		return nil, fmt.Errorf("multiset: the first exceedance must be the empty one")
	}
	need := bits.Len(uint(n))
	if n >= 1<<idBits {
		return nil, fmt.Errorf("multiset: %d feasible exceedances, at most %d supported", n, 1<<idBits-1)
	}
	t := &Table{Letters: letters, shift: uint(letters), pmask: 1<<uint(letters) - 1, exc: exc}
	if letters+need > 64 {
		t.wide = true // Wide only (see Fits64)
	}
	id := make(map[uint64]uint32, n)
	for i, k := range exc {
		id[k] = uint32(i)
	}
	var buf [64]alphabet.Tile
	// 2. Successors.
	t.succ = make([]uint32, n*(letters+1))
	for i, k := range exc {
		e := unpack(k, buf[:0])
		for _, l := range e {
			if l < 1 || int(l) > letters {
				return nil, fmt.Errorf("multiset: exceedance %d holds letter %d of an alphabet of %d", i, l, letters)
			}
		}
		for l := 1; l <= letters; l++ {
			s := insertSorted(e, alphabet.Tile(l))
			if j, ok := id[packLetters(s)]; ok {
				t.succ[i*(letters+1)+l] = j
			} else {
				t.succ[i*(letters+1)+l] = NoID
			}
		}
		t.succ[i*(letters+1)] = NoID
	}
	return t, nil
}

// arith adds the carry-mask, triad and difference tables that Sum and
// Subset read.
func (t *Table) arith() {
	keys, n := t.exc, len(t.exc)
	id := make(map[uint64]uint32, n)
	for i, k := range keys {
		id[k] = uint32(i)
	}
	var buf [64]alphabet.Tile
	// 3. Carry masks: repeat-free exceedances.
	t.carry = hashtab.NewU64Map(n)
	for i, k := range keys {
		e := unpack(k, buf[:0])
		var m uint64
		dup := false
		for _, l := range e {
			b := uint64(1) << (l - 1)
			if m&b != 0 {
				dup = true
			}
			m |= b
		}
		if !dup {
			t.carry.Put(m, uint32(i))
		}
	}
	// 4. Triads: split every feasible exceedance s into a ⊎ b ⊎ c.
	t.triad = hashtab.NewU64Map(16 * n)
	t.diff = hashtab.NewU64Map(16 * n)
	var sb, cb [32]alphabet.Tile
	for si, k := range keys {
		s := unpack(k, sb[:0])
		subMultisets(s, func(c []alphabet.Tile) {
			rest := minus(s, c, cb[:0])
			cid := id[packLetters(c)]
			setC := repeatFree(c)
			var rb [32]alphabet.Tile
			subMultisets(rest, func(a []alphabet.Tile) {
				bb := minus(rest, a, rb[:0])
				aid, bid := id[packLetters(a)], id[packLetters(bb)]
				t.AllTriads++
				if setC {
					t.triad.Put(triadKey(aid, bid, cid), uint32(si))
					t.diff.Put(triadKey(uint32(si), aid, cid), uint32(bid))
				}
			})
		})
	}
	t.carry.Compact()
	t.triad.Compact()
	t.diff.Compact()
}

// subMultisets calls f with every distinct sub-multiset of the sorted
// list s (as a sorted list; the slice is reused between calls).
func subMultisets(s []alphabet.Tile, f func([]alphabet.Tile)) {
	var cur [32]alphabet.Tile
	var rec func(i int, out []alphabet.Tile)
	rec = func(i int, out []alphabet.Tile) {
		if i == len(s) {
			f(out)
			return
		}
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		for k := 0; k <= j-i; k++ {
			o := out
			for x := 0; x < k; x++ {
				o = append(o, s[i])
			}
			rec(j, o)
		}
	}
	rec(0, cur[:0])
}

func insertSorted(e []alphabet.Tile, l alphabet.Tile) []alphabet.Tile {
	out := make([]alphabet.Tile, 0, len(e)+1)
	done := false
	for _, x := range e {
		if !done && l <= x {
			out = append(out, l)
			done = true
		}
		out = append(out, x)
	}
	if !done {
		out = append(out, l)
	}
	return out
}

// minus returns the sorted list s − c (c ⊆ s, both sorted).
func minus(s, c, dst []alphabet.Tile) []alphabet.Tile {
	j := 0
	for _, x := range s {
		if j < len(c) && c[j] == x {
			j++
			continue
		}
		dst = append(dst, x)
	}
	return dst
}

func repeatFree(c []alphabet.Tile) bool {
	for i := 1; i < len(c); i++ {
		if c[i] == c[i-1] {
			return false
		}
	}
	return true
}

// Exceedances is the number of feasible exceedances (Sánchez Bello 2025 Table 3.4).
func (t *Table) Exceedances() int { return len(t.exc) }

// Triads is the number of feasible triads (a, b, c) with c repeat-free,
// the ones the multisum looks up (Sánchez Bello 2025 Table 3.9).
func (t *Table) Triads() int {
	if t.triad == nil {
		return 0
	}
	return t.triad.Len()
}

// CarryMasks is the number of entries of the carry-mask table.
func (t *Table) CarryMasks() int {
	if t.carry == nil {
		return 0
	}
	return t.carry.Len()
}

// Bytes is the memory held by the tables.
func (t *Table) Bytes() int {
	n := 8*len(t.exc) + 4*len(t.succ)
	if t.carry != nil {
		n += t.carry.Bytes() + t.triad.Bytes() + t.diff.Bytes()
	}
	return n
}

// IDBits is the number of bits the PER keeps for exceedance ids (32 in
// the wide representation).
func (t *Table) IDBits() int {
	if t.wide {
		return 32
	}
	return 64 - int(t.shift)
}

// Parity returns the parity mask of p (letter l in bit l-1).
func (t *Table) Parity(p PER) uint64 { return uint64(p) & t.pmask }

// ExcessID returns the exceedance id of p.
func (t *Table) ExcessID(p PER) uint32 { return uint32(uint64(p) >> t.shift) }

// Make builds a PER from a parity mask and an exceedance id.
func (t *Table) Make(parity uint64, excID uint32) PER {
	return PER(parity | uint64(excID)<<t.shift)
}

// Add adds one letter (1..L) to p in constant time: the parity bit flips,
// and when the letter was odd the exceedance gains it through the
// successor table. It returns Invalid when the result is not feasible.
func (t *Table) Add(p PER, l alphabet.Tile) PER {
	if p == Invalid {
		return Invalid
	}
	b := uint64(1) << (l - 1)
	if uint64(p)&b == 0 {
		return p | PER(b)
	}
	e := t.succ[int(uint64(p)>>t.shift)*(t.Letters+1)+int(l)]
	if e == NoID {
		return Invalid
	}
	return PER((uint64(p)&t.pmask)&^b | uint64(e)<<t.shift)
}

// Of returns the PER of tiles (designated blanks count as their
// letters), or Invalid. Undesignated blanks are not letters: Of panics on
// them.
func (t *Table) Of(ts []alphabet.Tile) PER {
	var p PER
	for _, x := range ts {
		if x.Letter() == 0 {
			panic("multiset: PER of an undesignated blank")
		}
		p = t.Add(p, x.Letter())
	}
	return p
}

// FromCounts returns the PER of a count vector (the blank count is
// ignored), or Invalid.
func (t *Table) FromCounts(c *alphabet.Rack) PER { return t.narrow(t.WideFromCounts(c)) }

// Counts decodes p into a count vector: f = 2e + p.
func (t *Table) Counts(p PER) alphabet.Rack { return t.CountsWide(t.Widen(p)) }

// narrow packs a wide PER into 64 bits (the table must fit them).
func (t *Table) narrow(w Wide) PER {
	if w == InvalidWide {
		return Invalid
	}
	return t.Make(w.Parity, w.ID)
}

// Sum is the constant-time multisum of two PERs: an XOR, an AND, one
// carry-mask lookup and one triad lookup. It returns Invalid when the sum
// is not feasible.
func (t *Table) Sum(a, b PER) PER {
	if a == Invalid || b == Invalid {
		return Invalid
	}
	pa, pb := uint64(a)&t.pmask, uint64(b)&t.pmask
	cid, ok := uint32(0), true
	if r := pa & pb; r != 0 {
		cid, ok = t.carry.Get(r)
		if !ok {
			return Invalid
		}
	}
	ea, eb := uint32(uint64(a)>>t.shift), uint32(uint64(b)>>t.shift)
	s, ok := t.triad.Get(triadKey(ea, eb, cid))
	if !ok {
		return Invalid
	}
	return PER(pa ^ pb | uint64(s)<<t.shift)
}

// Subset reports whether b ⊆ a in constant time (derivation in the
// package comment). Both must be valid PERs of this table.
func (t *Table) Subset(b, a PER) bool {
	pa, pb := uint64(a)&t.pmask, uint64(b)&t.pmask
	ea, eb := uint32(uint64(a)>>t.shift), uint32(uint64(b)>>t.shift)
	r := pb &^ pa
	if r == 0 && eb == 0 {
		return true
	}
	if ea == 0 {
		return false
	}
	cid := uint32(0)
	if r != 0 {
		var ok bool
		if cid, ok = t.carry.Get(r); !ok {
			return false
		}
	}
	_, ok := t.diff.Get(triadKey(ea, eb, cid))
	return ok
}

// Size is the number of elements of p.
func (t *Table) Size(p PER) int { return t.SizeWide(t.Widen(p)) }
