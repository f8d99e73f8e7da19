package movegen_test

import (
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/movegen"
)

// fixedLeave is hashLeave declared unchanging (movegen.FixedLeave).
type fixedLeave struct{ hashLeave }

func (*fixedLeave) FixedLeave() {}

// saltedLeave is a leave whose values change when its salt does; it is
// not a FixedLeave, so searches must not keep its values.
type saltedLeave struct{ salt float64 }

func (l *saltedLeave) Eval(kept *alphabet.Rack) float64 {
	return hashLeave{}.Eval(kept) + l.salt*float64(kept[1]+kept[5])
}

// TestFixedLeaveReuse checks a searcher that keeps a FixedLeave's values
// from one search to the next of the same rack: on the positions of
// greedy games, each rack searched on its board, again on the next
// board, then another rack, then the first again, the top 5 are those
// of a fresh searcher. A leave that is not a FixedLeave and changes
// between two searches of the same rack on the same board is valued
// anew.
func TestFixedLeaveReuse(t *testing.T) {
	ps, g := bestPositions(t)
	fixed := &fixedLeave{}
	salted := &saltedLeave{}
	s := g.Fork().(*movegen.Gaddag)
	same := func(what string, b *board.Board, rack *alphabet.Rack, got, want []movegen.Scored) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s, rack %s: %d moves, want %d", what, b.Variant.Alphabet.RackString(rack), len(got), len(want))
		}
		for k := range got {
			if got[k].Equity != want[k].Equity || !sameMove(&got[k].Move, &want[k].Move) {
				t.Fatalf("%s, rack %s, move %d: %s (%v), want %s (%v)", what, b.Variant.Alphabet.RackString(rack), k,
					got[k].Move.String(b), got[k].Equity, want[k].Move.String(b), want[k].Equity)
			}
		}
	}
	checked := 0
	for i := 0; i+1 < len(ps); i += 3 {
		if ps[i].b.IsEmpty() || ps[i+1].b.IsEmpty() {
			continue
		}
		steps := []struct {
			b    *board.Board
			rack alphabet.Rack
		}{{ps[i].b, ps[i].rack}, {ps[i+1].b, ps[i].rack}, {ps[i+1].b, ps[i+1].rack}, {ps[i+1].b, ps[i].rack}}
		for _, st := range steps {
			got := cloneAll(s.TopN(st.b, &st.rack, fixed, 5, nil))
			want := g.Fork().(movegen.Searcher).TopN(st.b, &st.rack, fixed, 5, nil)
			same("fixed leave", st.b, &st.rack, got, want)
			checked++
		}
		p := &ps[i+1]
		for _, salt := range []float64{0, 9} {
			salted.salt = salt
			got := cloneAll(s.TopN(p.b, &p.rack, salted, 5, nil))
			want := g.Fork().(movegen.Searcher).TopN(p.b, &p.rack, salted, 5, nil)
			same("salted leave", p.b, &p.rack, got, want)
		}
	}
	if checked < 200 {
		t.Fatalf("%d searches checked", checked)
	}
}
