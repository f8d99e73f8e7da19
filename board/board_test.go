package board_test

import (
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/internal/testvariant"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// TestIncrementalCrossSets plays games move by move and checks after each
// move that the incrementally updated cross-sets equal those recomputed
// from scratch, in both orientations, and that the transposed grid agrees.
func TestIncrementalCrossSets(t *testing.T) {
	for _, tc := range []struct{ variant, list string }{
		{"english", "en-sowpods"}, {"spanish", "es-fise"}, {"czech", "cs-hunspell-2to9"},
	} {
		v := variant.MustLoad(tc.variant)
		lex := testvariant.Sample(t, v, tc.list, 40)
		gen := movegen.NewBrute(lex)
		b := board.New(v, lex)
		var bag alphabet.Rack
		copy(bag[:], toU8(v.Counts))
		turns := 0
		for turn := 0; turn < 12; turn++ {
			var rack alphabet.Rack
			// A fixed, varied rack per turn from the tile set.
			for k, n := 0, 0; n < 7 && k < 400; k++ {
				l := 1 + (turn*7+k*5)%v.Alphabet.Size()
				if bag[l] > 0 {
					bag[l]--
					rack[l]++
					n++
				}
			}
			ms := movegen.All(gen, b, &rack)
			if len(ms) == 0 {
				continue
			}
			m := ms[len(ms)/3]
			sq, ts := m.Placed()
			b.Place(sq, ts, turn)
			turns++
			fresh := b.Clone()
			fresh.Recompute()
			if !b.Equal(fresh) {
				t.Fatalf("%s: cross-sets differ from a recomputation after %s", tc.variant, m.String(b))
			}
			for r := 0; r < v.Size; r++ {
				for c := 0; c < v.Size; c++ {
					if b.OAt(board.Down, c, r) != b.At(r, c) {
						t.Fatalf("transposed grid differs at %d,%d", r, c)
					}
				}
			}
		}
		if turns < 5 {
			t.Errorf("%s: only %d moves played", tc.variant, turns)
		}
	}
}

func toU8(xs []int) []uint8 {
	out := make([]uint8, len(xs))
	for i, x := range xs {
		out[i] = uint8(x)
	}
	return out
}

func TestCrossSetsAndAnchors(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CAT", "AT", "TA", "AX", "AB", "ABA")
	if err != nil {
		t.Fatal(err)
	}
	b := board.New(v, lex)
	if !b.IsAnchor(7, 7) || b.IsAnchor(7, 8) {
		t.Error("empty board: only the start square is an anchor")
	}
	m, _ := move.Parse(b, "8H CAT")
	sq, ts := m.Placed()
	b.Place(sq, ts, 0)
	letter := func(s string) uint64 {
		l, _ := v.Alphabet.Letter(s, alphabet.Plain)
		return 1 << l
	}
	// Below A (I9): A? down must be AT, AX or AB; above A (I7): ?A is TA.
	if got, want := b.Cross(board.Across, 8, 8), letter("T")|letter("X")|letter("B"); got != want {
		t.Errorf("cross-set under A = %b, want %b", got, want)
	}
	if got, want := b.Cross(board.Across, 6, 8), letter("T"); got != want {
		t.Errorf("cross-set over A = %b, want %b", got, want)
	}
	if b.CrossScore(board.Across, 8, 8) != 1 || b.CrossScore(board.Across, 8, 12) != board.NoCross {
		t.Error("cross scores wrong")
	}
	// For down plays the across words matter: left of C nothing fits.
	if got := b.Cross(board.Down, 6, 7); got != 0 {
		t.Errorf("cross-set left of CAT = %b, want none", got)
	}
	for _, c := range []struct {
		r, c   int
		anchor bool
	}{{6, 7, true}, {8, 9, true}, {7, 6, true}, {7, 10, true}, {7, 7, false}, {6, 6, false}, {5, 7, false}} {
		if b.IsAnchor(c.r, c.c) != c.anchor {
			t.Errorf("anchor %s = %v", variant.SquareName(c.r, c.c), !c.anchor)
		}
	}
	b.Remove(sq)
	fresh := board.New(v, lex)
	if !b.Equal(fresh) || !b.IsEmpty() {
		t.Error("Remove did not restore the empty board")
	}
}

func TestSmallBoards(t *testing.T) {
	for _, n := range []int{5, 7, 21, 25} {
		v := testvariant.Small(t, n, 3, 0, "A:30:1", "T:30:1")
		lex := testvariant.Lexicon(t, v, "AT", "TA", "TAT")
		b := board.New(v, lex)
		if b.N != n || !b.IsAnchor(n/2, n/2) {
			t.Errorf("size %d board wrong", n)
		}
		m, err := move.Parse(b, variant.SquareName(n/2, n/2)+" TAT")
		if err != nil {
			t.Fatal(err)
		}
		r, _ := v.Alphabet.ParseRack("TAT")
		if err := move.Validate(b, &r, m, 10); err != nil || m.Score != 3 {
			t.Errorf("size %d: %v score %d", n, err, m.Score)
		}
	}
}
