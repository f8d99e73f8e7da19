package multiset

import (
	"math/rand/v2"
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/variant"
)

type wordList [][]alphabet.Tile

func (w wordList) Len() int                   { return len(w) }
func (w wordList) Word(i int) []alphabet.Tile { return w[i] }

// sample loads every k-th word of a variant's default lexicon.
func sample(t testing.TB, name, lex string, k int) (*variant.Variant, wordList) {
	v := variant.MustLoad(name)
	l, err := lexicon.Open(lex, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	var ws wordList
	for i := 0; i < l.Len(); i += k {
		ws = append(ws, l.Word(i))
	}
	return v, ws
}

// randomSub returns a random sub-multiset of a random word: a feasible
// multiset.
func randomSub(r *rand.Rand, ws wordList) alphabet.Rack {
	w := ws[r.IntN(len(ws))]
	var c alphabet.Rack
	for _, x := range w {
		if r.IntN(3) != 0 {
			c[x]++
		}
	}
	return c
}

// excesses returns the distinct non-empty exceedances of the words.
func excesses(ws wordList) []alphabet.Rack {
	seen := map[alphabet.Rack]bool{}
	var out []alphabet.Rack
	for _, w := range ws {
		c := countsOf(w)
		x := excess(&c)
		if x.Len() > 0 && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// feasibleExcess is the slow reference: is e a sub-multiset of the
// exceedance of some word?
func feasibleExcess(e *alphabet.Rack, exs []alphabet.Rack) bool {
	if e.Len() == 0 {
		return true
	}
	for i := range exs {
		if subsetOf(e, &exs[i]) {
			return true
		}
	}
	return false
}

func TestPERAgreesWithCounts(t *testing.T) {
	for _, tc := range []struct{ variant, lex string }{
		{"english", "en-sowpods"}, {"spanish", "es-fise"}, {"czech", "cs-hunspell-2to9"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			if testing.Short() && tc.variant != "english" {
				t.Skip("-short: English only (loading the Spanish and Czech lists takes seconds)")
			}
			v, ws := sample(t, tc.variant, tc.lex, 97)
			tab, err := Build(v.Alphabet.Size(), ws)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d words: %d exceedances, %d triads (%d unrestricted), %d carry masks, id bits %d",
				len(ws), tab.Exceedances(), tab.Triads(), tab.AllTriads, tab.CarryMasks(), tab.IDBits())
			r := rand.New(rand.NewPCG(1, 2))
			exs := excesses(ws)
			sums, infeasible, subsets := 0, 0, 0
			for i := 0; i < 2000; i++ {
				a, b := randomSub(r, ws), randomSub(r, ws)
				pa, pb := tab.FromCounts(&a), tab.FromCounts(&b)
				if pa == Invalid || pb == Invalid {
					t.Fatalf("feasible multiset %s has no PER", v.Alphabet.RackString(&a))
				}
				if got := tab.Counts(pa); got != a {
					t.Fatalf("decode %s = %s", v.Alphabet.RackString(&a), v.Alphabet.RackString(&got))
				}
				if tab.Size(pa) != a.Len() {
					t.Fatalf("size of %s: %d", v.Alphabet.RackString(&a), tab.Size(pa))
				}
				s := sum(&a, &b)
				ex := excess(&s)
				want := feasibleExcess(&ex, exs)
				got := tab.Sum(pa, pb)
				if want != (got != Invalid) {
					t.Fatalf("%s ⊎ %s: PER sum valid=%v, reference %v", v.Alphabet.RackString(&a), v.Alphabet.RackString(&b), got != Invalid, want)
				}
				if got != Invalid {
					sums++
					if dec := tab.Counts(got); dec != s {
						t.Fatalf("%s ⊎ %s = %s, PER gives %s", v.Alphabet.RackString(&a), v.Alphabet.RackString(&b), v.Alphabet.RackString(&s), v.Alphabet.RackString(&dec))
					}
					if got != tab.FromCounts(&s) {
						t.Fatal("sum differs from the PER built letter by letter")
					}
					// a and b are subsets of their sum; the sum is a subset
					// of neither unless the other is empty.
					if !tab.Subset(pa, got) || !tab.Subset(pb, got) {
						t.Fatalf("summand not a subset of %s", v.Alphabet.RackString(&s))
					}
				} else {
					infeasible++
				}
				if tab.Subset(pb, pa) != subsetOf(&b, &a) {
					t.Fatalf("Subset(%s, %s) = %v", v.Alphabet.RackString(&b), v.Alphabet.RackString(&a), tab.Subset(pb, pa))
				}
				// A sub-multiset of a: must test as a subset.
				var c alphabet.Rack
				for l, k := range a {
					if k > 0 {
						c[l] = uint8(r.IntN(int(k) + 1))
					}
				}
				pc := tab.FromCounts(&c)
				if !tab.Subset(pc, pa) {
					t.Fatalf("%s ⊆ %s not seen", v.Alphabet.RackString(&c), v.Alphabet.RackString(&a))
				}
				if tab.Subset(pa, pc) != (a == c) {
					t.Fatalf("%s ⊆ %s wrong", v.Alphabet.RackString(&a), v.Alphabet.RackString(&c))
				}
				if c != a {
					subsets++
				}
			}
			if sums == 0 || infeasible == 0 || subsets == 0 {
				t.Errorf("weak test: %d feasible sums, %d infeasible, %d proper subsets", sums, infeasible, subsets)
			}
		})
	}
}

// The worked examples of Sánchez Bello 2025 Tables 3.2, 3.3 and 3.10 (Spanish).
func TestThesisExamples(t *testing.T) {
	v := variant.MustLoad("spanish")
	a := v.Alphabet
	words := []string{"CASA", "SCRABBLE", "PALANGANA", "MULTICONJUNTO", "ACABADO", "AACSABBCELRS"}
	var ws wordList
	for _, w := range words {
		ts, err := a.Parse(w, alphabet.Plain)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, ts)
	}
	tab, err := Build(a.Size(), ws)
	if err != nil {
		t.Fatal(err)
	}
	per := func(s string) PER {
		ts, _ := a.Parse(s, alphabet.Plain)
		return tab.Of(ts)
	}
	tests := []struct{ m, parity, excess string }{
		{"AACS", "CS", "A"},
		{"ABBCELR", "ACELR", "B"},
		{"AAAALNNPG", "LPG", "AAN"},
		{"CIJLMNNOOTTUU", "CIJLM", "NOTU"},
	}
	for _, tc := range tests {
		p := per(tc.m)
		if p == Invalid {
			t.Errorf("%s: invalid", tc.m)
			continue
		}
		c := tab.Counts(p)
		par, exc := parity(&c), excess(&c)
		wp, _ := a.Parse(tc.parity, alphabet.Plain)
		we, _ := a.Parse(tc.excess, alphabet.Plain)
		if par != countsOf(wp) || exc != countsOf(we) {
			t.Errorf("%s: parity %s excess %s, want %s %s", tc.m, a.RackString(&par), a.RackString(&exc), tc.parity, tc.excess)
		}
	}
	// Table 3.10: AACS ⊎ ABBCELRS = AAABBCCCELRSS with carry CS.
	s := tab.Sum(per("AACS"), per("ABBCELRS"))
	if s != per("AAABBCCELRSS") {
		got := tab.Counts(s)
		t.Errorf("AACS ⊎ ABBCELRS = %s", a.RackString(&got))
	}
	if tab.Sum(per("PALANGANA"), per("PALANGANA")) != Invalid {
		t.Error("PALANGANA twice should not be feasible")
	}
}

func BenchmarkPER(b *testing.B) {
	v, ws := sample(b, "english", "en-sowpods", 1)
	tab, err := Build(v.Alphabet.Size(), ws)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var ps [1024]PER
	var cs [1024]alphabet.Rack
	for i := range ps {
		cs[i] = randomSub(r, ws)
		ps[i] = tab.FromCounts(&cs[i])
	}
	b.Run("Sum", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.Sum(ps[i&1023], ps[(i*7)&1023])
		}
	})
	b.Run("Subset", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.Subset(ps[i&1023], ps[(i*7)&1023])
		}
	})
	var ws2 [1024]Wide
	for i := range ps {
		ws2[i] = tab.Widen(ps[i])
	}
	b.Run("WideSum", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.SumWide(ws2[i&1023], ws2[(i*7)&1023])
		}
	})
	b.Run("WideSubset", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tab.SubsetWide(ws2[i&1023], ws2[(i*7)&1023])
		}
	})
	b.Run("CountsSubset", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			subsetOf(&cs[i&1023], &cs[(i*7)&1023])
		}
	})
}

// wideWords returns words over a 60-letter alphabet, each drawn from a
// few letters so that letters repeat: their exceedances need more id
// bits than the 4 a 64-bit PER would leave.
func wideWords(r *rand.Rand) wordList {
	var ws wordList
	for i := 0; i < 400; i++ {
		var pool [5]alphabet.Tile
		for j := range pool {
			pool[j] = alphabet.Tile(1 + r.IntN(60))
		}
		w := make([]alphabet.Tile, 3+r.IntN(8))
		for j := range w {
			w[j] = pool[r.IntN(len(pool))]
		}
		ws = append(ws, w)
	}
	return ws
}

func TestWide(t *testing.T) {
	t.Run("english", func(t *testing.T) {
		// On a table that fits 64 bits the wide operations give what
		// the 64-bit ones give.
		_, ws := sample(t, "english", "en-sowpods", 97)
		tab, err := Build(26, ws)
		if err != nil {
			t.Fatal(err)
		}
		if !tab.Fits64() {
			t.Fatal("English does not fit 64 bits")
		}
		r := rand.New(rand.NewPCG(3, 4))
		for i := 0; i < 2000; i++ {
			a, b := randomSub(r, ws), randomSub(r, ws)
			pa, pb := tab.FromCounts(&a), tab.FromCounts(&b)
			wa, wb := tab.Widen(pa), tab.Widen(pb)
			if wa != tab.WideFromCounts(&a) {
				t.Fatalf("Widen %v, WideFromCounts %v", wa, tab.WideFromCounts(&a))
			}
			if got, want := tab.SumWide(wa, wb), tab.Widen(tab.Sum(pa, pb)); got != want {
				t.Fatalf("SumWide %v, Sum %v", got, want)
			}
			if tab.SubsetWide(wb, wa) != tab.Subset(pb, pa) {
				t.Fatal("SubsetWide differs from Subset")
			}
		}
	})
	t.Run("60 letters", func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		ws := wideWords(r)
		tab, err := Build(60, ws)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Fits64() || tab.IDBits() != 32 {
			t.Fatalf("%d exceedances over 60 letters: Fits64 %v, id bits %d", tab.Exceedances(), tab.Fits64(), tab.IDBits())
		}
		exs := excesses(ws)
		sums, infeasible, subsets := 0, 0, 0
		for i := 0; i < 3000; i++ {
			a, b := randomSub(r, ws), randomSub(r, ws)
			pa, pb := tab.WideFromCounts(&a), tab.WideFromCounts(&b)
			if pa == InvalidWide || pb == InvalidWide {
				t.Fatalf("feasible multiset %v has no wide PER", a)
			}
			if tab.CountsWide(pa) != a || tab.SizeWide(pa) != a.Len() {
				t.Fatalf("decode %v: %v", a, tab.CountsWide(pa))
			}
			s := sum(&a, &b)
			ex := excess(&s)
			got := tab.SumWide(pa, pb)
			if feasibleExcess(&ex, exs) != (got != InvalidWide) {
				t.Fatalf("%v ⊎ %v: wide sum valid=%v", a, b, got != InvalidWide)
			}
			if got != InvalidWide {
				sums++
				if tab.CountsWide(got) != s || got != tab.WideFromCounts(&s) {
					t.Fatalf("%v ⊎ %v: wide sum decodes to %v", a, b, tab.CountsWide(got))
				}
				if !tab.SubsetWide(pa, got) || !tab.SubsetWide(pb, got) {
					t.Fatal("summand not a subset of the sum")
				}
			} else {
				infeasible++
			}
			if tab.SubsetWide(pb, pa) != subsetOf(&b, &a) {
				t.Fatalf("SubsetWide(%v, %v) = %v", b, a, tab.SubsetWide(pb, pa))
			}
			var c alphabet.Rack
			for l, k := range a {
				if k > 0 {
					c[l] = uint8(r.IntN(int(k) + 1))
				}
			}
			if pc := tab.WideFromCounts(&c); !tab.SubsetWide(pc, pa) || tab.SubsetWide(pa, pc) != (a == c) {
				t.Fatalf("%v against its sub-multiset %v", a, c)
			} else if c != a {
				subsets++
			}
		}
		if sums == 0 || infeasible == 0 || subsets == 0 {
			t.Errorf("weak test: %d feasible sums, %d infeasible, %d proper subsets", sums, infeasible, subsets)
		}
	})
}

// countsOf is the multiset of tiles as a count vector; designated blanks
// count as their letters.
func countsOf(ts []alphabet.Tile) alphabet.Rack {
	var c alphabet.Rack
	for _, t := range ts {
		c[t.Letter()]++
	}
	return c
}

// sum is the multisum a ⊎ b of count vectors.
func sum(a, b *alphabet.Rack) alphabet.Rack {
	var s alphabet.Rack
	for i := range s {
		s[i] = a[i] + b[i]
	}
	return s
}

// subsetOf reports whether a ⊆ b.
func subsetOf(a, b *alphabet.Rack) bool { return b.Contains(a) }

// parity is the multiset of the letters of odd multiplicity.
func parity(c *alphabet.Rack) alphabet.Rack {
	var p alphabet.Rack
	for i, k := range c {
		p[i] = k & 1
	}
	return p
}

// excess is the exceedance: ⌊multiplicity/2⌋ of every letter.
func excess(c *alphabet.Rack) alphabet.Rack {
	var e alphabet.Rack
	for i, k := range c {
		e[i] = k / 2
	}
	return e
}

// TestBuildAdd checks that the add-only tables (BuildAdd, and
// FromExceedances of its Packed exceedances) give every sub-multiset of
// the sample's words the PER the full table gives, and that bad
// exceedance lists are refused.
func TestBuildAdd(t *testing.T) {
	v, ws := sample(t, "english", "en-sowpods", 97)
	L := v.Alphabet.Size()
	full, err := Build(L, ws)
	if err != nil {
		t.Fatal(err)
	}
	add, err := BuildAdd(L, ws)
	if err != nil {
		t.Fatal(err)
	}
	again, err := FromExceedances(L, append([]uint64(nil), add.Packed()...))
	if err != nil {
		t.Fatal(err)
	}
	if add.Triads() != 0 || add.Bytes() >= full.Bytes() {
		t.Errorf("add-only table: %d triads, %d bytes (full %d)", add.Triads(), add.Bytes(), full.Bytes())
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		c := randomSub(r, ws)
		want := full.FromCounts(&c)
		for _, tab := range []*Table{add, again} {
			if got := tab.FromCounts(&c); got != want {
				t.Fatalf("%s: add-only PER %x, full %x", v.Alphabet.RackString(&c), got, want)
			}
		}
		if got := add.Counts(want); got != c {
			t.Fatalf("%s decodes to %s", v.Alphabet.RackString(&c), v.Alphabet.RackString(&got))
		}
	}
	for _, tc := range []struct {
		name string
		exc  []uint64
	}{
		{"empty list", nil},
		{"first not empty", []uint64{1, 0}},
		{"letter out of the alphabet", []uint64{0, 63}},
	} {
		if _, err := FromExceedances(L, tc.exc); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
