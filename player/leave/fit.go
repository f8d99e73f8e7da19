package leave

import (
	"fmt"
	"math"
	"sort"

	"atril/alphabet"
)

// Obs is one observation from self-play: a player kept a leave (after a
// placement or an exchange, with the bag still able to refill the rack),
// and on its next turn scored Points and kept the leave Next.
//
// An observation with Whole set is instead of a turn played from a full
// rack: the rack is the leave ranked Leave plus the tile Whole−1, Points
// are the turn's and Next ranks the leave the turn kept. Fit credits
// every sub-multiset of the rack short of the whole that holds the
// leave ranked Held (the tiles the rack held before its last draw; 0,
// the empty leave, credits every sub-multiset, the empty one included)
// with the turn's worth.
type Obs struct {
	Leave uint32 // rank of the leave kept (see Index)
	// Next is the rank of the leave kept after the next turn, or NoNext
	// when that leave went into the endgame (the bag could not refill it).
	Next   uint32
	Held   uint32
	Points int16
	Whole  uint8
}

// NoNext marks an observation whose next leave is not valued.
const NoNext = ^uint32(0)

// FitOptions tune Fit; the zero value picks the defaults.
type FitOptions struct {
	// Ridge is the ridge term of the regression, in observations (0: 10).
	Ridge float64
	// Shrink fixes the shrinkage constant (in observations); 0 estimates
	// one per leave size from the data.
	Shrink float64
	// MinEmpty is the least number of empty-leave observations for their
	// mean to be the baseline (0: 30); with fewer the mean of all
	// observations is used.
	MinEmpty int
}

// FitReport describes a fit.
type FitReport struct {
	Samples  int     // observations used
	Seen     int     // distinct non-empty leaves among them
	Baseline float64 // mean target after keeping nothing
	Sigma    float64 // within-leave standard deviation of the target
	// Shrink[k] is the shrinkage constant used for leaves of k tiles.
	Shrink   []float64
	Features int // regression features
}

// Fit estimates the value of every leave from self-play observations.
//
// The target of an observation is what the next turn was worth: its
// points plus the value, in the table boot, of the leave it kept (a
// temporal-difference target, so a leave that sets up a later bingo is
// credited). A leave's value is how much more that is, on average, than
// after keeping nothing (the baseline: the observations of the empty
// leave, i.e. bingos and whole-rack exchanges).
//
// Most of the million-odd leaves are seen rarely or never, so the values
// are built in two layers. First, a ridge regression of each leave's mean
// target on features of its tiles (at least k copies of each tile, both
// tiles of every pair present, the numbers of vowels and consonants;
// see featurizer) gives a smooth prior f. Second, a residual r is added:
// in rank order, so sub-leaves come first, each leave's residual starts
// from the mean residual of its sub-leaves one tile smaller (back-off:
// EIRST inherits what EIRS, EIST, ... showed beyond their features), and
// moves towards the leave's own mean residual by n/(n+k) for n
// observations, k being the ratio of the noise variance to the variance
// of true residuals of that size (empirical Bayes). The value is f + r;
// the empty leave is 0.
func Fit(name, variantName string, ix *Index, obs []Obs, boot *Exhaustive, o FitOptions) (*Exhaustive, FitReport, error) {
	rep := FitReport{Samples: len(obs)}
	if len(obs) == 0 {
		return nil, rep, fmt.Errorf("fit %s: no observations", name)
	}
	if boot != nil && boot.idx.Len() != ix.Len() {
		return nil, rep, fmt.Errorf("fit %s: bootstrap table is for another tile set", name)
	}
	ridge := o.Ridge
	if ridge == 0 {
		ridge = 10
	}
	minEmpty := o.MinEmpty
	if minEmpty == 0 {
		minEmpty = 30
	}
	target := func(b *Obs) float64 {
		y := float64(b.Points)
		if b.Next != NoNext && boot != nil {
			y += boot.Value(int(b.Next))
		}
		return y
	}
	n := ix.Len()
	sum := make([]float64, n)
	sq := make([]float64, n)
	cnt := make([]uint32, n)
	total := 0.0
	samples := 0
	credit := func(r int, y float64) {
		sum[r] += y
		sq[r] += y * y
		cnt[r]++
		total += y
		samples++
	}
	for i := range obs {
		b := &obs[i]
		if int(b.Leave) >= n || (b.Next != NoNext && int(b.Next) >= n) {
			return nil, rep, fmt.Errorf("fit %s: observation %d has a rank outside the table", name, i)
		}
		y := target(b)
		if b.Whole == 0 {
			credit(int(b.Leave), y)
			continue
		}
		rack := ix.Unrank(int(b.Leave))
		t := int(b.Whole) - 1
		if t >= ix.types {
			return nil, rep, fmt.Errorf("fit %s: observation %d has a tile outside the tile set", name, i)
		}
		rack[t]++
		full := rack.Len()
		if int(b.Held) >= n {
			return nil, rep, fmt.Errorf("fit %s: observation %d has a held leave outside the table", name, i)
		}
		held := ix.Unrank(int(b.Held))
		if !rack.Contains(&held) {
			return nil, rep, fmt.Errorf("fit %s: observation %d holds tiles its rack does not", name, i)
		}
		drawn := rack
		for l, c := range held {
			drawn[l] -= c
		}
		drawn.SubRacks(func(sub *alphabet.Rack) {
			l := *sub
			for x, c := range held {
				l[x] += c
			}
			if l.Len() == full {
				return
			}
			if r, ok := ix.Rank(&l); ok {
				credit(r, y)
			}
		})
	}
	rep.Samples = samples
	base := total / float64(samples)
	if cnt[0] >= uint32(minEmpty) {
		base = sum[0] / float64(cnt[0])
	}
	rep.Baseline = base
	var within float64
	for r, c := range cnt {
		if c > 0 {
			within += max(sq[r]-sum[r]*sum[r]/float64(c), 0)
		}
	}
	var seen []int
	for r, c := range cnt {
		if c > 0 {
			seen = append(seen, r)
		}
	}
	rep.Seen = len(seen)
	if cnt[0] > 0 {
		rep.Seen-- // the empty leave is not a table entry
	}
	sigma2 := 1.0
	if samples > len(seen) {
		sigma2 = math.Max(within/float64(samples-len(seen)), 1e-6)
	}
	rep.Sigma = math.Sqrt(sigma2)

	// The smooth prior: ridge regression on tile features.
	fx := newFeaturizer(ix)
	rep.Features = fx.dim
	dim := fx.dim
	A := make([][]float64, dim)
	for i := range A {
		A[i] = make([]float64, dim+1)
	}
	var idx []int
	var val []float64
	for _, r := range seen {
		rack := ix.Unrank(r)
		if r == 0 {
			continue
		}
		idx, val = fx.features(&rack, idx[:0], val[:0])
		w := float64(cnt[r])
		y := sum[r]/w - base
		for a, i := range idx {
			row := A[i]
			for b, j := range idx {
				row[j] += w * val[a] * val[b]
			}
			row[dim] += w * val[a] * y
		}
	}
	for i := 0; i < dim; i++ {
		A[i][i] += ridge
	}
	beta, err := solve(A)
	if err != nil {
		return nil, rep, fmt.Errorf("fit %s: regression: %w", name, err)
	}
	prior := func(r *alphabet.Rack) float64 {
		idx, val = fx.features(r, idx[:0], val[:0])
		s := 0.0
		for a, i := range idx {
			s += beta[i] * val[a]
		}
		return s
	}

	// Shrinkage constants per leave size: k = σ² / τ², where τ² is the
	// variance of the residuals about the prior of leaves seen at least
	// 10 times, less their sampling noise.
	rep.Shrink = make([]float64, ix.max+1)
	num := make([]float64, ix.max+1)
	den := make([]float64, ix.max+1)
	for _, r := range seen {
		if cnt[r] < 10 || r == 0 {
			continue
		}
		rack := ix.Unrank(r)
		d := sum[r]/float64(cnt[r]) - base - prior(&rack)
		k := rack.Len()
		num[k] += d*d - sigma2/float64(cnt[r])
		den[k]++
	}
	for k := 1; k <= ix.max; k++ {
		switch {
		case o.Shrink > 0:
			rep.Shrink[k] = o.Shrink
		case den[k] > 0:
			tau2 := math.Max(num[k]/den[k], 0.25)
			rep.Shrink[k] = sigma2 / tau2
		default:
			rep.Shrink[k] = sigma2 / 0.25
		}
	}

	// Residuals with back-off, in rank order (sub-leaves first).
	res := make([]float32, n)
	vals := make([]float64, n)
	ix.Each(func(rank int, r *alphabet.Rack) {
		if rank == 0 {
			return
		}
		f := prior(r)
		back, parts := 0.0, 0
		size := 0
		for t := 0; t < ix.types; t++ {
			if r[t] == 0 {
				continue
			}
			size += int(r[t])
			r[t]--
			if sub, ok := ix.Rank(r); ok && sub != 0 {
				back += float64(res[sub])
				parts++
			}
			r[t]++
		}
		if parts > 0 {
			back /= float64(parts)
		}
		rr := back
		if c := cnt[rank]; c > 0 {
			m := sum[rank]/float64(c) - base - f
			rr = back + float64(c)/(float64(c)+rep.Shrink[size])*(m-back)
		}
		res[rank] = float32(rr)
		vals[rank] = f + rr
	})
	t, err := NewExhaustive(name, variantName, ix, vals)
	if err != nil {
		return nil, rep, err
	}
	return t, rep, nil
}

// featurizer lists the regression features of a leave: for each tile
// and each k up to the tile's cap, whether the leave holds at least k
// copies; for every pair of distinct tiles, whether it holds both; and
// one indicator per (vowels, consonants) combination. Every feature is
// 0 or 1, so the prior of a leave unlike any seen (six I's) extrapolates
// flatly instead of growing with the square of a count.
type featurizer struct {
	T, max  int
	vowel   []bool
	countAt []int // countAt[t]: index of "at least 1 copy of t"
	pairOff []int // pairOff[a]+b: index of pair (a, b), a < b
	vcOff   int
	dim     int
}

func newFeaturizer(ix *Index) *featurizer {
	T := ix.types
	fx := &featurizer{T: T, max: ix.max, vowel: make([]bool, T), countAt: make([]int, T), pairOff: make([]int, T)}
	off := 0
	for t := 0; t < T; t++ {
		if t > 0 {
			fx.vowel[t] = IsVowel(ix.letters[t])
		}
		fx.countAt[t] = off
		off += int(ix.caps[t])
	}
	for a := 0; a < T; a++ {
		fx.pairOff[a] = off - a - 1
		off += T - a - 1
	}
	fx.vcOff = off
	fx.dim = off + (ix.max+1)*(ix.max+1)
	return fx
}

func (fx *featurizer) features(r *alphabet.Rack, idx []int, val []float64) ([]int, []float64) {
	var ts [16]int
	nt := 0
	nv, nc := 0, 0
	for t := 0; t < fx.T; t++ {
		c := int(r[t])
		if c == 0 {
			continue
		}
		if nt < len(ts) {
			ts[nt] = t
			nt++
		}
		for k := 0; k < c; k++ {
			idx = append(idx, fx.countAt[t]+k)
			val = append(val, 1)
		}
		if t > 0 {
			if fx.vowel[t] {
				nv += c
			} else {
				nc += c
			}
		}
	}
	for i := 0; i < nt; i++ {
		for j := i + 1; j < nt; j++ {
			idx = append(idx, fx.pairOff[ts[i]]+ts[j])
			val = append(val, 1)
		}
	}
	if nv+nc > 0 {
		idx = append(idx, fx.vcOff+nv*(fx.max+1)+nc)
		val = append(val, 1)
	}
	return idx, val
}

// Ranked is a leave with its value, for reports.
type Ranked struct {
	Leave string
	Value float64
	Rank  int
}

// Extremes returns the k best and the k worst leaves of a table, among
// the leaves for which keep(rank) is true (all when keep is nil).
func (t *Exhaustive) Extremes(k int, keep func(rank int) bool) (best, worst []Ranked) {
	var all []Ranked
	for r := 1; r < len(t.vals); r++ {
		if keep == nil || keep(r) {
			all = append(all, Ranked{Value: t.Value(r), Rank: r})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Value > all[j].Value })
	k = min(k, len(all))
	best = append(best, all[:k]...)
	for i := len(all) - 1; i >= len(all)-k; i-- {
		worst = append(worst, all[i])
	}
	for _, l := range [][]Ranked{best, worst} {
		for i := range l {
			rack := t.idx.Unrank(l[i].Rank)
			l[i].Leave = t.idx.String(&rack)
		}
	}
	return best, worst
}

// MeanAbsDiff is the mean absolute difference between two tables of the
// same tile set over all non-empty leaves, and, when weight is given,
// weighted by weight(rank).
func MeanAbsDiff(a, b *Exhaustive, weight func(rank int) float64) (plain, weighted float64) {
	var s, ws, w float64
	for r := 1; r < len(a.vals); r++ {
		d := math.Abs(a.Value(r) - b.Value(r))
		s += d
		if weight != nil {
			x := weight(r)
			ws += x * d
			w += x
		}
	}
	plain = s / float64(len(a.vals)-1)
	if w > 0 {
		weighted = ws / w
	}
	return plain, weighted
}
