package server

import (
	"encoding/json"
	"testing"
	"time"
)

// position is a puzzle's board and rack as text.
func position(p PuzzleInfo) string {
	b, _ := json.Marshal([]any{p.State.Board, p.State.You.Rack})
	return string(b)
}

// TestPuzzle reads a puzzle twice (from two servers: the same
// position), previews and answers it, and asks for its solution.
func TestPuzzle(t *testing.T) {
	e := newEnv(t, newStore(t))
	var p PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/5", "", nil, &p); code != 200 {
		t.Fatalf("puzzle 5: %d", code)
	}
	st := p.State
	if p.Number != 5 || p.Lexicon != "en-sowpods" || p.Goal != "score" || p.Today != PuzzleToday(time.Now()) || st == nil || st.You == nil {
		t.Fatalf("puzzle 5: %+v", p)
	}
	if len(st.You.Rack) != 7 || st.Turn != st.You.Seat || st.Bag < 7 || len(st.Board) == 0 || len(st.History) < 3 || st.Over {
		t.Errorf("puzzle 5's position: rack %d tiles, turn %d (you %d), bag %d, %d tiles on the board, %d moves, over %v",
			len(st.You.Rack), st.Turn, st.You.Seat, st.Bag, len(st.Board), len(st.History), st.Over)
	}
	var again PuzzleInfo
	if code := newEnv(t, newStore(t)).do("GET", "/api/puzzles/en-sowpods/5", "", nil, &again); code != 200 ||
		position(again) != position(p) {
		t.Errorf("puzzle 5 on another server: %d, another position", code)
	}
	var other PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/6", "", nil, &other); code != 200 ||
		position(other) == position(p) {
		t.Errorf("puzzle 6: %d, the same position as 5", code)
	}
	var today PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/today", "", nil, &today); code != 200 || today.Number != PuzzleToday(time.Now()) {
		t.Errorf("today's puzzle: %d, number %d", code, today.Number)
	}
	for _, path := range []string{"/api/puzzles/en-sowpods/0", "/api/puzzles/en-sowpods/x", "/api/puzzles/en-sowpods/1000001", "/api/puzzles/xx-none/1"} {
		if code := e.do("GET", path, "", nil, nil); code != 404 {
			t.Errorf("%s: %d, want 404", path, code)
		}
	}

	// The solution, asked for.
	var sol PuzzleAnswer
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"reveal": true}, &sol); code != 200 ||
		len(sol.Best) == 0 || sol.Best[0].Score != sol.BestScore || sol.BestScore < puzzleMinBest || sol.Moves < puzzleMinMoves || sol.Correct {
		t.Fatalf("the solution: %d %+v", code, sol)
	}
	for k := 1; k < len(sol.Best); k++ {
		if sol.Best[k].Score > sol.Best[k-1].Score {
			t.Errorf("the best placements are not in order of score: %+v", sol.Best)
		}
	}
	tiles := func(c Candidate) []PlacedTile {
		var out []PlacedTile
		for _, x := range c.Tiles {
			out = append(out, PlacedTile{Row: *x.Row, Col: *x.Col, Letter: x.Letter, Blank: x.Blank})
		}
		return out
	}
	// The best play previews as it scores, and answers right; the last
	// one shown ranks below the best unless it scores as much.
	var pv Preview
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/preview", "", map[string]any{"tiles": tiles(sol.Best[0])}, &pv); code != 200 || !pv.OK || pv.Score != sol.BestScore {
		t.Errorf("preview of the best play: %d %+v", code, pv)
	}
	var ans PuzzleAnswer
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"tiles": tiles(sol.Best[0])}, &ans); code != 200 || !ans.Correct || ans.Rank != 1 || ans.Score != sol.BestScore {
		t.Errorf("the best play: %d %+v", code, ans)
	}
	last := sol.Best[len(sol.Best)-1]
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"tiles": tiles(last)}, &ans); code != 200 || !ans.OK ||
		ans.Correct != (last.Score == sol.BestScore) || (ans.Rank == 1) != (last.Score == sol.BestScore) || ans.Rank > len(sol.Best) {
		t.Errorf("the play shown last (%d points): %d %+v", last.Score, code, ans)
	}
	// A play the rules refuse shows nothing of the solution.
	bad := tiles(sol.Best[0])[:1]
	bad[0].Row, bad[0].Col = 0, 0
	var refused PuzzleAnswer
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"tiles": bad}, &refused); code != 200 || refused.OK || refused.Reason == "" || refused.Best != nil || refused.BestScore != 0 {
		t.Errorf("a refused play: %d %+v", code, refused)
	}
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"tiles": []PlacedTile{}}, nil); code != 400 {
		t.Errorf("no tiles: %d, want 400", code)
	}
}
