package interval_test

import (
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/movegen"
	"atril/movegen/internal/searchtest"
	"atril/movegen/interval"
)

// TestMemoKept checks the anagram searcher, which keeps its memo of
// candidate lists from one best-by-equity search to the next of the same
// rack under the same FixedLeave (or none): on the positions of greedy
// games, each rack searched on its board, near the changes of the next
// move (TopNTouching), on the next board, then another rack, then the
// first again, the top 5 are those of a fresh searcher; so are those of
// a leave that is no FixedLeave and changes between two searches.
func TestMemoKept(t *testing.T) {
	v, full := ivLexicon(t, "english", "en-sowpods")
	lex := ivSample(full, 8)
	ana, err := interval.NewAnagram(lex)
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() movegen.ChangeSearcher { return interval.NewAnagramFrom(ana.Tables) }
	same := func(what string, b *board.Board, rack *alphabet.Rack, got, want []movegen.Scored) {
		t.Helper()
		if err := searchtest.SameList(b, got, want); err != nil {
			t.Fatalf("%s, rack %s: %v\n%s", what, v.Alphabet.RackString(rack), err, b)
		}
	}
	clone := searchtest.CloneAll
	fixed, salted := &searchtest.FixedLeave{}, &searchtest.SaltedLeave{}
	checked := 0
	eachGreedyPlacement(t, v, lex, 6, func(b *board.Board, rack alphabet.Rack, m move.Move, g *game.Game) {
		next := g.Board
		other := g.Seats[g.Current()].Rack
		var ch board.Changes
		after := b.Clone()
		after.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1)
		after.ChangedSquares(&ch)
		for _, leave := range []movegen.Leave{nil, fixed} {
			got := clone(ana.TopN(b, &rack, leave, 5, nil))
			same("before", b, &rack, got, fresh().TopN(b, &rack, leave, 5, nil))
			got = clone(ana.TopNTouching(after, &rack, leave, 5, &ch, -1e9, nil))
			same("near the changes", after, &rack, got, fresh().TopNTouching(after, &rack, leave, 5, &ch, -1e9, nil))
			got = clone(ana.TopN(next, &rack, leave, 5, nil))
			same("next board", next, &rack, got, fresh().TopN(next, &rack, leave, 5, nil))
			got = clone(ana.TopN(next, &other, leave, 5, nil))
			same("another rack", next, &other, got, fresh().TopN(next, &other, leave, 5, nil))
			got = clone(ana.TopN(next, &rack, leave, 5, nil))
			same("the first rack again", next, &rack, got, fresh().TopN(next, &rack, leave, 5, nil))
			checked++
		}
		for _, salt := range []float64{0, 9} {
			salted.Salt = salt
			got := clone(ana.TopN(next, &rack, salted, 5, nil))
			same("salted leave", next, &rack, got, fresh().TopN(next, &rack, salted, 5, nil))
		}
	})
	if checked < 100 {
		t.Fatalf("%d positions checked", checked)
	}
}
