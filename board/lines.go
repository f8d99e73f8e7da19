package board

// Lines is a set of lines of a board: bit r of Lines[d] is line r in
// direction d (row r for Across, column r for Down). Boards have at most
// 64 squares a side.
type Lines [2]uint64

// AllLines is every line of a board of n squares a side.
func AllLines(n int) Lines {
	m := uint64(1)<<n - 1
	if n >= 64 {
		m = ^uint64(0)
	}
	return Lines{m, m}
}

// Has reports whether line r in direction d is in the set.
func (l Lines) Has(d Dir, r int) bool { return l[d]>>r&1 != 0 }

// Add puts line r in direction d in the set.
func (l *Lines) Add(d Dir, r int) { l[d] |= 1 << r }

// Changed returns the lines the last placement not yet undone (Place or
// PlaceLine) touched: the row and column of every tile it put, and the
// line of every cross entry it changed (a cross entry for plays in
// direction d lies on a line in direction d). Nothing outside the
// returned lines changed for move generation: every move of any rack whose line is not in the set is a move, with the same
// score, on the board before the placement, and the other way round. It
// returns false when there is no placement to look back on. After the
// first placement on an empty board (where the rules for moves differ)
// it returns every line.
func (b *Board) Changed() (Lines, bool) {
	var l Lines
	if len(b.frames) == 0 {
		return l, false
	}
	f := b.frames[len(b.frames)-1]
	if b.tiles == len(b.placed)-int(f.placed) {
		return AllLines(b.Size), true
	}
	for _, i := range b.placed[f.placed:] {
		l.Add(Across, int(i)/b.Size)
		l.Add(Down, int(i)%b.Size)
	}
	nn := b.Size * b.Size
	for _, e := range b.log[f.log:] {
		d, i := Dir(int(e.at)/nn), int(e.at)%nn
		l.Add(d, i/b.Size)
	}
	return l, true
}

// Changes are the squares a placement changed for move generation, line
// by line: bit i of Squares[d][r] is square i of line r in direction d
// (row r across, column r down) when the placement put a tile on it or
// changed its cross entry for plays in direction d. Lines holds the
// lines with any bit set. A move in direction d whose main word covers
// none of the squares of its line in Squares[d], and ends on none next
// to one, is a move of the board before the placement with the same
// score, and the other way round.
type Changes struct {
	Lines   Lines
	Squares [2][64]uint64
}

// Span is the set of squares lo..hi (0 ≤ lo ≤ hi < 64) of a line, as a
// bit mask like those of Changes.
func Span(lo, hi int) uint64 {
	return (^uint64(0) >> (63 - hi)) &^ (uint64(1)<<lo - 1)
}

// Touches reports whether a word on squares lo..hi of line line in
// direction d, or a square next to one of its ends, is a changed square.
func (c *Changes) Touches(d Dir, line, lo, hi int) bool {
	return c.Squares[d][line]&Span(max(lo-1, 0), min(hi+1, 63)) != 0
}

// ChangedSquares sets ch to the changes of the last placement not yet
// undone (Place or PlaceLine), as Changed gives its lines; it returns
// false when there is none. After the first placement on an empty board
// every square of every line is changed.
func (b *Board) ChangedSquares(ch *Changes) bool {
	*ch = Changes{}
	if len(b.frames) == 0 {
		return false
	}
	f := b.frames[len(b.frames)-1]
	if b.tiles == len(b.placed)-int(f.placed) {
		ch.Lines = AllLines(b.Size)
		for d := range ch.Squares {
			for r := 0; r < b.Size; r++ {
				ch.Squares[d][r] = Span(0, b.Size-1)
			}
		}
		return true
	}
	for _, i := range b.placed[f.placed:] {
		r, c := int(i)/b.Size, int(i)%b.Size
		ch.Squares[Across][r] |= 1 << c
		ch.Squares[Down][c] |= 1 << r
	}
	nn := b.Size * b.Size
	for _, e := range b.log[f.log:] {
		d, i := Dir(int(e.at)/nn), int(e.at)%nn
		ch.Squares[d][i/b.Size] |= 1 << (i % b.Size)
	}
	for d := range ch.Squares {
		for r := 0; r < b.Size; r++ {
			if ch.Squares[d][r] != 0 {
				ch.Lines.Add(Dir(d), r)
			}
		}
	}
	return true
}
