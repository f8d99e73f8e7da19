package player

import (
	"atril/move"
	"atril/movegen"
)

// Static plays the highest-scoring move that passes a filter, and passes
// when none does. It is the amateur (score cap), the experienced player
// (tile cap) and the adept (pruned vocabulary).
type Static struct {
	name   string
	gen    movegen.Generator
	filter func(v *View, m *move.Move) bool
	found  int
}

// Name implements Player.
func (s *Static) Name() string { return s.name }

// MovesFound implements Counter: the moves that passed the filter.
func (s *Static) MovesFound() int { return s.found }

// Choose implements Player.
func (s *Static) Choose(v *View) move.Move {
	m, n := movegen.BestWhere(s.gen, v.Board, &v.Rack, func(m *move.Move) bool { return s.filter(v, m) })
	s.found = n
	return m
}

// pruner simulates a smaller vocabulary the way the adept of Pícek 2008 (7.4)
// does it: a traversal of the lexicon tree that skips about a third of
// the branches at every level. Instead of changing the generator, each
// generated move's main word is walked letter by letter as a traversal
// from the root would walk it: at each level a hash of (seed, turn,
// prefix) decides whether the branch to that prefix is cut, and the move
// is kept only if no branch on its path was cut. Every word of length n
// thus survives with probability (1−share)^n, and words sharing a cut
// prefix vanish together, exactly as in a pruned tree. The turn (tiles on
// the board) is mixed in so that the cut branches change from move to
// move, as a fresh pruned traversal would.
type pruner struct {
	seed      uint64
	threshold uint64
}

func newPruner(seed uint64, share float64) *pruner {
	return &pruner{seed: mix(seed ^ 0xade97), threshold: uint64(share * float64(1<<32))}
}

func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (p *pruner) keep(v *View, m *move.Move) bool {
	h := mix(p.seed ^ uint64(v.Board.Tiles()))
	for i, t := range m.Tiles {
		if t == move.PlayThrough {
			r, c := m.Square(i)
			t = v.Board.At(r, c)
		}
		h = mix(h ^ uint64(t.Letter()))
		if h&0xffffffff < p.threshold {
			return false
		}
	}
	return true
}
