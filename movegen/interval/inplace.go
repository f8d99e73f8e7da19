package interval

import (
	"encoding/binary"
	"unsafe"

	"atril/alphabet"
)

// The cache file's tables are used where they lie when the host stores
// integers as the file does (little-endian) and a table starts on a
// multiple of 8 bytes; else they are copied out. Either way the tables
// are only read after loading, so a read-only mapping of the file
// serves.

// hostLittleEndian is true on hosts that store integers as the file.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// inPlace reports whether b can be read as 8-byte words where it lies.
func inPlace(b []byte) bool {
	return hostLittleEndian && len(b) > 0 && uintptr(unsafe.Pointer(&b[0]))%8 == 0
}

// uint64sOf is b (a multiple of 8 bytes) as little-endian uint64s.
func uint64sOf(b []byte) []uint64 {
	if inPlace(b) {
		return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
	}
	out := make([]uint64, len(b)/8)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out
}

// kvsOf is b (a multiple of 16 bytes) as (key, value) pairs of
// little-endian uint64s.
func kvsOf(b []byte) []kv {
	if inPlace(b) {
		return unsafe.Slice((*kv)(unsafe.Pointer(&b[0])), len(b)/16)
	}
	w := uint64sOf(b)
	out := make([]kv, len(w)/2)
	for i := range out {
		out[i] = kv{key: w[2*i], val: w[2*i+1]}
	}
	return out
}

// tilesOf is b as tiles (one byte each: no copy is needed).
func tilesOf(b []byte) []alphabet.Tile {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*alphabet.Tile)(unsafe.Pointer(&b[0])), len(b))
}
