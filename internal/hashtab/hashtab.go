// Package hashtab holds the open-addressing hash tables and the blocked
// Bloom filter that the multiset and interval tables are built on: filled
// once, then only read.
package hashtab

import "math/bits"

// The hash tables below are open-addressing tables with linear probing,
// built once and then only read. A table grows (doubling) while it is
// being filled; Compact then rebuilds it at the final size with a load
// of about 0.6, mapping hashes onto any table size by a multiply-high
// (no power-of-two rounding). Entries keep key and value side by side so
// a lookup usually touches one cache line.

const compactLoad = 0.6

func tableSize(n int, load float64) uint64 {
	s := uint64(float64(n)/load) + 16
	return s
}

func mix64(k uint64) uint64 {
	k ^= k >> 31
	k *= 0x9E3779B97F4A7C15
	k ^= k >> 29
	return k * 0xBF58476D1CE4E5B9
}

// U64Map is a hash table from uint64 keys to uint32 values.
type U64Map struct {
	slots []slot
	size  uint64
	n     int
}

type slot struct {
	key uint64
	val uint32 // value+1; 0 marks an empty slot
}

// NewU64Map returns a table sized for about n entries.
func NewU64Map(n int) *U64Map {
	size := tableSize(n, 0.5)
	return &U64Map{slots: make([]slot, size), size: size}
}

func (m *U64Map) index(k uint64) uint64 {
	h, _ := bits.Mul64(mix64(k), m.size)
	return h
}

// Put sets the value of k (replacing an earlier one), growing the table
// when it gets more than half full.
func (m *U64Map) Put(k uint64, v uint32) {
	if 2*uint64(m.n+1) > m.size {
		m.rebuild(2 * m.size)
	}
	m.insert(k, v)
}

// insert is Put without growing (rebuild must not grow the table it is
// filling, or Compact would end at half its load).
func (m *U64Map) insert(k uint64, v uint32) {
	for h := m.index(k); ; h++ {
		if h == m.size {
			h = 0
		}
		s := &m.slots[h]
		if s.val == 0 {
			s.key, s.val = k, v+1
			m.n++
			return
		}
		if s.key == k {
			s.val = v + 1
			return
		}
	}
}

func (m *U64Map) rebuild(size uint64) {
	old := m.slots
	m.slots = make([]slot, size)
	m.size = size
	m.n = 0
	for _, s := range old {
		if s.val != 0 {
			m.insert(s.key, s.val-1)
		}
	}
}

// Compact rebuilds the table at its final size (load about 0.6).
func (m *U64Map) Compact() { m.rebuild(tableSize(m.n, compactLoad)) }

// Get returns the value of k and whether it is present.
func (m *U64Map) Get(k uint64) (uint32, bool) {
	for h := m.index(k); ; h++ {
		if h == m.size {
			h = 0
		}
		s := &m.slots[h]
		if s.val == 0 {
			return 0, false
		}
		if s.key == k {
			return s.val - 1, true
		}
	}
}

// Range calls f for every entry.
func (m *U64Map) Range(f func(k uint64, v uint32)) {
	for _, s := range m.slots {
		if s.val != 0 {
			f(s.key, s.val-1)
		}
	}
}

// Len is the number of entries.
func (m *U64Map) Len() int { return m.n }

// Bytes is the memory held by the table.
func (m *U64Map) Bytes() int { return 16 * len(m.slots) }

// PairMap is a hash table from a (uint64, uint32) key to a uint32 value.
// A slot takes 16 bytes, the same as a U64Map slot (alignment pads the
// latter), so the 96-bit key costs no more memory than a 64-bit one.
type PairMap struct {
	slots []pairSlot
	size  uint64
	n     int
}

type pairSlot struct {
	key  uint64
	key2 uint32
	val  uint32 // value+1; 0 marks an empty slot
}

// PairKey folds a (uint64, uint32) key into one uint64: the key a
// PairMap hashes, and the key of a Bloom filter of pairs
// (internal/bloom).
func PairKey(k uint64, k2 uint32) uint64 { return k ^ uint64(k2)*0xD6E8FEB86659FD93 }

// NewPairMap returns a table sized for about n entries.
func NewPairMap(n int) *PairMap {
	size := tableSize(n, 0.5)
	return &PairMap{slots: make([]pairSlot, size), size: size}
}

func (m *PairMap) index(k uint64, k2 uint32) uint64 {
	h, _ := bits.Mul64(mix64(PairKey(k, k2)), m.size)
	return h
}

// Put sets the value of (k, k2), growing the table when half full.
func (m *PairMap) Put(k uint64, k2, v uint32) {
	if 2*uint64(m.n+1) > m.size {
		m.rebuild(2 * m.size)
	}
	m.insert(k, k2, v)
}

// insert is Put without growing.
func (m *PairMap) insert(k uint64, k2, v uint32) {
	for h := m.index(k, k2); ; h++ {
		if h == m.size {
			h = 0
		}
		s := &m.slots[h]
		if s.val == 0 {
			s.key, s.key2, s.val = k, k2, v+1
			m.n++
			return
		}
		if s.key == k && s.key2 == k2 {
			s.val = v + 1
			return
		}
	}
}

func (m *PairMap) rebuild(size uint64) {
	old := m.slots
	m.slots = make([]pairSlot, size)
	m.size = size
	m.n = 0
	for _, s := range old {
		if s.val != 0 {
			m.insert(s.key, s.key2, s.val-1)
		}
	}
}

// Compact rebuilds the table at its final size (load about 0.6).
func (m *PairMap) Compact() { m.rebuild(tableSize(m.n, compactLoad)) }

// Get returns the value of (k, k2) and whether it is present.
func (m *PairMap) Get(k uint64, k2 uint32) (uint32, bool) {
	for h := m.index(k, k2); ; h++ {
		if h == m.size {
			h = 0
		}
		s := &m.slots[h]
		if s.val == 0 {
			return 0, false
		}
		if s.key == k && s.key2 == k2 {
			return s.val - 1, true
		}
	}
}

// Range calls f for every entry.
func (m *PairMap) Range(f func(k uint64, k2, v uint32)) {
	for _, s := range m.slots {
		if s.val != 0 {
			f(s.key, s.key2, s.val-1)
		}
	}
}

// Len is the number of entries.
func (m *PairMap) Len() int { return m.n }

// Bytes is the memory held by the table.
func (m *PairMap) Bytes() int { return 16 * len(m.slots) }
