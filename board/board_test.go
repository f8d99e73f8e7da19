package board_test

import (
	"fmt"
	"slices"
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
			rack := drawRack(&bag, turn, 1, v.Alphabet.Size())
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

// drawRack takes a fixed, varied rack of up to 7 tiles for a turn from
// bag: tile codes first+(turn·7+5k) mod n, for k = 0, 1, ….
func drawRack(bag *alphabet.Rack, turn, first, n int) alphabet.Rack {
	var rack alphabet.Rack
	for k, got := 0, 0; got < 7 && k < 400; k++ {
		l := first + (turn*7+k*5)%n
		if bag[l] > 0 {
			bag[l]--
			rack[l]++
			got++
		}
	}
	return rack
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
		if b.Size != n || !b.IsAnchor(n/2, n/2) {
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

// TestMakeUnmake plays games on full word lists with cross-sets from the
// GADDAG, and at every position makes and unmakes up to 40 of the legal
// moves: after each make the cross-sets must equal a recomputation from
// scratch (and those of a board that looks every word up), and after each
// unmake the board must be exactly as before.
func TestMakeUnmake(t *testing.T) {
	lists := []struct{ variant, list string }{{"english", "en-sowpods"}, {"spanish", "es-fise"}, {"czech", "cs-hunspell-2to9"}}
	if testing.Short() {
		lists = lists[:1]
	}
	for _, tc := range lists {
		v := variant.MustLoad(tc.variant)
		lex, err := lexicon.Open(tc.list, v.Alphabet, lexicon.Options{MaxLen: v.Size})
		if err != nil {
			t.Fatal(err)
		}
		gen := movegen.NewGaddag(lex) // attaches the GADDAG's cross-sets
		b := board.New(v, lex)
		slow := board.New(v, wordsOnly{lex}) // looks up every word
		var bag alphabet.Rack
		copy(bag[:], toU8(v.Counts))
		checked := 0
		for turn := 0; turn < 20; turn++ {
			rack := drawRack(&bag, turn, 0, v.Alphabet.Size()+1)
			ms := movegen.All(gen, b, &rack)
			if len(ms) == 0 {
				continue
			}
			before := b.Clone()
			for k := 0; k < len(ms) && k < 40; k++ {
				m := &ms[k*len(ms)/40%len(ms)]
				b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, turn)
				fresh := b.Clone()
				fresh.Recompute()
				if !b.Equal(fresh) {
					t.Fatalf("%s: cross-sets after making %s differ from a recomputation", tc.variant, m.String(b))
				}
				if err := sameOffLines(b, before); err != nil {
					t.Fatalf("%s: after %s: %v", tc.variant, m.String(b), err)
				}
				if !b.Undo() {
					t.Fatal("Undo found nothing to undo")
				}
				if !b.Equal(before) || b.Tiles() != before.Tiles() {
					t.Fatalf("%s: unmaking %s did not restore the board", tc.variant, m.String(b))
				}
				checked++
			}
			m := ms[len(ms)/3]
			sq, ts := m.Placed()
			b.Place(sq, ts, turn)
			slow.Place(sq, ts, turn)
			if !b.Equal(slow) {
				t.Fatalf("%s: automaton cross-sets differ from word lookups after %s", tc.variant, m.String(b))
			}
			if turn%2 == 1 {
				// As a game does: a committed placement stays, and the
				// next placement is made and unmade as before.
				kept := b.Clone()
				b.Commit()
				if b.Undo() || !b.Equal(kept) {
					t.Fatalf("%s: a placement undone or the board changed after Commit", tc.variant)
				}
				if _, ok := b.Changed(); ok {
					t.Fatalf("%s: Changed found a placement after Commit", tc.variant)
				}
			}
		}
		if checked < 200 {
			t.Errorf("%s: only %d moves made and unmade", tc.variant, checked)
		}
	}
}

// sameOffLines checks board.Changed and board.ChangedSquares: every line
// Changed leaves out holds the same tiles, cross-sets and cross scores as
// before the placement, and every line it names changed in one of them
// (after the first placement on an empty board it names all);
// ChangedSquares names the same lines, and of each the squares whose
// tile, cross-set or cross score changed, no others.
func sameOffLines(b, before *board.Board) error {
	lines, ok := b.Changed()
	if !ok {
		return fmt.Errorf("Changed found no placement")
	}
	var ch board.Changes
	if !b.ChangedSquares(&ch) {
		return fmt.Errorf("ChangedSquares found no placement")
	}
	if ch.Lines != lines {
		return fmt.Errorf("ChangedSquares' lines %v, Changed's %v", ch.Lines, lines)
	}
	for d := board.Across; d <= board.Down; d++ {
		for r := 0; r < b.Size; r++ {
			same := slices.Equal(b.Line(d, r), before.Line(d, r)) &&
				slices.Equal(b.CrossSets(d, r), before.CrossSets(d, r)) &&
				slices.Equal(b.CrossScores(d, r), before.CrossScores(d, r))
			if same == lines.Has(d, r) && (!same || !before.IsEmpty()) {
				return fmt.Errorf("%s line %d: changed %v, in Changed's lines %v", d, r, !same, lines.Has(d, r))
			}
			if before.IsEmpty() {
				continue
			}
			for i := 0; i < b.Size; i++ {
				same := b.Line(d, r)[i] == before.Line(d, r)[i] &&
					b.CrossSets(d, r)[i] == before.CrossSets(d, r)[i] &&
					b.CrossScores(d, r)[i] == before.CrossScores(d, r)[i]
				if in := ch.Squares[d][r]>>i&1 != 0; same == in {
					return fmt.Errorf("%s line %d square %d: changed %v, in ChangedSquares %v", d, r, i, !same, in)
				}
			}
		}
	}
	return nil
}

// wordsOnly hides the lexicon's CrossSet, so a board built on it looks
// every candidate word up.
type wordsOnly struct{ lex *lexicon.Lexicon }

func (w wordsOnly) Contains(ts []alphabet.Tile) bool { return w.lex.Contains(ts) }

// BenchmarkMakeUnmake places and takes back the moves of mid-game
// positions (English, full list, cross-sets from the GADDAG).
func BenchmarkMakeUnmake(b *testing.B) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		b.Fatal(err)
	}
	gen := movegen.NewGaddag(lex)
	bd := board.New(v, lex)
	var moves []move.Move
	var bag alphabet.Rack
	copy(bag[:], toU8(v.Counts))
	for turn := 0; turn < 10; turn++ {
		rack := drawRack(&bag, turn, 1, v.Alphabet.Size())
		ms := movegen.All(gen, bd, &rack)
		if len(ms) == 0 {
			continue
		}
		if turn >= 4 {
			moves = append(moves, ms[len(ms)/4], ms[len(ms)/2], ms[3*len(ms)/4])
		}
		m := ms[len(ms)/3]
		sq, ts := m.Placed()
		bd.Place(sq, ts, turn)
	}
	// make and unmake each sampled move on the final position
	var ok []move.Move
	for _, m := range moves {
		if move.Validate(bd, rackFor(&m), &m, 50) == nil {
			ok = append(ok, m)
		}
	}
	if len(ok) == 0 {
		b.Skip("no move to make")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := &ok[i%len(ok)]
		bd.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 99)
		bd.Undo()
	}
}

func rackFor(m *move.Move) *alphabet.Rack {
	var r alphabet.Rack
	for _, t := range m.Tiles {
		if t == move.PlayThrough {
			continue
		}
		if t.IsBlanked() {
			r.Add(alphabet.Blank)
		} else {
			r.Add(t)
		}
	}
	return &r
}

// TestCopyTo checks that a board copied into another's storage equals
// the original, shares nothing with it (a move placed on the copy leaves
// the original as it was), and starts with an empty undo log, whatever
// the storage held before (the last copy, with a move of its own on it).
func TestCopyTo(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 40)
	gen := movegen.NewBrute(lex)
	b := board.New(v, lex)
	var bag alphabet.Rack
	copy(bag[:], toU8(v.Counts))
	var dst *board.Board
	for turn := 0; turn < 10; turn++ {
		rack := drawRack(&bag, turn, 1, v.Alphabet.Size())
		ms := movegen.All(gen, b, &rack)
		if len(ms) == 0 {
			continue
		}
		dst = b.CopyTo(dst)
		if dst == b || !dst.Equal(b) {
			t.Fatalf("turn %d: the copy differs from the board", turn)
		}
		if dst.Undo() {
			t.Fatalf("turn %d: the copy's undo log is not empty", turn)
		}
		snap := b.Clone()
		// Play on the copy and leave the move there: the next CopyTo
		// must overwrite it.
		m := ms[len(ms)/2]
		sq, ts := m.Placed()
		dst.Place(sq, ts, turn)
		if !b.Equal(snap) {
			t.Fatalf("turn %d: placing on the copy changed the board", turn)
		}
		if dst.Equal(b) {
			t.Fatalf("turn %d: the copy did not take the move", turn)
		}
		m = ms[len(ms)/3]
		sq, ts = m.Placed()
		b.Place(sq, ts, turn)
	}
	if dst == nil {
		t.Fatal("no move was played")
	}
	other := board.New(variant.MustLoad("english"), lex)
	if got := other.CopyTo(nil); got == other || !got.Equal(other) {
		t.Error("CopyTo(nil) is not a fresh copy")
	}
}
