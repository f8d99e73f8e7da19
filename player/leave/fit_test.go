package leave

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"atril/alphabet"
	"atril/variant"
)

// twoLetters is a tile set of A and B, three copies each, rack of 3:
// leaves of up to 2 tiles.
func twoLetters(t *testing.T) *Index {
	t.Helper()
	ix, err := newIndex([]string{"?", "A", "B"}, []int{0, 3, 3}, 2)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func rankOf(t *testing.T, ix *Index, a, b int) uint32 {
	t.Helper()
	var r alphabet.Rack
	r[1], r[2] = uint8(a), uint8(b)
	i, ok := ix.Rank(&r)
	if !ok {
		t.Fatalf("no rank for A×%d B×%d", a, b)
	}
	return uint32(i)
}

func repeat(o Obs, n int) []Obs {
	out := make([]Obs, n)
	for i := range out {
		out[i] = o
	}
	return out
}

// TestFitByHand checks Fit on observations whose values can be worked
// out by hand: with the regression switched off (a huge ridge term) and
// no shrinkage, a seen leave is worth its mean next-turn points minus
// the mean after keeping nothing, and an unseen leave the mean of its
// sub-leaves one tile smaller; shrinkage k moves a leave seen n times
// n/(n+k) of the way from its sub-leaves to its own mean; the next
// leave's value is added to the points.
func TestFitByHand(t *testing.T) {
	ix := twoLetters(t)
	empty, a, b := rankOf(t, ix, 0, 0), rankOf(t, ix, 1, 0), rankOf(t, ix, 0, 1)
	base := repeat(Obs{Leave: empty, Next: NoNext, Points: 10}, 40)
	obs := append(append(append([]Obs{}, base...),
		repeat(Obs{Leave: a, Next: NoNext, Points: 15}, 100)...),
		repeat(Obs{Leave: b, Next: NoNext, Points: 7}, 100)...)
	off := FitOptions{Ridge: 1e12, Shrink: 1e-9}
	boot := make([]float64, ix.Len())
	boot[b] = 4
	bootT, _ := NewExhaustive("boot", "two", ix, boot)
	withNext := append(append([]Obs{}, base...), repeat(Obs{Leave: a, Next: b, Points: 15}, 100)...)
	for _, tc := range []struct {
		name string
		obs  []Obs
		boot *Exhaustive
		opt  FitOptions
		want map[[2]int]float64
	}{
		{"means and back-off", obs, nil, off, map[[2]int]float64{
			{1, 0}: 5, {0, 1}: -3, {1, 1}: 1, {2, 0}: 5, {0, 2}: -3}},
		{"shrinkage k=100, n=100", obs, nil, FitOptions{Ridge: 1e12, Shrink: 100}, map[[2]int]float64{
			{1, 0}: 2.5, {0, 1}: -1.5, {1, 1}: 0.5}},
		{"next leave's value added", withNext, bootT, off, map[[2]int]float64{
			{1, 0}: 9, {2, 0}: 9, {0, 1}: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, rep, err := Fit("hand", "two", ix, tc.obs, tc.boot, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Baseline != 10 {
				t.Errorf("baseline %v, want 10", rep.Baseline)
			}
			for k, want := range tc.want {
				if got := tb.Value(int(rankOf(t, ix, k[0], k[1]))); math.Abs(got-want) > 0.05 {
					t.Errorf("A×%d B×%d: %v, want %v", k[0], k[1], got, want)
				}
			}
		})
	}
}

// TestFitRegressionGeneralises checks the feature layer on English:
// next-turn points follow an additive rule (the v2 value of each tile)
// plus noise, observed on random leaves; leaves never observed must get
// close to the rule's value through the regression.
func TestFitRegressionGeneralises(t *testing.T) {
	v := variant.MustLoad("english")
	ix, _ := NewIndex(v)
	spec := EnglishV2()
	spec.Dup = 0
	truth, err := Bind(spec, v.Alphabet)
	if err != nil {
		t.Fatal(err)
	}
	bag := fullBag(v)
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[uint32]bool{}
	var obs []Obs
	for i := 0; i < 60000; i++ {
		rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
		r := alphabet.RackOf(bag[:rng.IntN(7)])
		k, _ := ix.Rank(&r)
		y := 30 + truth.Eval(&r) + rng.NormFloat64()*10
		obs = append(obs, Obs{Leave: uint32(k), Next: NoNext, Points: int16(math.Round(y))})
		seen[uint32(k)] = true
	}
	tb, _, err := Fit("additive", "english", ix, obs, nil, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	n := 0
	for i := 0; i < 2000; i++ {
		rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
		r := alphabet.RackOf(bag[:1+rng.IntN(6)])
		k, _ := ix.Rank(&r)
		if seen[uint32(k)] {
			continue
		}
		sum += math.Abs(tb.Value(k) - truth.Eval(&r))
		n++
	}
	if n < 500 {
		t.Fatalf("only %d unseen leaves sampled", n)
	}
	mae := sum / float64(n)
	t.Logf("%d unseen leaves: mean absolute error %.2f", n, mae)
	if mae > 1.5 {
		t.Errorf("unseen leaves: mean absolute error %.2f points against the rule, want at most 1.5", mae)
	}
}

func TestFitRefusesBadInput(t *testing.T) {
	ix := twoLetters(t)
	if _, _, err := Fit("x", "two", ix, nil, nil, FitOptions{}); err == nil {
		t.Error("no observations accepted")
	}
	if _, _, err := Fit("x", "two", ix, []Obs{{Leave: 999, Next: NoNext}}, nil, FitOptions{}); err == nil {
		t.Error("rank outside the table accepted")
	}
}

// TestFitWholeRacks checks that a whole-rack observation counts as one
// observation of every sub-multiset of its rack short of the whole that
// holds its Held leave (every one, the empty one included, when Held is
// the empty leave): Fit on random whole racks gives the same table and
// report as Fit on the same observations written out leave by leave. A
// whole rack whose tile is outside the tile set, or whose held leave is
// not on it, is refused.
func TestFitWholeRacks(t *testing.T) {
	for _, held := range []bool{false, true} {
		t.Run(fmt.Sprintf("held=%v", held), func(t *testing.T) { fitWholeRacks(t, held) })
	}
}

func fitWholeRacks(t *testing.T, withHeld bool) {
	ix := twoLetters(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var whole, spelt []Obs
	for i := 0; i < 400; i++ {
		var rack alphabet.Rack // three tiles of A and B
		a := rng.IntN(4)
		rack[1], rack[2] = uint8(a), uint8(3-a)
		last := 2
		if rack[2] == 0 {
			last = 1
		}
		rest := rack
		rest[last]--
		r, ok := ix.Rank(&rest)
		if !ok {
			t.Fatal("no rank")
		}
		next := NoNext
		if rng.IntN(2) == 0 {
			next = uint32(1 + rng.IntN(ix.Len()-1))
		}
		var held alphabet.Rack // a random part of the rack, short of it
		if withHeld {
			held[1] = uint8(rng.IntN(int(rack[1]) + 1))
			held[2] = uint8(rng.IntN(int(rack[2]) + 1))
			if held.Len() == 3 {
				held = alphabet.Rack{}
			}
		}
		h, ok := ix.Rank(&held)
		if !ok {
			t.Fatal("no rank for the held leave")
		}
		pts := int16(rng.IntN(40))
		whole = append(whole, Obs{Leave: uint32(r), Next: next, Points: pts, Whole: uint8(last + 1), Held: uint32(h)})
		rack.SubRacks(func(sub *alphabet.Rack) {
			if sub.Len() == 3 || sub[1] < held[1] || sub[2] < held[2] {
				return
			}
			s, ok := ix.Rank(sub)
			if !ok {
				t.Fatal("no rank for a sub-rack")
			}
			spelt = append(spelt, Obs{Leave: uint32(s), Next: next, Points: pts})
		})
	}
	boot := make([]float64, ix.Len())
	for i := 1; i < len(boot); i++ {
		boot[i] = float64(rng.IntN(9)) - 4
	}
	bt, err := NewExhaustive("boot", "two", ix, boot)
	if err != nil {
		t.Fatal(err)
	}
	a, ra, err := Fit("w", "two", ix, whole, bt, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, rb, err := Fit("s", "two", ix, spelt, bt, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ra.Samples != len(spelt) || ra.Samples != rb.Samples || ra.Seen != rb.Seen ||
		math.Abs(ra.Baseline-rb.Baseline) > 1e-9 || math.Abs(ra.Sigma-rb.Sigma) > 1e-6 {
		t.Errorf("reports differ: whole %+v, spelt out %+v", ra, rb)
	}
	for r := 1; r < ix.Len(); r++ {
		if math.Abs(a.Value(r)-b.Value(r)) > 1.0/Scale {
			rack := ix.Unrank(r)
			t.Errorf("%s: %.3f from whole racks, %.3f spelt out", ix.String(&rack), a.Value(r), b.Value(r))
		}
	}
	bad := append([]Obs(nil), whole...)
	bad[7].Whole = 9
	if _, _, err := Fit("bad", "two", ix, bad, bt, FitOptions{}); err == nil {
		t.Error("a whole rack with a tile outside the tile set was accepted")
	}
	var aa alphabet.Rack
	aa[1] = 2
	h, ok := ix.Rank(&aa)
	if !ok {
		t.Fatal("no rank for AA")
	}
	notOn := append([]Obs(nil), whole...)
	for i := range notOn {
		rack := ix.Unrank(int(notOn[i].Leave))
		rack[notOn[i].Whole-1]++
		if rack[1] < 2 {
			notOn[i].Held = uint32(h)
			break
		}
	}
	if _, _, err := Fit("bad", "two", ix, notOn, bt, FitOptions{}); err == nil {
		t.Error("a whole rack not holding its held leave was accepted")
	}
}
