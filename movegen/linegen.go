package movegen

import (
	"math/bits"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon/automaton"
	"atril/move"
)

// lineGen is the state of a generation, shared by the DAWG and GADDAG
// generators: the rack, the line being searched, the tiles placed so far
// and the running score.
type lineGen struct {
	arcs []automaton.Arc
	b    *board.Board
	sink Sink

	// rack: count per letter (index 0: blanks) and the letters present.
	rack     [alphabet.MaxLetters + 1]uint8
	rackMask uint64
	all      uint64
	tiles    int // tiles left on the rack

	score     [alphabet.MaxLetters + 1]int32 // face value of each letter code
	rackSize  int
	bingo     int
	emptyB    bool
	startR    int // start square in the current orientation
	startC    int
	n         int
	dir       board.Dir
	row       int
	line      []alphabet.Tile
	cross     []uint64
	cscore    []int16
	lmul      [32]int32
	wmul      [32]int32
	anchorCol int
	pivot     int // the GADDAG walk starts here: the anchor or the tile left of it
	leftLimit int
	start     int // first square of the word in the right phase

	sum    Tally // running score
	placed int

	// best, when set, keeps the best moves by equity instead of calling
	// sink.
	best *bestState
	// pruneLeft: best's loBound and leftMax bound the anchor searched.
	pruneLeft bool
	// blankAs is the set of letters a blank may stand for: every letter
	// but in the two passes of searchBlanks.
	blankAs uint64
	// blankOut, when not 0, makes record list only the moves with a blank
	// standing for one of its letters (searchBlanks' second pass).
	blankOut uint64

	buf [32]alphabet.Tile // tiles by column; move.PlayThrough for board tiles
	pre [32]alphabet.Tile // the DAWG generator's left part from the rack
	mv  move.Move
}

func (s *lineGen) setup(arcs []automaton.Arc, b *board.Board, rack *alphabet.Rack, sink Sink) {
	s.arcs = arcs
	s.b, s.sink = b, sink
	s.rack = *rack
	s.rackMask, s.tiles = 0, 0
	for l := 1; l < len(s.rack); l++ {
		if s.rack[l] > 0 {
			s.rackMask |= 1 << l
		}
	}
	for _, c := range s.rack {
		s.tiles += int(c)
	}
	s.all = b.AllLetters()
	v := b.Variant
	for l := range s.score {
		s.score[l] = 0
	}
	for l := 1; l < len(v.Scores) && l < len(s.score); l++ {
		s.score[l] = int32(v.Scores[l])
	}
	s.rackSize, s.bingo = v.RackSize, v.BingoBonus
	s.emptyB = b.IsEmpty()
	s.n = b.Size
	s.sum, s.placed = Tally{WordMul: 1}, 0
	s.blankAs, s.blankOut = ^uint64(0), 0
	s.mv = move.Move{Kind: move.Place}
}

func (s *lineGen) setLine(b *board.Board, d board.Dir, r int) {
	s.dir, s.row = d, r
	s.line = b.Line(d, r)
	s.cross = b.CrossSets(d, r)
	s.cscore = b.CrossScores(d, r)
	for i, p := range b.Premiums(d, r) {
		s.lmul[i], s.wmul[i] = int32(p.LetterMul), int32(p.WordMul)
	}
	s.startR, s.startC = board.Orient(d, b.Variant.StartRow, b.Variant.StartCol)
}

// anchor reports whether square c of the line is an anchor: empty and
// touching a tile, or the start square of an empty board.
func (s *lineGen) anchor(c int) bool {
	if s.line[c] != board.Empty {
		return false
	}
	if s.emptyB {
		return s.row == s.startR && c == s.startC
	}
	return (c > 0 && s.line[c-1] != board.Empty) || (c+1 < s.n && s.line[c+1] != board.Empty) ||
		s.cscore[c] != board.NoCross
}

// searchAnchor runs Gordon's walk from the anchor at c of the current
// line, with leftLimit the first square left of it a tile may go on.
// Where tiles lie next to the anchor the walk starts from them, so the
// GADDAG reads them once, not once per letter tried on the anchor: from
// the last tile of the run to its right (which also prunes the letters
// tried on the anchor and left of it), or else from the tile to its left.
// Otherwise it starts from the anchor itself.
func (s *lineGen) searchAnchor(c, leftLimit int, root automaton.Arc) {
	s.anchorCol = c
	s.leftLimit = leftLimit
	s.pivot = c
	switch {
	case c+1 < s.n && s.line[c+1] != board.Empty:
		s.pivot = c + 1
		for s.pivot+1 < s.n && s.line[s.pivot+1] != board.Empty {
			s.pivot++
		}
	case c > 0 && s.line[c-1] != board.Empty:
		s.pivot = c - 1
	}
	s.gaddagGen(s.pivot, root)
}

// child is the header of the target of the edge on symbol l of a state
// (with symbol set mask) known to have it.
func (s *lineGen) child(nd automaton.Arc, mask uint64, l uint) automaton.Arc {
	return s.arcs[nd.First&^automaton.Final+uint32(bits.OnesCount64(mask&(uint64(1)<<l-1)))]
}

// worth reports whether a state with symbol set mask can go on at square
// c: with the letter on it, or with a tile the rack and cross-set allow.
func (s *lineGen) worth(c int, mask uint64) bool {
	if t := s.line[c]; t != board.Empty {
		return mask&(1<<t.Letter()) != 0
	}
	return s.tiles > 0 && mask&s.cross[c]&s.allowed() != 0
}

// blankIn reports whether a blank on squares lo..hi of the word being
// built stands for a letter of set.
func (s *lineGen) blankIn(lo, hi int, set uint64) bool {
	for _, t := range s.buf[lo : hi+1] {
		if t != move.PlayThrough && t.IsBlanked() && set>>t.Letter()&1 != 0 {
			return true
		}
	}
	return false
}

// record hands the word on squares lo..hi of the line to the sink, if it
// is a move under the counting rule.
func (s *lineGen) record(lo, hi int) {
	if hi == lo {
		return // a one-letter main word is not listed in this direction
	}
	if s.placed == 1 && s.dir == board.Down && s.cscore[s.anchorCol] != board.NoCross {
		return // a one-tile play forming words both ways is listed across
	}
	if s.blankOut != 0 && !s.blankIn(lo, hi, s.blankOut) {
		return
	}
	m := &s.mv
	if s.dir == board.Across {
		m.Row, m.Col = s.row, lo
	} else {
		m.Row, m.Col = lo, s.row
	}
	m.Dir = s.dir
	m.Tiles = s.buf[lo : hi+1]
	total := s.sum.Total()
	if s.placed == s.rackSize {
		total += int32(s.bingo)
	}
	m.Score = int(total)
	if t := s.best; t != nil {
		if float64(total)+t.bestLeave[s.placed] < t.Threshold() {
			return
		}
		t.Offer(m, float64(total)+t.leaveValue(&s.rack))
		return
	}
	s.sink(m)
}
