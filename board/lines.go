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
