package movegen

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/lexicon/automaton"
)

// Gaddag is Gordon's generator (Pícek 2008, 4.2.2): for each anchor it
// walks the GADDAG leftwards from a starting square (the reversed
// prefix), then, after the separator ◇, rightwards from the square after
// it. The starting square is the anchor, or, when tiles lie next to the
// anchor, the last tile of the run to its right (else the tile to its
// left), so the board's letters are read once and prune every letter
// tried on and left of the anchor; the walk turns right or ends only
// once the anchor is covered. Every move is found once, from the
// leftmost anchor it covers: going left it never places a tile on an
// earlier anchor of the line. Scores are built up tile by tile (letter
// sum, cross-word sums, word multiplier). It reads the board's
// cross-sets and cross scores and allocates nothing per move.
//
// A Gaddag holds the scratch state of its searches, so it serves one
// goroutine at a time; Fork makes another over the same GADDAG.
type Gaddag struct {
	*walkTables
	s    lineGen
	best bestState
	one  [1]Scored
	busy atomic.Bool
}

// walkTables is what a generator and its Forks share, read only: the
// automaton and its edge table, and, made on first use, the GADDAG's
// follow table.
type walkTables struct {
	a    *automaton.Automaton
	arcs []automaton.Arc
	root automaton.Arc

	followOnce sync.Once
	follow     []uint64

	// own is set for a GADDAG made for one task (NewOwnGaddag): its
	// anagram filters are kept here, not in the process-wide registry.
	own   bool
	anaMu sync.Mutex
	ana   map[int]*AnagramFilter // by shortest length
}

// follows returns the GADDAG's follow table: for each state, the letters
// that come right after the letters read to reach it (backwards, before
// the separator) in some word. They are the symbols out of the state past
// the separator, of this state or of any reached from it by more letters
// before the separator. Made once per generator and its Forks (a
// walk over the states before the separator, a few tens of milliseconds
// for a quarter of a million words).
func (t *walkTables) follows() []uint64 {
	t.followOnce.Do(func() { t.follow = buildFollow(t.a) })
	return t.follow
}

// buildFollow works out the follow table of a GADDAG (see follows).
func buildFollow(a *automaton.Automaton) []uint64 {
	f := make([]uint64, len(a.Nodes))
	done := make([]bool, len(a.Nodes))
	var rec func(n uint32) uint64
	rec = func(n uint32) uint64 {
		if done[n] {
			return f[n]
		}
		nd := a.Nodes[n]
		e := nd.First &^ automaton.Final
		var m uint64
		for mask := nd.Mask; mask != 0; mask &= mask - 1 {
			to := a.Targets[e]
			e++
			if bits.TrailingZeros64(mask) == automaton.Sep {
				m |= a.Nodes[to].Mask &^ (1 << automaton.Sep)
			} else {
				m |= rec(to)
			}
		}
		f[n], done[n] = m, true
		return m
	}
	rec(a.Root)
	return f
}

func newWalkTables(a *automaton.Automaton, kind automaton.Kind) *walkTables {
	if a.Kind != kind {
		panic("movegen: a " + kind.String() + " generator needs a " + kind.String() + ", got a " + a.Kind.String())
	}
	t := &walkTables{a: a}
	t.arcs, t.root = a.Arcs()
	return t
}

// Automaton returns the automaton the generator walks.
func (t *walkTables) Automaton() *automaton.Automaton { return t.a }

// attached makes a the lexicon's cross-set oracle (boards built on the
// lexicon then derive cross-sets with one walk) and returns it.
func attached(lex *lexicon.Lexicon, a *automaton.Automaton) *automaton.Automaton {
	lex.AttachCrossSets(automaton.NewCrossSets(a))
	return a
}

// NewGaddag returns Gordon's generator for a lexicon, loading its GADDAG
// from the cache directory or building (and caching) it.
func NewGaddag(lex *lexicon.Lexicon) *Gaddag {
	return NewGaddagFrom(attached(lex, automaton.CachedGADDAG(lex)))
}

// NewGaddagFrom returns Gordon's generator over a GADDAG already at hand.
func NewGaddagFrom(a *automaton.Automaton) *Gaddag {
	return &Gaddag{walkTables: newWalkTables(a, automaton.GADDAG)}
}

// NewOwnGaddag returns Gordon's generator for a word list made for one
// task, such as an endgame's list cut down to the words its tiles can
// still form: it builds the GADDAG (a few milliseconds for a few
// thousand words; no cache directory), attaches it to lex as its
// cross-set oracle, and keeps its edge table, follow table and anagram
// filters to itself and its Forks, registered nowhere, so that they go
// when the generator does.
func NewOwnGaddag(lex *lexicon.Lexicon) *Gaddag {
	a := automaton.BuildGADDAG(lex)
	t := &walkTables{a: a, own: true}
	t.arcs, t.root = a.NewArcs()
	lex.AttachCrossSets(automaton.CrossSetsOver(a, t.arcs, t.root))
	return &Gaddag{walkTables: t}
}

// anagrams returns the GADDAG's anagram filter for racks of rackSize.
func (g *Gaddag) anagrams(rackSize int) *AnagramFilter {
	if !g.own {
		return anagramFilterFor(g.a, g.arcs, g.root, rackSize+1)
	}
	g.anaMu.Lock()
	defer g.anaMu.Unlock()
	f := g.ana[rackSize+1]
	if f == nil {
		f = buildAnagramFilter(g.arcs, g.root, rackSize+1)
		if g.ana == nil {
			g.ana = map[int]*AnagramFilter{}
		}
		g.ana[rackSize+1] = f
	}
	return f
}

// Fork implements Generator: a generator over the same GADDAG with
// scratch state of its own, for another goroutine.
func (g *Gaddag) Fork() Generator { return &Gaddag{walkTables: g.walkTables} }

// enter marks the generator busy, and panics when another goroutine is
// already using it (a missing Fork).
func (g *Gaddag) enter() {
	if !g.busy.CompareAndSwap(false, true) {
		panic("movegen: a Gaddag used by two goroutines at once; give each its own Fork")
	}
}

// Name implements Generator.
func (g *Gaddag) Name() string { return "gaddag" }

// Generate implements Generator.
func (g *Gaddag) Generate(b *board.Board, rack *alphabet.Rack, sink Sink) {
	g.GenerateIn(b, rack, board.AllLines(b.Size), sink)
}

// GenerateIn implements LineGenerator.
func (g *Gaddag) GenerateIn(b *board.Board, rack *alphabet.Rack, lines board.Lines, sink Sink) {
	g.enter()
	defer g.busy.Store(false)
	s := &g.s
	s.setup(g.arcs, b, rack, sink)
	for d := board.Across; d <= board.Down; d++ {
		for r := 0; r < b.Size; r++ {
			if !lines.Has(d, r) {
				continue
			}
			s.setLine(b, d, r)
			prev := -1 // the previous anchor of the line
			for c := 0; c < b.Size; c++ {
				if !s.anchor(c) {
					continue
				}
				s.anchorCol = c
				if s.emptyB {
					s.openingWords(g.root, 0, true)
					continue
				}
				s.searchAnchor(c, prev+1, g.root)
				prev = c
			}
		}
	}
	s.sink = nil
	s.b = nil
}

// gaddagGen is Gordon's Gen at square c: play the board's letter, or
// each rack tile the state, the cross-set and the rack allow.
func (s *lineGen) gaddagGen(c int, nd automaton.Arc) {
	mask := nd.Mask()
	if t := s.line[c]; t != board.Empty {
		if mask&(1<<t.Letter()) != 0 {
			s.through(c, nd, mask, stepGaddag, 0)
		}
		return
	}
	if s.tiles == 0 {
		return
	}
	if cand := mask & s.cross[c] & s.allowed(); cand != 0 {
		s.place(c, nd, mask, cand, stepGaddag, 0)
	}
}

// gaddagGoOn is Gordon's GoOn after a letter was put (or found) on
// square c and the GADDAG moved to node.
func (s *lineGen) gaddagGoOn(c int, nd automaton.Arc) {
	mask := nd.Mask()
	if c <= s.pivot {
		// Left of the pivot: the word so far is c..pivot. It may end
		// here, or turn right, only once it covers the anchor (the
		// square right of the pivot is always free).
		freeLeft := c == 0 || s.line[c-1] == board.Empty
		covers := c <= s.anchorCol
		if nd.IsFinal() && freeLeft && covers && s.placed > 0 {
			s.record(c, s.pivot)
		}
		if mask == 0 {
			return
		}
		if c > 0 && (s.line[c-1] != board.Empty || c-1 >= s.leftLimit) && s.worth(c-1, mask) &&
			(!s.pruneLeft || c-1 >= s.anchorCol || s.best.leftMax[c-1] >= s.best.Threshold()) {
			s.gaddagGen(c-1, nd)
		}
		if mask&1 != 0 && freeLeft && covers && s.pivot+1 < s.n &&
			(!s.pruneLeft || s.best.loBound[c] >= s.best.Threshold()) {
			next := s.child(nd, mask, automaton.Sep)
			if s.worth(s.pivot+1, next.Mask()) {
				start := s.start
				s.start = c
				s.gaddagGen(s.pivot+1, next)
				s.start = start
			}
		}
		return
	}
	// Right of the pivot: the word is start..c.
	if nd.IsFinal() && (c+1 == s.n || s.line[c+1] == board.Empty) {
		s.record(s.start, c)
	}
	if mask != 0 && c+1 < s.n && s.worth(c+1, mask) {
		s.gaddagGen(c+1, nd)
	}
}
