package interval_test

import (
	"os"
	"path/filepath"
	"testing"

	"atril/lexicon/automaton"
	"atril/movegen"
	"atril/movegen/interval"
)

// TestAnagramCache writes the anagram tables of a sample lexicon to a
// cache directory, reads them back (the moves of some positions must be
// the same), and checks that damaged or foreign files are refused and
// rebuilt.
func TestAnagramCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(automaton.CacheEnv, dir)
	_, full := fullLexicon(t, languages[0])
	lex := sampleLexicon(full, 53)
	built, res := interval.CachedAnagram(lex)
	if built == nil || res.Loaded || res.CacheErr != nil || res.Path == "" {
		t.Fatalf("first call: %+v", res)
	}
	data, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := interval.UnmarshalAnagram(data, lex)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Bytes() != built.Bytes() || loaded.Keys(2) != built.Keys(2) || loaded.Entries(1) != built.Entries(1) {
		t.Errorf("loaded tables: %d bytes, %d two-blank keys; built %d, %d", loaded.Bytes(), loaded.Keys(2), built.Bytes(), built.Keys(2))
	}
	bs, rs, _ := ivPositions(t, "en-sowpods", "english", lex, movegen.NewGaddag(lex), 1, 8)
	a, b := interval.NewAnagramFrom(built), interval.NewAnagramFrom(loaded)
	for i := range bs {
		for _, nb := range []uint8{0, 1, 2} {
			r := rs[i]
			r[0] = nb
			want := ivPrint(a, bs[i], &r, nil)
			if got := ivPrint(b, bs[i], &r, nil); !ivSamePrint(want, got) {
				t.Fatalf("position %d, %d blanks: loaded tables give %d moves, built %d", i, nb, len(got), len(want))
			}
		}
	}

	other := sampleLexicon(full, 59)
	for _, tc := range []struct {
		name string
		data func() []byte
	}{
		{"flipped byte", func() []byte { d := append([]byte(nil), data...); d[len(d)/2] ^= 1; return d }},
		{"truncated", func() []byte { return data[:len(data)-100] }},
		{"empty", func() []byte { return nil }},
	} {
		if _, err := interval.UnmarshalAnagram(tc.data(), lex); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	if _, err := interval.UnmarshalAnagram(data, other); err == nil {
		t.Error("tables of another word list accepted")
	}
	// A damaged file in the cache is rebuilt and rewritten.
	bad := append([]byte(nil), data...)
	bad[100] ^= 0xff
	if err := os.WriteFile(res.Path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	at, res2 := interval.ReadOrBuildAnagram(lex)
	if at == nil || res2.Loaded || res2.CacheErr == nil {
		t.Errorf("damaged file: %+v", res2)
	}
	if _, res3 := interval.ReadOrBuildAnagram(lex); !res3.Loaded || res3.CacheErr != nil {
		t.Errorf("rewritten file: %+v", res3)
	}
	if at, res4 := interval.CachedAnagram(lex); at != built || !res4.Shared {
		t.Errorf("second call in the process: %+v", res4)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.atan")); len(m) != 1 {
		t.Errorf("cache holds %v", m)
	}
}
