package lexicon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"atril/internal/cachedir"
	"atril/variant"
)

// sameLexicon reports how got differs from want ("" when it does not).
func sameLexicon(got, want *Lexicon) string {
	switch {
	case got.Len() != want.Len() || got.MaxLen() != want.MaxLen():
		return "sizes"
	case got.TooLong != want.TooLong || got.Duplicates != want.Duplicates:
		return "counts"
	case got.Sum() != want.Sum() || got.Bytes() != want.Bytes():
		return "sum or memory"
	case !bytes.Equal(got.data, want.data) || !slices.Equal(got.offs, want.offs):
		return "words"
	}
	for i := 0; i < want.Len(); i++ {
		if got.Index(want.Word(i)) != i {
			return "hash set"
		}
	}
	return ""
}

// TestOpenCached checks that a list Open reads is kept in the cache and
// read back the same, that a damaged cache file is passed over and
// written anew, that another alphabet or other options use another file,
// and that lists with rejected lines are read from the text every time.
func TestOpenCached(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cachedir.Env, dir)
	v := variant.MustLoad("english")
	opt := Options{MaxLen: v.Size}
	first, err := Open("en-sowpods", v.Alphabet, opt)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"+cacheExt))
	if len(files) != 1 {
		t.Fatalf("cache holds %v", files)
	}
	t.Setenv(cachedir.Env, "off")
	plain, err := Open("en-sowpods", v.Alphabet, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(cachedir.Env, dir)
	second, err := Open("en-sowpods", v.Alphabet, opt)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameLexicon(first, plain); d != "" {
		t.Errorf("read from the text: %s differ", d)
	}
	if d := sameLexicon(second, plain); d != "" {
		t.Errorf("read from the cache: %s differ", d)
	}
	if second.Name != "en-sowpods" {
		t.Errorf("name %q", second.Name)
	}

	// A damaged file is read from the text again and rewritten.
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	if err := os.WriteFile(files[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	third, err := Open("en-sowpods", v.Alphabet, opt)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameLexicon(third, plain); d != "" {
		t.Errorf("after damage: %s differ", d)
	}
	again, _ := os.ReadFile(files[0])
	if _, err := unmarshalCache(again, v.Alphabet, cacheKey(mustEmbedded(t, "en-sowpods"), v.Alphabet, opt)); err != nil {
		t.Errorf("the damaged file was not written anew: %v", err)
	}

	// Other options, another file.
	if _, err := Open("en-sowpods", v.Alphabet, Options{MaxLen: 8}); err != nil {
		t.Fatal(err)
	}
	if files, _ = filepath.Glob(filepath.Join(dir, "*"+cacheExt)); len(files) != 2 {
		t.Errorf("cache holds %v after other options", files)
	}

	// A list with rejected lines is never cached.
	path := filepath.Join(t.TempDir(), "odd.txt")
	if err := os.WriteFile(path, []byte("CAT\nD0G\nTAX\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		lex, err := Open(path, v.Alphabet, opt)
		if err != nil {
			t.Fatal(err)
		}
		if lex.Len() != 2 || len(lex.Rejected) != 1 || lex.Name != "odd" {
			t.Errorf("odd list: %d words, %v, name %q", lex.Len(), lex.Rejected, lex.Name)
		}
	}
	if files, _ = filepath.Glob(filepath.Join(dir, "words-odd-*")); len(files) != 0 {
		t.Errorf("a list with rejections was cached: %v", files)
	}
}

func mustEmbedded(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := embedded.ReadFile("lists/" + name + ".txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// resign puts the right checksum at the end of a cache file.
func resign(data []byte) {
	if len(data) >= 4 {
		binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], cacheCRC))
	}
}

// TestUnmarshalCacheRefuses checks that damaged and foreign files are
// refused with an error naming the problem.
func TestUnmarshalCacheRefuses(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := FromWords(v.Alphabet, "AA", "AB", "CAT", "TAX", "ZOOS")
	if err != nil {
		t.Fatal(err)
	}
	var k [32]byte
	k[0] = 7
	good := lex.marshalCache(k)
	if back, err := unmarshalCache(good, v.Alphabet, k); err != nil || sameLexicon(back, lex) != "" {
		t.Fatalf("a good file: %v", err)
	}
	edit := func(f func(d []byte) []byte) []byte {
		d := f(append([]byte(nil), good...))
		resign(d)
		return d
	}
	other := k
	other[0] = 8
	for _, tc := range []struct {
		name string
		data []byte
		key  [32]byte
		want string
	}{
		{"flipped byte", func() []byte { d := append([]byte(nil), good...); d[cacheHeader+3] ^= 1; return d }(), k, "checksum"},
		{"truncated", good[:len(good)-9], k, "checksum"},
		{"empty", nil, k, "bad magic"},
		{"another key", good, other, "another list"},
		{"another version", edit(func(d []byte) []byte { d[8] = 9; return d }), k, "format version 9"},
		{"words out of order", edit(func(d []byte) []byte {
			w := cacheHeader + 4*(lex.Len()+1)
			d[w], d[w+2] = d[w+2], d[w] // AA AB → AB AA: a boundary at 2
			d[w+1], d[w+3] = d[w+3], d[w+1]
			return d
		}), k, "out of order"},
		{"tile outside the alphabet", edit(func(d []byte) []byte { d[cacheHeader+4*(lex.Len()+1)+len(lex.data)-1] = 60; return d }), k, "tile code 60"},
		{"slot past the words", edit(func(d []byte) []byte {
			binary.LittleEndian.PutUint32(d[len(d)-8:], 99)
			return d
		}), k, "names word 99"},
	} {
		_, err := unmarshalCache(tc.data, v.Alphabet, tc.key)
		if err == nil || !errors.Is(err, errCacheFile) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// FuzzCacheFile feeds the cache reader arbitrary bytes, re-signed so that
// the checks past the checksum are reached: it must refuse them or give
// a lexicon whose lookups do not panic.
func FuzzCacheFile(f *testing.F) {
	v := variant.MustLoad("english")
	lex, err := FromWords(v.Alphabet, "AA", "AB", "CAT", "TAX", "ZOOS", "QI")
	if err != nil {
		f.Fatal(err)
	}
	var k [32]byte
	good := lex.marshalCache(k)
	f.Add(good)
	f.Add(good[:cacheHeader+4])
	f.Fuzz(func(t *testing.T, data []byte) {
		data = append([]byte(nil), data...)
		if len(data) > 12+32 {
			copy(data[12:], k[:]) // the key, which a mutation would rarely keep
		}
		resign(data)
		got, err := unmarshalCache(data, v.Alphabet, k)
		if err != nil {
			return
		}
		for i := 0; i < got.Len(); i++ {
			got.Index(got.Word(i))
		}
		for _, w := range []string{"CAT", "ZZZ", "A", "QI"} {
			if _, err := got.ContainsText(w); err != nil {
				t.Fatal(err)
			}
		}
	})
}
