package interval

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"atril/lexicon"
	"atril/variant"
)

// TestUnmarshalInPlace reads a file of tables three ways (a heap slice
// starting on 8 bytes, one that does not, and a mapped file): each must
// give tables that write back the very same bytes, and the first and
// the last must use the data where it lies.
func TestUnmarshalInPlace(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "QUIZ", "RETAINS", "ZAX", "JIVE", "OXYPHENBUTAZONE", "AA", "STAINER", "NASTIER")
	if err != nil {
		t.Fatal(err)
	}
	at, err := BuildAnagram(lex, nil, AnagramOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := at.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.atan")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	mapped, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer unmapFile(mapped)
	odd := make([]byte, len(data)+1)
	copy(odd[1:], data)
	for _, tc := range []struct {
		name    string
		data    []byte
		inPlace bool
	}{
		{"heap", append([]byte(nil), data...), hostLittleEndian},
		{"misaligned", odd[1:], false},
		{"mapped", mapped, hostLittleEndian},
	} {
		got, err := UnmarshalAnagram(tc.data, lex)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		again, err := got.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.Equal(again, data) {
			t.Errorf("%s: the loaded tables write back other bytes", tc.name)
		}
		slots := got.lens[7].keys[0].slots
		p := uintptr(unsafe.Pointer(&slots[0]))
		lo := uintptr(unsafe.Pointer(&tc.data[0]))
		if within := p >= lo && p < lo+uintptr(len(tc.data)); within != tc.inPlace {
			t.Errorf("%s: tables in the data %v, want %v", tc.name, within, tc.inPlace)
		}
	}
}

// BenchmarkAnagramLoad loads the English anagram tables from their
// cache file (mapping and checking it), what a second start pays.
func BenchmarkAnagramLoad(b *testing.B) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	if _, res := ReadOrBuildAnagram(lex); res.Path == "" {
		b.Skipf("no cache file: %v", res.CacheErr)
	} else {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			data, err := mapFile(res.Path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := UnmarshalAnagram(data, lex); err != nil {
				b.Fatal(err)
			}
			unmapFile(data)
		}
	}
}
