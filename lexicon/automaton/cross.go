package automaton

import (
	"math/bits"

	"atril/alphabet"
)

// CrossSets answers cross-set queries from an automaton: which letters l
// make prefix·l·suffix a word. One query walks the shorter side's
// letters once per candidate letter and the longer side once, instead of
// looking up a whole word per letter of the alphabet. It is read-only
// and safe for concurrent use.
type CrossSets struct {
	kind Kind
	arcs []Arc
	root Arc
}

// NewCrossSets returns the cross-set oracle of a DAWG or a GADDAG.
func NewCrossSets(a *Automaton) *CrossSets {
	arcs, root := a.Arcs()
	return CrossSetsOver(a, arcs, root)
}

// CrossSetsOver returns the cross-set oracle of a DAWG or a GADDAG over
// an edge table of it already at hand (from Arcs or NewArcs).
func CrossSetsOver(a *Automaton, arcs []Arc, root Arc) *CrossSets {
	return &CrossSets{kind: a.Kind, arcs: arcs, root: root}
}

// child is the header of the target of the edge on symbol l of a state
// known to have it.
func (c *CrossSets) child(nd Arc, l uint) Arc {
	mask := nd.Mask()
	return c.arcs[nd.First&^Final+uint32(bits.OnesCount64(mask&(uint64(1)<<l-1)))]
}

// step follows the edge on symbol l; ok is false when there is none.
func (c *CrossSets) step(nd Arc, l uint) (Arc, bool) {
	if nd.Mask()&(uint64(1)<<l) == 0 {
		return Arc{}, false
	}
	return c.child(nd, l), true
}

// forward walks w left to right (designated blanks count as letters).
func (c *CrossSets) forward(nd Arc, w []alphabet.Tile) (Arc, bool) {
	for _, t := range w {
		var ok bool
		if nd, ok = c.step(nd, uint(t.Letter())); !ok {
			return Arc{}, false
		}
	}
	return nd, true
}

// backward walks w right to left.
func (c *CrossSets) backward(nd Arc, w []alphabet.Tile) (Arc, bool) {
	for i := len(w) - 1; i >= 0; i-- {
		var ok bool
		if nd, ok = c.step(nd, uint(w[i].Letter())); !ok {
			return Arc{}, false
		}
	}
	return nd, true
}

// finalChildren is the set of letters whose edge from nd reaches an
// accepting state, each followed by rest (walked forward, or backward
// when back is set).
func (c *CrossSets) finalChildren(nd Arc, rest []alphabet.Tile, back bool) uint64 {
	var set uint64
	mask := nd.Mask()
	// The targets are contiguous and in symbol order; skip the separator's.
	kids := c.arcs[nd.First&^Final+uint32(mask&1) : nd.First&^Final+uint32(bits.OnesCount64(mask))]
	m := mask &^ 1
	if len(rest) == 0 {
		for _, x := range kids {
			l := uint(bits.TrailingZeros64(m))
			m &= m - 1
			if x.IsFinal() {
				set |= 1 << l
			}
		}
		return set
	}
	for _, x := range kids {
		l := uint(bits.TrailingZeros64(m))
		m &= m - 1
		ok := true
		if back {
			x, ok = c.backward(x, rest)
		} else {
			x, ok = c.forward(x, rest)
		}
		if ok && x.IsFinal() {
			set |= 1 << l
		}
	}
	return set
}

// CrossSet returns the letters l (bit l) for which prefix·l·suffix is a
// word. Both sides may be empty; with both empty it returns the letters
// that are one-letter words.
func (c *CrossSets) CrossSet(prefix, suffix []alphabet.Tile) uint64 {
	if c.kind == DAWG {
		nd, ok := c.forward(c.root, prefix)
		if !ok {
			return 0
		}
		return c.finalChildren(nd, suffix, false)
	}
	// GADDAG: the word p·l·s is spelt REV(p)◇l·s (when p is not empty)
	// and REV(s)·l·REV(p) (always). Branch on l where the rest to walk
	// after it is the shorter.
	if len(prefix) > 0 && len(suffix) <= len(prefix) {
		nd, ok := c.backward(c.root, prefix)
		if !ok {
			return 0
		}
		if nd, ok = c.step(nd, Sep); !ok {
			return 0
		}
		return c.finalChildren(nd, suffix, false)
	}
	nd, ok := c.backward(c.root, suffix)
	if !ok {
		return 0
	}
	return c.finalChildren(nd, prefix, true)
}
