package movegen

import (
	"math"
	"math/bits"
	"slices"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon/automaton"
	"atril/move"
)

// Leave values the tiles a player keeps on its rack after a placement.
// *leave.Table and the exhaustive leave tables satisfy it. Eval must not
// keep kept, and must be safe to call from the goroutine that searches.
type Leave interface {
	Eval(kept *alphabet.Rack) float64
}

// FixedLeave is a Leave whose values never change, such as a leave
// table. A searcher keeps what it worked out from one (the value of
// every sub-rack of the rack) for its next search of the same rack with
// the same leave: a simulation searches one rack on many boards a move
// apart. Implement it on pointer types (the leave is compared with ==).
type FixedLeave interface {
	Leave
	// FixedLeave marks the type; it does nothing.
	FixedLeave()
}

// Scored is a placement with its equity: its score plus the value of the
// tiles it keeps.
type Scored struct {
	Move   move.Move
	Equity float64
}

// Searcher finds the best placements by equity without listing them all.
// Gaddag implements it with shadow bounds; Search gives any generator the
// same answers by listing every move.
type Searcher interface {
	Generator
	// Best returns the placement of highest equity (score plus
	// leave.Eval of the tiles kept; leave nil means score alone), ties
	// broken as SortMoves does, and false when there is none.
	Best(b *board.Board, rack *alphabet.Rack, leave Leave) (Scored, bool)
	// TopN appends to out[:0] the n placements of highest equity, best
	// first. The moves' Tiles stay valid until the next call on the
	// generator: copy them (Clone) to keep them longer.
	TopN(b *board.Board, rack *alphabet.Rack, leave Leave, n int, out []Scored) []Scored
}

// LineSearcher is a Searcher that can keep to some lines of the board,
// for boards that changed in a few lines only (see board.Changed and
// BestAfter).
type LineSearcher interface {
	Searcher
	// TopNIn is TopN over the placements whose main word lies on one of
	// lines; placements of equity below floor need not be listed (−Inf:
	// all are).
	TopNIn(b *board.Board, rack *alphabet.Rack, leave Leave, n int, lines board.Lines, floor float64, out []Scored) []Scored
}

// BoardCacher is a Searcher that can keep what it found out about a
// board, apart from any rack, across searches of the same board with
// other racks, as a simulation searches its position and each
// candidate's board once an iteration. It changes nothing but the
// speed; it is off in a new generator or a fork.
type BoardCacher interface {
	Searcher
	CacheBoards(on bool)
}

// ChangeSearcher is a LineSearcher that can keep to the placements near
// what a placement changed (board.Changes), for BestAfter.
type ChangeSearcher interface {
	LineSearcher
	// TopNTouching is TopN over the placements whose main word, or a
	// square next to one of its ends, is a changed square of its line
	// (board.Changes.Touches); it may list others, and placements of
	// equity below floor need not be listed.
	TopNTouching(b *board.Board, rack *alphabet.Rack, leave Leave, n int, ch *board.Changes, floor float64, out []Scored) []Scored
}

var _ ChangeSearcher = (*Gaddag)(nil)

// LineGenerator is a Generator that can keep to some lines of the
// board, for boards that changed in a few lines only (see board.Changed):
// every placement off the changed lines is one of the earlier board,
// with the same score.
type LineGenerator interface {
	Generator
	// GenerateIn lists the placements whose main word lies on one of
	// lines, as Generate does.
	GenerateIn(b *board.Board, rack *alphabet.Rack, lines board.Lines, sink Sink)
}

var _ LineGenerator = (*Gaddag)(nil)

// OnLines reports whether placement m's main word lies on one of lines.
func OnLines(m *move.Move, lines board.Lines) bool {
	if m.Dir == board.Across {
		return lines.Has(board.Across, m.Row)
	}
	return lines.Has(board.Down, m.Col)
}

// Touches reports whether placement m's main word, or a square next to
// one of its ends, is a changed square of its line (board.Changes.Touches).
func Touches(m *move.Move, ch *board.Changes) bool {
	line, lo := m.Row, m.Col
	if m.Dir == board.Down {
		line, lo = m.Col, m.Row
	}
	return ch.Touches(m.Dir, line, lo, lo+len(m.Tiles)-1)
}

// Unchanged reports whether placement m of an earlier board is one that
// SearchChanges with s leaves to the caller, a move of the board after
// the changes ch with the same score: one that touches no changed
// square when s is a ChangeSearcher, one off the changed lines when not.
func Unchanged(s LineSearcher, m *move.Move, ch *board.Changes) bool {
	if _, near := s.(ChangeSearcher); near {
		return !Touches(m, ch)
	}
	return !OnLines(m, ch.Lines)
}

// SearchChanges is TopN over the placements that the changes ch may
// have made or altered, the others being Unchanged: near the changed
// squares (TopNTouching) when s is a ChangeSearcher, along the changed
// lines (TopNIn) when not; placements of equity below floor need not be
// listed.
func SearchChanges(s LineSearcher, b *board.Board, rack *alphabet.Rack, leave Leave, n int, ch *board.Changes, floor float64, out []Scored) []Scored {
	if cs, near := s.(ChangeSearcher); near {
		return cs.TopNTouching(b, rack, leave, n, ch, floor, out)
	}
	return s.TopNIn(b, rack, leave, n, ch.Lines, floor, out)
}

// BestAfter is Best on a board that differs from an earlier one only in
// the squares of ch (board.ChangedSquares), searching near them alone.
// before ranks, best first as TopN does, the placements of highest
// equity of the same rack and leave on the earlier board; complete says
// it holds all of them. Every placement that does not touch a changed
// square (off the changed lines, when s is not a ChangeSearcher) is one
// of the earlier board with the same score, so the best of them is the
// first such entry of before. When before has none, each of them ranks
// after before's last entry (before is the head of the ranking), so a
// placement near the changes that ranks ahead of that entry is the best;
// only when there is none and before is not complete does BestAfter
// search the whole board. The move's Tiles may alias before or the
// searcher's buffers: Clone it to keep it past the next call.
func BestAfter(s LineSearcher, b *board.Board, rack *alphabet.Rack, leave Leave, before []Scored, complete bool, ch *board.Changes, buf []Scored) (Scored, bool) {
	search := func(floor float64) []Scored {
		return SearchChanges(s, b, rack, leave, 1, ch, floor, buf)
	}
	var off *Scored
	for i := range before {
		if Unchanged(s, &before[i].Move, ch) {
			off = &before[i]
			break
		}
	}
	if off == nil && !complete && len(before) > 0 {
		last := &before[len(before)-1]
		top := search(last.Equity)
		if len(top) > 0 && better(top[0].Equity, &top[0].Move, last.Equity, &last.Move) {
			return top[0], true
		}
	}
	if off == nil && !complete {
		top := s.TopN(b, rack, leave, 1, buf)
		if len(top) == 0 {
			return Scored{}, false
		}
		return top[0], true
	}
	floor := math.Inf(-1)
	if off != nil {
		floor = off.Equity
	}
	top := search(floor)
	switch {
	case len(top) == 0 && off == nil:
		return Scored{}, false
	case len(top) == 0:
		return *off, true
	case off == nil:
		return top[0], true
	}
	if better(off.Equity, &off.Move, top[0].Equity, &top[0].Move) {
		return *off, true
	}
	return top[0], true
}

// Search returns the n best placements by equity for any generator: the
// Searcher's own method when g has one, or else all moves ranked.
func Search(g Generator, b *board.Board, rack *alphabet.Rack, leave Leave, n int) []Scored {
	return SearchFrom(g, b, rack, leave, n, math.Inf(-1))
}

// SearchFrom is Search where placements of equity below floor need not
// be listed: a LineSearcher starts its search with floor as the kept
// list's threshold (a caller that has a move of equity floor in hand,
// an exchange say, loses nothing it would choose).
func SearchFrom(g Generator, b *board.Board, rack *alphabet.Rack, leave Leave, n int, floor float64) []Scored {
	s, ok := g.(Searcher)
	if !ok || n <= 0 {
		return searchAll(g, b, rack, leave, n)
	}
	var out []Scored
	if ls, ok := s.(LineSearcher); ok && floor > math.Inf(-1) {
		out = ls.TopNIn(b, rack, leave, n, board.AllLines(b.Size), floor, nil)
	} else {
		out = s.TopN(b, rack, leave, n, nil)
	}
	for i := range out {
		out[i].Move = Clone(&out[i].Move)
	}
	return out
}

// searchAll ranks every move a generator lists.
func searchAll(g Generator, b *board.Board, rack *alphabet.Rack, leave Leave, n int) []Scored {
	var out []Scored
	g.Generate(b, rack, func(m *move.Move) {
		e := float64(m.Score)
		if leave != nil {
			kept := *rack
			for _, t := range m.Tiles {
				if t != move.PlayThrough {
					kept.Remove(t)
				}
			}
			e += leave.Eval(&kept)
		}
		out = append(out, Scored{Clone(m), e})
	})
	slices.SortFunc(out, func(a, b Scored) int {
		if better(a.Equity, &a.Move, b.Equity, &b.Move) {
			return -1
		}
		if better(b.Equity, &b.Move, a.Equity, &a.Move) {
			return 1
		}
		return 0
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// better orders placements by equity, then by the fixed tie-break of
// SortMoves.
func better(ea float64, a *move.Move, eb float64, b *move.Move) bool {
	if ea != eb {
		return ea > eb
	}
	return Less(a, b)
}

// bestState is the best-by-equity mode of a generation: the kept list,
// the leave bounds of the rack, and the anchors ranked by bound.
type bestState struct {
	Ranked
	// *LeaveBounds is the rack's, from bounds.
	*LeaveBounds
	bounds  LeaveBoundsPair
	anchors []anchorBound
	scores  RackScores
	// loBound[lo] bounds the moves of the anchor being searched whose
	// word starts on square lo, and leftMax[c] those starting on c or
	// left of it (from its refined shadow), so the walk can stop going
	// left, or turning right, where nothing can reach the kept list.
	loBound, leftMax [32]float64
	saved            [][32]float64
	// refine makes bound ask the anagram filter (see TopN).
	refine  bool
	refined anchorBound // the anchor whose refined shadow loBound holds
	// fit[i]: the highest score of a rack tile that square i of the
	// current line admits (shadow only); it points into fits, which
	// keeps each line's for the whole search (bit dir·32+row of fitted).
	fit    *[32]int32
	fits   [2 * 32][32]int32
	fitted uint64
	// ecross[i]: square i's cross-set, less the letters that cannot
	// stand next to the board tiles beside it in any word (see fitLine).
	ecross   *[32]uint64
	ecrosses [2 * 32][32]uint64
	// partial and blanks are worked out by a refined shadow, for a rack
	// with a blank (see searchBlanks): blanks is the set of letters a
	// blank may stand for in a word of all the rack's tiles with an
	// extent's board letters (by the anagram filter), over the extents
	// where one may lie, and partial bounds the moves that play a blank
	// and keep a tile: their score bound plus the best leave of fewer
	// blanks than the rack holds.
	partial float64
	blanks  uint64
	// blankMemo caches the letters of blanksFor by board letters.
	blankMemo [64]blankMemo
	blankGen  uint32
	// near, when not nil, restricts the search to the placements that
	// touch its changed squares (TopNTouching); nearMask is the current
	// line's (every square when near is nil).
	near     *board.Changes
	nearMask uint64
	// auto is the GADDAG and follow its follow table (walkTables.follows).
	auto   *automaton.Automaton
	follow []uint64
}

// Ranked is a kept list: the n best placements by equity offered to it,
// ties broken as SortMoves does, each holding a copy of its tiles. The
// best-by-equity searches keep theirs in one.
type Ranked struct {
	n   int
	top []kept
	// floor: moves of lower equity are not wanted (−Inf: all are).
	floor float64
	// thr caches Threshold().
	thr float64
}

// Reset empties the list and sets how many placements it keeps and the
// least equity wanted (−Inf: any).
func (t *Ranked) Reset(n int, floor float64) {
	t.n = n
	t.top = t.top[:0]
	t.floor, t.thr = floor, floor
}

// kept is an entry of the kept list, holding its own tiles.
type kept struct {
	m     move.Move // Tiles nil while kept; see tilesOf
	eq    float64
	tiles [32]alphabet.Tile
	nt    int
}

// anchorBound is an anchor with the equity bound of every move whose
// leftmost anchor it is.
type anchorBound struct {
	bound     float64
	dir       board.Dir
	row, col  int8
	leftLimit int8
	refined   bool
	saved     int16 // refined and put back: its loBound in bestState.saved
	// Refined, with a blank on the rack: bestState's partial and blanks
	// for this anchor.
	partial float64
	blanks  uint64
	second  bool // its first pass is done (see searchBlanks)
}

// Threshold is the equity a move must reach to enter the kept list (ties
// are settled by the tie-break), or the floor while the list is not full.
func (t *Ranked) Threshold() float64 { return t.thr }

// noShadowTiles is the largest rack searched without shadow bounds.
var noShadowTiles = 3

// shadowMinChecked is the fewest tiles played through board letters for
// which the shadow asks the anagram filter whether a word can be made
// (checking fewer probes more than it saves: 5 against 1 is about 10%
// faster).
const shadowMinChecked = 5

// beats reports whether (eq, m) ranks before kept entry k.
func (t *Ranked) beats(eq float64, m *move.Move, k *kept) bool {
	if eq != k.eq {
		return eq > k.eq
	}
	o := k.m
	o.Tiles = k.tiles[:k.nt]
	return Less(m, &o)
}

// Offer considers a placement of equity eq for the list; m is copied if
// kept.
func (t *Ranked) Offer(m *move.Move, eq float64) {
	if len(t.top) == t.n && !t.beats(eq, m, &t.top[t.n-1]) {
		return
	}
	if len(t.top) < t.n {
		t.top = append(t.top, kept{})
	}
	i := len(t.top) - 1
	for i > 0 && t.beats(eq, m, &t.top[i-1]) {
		t.top[i] = t.top[i-1]
		i--
	}
	k := &t.top[i]
	k.m, k.eq = *m, eq
	k.m.Tiles = nil
	k.nt = copy(k.tiles[:], m.Tiles)
	if len(t.top) == t.n {
		t.thr = max(t.floor, t.top[t.n-1].eq)
	}
}

// Result appends the kept list to out[:0], best first; the moves' Tiles
// alias the list's entries until its next Reset.
func (t *Ranked) Result(out []Scored) []Scored {
	out = out[:0]
	for i := range t.top {
		k := &t.top[i]
		m := k.m
		m.Tiles = k.tiles[:k.nt:k.nt]
		out = append(out, Scored{Move: m, Equity: k.eq})
	}
	return out
}

// Best implements Searcher.
func (g *Gaddag) Best(b *board.Board, rack *alphabet.Rack, leave Leave) (Scored, bool) {
	out := g.TopN(b, rack, leave, 1, g.one[:0])
	if len(out) == 0 {
		return Scored{}, false
	}
	sc := out[0]
	sc.Move = Clone(&sc.Move)
	return sc, true
}

// TopN implements Searcher. Anchors are searched best bound first, and
// the search stops when no remaining anchor's bound can reach the kept
// list: the bound of an anchor is the best equity any move whose leftmost
// anchor it is could reach, from the squares it can cover, the rack's
// highest-scoring tiles on the best multipliers, and the best leave for
// the number of tiles played ("shadow playing").
func (g *Gaddag) TopN(b *board.Board, rack *alphabet.Rack, leave Leave, n int, out []Scored) []Scored {
	return g.TopNIn(b, rack, leave, n, board.AllLines(b.Size), math.Inf(-1), out)
}

// TopNIn implements LineSearcher: TopN over the lines given only, and
// over the placements of equity floor or more.
func (g *Gaddag) TopNIn(b *board.Board, rack *alphabet.Rack, leave Leave, n int, lines board.Lines, floor float64, out []Scored) []Scored {
	return g.topN(b, rack, leave, n, lines, nil, floor, out)
}

// TopNTouching implements ChangeSearcher: the shadow bounds only the
// extents that touch a changed square of their line, so an anchor none
// of whose extents does is not searched.
func (g *Gaddag) TopNTouching(b *board.Board, rack *alphabet.Rack, leave Leave, n int, ch *board.Changes, floor float64, out []Scored) []Scored {
	return g.topN(b, rack, leave, n, ch.Lines, ch, floor, out)
}

// topN is TopNIn, and TopNTouching when near is not nil.
func (g *Gaddag) topN(b *board.Board, rack *alphabet.Rack, leave Leave, n int, lines board.Lines, near *board.Changes, floor float64, out []Scored) []Scored {
	if n <= 0 {
		return out[:0]
	}
	g.enter()
	defer g.busy.Store(false)
	s := &g.s
	t := &g.best
	s.setup(g.arcs, b, rack, nil)
	t.Reset(n, floor)
	t.near, t.nearMask = near, ^uint64(0)
	t.LeaveBounds = t.bounds.Prepare(rack, leave, g.anagrams(b.Variant.RackSize), shadowMinChecked)
	s.best = t
	defer func() { s.best, s.b = nil, nil }()
	if s.emptyB {
		// The opening has one anchor per direction: search it whole.
		for d := board.Across; d <= board.Down; d++ {
			r, c := board.Orient(d, b.Variant.StartRow, b.Variant.StartCol)
			if !lines.Has(d, r) {
				continue
			}
			s.setLine(b, d, r)
			s.anchorCol = c
			s.openingWords(g.root, 0, true)
		}
		return t.Result(out)
	}
	if s.tiles <= noShadowTiles {
		// With few tiles each anchor's search is short, and bounding
		// every anchor would cost more than it saves: walk them all.
		for d := board.Across; d <= board.Down; d++ {
			for r := 0; r < b.Size; r++ {
				if !lines.Has(d, r) {
					continue
				}
				s.setLine(b, d, r)
				prev := -1
				for c := 0; c < b.Size; c++ {
					if s.anchor(c) {
						s.searchAnchor(c, prev+1, g.root)
						prev = c
					}
				}
			}
		}
		return t.Result(out)
	}
	r := alphabet.Rack(s.rack)
	t.scores.Set(&r, &s.score)
	t.blankGen++
	if t.blankGen == 0 {
		t.blankMemo = [64]blankMemo{}
		t.blankGen = 1
	}
	t.anchors = t.anchors[:0]
	t.refine = false
	t.fitted = 0
	t.auto, t.follow = g.a, g.follows()
	for d := board.Across; d <= board.Down; d++ {
		for r := 0; r < b.Size; r++ {
			if !lines.Has(d, r) {
				continue
			}
			s.setLine(b, d, r)
			t.setNear(d, r)
			lineFitted := false
			prev := -1
			for c := 0; c < b.Size; c++ {
				if !s.anchor(c) {
					continue
				}
				if t.nearMask&board.Span(max(prev, 0), b.Size-1) == 0 {
					// Every changed square of the line lies left of
					// where this anchor's words may start.
					prev = c
					continue
				}
				if !lineFitted {
					t.fitLine(s)
					lineFitted = true
				}
				if bd := s.shadow(c, prev+1); bd > math.Inf(-1) {
					t.anchors = append(t.anchors, anchorBound{bound: bd, dir: d, row: int8(r), col: int8(c), leftLimit: int8(prev + 1)})
				}
				prev = c
			}
		}
	}
	// Take the anchors best bound first from a heap: usually only a
	// few are searched, so sorting them all would be wasted.
	h := t.anchors
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
	// An anchor's first bound takes the rack's tiles as able to make a
	// word of any length but the longest two; when it comes up, the bound
	// is worked out again asking the anagram filter which lengths the rack (with the board
	// letters it would play through) can really make, and the anchor goes
	// back into the heap if it no longer leads.
	lastDir, lastRow := board.Dir(2), -1
	t.saved = t.saved[:0]
	for len(h) > 0 {
		a := h[0]
		if a.bound < t.Threshold() {
			break
		}
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		siftDown(h, 0)
		if a.dir != lastDir || int(a.row) != lastRow {
			s.setLine(b, a.dir, int(a.row))
			t.setNear(a.dir, int(a.row))
			t.fitLine(s)
			lastDir, lastRow = a.dir, int(a.row)
		}
		if !a.refined {
			t.refine = true
			t.partial, t.blanks = math.Inf(-1), 0
			a.bound = s.shadow(int(a.col), int(a.leftLimit))
			a.partial, a.blanks = t.partial, t.blanks
			t.refine = false
			a.refined = true
			t.refined = a
			if a.bound < t.Threshold() {
				continue
			}
			if len(h) > 0 && a.bound < h[0].bound {
				// Keep its per-square bounds for when it comes up.
				a.saved = int16(len(t.saved))
				t.saved = append(t.saved, t.loBound)
				h = append(h, a)
				siftUp(h, len(h)-1)
				continue
			}
		}
		if t.refined != a {
			// Its refined bound was worked out before another anchor's.
			t.loBound = t.saved[a.saved]
		}
		t.refined = anchorBound{}
		mx := math.Inf(-1)
		for i := 0; i < s.n; i++ {
			mx = max(mx, t.loBound[i])
			t.leftMax[i] = mx
		}
		s.pruneLeft = true
		if s.searchBlanks(&a, g.root) {
			// Its second pass waits for its turn by its own bound.
			a.bound = min(a.bound, a.partial)
			a.saved = int16(len(t.saved))
			t.saved = append(t.saved, t.loBound)
			h = append(h, a)
			siftUp(h, len(h)-1)
		}
		s.pruneLeft = false
	}
	return t.Result(out)
}

// siftUp restores the max-heap order of h above i.
func siftUp(h []anchorBound, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[p].bound >= h[i].bound {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// siftDown restores the max-heap order of h below i.
func siftDown(h []anchorBound, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].bound > h[c].bound {
			c++
		}
		if h[c].bound <= h[i].bound {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// RackScores are a rack's tile scores as score bounds need them: every
// tile's score, highest first (a blank scores 0), and the rack's letters
// grouped by face value, for the best tile a cross-set admits.
type RackScores struct {
	rs      [alphabet.MaxLetters + 1]int32
	n       int
	groups  [alphabet.MaxLetters + 1]scoreGroup
	ngroups int
}

// Set fills r for a rack, with scores[l] the face value of letter l.
func (r *RackScores) Set(rack *alphabet.Rack, scores *[alphabet.MaxLetters + 1]int32) {
	r.n = 0
	for l, c := range rack {
		for k := 0; k < int(c); k++ {
			v := int32(0)
			if l > 0 {
				v = scores[l]
			}
			r.rs[r.n] = v
			r.n++
		}
	}
	slices.SortFunc(r.rs[:r.n], func(a, b int32) int { return int(b - a) })
	r.ngroups = 0
	for l := 1; l < len(rack); l++ {
		if rack[l] == 0 {
			continue
		}
		v := scores[l]
		j := 0
		for j < r.ngroups && r.groups[j].score > v {
			j++
		}
		if j < r.ngroups && r.groups[j].score == v {
			r.groups[j].mask |= 1 << l
			continue
		}
		copy(r.groups[j+1:r.ngroups+1], r.groups[j:r.ngroups])
		r.groups[j] = scoreGroup{mask: 1 << l, score: v}
		r.ngroups++
	}
}

// Sorted returns the tiles' scores, highest first.
func (r *RackScores) Sorted() []int32 { return r.rs[:r.n] }

// Fit is the highest score of a rack letter in the set cross (0 when
// none: a blank, if any, scores 0).
func (r *RackScores) Fit(cross uint64) int32 {
	for _, g := range r.groups[:r.ngroups] {
		if cross&g.mask != 0 {
			return g.score
		}
	}
	return 0
}

// shadow bounds the equity of every move of the current line whose
// leftmost anchor is c: it extends the word left (not onto an earlier
// anchor) and right over squares where some rack tile may go, and for
// each extent that can be a word bounds its score by the board tiles it
// covers, the cross words of the squares it fills, and the rack's best
// tiles on its best multipliers (the rearrangement inequality), plus the
// best leave for that many tiles played. It returns −Inf when no tile of
// the rack fits the anchor.
func (s *lineGen) shadow(c, leftLimit int) float64 {
	t := s.best
	allowed := s.rackMask
	if s.rack[0] > 0 {
		allowed = s.all
	}
	fits := func(i int) bool { return t.ecross[i]&allowed != 0 }
	if !fits(c) {
		return math.Inf(-1)
	}
	ntiles := t.scores.n
	best := math.Inf(-1)
	if t.refine {
		for i := range t.loBound[:s.n] {
			t.loBound[i] = math.Inf(-1)
		}
	}
	// The squares of the extent where tiles go, counted in np: the
	// anchor and those left of it in left, and with those right of it
	// as well in ext.
	var left, ext ExtentAcc
	left.Reset()
	left.Add(c, &s.lmul, &s.wmul, s.cscore, t.fit)
	np := 1
	boardL := int32(0) // board tiles left of the anchor in the extent
	nbL, hbL := 0, uint64(0)
	lo := c
	for {
		// lo is the leftmost square so far (a placed square or a tile).
		// Absorb board tiles to the left: the word must include them.
		for lo > 0 && s.line[lo-1] != board.Empty {
			lo--
			boardL += s.faceOn(lo)
			nbL++
			hbL += t.af.weights[s.line[lo].Letter()]
		}
		// With lo fixed, extend right.
		nl := np
		boardR := int32(0)
		nb, hb := nbL, hbL
		hi := c
		ext = left
		for {
			for hi+1 < s.n && s.line[hi+1] != board.Empty {
				hi++
				boardR += s.faceOn(hi)
				nb++
				hb += t.af.weights[s.line[hi].Letter()]
			}
			if hi > lo && t.nearMask&board.Span(max(lo-1, 0), min(hi+1, s.n-1)) != 0 {
				v := s.bound(&ext, np, boardL+boardR, nb, hb)
				if v > best {
					best = v
				}
				if t.refine && v > t.loBound[lo] {
					t.loBound[lo] = v
				}
			}
			if np >= ntiles || hi+1 >= s.n || !fits(hi+1) {
				break
			}
			hi++
			ext.Add(hi, &s.lmul, &s.wmul, s.cscore, t.fit)
			np++
		}
		np = nl
		// Place one more tile to the left, if allowed.
		if np >= ntiles || lo == 0 || lo-1 < leftLimit || !fits(lo-1) {
			break
		}
		lo--
		left.Add(lo, &s.lmul, &s.wmul, s.cscore, t.fit)
		np++
	}
	return best
}

// fitLine sets fit and ecross for the current line. ecross[i] is square
// i's cross-set less the letters that cannot stand there next to the
// board tiles of the line: right before a run of tiles only the letters
// that come right before it in some word, right after one only those that
// come right after it (both, between two runs). fit[i] is the score of
// the first group of the rack's letters (highest scoring first) that
// ecross[i] admits, 0 on a tile. Each line's are worked out once a search
// (TopNIn clears fitted).
func (t *bestState) fitLine(s *lineGen) {
	k := int(s.dir)*32 + s.row
	t.fit, t.ecross = &t.fits[k], &t.ecrosses[k]
	if t.fitted&(1<<k) != 0 {
		return
	}
	t.fitted |= 1 << k
	copy(t.ecross[:s.n], s.cross[:s.n])
	for j := 0; j < s.n; j++ {
		if s.line[j] == board.Empty {
			continue
		}
		r := j
		for r+1 < s.n && s.line[r+1] != board.Empty {
			r++
		}
		before, after := t.hooks(s, j, r)
		if j > 0 {
			t.ecross[j-1] &= before
		}
		if r+1 < s.n {
			t.ecross[r+1] &= after
		}
		j = r
	}
	for i := 0; i < s.n; i++ {
		f := int32(0)
		if s.line[i] == board.Empty {
			f = t.scores.Fit(t.ecross[i])
		}
		t.fit[i] = f
	}
}

// hooks returns the letters that come right before, and right after, the
// board tiles on squares j to r of the line in some word: reading the
// tiles backwards in the GADDAG, the symbols out of the state reached (the
// separator aside), and the letters the follow table holds for it.
func (t *bestState) hooks(s *lineGen, j, r int) (before, after uint64) {
	a := t.auto
	n := a.Root
	for x := r; x >= j; x-- {
		var ok bool
		if n, ok = a.Child(n, s.line[x].Letter()); !ok {
			return 0, 0
		}
	}
	return a.Nodes[n].Mask &^ (1 << automaton.Sep), t.follow[n]
}

// scoreGroup is the rack's letters of one face value.
type scoreGroup struct {
	mask  uint64
	score int32
}

// faceOn is the face value of the board tile on square i of the line.
func (s *lineGen) faceOn(i int) int32 {
	t := s.line[i]
	if t.IsBlanked() {
		return 0
	}
	return s.score[t]
}

// bound is the equity bound of an extent: the k squares where tiles go
// (in ext) and the face value of the board tiles in the word. The tiles'
// part is the lesser of two bounds: the rack's best tiles on the best
// multipliers (rearrangement inequality), and each square's multiplier
// times the best rack tile its cross-set admits.
func (s *lineGen) bound(ext *ExtentAcc, k int, boardSum int32, nb int, hb uint64) float64 {
	t := s.best
	lv := t.bestLeave[k]
	if t.refine || k >= max(t.scores.n-1, shadowMinChecked) {
		// Some k of the tiles, with the board letters, must make a word.
		// The first pass asks the filter about the longest extents only
		// (all the rack's tiles, or all but one), as they carry the
		// bingo bonus and the widest bounds.
		lv = t.Extent(k, nb, hb)
	}
	if lv == math.Inf(-1) {
		return lv
	}
	fixed := ext.Bound(t.scores.Sorted(), boardSum)
	if k == s.rackSize {
		fixed += int32(s.bingo)
	}
	v := float64(fixed) + lv
	if t.refine {
		if k < s.tiles {
			t.partial = max(t.partial, float64(fixed)+t.lessBlanks[k])
		} else if s.rack[0] > 0 {
			t.blanks |= t.blanksFor(s, hb, nb)
		}
	}
	return v
}

// setNear sets nearMask for line r in direction d.
func (t *bestState) setNear(d board.Dir, r int) {
	if t.near != nil {
		t.nearMask = t.near.Squares[d][r]
	}
}

// searchBlanks walks the anchor a of the current line. With a blank on
// the rack it walks it in two passes, so that the kept list's threshold
// rises before the blank is tried as every letter: the first tries the
// blank only as the letters that can make a word of all the rack's
// tiles there (a.blanks), which finds those moves and any other with
// every blank standing for one of those letters; the second lists the
// moves with a blank standing for another letter, none of which plays
// every tile, so their bound is a.partial. It reports whether the
// second pass is still to come after the first: the caller puts the
// anchor back to wait for its turn by that bound, and calls again.
func (s *lineGen) searchBlanks(a *anchorBound, root automaton.Arc) bool {
	t := s.best
	switch {
	case s.rack[0] == 0:
		s.searchAnchor(int(a.col), int(a.leftLimit), root)
		return false
	case !a.second:
		s.blankAs = a.blanks
		s.searchAnchor(int(a.col), int(a.leftLimit), root)
		s.blankAs = ^uint64(0)
		a.second = true
		return a.partial >= t.Threshold() && a.blanks&s.all != s.all
	}
	if s.rack[0] == 1 {
		s.blankAs = ^a.blanks
	}
	s.blankOut = ^a.blanks
	s.searchAnchor(int(a.col), int(a.leftLimit), root)
	s.blankAs, s.blankOut = ^uint64(0), 0
	return false
}

// blankMemo is a blanksFor answer for board letters of hash hb.
type blankMemo struct {
	hb   uint64
	mask uint64
	gen  uint32
}

// blanksFor is the set of letters x such that the rack's letters with
// one blank as x, and the nb board letters of hash hb, may make a word
// (the anagram filter holding the rest of the rack's blanks open).
func (t *bestState) blanksFor(s *lineGen, hb uint64, nb int) uint64 {
	slot := &t.blankMemo[(hb^hb>>29)%uint64(len(t.blankMemo))]
	if slot.gen == t.blankGen && slot.hb == hb {
		return slot.mask
	}
	h := t.hr + hb
	b, n := int(s.rack[0])-1, s.tiles+nb
	mask := uint64(0)
	for cand := s.all; cand != 0; cand &= cand - 1 {
		x := bits.TrailingZeros64(cand)
		if t.af.has(h+t.af.weights[x], b, n) {
			mask |= 1 << x
		}
	}
	*slot = blankMemo{hb: hb, mask: mask, gen: t.blankGen}
	return mask
}

// ExtentAcc bounds the score, bingo bonus aside, of every placement
// whose tiles go on exactly the squares added to it, one square of a line
// at a time (Add), with board tiles of a given face value in its main
// word (Bound). The tiles' part is the lesser of two bounds: the rack's
// best tiles on the best multipliers (rearrangement inequality), and
// each square's multiplier times the best rack tile it admits. It serves
// extents each of which is the one before it and one more square (the
// GADDAG's shadow, the interval search's slots that start on the same
// square): adding a square costs an insertion into the sorted
// multipliers, not a new sort, unless it has a word multiplier. It holds at most 16 squares
// (Add panics past that). The zero value is not an empty extent: call
// Reset first. A copy is an independent extent.
type ExtentAcc struct {
	n     int
	wm    int32 // word multiplier of the squares so far
	cross int32 // the cross words' other tiles, times their multipliers
	// The capped bound is wm·main + crossFit: main sums each square's
	// letter multiplier times its best fitting tile, crossFit the same
	// times the square's word multiplier where it makes a cross word.
	main, crossFit int32
	lm, cc         [16]int32 // per square: letter multiplier, and it times the word multiplier in a cross word (else 0)
	mult           [16]int32 // lm·wm + cc per square, highest first
}

// Reset empties the extent.
func (a *ExtentAcc) Reset() {
	a.n, a.wm, a.cross, a.main, a.crossFit = 0, 1, 0, 0, 0
}

// Add puts square i of a line into the extent: lmul and wmul are the
// line's letter and word multipliers, cscore its cross scores
// (board.NoCross where a tile would make no cross word), and fit[i] the
// highest score of a rack tile that square i admits.
func (a *ExtentAcc) Add(i int, lmul, wmul *[32]int32, cscore []int16, fit *[32]int32) {
	lm, w := lmul[i], wmul[i]
	cc := int32(0)
	if cs := cscore[i]; cs != board.NoCross {
		cc = lm * w
		a.cross += int32(cs) * w
		a.crossFit += cc * fit[i]
	}
	a.main += lm * fit[i]
	k := a.n
	a.lm[k], a.cc[k] = lm, cc
	a.n++
	if w != 1 {
		// Every multiplier changes: sort them again.
		a.wm *= w
		for j := 0; j < a.n; j++ {
			m := a.lm[j]*a.wm + a.cc[j]
			h := j
			for h > 0 && a.mult[h-1] < m {
				a.mult[h] = a.mult[h-1]
				h--
			}
			a.mult[h] = m
		}
		return
	}
	m := lm*a.wm + cc
	h := k
	for h > 0 && a.mult[h-1] < m {
		a.mult[h] = a.mult[h-1]
		h--
	}
	a.mult[h] = m
}

// Bound is the bound for the squares added, with board tiles of face
// value boardSum in the main word and the rack's tile scores rs,
// highest first (a blank scores 0).
func (a *ExtentAcc) Bound(rs []int32, boardSum int32) int32 {
	return ExtentBound(rs, boardSum, a.wm, a.cross, a.wm*a.main+a.crossFit, a.mult[:a.n])
}

// ExtentBound is the bound of an extent of word multiplier wm whose
// cross words' other tiles count cross (times their multipliers), whose
// main-word board tiles have face value boardSum, and whose squares'
// multipliers, highest first, are mult, for the rack's tile scores rs,
// highest first: the lower of capped (the best fitting tile on every
// square at once, ExtentAcc's wm·main + crossFit) and the rack's tiles
// rearranged on the multipliers.
func ExtentBound(rs []int32, boardSum, wm, cross, capped int32, mult []int32) int32 {
	rearranged := int32(0)
	for k, r := range rs[:min(len(mult), len(rs))] {
		rearranged += mult[k] * r
	}
	return boardSum*wm + cross + min(capped, rearranged)
}

// Terms copies what ExtentBound needs of the extent and what does not
// depend on the rack: each square's letter multiplier and cross-word
// multiplier (0 where it makes no cross word) in the order added into lm
// and cc, and the multipliers highest first into mult (each at least
// as long as the extent); it returns the extent's word multiplier and
// its cross words' other tiles (times their multipliers). capped is
// then wm·Σ lm[k]·fit[k] + Σ cc[k]·fit[k], fit[k] the highest score of a
// rack tile square k admits.
func (a *ExtentAcc) Terms(lm, cc, mult []int32) (wm, cross int32) {
	copy(lm, a.lm[:a.n])
	copy(cc, a.cc[:a.n])
	copy(mult, a.mult[:a.n])
	return a.wm, a.cross
}
