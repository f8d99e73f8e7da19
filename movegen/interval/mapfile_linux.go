package interval

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path into memory, read-only, its pages read
// in at once: the tables then lie in the page cache that every process
// loading them shares, and a second start copies nothing. The cache
// files are only ever replaced (atomicfile), never written in place, so
// a mapping keeps the file it was made of.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	switch {
	case size == 0:
		return nil, nil // nothing to map: the reader says what is wrong
	case size != int64(int(size)):
		return nil, fmt.Errorf("mapping %s: %d bytes, too large for this host", path, size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("mapping %s: %w", path, err)
	}
	return data, nil
}

// unmapFile releases what mapFile returned, once nothing uses it.
func unmapFile(data []byte) {
	if len(data) > 0 {
		_ = syscall.Munmap(data)
	}
}
