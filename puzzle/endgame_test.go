package puzzle

import (
	"slices"
	"testing"

	"atril/move"
	"atril/movegen"
)

// TestMakeEndgame makes endgame puzzles on a short word list and checks
// each against what makes one: the bag empty, the racks of the two seats
// the only tiles left, the best move's value confirmed by MoveValue and
// by the line that gains it, the highest-scoring play worth at least
// MinGain less, and no placement worth more than the best; and the same
// puzzle made twice is the same.
func TestMakeEndgame(t *testing.T) {
	v, lex := short(t)
	gen := movegen.NewGaddag(lex)
	for _, n := range []int{2} { // (2 is made quickly: under a second)
		e, err := MakeEndgame(v, lex, "en-short", n, gen)
		if err != nil {
			t.Fatal(err)
		}
		g := e.Game
		me := g.Current()
		if e.Number != n || e.Lexicon != "en-short" || g.BagLen() != 0 || g.Over() || g.Seats[me].Rack.Len() < minTiles {
			t.Fatalf("endgame %d: number %d, bag %d, over %v, rack %d tiles", n, e.Number, g.BagLen(), g.Over(), g.Seats[me].Rack.Len())
		}
		if len(e.Line) == 0 || e.Top.Kind != move.Place || e.TopValue > e.Value-MinGain {
			t.Fatalf("endgame %d: line %v, top %s worth %d against %d", n, e.Line, e.Top.String(g.Board), e.TopValue, e.Value)
		}
		if got, exact := e.MoveValue(gen, e.Line[0]); got != e.Value || !exact {
			t.Errorf("endgame %d: the best move %s is worth %d (exact %v), the puzzle says %d", n, e.Line[0].String(g.Board), got, exact, e.Value)
		}
		if got, _ := e.MoveValue(gen, e.Top); got != e.TopValue {
			t.Errorf("endgame %d: the top play is worth %d, the puzzle says %d", n, got, e.TopValue)
		}
		rack := g.Seats[me].Rack
		var moves []move.Move
		gen.Generate(g.Board, &rack, func(m *move.Move) {
			if m.Kind == move.Place && m.Score >= e.Top.Score-20 {
				c := *m
				c.Tiles = slices.Clone(m.Tiles)
				moves = append(moves, c)
			}
		})
		for _, m := range moves {
			if got, _ := e.MoveValue(gen, m); got > e.Value {
				t.Errorf("endgame %d: %s is worth %d, more than the best %d", n, m.String(g.Board), got, e.Value)
			}
			if m.Score > e.Top.Score {
				t.Errorf("endgame %d: %s scores %d, more than the top play's %d", n, m.String(g.Board), m.Score, e.Top.Score)
			}
		}
		again, err := MakeEndgame(v, lex, "en-short", n, movegen.NewGaddag(lex))
		if err != nil || again.Game.Board.String() != g.Board.String() || again.Value != e.Value || again.Line[0].Key() != e.Line[0].Key() {
			t.Errorf("endgame %d made again differs: %v", n, err)
		}
	}
	if _, err := MakeEndgame(v, lex, "en-short", 0, gen); err == nil {
		t.Error("endgame puzzle 0 made")
	}
}
