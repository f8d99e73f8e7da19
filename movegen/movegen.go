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
	"sort"

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
	sort.Slice(ms, func(i, j int) bool { return Better(&ms[i], &ms[j]) })
}

func tilesBytes(ts []alphabet.Tile) []byte {
	b := make([]byte, len(ts))
	for i, t := range ts {
		b[i] = byte(t)
	}
	return b
}

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
	return string(tilesBytes(a.Tiles)) < string(tilesBytes(b.Tiles))
}
