package movegen

import (
	"math"

	"atril/alphabet"
)

// LeaveBounds bounds the leave of a placement by the number of tiles it
// plays, for a best-by-equity search: Best(k) is the best value of the
// tiles kept after playing any k of the rack's tiles, and Alone and
// Through tighten it to the k tiles that, by themselves or with the
// board letters of a word, may make a word (asking an AnagramFilter).
// The GADDAG's shadow search and the interval methods' search both bound
// their extents with it.
type LeaveBounds struct {
	// leaveOf[i] is the value of keeping sub-rack i (mixed-radix index
	// over the rack's distinct tiles); bestLeave[k] the best value of
	// keeping any sub-rack after playing k tiles.
	leaveOf   [128]float64
	bestLeave [alphabet.MaxLetters + 1]float64
	// lessBlanks[k] is the best value of keeping fewer blanks than the
	// rack holds after playing k tiles (−Inf when no such sub-rack).
	lessBlanks [alphabet.MaxLetters + 1]float64
	letters    [8]uint8 // distinct tile codes of the rack
	radix      [8]int   // place value of each in the index
	nLetters   int      // −1: too many to tabulate
	full       int      // the index of the whole rack
	leave      Leave
	// alone[k] is the best leave after playing k tiles that may form a
	// word by themselves (−Inf: none can), for extents that cover no
	// board tile.
	alone     [alphabet.MaxLetters + 1]float64
	aloneDone uint64 // bit k: alone[k] worked out
	// minChecked is the fewest tiles played for which af is asked.
	minChecked int
	// subs[k] lists the sub-racks of k tiles (k ≥ minChecked), best
	// leave first once sorted (bit k of sorted); memo caches FirstFit.
	subs   [alphabet.MaxLetters + 1][]subRack
	sorted uint64
	memo   [512]memoEntry
	gen    uint32 // memo entries of this rack carry gen
	af     *AnagramFilter
	hr     uint64 // additive hash of the rack's letters
	// prepared: the bounds are those of rack under a FixedLeave (or none).
	prepared bool
	rack     alphabet.Rack
}

// SubRackLeave is a Leave that can value all the sub-racks of a rack in
// one pass, cheaper than one Eval each (an exhaustive table sums its rank
// terms along the way).
type SubRackLeave interface {
	Leave
	// EvalSubRacks sets out[i] to the value of keeping sub-rack i of
	// rack: i is the mixed-radix number whose digits are the counts kept
	// of the rack's distinct tiles in code order (the blank first), the
	// first digit the least significant; out holds ∏(count+1) entries,
	// one per sub-rack. It reports false, leaving out unspecified,
	// when it cannot; the caller then calls Eval for each.
	EvalSubRacks(rack *alphabet.Rack, out []float64) bool
}

// EachSubRack calls f with every sub-rack of rack, the whole rack and
// the empty one included, and the value of keeping it under leave (0
// when leave is nil), in the index order of SubRackLeave. The values come
// from one EvalSubRacks pass when leave can give them, else from one Eval
// each. kept is reused between calls.
func EachSubRack(rack *alphabet.Rack, leave Leave, f func(kept *alphabet.Rack, value float64)) {
	var letters [alphabet.MaxLetters + 1]uint8
	nl, size := 0, 1
	for l, c := range rack {
		if c > 0 {
			letters[nl] = uint8(l)
			nl++
			size *= int(c) + 1
		}
	}
	var buf [256]float64
	bulk := false
	if sl, ok := leave.(SubRackLeave); ok && size <= len(buf) {
		bulk = sl.EvalSubRacks(rack, buf[:size])
	}
	var kr alphabet.Rack
	for i := 0; i < size; i++ {
		if i > 0 {
			for _, l := range letters[:nl] {
				if kr[l] < rack[l] {
					kr[l]++
					break
				}
				kr[l] = 0
			}
		}
		var v float64
		switch {
		case bulk:
			v = buf[i]
		case leave != nil:
			v = leave.Eval(&kr)
		}
		f(&kr, v)
	}
}

// Best is the best value of the tiles kept after playing k tiles (−Inf
// when the rack has fewer than k, +Inf when it has more tiles than are
// tabulated).
func (t *LeaveBounds) Best(k int) float64 { return t.bestLeave[k] }

// Extent is the leave bound of a word of nb board letters (of hash hb)
// and k tiles played: Alone(k) when nb is 0, Through(k, hb, nb) when k
// is large enough for the filter to be asked, Best(k) otherwise.
func (t *LeaveBounds) Extent(k, nb int, hb uint64) float64 {
	switch {
	case nb == 0:
		return t.Alone(k)
	case k >= t.minChecked && t.nLetters >= 0:
		return t.Through(k, hb, nb)
	}
	return t.bestLeave[k]
}

// ExtentAbove is Extent for a caller that needs no value under min: it
// asks the filter only about the sub-racks that keep at least min. When
// Extent is at least min it returns Extent; otherwise a value under min
// (Extent when already known, else −Inf): a slot bounded by it is then
// below the caller's threshold, whatever the other sub-racks keep. The
// answers are cached as FirstFit's are; a later call with a lower min
// asks only the sub-racks the calls before did not.
func (t *LeaveBounds) ExtentAbove(k, nb int, hb uint64, min float64) float64 {
	switch {
	case nb == 0:
		return t.Alone(k)
	case k >= t.minChecked && t.nLetters >= 0:
		if i := t.firstFit(k, hb, nb, min); i >= 0 {
			return t.subs[k][i].leave
		}
		return math.Inf(-1)
	}
	return t.bestLeave[k]
}

// Prepare sets up the bounds of a rack: the value of keeping each of its
// sub-racks under leave (nil: none), and the sub-racks af is asked
// about: those of minChecked tiles or more (fewer are not checked: Alone
// and Through then give Best). When the rack, a FixedLeave (or nil) and
// the rest are those of the last call, what it worked out then stands,
// the filter's remembered answers included.
func (t *LeaveBounds) Prepare(rack *alphabet.Rack, leave Leave, af *AnagramFilter, minChecked int) {
	_, fixed := leave.(FixedLeave)
	fixed = fixed || leave == nil
	if t.Holds(rack, leave, af, minChecked) {
		return
	}
	t.prepared, t.rack = fixed, *rack
	t.leave = leave
	t.minChecked = max(minChecked, 1)
	t.af = af
	total := rack.Len()
	for k := range t.bestLeave {
		t.bestLeave[k] = math.Inf(-1)
		t.lessBlanks[k] = math.Inf(-1)
	}
	t.aloneDone = 0
	t.hr = 0
	for l := 1; l < len(rack); l++ {
		t.hr += uint64(rack[l]) * af.weights[l]
	}
	for k := range t.subs {
		t.subs[k] = t.subs[k][:0]
	}
	t.gen++
	if t.gen == 0 {
		t.memo = [512]memoEntry{}
		t.gen = 1
	}
	t.nLetters = 0
	size := 1
	for l, c := range rack {
		if c == 0 {
			continue
		}
		if t.nLetters == len(t.letters) || size*(int(c)+1) > len(t.leaveOf) {
			// More than 7 tiles: not tabulated, and no bound.
			t.nLetters = -1
			for k := range t.bestLeave {
				t.bestLeave[k] = math.Inf(1)
				t.lessBlanks[k] = math.Inf(1)
			}
			return
		}
		t.letters[t.nLetters] = uint8(l)
		t.radix[t.nLetters] = size
		size *= int(c) + 1
		t.nLetters++
	}
	t.full = size - 1
	bulk := false
	if sl, ok := leave.(SubRackLeave); ok {
		bulk = sl.EvalSubRacks(rack, t.leaveOf[:size])
	}
	// Walk the sub-racks in index order as an odometer over the
	// distinct letters' counts: kr is the sub-rack kept, n its size and
	// hp the hash of the real letters played.
	var kr alphabet.Rack
	n, hp := 0, t.hr
	for i := 0; i < size; i++ {
		if i > 0 {
			for j := 0; j < t.nLetters; j++ {
				l := t.letters[j]
				w := uint64(0)
				if l != 0 {
					w = af.weights[l]
				}
				if kr[l] < rack[l] {
					kr[l]++
					n++
					hp -= w
					break
				}
				n -= int(kr[l])
				hp += uint64(kr[l]) * w
				kr[l] = 0
			}
		}
		var v float64
		switch {
		case bulk:
			v = t.leaveOf[i]
		case leave != nil:
			v = leave.Eval(&kr)
		}
		t.leaveOf[i] = v
		k := total - n
		if v > t.bestLeave[k] {
			t.bestLeave[k] = v
		}
		if kr[0] < rack[0] && v > t.lessBlanks[k] {
			t.lessBlanks[k] = v
		}
		bp := int(rack[0] - kr[0])
		if k >= t.minChecked {
			t.subs[k] = append(t.subs[k], subRack{h: hp, blanks: int8(bp), leave: v})
		}
	}
	t.sorted = 0
}

// subsOf returns the sub-racks of k tiles, best leave first (sorted on
// first use: most searches ask about few k).
func (t *LeaveBounds) subsOf(k int) []subRack {
	if t.sorted&(1<<k) == 0 {
		t.sorted |= 1 << k
		// An insertion sort: a rack has few sub-racks of one size (35
		// at most with seven tiles), where it beats a general sort.
		s := t.subs[k]
		for i := 1; i < len(s); i++ {
			x := s[i]
			j := i
			for j > 0 && s[j-1].leave < x.leave {
				s[j] = s[j-1]
				j--
			}
			s[j] = x
		}
	}
	return t.subs[k]
}

// Alone is the best leave after playing k tiles that may form a word
// by themselves (−Inf: none can). Worked out on first use, since it asks
// the anagram filter.
func (t *LeaveBounds) Alone(k int) float64 {
	if k < t.minChecked || t.nLetters < 0 {
		return t.bestLeave[k]
	}
	if t.aloneDone&(1<<k) == 0 {
		t.aloneDone |= 1 << k
		t.alone[k] = t.Through(k, 0, 0) // no board letters
	}
	return t.alone[k]
}

// subRack is a sub-rack that may be played: the hash of its letters, its
// blanks, and the value of the tiles it keeps.
type subRack struct {
	h      uint64
	blanks int8
	leave  float64
}

// Through is the best leave after playing k tiles that, with board
// letters of hash hb (nb of them: see AnagramFilter.Weight), may make a word; −Inf when none can.
func (t *LeaveBounds) Through(k int, hb uint64, nb int) float64 {
	if i := t.FirstFit(k, hb, nb); i >= 0 {
		return t.subs[k][i].leave
	}
	return math.Inf(-1)
}

// FirstFit is the first sub-rack of k tiles, in the order of SubRack
// (best kept value first), that with board letters of hash hb (nb of
// them) may make a word, or −1 when none may. The answers are cached
// per board letters and k.
func (t *LeaveBounds) FirstFit(k int, hb uint64, nb int) int {
	return t.firstFit(k, hb, nb, math.Inf(-1))
}

// firstFit is FirstFit among the sub-racks that keep at least min (−1:
// none of them fits). The memo remembers how far the sub-racks were
// asked, so a later call for the same letters goes on from there.
func (t *LeaveBounds) firstFit(k int, hb uint64, nb int, min float64) int {
	key := hb*31 + uint64(k)
	slot := &t.memo[key%uint64(len(t.memo))]
	subs := t.subsOf(k)
	from := 0
	if slot.gen == t.gen && slot.key == key {
		if slot.i >= 0 || int(slot.next) == len(subs) {
			return int(slot.i)
		}
		from = int(slot.next)
	} else {
		*slot = memoEntry{key: key, i: -1, gen: t.gen}
	}
	for j := from; j < len(subs); j++ {
		p := &subs[j]
		if p.leave < min {
			slot.next = int16(j)
			return -1
		}
		if t.af.has(p.h+hb, int(p.blanks), k+nb) {
			slot.i, slot.next = int16(j), int16(j+1)
			return j
		}
	}
	slot.next = int16(len(subs))
	return -1
}

// SubRacks is the number of distinct sub-racks of k tiles of the rack
// (0 when k is under Prepare's minChecked or the rack is not tabulated).
func (t *LeaveBounds) SubRacks(k int) int {
	if t.nLetters < 0 || k < t.minChecked || k >= len(t.subs) {
		return 0
	}
	return len(t.subs[k])
}

// SubRack is the i-th sub-rack of k tiles (i < SubRacks(k)), best kept
// value first: that value, the hash of the real letters it plays (as
// Through's hb) and its blanks.
func (t *LeaveBounds) SubRack(k, i int) (leave float64, h uint64, blanks int) {
	p := &t.subsOf(k)[i]
	return p.leave, p.h, int(p.blanks)
}

// MayFit reports whether the anagram filter says that the i-th sub-rack
// of k tiles (as SubRack), with board letters of hash hb (nb of them),
// may make a word.
func (t *LeaveBounds) MayFit(k, i int, hb uint64, nb int) bool {
	p := &t.subsOf(k)[i]
	return t.af.has(p.h+hb, int(p.blanks), k+nb)
}

type memoEntry struct {
	key  uint64
	gen  uint32
	i    int16 // the first sub-rack that fits (−1: none of those asked)
	next int16 // the sub-racks asked so far (from the first)
}

// Radix is the place value of tile l (a tile of the prepared rack) in
// the index of sub-racks that KeptValue takes: the index of playing a
// sub-rack P is the sum over its tiles of P's count times Radix. It
// reports false when the rack has more tiles than are tabulated.
func (t *LeaveBounds) Radix(l alphabet.Tile) (int, bool) {
	if t.nLetters < 0 {
		return 0, false
	}
	for j := 0; j < t.nLetters; j++ {
		if alphabet.Tile(t.letters[j]) == l {
			return t.radix[j], true
		}
	}
	return 0, true
}

// LeaveBoundsPair keeps the leave bounds of the last two racks searched,
// so that searches that go back and forth between two racks under a
// FixedLeave (a simulation's replies, one rack on many boards, and our
// own next moves between them) prepare neither again.
type LeaveBoundsPair struct {
	bounds [2]LeaveBounds
	last   int
}

// Prepare returns the bounds of rack under leave (LeaveBounds.Prepare):
// one of the last two when it holds them, or else the older one,
// prepared anew.
func (p *LeaveBoundsPair) Prepare(rack *alphabet.Rack, leave Leave, af *AnagramFilter, minChecked int) *LeaveBounds {
	i := 1 - p.last
	if p.bounds[p.last].Holds(rack, leave, af, minChecked) {
		i = p.last
	}
	p.last = i
	p.bounds[i].Prepare(rack, leave, af, minChecked)
	return &p.bounds[i]
}

// Holds reports whether t was prepared for rack under leave (a
// FixedLeave, or nil) with af and minChecked, so that Prepare with them
// keeps it as it is.
func (t *LeaveBounds) Holds(rack *alphabet.Rack, leave Leave, af *AnagramFilter, minChecked int) bool {
	return t.prepared && *rack == t.rack && leave == t.leave && af == t.af && max(minChecked, 1) == t.minChecked
}

// KeptValue is the value of the tiles kept after playing the sub-rack
// of index played (see Radix) from the prepared rack.
func (t *LeaveBounds) KeptValue(played int) float64 {
	return t.leaveOf[t.full-played]
}

// Value is the value of keeping kept, a sub-rack of the prepared rack,
// from the table Prepare made (no call to the leave).
func (t *LeaveBounds) Value(kept *alphabet.Rack) float64 {
	return t.leaveValue((*[alphabet.MaxLetters + 1]uint8)(kept))
}

// leaveValue is the value of keeping the tiles left in rack.
func (t *LeaveBounds) leaveValue(rack *[alphabet.MaxLetters + 1]uint8) float64 {
	if t.leave == nil {
		return 0
	}
	if t.nLetters < 0 {
		r := alphabet.Rack(*rack)
		return t.leave.Eval(&r)
	}
	i := 0
	for j := 0; j < t.nLetters; j++ {
		i += int(rack[t.letters[j]]) * t.radix[j]
	}
	return t.leaveOf[i]
}
