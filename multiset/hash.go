package multiset

import "math/bits"

// U64Map is an open-addressing hash table from uint64 keys to uint32
// values, built once and then only read. Entries hold key and value side
// by side so a lookup usually touches one cache line.
type U64Map struct {
	slots []slot
	shift uint
	n     int
}

type slot struct {
	key uint64
	val uint32 // value+1; 0 marks an empty slot
}

// NewU64Map returns a table sized for about n entries (load at most 1/2).
func NewU64Map(n int) *U64Map {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return &U64Map{slots: make([]slot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

func (m *U64Map) hash(k uint64) uint64 {
	k ^= k >> 31
	return (k * 0x9E3779B97F4A7C15) >> m.shift
}

// Put sets the value of k (replacing an earlier one). It grows the table
// when it gets more than half full.
func (m *U64Map) Put(k uint64, v uint32) {
	if 2*(m.n+1) > len(m.slots) {
		m.grow()
	}
	mask := uint64(len(m.slots) - 1)
	for h := m.hash(k); ; h = (h + 1) & mask {
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

func (m *U64Map) grow() {
	old := m.slots
	m.slots = make([]slot, 2*len(old))
	m.shift--
	m.n = 0
	for _, s := range old {
		if s.val != 0 {
			m.Put(s.key, s.val-1)
		}
	}
}

// Get returns the value of k and whether it is present.
func (m *U64Map) Get(k uint64) (uint32, bool) {
	mask := uint64(len(m.slots) - 1)
	for h := m.hash(k); ; h = (h + 1) & mask {
		s := &m.slots[h]
		if s.val == 0 {
			return 0, false
		}
		if s.key == k {
			return s.val - 1, true
		}
	}
}

// Len is the number of entries.
func (m *U64Map) Len() int { return m.n }

// Bytes is the memory held by the table.
func (m *U64Map) Bytes() int { return 16 * len(m.slots) }

// Inc adds one to the value of k (0 when absent) and returns the new
// value.
func (m *U64Map) Inc(k uint64) uint32 {
	if 2*(m.n+1) > len(m.slots) {
		m.grow()
	}
	mask := uint64(len(m.slots) - 1)
	for h := m.hash(k); ; h = (h + 1) & mask {
		s := &m.slots[h]
		if s.val == 0 {
			s.key, s.val = k, 2
			m.n++
			return 1
		}
		if s.key == k {
			s.val++
			return s.val - 1
		}
	}
}

// PairMap is an open-addressing hash table from a (uint64, uint32) key to
// a uint32 value. A slot takes 16 bytes, the same as a U64Map slot, so a
// 96-bit key costs no more memory than a 64-bit one.
type PairMap struct {
	slots []pairSlot
	shift uint
	n     int
}

type pairSlot struct {
	key  uint64
	key2 uint32
	val  uint32 // value+1; 0 marks an empty slot
}

// NewPairMap returns a table sized for about n entries.
func NewPairMap(n int) *PairMap {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return &PairMap{slots: make([]pairSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

func (m *PairMap) hash(k uint64, k2 uint32) uint64 {
	k ^= uint64(k2)*0xD6E8FEB86659FD93 ^ k>>29
	return (k * 0x9E3779B97F4A7C15) >> m.shift
}

// Put sets the value of (k, k2), growing the table when half full.
func (m *PairMap) Put(k uint64, k2, v uint32) {
	if 2*(m.n+1) > len(m.slots) {
		old := m.slots
		m.slots = make([]pairSlot, 2*len(old))
		m.shift--
		m.n = 0
		for _, s := range old {
			if s.val != 0 {
				m.Put(s.key, s.key2, s.val-1)
			}
		}
	}
	mask := uint64(len(m.slots) - 1)
	for h := m.hash(k, k2); ; h = (h + 1) & mask {
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

// Get returns the value of (k, k2) and whether it is present.
func (m *PairMap) Get(k uint64, k2 uint32) (uint32, bool) {
	mask := uint64(len(m.slots) - 1)
	for h := m.hash(k, k2); ; h = (h + 1) & mask {
		s := &m.slots[h]
		if s.val == 0 {
			return 0, false
		}
		if s.key == k && s.key2 == k2 {
			return s.val - 1, true
		}
	}
}

// Len is the number of entries.
func (m *PairMap) Len() int { return m.n }

// Bytes is the memory held by the table.
func (m *PairMap) Bytes() int { return 16 * len(m.slots) }
