package interval

import (
	"math/bits"

	"atril/multiset"
)

// kvTable is an open-addressing hash table from a PER to a 64-bit value,
// with linear probing, built once and then only read. Key and value sit
// side by side in 16 bytes, so a lookup usually reads one cache line. An
// empty slot holds the key multiset.Invalid, which no table stores. The
// hash is mapped onto any table size by a multiply-high, so the final
// table can be sized to its load exactly.
type kvTable struct {
	slots []kv
	n     int
}

type kv struct{ key, val uint64 }

const emptyKey = uint64(multiset.Invalid)

// kvLoad is the load of a finished table.
const kvLoad = 0.75

func kvMix(k uint64) uint64 {
	k ^= k >> 31
	k *= 0x9E3779B97F4A7C15
	k ^= k >> 29
	return k * 0xBF58476D1CE4E5B9
}

// newKV returns an empty table of size slots.
func newKV(size int) *kvTable {
	t := &kvTable{slots: make([]kv, max(size, 1))}
	for i := range t.slots {
		t.slots[i].key = emptyKey
	}
	return t
}

func (t *kvTable) home(k uint64) int {
	h, _ := bits.Mul64(kvMix(k), uint64(len(t.slots)))
	return int(h)
}

// slot returns the slot of k: its own, or the empty one where it goes.
func (t *kvTable) slot(k uint64) *kv {
	s := t.slots
	for h := t.home(k); ; h++ {
		if h == len(s) {
			h = 0
		}
		if s[h].key == k || s[h].key == emptyKey {
			return &s[h]
		}
	}
}

// or ORs v into the value of k, inserting k (growing the table when it
// is more than kvLoad full).
func (t *kvTable) or(k, v uint64) {
	if float64(t.n+1) > kvLoad*float64(len(t.slots)) {
		t.resize(2*len(t.slots) + 16)
	}
	sl := t.slot(k)
	if sl.key == emptyKey {
		sl.key = k
		t.n++
	}
	sl.val |= v
}

// put sets the value of k, which must not be in the table yet.
func (t *kvTable) put(k, v uint64) {
	if float64(t.n+1) > kvLoad*float64(len(t.slots)) {
		t.resize(2*len(t.slots) + 16)
	}
	sl := t.slot(k)
	sl.key, sl.val = k, v
	t.n++
}

func (t *kvTable) resize(size int) {
	old := t.slots
	*t = *newKV(size)
	for _, s := range old {
		if s.key != emptyKey {
			sl := t.slot(s.key)
			*sl = s
			t.n++
		}
	}
}

// compact rebuilds the table at load kvLoad.
func (t *kvTable) compact() { t.resize(int(float64(t.n)/kvLoad) + 1) }

// get returns the value of k and whether k is present.
// At most every slot is read, so a table with no empty slot (which a
// loaded file could hold; see unmarshalAnagram) cannot loop for ever.
func (t *kvTable) get(k uint64) (uint64, bool) {
	s := t.slots
	h := t.home(k)
	for range s {
		if s[h].key == k {
			return s[h].val, true
		}
		if s[h].key == emptyKey {
			return 0, false
		}
		if h++; h == len(s) {
			h = 0
		}
	}
	return 0, false
}

// bytes is the memory the table holds.
func (t *kvTable) bytes() int { return 16 * len(t.slots) }
