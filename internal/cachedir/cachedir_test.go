package cachedir

import (
	"path/filepath"
	"testing"
)

func TestFileName(t *testing.T) {
	var key [32]byte
	key[0], key[7], key[8] = 0xab, 0x01, 0xff
	for _, tc := range []struct{ prefix, name, ext, want string }{
		{"words", "en-sowpods", ".atlx", "words-en-sowpods-ab00000000000001.atlx"},
		{"gaddag", "my list/ñ.txt", ".atfa", "gaddag-my_list__.txt-ab00000000000001.atfa"},
		{"anagram", "", ".atan", "anagram-list-ab00000000000001.atan"},
	} {
		if got := FileName(tc.prefix, tc.name, key, tc.ext); got != tc.want {
			t.Errorf("FileName(%q, %q): %q, want %q", tc.prefix, tc.name, got, tc.want)
		}
	}
}

func TestDir(t *testing.T) {
	t.Setenv(Env, "off")
	if d, err := Dir(); d != "" || err != nil {
		t.Errorf("off: %q, %v", d, err)
	}
	want := filepath.Join(t.TempDir(), "c")
	t.Setenv(Env, want)
	if d, err := Dir(); d != want || err != nil {
		t.Errorf("set: %q, %v", d, err)
	}
}
