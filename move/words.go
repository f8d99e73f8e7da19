package move

import (
	"atril/alphabet"
	"atril/board"
)

// Words lists the words of two or more tiles a placement forms on board
// b (the board before the move): the main word first, then each cross
// word in the order of the new tiles. It reads the squares the way
// Validate does and checks nothing.
func Words(b *board.Board, m *Move) [][]alphabet.Tile {
	if m.Kind != Place {
		return nil
	}
	var out [][]alphabet.Tile
	if len(m.Tiles) >= 2 {
		out = append(out, mainWord(b, m, nil))
	}
	for i, t := range m.Tiles {
		if t == PlayThrough {
			continue
		}
		row, col := m.Square(i)
		if w := crossWord(b, m.Dir, row, col, t, nil); len(w) >= 2 {
			out = append(out, w)
		}
	}
	return out
}
