package lexicon

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/variant"
)

func TestReadList(t *testing.T) {
	v := variant.MustLoad("spanish")
	text := "# comment\nCHORRO\nLLAMA\n\nkiwi\nCARRO 12\nLLAMA\nCONSTITUCIONALIDADES\nAÑO\n"
	lex, err := Read(strings.NewReader(text), v.Alphabet, Options{MaxLen: 15})
	if err != nil {
		t.Fatal(err)
	}
	if lex.Len() != 4 || lex.Duplicates != 1 || lex.TooLong != 1 || len(lex.Rejected) != 1 {
		t.Fatalf("len %d dup %d long %d rejected %v", lex.Len(), lex.Duplicates, lex.TooLong, lex.Rejected)
	}
	if r := lex.Rejected[0]; r.Line != 5 || !strings.Contains(r.String(), `"k"`) {
		t.Errorf("rejection %v", r)
	}
	for _, w := range []string{"CHORRO", "LLAMA", "CARRO", "AÑO", "chorro"} {
		if ok, err := lex.ContainsText(w); !ok || err != nil {
			t.Errorf("%s: %v %v", w, ok, err)
		}
	}
	for _, w := range []string{"CHORR", "LAMA", "CONSTITUCIONALIDADES", "[C]HORRO"} {
		if ok, _ := lex.ContainsText(w); ok {
			t.Errorf("%s accepted", w)
		}
	}
	// Words are stored in tile order and counted in tiles.
	ch, _ := v.Alphabet.Parse("CHORRO", alphabet.Plain)
	if len(ch) != 4 || lex.Index(ch) < 0 {
		t.Errorf("CHORRO as %d tiles, index %d", len(ch), lex.Index(ch))
	}
	for i := 1; i < lex.Len(); i++ {
		if bytes.Compare(tb(lex.Word(i-1)), tb(lex.Word(i))) >= 0 {
			t.Errorf("words out of order at %d", i)
		}
	}
	if _, err := Read(strings.NewReader("kiwi\n"), v.Alphabet, Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("strict: %v", err)
	}
}

func TestGzipAndBadGzip(t *testing.T) {
	v := variant.MustLoad("english")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("CAT\nDOG\n"))
	zw.Close()
	lex, err := Read(bytes.NewReader(buf.Bytes()), v.Alphabet, Options{})
	if err != nil || lex.Len() != 2 {
		t.Fatalf("gzip: %v", err)
	}
	trunc := buf.Bytes()[:len(buf.Bytes())-6]
	if _, err := Read(bytes.NewReader(trunc), v.Alphabet, Options{}); err == nil {
		t.Error("truncated gzip accepted")
	}
}

func TestEmbeddedLists(t *testing.T) {
	if testing.Short() {
		t.Skip("loads full word lists")
	}
	tests := []struct {
		variant, list string
		min           int
		words         []string
	}{
		{"english", "en-sowpods", 267000, []string{"QI", "ZA", "AEROBIOLOGICALLY"}},
		{"spanish", "es-fise", 600000, []string{"CHORRO", "LLAMA", "PERRO", "AÑO"}},
		{"czech", "cs-hunspell-2to9", 780000, []string{"ŽLUŤOUČKÝ", "CHŮZE"}},
	}
	for _, tc := range tests {
		v := variant.MustLoad(tc.variant)
		lex, err := Open(tc.list, v.Alphabet, Options{MaxLen: v.Size})
		if err != nil {
			t.Fatal(err)
		}
		if lex.Len() < tc.min || len(lex.Rejected) != 0 {
			t.Errorf("%s: %d words, %d rejected", tc.list, lex.Len(), len(lex.Rejected))
		}
		for _, w := range tc.words {
			if ok, err := lex.ContainsText(w); !ok && !(w == "AEROBIOLOGICALLY") || err != nil {
				t.Errorf("%s: %s: %v %v", tc.list, w, ok, err)
			}
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("CAT\nDOG\n"))
	f.Add([]byte("\x1f\x8b\x08"))
	f.Add([]byte("Ñ\n#x\n  A B\n"))
	v := variant.MustLoad("spanish")
	f.Fuzz(func(t *testing.T, data []byte) {
		lex, err := Read(bytes.NewReader(data), v.Alphabet, Options{MaxLen: 15})
		if err != nil {
			return
		}
		for i := 0; i < lex.Len(); i++ {
			if !lex.Contains(lex.Word(i)) {
				t.Fatalf("word %d not found", i)
			}
		}
	})
}

// fixedCross answers every cross-set query with one set.
type fixedCross uint64

func (f fixedCross) CrossSet(prefix, suffix []alphabet.Tile) uint64 { return uint64(f) }

// TestOfferCrossSets checks that an offered CrossSetter answers only
// while none is attached, and that AttachCrossSets replaces it.
func TestOfferCrossSets(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := Read(strings.NewReader("AB\nAD\n"), v.Alphabet, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := v.Alphabet.Parse("A", alphabet.Plain)
	b, _ := v.Alphabet.Parse("B", alphabet.Plain)
	d, _ := v.Alphabet.Parse("D", alphabet.Plain)
	want := uint64(1)<<b[0] | uint64(1)<<d[0]
	if got := lex.CrossSet(a, nil); got != want {
		t.Fatalf("by lookups: %b, want %b", got, want)
	}
	if !lex.OfferCrossSets(fixedCross(want)) {
		t.Fatal("offer refused with nothing attached")
	}
	if lex.OfferCrossSets(fixedCross(1)) {
		t.Fatal("second offer accepted")
	}
	if got := lex.CrossSet(nil, nil); got != want {
		t.Fatalf("after offers: %b, want the first one's %b", got, want)
	}
	lex.AttachCrossSets(fixedCross(8))
	if got := lex.CrossSet(nil, nil); got != 8 {
		t.Fatalf("after attach: %b", got)
	}
}

// TestBuildOrder checks that a list in tile order is kept as it lies
// and any other is sorted, with duplicates dropped and counted.
func TestBuildOrder(t *testing.T) {
	v := variant.MustLoad("english")
	for _, tc := range []struct {
		name  string
		words []string
		dups  int
	}{
		{"sorted", []string{"AA", "AB", "ABA", "B", "ZA"}, 0},
		{"reversed", []string{"ZA", "B", "ABA", "AB", "AA"}, 0},
		{"duplicates", []string{"AB", "AA", "ZA", "AB", "ABA", "B", "AA", "AB"}, 3},
		{"sorted with a duplicate", []string{"AA", "AB", "AB", "ABA", "B", "ZA"}, 1},
	} {
		lex, err := FromWords(v.Alphabet, tc.words...)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i := 0; i < lex.Len(); i++ {
			got = append(got, v.Alphabet.Word(lex.Word(i)))
		}
		if strings.Join(got, " ") != "AA AB ABA B ZA" || lex.Duplicates != tc.dups || lex.MaxLen() != 3 {
			t.Errorf("%s: %v, %d duplicates, longest %d", tc.name, got, lex.Duplicates, lex.MaxLen())
		}
		for _, w := range tc.words {
			if ok, _ := lex.ContainsText(w); !ok {
				t.Errorf("%s: %s missing", tc.name, w)
			}
		}
	}
}

// BenchmarkOpen reads the embedded English list, what every start pays.
func BenchmarkOpen(b *testing.B) {
	v := variant.MustLoad("english")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Open("en-sowpods", v.Alphabet, Options{MaxLen: v.Size}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSum checks that Sum names a list by its words and alphabet only:
// the same words in any order or with duplicates give the same sum, and
// a word more, a word split differently, or another alphabet give
// another.
func TestSum(t *testing.T) {
	en, es := variant.MustLoad("english").Alphabet, variant.MustLoad("spanish").Alphabet
	sum := func(a *alphabet.Alphabet, words ...string) [32]byte {
		t.Helper()
		lex, err := FromWords(a, words...)
		if err != nil {
			t.Fatal(err)
		}
		s := lex.Sum()
		if lex.Sum() != s {
			t.Fatal("Sum changed between two calls")
		}
		return s
	}
	base := sum(en, "AB", "ABA", "CAR", "X")
	for _, tc := range []struct {
		name  string
		a     *alphabet.Alphabet
		words []string
		same  bool
	}{
		{"reordered", en, []string{"X", "CAR", "AB", "ABA"}, true},
		{"a duplicate", en, []string{"AB", "ABA", "CAR", "X", "AB"}, true},
		{"a word more", en, []string{"AB", "ABA", "CAR", "CARA", "X"}, false},
		{"a word less", en, []string{"AB", "ABA", "X"}, false},
		{"the same letters end to end, split otherwise", en, []string{"ABAB", "ACA", "R", "X"}, false},
		{"another alphabet", es, []string{"AB", "ABA", "CAR", "X"}, false},
	} {
		if got := sum(tc.a, tc.words...); (got == base) != tc.same {
			t.Errorf("%s: same sum %v, want %v", tc.name, got == base, tc.same)
		}
	}
}
