// Package board holds the squares of a game board with their premiums and
// placed tiles, the cross-sets (letters allowed by the perpendicular word)
// for both directions, and the halo (empty squares next to a tile).
//
// The board keeps two orientations of its grid: Across, indexed row-major,
// and Down, the transposed grid. A generator written for across plays
// serves down plays by reading the Down orientation; in orientation d,
// "row" is the line of play and "column" the position along it.
package board

import (
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"

	"atril/alphabet"
	"atril/variant"
)

// Dir is a direction of play.
type Dir uint8

const (
	// Across plays run left to right along a row.
	Across Dir = 0
	// Down plays run top to bottom along a column.
	Down Dir = 1
)

func (d Dir) String() string {
	if d == Across {
		return "across"
	}
	return "down"
}

// Other returns the perpendicular direction.
func (d Dir) Other() Dir { return 1 - d }

// Empty is the content of an empty square.
const Empty alphabet.Tile = 0

// NoCross marks a square with no perpendicular neighbours.
const NoCross = -1

// WordSet decides whether tiles spell a word (designated blanks count as
// their letters). *lexicon.Lexicon satisfies it.
type WordSet interface {
	Contains(w []alphabet.Tile) bool
}

// Board is an N×N board.
type Board struct {
	V     *variant.Variant
	N     int
	words WordSet
	all   uint64 // bitmask of every letter

	grid [2][]alphabet.Tile // grid[d][r*N+c] in orientation d
	turn []int16            // turn each tile was placed, row-major; -1 empty
	// cross[d][i]: letters allowed at oriented square i for a play in
	// direction d (bit l for letter l).
	cross [2][]uint64
	// crossScore[d][i]: sum of the scores of the perpendicular word's
	// tiles next to square i, or NoCross when it has none.
	crossScore [2][]int16
	prem       [2][]variant.Premium
	tiles      int
}

// New returns an empty board for the variant, checking words with ws.
func New(v *variant.Variant, ws WordSet) *Board {
	n := v.Size
	b := &Board{V: v, N: n, words: ws, turn: make([]int16, n*n)}
	for l := 1; l <= v.Alphabet.Size(); l++ {
		b.all |= 1 << l
	}
	for d := 0; d < 2; d++ {
		b.grid[d] = make([]alphabet.Tile, n*n)
		b.cross[d] = make([]uint64, n*n)
		b.crossScore[d] = make([]int16, n*n)
		b.prem[d] = make([]variant.Premium, n*n)
		for i := range b.cross[d] {
			b.cross[d][i] = b.all
			b.crossScore[d][i] = NoCross
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			b.prem[Across][r*n+c] = v.Premium(r, c)
			b.prem[Down][c*n+r] = v.Premium(r, c)
		}
	}
	for i := range b.turn {
		b.turn[i] = -1
	}
	return b
}

// Clone returns an independent copy of the board.
func (b *Board) Clone() *Board {
	c := *b
	c.turn = append([]int16(nil), b.turn...)
	for d := 0; d < 2; d++ {
		c.grid[d] = append([]alphabet.Tile(nil), b.grid[d]...)
		c.cross[d] = append([]uint64(nil), b.cross[d]...)
		c.crossScore[d] = append([]int16(nil), b.crossScore[d]...)
	}
	return &c
}

// Words returns the word set the board checks cross words with.
func (b *Board) Words() WordSet { return b.words }

// AllLetters is the bitmask of every letter of the alphabet.
func (b *Board) AllLetters() uint64 { return b.all }

// Tiles is the number of tiles on the board.
func (b *Board) Tiles() int { return b.tiles }

// IsEmpty reports whether no tile has been placed.
func (b *Board) IsEmpty() bool { return b.tiles == 0 }

// At returns the tile at (row, col), or Empty.
func (b *Board) At(row, col int) alphabet.Tile { return b.grid[Across][row*b.N+col] }

// TurnAt returns the turn on which the tile at (row, col) was placed, or -1.
func (b *Board) TurnAt(row, col int) int { return int(b.turn[row*b.N+col]) }

// In reports whether (row, col) is on the board.
func (b *Board) In(row, col int) bool { return row >= 0 && col >= 0 && row < b.N && col < b.N }

// Orient converts (row, col) to the coordinates of orientation d.
func Orient(d Dir, row, col int) (int, int) {
	if d == Across {
		return row, col
	}
	return col, row
}

// Line returns line r of orientation d: the row r for Across, the column r
// for Down. The slice aliases the board and must not be modified.
func (b *Board) Line(d Dir, r int) []alphabet.Tile { return b.grid[d][r*b.N : (r+1)*b.N] }

// CrossSets returns the cross-sets of line r in orientation d.
func (b *Board) CrossSets(d Dir, r int) []uint64 { return b.cross[d][r*b.N : (r+1)*b.N] }

// CrossScores returns the cross scores of line r in orientation d
// (NoCross where no perpendicular word is formed).
func (b *Board) CrossScores(d Dir, r int) []int16 { return b.crossScore[d][r*b.N : (r+1)*b.N] }

// Premiums returns the premiums of line r in orientation d.
func (b *Board) Premiums(d Dir, r int) []variant.Premium { return b.prem[d][r*b.N : (r+1)*b.N] }

// OAt returns the tile at oriented coordinates (r, c) of orientation d.
func (b *Board) OAt(d Dir, r, c int) alphabet.Tile { return b.grid[d][r*b.N+c] }

// Cross returns the cross-set of oriented square (r, c) for plays in d.
func (b *Board) Cross(d Dir, r, c int) uint64 { return b.cross[d][r*b.N+c] }

// CrossScore returns the cross score of oriented square (r, c) for plays in d.
func (b *Board) CrossScore(d Dir, r, c int) int { return int(b.crossScore[d][r*b.N+c]) }

// IsAnchor reports whether the empty square (row, col) is in the halo: it
// touches a tile orthogonally, or the board is empty and it is the start
// square.
func (b *Board) IsAnchor(row, col int) bool {
	if b.At(row, col) != Empty {
		return false
	}
	if b.tiles == 0 {
		return row == b.V.StartRow && col == b.V.StartCol
	}
	return b.occupied(row-1, col) || b.occupied(row+1, col) || b.occupied(row, col-1) || b.occupied(row, col+1)
}

func (b *Board) occupied(row, col int) bool {
	return b.In(row, col) && b.At(row, col) != Empty
}

// Place puts tiles on empty squares, recording the turn, and updates the
// cross-sets around them. Squares are given as (row, col) pairs in
// squares; tiles are letters or designated blanks. Place does not check
// the rules; see package move.
func (b *Board) Place(squares [][2]int, tiles []alphabet.Tile, turn int) {
	for i, sq := range squares {
		r, c := sq[0], sq[1]
		if b.At(r, c) != Empty {
			panic(fmt.Sprintf("board: square %s is not empty", variant.SquareName(r, c)))
		}
		b.grid[Across][r*b.N+c] = tiles[i]
		b.grid[Down][c*b.N+r] = tiles[i]
		b.turn[r*b.N+c] = int16(turn)
		b.tiles++
		// An occupied square admits nothing.
		b.cross[Across][r*b.N+c], b.crossScore[Across][r*b.N+c] = 0, NoCross
		b.cross[Down][c*b.N+r], b.crossScore[Down][c*b.N+r] = 0, NoCross
	}
	for _, sq := range squares {
		b.updateAround(sq[0], sq[1])
	}
}

// Remove takes tiles off the board (to undo a Place) and restores the
// cross-sets around them.
func (b *Board) Remove(squares [][2]int) {
	for _, sq := range squares {
		r, c := sq[0], sq[1]
		b.grid[Across][r*b.N+c] = Empty
		b.grid[Down][c*b.N+r] = Empty
		b.turn[r*b.N+c] = -1
		b.tiles--
	}
	for _, sq := range squares {
		r, c := sq[0], sq[1]
		b.computeCross(Across, r, c)
		b.computeCross(Down, c, r)
		b.updateAround(r, c)
	}
}

// updateAround recomputes the cross-sets that a change at (row, col) can
// affect: the empty squares at both ends of the vertical run through it
// (for across plays) and of the horizontal run (for down plays).
func (b *Board) updateAround(row, col int) {
	for d := Across; d <= Down; d++ {
		// In orientation d the perpendicular run is along the column.
		r, c := Orient(d, row, col)
		up := r - 1
		for up >= 0 && b.grid[d][up*b.N+c] != Empty {
			up--
		}
		if up >= 0 {
			b.computeCross(d, up, c)
		}
		down := r + 1
		for down < b.N && b.grid[d][down*b.N+c] != Empty {
			down++
		}
		if down < b.N {
			b.computeCross(d, down, c)
		}
	}
}

// computeCross sets the cross-set of oriented square (r, c) for plays in d.
func (b *Board) computeCross(d Dir, r, c int) {
	i := r*b.N + c
	g := b.grid[d]
	if g[i] != Empty {
		b.cross[d][i] = 0
		b.crossScore[d][i] = NoCross
		return
	}
	top := r
	for top > 0 && g[(top-1)*b.N+c] != Empty {
		top--
	}
	bot := r
	for bot < b.N-1 && g[(bot+1)*b.N+c] != Empty {
		bot++
	}
	if top == r && bot == r {
		b.cross[d][i] = b.all
		b.crossScore[d][i] = NoCross
		return
	}
	var buf [32]alphabet.Tile
	w := buf[:0]
	score := 0
	for k := top; k <= bot; k++ {
		t := g[k*b.N+c]
		w = append(w, t)
		if k != r {
			score += b.V.Score(t)
		}
	}
	var set uint64
	for l := 1; l <= b.V.Alphabet.Size(); l++ {
		w[r-top] = alphabet.Tile(l)
		if b.words.Contains(w) {
			set |= 1 << l
		}
	}
	b.cross[d][i] = set
	b.crossScore[d][i] = int16(score)
}

// Recompute rebuilds every cross-set from the tiles (used after loading a
// position, and by tests to check the incremental updates).
func (b *Board) Recompute() {
	for d := Across; d <= Down; d++ {
		for r := 0; r < b.N; r++ {
			for c := 0; c < b.N; c++ {
				b.computeCross(d, r, c)
			}
		}
	}
}

// SetTile puts a tile on a square (or clears it with Empty) without
// updating cross-sets; call Recompute when done. For loading positions.
func (b *Board) SetTile(row, col int, t alphabet.Tile, turn int) {
	i := row*b.N + col
	old := b.grid[Across][i]
	if old == Empty && t != Empty {
		b.tiles++
	} else if old != Empty && t == Empty {
		b.tiles--
	}
	b.grid[Across][i] = t
	b.grid[Down][col*b.N+row] = t
	if t == Empty {
		b.turn[i] = -1
	} else {
		b.turn[i] = int16(turn)
	}
}

// Equal reports whether two boards hold the same tiles and cross-sets.
func (b *Board) Equal(o *Board) bool {
	if b.N != o.N || b.tiles != o.tiles {
		return false
	}
	for d := 0; d < 2; d++ {
		for i := range b.grid[d] {
			if b.grid[d][i] != o.grid[d][i] || b.cross[d][i] != o.cross[d][i] || b.crossScore[d][i] != o.crossScore[d][i] {
				return false
			}
		}
	}
	return true
}

// String draws the board: letters, lowercase blanks, premium marks on
// empty squares, with column letters and row numbers.
func (b *Board) String() string {
	var sb strings.Builder
	sb.WriteString("    ")
	for c := 0; c < b.N; c++ {
		sb.WriteString(" " + variant.ColumnName(c))
	}
	sb.WriteString("\n")
	a := b.V.Alphabet
	for r := 0; r < b.N; r++ {
		fmt.Fprintf(&sb, "%3d ", r+1)
		for c := 0; c < b.N; c++ {
			t := b.At(r, c)
			if t != Empty {
				s := a.String(t)
				sb.WriteString(strings.Repeat(" ", 2-utf8.RuneCountInString(s)) + s)
				continue
			}
			p := b.V.Premium(r, c)
			switch {
			case r == b.V.StartRow && c == b.V.StartCol:
				sb.WriteString(" *")
			case p.WordMul == 3:
				sb.WriteString(" =")
			case p.WordMul == 2:
				sb.WriteString(" -")
			case p.LetterMul == 3:
				sb.WriteString(" \"")
			case p.LetterMul == 2:
				sb.WriteString(" '")
			default:
				sb.WriteString(" .")
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// CountLetters returns the number of letters set in a cross-set mask.
func CountLetters(set uint64) int { return bits.OnesCount64(set) }
