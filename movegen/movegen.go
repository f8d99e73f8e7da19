// Package movegen lists the legal placements of a rack on a board. All
// generators implement Generator and must produce exactly the same set of
// scored moves; Brute is the slow, obviously correct reference.
//
// Counting rule: a move is a distinct (squares, tiles, blank designations)
// placement. A one-tile play is listed once, in the direction in which it
// forms a word of two or more tiles (across if both).
//
// Players do not need every move: a Searcher (the GADDAG generator) finds
// the best placements by equity, score plus the value of the tiles kept,
// without listing the rest. It bounds, for each anchor, the equity of any
// move through it (the squares it can cover, the rack's best tiles on
// the best multipliers, the best leave for that many tiles, and whether
// the rack can make a word of that length at all), searches the anchors
// best bound first, and stops when no bound can beat what it has found.
//
// Generators walk read-only tables shared by all; a generator value
// holds scratch state and serves one goroutine (see Generator.Fork).
package movegen

import (
	"slices"

	"atril/alphabet"
	"atril/board"
	"atril/move"
)

// Sink receives generated moves. The move and its Tiles are only valid
// during the call: a sink that keeps a move must copy it (see Clone).
type Sink func(m *move.Move)

// Generator lists every legal placement of rack on b.
//
// Goroutines: the tables a generator walks (word set, DAWG, GADDAG,
// interval tables) are built once and only read, but a generator value
// holds the scratch state of its searches, so it serves one goroutine at
// a time. Fork returns a new generator over the same tables, cheaply:
// every goroutine that generates moves works with its own Fork.
type Generator interface {
	// Name is the generator's name as given to --algo.
	Name() string
	// Generate calls sink once for each legal placement.
	Generate(b *board.Board, rack *alphabet.Rack, sink Sink)
	// Fork returns a generator over the same tables with scratch state
	// of its own, for use by another goroutine.
	Fork() Generator
}

// Clone copies a move so it outlives the sink call.
func Clone(m *move.Move) move.Move {
	c := *m
	c.Tiles = append([]alphabet.Tile(nil), m.Tiles...)
	c.Exchanged = append([]alphabet.Tile(nil), m.Exchanged...)
	return c
}

// All collects the moves of a generator, best score first (ties in a
// fixed order: position, direction, then tiles).
func All(g Generator, b *board.Board, rack *alphabet.Rack) []move.Move {
	var out []move.Move
	g.Generate(b, rack, func(m *move.Move) { out = append(out, Clone(m)) })
	SortMoves(out)
	return out
}

// SortMoves orders moves by score, best first, then by a fixed key so the
// order is reproducible.
func SortMoves(ms []move.Move) {
	keys := Order(ms, nil)
	sorted := make([]move.Move, len(ms))
	for i, k := range keys {
		sorted[i] = ms[uint32(k)]
	}
	copy(ms, sorted)
}

// Order appends to keys[:0] one key per move and sorts them so that
// uint32(keys[i]) is the index in ms of the i-th move in the order of
// SortMoves (Better). Sorting 8-byte keys rather than the moves
// themselves is what makes it cheap: the score, square and direction are
// packed above the index, and only moves equal in all three compare
// their tiles.
func Order(ms []move.Move, keys []uint64) []uint64 {
	keys = keys[:0]
	for i := range ms {
		m := &ms[i]
		keys = append(keys, uint64(orderScoreMax-min(max(m.Score, 0), orderScoreMax))<<45|
			uint64(m.Row&63)<<39|uint64(m.Col&63)<<33|uint64(m.Dir&1)<<32|uint64(i))
	}
	// Sort on the packed keys (ties then fall in index order), and
	// then each run of moves with the same score, square and direction
	// by their tiles.
	slices.Sort(keys)
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>32 == keys[i]>>32 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b uint64) int {
				return slices.Compare(ms[uint32(a)].Tiles, ms[uint32(b)].Tiles)
			})
		}
		i = j
	}
	return keys
}

// orderScoreMax is the highest score Order packs (19 bits); squares take
// 6 bits each, so boards of up to 63 squares a side.
const orderScoreMax = 1<<19 - 1

// Best returns the highest-scoring move, and false if there is none: by
// a best-by-equity search when g is a Searcher, else from all moves.
func Best(g Generator, b *board.Board, rack *alphabet.Rack) (move.Move, bool) {
	if s, ok := g.(Searcher); ok {
		sc, ok := s.Best(b, rack, nil)
		return sc.Move, ok
	}
	m, n := BestWhere(g, b, rack, nil)
	return m, n > 0
}

// BestWhere lists every move and returns the highest-scoring one that
// keep accepts (nil: every move), ties broken by Less, with the number of
// moves accepted; with none it returns a pass and 0.
func BestWhere(g Generator, b *board.Board, rack *alphabet.Rack, keep func(*move.Move) bool) (move.Move, int) {
	var best move.Move
	n := 0
	g.Generate(b, rack, func(m *move.Move) {
		if keep != nil && !keep(m) {
			return
		}
		n++
		if n == 1 || Better(m, &best) {
			best = Clone(m)
		}
	})
	if n == 0 {
		return move.Move{Kind: move.Pass}, 0
	}
	return best, n
}

// Better reports whether a comes before b in the order of SortMoves: a
// higher score, or the same score and Less.
func Better(a, b *move.Move) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return Less(a, b)
}

// Less is the fixed tie-break between placements of equal value: position,
// direction, then tiles. SortMoves and the searches use it.
func Less(a, b *move.Move) bool {
	if a.Row != b.Row {
		return a.Row < b.Row
	}
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	if a.Dir != b.Dir {
		return a.Dir < b.Dir
	}
	return slices.Compare(a.Tiles, b.Tiles) < 0
}
