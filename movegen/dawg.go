package movegen

import (
	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
)

// Dawg is the Appel–Jacobson generator (Waterloo; Pícek 2008, 4.2.1). For
// each anchor it forms every left part (from the rack, on the empty
// non-anchor squares to the anchor's left, or the tiles already there),
// then extends it rightwards through the anchor over board tiles and
// cross-sets, walking the DAWG. A word is recorded only once the anchor
// square has been played (the corrected termination rule of Waterloo),
// so every move has at least one point of contact; each is found from
// the leftmost anchor it covers. Scores are built up as the word grows:
// letter sum, cross-word sums and a word multiplier carried down.
//
// A Dawg holds the scratch state of its searches, so it serves one
// goroutine at a time; Fork makes another over the same DAWG.
type Dawg struct {
	*walkTables
	s lineGen
}

// NewDawg returns the Appel–Jacobson generator for a lexicon, loading its
// DAWG from the cache directory or building (and caching) it.
func NewDawg(lex *lexicon.Lexicon) *Dawg {
	return NewDawgFrom(attached(lex, automaton.CachedDAWG(lex)))
}

// NewDawgFrom returns the Appel–Jacobson generator over a DAWG at hand.
func NewDawgFrom(a *automaton.Automaton) *Dawg {
	return &Dawg{walkTables: newWalkTables(a, automaton.DAWG)}
}

// Fork implements Generator.
func (g *Dawg) Fork() Generator { return &Dawg{walkTables: g.walkTables} }

// Name implements Generator.
func (g *Dawg) Name() string { return "dawg" }

// Generate implements Generator.
func (g *Dawg) Generate(b *board.Board, rack *alphabet.Rack, sink Sink) {
	s := &g.s
	s.setup(g.arcs, b, rack, sink)
	root := g.root
	for d := board.Across; d <= board.Down; d++ {
		for r := 0; r < b.Size; r++ {
			s.setLine(b, d, r)
			for c := 0; c < b.Size; c++ {
				if !s.anchor(c) {
					continue
				}
				s.anchorCol = c
				if s.emptyB {
					s.openingWords(root, 0, false)
					continue
				}
				if c > 0 && s.line[c-1] != board.Empty {
					// The left part is the tiles on the board.
					k := c - 1
					for k > 0 && s.line[k-1] != board.Empty {
						k--
					}
					node, ok := root, true
					var sum int32
					for j := k; j < c && ok; j++ {
						t := s.line[j]
						node, ok = s.step(node, t.Letter())
						if !t.IsBlanked() {
							sum += s.score[t.Letter()]
						}
						s.buf[j] = move.PlayThrough
					}
					if ok {
						s.sum.Main = sum
						s.extendRight(c, node, k)
						s.sum.Main = 0
					}
					continue
				}
				// The left part comes from the rack, on empty squares
				// that are not anchors.
				limit := 0
				for j := c - 1; j >= 0 && s.line[j] == board.Empty && !s.anchor(j); j-- {
					limit++
				}
				limit = min(limit, s.tiles-1)
				s.leftPart(root, limit, 0)
			}
		}
	}
	s.sink = nil
	s.b = nil
}

// step follows symbol l from a state; ok is false when there is no edge.
func (s *lineGen) step(nd automaton.Arc, l alphabet.Tile) (automaton.Arc, bool) {
	mask := nd.Mask()
	if mask&(1<<l) == 0 {
		return automaton.Arc{}, false
	}
	return s.child(nd, mask, uint(l)), true
}

// leftPart is Appel and Jacobson's LeftPart: the prefix of plen tiles in
// s.pre leads to node; extend it rightwards from the anchor, then try
// every longer prefix the rack and limit allow.
func (s *lineGen) leftPart(nd automaton.Arc, limit, plen int) {
	// Lay the prefix on the plen squares left of the anchor and score it
	// (those squares have no cross words).
	lo := s.anchorCol - plen
	var sum int32
	mul := int32(1)
	for i := 0; i < plen; i++ {
		t := s.pre[i]
		s.buf[lo+i] = t
		if !t.IsBlanked() {
			sum += s.score[t] * s.lmul[lo+i]
		}
		mul *= s.wmul[lo+i]
	}
	s.sum, s.placed = Tally{Main: sum, WordMul: mul}, plen
	s.extendRight(s.anchorCol, nd, lo)
	s.sum, s.placed = Tally{WordMul: 1}, 0
	if limit == 0 {
		return
	}
	mask := nd.Mask()
	s.prefix(nd, mask, mask&s.allowed(), plen, stepLeft, limit, false)
}

// extendRight is Appel and Jacobson's ExtendRight with the corrected
// termination rule: the word on squares start..c-1 leads to node; c is
// the next square (possibly off the board).
func (s *lineGen) extendRight(c int, nd automaton.Arc, start int) {
	mask := nd.Mask()
	if c == s.n || s.line[c] == board.Empty {
		if c > s.anchorCol && nd.IsFinal() {
			s.record(start, c-1)
		}
		if c == s.n || s.tiles == 0 {
			return
		}
		if cand := mask & s.cross[c] & s.allowed(); cand != 0 {
			s.place(c, nd, mask, cand, stepDawg, start)
		}
		return
	}
	if mask&(1<<s.line[c].Letter()) != 0 {
		s.through(c, nd, mask, stepDawg, start)
	}
}
