package move

import (
	"fmt"

	"atril/alphabet"
	"atril/board"
	"atril/variant"
)

// RuleError is a placement that breaks a rule, with the reason.
type RuleError struct {
	Move   string
	Reason string
}

func (e *RuleError) Error() string {
	if e.Move == "" {
		return e.Reason
	}
	return e.Move + ": " + e.Reason
}

// Validate checks a move against the rules for the player holding rack on
// board b, and for placements sets m.Score. bagSize is the number of
// tiles in the bag (for the exchange rule: the bag must hold the
// variant's least number of tiles, and at least as many as the exchange
// puts back).
func Validate(b *board.Board, rack *alphabet.Rack, m *Move, bagSize int) error {
	return validate(b, rack, m, bagSize, nil)
}

// ValidateUnjudged is Validate for play under a challenge rule, where a
// placement may form words that are not in the word list (phonies) and
// stands until it is challenged: every other rule is checked as Validate
// checks it, m.Score is set, and the words formed that the list lacks are
// returned, main word first, as the alphabet writes them.
func ValidateUnjudged(b *board.Board, rack *alphabet.Rack, m *Move, bagSize int) (phonies []string, err error) {
	phonies = []string{}
	if err := validate(b, rack, m, bagSize, &phonies); err != nil {
		return nil, err
	}
	if len(phonies) == 0 {
		return nil, nil
	}
	return phonies, nil
}

// validate is Validate; with phonies non-nil, a word not in the word list
// is appended to *phonies instead of refusing the move.
func validate(b *board.Board, rack *alphabet.Rack, m *Move, bagSize int, phonies *[]string) error {
	v := b.Variant
	a := v.Alphabet
	switch m.Kind {
	case Pass:
		m.Score = 0
		return nil
	case Exchange:
		if len(m.Exchanged) == 0 {
			return &RuleError{"exchange", "no tiles to exchange"}
		}
		if bagSize < v.ExchangeMinBag {
			return &RuleError{"exchange", fmt.Sprintf("the bag holds %d tiles; exchanging needs at least %d", bagSize, v.ExchangeMinBag)}
		}
		if len(m.Exchanged) > bagSize {
			// The player draws as many tiles as they put back, before
			// putting them back.
			return &RuleError{"exchange", fmt.Sprintf("%d tiles put back, but the bag holds %d to draw in their place", len(m.Exchanged), bagSize)}
		}
		r := *rack
		for _, t := range m.Exchanged {
			if !r.Remove(t) {
				return &RuleError{"exchange", fmt.Sprintf("tile %s is not on the rack %s", a.String(t), a.RackString(rack))}
			}
		}
		m.Score = 0
		return nil
	case Place:
	default:
		return &RuleError{"", fmt.Sprintf("unknown move kind %d", m.Kind)}
	}
	// The messages are made only when a check fails: a legal move (every
	// move of a computer player) is checked with one allocation at most.
	fail := func(format string, args ...any) error {
		return &RuleError{m.Position(), fmt.Sprintf(format, args...)}
	}
	if m.Dir != board.Across && m.Dir != board.Down {
		return fail("bad direction %d", m.Dir)
	}
	n := len(m.Tiles)
	if n == 0 {
		return fail("no tiles")
	}
	if !b.In(m.Row, m.Col) {
		return fail("starts off the board")
	}
	if er, ec := m.Square(n - 1); !b.In(er, ec) {
		return fail("word of %d squares runs off the %d×%d board", n, b.Size, b.Size)
	}
	// Each square: played-through squares hold tiles, others are empty.
	r := *rack
	newTiles := 0
	connected := false
	coversStart := false
	for i, t := range m.Tiles {
		row, col := m.Square(i)
		sq := func() string { return variant.SquareName(row, col) }
		if t == PlayThrough {
			if b.At(row, col) == board.Empty {
				return fail("square %s is empty: no tile to play through", sq())
			}
			connected = true
			continue
		}
		if b.At(row, col) != board.Empty {
			return fail("square %s already holds %s", sq(), a.String(b.At(row, col)))
		}
		if t == alphabet.Blank {
			return fail("the blank on %s has no letter", sq())
		}
		if int(t.Letter()) < 1 || int(t.Letter()) > a.Size() || (t&^(alphabet.BlankBit|0x3f)) != 0 {
			return fail("bad tile code %d on %s", t, sq())
		}
		if !r.Remove(t) {
			if t.IsBlanked() {
				return fail("no blank on the rack %s for %s", a.RackString(rack), a.String(t))
			}
			return fail("tile %s is not on the rack %s", a.String(t), a.RackString(rack))
		}
		newTiles++
		if b.IsAnchor(row, col) {
			connected = true
		}
		if row == v.StartRow && col == v.StartCol {
			coversStart = true
		}
	}
	if newTiles == 0 {
		return fail("places no tile")
	}
	// The main word must not continue past either end.
	br, bc := m.Square(-1)
	if b.In(br, bc) && b.At(br, bc) != board.Empty {
		return fail("the word continues before %s (square %s holds %s): start the move there",
			variant.SquareName(m.Row, m.Col), variant.SquareName(br, bc), a.String(b.At(br, bc)))
	}
	ar, ac := m.Square(n)
	if b.In(ar, ac) && b.At(ar, ac) != board.Empty {
		return fail("the word continues past its end (square %s holds %s): include it in the word",
			variant.SquareName(ar, ac), a.String(b.At(ar, ac)))
	}
	if b.IsEmpty() {
		if !coversStart {
			return fail("the first move must cover the start square %s", variant.SquareName(v.StartRow, v.StartCol))
		}
		if n < 2 {
			return fail("the first move must form a word of at least two letters")
		}
	} else if !connected {
		return fail("not connected to the tiles on the board")
	}
	// Words formed.
	words := 0
	var buf [32]alphabet.Tile // longer words go to the heap
	if n >= 2 {
		w := mainWord(b, m, buf[:0])
		if !b.Words().Contains(w) {
			if phonies == nil {
				return fail("%s is not a word", a.Word(w))
			}
			*phonies = append(*phonies, a.Word(w))
		}
		words++
	}
	for i, t := range m.Tiles {
		if t == PlayThrough {
			continue
		}
		row, col := m.Square(i)
		w := crossWord(b, m.Dir, row, col, t, buf[:0])
		if len(w) < 2 {
			continue
		}
		if !b.Words().Contains(w) {
			if phonies == nil {
				return fail("%s (formed at %s) is not a word", a.Word(w), variant.SquareName(row, col))
			}
			*phonies = append(*phonies, a.Word(w))
		}
		words++
	}
	if words == 0 {
		return fail("forms no word of two or more letters")
	}
	m.Score = Score(b, m)
	return nil
}

// mainWord appends the tiles of the main word of m on b to w.
func mainWord(b *board.Board, m *Move, w []alphabet.Tile) []alphabet.Tile {
	for i, t := range m.Tiles {
		if t == PlayThrough {
			r, c := m.Square(i)
			t = b.At(r, c)
		}
		w = append(w, t)
	}
	return w
}

// crossWord appends to w the word formed perpendicular to d through
// (row, col) when t is placed there.
func crossWord(b *board.Board, d board.Dir, row, col int, t alphabet.Tile, w []alphabet.Tile) []alphabet.Tile {
	dr, dc := 1, 0 // perpendicular to across is down
	if d == board.Down {
		dr, dc = 0, 1
	}
	r0, c0 := row, col
	for b.In(r0-dr, c0-dc) && b.At(r0-dr, c0-dc) != board.Empty {
		r0, c0 = r0-dr, c0-dc
	}
	for r, c := r0, c0; b.In(r, c); r, c = r+dr, c+dc {
		if r == row && c == col {
			w = append(w, t)
			continue
		}
		if b.At(r, c) == board.Empty {
			break
		}
		w = append(w, b.At(r, c))
	}
	return w
}

// Score computes the score of a placement that is known to be legal:
// letter and word premiums count only under new tiles, blanks score
// nothing, every cross word of two or more tiles scores, and playing a
// whole rack earns the bingo bonus. The main word counts only if it has
// two or more tiles.
func Score(b *board.Board, m *Move) int {
	v := b.Variant
	main, wordMul, cross, placed := 0, 1, 0, 0
	for i, t := range m.Tiles {
		row, col := m.Square(i)
		if t == PlayThrough {
			main += v.Score(b.At(row, col))
			continue
		}
		placed++
		p := v.Premium(row, col)
		ls := v.Score(t) * int(p.LetterMul)
		main += ls
		wordMul *= int(p.WordMul)
		or, oc := board.Orient(m.Dir, row, col)
		if cs := b.CrossScore(m.Dir, or, oc); cs != board.NoCross {
			cross += (cs + ls) * int(p.WordMul)
		}
	}
	total := cross
	if len(m.Tiles) >= 2 {
		total += main * wordMul
	}
	if placed == v.RackSize {
		total += v.BingoBonus
	}
	return total
}
