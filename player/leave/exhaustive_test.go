package leave

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/variant"
)

func TestIndexRanksUniqueAndRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		variant string
		leaves  int // all leaves, the empty one included
		short   bool
	}{
		{"english", 914625, true},
		{"spanish", 1170591, true},
		{"czech", 7781346, false},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			if testing.Short() && !tc.short {
				t.Skip("-short")
			}
			v := variant.MustLoad(tc.variant)
			ix, err := NewIndex(v)
			if err != nil {
				t.Fatal(err)
			}
			if ix.Len() != tc.leaves {
				t.Fatalf("Len = %d, want %d", ix.Len(), tc.leaves)
			}
			next := 0
			ix.Each(func(rank int, r *alphabet.Rack) {
				if rank != next {
					t.Fatalf("Each: rank %d after %d", rank, next-1)
				}
				next++
				got, ok := ix.Rank(r)
				if !ok || got != rank {
					t.Fatalf("Rank(%s) = %d, %v; want %d", ix.String(r), got, ok, rank)
				}
				if u := ix.Unrank(rank); u != *r {
					t.Fatalf("Unrank(%d) = %s, want %s", rank, ix.String(&u), ix.String(r))
				}
				if r.Len() > ix.MaxLeave() {
					t.Fatalf("leave %s has more than %d tiles", ix.String(r), ix.MaxLeave())
				}
				for i := range v.Counts {
					if int(r[i]) > v.Counts[i] {
						t.Fatalf("leave %s has more copies of tile %d than the set", ix.String(r), i)
					}
				}
			})
			if next != ix.Len() {
				t.Fatalf("Each visited %d leaves, want %d", next, ix.Len())
			}
		})
	}
}

// brute counts the multisets of at most max tiles within the counts.
func brute(counts []int, max int) int {
	var rec func(t, s int) int
	rec = func(t, s int) int {
		if t == len(counts) {
			return 1
		}
		n := 0
		for x := 0; x <= min(counts[t], s); x++ {
			n += rec(t+1, s-x)
		}
		return n
	}
	return rec(0, max)
}

func TestIndexSmallSetsAgainstBruteCount(t *testing.T) {
	for _, tc := range []struct {
		counts []int
		max    int
	}{
		{[]int{1, 1}, 1}, {[]int{2, 3, 1}, 2}, {[]int{0, 4, 4, 1}, 3}, {[]int{2, 9, 2, 1, 12}, 6},
	} {
		letters := []string{"?"}
		for i := 1; i < len(tc.counts); i++ {
			letters = append(letters, string(rune('A'+i-1)))
		}
		ix, err := newIndex(letters, tc.counts, tc.max)
		if err != nil {
			t.Fatal(err)
		}
		if want := brute(tc.counts, tc.max); ix.Len() != want {
			t.Errorf("counts %v max %d: Len %d, brute %d", tc.counts, tc.max, ix.Len(), want)
		}
	}
}

func TestRankRefusesImpossibleLeaves(t *testing.T) {
	v := variant.MustLoad("english")
	ix, _ := NewIndex(v)
	a := v.Alphabet
	for _, s := range []string{"AEINRST", "QQ", "???", "ZZ"} {
		r, err := a.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ix.Rank(&r); ok {
			t.Errorf("Rank(%s) accepted", s)
		}
	}
	var r alphabet.Rack
	r[40] = 1 // a code outside the English alphabet
	if _, ok := ix.Rank(&r); ok {
		t.Error("Rank accepted a tile outside the set")
	}
}

// randomTable gives every leave a random value.
func randomTable(t *testing.T, v *variant.Variant, seed uint64) (*Exhaustive, []float64) {
	t.Helper()
	ix, err := NewIndex(v)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	vals := make([]float64, ix.Len())
	for i := 1; i < len(vals); i++ {
		vals[i] = math.Round((rng.Float64()*80-30)*Scale) / Scale
	}
	tb, err := NewExhaustive("random", v.Name, ix, vals)
	if err != nil {
		t.Fatal(err)
	}
	return tb, vals
}

// sortedKey is a leave written as its sorted tile codes: the plain map's key.
func sortedKey(ts []alphabet.Tile) string {
	b := make([]byte, len(ts))
	for i, x := range ts {
		b[i] = byte(x)
	}
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	return string(b)
}

func TestLookupAgreesWithMap(t *testing.T) {
	for _, name := range []string{"english", "spanish"} {
		v := variant.MustLoad(name)
		tb, vals := randomTable(t, v, 7)
		m := map[string]float64{}
		tb.Index().Each(func(rank int, r *alphabet.Rack) { m[sortedKey(r.Tiles())] = vals[rank] })
		bag := fullBag(v)
		rng := rand.New(rand.NewPCG(3, 4))
		for i := 0; i < 20000; i++ {
			rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
			n := rng.IntN(v.RackSize)
			r := alphabet.RackOf(bag[:n])
			want, ok := m[sortedKey(bag[:n])]
			if !ok {
				t.Fatalf("%s: leave %s missing from the map", name, v.Alphabet.RackString(&r))
			}
			if got := tb.Eval(&r); got != want {
				t.Fatalf("%s: Eval(%s) = %v, map %v", name, v.Alphabet.RackString(&r), got, want)
			}
		}
	}
}

// TestEvalSubRacksAgreesWithEval checks EvalSubRacks against Eval for
// every sub-rack of random racks and of racks the table covers only in
// part, and that the index space holds exactly the rack's sub-racks.
func TestEvalSubRacksAgreesWithEval(t *testing.T) {
	v := variant.MustLoad("english")
	tb, _ := randomTable(t, v, 13)
	bag := fullBag(v)
	rng := rand.New(rand.NewPCG(7, 8))
	parse := func(s string) alphabet.Rack {
		r, err := v.Alphabet.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Racks the table covers only in part: more copies of a tile than
	// the set holds (one Q, two blanks), and eight tiles.
	racks := []alphabet.Rack{parse("QQU"), parse("???E"), parse("QQQ??AB"), parse("AEINRSTT")}
	for i := 0; i < 500; i++ {
		rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
		racks = append(racks, alphabet.RackOf(bag[:1+rng.IntN(7)]))
	}
	for _, r := range racks {
		// The index of a sub-rack: its counts of r's distinct tiles in
		// code order, the first the least significant digit.
		size := 1
		for _, c := range r {
			size *= int(c) + 1
		}
		out := make([]float64, size)
		if !tb.EvalSubRacks(&r, out) {
			t.Fatal("EvalSubRacks reported false")
		}
		if seen := checkSubRacks(t, v.Alphabet, tb, &r, out); seen != size {
			t.Fatalf("rack %s: %d sub-racks, index space %d", v.Alphabet.RackString(&r), seen, size)
		}
	}
}

func TestLookupsDoNotAllocate(t *testing.T) {
	v := variant.MustLoad("english")
	tb, _ := randomTable(t, v, 1)
	r, _ := v.Alphabet.ParseRack("EIRST?")
	full, _ := v.Alphabet.ParseRack("AEINRST")
	var out [128]float64
	if n := testing.AllocsPerRun(100, func() { tb.Eval(&r) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { tb.EvalSubRacks(&full, out[:]) }); n != 0 {
		t.Errorf("EvalSubRacks allocates %v times", n)
	}
}

func TestFileRoundTripAndRefusals(t *testing.T) {
	v := variant.MustLoad("english")
	tb, _ := randomTable(t, v, 2)
	var raw, gz bytes.Buffer
	if _, err := tb.WriteTo(&raw); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteGzip(&gz); err != nil {
		t.Fatal(err)
	}
	for k, data := range [][]byte{raw.Bytes(), gz.Bytes()} {
		got, err := ReadExhaustive(data, v)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != "random" || got.Variant != "english" {
			t.Fatal("names changed in a round trip")
		}
		if k == 0 && !equalVals(got, tb) {
			t.Fatal("table changed in an exact round trip")
		}
		for r := range tb.vals { // the stored form: within half a step
			if d := math.Abs(got.Value(r) - tb.Value(r)); d > 0.5/StoreScale {
				t.Fatalf("rank %d: %v stored as %v", r, tb.Value(r), got.Value(r))
			}
		}
	}
	flip := append([]byte(nil), raw.Bytes()...)
	flip[len(flip)/2] ^= 0x10
	version := append([]byte(nil), raw.Bytes()...)
	version[len(fileMagic)] = 9
	binary.LittleEndian.PutUint32(version[len(version)-4:], crc32.Checksum(version[:len(version)-4], crcTable))
	for _, tc := range []struct {
		name string
		data []byte
		v    *variant.Variant
		want string
	}{
		{"damaged", flip, v, "checksum mismatch"},
		{"truncated", raw.Bytes()[:raw.Len()-100], v, "checksum mismatch"},
		{"short", []byte(fileMagic + "x"), v, "truncated"},
		{"text table", []byte("A\t1\t0\n"), v, "not an exhaustive leave table"},
		{"bad gzip", append([]byte{0x1f, 0x8b}, raw.Bytes()[:50]...), v, "leave table"},
		{"other version", version, v, "format version 9"},
		{"foreign tile set", raw.Bytes(), variant.MustLoad("spanish"), "made for english"},
	} {
		_, err := ReadExhaustive(tc.data, tc.v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func equalVals(a, b *Exhaustive) bool {
	if len(a.vals) != len(b.vals) {
		return false
	}
	for i := range a.vals {
		if a.vals[i] != b.vals[i] {
			return false
		}
	}
	return true
}

func TestFromEvaluatorCopiesPerLetterTable(t *testing.T) {
	v := variant.MustLoad("english")
	ix, _ := NewIndex(v)
	v2, err := Bind(EnglishV2(), v.Alphabet)
	if err != nil {
		t.Fatal(err)
	}
	tb := FromEvaluator("v2", "english", ix, v2)
	for _, s := range []string{"S", "QU", "EIRST", "??", "IIISS"} {
		r, _ := v.Alphabet.ParseRack(s)
		if got, want := tb.Eval(&r), v2.Eval(&r); math.Abs(got-want) > 0.5/Scale {
			t.Errorf("%s: %v, per-letter %v", s, got, want)
		}
	}
}

func BenchmarkExhaustiveEval(b *testing.B) {
	v := variant.MustLoad("english")
	ix, _ := NewIndex(v)
	tb := FromEvaluator("zero", "english", ix, nil)
	r, _ := v.Alphabet.ParseRack("EIRST?")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.Eval(&r)
	}
}

func BenchmarkExhaustiveEvalSubRacks(b *testing.B) {
	v := variant.MustLoad("english")
	ix, _ := NewIndex(v)
	tb := FromEvaluator("zero", "english", ix, nil)
	r, _ := v.Alphabet.ParseRack("ADEINST")
	var out [128]float64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.EvalSubRacks(&r, out[:])
	}
}

func BenchmarkReadExhaustive(b *testing.B) {
	for _, name := range []string{"english", "czech"} {
		b.Run(name, func(b *testing.B) {
			v := variant.MustLoad(name)
			ix, _ := NewIndex(v)
			var raw, gz bytes.Buffer
			tb := FromEvaluator("zero", name, ix, nil)
			tb.WriteTo(&raw)
			tb.WriteGzip(&gz)
			b.Logf("%s: %d bytes raw, %d gzip-compressed", name, raw.Len(), gz.Len())
			b.Run("raw", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					ReadExhaustive(raw.Bytes(), v)
				}
			})
			b.Run("gzip", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					ReadExhaustive(gz.Bytes(), v)
				}
			})
		})
	}
}
