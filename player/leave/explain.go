package leave

import (
	"sort"

	"atril/alphabet"
)

// Valued is a leave with its value in a table.
type Valued struct {
	Leave alphabet.Rack
	Value float64
}

// Explanation is what a table says of a rack: its value as a leave (when
// it is one), its best and worst sub-leaves, and its best sub-leave for
// each number of tiles kept.
type Explanation struct {
	// IsLeave is set when the rack is short enough to be a leave; Value
	// is then its value.
	IsLeave bool
	Value   float64
	// Best and Worst are its sub-leaves (every multiset of 1 to
	// maxLeave of its tiles but the rack itself), best first and worst
	// first, at most top of each.
	Best, Worst []Valued
	// BestByKept holds, at index n−1, the best sub-leave of n tiles.
	BestByKept []Valued
}

// Explain values rack and its sub-leaves of up to maxLeave tiles (the
// rack's size less one) in t.
func Explain(t Evaluator, rack alphabet.Rack, maxLeave, top int) Explanation {
	var ex Explanation
	n := rack.Len()
	if n <= maxLeave {
		ex.IsLeave, ex.Value = true, t.Eval(&rack)
	}
	var subs []Valued
	rack.SubRacks(func(k *alphabet.Rack) {
		if m := k.Len(); m > 0 && m < n && m <= maxLeave {
			subs = append(subs, Valued{*k, t.Eval(k)})
		}
	})
	sort.SliceStable(subs, func(i, j int) bool { return subs[i].Value > subs[j].Value })
	k := min(top, len(subs))
	ex.Best = subs[:k:k]
	for i := len(subs) - 1; i >= len(subs)-k; i-- {
		ex.Worst = append(ex.Worst, subs[i])
	}
	for _, s := range subs {
		m := s.Leave.Len()
		for len(ex.BestByKept) < m {
			ex.BestByKept = append(ex.BestByKept, Valued{})
		}
		if b := ex.BestByKept[m-1]; b.Leave.Len() == 0 || s.Value > b.Value {
			ex.BestByKept[m-1] = s
		}
	}
	return ex
}
