package endgame

import "sync/atomic"

// table is the transposition table, shared by the threads of a search.
// A slot is three words, each written and read atomically: the packed
// value, depth and flag; the best move's hash; and the key xor the other
// two, so that a slot torn by writes from two threads reads as another
// position's (a miss), never as a wrong entry for this one.
type table struct {
	slots []slot
	mask  uint64
}

type slot struct {
	check, data, best atomic.Uint64
}

func newTable(bits int) *table {
	return &table{slots: make([]slot, 1<<bits), mask: 1<<bits - 1}
}

// load returns the entry stored for key (ok false: none).
func (t *table) load(key uint64) (e entry, ok bool) {
	sl := &t.slots[key&t.mask]
	d, b := sl.data.Load(), sl.best.Load()
	if sl.check.Load()^d^b != key || d>>48 == 0 {
		return entry{}, false
	}
	return entry{key: key, value: int32(uint32(d)), depth: int16(uint16(d >> 32)), flag: uint8(d >> 48), best: b}, true
}

// store writes e for key unless the slot holds key searched deeper.
func (t *table) store(key uint64, e entry) {
	if old, ok := t.load(key); ok && old.depth > e.depth {
		return
	}
	sl := &t.slots[key&t.mask]
	d := uint64(uint32(e.value)) | uint64(uint16(e.depth))<<32 | uint64(e.flag)<<48
	sl.data.Store(d)
	sl.best.Store(e.best)
	sl.check.Store(key ^ d ^ e.best)
}
