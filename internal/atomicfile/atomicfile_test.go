package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "table.bin")
	for _, data := range []string{"first", "second, longer"} {
		if err := Write(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
	}
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(ents) != 1 {
		t.Fatalf("directory holds %d entries (%v), want only the file", len(ents), err)
	}
	// A directory standing where the file goes: the rename fails and no
	// temporary file is left.
	bad := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(bad, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(bad, []byte("data")); err == nil {
		t.Fatal("writing over a non-empty directory succeeded")
	}
	ents, _ = os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "sub" && e.Name() != "taken" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
