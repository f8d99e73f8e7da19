package puzzle

import (
	"testing"
	"time"

	"atril/internal/testgame"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// short is the English variant with the words of at most four letters
// of en-sowpods (quick to play games with).
func short(t *testing.T) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	v, lex, err := testgame.ShortEnglish(4)
	if err != nil {
		t.Fatal(err)
	}
	return v, lex
}

func TestMake(t *testing.T) {
	v, lex := short(t)
	mk := func(n int) *Puzzle {
		t.Helper()
		p, err := Make(v, lex, "en-short", n, movegen.NewBrute(lex))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, n := range []int{1, 2, 3} {
		p := mk(n)
		g := p.Game
		rack := g.Seats[g.Current()].Rack
		if p.Number != n || p.Lexicon != "en-short" || rack.Len() != v.RackSize || g.BagLen() < v.RackSize || g.MovesPlayed() < 3 || g.Over() {
			t.Errorf("puzzle %d: number %d, rack %d tiles, bag %d, %d moves played, over %v", n, p.Number, rack.Len(), g.BagLen(), g.MovesPlayed(), g.Over())
		}
		// Its scores are every placement's, highest first, and the best
		// shown are the highest.
		var all []int
		for _, m := range movegen.All(movegen.NewBrute(lex), g.Board, &rack) {
			if m.Kind == move.Place {
				all = append(all, m.Score)
			}
		}
		if len(all) != len(p.Scores) || len(p.Scores) < MinMoves || p.Scores[0] < MinBest {
			t.Fatalf("puzzle %d: %d scores, %d placements, best %d", n, len(p.Scores), len(all), p.Scores[0])
		}
		for k := 1; k < len(p.Scores); k++ {
			if p.Scores[k] > p.Scores[k-1] {
				t.Fatalf("puzzle %d: scores out of order at %d", n, k)
			}
		}
		if len(p.Best) != Shown || p.Best[0].Score != p.Scores[0] || p.Best[Shown-1].Score != p.Scores[Shown-1] {
			t.Errorf("puzzle %d: best %v against scores %v", n, p.Best, p.Scores[:Shown])
		}
		for _, m := range p.Best {
			c := m
			if err := g.Check(&c); err != nil || c.Score != m.Score {
				t.Errorf("puzzle %d: best play %s: %v (score %d, checked %d)", n, m.String(g.Board), err, m.Score, c.Score)
			}
		}
		// The same puzzle again: the same position.
		q := mk(n)
		if q.Game.Board.String() != g.Board.String() || q.Game.Seats[q.Game.Current()].Rack != rack {
			t.Errorf("puzzle %d made twice: two positions", n)
		}
	}
	if mk(1).Game.Board.String() == mk(2).Game.Board.String() {
		t.Error("puzzles 1 and 2 have the same board")
	}
	for _, n := range []int{0, -1, Max + 1} {
		if _, err := Make(v, lex, "en-short", n, movegen.NewBrute(lex)); err == nil {
			t.Errorf("puzzle %d: no error", n)
		}
	}
}

func TestRank(t *testing.T) {
	p := &Puzzle{Scores: []int{40, 38, 38, 30, 12}}
	for _, tc := range []struct{ score, want int }{{40, 1}, {38, 2}, {35, 4}, {30, 4}, {12, 5}, {5, 6}} {
		if got := p.Rank(tc.score); got != tc.want {
			t.Errorf("rank of %d: %d, want %d", tc.score, got, tc.want)
		}
	}
}

func TestRushTarget(t *testing.T) {
	p := &Puzzle{Scores: []int{40, 38, 38, 30, 30, 25, 20, 18, 16, 12, 9, 8}}
	// Distinct scores: 40, 38, 30, 25, 20, 18, 16, 12, 9, 8.
	want := []int{12, 12, 20, 20, 30, 30, 38, 38, 40, 40, 40}
	for k, w := range want {
		if got := p.RushTarget(k); got != w {
			t.Errorf("puzzle %d of a rush: target %d, want %d", k, got, w)
		}
	}
	// Fewer distinct scores than the rank: the lowest.
	q := &Puzzle{Scores: []int{31, 31, 22}}
	if got := q.RushTarget(0); got != 22 {
		t.Errorf("two distinct scores, rank %d: target %d, want 22", RushRanks[0], got)
	}
}

func TestRush(t *testing.T) {
	v, lex := short(t)
	mk := func(seed uint64, k int) *Puzzle {
		t.Helper()
		p, err := Rush(v, lex, "en-short", seed, k, movegen.NewBrute(lex))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := mk(7, 0), mk(7, 0)
	if a.Number != 1 || a.Lexicon != "en-short" || a.Game.Board.String() != b.Game.Board.String() || a.Game.Seats[a.Game.Current()].Rack != b.Game.Seats[b.Game.Current()].Rack {
		t.Errorf("rush puzzle made twice: number %d, two positions or racks", a.Number)
	}
	if len(a.Scores) < MinMoves || a.Scores[0] < MinBest {
		t.Errorf("rush puzzle: %d scores, best %d", len(a.Scores), a.Scores[0])
	}
	if c := mk(7, 1); c.Number != 2 || c.Game.Board.String() == a.Game.Board.String() {
		t.Errorf("rush puzzles 0 and 1 of one seed: number %d, same board %v", c.Number, c.Game.Board.String() == a.Game.Board.String())
	}
	if d := mk(8, 0); d.Game.Board.String() == a.Game.Board.String() {
		t.Error("two seeds dealt the same first rush puzzle")
	}
	// The rush's series is not the numbered puzzles'.
	n, err := Make(v, lex, "en-short", 1, movegen.NewBrute(lex))
	if err != nil {
		t.Fatal(err)
	}
	if n.Game.Board.String() == a.Game.Board.String() && n.Game.Seats[n.Game.Current()].Rack == a.Game.Seats[a.Game.Current()].Rack {
		t.Error("rush puzzle 0 of seed 7 is puzzle 1")
	}
	for _, k := range []int{-1, Max} {
		if _, err := Rush(v, lex, "en-short", 7, k, movegen.NewBrute(lex)); err == nil {
			t.Errorf("rush puzzle %d: no error", k)
		}
	}
}

func TestToday(t *testing.T) {
	for _, tc := range []struct {
		at   time.Time
		want int
	}{
		{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 1},
		{time.Date(2026, 1, 1, 23, 59, 59, 0, time.UTC), 1},
		{time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), 2},
		{time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), 329},
		// The day is UTC's: 1 a.m. in Prague on 2 January is still day 1.
		{time.Date(2026, 1, 2, 0, 30, 0, 0, time.FixedZone("CET", 3600)), 1},
	} {
		if got := Today(tc.at); got != tc.want {
			t.Errorf("Today(%v) = %d, want %d", tc.at, got, tc.want)
		}
	}
}
