package leave

import (
	"testing"

	"atril/alphabet"
	"atril/variant"
)

// evalFunc is an Evaluator made of a function.
type evalFunc func(*alphabet.Rack) float64

func (f evalFunc) Eval(r *alphabet.Rack) float64 { return f(r) }

// TestExplain checks Explain against sub-leaves listed by hand: a rack
// of seven (no value of its own) and a leave of three, on a table that
// values each letter by its code squared (A 1, B 4, ...) and a blank at
// 500, so that no two sub-leaves tie.
func TestExplain(t *testing.T) {
	en := variant.MustLoad("english")
	a := en.Alphabet
	val := evalFunc(func(r *alphabet.Rack) float64 {
		v := 0.0
		for tl, c := range r {
			w := float64(tl * tl)
			if alphabet.Tile(tl) == alphabet.Blank {
				w = 500
			}
			v += w * float64(c)
		}
		return v
	})
	text := func(vs []Valued) string {
		s := ""
		for _, x := range vs {
			s += a.RackString(&x.Leave) + " "
		}
		return s
	}
	for _, tc := range []struct {
		rack              string
		isLeave           bool
		value             float64
		best, worst, kept string
	}{
		{"ABCDEFG", false, 0, "BCDEFG ACDEFG CDEFG ", "A B AB ", "G FG EFG DEFG CDEFG BCDEFG "},
		{"QU?", true, 17*17 + 21*21 + 500, "U? Q? QU ", "Q U ? ", "? U? "},
	} {
		r := rack(t, en, tc.rack)
		ex := Explain(val, r, en.RackSize-1, 3)
		if ex.IsLeave != tc.isLeave || ex.Value != tc.value {
			t.Errorf("%s: leave %v value %.1f, want %v %.1f", tc.rack, ex.IsLeave, ex.Value, tc.isLeave, tc.value)
		}
		if got := text(ex.Best); got != tc.best {
			t.Errorf("%s: best %q, want %q", tc.rack, got, tc.best)
		}
		if got := text(ex.Worst); got != tc.worst {
			t.Errorf("%s: worst %q, want %q", tc.rack, got, tc.worst)
		}
		if got := text(ex.BestByKept); got != tc.kept {
			t.Errorf("%s: best by tiles kept %q, want %q", tc.rack, got, tc.kept)
		}
	}
}
