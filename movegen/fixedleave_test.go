package movegen_test

import (
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/movegen"
	"atril/movegen/internal/searchtest"
)

// TestFixedLeaveReuse checks a searcher that keeps a FixedLeave's values
// from one search to the next of the same rack: on the positions of
// greedy games, each rack searched on its board, again on the next
// board, then another rack, then the first again, the top 5 are those
// of a fresh searcher. A leave that is not a FixedLeave and changes
// between two searches of the same rack on the same board is valued
// anew.
func TestFixedLeaveReuse(t *testing.T) {
	ps, g := bestPositions(t)
	fixed := &searchtest.FixedLeave{}
	salted := &searchtest.SaltedLeave{}
	s := g.Fork().(*movegen.Gaddag)
	same := func(what string, b *board.Board, rack *alphabet.Rack, got, want []movegen.Scored) {
		t.Helper()
		if err := searchtest.SameList(b, got, want); err != nil {
			t.Fatalf("%s, rack %s: %v", what, b.Variant.Alphabet.RackString(rack), err)
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
			got := searchtest.CloneAll(s.TopN(st.b, &st.rack, fixed, 5, nil))
			want := g.Fork().(movegen.Searcher).TopN(st.b, &st.rack, fixed, 5, nil)
			same("fixed leave", st.b, &st.rack, got, want)
			checked++
		}
		p := &ps[i+1]
		for _, salt := range []float64{0, 9} {
			salted.Salt = salt
			got := searchtest.CloneAll(s.TopN(p.b, &p.rack, salted, 5, nil))
			want := g.Fork().(movegen.Searcher).TopN(p.b, &p.rack, salted, 5, nil)
			same("salted leave", p.b, &p.rack, got, want)
		}
	}
	if checked < 200 {
		t.Fatalf("%d searches checked", checked)
	}
}
