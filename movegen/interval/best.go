package interval

import (
	"math"
	"slices"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
)

// Best-by-equity generation through intervals: every placement's main
// word fills exactly one interval, so each interval is a slot whose
// squares are known in full. The slots of the board are bounded first
// (the interval's board letters, its cross words and the rack's best
// tiles on its best multipliers: movegen.ExtentAcc; and the best leave
// for that many tiles played: movegen.LeaveBounds), then solved best
// bound first with the generator's own lookups, until no slot left can
// reach the kept list. Only the intervals a rack tile can fill are
// bounded: none holds a square whose cross-set admits no rack letter (a
// blank admits any), and the starts from which no such interval reaches
// a square next to the board's tiles are skipped. Where the GADDAG's
// search bounds an anchor by every extent through it, an interval's
// bound needs no maximum over extents: it is the bound of one set of
// squares. As in the GADDAG's search, the anagram filter is asked
// whether the tiles played and the board letters can make a word: at
// once for the slots that play all the rack's tiles or all but one, and
// for the others when they come to the top, which puts them back with
// the tighter bound. A slot that comes to the top again is asked where
// its board letters go (runFilter) before it is solved; a search near a
// placement's changes (TopNTouching) bounds only the intervals that
// touch them.

// bestSearch is the per-generator state of a best-by-equity search.
type bestSearch struct {
	ranked movegen.Ranked
	leave  movegen.Leave
	rack   alphabet.Rack
	lb     *movegen.LeaveBounds // the rack's, from bounds
	bounds movegen.LeaveBoundsPair
	scores movegen.RackScores
	faces  [alphabet.MaxLetters + 1]int32
	spans  []span
	queue  bucketQueue // the slots, numbered as spans
	lmul   [32]int32
	wmul   [32]int32
	fit    [32]int32
	ext    movegen.ExtentAcc // the empty squares of the interval being bounded
	af     *movegen.AnagramFilter
	tiles  int          // on the rack
	lines  board.Lines  // the lines searched
	sink   movegen.Sink // offer, bound once
	runs   *runFilter   // nil: slots are not asked where letters go
	// touch, when set, keeps the search to the intervals that hold a
	// changed square or end next to one (TopNTouching).
	touch *board.Changes
	geo   geoCache
	// saved holds the lines bounded this search (bit line of loaded[d]),
	// so a slot taken from the queue on another line than the last one
	// copies its line instead of reading it from the board again (two in
	// three slots solved do).
	saved  [2][MaxBoard]lineInfo
	loaded [2]uint64
}

// runBound is the bound of slot sp (of the loaded line li) once the run
// filter is asked: its score bound plus the best kept value of the
// sub-racks whose letters, with its board letters, the filter holds as
// a word with the slot's longest run of board letters at its place (−Inf
// when none; a sub-rack with a blank is not asked). The sub-racks before
// LeaveBounds.FirstFit cannot make a word at all, nor can those after it
// that the anagram filter turns down, and those whose kept value cannot
// reach the threshold are not asked.
func (bs *bestSearch) runBound(li *lineInfo, sp *span) float64 {
	k := int(sp.empty)
	n := bs.lb.SubRacks(k)
	if n == 0 {
		return float64(sp.score) + bs.lb.Extent(k, int(sp.nb), sp.hb)
	}
	first := bs.lb.FirstFit(k, sp.hb, int(sp.nb))
	if first < 0 {
		return math.Inf(-1)
	}
	key := bs.runs.slotKey(li.tiles[sp.start:], int(sp.len), sp.hb)
	top, thr := float64(sp.score), bs.ranked.Threshold()
	for i := first; i < n; i++ {
		lv, h, blanks := bs.lb.SubRack(k, i)
		if lv+top < thr {
			break
		}
		if blanks > 0 {
			return top + lv
		}
		// The anagram filter first (FirstFit asked it about the first):
		// a sub-rack whose letters make no word at all makes none with
		// the run in place, and the anagram filter's words are more
		// often in the cache than the run filter's.
		if (i == first || bs.lb.MayFit(k, i, sp.hb, int(sp.nb))) && bs.runs.has(int(sp.len), key+h) {
			return top + lv
		}
	}
	return math.Inf(-1)
}

// span is where an interval lies, with what its bound is made of: the
// score bound, and the hash (movegen.AnagramFilter.Weight) and number of
// its board letters.
type span struct {
	dir                     board.Dir
	line, start, len, empty int8
	nb                      int8
	// stage is how far its bound is refined: 0, not; 1, its leave
	// bound has asked the anagram filter; 2, the run filter too.
	stage int8
	score int32
	hb    uint64
}

// prepare sets up the rack's leave bounds (asking af) and tile scores,
// for a search of the intervals of lines (those that touch the changes
// touch, when given).
func (bs *bestSearch) prepare(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, lines board.Lines, touch *board.Changes, floor float64, af *movegen.AnagramFilter) {
	if bs.sink == nil {
		bs.sink = bs.offer
	}
	bs.ranked.Reset(n, floor)
	bs.lines, bs.touch = lines, touch
	bs.leave, bs.rack = leave, *rack
	bs.af = af
	// Every slot is checked, whatever its number of tiles: a slot costs
	// table lookups, which the filter's probes save (1 against 5, the
	// GADDAG's shadowMinChecked: about 20% faster over whole games).
	bs.lb = bs.bounds.Prepare(rack, leave, af, 1)
	for l := range bs.faces {
		bs.faces[l] = 0
	}
	for l := 1; l < len(b.Variant.Scores) && l < len(bs.faces); l++ {
		bs.faces[l] = int32(b.Variant.Scores[l])
	}
	bs.scores.Set(rack, &bs.faces)
	bs.tiles = rack.Len()
	bs.spans = bs.spans[:0]
	bs.queue.reset()
}

// offer is the sink of the interval generators in best-by-equity mode.
func (bs *bestSearch) offer(m *move.Move) {
	eq := float64(m.Score)
	if bs.leave != nil {
		if eq+bs.lb.Best(m.NewTiles()) < bs.ranked.Threshold() {
			return
		}
		kept := m.Kept(bs.rack)
		eq += bs.lb.Value(&kept)
	}
	bs.ranked.Offer(m, eq)
}

// line sets the multipliers and best fitting tiles of a loaded line.
func (bs *bestSearch) line(li *lineInfo) {
	for i := 0; i < li.n; i++ {
		p := li.prem[i]
		bs.lmul[i], bs.wmul[i] = int32(p.LetterMul), int32(p.WordMul)
		bs.fit[i] = 0
		if li.tiles[i] == board.Empty {
			bs.fit[i] = bs.scores.Fit(li.cross[i])
		}
	}
}

// addLine bounds the intervals of the loaded line (those lineInfo.spans
// lists) and keeps them as slots. The intervals that start on the same
// square are bounded in one pass, each longer one taking the shorter's
// squares, board letters and hash.
//
// With g set it records them in g (bs.geo.record) instead: the fits of
// bs.ext are then not used.
func (bs *bestSearch) addLine(li *lineInfo, maxEmpty, rackSize, bingo int, g *geometry) {
	n := li.n
	var pos [MaxBoard]int8 // the empty squares from s
	// reach[s]: no interval starting on square s or later and holding
	// at most maxEmpty empty squares reaches a halo square when false.
	var reach [MaxBoard + 1]bool
	for s, next, gap := n-1, false, 0; s >= 0; s-- {
		switch {
		case li.tiles[s] == board.Empty && !li.open[s]:
			// No rack tile goes there: the intervals stop before it.
			next = false
		case li.halo[s]:
			next, gap = true, 1
		case li.tiles[s] == board.Empty:
			gap++
		}
		reach[s] = next && gap <= maxEmpty
	}
	for s := 0; s < n; s++ {
		if s > 0 && li.tiles[s-1] != board.Empty || !reach[s] {
			continue
		}
		nsq, halo := 0, false
		boardSum := int32(0)
		hb := uint64(0)
		bs.ext.Reset()
		for e := s; e < n; e++ {
			t := li.tiles[e]
			switch {
			case t == board.Empty:
				if !li.open[e] {
					// No rack tile can go there: no longer interval either.
					e = n
					continue
				}
				if nsq == maxEmpty {
					e = n
					continue
				}
				bs.ext.Add(e, &bs.lmul, &bs.wmul, li.cscore, &bs.fit)
				pos[nsq] = int8(e)
				nsq++
				halo = halo || li.halo[e]
			default:
				if !t.IsBlanked() {
					boardSum += bs.faces[t.Letter()]
				}
				hb += bs.af.Weight(t)
			}
			if e+1 < n && li.tiles[e+1] != board.Empty || e == s || !halo {
				continue
			}
			if bs.touch != nil && !bs.touch.Touches(li.d, li.line, s, e) {
				continue
			}
			if g != nil {
				bs.geo.record(g, bs, li, s, e-s+1, pos[:nsq], boardSum, hb)
				continue
			}
			bs.add(li, s, e-s+1, nsq, boardSum, hb, rackSize, bingo)
		}
	}
}

// add bounds the interval of the loaded line from square start, length
// long, whose nsq empty squares are in bs.ext, and keeps it as a slot.
func (bs *bestSearch) add(li *lineInfo, start, length, nsq int, boardSum int32, hb uint64, rackSize, bingo int) {
	bs.addSlot(li.d, li.line, start, length, nsq, bs.ext.Bound(bs.scores.Sorted(), boardSum), hb, rackSize, bingo)
}

// addSlot keeps the interval of line line in direction d from square
// start, length long, holding nsq empty squares and board letters of
// hash hb, as a slot of score bound sc (before the bingo bonus).
func (bs *bestSearch) addSlot(d board.Dir, line, start, length, nsq int, sc int32, hb uint64, rackSize, bingo int) {
	nb := length - nsq
	// The longest slots ask the filter now (they carry the bingo bonus
	// and the widest bounds); the others when they reach the top.
	var stage int8
	if nsq == rackSize {
		sc += int32(bingo)
	}
	lv := bs.lb.Best(nsq)
	if float64(sc)+lv < bs.ranked.Threshold() {
		// Below the floor.
		return
	}
	if nsq >= bs.tiles-1 {
		stage = 1
		lv = bs.lb.ExtentAbove(nsq, nb, hb, bs.ranked.Threshold()-float64(sc)-cutSlack)
	}
	if lv == math.Inf(-1) {
		return
	}
	bs.queue.add(float64(sc) + lv) // slot len(bs.spans)
	// The fields are written in place: a span made on the stack with
	// narrow stores and then copied with wide loads stalls the processor
	// (the loads cannot take their data from the pending stores; the
	// profile put 5% of inhuman self-play on that copy, of which about
	// 1% was gained).
	k := len(bs.spans)
	if k == cap(bs.spans) {
		bs.spans = slices.Grow(bs.spans, 1)
	}
	bs.spans = bs.spans[:k+1]
	sp := &bs.spans[k]
	sp.dir, sp.line, sp.start, sp.len, sp.empty = d, int8(line), int8(start), int8(length), int8(nsq)
	sp.nb, sp.stage, sp.score, sp.hb = int8(nb), stage, sc, hb
}

// search bounds every interval of the board, then solves them best
// bound first with solve (the generator's per-interval step, which
// hands its moves to bs.offer through st's sink) until none left can
// reach the kept list, and appends the list to out.
func (bs *bestSearch) search(st *ivState, b *board.Board, solve func(*Interval), out []movegen.Scored) []movegen.Scored {
	if bs.leave != nil {
		st.usePrune(bs.lb)
	}
	bs.loaded = [2]uint64{}
	v := b.Variant
	var geo *geometry
	if bs.geo.on && st.rackLen <= v.RackSize {
		// (A geometry holds the intervals of up to the variant's rack
		// size of empty squares.)
		g, k, build := bs.geo.lookup(b, bs.lines, bs.touch)
		if build {
			g = bs.geo.start(b, bs.lines, bs.touch, k)
			bs.boardLines(st, b, g)
		}
		geo = g
	}
	if geo != nil {
		bs.geo.bound(geo, bs, st.letters, st.rackLen, v.RackSize, v.BingoBonus)
	} else {
		bs.boardLines(st, b, nil)
	}
	// Usually few slots are solved: take them best bound first from
	// buckets one point wide (the order within a bucket does not change
	// the kept list) rather than sorting them all.
	q := &bs.queue
	loadedDir, loadedLine := board.Dir(2), -1
	for {
		i, ok := q.pop(bs.ranked.Threshold())
		if !ok {
			break
		}
		sp := &bs.spans[i]
		if sp.stage == 0 {
			// Ask the filter, and put the slot back with that bound.
			sp.stage = 1
			lv := bs.lb.ExtentAbove(int(sp.empty), int(sp.nb), sp.hb, bs.ranked.Threshold()-float64(sp.score)-cutSlack)
			if bs.lowered(i, float64(sp.score)+lv) {
				continue
			}
		}
		if sp.dir != loadedDir || int(sp.line) != loadedLine {
			if bs.loaded[sp.dir]&(1<<uint(sp.line)) != 0 {
				// (Its open squares may be those of another set of
				// letters: solving does not read them.)
				st.li = bs.saved[sp.dir][sp.line]
			} else {
				st.li.load(b, sp.dir, int(sp.line), st.letters)
			}
			loadedDir, loadedLine = sp.dir, int(sp.line)
		}
		if sp.stage == 1 && sp.nb > 0 && bs.runs != nil {
			// About to be solved: ask where its board letters go.
			sp.stage = 2
			if bs.lowered(i, bs.runBound(&st.li, sp)) {
				continue
			}
		}
		iv := &st.iv
		iv.Dir, iv.Line, iv.Start, iv.Len, iv.Empty = sp.dir, int(sp.line), int(sp.start), int(sp.len), int(sp.empty)
		st.li.inner(iv)
		// Sub-racks keeping less than this cannot reach the threshold
		// with any placement of the slot. The slack keeps the placements
		// of equity exactly the threshold, which a tie-break or a floor
		// may want: a placement's equity is the rounded sum of its score
		// and leave, and the rounded difference here may exceed its
		// leave by a rounding error.
		st.cut = bs.ranked.Threshold() - float64(sp.score) - cutSlack
		solve(iv)
	}
	// The counters: every interval of the board, of which Instances were
	// solved.
	st.stats.Intervals = len(bs.spans)
	return bs.ranked.Result(out)
}

// boardLines bounds the intervals of the lines searched, or records them
// in g when g is set (then for a rack that may put a tile on any square
// that admits a letter, and of the variant's rack size).
func (bs *bestSearch) boardLines(st *ivState, b *board.Board, g *geometry) {
	v := b.Variant
	letters, maxEmpty := st.letters, st.rackLen
	if g != nil {
		letters, maxEmpty = ^uint64(0), v.RackSize
	}
	for d := board.Across; d <= board.Down; d++ {
		for line := 0; line < b.Size; line++ {
			if !bs.lines.Has(d, line) {
				continue
			}
			li := &bs.saved[d][line]
			li.load(b, d, line, letters)
			if li.nhalo == 0 {
				// No interval of the line touches the board.
				continue
			}
			bs.loaded[d] |= 1 << uint(line)
			bs.line(li)
			if g != nil {
				bs.geo.startLine()
			}
			bs.addLine(li, maxEmpty, v.RackSize, v.BingoBonus, g)
		}
	}
}

// lowered reports whether b, a refined bound of slot i just taken from
// the queue, is below the bound it was queued with; then the slot goes
// back with b, or is dropped when b is −Inf (no word fits) or cannot
// reach the kept list.
func (bs *bestSearch) lowered(i int, b float64) bool {
	q := &bs.queue
	if b >= q.bound[i] {
		return false
	}
	if !math.IsInf(b, -1) && b >= bs.ranked.Threshold() {
		q.push(i, b)
	}
	return true
}

// cutSlack is far above the rounding error of an equity (tens of
// points, to 53 bits) and far below the smallest difference between two
// leave values.
const cutSlack = 1e-9

// bucketQueue holds the slots by bound in buckets one point wide, for
// bounds from queueLow up: add and push are O(1), and pop takes the
// slots of the highest bucket first. Bounds above the range go in the
// top bucket and bounds below it in the bottom one: pop checks each
// slot's own bound, so only their order suffers. Its zero value is an
// empty queue.
type bucketQueue struct {
	head  [queueBuckets]int32 // per bucket, the first slot plus one (0: none)
	next  []int32             // per slot, the next slot in its bucket plus one
	bound []float64           // per slot
	lo    int                 // the lowest bucket used since the last reset
	hi    int                 // the highest bucket used since the last reset
	top   int                 // the highest bucket that may hold slots
}

const (
	queueLow     = -256
	queueBuckets = 1024
)

// reset empties the queue.
func (q *bucketQueue) reset() {
	for k := q.lo; k <= q.hi; k++ {
		q.head[k] = 0
	}
	q.next, q.bound = q.next[:0], q.bound[:0]
	q.lo, q.hi, q.top = queueBuckets, -1, -1
}

// bucket is the bucket of bound b.
func bucket(b float64) int {
	switch {
	case b >= queueLow+queueBuckets-1:
		return queueBuckets - 1
	case b < queueLow+1:
		return 0
	}
	k := int(b) // toward zero: one less for a negative bound with a fraction
	if float64(k) > b {
		k--
	}
	return k - queueLow
}

// add puts a new slot of bound b in the queue and returns its index
// (the slots are numbered in the order added).
func (q *bucketQueue) add(b float64) int {
	i := len(q.bound)
	q.bound = append(q.bound, b)
	q.next = append(q.next, 0)
	q.link(i, bucket(b))
	return i
}

// push puts slot i back with bound b (at most its bound before).
func (q *bucketQueue) push(i int, b float64) {
	q.bound[i] = b
	q.link(i, bucket(b))
}

// link puts slot i at the head of bucket k.
func (q *bucketQueue) link(i, k int) {
	q.next[i] = q.head[k]
	q.head[k] = int32(i + 1)
	q.top, q.hi, q.lo = max(q.top, k), max(q.hi, k), min(q.lo, k)
}

// pop takes a slot of the highest bound bucket whose bound reaches thr;
// ok is false when no slot left can.
func (q *bucketQueue) pop(thr float64) (int, bool) {
	for ; q.top >= 0; q.top-- {
		if q.top < queueBuckets-1 && float64(q.top+queueLow+1) <= thr {
			// Every bound in this bucket and below is under thr.
			return 0, false
		}
		for q.head[q.top] != 0 {
			i := q.head[q.top] - 1
			q.head[q.top] = q.next[i]
			if q.bound[i] >= thr {
				return int(i), true
			}
		}
	}
	return 0, false
}

// TopN implements movegen.Searcher: the n placements of highest equity,
// through the anagram tables, slot by slot best bound first.
func (g *Anagram) TopN(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, out []movegen.Scored) []movegen.Scored {
	return g.TopNIn(b, rack, leave, n, board.AllLines(b.Size), math.Inf(-1), out)
}

// TopNIn implements movegen.LineSearcher: TopN over the intervals of
// lines, and over the placements of equity floor or more (the slots are
// solved only while their bound reaches the floor).
func (g *Anagram) TopNIn(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, lines board.Lines, floor float64, out []movegen.Scored) []movegen.Scored {
	return g.topN(b, rack, leave, n, lines, nil, floor, out)
}

// TopNTouching implements movegen.ChangeSearcher: TopNIn over the
// changed lines, keeping to the intervals that hold a changed square or
// end next to one, which are exactly the placements whose main word
// touches the changes.
func (g *Anagram) TopNTouching(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, ch *board.Changes, floor float64, out []movegen.Scored) []movegen.Scored {
	return g.topN(b, rack, leave, n, ch.Lines, ch, floor, out)
}

// topN is TopNIn, kept to the intervals that touch the changes touch
// when they are given.
func (g *Anagram) topN(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, lines board.Lines, touch *board.Changes, floor float64, out []movegen.Scored) []movegen.Scored {
	if n <= 0 {
		return out[:0]
	}
	g.stats = Stats{}
	g.best.prepare(b, rack, leave, n, lines, touch, floor, g.filter.of(g.Tables.Lex, b.Variant.RackSize))
	g.best.runs = g.Tables.runs
	g.st.setup(b, rack, leave, true, g.Tables.PER, g.best.sink, &g.stats)
	if g.st.nBlank > g.Tables.MaxBlanks {
		panic("anagram: rack holds more blanks than the tables were built for")
	}
	return g.best.search(&g.st, b, g.interval, out)
}

// Best implements movegen.Searcher.
func (g *Anagram) Best(b *board.Board, rack *alphabet.Rack, leave movegen.Leave) (movegen.Scored, bool) {
	return bestOf(g.TopN(b, rack, leave, 1, g.one[:0]))
}

// TopN implements movegen.Searcher: the n placements of highest equity,
// through the IWM tables, slot by slot best bound first.
func (g *IWM) TopN(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, out []movegen.Scored) []movegen.Scored {
	return g.TopNIn(b, rack, leave, n, board.AllLines(b.Size), math.Inf(-1), out)
}

// TopNIn implements movegen.LineSearcher, as Anagram.TopNIn does.
func (g *IWM) TopNIn(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, lines board.Lines, floor float64, out []movegen.Scored) []movegen.Scored {
	return g.topN(b, rack, leave, n, lines, nil, floor, out)
}

// TopNTouching implements movegen.ChangeSearcher, as
// Anagram.TopNTouching does.
func (g *IWM) TopNTouching(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, ch *board.Changes, floor float64, out []movegen.Scored) []movegen.Scored {
	return g.topN(b, rack, leave, n, ch.Lines, ch, floor, out)
}

// topN is Anagram.topN through the IWM tables.
func (g *IWM) topN(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, lines board.Lines, touch *board.Changes, floor float64, out []movegen.Scored) []movegen.Scored {
	if n <= 0 {
		return out[:0]
	}
	g.stats = Stats{}
	g.best.prepare(b, rack, leave, n, lines, touch, floor, g.filter.of(g.Tables.Lex, b.Variant.RackSize))
	g.st.prepare(b, rack, g.best.sink, &g.stats)
	return g.best.search(&g.st.ivState, b, g.st.ivFunc, out)
}

// Best implements movegen.Searcher.
func (g *IWM) Best(b *board.Board, rack *alphabet.Rack, leave movegen.Leave) (movegen.Scored, bool) {
	return bestOf(g.TopN(b, rack, leave, 1, g.one[:0]))
}

var (
	_ movegen.ChangeSearcher = (*Anagram)(nil)
	_ movegen.ChangeSearcher = (*IWM)(nil)
)

// bestOf returns the first of a TopN list, with its tiles copied.
func bestOf(top []movegen.Scored) (movegen.Scored, bool) {
	if len(top) == 0 {
		return movegen.Scored{}, false
	}
	sc := top[0]
	sc.Move = movegen.Clone(&sc.Move)
	return sc, true
}

// filterCache holds a generator's anagram filter (movegen.LexiconAnagramFilter,
// which names a word list by hashing it) for the rack size it was asked
// for.
type filterCache struct {
	f        *movegen.AnagramFilter
	rackSize int
}

func (c *filterCache) of(lex *lexicon.Lexicon, rackSize int) *movegen.AnagramFilter {
	if c.f == nil || c.rackSize != rackSize {
		c.f, c.rackSize = movegen.LexiconAnagramFilter(lex, rackSize), rackSize
	}
	return c.f
}

// CacheBoards implements movegen.BoardCacher: with on, the searches keep
// the geometry of the boards they see more than once (see geoCache).
func (g *Anagram) CacheBoards(on bool) { g.best.geo.on = on }

// CacheBoards implements movegen.BoardCacher, as Anagram.CacheBoards does.
func (g *IWM) CacheBoards(on bool) { g.best.geo.on = on }
