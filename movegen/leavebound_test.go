package movegen_test

import (
	"math"
	"slices"
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/movegen"
	"atril/movegen/internal/searchtest"
	"atril/player/leave"
	"atril/variant"
)

// TestLeaveBounds checks LeaveBounds against a brute force on a small
// word list: for racks with 0, 1 and 2 blanks, every number of tiles
// played and a few sets of board letters, the best leave among the
// sub-racks that, with the board letters, are an anagram of a word
// (blanks standing for any letter). Extent must never be below it (a
// bound that is too low drops moves) and, for this list, where the
// filter's false positives are rare, equal to it in almost every case;
// below minChecked tiles it must be Best.
func TestLeaveBounds(t *testing.T) {
	v := variant.MustLoad("english")
	a := v.Alphabet
	words := []string{"CAT", "ACT", "TACO", "COAT", "ZA", "QI", "AXE", "OXEN", "RETAINS", "STAIR", "SATIRE", "QAT", "AT", "TA", "IS", "ZAX"}
	lex, err := lexicon.FromWords(a, words...)
	if err != nil {
		t.Fatal(err)
	}
	af := movegen.LexiconAnagramFilter(lex, v.RackSize)
	// anagrams holds each word's letters, sorted.
	var anagrams [][]alphabet.Tile
	for i := 0; i < lex.Len(); i++ {
		w := slices.Clone(lex.Word(i))
		slices.Sort(w)
		anagrams = append(anagrams, w)
	}
	// makes reports whether letters plus blanks are a word's anagram.
	makes := func(letters []alphabet.Tile, blanks int) bool {
		for _, w := range anagrams {
			if len(w) != len(letters)+blanks {
				continue
			}
			var need alphabet.Rack
			for _, l := range w {
				need[l]++
			}
			short := 0
			for _, l := range letters {
				if need[l] == 0 {
					short = 99
					break
				}
				need[l]--
			}
			if short == 0 {
				return true
			}
		}
		return false
	}
	leave := searchtest.HashLeave{}
	same, cases := 0, 0
	for _, rs := range []string{"AEIRST?", "ACOTXZQ", "??ATXEN", "SATIRE"} {
		rack, err := a.ParseRack(rs)
		if err != nil {
			t.Fatal(err)
		}
		for _, board := range boardLetterSets {
			bl, hb := boardLetters(t, a, af, board)
			for _, minChecked := range []int{1, 5} {
				var lb movegen.LeaveBounds
				lb.Prepare(&rack, leave, af, minChecked)
				for k := 1; k <= rack.Len(); k++ {
					want, best := math.Inf(-1), math.Inf(-1)
					rack.SubRacks(func(kept *alphabet.Rack) {
						if rack.Len()-kept.Len() != k {
							return
						}
						lv := leave.Eval(kept)
						best = max(best, lv)
						letters := slices.Clone(bl)
						for l := 1; l < len(rack); l++ {
							for j := kept[l]; j < rack[l]; j++ {
								letters = append(letters, alphabet.Tile(l))
							}
						}
						if makes(letters, int(rack[0]-kept[0])) {
							want = max(want, lv)
						}
					})
					if got := lb.Best(k); got != best {
						t.Fatalf("rack %s: Best(%d) = %v, want %v", rs, k, got, best)
					}
					got := lb.Extent(k, len(bl), hb)
					if k < minChecked {
						if got != best {
							t.Errorf("rack %s board %q k %d (minChecked %d): Extent %v, want Best %v", rs, board, k, minChecked, got, best)
						}
						continue
					}
					if got < want {
						t.Fatalf("rack %s board %q k %d: Extent %v below the best leave that makes a word, %v", rs, board, k, got, want)
					}
					cases++
					if got == want {
						same++
					}
				}
			}
		}
	}
	if cases == 0 || same < cases*9/10 {
		t.Errorf("Extent equals the brute force in %d of %d cases: the filter should rarely say yes wrongly", same, cases)
	}
	t.Logf("%d of %d cases exact", same, cases)
}

// The exhaustive table values all of a rack's sub-racks in one pass.
var _ movegen.SubRackLeave = (*leave.Exhaustive)(nil)

// evalOnly hides a leave's EvalSubRacks, so Prepare calls Eval for each
// sub-rack.
type evalOnly struct{ movegen.Leave }

// declines is a SubRackLeave that fills out with garbage and reports
// false: Prepare must then call Eval for every sub-rack.
type declines struct{ movegen.Leave }

func (declines) EvalSubRacks(_ *alphabet.Rack, out []float64) bool {
	for i := range out {
		out[i] = math.NaN()
	}
	return false
}

// TestPrepareSubRackLeave checks that Prepare values every sub-rack the
// same whether the leave values them all at once (an exhaustive table's
// EvalSubRacks), one Eval each, or declines to value them at once after
// scribbling on the buffer: Best for each count of tiles played and
// Value of each sub-rack.
func TestPrepareSubRackLeave(t *testing.T) {
	v := variant.MustLoad("english")
	a := v.Alphabet
	lex, err := lexicon.FromWords(a, "CAT", "QI", "RETAINS")
	if err != nil {
		t.Fatal(err)
	}
	af := movegen.LexiconAnagramFilter(lex, v.RackSize)
	ix, err := leave.NewIndex(v)
	if err != nil {
		t.Fatal(err)
	}
	// Values that tell apart every two leaves whose ranks are less than
	// 65,000 apart (the table holds values within ±1023, in 1/32 point).
	vals := make([]float64, ix.Len())
	for i := range vals {
		vals[i] = float64(i%65000)/32 - 1015
	}
	tb, err := leave.NewExhaustive("ranks", v.Name, ix, vals)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"AEINRST", "??EERST", "QQUEEEE", "A", "CAT?", "ZZZZZZZ"} {
		rack, err := a.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		var bulk, each, declined movegen.LeaveBounds
		bulk.Prepare(&rack, tb, af, 1)
		each.Prepare(&rack, evalOnly{tb}, af, 1)
		declined.Prepare(&rack, declines{tb}, af, 1)
		for k := 0; k <= rack.Len(); k++ {
			if bulk.Best(k) != each.Best(k) || declined.Best(k) != each.Best(k) {
				t.Errorf("%s: Best(%d) %v with EvalSubRacks, %v declined, %v with Eval", s, k, bulk.Best(k), declined.Best(k), each.Best(k))
			}
		}
		rack.SubRacks(func(kept *alphabet.Rack) {
			want := tb.Eval(kept)
			for _, c := range []struct {
				how string
				lb  *movegen.LeaveBounds
			}{{"EvalSubRacks", &bulk}, {"Eval", &each}, {"declined", &declined}} {
				if got := c.lb.Value(kept); got != want {
					t.Errorf("%s: Value(%s) %v with %s, Eval %v", s, a.RackString(kept), got, c.how, want)
				}
			}
		})
	}
}

// TestLeaveBoundsPair checks which bounds a LeaveBoundsPair hands out:
// a rack's again while it is one of the last two prepared under a
// FixedLeave, the older one's slot for a third rack, and fresh bounds
// for a leave that is no FixedLeave.
func TestLeaveBoundsPair(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CAT", "ACT", "AT", "TA", "ZA")
	if err != nil {
		t.Fatal(err)
	}
	af := movegen.LexiconAnagramFilter(lex, v.RackSize)
	rack := func(s string) *alphabet.Rack {
		r, err := v.Alphabet.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		return &r
	}
	a, b, c := rack("CAT"), rack("ZAX"), rack("QI")
	fixed := &searchtest.FixedLeave{}
	var p movegen.LeaveBoundsPair
	la := p.Prepare(a, fixed, af, 1)
	lb := p.Prepare(b, fixed, af, 1)
	if la == lb {
		t.Fatal("two racks share one slot")
	}
	if got := p.Prepare(a, fixed, af, 1); got != la || !got.Holds(a, fixed, af, 1) {
		t.Error("the first rack's bounds were not kept beside the second's")
	}
	if got := p.Prepare(c, fixed, af, 1); got != lb {
		t.Error("a third rack did not take the older slot")
	}
	if !la.Holds(a, fixed, af, 1) || lb.Holds(b, fixed, af, 1) {
		t.Error("the slot of the rack used last was not kept")
	}
	salted := &searchtest.SaltedLeave{}
	if got := p.Prepare(a, salted, af, 1); got.Holds(a, salted, af, 1) {
		t.Error("bounds under a leave that may change are kept")
	}
}

// TestExtentAbove checks ExtentAbove against Extent on the racks and
// board letters of TestLeaveBounds: it must give Extent when that
// reaches min, and a value under min otherwise (−Inf at least once);
// without board letters, Extent. The calls for one set of letters come
// with mins in a mixed order, each answer read from the memo that the
// calls before left, as a search leaves it.
func TestExtentAbove(t *testing.T) {
	v := variant.MustLoad("english")
	a := v.Alphabet
	lex, err := lexicon.FromWords(a, "CAT", "ACT", "TACO", "COAT", "ZA", "QI", "AXE", "OXEN", "RETAINS", "STAIR", "SATIRE", "QAT", "AT", "TA", "IS", "ZAX")
	if err != nil {
		t.Fatal(err)
	}
	af := movegen.LexiconAnagramFilter(lex, v.RackSize)
	leave := searchtest.HashLeave{}
	cut := 0
	for _, rs := range []string{"AEIRST?", "ACOTXZQ", "??ATXEN", "SATIRE"} {
		rack, err := a.ParseRack(rs)
		if err != nil {
			t.Fatal(err)
		}
		var ref, lb movegen.LeaveBounds
		ref.Prepare(&rack, leave, af, 1)
		lb.Prepare(&rack, leave, af, 1)
		for _, delta := range []float64{3, -1, 0.5, 20, -30, 0, -5, 100} {
			for _, board := range boardLetterSets {
				bl, hb := boardLetters(t, a, af, board)
				for k := 1; k <= rack.Len(); k++ {
					want := ref.Extent(k, len(bl), hb)
					if math.IsInf(want, -1) {
						continue
					}
					min := want + delta
					got := lb.ExtentAbove(k, len(bl), hb, min)
					switch {
					case len(bl) == 0 || want >= min:
						if got != want {
							t.Fatalf("rack %s board %q k %d min %v: ExtentAbove %v, want %v", rs, board, k, min, got, want)
						}
					case got >= min || got != want && !math.IsInf(got, -1):
						t.Fatalf("rack %s board %q k %d min %v: ExtentAbove %v, want under min (%v or -Inf)", rs, board, k, min, got, want)
					case math.IsInf(got, -1):
						cut++
					}
				}
			}
		}
	}
	if cut == 0 {
		t.Error("no call was cut")
	}
}

// boardLetterSets are the board letters the leave-bound tests play
// through.
var boardLetterSets = []string{"", "C", "XO", "Q", "NSW"}

// boardLetters parses board letters and returns them with their hash
// for the filter (AnagramFilter.Weight summed).
func boardLetters(t *testing.T, a *alphabet.Alphabet, af *movegen.AnagramFilter, s string) ([]alphabet.Tile, uint64) {
	t.Helper()
	bl, err := a.Parse(s, alphabet.Plain)
	if err != nil {
		t.Fatal(err)
	}
	hb := uint64(0)
	for _, l := range bl {
		hb += af.Weight(l)
	}
	return bl, hb
}
