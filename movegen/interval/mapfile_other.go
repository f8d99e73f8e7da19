//go:build !linux

package interval

import "os"

// mapFile reads the file at path (mapping it is done on Linux only).
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

// unmapFile releases what mapFile returned: here, nothing to do.
func unmapFile([]byte) {}
