// Package cachedir names the directory where atril keeps the files it
// makes from a word list (read lists, automata, anagram tables and
// filters), so that a later start reads them instead of making them
// again.
package cachedir

import (
	"fmt"
	"os"
	"path/filepath"
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
