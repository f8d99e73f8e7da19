// Package cachedir names the directory where atril keeps the files it
// makes from a word list (read lists, automata, anagram tables and
// filters), so that a later start reads them instead of making them
// again.
package cachedir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Env names the environment variable that overrides the directory; the
// value "off" turns the disk cache off.
const Env = "ATRIL_CACHE"

// Dir returns the cache directory: $ATRIL_CACHE, or "atril" in the
// user's cache directory. It returns "" (and no error) when the cache is
// turned off.
func Dir() (string, error) {
	if d := os.Getenv(Env); d != "" {
		if d == "off" {
			return "", nil
		}
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache directory: %w", err)
	}
	return filepath.Join(d, "atril"), nil
}

// FileName is the name of a cache file: prefix, then the list's name
// with every character outside [A-Za-z0-9._-] made '_' ("list" when
// empty), then the first 8 bytes of key in hex, then ext (with its dot).
func FileName(prefix, name string, key [32]byte, ext string) string {
	clean := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, name)
	if clean == "" {
		clean = "list"
	}
	return fmt.Sprintf("%s-%s-%x%s", prefix, clean, key[:8], ext)
}
