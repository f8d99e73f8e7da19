package lexicon

import (
	"unsafe"

	"atril/alphabet"
)

// unsafeBytes views tiles as bytes; alphabet.Tile is a uint8, so the
// memory layout is the same and no copy is needed.
func unsafeBytes(w []alphabet.Tile) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
}

// unsafeTiles views bytes as tiles.
func unsafeTiles(b []byte) []alphabet.Tile {
	return unsafe.Slice((*alphabet.Tile)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}
