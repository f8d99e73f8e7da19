package move

import (
	"fmt"

	"atril/alphabet"
	"atril/board"
	"atril/variant"
)

// SquareTile is a tile put on a square, as a player does on a board: no
// direction, no word, only where each new tile goes.
type SquareTile struct {
	Row, Col int
	Tile     alphabet.Tile // a letter, with alphabet.BlankBit for a blank
}

// FromSquares turns tiles put on empty squares of b into a placement: the
// squares must lie in one row or one column and, with the board's tiles
// between and around them, make one unbroken word, which the move then
// spans whole. A single tile reads across unless it touches tiles only
// above or below it. It checks the geometry only; Validate checks the
// rest (the rack, the first move's square, connection, the words). A
// square off the board, a square given twice or already taken, squares
// in no single line and gaps are *RuleError.
func FromSquares(b *board.Board, ps []SquareTile) (*Move, error) {
	refuse := func(format string, args ...any) error {
		return &RuleError{Reason: fmt.Sprintf(format, args...)}
	}
	if len(ps) == 0 {
		return nil, refuse("a placement needs at least one tile")
	}
	placed := make(map[[2]int]alphabet.Tile, len(ps))
	for _, p := range ps {
		if !b.In(p.Row, p.Col) {
			return nil, refuse("square row %d, column %d is off the %d×%d board", p.Row, p.Col, b.Size, b.Size)
		}
		sq := variant.SquareName(p.Row, p.Col)
		if _, dup := placed[[2]int{p.Row, p.Col}]; dup {
			return nil, refuse("two tiles on %s", sq)
		}
		if b.At(p.Row, p.Col) != board.Empty {
			return nil, refuse("square %s is already taken", sq)
		}
		placed[[2]int{p.Row, p.Col}] = p.Tile
	}
	r0, c0 := ps[0].Row, ps[0].Col
	sameRow, sameCol := true, true
	for _, p := range ps {
		sameRow = sameRow && p.Row == r0
		sameCol = sameCol && p.Col == c0
	}
	occupied := func(r, c int) bool {
		if !b.In(r, c) {
			return false
		}
		_, ok := placed[[2]int{r, c}]
		return ok || b.At(r, c) != board.Empty
	}
	var dir board.Dir
	switch {
	case len(ps) == 1:
		if !occupied(r0, c0-1) && !occupied(r0, c0+1) && (occupied(r0-1, c0) || occupied(r0+1, c0)) {
			dir = board.Down
		}
	case sameRow:
		dir = board.Across
	case sameCol:
		dir = board.Down
	default:
		return nil, refuse("the tiles must lie in one row or one column")
	}
	dr, dc := 0, 1
	if dir == board.Down {
		dr, dc = 1, 0
	}
	// Back to the first square of the word, then forward to its end.
	sr, sc := r0, c0
	for occupied(sr-dr, sc-dc) {
		sr, sc = sr-dr, sc-dc
	}
	m := &Move{Kind: Place, Row: sr, Col: sc, Dir: dir}
	seen := 0
	for r, c := sr, sc; occupied(r, c); r, c = r+dr, c+dc {
		if t, ok := placed[[2]int{r, c}]; ok {
			m.Tiles = append(m.Tiles, t)
			seen++
		} else {
			m.Tiles = append(m.Tiles, PlayThrough)
		}
	}
	if seen != len(ps) {
		return nil, refuse("the tiles must form one word without gaps")
	}
	return m, nil
}
