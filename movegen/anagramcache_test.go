package movegen

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/variant"
)

// TestAnagramFilterCache checks the filter's disk cache: the first use
// writes a file, the next load reads back exactly the filter built, and a
// file that is damaged, cut short, or made for another word list or
// length is refused (and the filter rebuilt).
func TestAnagramFilterCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(automaton.CacheEnv, dir)
	old := minCachedWords
	minCachedWords = 1
	defer func() { minCachedWords = old }()

	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CAT", "ACT", "TACO", "COAT", "ZA", "QI", "AXE", "OXEN", "RETAINS")
	if err != nil {
		t.Fatal(err)
	}
	a := automaton.BuildGADDAG(lex)
	arcs, root := a.Arcs()
	built := buildAnagramFilter(arcs, root, 8)
	load := func() *AnagramFilter {
		return loadOrBuildAnagramFilter(a.Key, a.Words, 8, func() *AnagramFilter { return buildAnagramFilter(arcs, root, 8) })
	}
	first := load()
	path := filepath.Join(dir, anagramFileName(a.Key, 8))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no cache file written: %v", err)
	}
	second := load()
	// The word list's own filter, built from its words rather than its
	// GADDAG, is the same filter.
	fromWords := buildLexiconAnagramFilter(lex, 8)
	for _, f := range []*AnagramFilter{first, second, fromWords} {
		if f.shortLen != built.shortLen || f.weights != built.weights {
			t.Fatal("cached filter differs in shape from the one built")
		}
		if !sameFilters(f, built) {
			t.Fatal("cached filter differs from the one built")
		}
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)/2] ^= 4
	other := a.Key
	other[0] ^= 1
	cases := []struct {
		name     string
		data     []byte
		key      [32]byte
		shortLen int
	}{
		{"a flipped bit", flipped, a.Key, 8},
		{"cut short", data[:len(data)-9], a.Key, 8},
		{"another word list", data, other, 8},
		{"another length", data, a.Key, 7},
		{"empty", nil, a.Key, 8},
	}
	for _, tc := range cases {
		if _, err := unmarshalAnagramFilter(tc.data, tc.key, tc.shortLen); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	if _, err := unmarshalAnagramFilter(data, a.Key, 8); err != nil {
		t.Errorf("the file itself refused: %v", err)
	}
	// A damaged file is rebuilt and rewritten.
	if err := os.WriteFile(path, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	if f := load(); !sameFilters(f, built) {
		t.Fatal("rebuilt filter differs")
	}
	if again, _ := os.ReadFile(path); string(again) != string(data) {
		t.Error("damaged cache file not rewritten")
	}
}

// TestAnagramFilterHolds checks what the filter answers, for each number
// of blanks: every word's letters, with any one or (for words of up to
// shortLen letters) any two of them left to blanks, are held; letters
// that make no word are seldom held.
func TestAnagramFilterHolds(t *testing.T) {
	v := variant.MustLoad("english")
	words := []string{"CAT", "ACT", "TACO", "COAT", "ZA", "QI", "AXE", "OXEN", "RETAINS", "QUIZZED", "OXYPHENBUTAZONE"}
	lex, err := lexicon.FromWords(v.Alphabet, words...)
	if err != nil {
		t.Fatal(err)
	}
	const shortLen = 8
	f := buildLexiconAnagramFilter(lex, shortLen)
	sum := func(w []alphabet.Tile) uint64 {
		h := uint64(0)
		for _, l := range w {
			h += f.Weight(l)
		}
		return h
	}
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		h, n := sum(w), len(w)
		if !f.has(h, 0, n) {
			t.Errorf("%s: its letters not held", v.Alphabet.Word(w))
		}
		for a := range w {
			if !f.has(h-f.Weight(w[a]), 1, n) {
				t.Errorf("%s: its letters but %c, with a blank, not held", v.Alphabet.Word(w), v.Alphabet.Word(w[a : a+1])[0])
			}
			for b := a + 1; b < len(w); b++ {
				if got := f.has(h-f.Weight(w[a])-f.Weight(w[b]), 2, n); !got {
					t.Errorf("%s less two letters, with two blanks: not held", v.Alphabet.Word(w))
				}
			}
		}
	}
	// No word is longer than the longest: the filters end there.
	if w := lex.Word(lex.Len() - 1); f.has(sum(w), 0, 16) || f.has(sum(w), 1, 16) {
		t.Error("letters held for words longer than any")
	}
	// Letters that make no word of the list, without blanks: a
	// word's letters with one changed to a letter it lacks.
	held, tries := 0, 0
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		for l := alphabet.Tile(1); int(l) <= v.Alphabet.Size(); l++ {
			h := sum(w) - f.Weight(w[0]) + f.Weight(l)
			if lex.Contains(append([]alphabet.Tile{l}, w[1:]...)) {
				continue
			}
			tries++
			if f.has(h, 0, len(w)) {
				held++
			}
		}
	}
	if held*10 > tries {
		t.Errorf("%d of %d multisets that make no word held", held, tries)
	}
}

// sameFilters reports whether two filters hold the same words in the
// same filters.
func sameFilters(f, g *AnagramFilter) bool {
	for b := range f.bl {
		if len(f.bl[b]) != len(g.bl[b]) {
			return false
		}
		for n := range f.bl[b] {
			if !slices.Equal(f.bl[b][n].Words, g.bl[b][n].Words) {
				return false
			}
		}
	}
	return true
}

// FuzzAnagramFilterFile feeds the filter file's reader arbitrary bytes,
// re-signed with a valid checksum so that the checks behind it are
// reached: it must never panic, and what it accepts must answer
// questions without panicking and write back to the same bytes.
func FuzzAnagramFilterFile(f *testing.F) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CAT", "ACT", "TACO", "ZA", "QI", "RETAINS")
	if err != nil {
		f.Fatal(err)
	}
	a := automaton.BuildGADDAG(lex)
	data := buildLexiconAnagramFilter(lex, 8).marshal(a.Key)
	f.Add(data)
	f.Add(data[:anagramHead+8])
	f.Add([]byte(anagramMagic))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) >= 4 {
			in = binary.LittleEndian.AppendUint32(slices.Clone(in[:len(in)-4]), crc32.Checksum(in[:len(in)-4], anagramCRC))
		}
		g, err := unmarshalAnagramFilter(in, a.Key, 8)
		if err != nil {
			return
		}
		for b := 0; b <= 2; b++ {
			for n := 1; n <= 16; n++ {
				g.has(uint64(n)*0x9e3779b97f4a7c15, b, n)
			}
		}
		if out := g.marshal(a.Key); !bytes.Equal(out, in) {
			t.Fatal("accepted file does not write back the same")
		}
	})
}
