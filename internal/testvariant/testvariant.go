// Package testvariant builds small variants and lexicons for tests.
package testvariant

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/variant"
)

// Small returns an n×n variant with no premiums, start square in the
// centre, the given rack size and bingo bonus, and tiles given as
// "LETTER:count:score" items (blank as "?").
func Small(t testing.TB, n, rack, bingo int, tiles ...string) *variant.Variant {
	t.Helper()
	var ts []string
	for _, s := range tiles {
		var l string
		var c, sc int
		parts := strings.Split(s, ":")
		if len(parts) != 3 {
			t.Fatalf("tile spec %q", s)
		}
		l = parts[0]
		fmt.Sscan(parts[1], &c)
		fmt.Sscan(parts[2], &sc)
		ts = append(ts, fmt.Sprintf(`{"tile":%q,"count":%d,"score":%d}`, l, c, sc))
	}
	js := fmt.Sprintf(`{"name":"small","board_size":%d,"rack_size":%d,"bingo_bonus":%d,"tiles":[%s]}`,
		n, rack, bingo, strings.Join(ts, ","))
	v, err := variant.Parse([]byte(js), "small")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Lexicon builds a lexicon of the given words for v.
func Lexicon(t testing.TB, v *variant.Variant, words ...string) *lexicon.Lexicon {
	t.Helper()
	lex, err := lexicon.FromWords(v.Alphabet, words...)
	if err != nil {
		t.Fatal(err)
	}
	return lex
}

// Sample returns every k-th word of an embedded list (all of it for k=1),
// for tests that need a realistic but fast lexicon.
func Sample(t testing.TB, v *variant.Variant, list string, k int) *lexicon.Lexicon {
	t.Helper()
	full, err := lexicon.Open(list, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	if k <= 1 {
		return full
	}
	var words [][]alphabet.Tile
	for i := 0; i < full.Len(); i += k {
		words = append(words, full.Word(i))
	}
	return lexicon.FromTiles(v.Alphabet, words)
}

// Reordered returns the embedded variant name with its tiles listed in the
// reverse order, so that every letter has another tile code, both as JSON
// (to write to a file) and parsed.
func Reordered(t testing.TB, name string) ([]byte, *variant.Variant) {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "variant", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var tiles []json.RawMessage
	if err := json.Unmarshal(f["tiles"], &tiles); err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(tiles)-1; i < j; i, j = i+1, j-1 {
		tiles[i], tiles[j] = tiles[j], tiles[i]
	}
	if f["tiles"], err = json.Marshal(tiles); err != nil {
		t.Fatal(err)
	}
	if data, err = json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	v, err := variant.Parse(data, name+" (reordered)")
	if err != nil {
		t.Fatal(err)
	}
	if orig := variant.MustLoad(name); v.Alphabet.String(1) == orig.Alphabet.String(1) {
		t.Fatalf("reordered %s still has %s first", name, v.Alphabet.String(1))
	}
	return data, v
}
