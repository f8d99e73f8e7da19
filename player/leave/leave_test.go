package leave

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/variant"
)

func rack(t *testing.T, v *variant.Variant, s string) alphabet.Rack {
	t.Helper()
	r, err := v.Alphabet.ParseRack(s)
	if err != nil {
		t.Fatalf("rack %q: %v", s, err)
	}
	return r
}

func TestEval(t *testing.T) {
	en := variant.MustLoad("english")
	cs := variant.MustLoad("czech")
	tests := []struct {
		v     *variant.Variant
		spec  *Spec
		rack  string
		want  float64
		descr string
	}{
		{en, EnglishV1(), "IIISS", 10.5, "Pícek 2008 worked example, v1"},
		{en, EnglishV2(), "IIISS", -2.5, "Pícek 2008 worked example, v2"},
		{en, EnglishV2(), "??", 49, "blanks carry no duplicate penalty"},
		{en, EnglishV2(), "", 0, "empty leave"},
		{en, EnglishV1(), "Q", -11.5, "Q"},
		{cs, Czech(), "ÓJ", -6, "Pícek 2008, 7.3.3.2: Ó, J"},
		{cs, Czech(), "SANČE", 4.5, "Pícek 2008, 7.3.3.2: S, A, N, Č, E"},
	}
	for _, tc := range tests {
		tb, err := Bind(tc.spec, tc.v.Alphabet)
		if err != nil {
			t.Fatal(err)
		}
		r := rack(t, tc.v, tc.rack)
		if got := tb.Eval(&r); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %s %q = %v, want %v", tc.descr, tc.spec.Name, tc.rack, got, tc.want)
		}
	}
}

// fullBag is every tile of a variant's set.
func fullBag(v *variant.Variant) []alphabet.Tile {
	var bag []alphabet.Tile
	for c, n := range v.Counts {
		for i := 0; i < n; i++ {
			bag = append(bag, alphabet.Tile(c))
		}
	}
	return bag
}

// subRackTable values a rack's sub-racks one by one and in one pass.
type subRackTable interface {
	Eval(*alphabet.Rack) float64
	EvalSubRacks(*alphabet.Rack, []float64) bool
}

// checkSubRacks compares out, tb's one-pass values of the sub-racks of r
// (indexed by their counts of r's distinct tiles in code order, the
// first the least significant digit), with Eval of each, bit for bit,
// and returns how many sub-racks r has.
func checkSubRacks(t *testing.T, a *alphabet.Alphabet, tb subRackTable, r *alphabet.Rack, out []float64) int {
	t.Helper()
	seen := 0
	r.SubRacks(func(k *alphabet.Rack) {
		at := r.SubIndex(k)
		seen++
		if got, want := out[at], tb.Eval(k); got != want {
			t.Fatalf("rack %s, sub-rack %s (index %d): EvalSubRacks %v, Eval %v", a.RackString(r), a.RackString(k), at, got, want)
		}
	})
	return seen
}

// TestTableEvalSubRacks checks the per-letter tables' one-pass values
// against Eval, bit for bit, for every sub-rack of random racks of each
// language (with and without the balance term), and that a short buffer
// or a rack of more distinct tiles than the index holds is refused.
func TestTableEvalSubRacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		variant, table string
		balance        float64
	}{
		{"english", "v1", 0}, {"english", "v2", 0}, {"english", "v2", 1.5},
		{"spanish", "default", 0}, {"czech", "default", 0}, {"czech", "default", 0.7},
	} {
		v := variant.MustLoad(tc.variant)
		tb, err := ForVariant(v, tc.table, tc.balance)
		if err != nil {
			t.Fatal(err)
		}
		bag := fullBag(v)
		var out [128]float64
		for i := 0; i < 300; i++ {
			rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
			r := alphabet.RackOf(bag[:1+rng.IntN(7)])
			if !tb.EvalSubRacks(&r, out[:]) {
				t.Fatalf("%s %s: EvalSubRacks refused %s", tc.variant, tc.table, v.Alphabet.RackString(&r))
			}
			size := checkSubRacks(t, v.Alphabet, tb, &r, out[:])
			if r.Len() == 7 && tb.EvalSubRacks(&r, out[:size-1]) {
				t.Fatalf("%s: a buffer of %d for %d sub-racks was taken", tc.variant, size-1, size)
			}
		}
	}
	en := variant.MustLoad("english")
	tb, _ := ForVariant(en, "v2", 0)
	nine := rack(t, en, "ABCDEFGHI")
	var out [512]float64
	if tb.EvalSubRacks(&nine, out[:]) {
		t.Error("a rack of 9 distinct tiles was taken")
	}
}

func TestBalance(t *testing.T) {
	en := variant.MustLoad("english")
	tb, err := ForVariant(en, "v2", 1)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := ForVariant(en, "v2", 0)
	// An all-consonant leave loses more to the balance term than a mixed
	// one of the same size.
	cons := rack(t, en, "SDKTL")
	mixed := rack(t, en, "SDKEA")
	lossCons := plain.Eval(&cons) - tb.Eval(&cons)
	lossMixed := plain.Eval(&mixed) - tb.Eval(&mixed)
	if !(lossCons > lossMixed && lossMixed >= 0) {
		t.Errorf("balance: loss SDKTL %v, SDKEA %v; want SDKTL > SDKEA ≥ 0", lossCons, lossMixed)
	}
}

func TestBindUnknownLetter(t *testing.T) {
	cs := variant.MustLoad("czech")
	if _, err := Bind(EnglishV1(), cs.Alphabet); err == nil {
		t.Error("binding the English table (with Q) to Czech should fail")
	}
}

func TestAllVariants(t *testing.T) {
	for _, n := range []string{"english", "spanish", "czech"} {
		v := variant.MustLoad(n)
		for _, name := range []string{"v1", "v2", "none"} {
			if _, err := ForVariant(v, name, 1); err != nil {
				t.Errorf("%s %s: %v", n, name, err)
			}
		}
	}
}

// TestSpanishDerived re-runs the derivation of Pícek 2008, 7.3.3.2 on the
// Spanish list and checks the stored table matches it.
func TestSpanishDerived(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the Spanish word list")
	}
	v := variant.MustLoad("spanish")
	lex, err := lexicon.Open("es-fise", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	s, fr := Derive("es", v.Alphabet, lex.Len(), lex.Word)
	want := Spanish()
	for l, x := range s.Values {
		if want.Values[l] != x {
			t.Errorf("letter %s: derived %v, stored %v", l, x, want.Values[l])
		}
	}
	if fr[0].Letter != "A" {
		t.Errorf("most frequent letter %s, want A", fr[0].Letter)
	}
}

// TestDeriveMethod checks the mapping on a tiny list: the most frequent
// letter is worth +4, an absent one −4, half as frequent 0.
func TestDeriveMethod(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "AB", "AC", "AD", "AE", "BE", "BB")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Derive("t", v.Alphabet, lex.Len(), lex.Word)
	// A in 4 words (max), B in 3 (BB counts once), E in 2, Z in none.
	for l, want := range map[string]float64{"A": 4, "B": 2, "E": 0, "Z": -4, "?": 24.5} {
		if s.Values[l] != want {
			t.Errorf("%s = %v, want %v", l, s.Values[l], want)
		}
	}
}

// TestLearnRecovers draws leaves, scores them with a known table plus
// noise, and checks that Learn finds the table again.
func TestLearnRecovers(t *testing.T) {
	v := variant.MustLoad("english")
	truth, err := Bind(EnglishV2(), v.Alphabet)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var bag []alphabet.Tile
	for tl, c := range v.Counts {
		for i := 0; i < c; i++ {
			bag = append(bag, alphabet.Tile(tl))
		}
	}
	var samples []Sample
	for i := 0; i < 40000; i++ {
		var r alphabet.Rack
		for k := rng.IntN(7); k > 0; k-- {
			r.Add(bag[rng.IntN(len(bag))])
		}
		samples = append(samples, Sample{Leave: r, Y: 20 + truth.Eval(&r) + rng.NormFloat64()*3})
	}
	got, err := Learn("test", v.Alphabet, samples, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"E", "S", "?", "Q", "V"} {
		if d := got.Values[l] - EnglishV2().Values[l]; math.Abs(d) > 1.5 {
			t.Errorf("learnt %s = %v, truth %v", l, got.Values[l], EnglishV2().Values[l])
		}
	}
	if d := got.DupBy["E"]; math.Abs(d-4) > 1.5 {
		t.Errorf("learnt duplicate penalty of E %v, truth 4", d)
	}
	// Round trip through text.
	var buf bytes.Buffer
	if err := got.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf, "back")
	if err != nil {
		t.Fatal(err)
	}
	for l, x := range got.Values {
		if back.Values[l] != x || back.DupBy[l] != got.DupBy[l] {
			t.Errorf("round trip %s: %v/%v vs %v/%v", l, back.Values[l], back.DupBy[l], x, got.DupBy[l])
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add("# t\nA\t1\t0\n?\t24.5\t0\n")
	f.Add("A\t1\n")
	f.Add("A\tx\t0\n")
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := Read(strings.NewReader(s), "f")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := spec.Write(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&buf, "f")
		if err != nil {
			t.Fatalf("written table does not read back: %v", err)
		}
		if len(again.Values) != len(spec.Values) {
			t.Fatalf("round trip lost letters")
		}
	})
}
