// Package interval holds the move generators that work on intervals of
// the board rather than walking an automaton: the Anagram Method
// (Anagram 2018) and the Intern Words Method (Sánchez Bello 2025), their
// precomputed tables and their instrumentation counters. They implement
// movegen.Generator and register themselves with movegen.Register as
// "anagram", "iwm", "iwm-parallel", "iwm-adaptive" and "iwm-fast", so a
// program that imports this package can select them with --algo.
package interval

import (
	"fmt"
	"math"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/multiset"
	"atril/variant"
)

// This file holds what the interval-based generators (anagram, iwm)
// share: intervals with their inner words, the Hand-Interval and
// Multiset-Interval problems, placing a candidate word on an interval
// (cross-sets, blank designations, scoring exactly like move.Score), and
// the instrumentation counters.
//
// Definitions (Sánchez Bello 2025 ch. 4, Anagram 2018 section 2.3). The halo is the set of
// empty squares next to a tile, or the start square on an empty board.
// An interval is a run of at least two consecutive squares of one line
// (row for across, column for down), bounded on both sides by an empty
// square or the edge, containing at least one halo square and at most F
// empty squares (F: tiles on the rack). An inner word of an interval is a
// maximal run of tiles inside it; a placed inner word is (word, start,
// interval length); the main inner word is the longest one.

// MaxBoard is the largest board side the interval generators handle.
const MaxBoard = 32

// MaxInner is the most inner words an interval can hold.
const MaxInner = MaxBoard / 2

// InnerWord is an inner word of an interval: the tiles at positions
// Start..Start+Len-1 of the interval.
type InnerWord struct {
	Start, Len int
}

// Interval is a run of squares of one line on which a move may be placed.
type Interval struct {
	Dir   board.Dir
	Line  int // row (across) or column (down)
	Start int // first square along the line
	Len   int
	Empty int // empty squares
	// Inner words in order along the line; Main indexes the longest (the
	// first of equal length), or is -1 when the interval holds no tile.
	Inner  [MaxInner]InnerWord
	NInner int
	Main   int
}

// MainWord returns the placed main inner word of iv on line tiles (the
// board line of iv): its tiles (letters, blanks as their letters written
// into buf), start within the interval and the interval length.
func (iv *Interval) MainWord(line []alphabet.Tile, buf []alphabet.Tile) (word []alphabet.Tile, pos, length int) {
	if iv.Main < 0 {
		return buf[:0], 0, iv.Len
	}
	w := iv.Inner[iv.Main]
	out := buf[:0]
	for i := 0; i < w.Len; i++ {
		out = append(out, line[iv.Start+w.Start+i].Letter())
	}
	return out, w.Start, iv.Len
}

// HandInterval is an instance of the Hand-Interval problem: list every
// candidate word of an interval for a rack. Base is the multiset of the
// letters already in the interval; Combined is Base ⊎ the rack's letters.
type HandInterval struct {
	Interval *Interval
	Rack     *alphabet.Rack
}

// MultisetInterval is an instance of the Multiset-Interval problem: the
// words that can be built from the letters Letters (a sub-rack ⊎ the
// interval's letters, here as a PER) and contain the main placed inner
// word PIW of the interval (an index into the generator's placed
// inner-word table; the empty inner word of an interval of length n has
// its own index).
type MultisetInterval struct {
	Letters uint64
	PIW     uint32
}

// Stats are the instrumentation counters of one Generate call.
type Stats struct {
	Intervals  int // intervals on the board (both directions)
	Instances  int // Hand-Interval instances considered (after pruning)
	Lookups    int // table lookups (Multiset-Interval or anagram keys)
	Candidates int // candidate words checked against the interval
	Moves      int // moves produced
}

// Add adds o to s.
func (s *Stats) Add(o *Stats) {
	s.Intervals += o.Intervals
	s.Instances += o.Instances
	s.Lookups += o.Lookups
	s.Candidates += o.Candidates
	s.Moves += o.Moves
}

// lineInfo is one line of the board in one orientation.
type lineInfo struct {
	d      board.Dir
	line   int
	n      int
	tiles  []alphabet.Tile
	cross  []uint64
	cscore []int16
	prem   []variant.Premium
	halo   [MaxBoard]bool
	nhalo  int // halo squares in the line
	// open[c]: a rack tile may go on empty square c (its cross-set
	// holds one of the letters load was given).
	open [MaxBoard]bool
	// Cache of the inner-word id of the run of tiles starting at a
	// square (the same run is inside many intervals of the line).
	runKnown uint64
	runID    [MaxBoard]uint32
}

// load reads line of direction d; letters is the rack's letters as a
// cross-set (all ones with a blank: rackLetters), which sets open.
func (li *lineInfo) load(b *board.Board, d board.Dir, line int, letters uint64) {
	li.d, li.line, li.n = d, line, b.Size
	li.tiles = b.Line(d, line)
	li.cross = b.CrossSets(d, line)
	li.cscore = b.CrossScores(d, line)
	li.prem = b.Premiums(d, line)
	li.runKnown = 0
	empty := b.IsEmpty()
	li.nhalo = 0
	for c := 0; c < b.Size; c++ {
		h := false
		li.open[c] = li.tiles[c] == board.Empty && li.cross[c]&letters != 0
		if li.tiles[c] == board.Empty {
			row, col := c, line
			if d == board.Across {
				row, col = line, c
			}
			if empty {
				h = row == b.Variant.StartRow && col == b.Variant.StartCol
			} else {
				h = (c > 0 && li.tiles[c-1] != board.Empty) || (c+1 < b.Size && li.tiles[c+1] != board.Empty) ||
					li.cscore[c] != board.NoCross
			}
		}
		li.halo[c] = h
		if h {
			li.nhalo++
		}
	}
}

// intervals calls f for each interval of the line holding at most
// maxEmpty empty squares, all of them open (a square no rack tile can
// take holds no placement). The Interval passed is reused between calls.
func (li *lineInfo) intervals(maxEmpty int, iv *Interval, f func(iv *Interval)) {
	li.spans(maxEmpty, iv, func(iv *Interval) {
		li.inner(iv)
		f(iv)
	})
}

// spans is intervals without the inner words (Inner, NInner and Main
// are left as they were): the squares and the empty count only.
func (li *lineInfo) spans(maxEmpty int, iv *Interval, f func(iv *Interval)) {
	if li.nhalo == 0 {
		return
	}
	n := li.n
	for s := 0; s < n; s++ {
		if s > 0 && li.tiles[s-1] != board.Empty {
			continue
		}
		empties, halo := 0, false
		for e := s; e < n; e++ {
			if li.tiles[e] == board.Empty {
				empties++
				if empties > maxEmpty || !li.open[e] {
					break
				}
				if li.halo[e] {
					halo = true
				}
			}
			if e+1 < n && li.tiles[e+1] != board.Empty {
				continue
			}
			if e == s || !halo {
				continue
			}
			iv.Dir, iv.Line, iv.Start, iv.Len, iv.Empty = li.d, li.line, s, e-s+1, empties
			f(iv)
		}
	}
}

// inner fills the inner words of iv and picks the main one.
func (li *lineInfo) inner(iv *Interval) {
	iv.NInner, iv.Main = 0, -1
	best := 0
	for i := 0; i < iv.Len; {
		if li.tiles[iv.Start+i] == board.Empty {
			i++
			continue
		}
		j := i
		for j < iv.Len && li.tiles[iv.Start+j] != board.Empty {
			j++
		}
		iv.Inner[iv.NInner] = InnerWord{Start: i, Len: j - i}
		if j-i > best {
			best, iv.Main = j-i, iv.NInner
		}
		iv.NInner++
		i = j
	}
}

// placer holds the per-interval state for placing candidate words and
// emitting moves without allocating.
type placer struct {
	v     *variant.Variant
	li    *lineInfo
	iv    *Interval
	sink  movegen.Sink
	stats *Stats
	m     move.Move
	tiles [MaxBoard]alphabet.Tile

	// Per interval.
	fixedScore int
	rackSize   int
	emptyPos   [MaxBoard]int8
	nEmpty     int
	// Blank assignment budgets.
	real      [alphabet.MaxLetters + 1]int8
	blankLet  [alphabet.MaxLetters + 1]int8
	blankLeft int
	word      []alphabet.Tile
}

func (p *placer) init(v *variant.Variant, sink movegen.Sink, stats *Stats) {
	p.v, p.sink, p.stats = v, sink, stats
	p.m.Kind = move.Place
}

// begin prepares the placer for interval iv of line li. It reports false
// when the interval cannot hold any move: an empty square with an empty
// cross-set, or a one-tile play that is listed in the other direction.
func (p *placer) begin(li *lineInfo, iv *Interval) bool {
	p.li, p.iv = li, iv
	p.fixedScore, p.nEmpty = 0, 0
	for i := 0; i < iv.Len; i++ {
		t := li.tiles[iv.Start+i]
		if t != board.Empty {
			p.fixedScore += p.v.Score(t)
			continue
		}
		if li.cross[iv.Start+i] == 0 {
			return false
		}
		p.emptyPos[p.nEmpty] = int8(i)
		p.nEmpty++
	}
	// Counting rule: a one-tile play is listed across when it forms an
	// across word of two or more tiles.
	if iv.Empty == 1 && iv.Dir == board.Down && li.cscore[iv.Start+int(p.emptyPos[0])] != board.NoCross {
		return false
	}
	if iv.Dir == board.Across {
		p.m.Row, p.m.Col = iv.Line, iv.Start
	} else {
		p.m.Row, p.m.Col = iv.Start, iv.Line
	}
	p.m.Dir = iv.Dir
	p.m.Tiles = p.tiles[:iv.Len]
	return true
}

// fits reports whether word w (length iv.Len) matches the tiles already in
// the interval and every letter on an empty square is in its cross-set.
func (p *placer) fits(w []alphabet.Tile) bool {
	li, s := p.li, p.iv.Start
	for i, x := range w {
		t := li.tiles[s+i]
		if t == board.Empty {
			if li.cross[s+i]&(1<<x) == 0 {
				return false
			}
		} else if t.Letter() != x {
			return false
		}
	}
	return true
}

// emitPlain emits w with every new tile a real tile.
func (p *placer) emitPlain(w []alphabet.Tile) {
	for i := 0; i < len(w); i++ {
		p.tiles[i] = move.PlayThrough
	}
	for k := 0; k < p.nEmpty; k++ {
		i := p.emptyPos[k]
		p.tiles[i] = w[i]
	}
	p.emit()
}

// emit scores the move in p.tiles and passes it to the sink.
func (p *placer) emit() {
	li, s := p.li, p.iv.Start
	sum := movegen.Tally{Main: int32(p.fixedScore), WordMul: 1}
	for k := 0; k < p.nEmpty; k++ {
		i := int(p.emptyPos[k])
		t := p.tiles[i]
		pr := li.prem[s+i]
		ls := int32(0)
		if !t.IsBlanked() {
			ls = int32(p.v.Scores[t]) * int32(pr.LetterMul)
		}
		sum.Lay(ls, int32(pr.WordMul), li.cscore[s+i])
	}
	total := int(sum.Total())
	if p.nEmpty == p.v.RackSize {
		total += p.v.BingoBonus
	}
	p.m.Score = total
	p.stats.Moves++
	p.sink(&p.m)
}

// emitBlanks emits every way of playing w's new letters with the real
// tiles in p.real and blanks: p.blankLeft blanks in all, at most
// p.blankLet[x] of them standing for letter x.
func (p *placer) emitBlanks(w []alphabet.Tile) {
	for i := 0; i < len(w); i++ {
		p.tiles[i] = move.PlayThrough
	}
	p.word = w
	p.assign(0)
}

func (p *placer) assign(k int) {
	if k == p.nEmpty {
		p.emit()
		return
	}
	i := p.emptyPos[k]
	x := p.word[i]
	if p.real[x] > 0 {
		p.real[x]--
		p.tiles[i] = x
		p.assign(k + 1)
		p.real[x]++
	}
	if p.blankLeft > 0 && p.blankLet[x] > 0 {
		p.blankLeft--
		p.blankLet[x]--
		p.tiles[i] = x | alphabet.BlankBit
		p.assign(k + 1)
		p.blankLet[x]++
		p.blankLeft++
	}
}

// ivState is the per-call state shared by the interval generators.
type ivState struct {
	b       *board.Board
	tab     *multiset.Table
	li      lineInfo
	iv      Interval
	p       placer
	stats   *Stats
	rackLen int
	nBlank  int
	letters uint64 // the rack's letters as a cross-set (all with a blank)
	// Distinct real letters of the rack and their counts.
	rl  [alphabet.MaxLetters + 1]alphabet.Tile
	rc  [alphabet.MaxLetters + 1]int8
	nrl int
	// rack counts by letter (real tiles).
	rack [alphabet.MaxLetters + 1]int8
	// cur: real letters of the sub-rack being enumerated.
	cur [alphabet.MaxLetters + 1]int8
	v   int // empty squares of the current interval
	// Candidates of intervals holding no tile, by length: they depend
	// only on the rack and the length, so they are looked up once per
	// call and shared by all such intervals. Each keeps the sub-rack it
	// came from (packed counts of the rack's distinct letters) and its
	// blanks, for the blank designations.
	collect bool
	base0   multiset.PER // base of the memo entry being filled
	// Per-call memo of candidate lists keyed by (letters in the
	// interval, empty squares): intervals holding the same letters with
	// the same number of empty squares have the same candidates (the
	// words whose letters are those ⊎ a sub-rack), however the letters
	// lie; only fits differs. memoGen invalidates all slots at once.
	memo     [memoSlots]memoSlot
	memoGen  uint32
	memoFlat []emptyCand
	// What the memo was filled for: a best-by-equity search (memoBest)
	// of memoRack under memoLeave (nil, or a movegen.FixedLeave).
	memoBest  bool
	memoRack  alphabet.Rack
	memoLeave movegen.Leave
	// Leave pruning, for best-by-equity searches (usePrune): dfs skips
	// the sub-racks whose kept tiles are worth less than cut (the
	// searcher sets it per interval: the threshold to beat less the
	// interval's score bound). rad[i] is the place value of the rack's
	// i-th distinct real letter in lb's sub-rack index (blankRad the
	// blank's), pidx the index of the sub-rack being enumerated.
	lb       *movegen.LeaveBounds
	prune    bool
	cut      float64
	rad      [alphabet.MaxLetters + 1]int
	blankRad int
	pidx     int
}

// usePrune turns on leave pruning with the bounds lb, prepared for the
// rack that setup was given; off when lb cannot index its sub-racks.
func (st *ivState) usePrune(lb *movegen.LeaveBounds) {
	st.prune, st.lb, st.cut = false, lb, math.Inf(-1)
	br, ok := lb.Radix(alphabet.Blank)
	if !ok {
		return
	}
	st.blankRad = br
	for i := 0; i < st.nrl; i++ {
		st.rad[i], _ = lb.Radix(st.rl[i])
	}
	st.prune = true
}

// pruned reports whether the current sub-rack, completed by j blanks,
// keeps tiles worth less than cut.
func (st *ivState) pruned(j int) bool {
	return st.prune && st.lb.KeptValue(st.pidx+j*st.blankRad) < st.cut
}

// blankMask is the set of letters a blank may stand for in the current
// interval: the union of the cross-sets of its empty squares (0 without
// a blank on the rack).
func (st *ivState) blankMask(iv *Interval) uint64 {
	var m uint64
	if st.nBlank > 0 {
		for k := 0; k < st.p.nEmpty; k++ {
			m |= st.li.cross[iv.Start+int(st.p.emptyPos[k])]
		}
	}
	return m
}

const memoSlots = 4096

// memoKeepMax is how many candidates the memo may hold before a search
// starts it afresh instead of keeping it.
const memoKeepMax = 1 << 15

type memoSlot struct {
	key        uint64
	v          uint8
	gen        uint32
	start, end int32
	cut        float64 // the leave cut the entry was filled with
}

type emptyCand struct {
	wi uint32
	r  uint32 // 3 bits per distinct rack letter: count in the sub-rack
	j  uint8  // blanks
}

// subRack packs the current sub-rack (st.cur) as emptyCand.r does.
func (st *ivState) subRack() uint32 {
	var r uint32
	for i := 0; i < st.nrl; i++ {
		r |= uint32(st.cur[st.rl[i]]) << (3 * i)
	}
	return r
}

// collectCand records candidate wi of the current sub-rack with j blanks.
func (st *ivState) collectCand(wi uint32, j int) {
	st.memoFlat = append(st.memoFlat, emptyCand{wi: wi, r: st.subRack(), j: uint8(j)})
}

// shared solves iv from the memo entry of (base, v), filling it on first
// use with fill (which runs the generator's lookups with st.collect
// set, so they record candidates instead of placing them). It reports
// false when the memo is full (the caller then solves iv itself). The
// candidates' letters are read from words: candidate wi at
// words[wi*stride:].
func (st *ivState) shared(iv *Interval, base multiset.PER, words []alphabet.Tile, stride int, fill func()) bool {
	v := uint8(iv.Empty)
	h := (uint64(base)*0x9E3779B97F4A7C15 ^ uint64(v)*0xBF58476D1CE4E5B9) >> 52
	var slot *memoSlot
	for probe := 0; ; probe++ {
		if probe == 16 {
			return false
		}
		sl := &st.memo[(h+uint64(probe))&(memoSlots-1)]
		if sl.gen != st.memoGen || sl.key == uint64(base) && sl.v == v && sl.cut > st.cut {
			// A new entry, or one filled with a higher cut: (re)fill it.
			sl.key, sl.v, sl.gen, sl.cut = uint64(base), v, st.memoGen, st.cut
			sl.start = int32(len(st.memoFlat))
			st.collect = true
			fill()
			st.collect = false
			sl.end = int32(len(st.memoFlat))
			slot = sl
			break
		}
		if sl.key == uint64(base) && sl.v == v {
			slot = sl
			break
		}
	}
	n := iv.Len
	for _, c := range st.memoFlat[slot.start:slot.end] {
		st.stats.Candidates++
		o := int(c.wi) * stride
		w := words[o : o+n]
		if !st.p.fits(w) {
			continue
		}
		if c.j == 0 {
			st.p.emitPlain(w)
			continue
		}
		for i := 0; i < st.nrl; i++ {
			st.cur[st.rl[i]] = int8(c.r >> (3 * i) & 7)
		}
		st.exactBlanks(w, int(c.j))
		for i := 0; i < st.nrl; i++ {
			st.cur[st.rl[i]] = 0
		}
	}
	return true
}

func (st *ivState) setup(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, best bool, tab *multiset.Table, sink movegen.Sink, stats *Stats) {
	if b.Size > MaxBoard {
		panic(fmt.Sprintf("interval generators: board side %d, at most %d", b.Size, MaxBoard))
	}
	st.b, st.tab, st.stats = b, tab, stats
	st.p.init(b.Variant, sink, stats)
	st.p.rackSize = b.Variant.RackSize
	st.rackLen = rack.Len()
	// The memo's candidate lists depend on the rack and, through the
	// leave cut, on the leave, not on the board: a best-by-equity search
	// of the same rack under the same unchanging leave (a simulation
	// searches one rack on many boards) keeps them.
	fixed, isFixed := leave.(movegen.FixedLeave)
	keep := best && st.memoBest && *rack == st.memoRack && len(st.memoFlat) < memoKeepMax &&
		(leave == nil && st.memoLeave == nil || isFixed && st.memoLeave == movegen.Leave(fixed))
	st.memoBest, st.memoRack, st.memoLeave = best && (leave == nil || isFixed), *rack, nil
	if isFixed {
		st.memoLeave = fixed
	}
	if !keep {
		st.memoGen++
		if st.memoGen == 0 {
			st.memo = [memoSlots]memoSlot{}
			st.memoGen = 1
		}
		st.memoFlat = st.memoFlat[:0]
	}
	st.prune, st.pidx = false, 0
	st.nBlank = int(rack[alphabet.Blank])
	st.letters = rackLetters(rack)
	st.nrl = 0
	for l := 1; l <= b.Variant.Alphabet.Size(); l++ {
		st.rack[l] = int8(rack[l])
		st.cur[l] = 0
		if rack[l] > 0 {
			st.rl[st.nrl], st.rc[st.nrl] = alphabet.Tile(l), int8(rack[l])
			st.nrl++
		}
	}
}

// base returns the PER of the letters already in iv (Invalid if no word
// can hold them).
func (st *ivState) base(iv *Interval) multiset.PER {
	var p multiset.PER
	for i := 0; i < iv.Len; i++ {
		if t := st.li.tiles[iv.Start+i]; t != board.Empty {
			p = st.tab.Add(p, t.Letter())
		}
	}
	return p
}

// dfs enumerates the distinct sub-multisets of the rack's real letters
// from index i on, carrying key (the PER of the interval's letters ⊎ the
// letters chosen so far, recorded in st.cur) and the number used. At each
// sub-rack R with st.v − |R| ≤ blanks on the rack it calls leaf(key, j)
// with j = st.v − |R| blanks to complete it. An infeasible key prunes.
func (st *ivState) dfs(i int, key multiset.PER, used int, leaf func(multiset.PER, int)) {
	if j := st.v - used; j <= st.nBlank && !st.pruned(j) {
		leaf(key, j)
	}
	if used == st.v {
		return
	}
	for ; i < st.nrl; i++ {
		x := st.rl[i]
		k2 := key
		p0 := st.pidx
		for k := 1; k <= int(st.rc[i]) && used+k <= st.v; k++ {
			k2 = st.tab.Add(k2, x)
			if k2 == multiset.Invalid {
				break
			}
			st.cur[x] = int8(k)
			st.pidx = p0 + k*st.rad[i]
			st.dfs(i+1, k2, used+k, leaf)
		}
		st.cur[x] = 0
		st.pidx = p0
	}
}

// exactBlanks emits the placements of w in which the real tiles are
// exactly st.cur and the j blanks stand for the rest of the new letters.
func (st *ivState) exactBlanks(w []alphabet.Tile, j int) {
	p := &st.p
	for k := 0; k < p.nEmpty; k++ {
		x := w[p.emptyPos[k]]
		p.real[x] = st.cur[x]
		p.blankLet[x] = 0
	}
	for k := 0; k < p.nEmpty; k++ {
		p.blankLet[w[p.emptyPos[k]]]++
	}
	ok := true
	var done uint64
	for k := 0; k < p.nEmpty; k++ {
		x := w[p.emptyPos[k]]
		if done&(1<<x) == 0 {
			done |= 1 << x
			p.blankLet[x] -= p.real[x]
			if p.blankLet[x] < 0 {
				ok = false
			}
		}
	}
	if ok {
		p.blankLeft = j
		p.emitBlanks(w)
	}
	for k := 0; k < p.nEmpty; k++ {
		x := w[p.emptyPos[k]]
		p.real[x], p.blankLet[x] = 0, 0
	}
}

// freeBlanks emits every placement of w using the rack's real tiles and
// up to the rack's blanks for any letters.
func (st *ivState) freeBlanks(w []alphabet.Tile) {
	p := &st.p
	for k := 0; k < p.nEmpty; k++ {
		x := w[p.emptyPos[k]]
		p.real[x] = st.rack[x]
		p.blankLet[x] = 127
	}
	p.blankLeft = st.nBlank
	p.emitBlanks(w)
	for k := 0; k < p.nEmpty; k++ {
		x := w[p.emptyPos[k]]
		p.real[x], p.blankLet[x] = 0, 0
	}
}

// wordStore holds every word of a lexicon at a fixed stride (16 or 32
// tiles), so a candidate's letters are one cache line away from its id
// (the lexicon's own layout needs an offset read first).
type wordStore struct {
	data   []alphabet.Tile
	stride int
}

func newWordStore(lex *lexicon.Lexicon) wordStore {
	stride := 16
	for stride < lex.MaxLen() {
		stride *= 2
	}
	ws := wordStore{data: make([]alphabet.Tile, stride*lex.Len()), stride: stride}
	for i := 0; i < lex.Len(); i++ {
		copy(ws.data[i*stride:], lex.Word(i))
	}
	return ws
}

// word returns word i, which the caller knows has n letters.
func (ws *wordStore) word(i uint32, n int) []alphabet.Tile {
	o := int(i) * ws.stride
	return ws.data[o : o+n]
}

// rackLetters is the set of letters a tile of rack can be, as a
// cross-set (bit l: letter l): its letters, or every letter when it
// holds a blank.
func rackLetters(rack *alphabet.Rack) uint64 {
	if rack[alphabet.Blank] > 0 {
		return ^uint64(0)
	}
	var m uint64
	for l := 1; l < len(rack); l++ {
		if rack[l] > 0 {
			m |= 1 << l
		}
	}
	return m
}
