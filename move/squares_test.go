package move

import (
	"errors"
	"strings"
	"testing"

	"atril/alphabet"
)

func TestFromSquares(t *testing.T) {
	b := setup(t, "english", enWords, "8H CAT")
	a := b.Variant.Alphabet
	tile := func(s string) alphabet.Tile {
		l, err := a.Letter(strings.ToUpper(s), alphabet.Plain)
		if err != nil {
			t.Fatal(err)
		}
		if s != strings.ToUpper(s) {
			l |= alphabet.BlankBit
		}
		return l
	}
	sq := func(r, c int, s string) SquareTile { return SquareTile{Row: r, Col: c, Tile: tile(s)} }
	tests := []struct {
		name  string
		tiles []SquareTile
		want  string // the move in notation, or a part of the error
		bad   bool
	}{
		{"hook after the word", []SquareTile{sq(7, 10, "S")}, "8H CATS", false},
		{"front hook with a blank", []SquareTile{sq(7, 6, "s")}, "8G sCAT", false},
		{"one tile under a letter reads down", []SquareTile{sq(8, 8, "X")}, "I8 AX", false},
		{"one tile alone reads across", []SquareTile{sq(0, 0, "A")}, "1A A", false},
		{"a column through a board letter", []SquareTile{sq(6, 9, "A"), sq(8, 9, "X")}, "J7 ATX", false},
		{"given out of order", []SquareTile{sq(7, 11, "S"), sq(7, 10, "S")}, "8H CATSS", false},
		{"empty", nil, "at least one tile", true},
		{"off the board", []SquareTile{sq(15, 0, "A")}, "off the 15×15 board", true},
		{"twice on a square", []SquareTile{sq(6, 6, "A"), sq(6, 6, "B")}, "two tiles on", true},
		{"on a taken square", []SquareTile{sq(7, 8, "A")}, "already taken", true},
		{"not in one line", []SquareTile{sq(6, 6, "A"), sq(5, 5, "B")}, "one row or one column", true},
		{"a gap", []SquareTile{sq(7, 11, "S"), sq(7, 13, "S")}, "without gaps", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := FromSquares(b, tc.tiles)
			if tc.bad {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %v, %v; want an error with %q", m, err, tc.want)
				}
				if re := (*RuleError)(nil); !errors.As(err, &re) {
					t.Fatalf("error %v is not a *RuleError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := m.String(b); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
