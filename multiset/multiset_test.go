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
func randomSub(r *rand.Rand, ws wordList) Counts {
	w := ws[r.IntN(len(ws))]
	var c Counts
	for _, x := range w {
		if r.IntN(3) != 0 {
			c[x]++
		}
	}
	return c
}

// excesses returns the distinct non-empty exceedances of the words.
func excesses(ws wordList) []Counts {
	seen := map[Counts]bool{}
	var out []Counts
	for _, w := range ws {
		c := Of(w)
		x := c.Excess()
		if x.Size() > 0 && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// feasibleExcess is the slow reference: is e a sub-multiset of the
// exceedance of some word?
func feasibleExcess(e *Counts, exs []Counts) bool {
	if e.Size() == 0 {
		return true
	}
	for i := range exs {
		if e.SubsetOf(&exs[i]) {
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
					t.Fatalf("feasible multiset %s has no PER", a.String(v.Alphabet))
				}
				if got := tab.Counts(pa); got != a {
					t.Fatalf("decode %s = %s", a.String(v.Alphabet), got.String(v.Alphabet))
				}
				if tab.Size(pa) != a.Size() {
					t.Fatalf("size of %s: %d", a.String(v.Alphabet), tab.Size(pa))
				}
				s := Sum(&a, &b)
				ex := s.Excess()
				want := feasibleExcess(&ex, exs)
				got := tab.Sum(pa, pb)
				if want != (got != Invalid) {
					t.Fatalf("%s ⊎ %s: PER sum valid=%v, reference %v", a.String(v.Alphabet), b.String(v.Alphabet), got != Invalid, want)
				}
				if got != Invalid {
					sums++
					if dec := tab.Counts(got); dec != s {
						t.Fatalf("%s ⊎ %s = %s, PER gives %s", a.String(v.Alphabet), b.String(v.Alphabet), s.String(v.Alphabet), dec.String(v.Alphabet))
					}
					if got != tab.FromCounts(&s) {
						t.Fatal("sum differs from the PER built letter by letter")
					}
					// a and b are subsets of their sum; the sum is a subset
					// of neither unless the other is empty.
					if !tab.Subset(pa, got) || !tab.Subset(pb, got) {
						t.Fatalf("summand not a subset of %s", s.String(v.Alphabet))
					}
				} else {
					infeasible++
				}
				if tab.Subset(pb, pa) != b.SubsetOf(&a) {
					t.Fatalf("Subset(%s, %s) = %v", b.String(v.Alphabet), a.String(v.Alphabet), tab.Subset(pb, pa))
				}
				// A sub-multiset of a: must test as a subset.
				var c Counts
				for l, k := range a {
					if k > 0 {
						c[l] = uint8(r.IntN(int(k) + 1))
					}
				}
				pc := tab.FromCounts(&c)
				if !tab.Subset(pc, pa) {
					t.Fatalf("%s ⊆ %s not seen", c.String(v.Alphabet), a.String(v.Alphabet))
				}
				if tab.Subset(pa, pc) != (a == c) {
					t.Fatalf("%s ⊆ %s wrong", a.String(v.Alphabet), c.String(v.Alphabet))
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

// The worked examples of seed 000 Tables 3.2, 3.3 and 3.10 (Spanish).
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
		par, exc := c.Parity(), c.Excess()
		wp, _ := a.Parse(tc.parity, alphabet.Plain)
		we, _ := a.Parse(tc.excess, alphabet.Plain)
		if par != Of(wp) || exc != Of(we) {
			t.Errorf("%s: parity %s excess %s, want %s %s", tc.m, par.String(a), exc.String(a), tc.parity, tc.excess)
		}
	}
	// Table 3.10: AACS ⊎ ABBCELRS = AAABBCCCELRSS with carry CS.
	s := tab.Sum(per("AACS"), per("ABBCELRS"))
	if s != per("AAABBCCELRSS") {
		got := tab.Counts(s)
		t.Errorf("AACS ⊎ ABBCELRS = %s", got.String(a))
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
	var cs [1024]Counts
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
	b.Run("CountsSubset", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cs[i&1023].SubsetOf(&cs[(i*7)&1023])
		}
	})
}
