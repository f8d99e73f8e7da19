// Package atomicfile writes a file so that readers see either the old
// content or the whole new one, never a part: the data goes to a
// temporary file in the same directory, which is then renamed over the
// target.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes data to path atomically, creating the directory. A
// failed write leaves no temporary file behind. Errors name the step
// that failed; the caller adds the path.
func Write(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*"+filepath.Ext(path))
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing: %w", werr)
	}
	return nil
}
