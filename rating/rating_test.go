package rating

import (
	"math"
	"testing"
)

func near(x, want, tol float64) bool { return math.Abs(x-want) <= tol }

// TestPaperExample checks the worked example of Glickman's paper.
func TestPaperExample(t *testing.T) {
	p := Rating{1500, 200, 0.06}
	results := []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	}
	got, err := Update(p, results, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if !near(got.R, 1464.06, 0.01) || !near(got.RD, 151.52, 0.01) || !near(got.Vol, 0.05999, 0.00001) {
		t.Errorf("Update = %+v, want about {1464.06 151.52 0.05999}", got)
	}
	// A tau of 0 means the default, which is the paper's 0.5.
	if def, _ := Update(p, results, 0); def != got {
		t.Errorf("Update with tau 0 = %+v, want %+v", def, got)
	}
}

func TestOutcomes(t *testing.T) {
	base := Rating{1600, 120, 0.06}
	tests := []struct {
		name     string
		opponent Rating
		score    float64
		dir      int // sign of the change of R
	}{
		{"win against equal", base, 1, 1},
		{"loss against equal", base, 0, -1},
		{"draw against equal", base, 0.5, 0},
		{"win against weaker", Rating{1300, 80, 0.06}, 1, 1},
		{"loss against stronger", Rating{1900, 200, 0.06}, 0, -1},
		{"draw against stronger", Rating{1900, 60, 0.06}, 0.5, 1},
	}
	for _, tc := range tests {
		got, err := Update(base, []Result{{tc.opponent, tc.score}}, DefaultTau)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d := got.R - base.R
		switch {
		case tc.dir > 0 && !(d > 0), tc.dir < 0 && !(d < 0), tc.dir == 0 && !near(d, 0, 1e-9):
			t.Errorf("%s: R %v -> %v, want change of sign %d", tc.name, base.R, got.R, tc.dir)
		}
		if !(got.RD < base.RD) {
			t.Errorf("%s: RD %v -> %v, want lower", tc.name, base.RD, got.RD)
		}
	}
}

func TestGame(t *testing.T) {
	tests := []struct {
		a, b Rating
	}{
		{New(), New()},
		{Rating{1700, 50, 0.06}, Rating{1450, 90, 0.05}},
		{Rating{1200, 300, 0.07}, Rating{2100, 40, 0.06}},
	}
	for _, tc := range tests {
		for _, s := range []float64{0, 0.5, 1} {
			a1, b1, err := Game(tc.a, tc.b, s)
			if err != nil {
				t.Fatal(err)
			}
			b2, a2, err := Game(tc.b, tc.a, 1-s)
			if err != nil {
				t.Fatal(err)
			}
			if a1 != a2 || b1 != b2 {
				t.Errorf("Game(%v, %v, %v) = %v, %v; swapped gives %v, %v", tc.a, tc.b, s, a1, b1, a2, b2)
			}
			want, _ := Update(tc.a, []Result{{tc.b, s}}, DefaultTau)
			if a1 != want {
				t.Errorf("Game(%v, %v, %v) gives a %v, Update gives %v", tc.a, tc.b, s, a1, want)
			}
		}
	}
}

// TestZeroSum checks that between players of equal RD (and volatility) what
// one gains the other loses.
func TestZeroSum(t *testing.T) {
	for _, ra := range []float64{1200, 1500, 1800} {
		for _, s := range []float64{0, 0.5, 1} {
			a, b := Rating{ra, 80, 0.06}, Rating{1550, 80, 0.06}
			na, nb, err := Game(a, b, s)
			if err != nil {
				t.Fatal(err)
			}
			if sum := (na.R - a.R) + (nb.R - b.R); !near(sum, 0, 1e-9) {
				t.Errorf("R %v vs %v, score %v: changes %v and %v sum to %v", ra, b.R, s, na.R-a.R, nb.R-b.R, sum)
			}
			if na.RD != nb.RD {
				t.Errorf("R %v vs %v, score %v: new RDs %v and %v differ", ra, b.R, s, na.RD, nb.RD)
			}
		}
	}
}

func TestExpected(t *testing.T) {
	ratings := []Rating{New(), {1000, 80, 0.06}, {1500, 80, 0.06}, {2200, 80, 0.06}}
	for _, a := range ratings {
		if e := Expected(a, a); !near(e, 0.5, 1e-12) {
			t.Errorf("Expected(%v, itself) = %v, want 0.5", a, e)
		}
		for _, b := range ratings {
			if a.RD == b.RD {
				if s := Expected(a, b) + Expected(b, a); !near(s, 1, 1e-12) {
					t.Errorf("Expected(%v, %v) + Expected(%v, %v) = %v, want 1", a, b, b, a, s)
				}
			}
		}
	}
	b := Rating{1500, 100, 0.06}
	prev := 0.0
	for r := 500.0; r <= 2500; r += 50 {
		e := Expected(Rating{r, 100, 0.06}, b)
		if !(e > prev && e < 1) {
			t.Fatalf("Expected at R %v = %v, previous %v: not increasing in (0, 1)", r, e, prev)
		}
		prev = e
	}
	// A more uncertain opponent pulls the expectation towards 0.5.
	strong := Rating{1800, 50, 0.06}
	if sure, unsure := Expected(strong, Rating{1500, 50, 0.06}), Expected(strong, Rating{1500, 300, 0.06}); !(unsure < sure) {
		t.Errorf("Expected against sure opponent %v, unsure %v: want unsure lower", sure, unsure)
	}
}

func TestNoResults(t *testing.T) {
	p := Rating{1720, 100, 0.06}
	got, err := Update(p, nil, DefaultTau)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Sqrt(100*100 + (scale*0.06)*(scale*0.06))
	if got.R != p.R || got.Vol != p.Vol || !near(got.RD, want, 1e-9) {
		t.Errorf("Update with no results = %+v, want {1720 %v 0.06}", got, want)
	}
	if idle := Idle(p, 1); idle != got {
		t.Errorf("Idle(p, 1) = %+v, want %+v", idle, got)
	}
	if got, _ := Update(Rating{1500, 349.9, 0.06}, nil, 0); got.RD != MaxRD {
		t.Errorf("Update with no results from RD 349.9 gives RD %v, want %v", got.RD, MaxRD)
	}
}

func TestIdle(t *testing.T) {
	p := Rating{1800, 60, 0.06}
	tests := []struct {
		t    float64
		want float64
	}{
		{-1, 60},
		{0, 60},
		{math.NaN(), 60},
		{0.25, math.Sqrt(60*60 + 0.25*(scale*0.06)*(scale*0.06))},
		{4, math.Sqrt(60*60 + 4*(scale*0.06)*(scale*0.06))},
		{10000, MaxRD},
		{math.Inf(1), MaxRD},
	}
	for _, tc := range tests {
		got := Idle(p, tc.t)
		if !near(got.RD, tc.want, 1e-9) || got.R != p.R || got.Vol != p.Vol {
			t.Errorf("Idle(%v, %v) = %+v, want RD %v", p, tc.t, got, tc.want)
		}
	}
	if a, b := Idle(p, 1), Idle(p, 2); !(a.RD < b.RD) {
		t.Errorf("Idle RD after 1 period %v, after 2 %v: want growth", a.RD, b.RD)
	}
}

// TestMinRD plays 3000 games, 30 per rating period, against a sure
// opponent: without the floor the deviation would settle below MinRD.
func TestMinRD(t *testing.T) {
	p := New()
	opp := Rating{1500, 30, 0.06}
	results := make([]Result, 30)
	for i := range results {
		results[i] = Result{opp, float64(i % 2)}
	}
	for i := 0; i < 100; i++ {
		var err error
		p, err = Update(p, results, DefaultTau)
		if err != nil {
			t.Fatal(err)
		}
		if p.RD < MinRD {
			t.Fatalf("after %d periods RD = %v, below %v", i+1, p.RD, MinRD)
		}
	}
	if p.RD != MinRD {
		t.Errorf("after 100 periods RD = %v, want the floor %v", p.RD, MinRD)
	}
}

func TestConservative(t *testing.T) {
	if c := (Rating{1800, 60, 0.06}).Conservative(); c != 1680 {
		t.Errorf("Conservative = %v, want 1680", c)
	}
	if c := New().Conservative(); c != 800 {
		t.Errorf("Conservative of a newcomer = %v, want 800", c)
	}
}

func TestErrors(t *testing.T) {
	good := New()
	tests := []struct {
		name string
		p    Rating
		res  []Result
		tau  float64
	}{
		{"score 1.5", good, []Result{{good, 1.5}}, 0},
		{"score -0.5", good, []Result{{good, -0.5}}, 0},
		{"NaN score", good, []Result{{good, math.NaN()}}, 0},
		{"NaN R", Rating{math.NaN(), 100, 0.06}, nil, 0},
		{"infinite R of opponent", good, []Result{{Rating{math.Inf(1), 100, 0.06}, 1}}, 0},
		{"RD 0", Rating{1500, 0, 0.06}, []Result{{good, 1}}, 0},
		{"RD 0 of opponent", good, []Result{{Rating{1500, 0, 0.06}, 1}}, 0},
		{"negative vol", Rating{1500, 100, -0.06}, []Result{{good, 1}}, 0},
		{"negative vol, no results", Rating{1500, 100, -0.06}, nil, 0},
		{"NaN tau", good, []Result{{good, 1}}, math.NaN()},
		{"infinite tau", good, []Result{{good, 1}}, math.Inf(1)},
	}
	for _, tc := range tests {
		if got, err := Update(tc.p, tc.res, tc.tau); err == nil {
			t.Errorf("%s: Update = %+v, want an error", tc.name, got)
		}
	}
	if _, _, err := Game(good, good, 2); err == nil {
		t.Error("Game with score 2: want an error")
	}
}

// into maps any float to [lo, hi].
func into(x, lo, hi float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return lo
	}
	return lo + math.Mod(math.Abs(x), hi-lo)
}

func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 1550.0, 100.0, uint8(3), 0.5)
	f.Add(0.0, 1.0, 1.0, 4000.0, 1.0, 4000.0, 500.0, uint8(5), 0.0)
	f.Add(4000.0, 500.0, 1e-300, 0.0, 500.0, 0.0, 1.0, uint8(0), 1.0)
	f.Fuzz(func(t *testing.T, r, rd, vol, r1, rd1, r2, rd2 float64, scores uint8, tau float64) {
		p := Rating{into(r, 0, 4000), into(rd, 1, 500), into(vol, 0, 1)}
		if p.Vol == 0 {
			p.Vol = 1
		}
		score := []float64{0, 0.5, 1}
		results := []Result{
			{Rating{into(r1, 0, 4000), into(rd1, 1, 500), 0.06}, score[scores%3]},
			{Rating{into(r2, 0, 4000), into(rd2, 1, 500), 0.06}, score[scores/3%3]},
		}[:scores/9%3]
		tau = into(tau, 0, 2)
		got, err := Update(p, results, tau)
		if err != nil {
			return
		}
		for _, x := range []float64{got.R, got.RD, got.Vol} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("Update(%+v, %+v, %v) = %+v: not finite", p, results, tau, got)
			}
		}
		if got.RD < MinRD || got.RD > MaxRD || !(got.Vol > 0) {
			t.Fatalf("Update(%+v, %+v, %v) = %+v: RD or Vol out of range", p, results, tau, got)
		}
	})
}

// TestProvisional checks when a newcomer's rating stops being
// provisional: games one at a time against established players (RD 50),
// won and lost in turn, bring its RD under ProvisionalRD after 8 to 12
// games, as the constant's comment says ("about ten").
func TestProvisional(t *testing.T) {
	p := New()
	if !p.Provisional() {
		t.Fatal("a newcomer's rating is not provisional")
	}
	opp := Rating{1500, 50, DefaultVol}
	games := 0
	for p.Provisional() {
		var err error
		if p, err = Update(p, []Result{{opp, float64(games % 2)}}, DefaultTau); err != nil {
			t.Fatal(err)
		}
		games++
		if games > 50 {
			t.Fatalf("still provisional after %d games: RD %.1f", games, p.RD)
		}
	}
	if games < 8 || games > 12 {
		t.Errorf("provisional for %d games (RD now %.1f), want about ten", games, p.RD)
	}
	if (Rating{1500, ProvisionalRD, DefaultVol}).Provisional() || !(Rating{1500, ProvisionalRD + 0.5, DefaultVol}).Provisional() {
		t.Error("the bound is not RD > ProvisionalRD")
	}
}
