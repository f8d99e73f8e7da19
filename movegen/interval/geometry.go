package interval

import (
	"hash/maphash"
	"slices"
	"unsafe"

	"atril/alphabet"
	"atril/board"
	"atril/movegen"
	"atril/variant"
)

// A best-by-equity search bounds every interval of the board (or of the
// lines near a placement's changes) before it solves the best few, and
// most of that work depends on the board alone: which intervals there
// are, their board letters, multipliers and cross words. A simulation
// searches the same boards again and again with other racks (its
// replies: the position's board for every iteration's ranking, each
// candidate's board for every iteration's reply). With CacheBoards on,
// a board seen a second time (the same tiles, the same lines, the same
// changes) has that work recorded as its geometry, and every later
// search of it bounds its intervals from the record: per rack, only
// whether each empty square admits a rack tile, the highest-scoring rack
// tile it admits, and the sums of the bound. A board seen once is
// searched as without the cache, paying only its key; with CacheBoards
// off (the default, for searches that never repeat a board: self-play,
// the benchmarks) nothing changes. The cache belongs to one generator
// value, like the rest of its state (see movegen.Generator's Fork).

// geometry is the rack-independent part of the intervals of a board: the
// intervals of the lines searched that hold at most the variant's rack
// size of empty squares, each of them open to some letter, and reach a
// halo square (and touch the changes, when the search keeps to them), in
// the order addLine bounds them.
type geometry struct {
	used uint64 // the cache's clock when last used
	// The key, compared in full on a hash match.
	v       *variant.Variant
	grid    []alphabet.Tile
	lines   board.Lines
	touch   bool
	squares [2][64]uint64 // the changes' squares on the lines, when touch
	// cross holds the cross-set of each distinct empty square the
	// intervals hold.
	cross []uint64
	ivs   []geoInterval
	// Per empty square of each interval, in order from its start (at
	// geoInterval.at): the index of the square in cross, its letter
	// multiplier and its cross-word multiplier; and the interval's
	// multipliers highest first.
	sq   []uint16
	lm   []int32
	cc   []int32
	mult []int32
}

// geoInterval is an interval of a geometry.
type geoInterval struct {
	dir                     board.Dir
	line, start, len, empty int8
	boardSum, wm, cross     int32
	hb                      uint64
	at                      int32
}

// geoCache holds the geometries of the boards a generator searched more
// than once, and the keys of the boards it searched once.
type geoCache struct {
	on      bool
	seed    maphash.Seed
	seen    [4096]uint64
	entries map[uint64]*geometry
	free    []*geometry
	clock   uint64 // counts the lookups
	// Scratch for the rack being searched: per square of the geometry,
	// whether a rack tile may go there, and the highest score of one
	// that may.
	open []bool
	fit  []int32
	// Scratch for a build: per square of the line, its index in cross
	// (−1: none yet).
	idx [MaxBoard]int32
}

// maxGeometries bounds the geometries kept: a simulation's move needs one
// per candidate and one for the position; past the bound the half used
// least recently are dropped.
const maxGeometries = 96

// key hashes a search's board and lines (and changes, when touch is
// set).
func (c *geoCache) key(b *board.Board, lines board.Lines, touch *board.Changes) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	g := b.Grid()
	h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(g))), len(g)))
	var buf [8]byte
	put := func(x uint64) {
		for i := range buf {
			buf[i] = byte(x >> (8 * i))
		}
		h.Write(buf[:])
	}
	put(lines[0])
	put(lines[1])
	if touch != nil {
		for d := range 2 {
			for r := 0; r < b.Size; r++ {
				if lines.Has(board.Dir(d), r) {
					put(touch.Squares[d][r])
				}
			}
		}
	}
	return h.Sum64()
}

// lookup returns the geometry of the search (nil when there is none),
// its key, and whether the caller should build it: the key was seen
// before.
func (c *geoCache) lookup(b *board.Board, lines board.Lines, touch *board.Changes) (*geometry, uint64, bool) {
	if c.entries == nil {
		c.seed = maphash.MakeSeed()
		c.entries = make(map[uint64]*geometry)
	}
	k := c.key(b, lines, touch)
	c.clock++
	if g := c.entries[k]; g != nil && g.matches(b, lines, touch) {
		g.used = c.clock
		return g, k, false
	}
	slot := &c.seen[k%uint64(len(c.seen))]
	if *slot == k {
		return nil, k, true
	}
	*slot = k
	return nil, k, false
}

// matches reports whether g is the geometry of the search.
func (g *geometry) matches(b *board.Board, lines board.Lines, touch *board.Changes) bool {
	if g.v != b.Variant || g.lines != lines || g.touch != (touch != nil) || !slices.Equal(g.grid, b.Grid()) {
		return false
	}
	if touch != nil {
		for d := range 2 {
			for r := 0; r < b.Size; r++ {
				if lines.Has(board.Dir(d), r) && g.squares[d][r] != touch.Squares[d][r] {
					return false
				}
			}
		}
	}
	return true
}

// start returns an empty geometry for the search, kept under key k.
func (c *geoCache) start(b *board.Board, lines board.Lines, touch *board.Changes, k uint64) *geometry {
	if len(c.entries) >= maxGeometries {
		c.evict()
	}
	var g *geometry
	if n := len(c.free); n > 0 {
		g, c.free = c.free[n-1], c.free[:n-1]
	} else {
		g = new(geometry)
	}
	g.v, g.lines, g.touch, g.used = b.Variant, lines, touch != nil, c.clock
	g.grid = append(g.grid[:0], b.Grid()...)
	if touch != nil {
		g.squares = touch.Squares
	}
	g.cross, g.ivs = g.cross[:0], g.ivs[:0]
	g.sq, g.lm, g.cc, g.mult = g.sq[:0], g.lm[:0], g.cc[:0], g.mult[:0]
	c.entries[k] = g
	return g
}

// evict drops the half of the geometries used least recently.
func (c *geoCache) evict() {
	stamps := make([]uint64, 0, len(c.entries))
	for _, g := range c.entries {
		stamps = append(stamps, g.used)
	}
	slices.Sort(stamps)
	cut := stamps[len(stamps)/2]
	for k, g := range c.entries {
		if g.used < cut {
			c.free = append(c.free, g)
			delete(c.entries, k)
		}
	}
}

// startLine prepares the build of a line's intervals.
func (c *geoCache) startLine() {
	for i := range c.idx {
		c.idx[i] = -1
	}
}

// record adds the interval of the loaded line from square start, length
// long, whose empty squares are in bs.ext and at pos, to g.
func (c *geoCache) record(g *geometry, bs *bestSearch, li *lineInfo, start, length int, pos []int8, boardSum int32, hb uint64) {
	at, nsq := len(g.sq), len(pos)
	for _, p := range pos {
		if c.idx[p] < 0 {
			c.idx[p] = int32(len(g.cross))
			g.cross = append(g.cross, li.cross[p])
		}
		g.sq = append(g.sq, uint16(c.idx[p]))
	}
	g.lm = slices.Grow(g.lm, nsq)[:at+nsq]
	g.cc = slices.Grow(g.cc, nsq)[:at+nsq]
	g.mult = slices.Grow(g.mult, nsq)[:at+nsq]
	wm, cross := bs.ext.Terms(g.lm[at:], g.cc[at:], g.mult[at:])
	g.ivs = append(g.ivs, geoInterval{dir: li.d, line: int8(li.line), start: int8(start), len: int8(length), empty: int8(nsq),
		boardSum: boardSum, wm: wm, cross: cross, hb: hb, at: int32(at)})
}

// bound bounds the intervals of g for the search's rack and keeps them as
// slots, as addLine does.
func (c *geoCache) bound(g *geometry, bs *bestSearch, letters uint64, rackLen, rackSize, bingo int) {
	n := len(g.cross)
	c.open = slices.Grow(c.open[:0], n)[:n]
	c.fit = slices.Grow(c.fit[:0], n)[:n]
	for j, x := range g.cross {
		c.open[j] = x&letters != 0
		c.fit[j] = bs.scores.Fit(x)
	}
	rs := bs.scores.Sorted()
intervals:
	for i := range g.ivs {
		iv := &g.ivs[i]
		nsq := int(iv.empty)
		if nsq > rackLen {
			continue
		}
		at := int(iv.at)
		main, crossFit := int32(0), int32(0)
		for k, q := range g.sq[at : at+nsq] {
			if !c.open[q] {
				continue intervals
			}
			f := c.fit[q]
			main += g.lm[at+k] * f
			crossFit += g.cc[at+k] * f
		}
		sc := movegen.ExtentBound(rs, iv.boardSum, iv.wm, iv.cross, iv.wm*main+crossFit, g.mult[at:at+nsq])
		bs.addSlot(iv.dir, int(iv.line), int(iv.start), int(iv.len), nsq, sc, iv.hb, rackSize, bingo)
	}
}
