// Package move defines a move (a placement, an exchange or a pass), its
// notation ("8H WORD" across, "H8 WORD" down), the rules that decide
// whether a placement is legal, and its score.
package move

import (
	"fmt"
	"strings"

	"atril/alphabet"
	"atril/board"
	"atril/variant"
)

// Kind is the kind of a move.
type Kind uint8

const (
	// Place puts tiles on the board.
	Place Kind = iota
	// Exchange returns tiles to the bag and draws as many.
	Exchange
	// Pass does nothing.
	Pass
)

// PlayThrough stands, in Move.Tiles, for a square already holding a tile.
const PlayThrough = board.Through

// Move is one turn's action.
type Move struct {
	Kind Kind
	// Placement: the square of the first letter of the main word
	// (including letters already on the board), the direction, and one
	// entry per square of the main word: the tile placed there (a letter
	// or a designated blank) or PlayThrough.
	Row, Col int
	Dir      board.Dir
	Tiles    []alphabet.Tile
	// Exchange: the tiles returned (blanks as alphabet.Blank).
	Exchanged []alphabet.Tile
	// Score of the move (placements only).
	Score int
}

// NewTiles is the number of tiles the move takes from the rack.
func (m *Move) NewTiles() int {
	switch m.Kind {
	case Exchange:
		return 0
	case Place:
		n := 0
		for _, t := range m.Tiles {
			if t != PlayThrough {
				n++
			}
		}
		return n
	}
	return 0
}

// Kept returns rack without the tiles the move puts on the board or
// exchanges: what the player keeps (all of it after a pass).
func (m *Move) Kept(rack alphabet.Rack) alphabet.Rack {
	for _, t := range m.Tiles {
		if t != PlayThrough {
			rack.Remove(t)
		}
	}
	for _, t := range m.Exchanged {
		rack.Remove(t)
	}
	return rack
}

// Square returns the board square of the i-th entry of Tiles.
func (m *Move) Square(i int) (row, col int) {
	if m.Dir == board.Across {
		return m.Row, m.Col + i
	}
	return m.Row + i, m.Col
}

// Placed lists the squares and tiles the move puts on the board.
func (m *Move) Placed() (squares [][2]int, tiles []alphabet.Tile) {
	for i, t := range m.Tiles {
		if t == PlayThrough {
			continue
		}
		r, c := m.Square(i)
		squares = append(squares, [2]int{r, c})
		tiles = append(tiles, t)
	}
	return squares, tiles
}

// Key identifies a placement: equal keys mean the same squares, tiles and
// blank designations. Exchanges and passes have their own keys.
func (m *Move) Key() string {
	switch m.Kind {
	case Pass:
		return "pass"
	case Exchange:
		r := alphabet.RackOf(m.Exchanged)
		return fmt.Sprintf("x%v", r[:])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d,%d,%d:", m.Row, m.Col, m.Dir)
	for _, t := range m.Tiles {
		b.WriteByte(byte(t))
	}
	return b.String()
}

// Position renders the start square: "8H" across, "H8" down.
func (m *Move) Position() string {
	if m.Dir == board.Across {
		return fmt.Sprintf("%d%s", m.Row+1, variant.ColumnName(m.Col))
	}
	return fmt.Sprintf("%s%d", variant.ColumnName(m.Col), m.Row+1)
}

// Word renders the main word with the letters already on the board
// (read from b, which must be the board before the move) shown in place.
// With brackets set it is written so that Parse reads it back
// (alphabet.Spell: "[CH]", and "[L]L" for two L tiles in Spanish).
func (m *Move) Word(b *board.Board, brackets bool) string {
	a := b.Variant.Alphabet
	ts := m.WordTiles(b)
	if brackets {
		return a.Spell(ts)
	}
	return a.Word(ts)
}

// WordTiles returns the main word's tiles, the letters already on the
// board (read from b, the board before the move) included; blanks as
// designated.
func (m *Move) WordTiles(b *board.Board) []alphabet.Tile {
	ts := make([]alphabet.Tile, len(m.Tiles))
	for i, t := range m.Tiles {
		if t == PlayThrough {
			t = b.At(m.Square(i))
		}
		ts[i] = t
	}
	return ts
}

// String renders the move for the board it is played on: "8H WORD",
// "-ABC" for an exchange, "-" for a pass.
func (m *Move) String(b *board.Board) string {
	switch m.Kind {
	case Pass:
		return "-"
	case Exchange:
		return "-" + b.Variant.Alphabet.Spell(m.Exchanged)
	}
	return m.Position() + " " + m.Word(b, true)
}

// appendThrough adds a played-through square to a move being parsed,
// checking that the board holds a tile there (and that it is t, unless t
// is 0).
func (m *Move) appendThrough(b *board.Board, text string, t alphabet.Tile) error {
	r, c := m.Square(len(m.Tiles))
	if !b.In(r, c) {
		return fmt.Errorf("move %q: runs off the board", text)
	}
	on := b.At(r, c)
	if on == board.Empty {
		return fmt.Errorf("move %q: square %s is empty, but the move plays through a tile there", text, variant.SquareName(r, c))
	}
	if t != 0 && on.Letter() != t.Letter() {
		return fmt.Errorf("move %q: square %s holds %s, not %s", text, variant.SquareName(r, c),
			b.Variant.Alphabet.String(on), b.Variant.Alphabet.String(t))
	}
	m.Tiles = append(m.Tiles, PlayThrough)
	return nil
}

// ParsePosition reads "8H" (across) or "H8" (down).
func ParsePosition(s string, size int) (row, col int, dir board.Dir, err error) {
	if s == "" {
		return 0, 0, 0, fmt.Errorf("empty position")
	}
	row, col, err = variant.ParseSquare(s)
	if err != nil {
		return 0, 0, 0, err
	}
	if s[0] >= '0' && s[0] <= '9' {
		dir = board.Across
	} else {
		dir = board.Down
	}
	if row >= size || col >= size {
		return 0, 0, 0, fmt.Errorf("position %q is off the %d×%d board", s, size, size)
	}
	return row, col, dir, nil
}

// Parse reads a move in notation against the board it is to be played on:
// "8H WORD" (across), "H8 WORD" (down), "-ABC" or "exchange ABC" (exchange),
// "-" or "pass". In the word, letters already on the board are written as
// themselves (either case) or as "."; lowercase letters on empty squares
// are blanks. Parse checks only that the text fits the board; use
// Validate for the rules.
func Parse(b *board.Board, s string) (*Move, error) {
	s = strings.TrimSpace(s)
	a := b.Variant.Alphabet
	low := strings.ToLower(s)
	switch {
	case s == "-" || low == "pass":
		return &Move{Kind: Pass}, nil
	case strings.HasPrefix(s, "-") || strings.HasPrefix(low, "exchange ") || strings.HasPrefix(low, "exch "):
		text := strings.TrimSpace(s[strings.IndexAny(s, "- ")+1:])
		ts, err := a.Parse(text, alphabet.WithBlanks)
		if err != nil {
			return nil, fmt.Errorf("exchange: %w", err)
		}
		if len(ts) == 0 {
			return nil, fmt.Errorf("exchange: no tiles given")
		}
		for i, t := range ts {
			if t.IsBlanked() {
				return nil, fmt.Errorf("exchange: tile %d %q: write a blank as ?", i+1, a.String(t))
			}
		}
		return &Move{Kind: Exchange, Exchanged: ts}, nil
	}
	fields := strings.Fields(s)
	if len(fields) != 2 {
		return nil, fmt.Errorf("move %q: want a position and a word, such as \"8H WORD\" or \"H8 WORD\"", s)
	}
	row, col, dir, err := ParsePosition(fields[0], b.Size)
	if err != nil {
		return nil, fmt.Errorf("move %q: %w", s, err)
	}
	m := &Move{Kind: Place, Row: row, Col: col, Dir: dir}
	word := fields[1]
	// Read the word piece by piece: "." is a played-through square, so is
	// a parenthesised group "(AB)"; letters are tiles.
	i := 0
	for i < len(word) {
		switch word[i] {
		case '.':
			if err := m.appendThrough(b, s, 0); err != nil {
				return nil, err
			}
			i++
			continue
		case '(':
			end := strings.IndexByte(word[i:], ')')
			if end < 0 {
				return nil, fmt.Errorf("move %q: unclosed (", s)
			}
			ts, err := a.Parse(word[i+1:i+end], alphabet.WithBlanks)
			if err != nil {
				return nil, fmt.Errorf("move %q: %w", s, err)
			}
			for _, t := range ts {
				if err := m.appendThrough(b, s, t); err != nil {
					return nil, err
				}
			}
			i += end + 1
			continue
		}
		j := i
		for j < len(word) && word[j] != '.' && word[j] != '(' {
			j++
		}
		ts, err := a.Parse(word[i:j], alphabet.WithBlanks)
		if err != nil {
			return nil, fmt.Errorf("move %q: %w", s, err)
		}
		for _, t := range ts {
			if t == alphabet.Blank {
				return nil, fmt.Errorf("move %q: a blank on the board needs a letter: write it in lowercase", s)
			}
			k := len(m.Tiles)
			r, c := m.Square(k)
			if b.In(r, c) && b.At(r, c) != board.Empty {
				if b.At(r, c).Letter() != t.Letter() {
					return nil, fmt.Errorf("move %q: square %s holds %s, not %s", s,
						variant.SquareName(r, c), a.String(b.At(r, c)), a.String(t))
				}
				t = PlayThrough
			}
			m.Tiles = append(m.Tiles, t)
		}
		i = j
	}
	if len(m.Tiles) == 0 {
		return nil, fmt.Errorf("move %q: no word", s)
	}
	return m, nil
}
