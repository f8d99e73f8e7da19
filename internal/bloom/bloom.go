// Package bloom holds a blocked Bloom filter of 64-bit keys: each key
// sets six bits of one 512-bit block (a cache line), so a lookup reads
// one line. At about ten bits a key it says yes to about 1% of the keys
// never added, and never says no to a key that was.
package bloom

import "encoding/binary"

// Blocked is a blocked Bloom filter. Blocks is its storage, which the
// cache files of its users write and read as it is.
type Blocked struct {
	Blocks [][8]uint64
}

// New returns an empty filter sized for keys keys (about ten bits a
// key, at least one block).
func New(keys int) Blocked {
	return Blocked{Blocks: make([][8]uint64, keys*10/512+1)}
}

// NewPow2 is New with the number of blocks rounded up to a power of
// two (at most twice the memory), so that a lookup finds its block with
// a mask instead of a division.
func NewPow2(keys int) Blocked {
	n := 1
	for n < keys*10/512+1 {
		n *= 2
	}
	return Blocked{Blocks: make([][8]uint64, n)}
}

// probes returns the block of key and the bits to test in it (six
// 9-bit fields).
func (f *Blocked) probes(key uint64) (blk *[8]uint64, h uint64) {
	key = (key ^ (key >> 33)) * 0xff51afd7ed558ccd
	key ^= key >> 33
	n := uint64(len(f.Blocks))
	i := (key >> 40) & (n - 1)
	if n&(n-1) != 0 {
		i = (key >> 40) % n
	}
	return &f.Blocks[i], key * 0xc4ceb9fe1a85ec53
}

// Add puts key in the filter.
func (f *Blocked) Add(key uint64) {
	blk, h := f.probes(key)
	for i := 0; i < 6; i++ {
		b := h >> (i * 9) & 511
		blk[b>>6] |= 1 << (b & 63)
	}
}

// Has reports whether key may have been added.
func (f *Blocked) Has(key uint64) bool {
	blk, x := f.probes(key)
	// All six bits are read whatever the first ones hold: a branch per
	// bit mispredicts often and stops the processor from running ahead
	// to the next probe's block, while one branch per probe (mostly "no")
	// lets the misses of successive probes overlap.
	ok := uint64(1)
	for i := 0; i < 6; i++ {
		bt := x >> (i * 9) & 511
		ok &= blk[bt>>6] >> (bt & 63)
	}
	return ok&1 != 0
}

// AppendBlocks appends the filter's blocks to out as little-endian
// 64-bit words (64 bytes a block), the form its users' files store.
func (f *Blocked) AppendBlocks(out []byte) []byte {
	for i := range f.Blocks {
		for _, w := range f.Blocks[i] {
			out = binary.LittleEndian.AppendUint64(out, w)
		}
	}
	return out
}

// CopyBlocks returns blocks read from b (as AppendBlocks wrote them; a
// multiple of 64 bytes), copied out of b.
func CopyBlocks(b []byte) [][8]uint64 {
	out := make([][8]uint64, len(b)/64)
	for i := range out {
		for j := range out[i] {
			out[i][j] = binary.LittleEndian.Uint64(b[64*i+8*j:])
		}
	}
	return out
}
