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

// CrossSetter is a WordSet that also answers cross-set queries directly:
// the letters l (bit l) for which prefix·l·suffix is a word. A board
// whose word set implements it (as *lexicon.Lexicon does) derives each
// cross-set with one query instead of a word lookup per letter.
type CrossSetter interface {
	CrossSet(prefix, suffix []alphabet.Tile) uint64
}

// Through marks, in a line of tiles given to PlaceLine, a square whose
// tile is already on the board.
const Through alphabet.Tile = 0x80

// Board is an N×N board: the tiles, and the generation state derived from
// them (cross-sets and cross scores in both orientations).
//
// Every Place or PlaceLine records what it changed, so Undo takes the
// last placement back exactly and cheaply (make/unmake), without
// recomputing anything. A board is not safe for concurrent use: each
// goroutine that searches works on its own Clone.
type Board struct {
	Variant *variant.Variant
	Size    int
	words   WordSet
	xs      CrossSetter // words as a CrossSetter, or nil
	all     uint64      // bitmask of every letter

	grid [2][]alphabet.Tile // grid[d][r*N+c] in orientation d
	turn []int16            // turn each tile was placed, row-major; -1 empty
	// cross[d][i]: letters allowed at oriented square i for a play in
	// direction d (bit l for letter l).
	cross [2][]uint64
	// crossScore[d][i]: sum of the scores of the perpendicular word's
	// tiles next to square i, or NoCross when it has none.
	crossScore [2][]int16
	prem       [2][]variant.Premium
	score      [alphabet.MaxLetters + 1]int16 // face value by tile code, 0 for blanks
	tiles      int

	// The undo log: the old value of every cross entry a placement
	// changed, and per placement where its entries and squares start.
	log    []undoEntry
	placed []int32 // row-major squares of the placements, in order
	frames []frame
	// seen holds the cross entries recomputed by the current placement,
	// so a square next to several new tiles is derived once.
	seen []int32
	// scratch for the perpendicular word around a square
	pre, suf [32]alphabet.Tile
}

type undoEntry struct {
	at    int32 // d*N*N + oriented index
	cross uint64
	score int16
}

type frame struct{ log, placed int32 }

// New returns an empty board for the variant, checking words with ws.
func New(v *variant.Variant, ws WordSet) *Board {
	n := v.Size
	b := &Board{Variant: v, Size: n, words: ws, turn: make([]int16, n*n)}
	b.xs, _ = ws.(CrossSetter)
	for l := 1; l <= v.Alphabet.Size(); l++ {
		b.all |= 1 << l
	}
	for l := 1; l < len(v.Scores) && l < len(b.score); l++ {
		b.score[l] = int16(v.Scores[l])
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
func (b *Board) Clone() *Board { return b.CopyTo(nil) }

// CopyTo makes dst a copy of b, as Clone does, reusing dst's storage
// when it was made for a board of the same size, and returns it; with
// dst nil (or of another size) it returns a Clone, with dst b, b.
// The copy shares nothing that either board changes: placing tiles on
// one leaves the other as it was. Its undo log starts empty.
func (b *Board) CopyTo(dst *Board) *Board {
	if dst == b {
		return b
	}
	if dst == nil || dst.Size != b.Size {
		// New storage for the squares; the undo log grows on use.
		dst = &Board{turn: make([]int16, len(b.turn))}
		for d := 0; d < 2; d++ {
			dst.grid[d] = make([]alphabet.Tile, len(b.grid[d]))
			dst.cross[d] = make([]uint64, len(b.cross[d]))
			dst.crossScore[d] = make([]int16, len(b.crossScore[d]))
		}
	}
	grid, cross, crossScore, turn := dst.grid, dst.cross, dst.crossScore, dst.turn
	log, placed, frames, seen := dst.log[:0], dst.placed[:0], dst.frames[:0], dst.seen[:0]
	*dst = *b
	dst.log, dst.placed, dst.frames, dst.seen = log, placed, frames, seen
	dst.turn = turn
	copy(dst.turn, b.turn)
	for d := 0; d < 2; d++ {
		dst.grid[d], dst.cross[d], dst.crossScore[d] = grid[d], cross[d], crossScore[d]
		copy(dst.grid[d], b.grid[d])
		copy(dst.cross[d], b.cross[d])
		copy(dst.crossScore[d], b.crossScore[d])
	}
	return dst
}

// WithWords returns a copy of the board that checks cross words with ws,
// its cross-sets derived again from the tiles (the undo log is not
// copied). A word set that holds every word the tiles still to be played
// can form gives the same moves as the board's own (an endgame's word
// list cut down to its tiles).
func (b *Board) WithWords(ws WordSet) *Board {
	c := b.Clone()
	c.words = ws
	c.xs, _ = ws.(CrossSetter)
	c.Recompute()
	return c
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
func (b *Board) At(row, col int) alphabet.Tile { return b.grid[Across][row*b.Size+col] }

// TurnAt returns the turn on which the tile at (row, col) was placed, or -1.
func (b *Board) TurnAt(row, col int) int { return int(b.turn[row*b.Size+col]) }

// In reports whether (row, col) is on the board.
func (b *Board) In(row, col int) bool { return row >= 0 && col >= 0 && row < b.Size && col < b.Size }

// Orient converts (row, col) to the coordinates of orientation d.
func Orient(d Dir, row, col int) (int, int) {
	if d == Across {
		return row, col
	}
	return col, row
}

// Line returns line r of orientation d: the row r for Across, the column r
// for Down. The slice aliases the board and must not be modified.
func (b *Board) Line(d Dir, r int) []alphabet.Tile { return b.grid[d][r*b.Size : (r+1)*b.Size] }

// Grid returns the board's tiles row by row (Empty where there is none),
// a read-only view that later placements change.
func (b *Board) Grid() []alphabet.Tile { return b.grid[Across] }

// CrossSets returns the cross-sets of line r in orientation d.
func (b *Board) CrossSets(d Dir, r int) []uint64 { return b.cross[d][r*b.Size : (r+1)*b.Size] }

// CrossScores returns the cross scores of line r in orientation d
// (NoCross where no perpendicular word is formed).
func (b *Board) CrossScores(d Dir, r int) []int16 { return b.crossScore[d][r*b.Size : (r+1)*b.Size] }

// Premiums returns the premiums of line r in orientation d.
func (b *Board) Premiums(d Dir, r int) []variant.Premium { return b.prem[d][r*b.Size : (r+1)*b.Size] }

// OAt returns the tile at oriented coordinates (r, c) of orientation d.
func (b *Board) OAt(d Dir, r, c int) alphabet.Tile { return b.grid[d][r*b.Size+c] }

// Cross returns the cross-set of oriented square (r, c) for plays in d.
func (b *Board) Cross(d Dir, r, c int) uint64 { return b.cross[d][r*b.Size+c] }

// CrossScore returns the cross score of oriented square (r, c) for plays in d.
func (b *Board) CrossScore(d Dir, r, c int) int { return int(b.crossScore[d][r*b.Size+c]) }

// IsAnchor reports whether the empty square (row, col) is in the halo: it
// touches a tile orthogonally, or the board is empty and it is the start
// square.
func (b *Board) IsAnchor(row, col int) bool {
	if b.At(row, col) != Empty {
		return false
	}
	if b.tiles == 0 {
		return row == b.Variant.StartRow && col == b.Variant.StartCol
	}
	return b.occupied(row-1, col) || b.occupied(row+1, col) || b.occupied(row, col-1) || b.occupied(row, col+1)
}

func (b *Board) occupied(row, col int) bool {
	return b.In(row, col) && b.At(row, col) != Empty
}

// Place puts tiles on empty squares, recording the turn, and updates the
// cross-sets around them. Squares are given as (row, col) pairs in
// squares; tiles are letters or designated blanks. Place does not check
// the rules; see package move. Undo takes it back.
func (b *Board) Place(squares [][2]int, tiles []alphabet.Tile, turn int) {
	b.begin()
	for i, sq := range squares {
		b.put(sq[0], sq[1], tiles[i], turn)
	}
	for _, sq := range squares {
		b.updateAround(sq[0], sq[1])
	}
	b.seen = b.seen[:0]
}

// PlaceLine puts the tiles of a line on the board: tiles[k] goes on the
// k-th square from (row, col) in direction d, and entries equal to Through
// are squares already holding a tile (as in a move's main word). It is
// Place without the square list, allocating nothing once the undo log has
// grown; Undo takes it back.
func (b *Board) PlaceLine(d Dir, row, col int, tiles []alphabet.Tile, turn int) {
	b.begin()
	dr, dc := 0, 1
	if d == Down {
		dr, dc = 1, 0
	}
	for k, t := range tiles {
		if t != Through {
			b.put(row+k*dr, col+k*dc, t, turn)
		}
	}
	for k, t := range tiles {
		if t != Through {
			b.updateAround(row+k*dr, col+k*dc)
		}
	}
	b.seen = b.seen[:0]
}

// begin opens an undo frame.
func (b *Board) begin() {
	b.frames = append(b.frames, frame{log: int32(len(b.log)), placed: int32(len(b.placed))})
}

// put places one tile and clears the cross entries of its square.
func (b *Board) put(r, c int, t alphabet.Tile, turn int) {
	if b.At(r, c) != Empty {
		panic(fmt.Sprintf("board: square %s is not empty", variant.SquareName(r, c)))
	}
	i := r*b.Size + c
	b.grid[Across][i] = t
	b.grid[Down][c*b.Size+r] = t
	b.turn[i] = int16(turn)
	b.tiles++
	b.placed = append(b.placed, int32(i))
	// An occupied square admits nothing.
	b.setCross(Across, i, 0, NoCross)
	b.setCross(Down, c*b.Size+r, 0, NoCross)
}

// setCross changes a cross entry, logging its old value.
func (b *Board) setCross(d Dir, i int, set uint64, score int16) {
	if b.cross[d][i] == set && b.crossScore[d][i] == score {
		return
	}
	if len(b.frames) > 0 {
		b.log = append(b.log, undoEntry{at: int32(int(d)*b.Size*b.Size + i), cross: b.cross[d][i], score: b.crossScore[d][i]})
	}
	b.cross[d][i] = set
	b.crossScore[d][i] = score
}

// Commit forgets the undo log: the placements made so far can no longer
// be undone (Undo and Changed report false), and the log's storage is
// kept for the next ones. A board that is never taken back (a game's)
// commits each placement, so its log does not grow with the game.
func (b *Board) Commit() {
	b.frames, b.log, b.placed = b.frames[:0], b.log[:0], b.placed[:0]
}

// Undo takes back the last Place or PlaceLine not yet undone, restoring
// the tiles and every cross entry exactly; it reports false when there is
// nothing to undo.
func (b *Board) Undo() bool {
	if len(b.frames) == 0 {
		return false
	}
	f := b.frames[len(b.frames)-1]
	b.frames = b.frames[:len(b.frames)-1]
	nn := b.Size * b.Size
	for k := len(b.log) - 1; k >= int(f.log); k-- {
		e := b.log[k]
		d, i := int(e.at)/nn, int(e.at)%nn
		b.cross[d][i], b.crossScore[d][i] = e.cross, e.score
	}
	b.log = b.log[:f.log]
	for _, i := range b.placed[f.placed:] {
		r, c := int(i)/b.Size, int(i)%b.Size
		b.grid[Across][i] = Empty
		b.grid[Down][c*b.Size+r] = Empty
		b.turn[i] = -1
		b.tiles--
	}
	b.placed = b.placed[:f.placed]
	return true
}

// Remove takes tiles off the board and restores the cross-sets around
// them. When the squares are those of the last placement it is Undo;
// otherwise it recomputes the cross-sets around them (and forgets the
// undo log, which no longer describes the board).
func (b *Board) Remove(squares [][2]int) {
	if n := len(b.frames); n > 0 {
		f := b.frames[n-1]
		last := b.placed[f.placed:]
		if len(last) == len(squares) {
			same := true
			for k, sq := range squares {
				if int(last[k]) != sq[0]*b.Size+sq[1] {
					same = false
					break
				}
			}
			if same {
				b.Undo()
				return
			}
		}
	}
	b.log, b.placed, b.frames = b.log[:0], b.placed[:0], b.frames[:0]
	for _, sq := range squares {
		r, c := sq[0], sq[1]
		b.grid[Across][r*b.Size+c] = Empty
		b.grid[Down][c*b.Size+r] = Empty
		b.turn[r*b.Size+c] = -1
		b.tiles--
	}
	for _, sq := range squares {
		r, c := sq[0], sq[1]
		b.computeCross(Across, r, c)
		b.computeCross(Down, c, r)
		b.updateAround(r, c)
	}
	b.seen = b.seen[:0]
}

// updateAround recomputes the cross-sets that a change at (row, col) can
// affect: the empty squares at both ends of the vertical run through it
// (for across plays) and of the horizontal run (for down plays).
func (b *Board) updateAround(row, col int) {
	for d := Across; d <= Down; d++ {
		// In orientation d the perpendicular run is along the column.
		r, c := Orient(d, row, col)
		up := r - 1
		for up >= 0 && b.grid[d][up*b.Size+c] != Empty {
			up--
		}
		if up >= 0 {
			b.crossOnce(d, up, c)
		}
		down := r + 1
		for down < b.Size && b.grid[d][down*b.Size+c] != Empty {
			down++
		}
		if down < b.Size {
			b.crossOnce(d, down, c)
		}
	}
}

// crossOnce recomputes a cross entry unless the current placement already
// did.
func (b *Board) crossOnce(d Dir, r, c int) {
	at := int32(int(d)*b.Size*b.Size + r*b.Size + c)
	for _, x := range b.seen {
		if x == at {
			return
		}
	}
	b.seen = append(b.seen, at)
	b.computeCross(d, r, c)
}

// computeCross sets the cross-set of oriented square (r, c) for plays in d.
func (b *Board) computeCross(d Dir, r, c int) {
	i := r*b.Size + c
	g := b.grid[d]
	if g[i] != Empty {
		b.setCross(d, i, 0, NoCross)
		return
	}
	top := r
	for top > 0 && g[(top-1)*b.Size+c] != Empty {
		top--
	}
	bot := r
	for bot < b.Size-1 && g[(bot+1)*b.Size+c] != Empty {
		bot++
	}
	if top == r && bot == r {
		b.setCross(d, i, b.all, NoCross)
		return
	}
	score := int16(0)
	pre := b.pre[:r-top]
	for k := top; k < r; k++ {
		t := g[k*b.Size+c]
		pre[k-top] = t
		score += b.tileScore(t)
	}
	suf := b.suf[:bot-r]
	for k := r + 1; k <= bot; k++ {
		t := g[k*b.Size+c]
		suf[k-r-1] = t
		score += b.tileScore(t)
	}
	b.setCross(d, i, b.crossSet(pre, suf), score)
}

// tileScore is the face value of a tile on the board (0 for a blank).
func (b *Board) tileScore(t alphabet.Tile) int16 {
	if t.IsBlanked() {
		return 0
	}
	return b.score[t]
}

// crossSet is the set of letters l for which pre·l·suf is a word.
func (b *Board) crossSet(pre, suf []alphabet.Tile) uint64 {
	if b.xs != nil {
		return b.xs.CrossSet(pre, suf) & b.all
	}
	var buf [32]alphabet.Tile
	w := append(append(append(buf[:0], pre...), 0), suf...)
	var set uint64
	for l := 1; l <= b.Variant.Alphabet.Size(); l++ {
		w[len(pre)] = alphabet.Tile(l)
		if b.words.Contains(w) {
			set |= 1 << l
		}
	}
	return set
}

// Recompute rebuilds every cross-set from the tiles (used after loading a
// position, and by tests to check the incremental updates). It forgets
// the undo log.
func (b *Board) Recompute() {
	b.log, b.placed, b.frames = b.log[:0], b.placed[:0], b.frames[:0]
	for d := Across; d <= Down; d++ {
		for r := 0; r < b.Size; r++ {
			for c := 0; c < b.Size; c++ {
				b.computeCross(d, r, c)
			}
		}
	}
}

// SetTile puts a tile on a square (or clears it with Empty) without
// updating cross-sets; call Recompute when done. For loading positions.
func (b *Board) SetTile(row, col int, t alphabet.Tile, turn int) {
	i := row*b.Size + col
	old := b.grid[Across][i]
	if old == Empty && t != Empty {
		b.tiles++
	} else if old != Empty && t == Empty {
		b.tiles--
	}
	b.grid[Across][i] = t
	b.grid[Down][col*b.Size+row] = t
	if t == Empty {
		b.turn[i] = -1
	} else {
		b.turn[i] = int16(turn)
	}
}

// Equal reports whether two boards hold the same tiles and cross-sets.
func (b *Board) Equal(o *Board) bool {
	if b.Size != o.Size || b.tiles != o.tiles {
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
	for c := 0; c < b.Size; c++ {
		sb.WriteString(" " + variant.ColumnName(c))
	}
	sb.WriteString("\n")
	a := b.Variant.Alphabet
	for r := 0; r < b.Size; r++ {
		fmt.Fprintf(&sb, "%3d ", r+1)
		for c := 0; c < b.Size; c++ {
			t := b.At(r, c)
			if t != Empty {
				s := a.String(t)
				sb.WriteString(strings.Repeat(" ", 2-utf8.RuneCountInString(s)) + s)
				continue
			}
			p := b.Variant.Premium(r, c)
			switch {
			case r == b.Variant.StartRow && c == b.Variant.StartCol:
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
