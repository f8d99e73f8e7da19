// Package automaton holds the two word graphs of the move generators as
// minimal acyclic automata in flat arrays: the DAWG of a word list
// (Appel and Jacobson) and its GADDAG (Gordon), the DAWG of the language
// REV(x)◇y for every split of every word into x (not empty) and y, with
// the separator ◇ left out when y is empty (Pícek 2008, 3.1.5).
//
// Both are built directly in minimal form from sorted input, one string
// at a time, with a register of finished states (the incremental
// construction for sorted data: a state is frozen, and merged with an
// equal frozen state if there is one, as soon as no later string can
// change it). No pointer graph is ever made.
//
// A state is a Node: the set of symbols on its out-edges as a bitmask
// (bit l for letter l, bit 0 for the separator ◇) and the index of its
// first target in Targets; the targets of a state are contiguous and in
// symbol order, so the child on symbol l is
// Targets[First + popcount(Mask & (1<<l - 1))]. A state is final
// (accepting) when the Final bit of its First word is set.
package automaton

import (
	"fmt"
	"math/bits"
	"sync"

	"atril/alphabet"
)

// Sep is the GADDAG separator symbol ◇. Letters are 1..63, so symbol 0
// is free.
const Sep = 0

// Final marks an accepting state in Node.First.
const Final = 1 << 31

// Kind says which language an automaton accepts.
type Kind uint32

const (
	// DAWG accepts the words.
	DAWG Kind = 1
	// GADDAG accepts REV(x)◇y for every word xy with x not empty (◇
	// omitted when y is empty).
	GADDAG Kind = 2
)

func (k Kind) String() string {
	switch k {
	case DAWG:
		return "dawg"
	case GADDAG:
		return "gaddag"
	}
	return fmt.Sprintf("kind(%d)", uint32(k))
}

// Node is one state.
type Node struct {
	// Mask has bit s set for each symbol s with an out-edge.
	Mask uint64
	// First is the index in Targets of the first out-edge's target,
	// with the Final bit set if the state accepts.
	First uint32
}

// Automaton is a minimal acyclic automaton over tile codes.
type Automaton struct {
	Kind Kind
	// Nodes are the states; Root is the start state.
	Nodes   []Node
	Targets []uint32
	Root    uint32
	// Words is the number of words of the list it was built from.
	Words int
	// Key identifies the word list and alphabet it was built from.
	Key [32]byte
}

// IsFinal reports whether state n accepts.
func (a *Automaton) IsFinal(n uint32) bool { return a.Nodes[n].First&Final != 0 }

// Child follows the edge on symbol s from state n; ok is false when
// there is none.
func (a *Automaton) Child(n uint32, s alphabet.Tile) (uint32, bool) {
	nd := a.Nodes[n]
	bit := uint64(1) << s
	if nd.Mask&bit == 0 {
		return 0, false
	}
	return a.Targets[nd.First&^Final+uint32(bits.OnesCount64(nd.Mask&(bit-1)))], true
}

// Walk follows the symbols of w from state n (designated blanks count as
// their letters); ok is false when the path breaks off.
func (a *Automaton) Walk(n uint32, w []alphabet.Tile) (uint32, bool) {
	for _, t := range w {
		var ok bool
		if n, ok = a.Child(n, t.Letter()); !ok {
			return 0, false
		}
	}
	return n, true
}

// Accepts reports whether the string w is in the automaton's language.
func (a *Automaton) Accepts(w []alphabet.Tile) bool {
	n, ok := a.Walk(a.Root, w)
	return ok && a.IsFinal(n)
}

// Contains reports whether w is a word of the list: for a DAWG, w is
// accepted; for a GADDAG, REV(w) is.
func (a *Automaton) Contains(w []alphabet.Tile) bool {
	if a.Kind == DAWG {
		return a.Accepts(w)
	}
	n := a.Root
	for i := len(w) - 1; i >= 0; i-- {
		var ok bool
		if n, ok = a.Child(n, w[i].Letter()); !ok {
			return false
		}
	}
	return len(w) > 0 && a.IsFinal(n)
}

// Edges is the number of transitions.
func (a *Automaton) Edges() int { return len(a.Targets) }

// Bytes is the memory held by the arrays (a Node takes 16 bytes in
// memory with its padding, 12 in the file).
func (a *Automaton) Bytes() int { return 16*len(a.Nodes) + 4*len(a.Targets) }

// Validate checks that the arrays form a well-formed automaton: every
// edge index and target is in range. A loaded file is validated so a
// damaged one can never make a generator read out of bounds.
func (a *Automaton) Validate() error {
	nn := uint32(len(a.Nodes))
	if nn == 0 {
		return fmt.Errorf("automaton: no states")
	}
	if a.Root >= nn {
		return fmt.Errorf("automaton: root %d out of range (%d states)", a.Root, nn)
	}
	ne := uint64(len(a.Targets))
	for i, nd := range a.Nodes {
		if a.Kind == DAWG && nd.Mask&1 != 0 {
			return fmt.Errorf("automaton: DAWG state %d has a separator edge", i)
		}
		first := uint64(nd.First &^ Final)
		if first+uint64(bits.OnesCount64(nd.Mask)) > ne {
			return fmt.Errorf("automaton: state %d: edges %d+%d past the %d targets", i, first, bits.OnesCount64(nd.Mask), ne)
		}
	}
	for i, t := range a.Targets {
		if t >= nn {
			return fmt.Errorf("automaton: edge %d: target %d out of range (%d states)", i, t, nn)
		}
	}
	return nil
}

// Arc is the header of a state (its out-symbols and first edge) as stored
// on each edge that leads to it, so that a search reaches a child's
// header from its parent's edge list without a second random memory
// access. Mask is uint64(MaskHi)<<32 | uint64(MaskLo).
type Arc struct {
	MaskLo, MaskHi uint32
	First          uint32
}

// Mask returns the state's symbol set.
func (e Arc) Mask() uint64 { return uint64(e.MaskHi)<<32 | uint64(e.MaskLo) }

// IsFinal reports whether the state accepts.
func (e Arc) IsFinal() bool { return e.First&Final != 0 }

var (
	arcMu    sync.Mutex
	arcTable = map[*Automaton][]Arc{}
)

// ArcBytes is the memory the edge table of Arcs takes.
func (a *Automaton) ArcBytes() int { return 12 * len(a.Targets) }

// Arcs returns the edge table of the automaton: Arcs()[i] is the header
// of the state Targets[i] leads to, and root the header of Root. The
// table is made once per automaton and shared; it must not be modified.
// An automaton made for one task (see NewArcs) should not be passed here:
// the table is kept for the life of the process.
func (a *Automaton) Arcs() (arcs []Arc, root Arc) {
	arcMu.Lock()
	defer arcMu.Unlock()
	arcs, ok := arcTable[a]
	if !ok {
		arcs, _ = a.NewArcs()
		arcTable[a] = arcs
	}
	return arcs, a.header(a.Root)
}

// NewArcs makes a new edge table of the automaton (see Arcs), kept by no
// one but the caller: for an automaton made for one task, such as the
// word list of an endgame cut down to the tiles left, which should go
// when the task does.
func (a *Automaton) NewArcs() (arcs []Arc, root Arc) {
	arcs = make([]Arc, len(a.Targets))
	for i, t := range a.Targets {
		arcs[i] = a.header(t)
	}
	return arcs, a.header(a.Root)
}

// header is the Arc form of state n.
func (a *Automaton) header(n uint32) Arc {
	nd := a.Nodes[n]
	return Arc{MaskLo: uint32(nd.Mask), MaskHi: uint32(nd.Mask >> 32), First: nd.First}
}
