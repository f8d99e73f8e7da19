package server

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"atril/puzzle"
	"atril/rating"
	"atril/store"
)

// puzzleText is a puzzle's board and rack as text.
func puzzleText(p PuzzleInfo) string {
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
	if p.Number != 5 || p.Lexicon != "en-sowpods" || p.Goal != "score" || p.Today != puzzle.Today(time.Now()) || st == nil || st.You == nil {
		t.Fatalf("puzzle 5: %+v", p)
	}
	if len(st.You.Rack) != 7 || st.Turn != st.You.Seat || st.Bag < 7 || len(st.Board) == 0 || len(st.History) < 3 || st.Over {
		t.Errorf("puzzle 5's position: rack %d tiles, turn %d (you %d), bag %d, %d tiles on the board, %d moves, over %v",
			len(st.You.Rack), st.Turn, st.You.Seat, st.Bag, len(st.Board), len(st.History), st.Over)
	}
	// Its CGP line sets up the same position on the analysis board.
	var pos PositionInfo
	if code := e.do("POST", "/api/position", "", PositionRequest{CGP: p.CGP}, &pos); code != 200 ||
		len(pos.State.Board) != len(st.Board) || len(pos.State.You.Rack) != 7 || pos.State.Bag != st.Bag || pos.Lexicon != "en-sowpods" {
		t.Errorf("puzzle 5's line %q: %d, %+v", p.CGP, code, pos.State)
	}
	var again PuzzleInfo
	if code := newEnv(t, newStore(t)).do("GET", "/api/puzzles/en-sowpods/5", "", nil, &again); code != 200 ||
		puzzleText(again) != puzzleText(p) {
		t.Errorf("puzzle 5 on another server: %d, another position", code)
	}
	var other PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/6", "", nil, &other); code != 200 ||
		puzzleText(other) == puzzleText(p) {
		t.Errorf("puzzle 6: %d, the same position as 5", code)
	}
	var today PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/today", "", nil, &today); code != 200 || today.Number != puzzle.Today(time.Now()) {
		t.Errorf("today's puzzle: %d, number %d", code, today.Number)
	}
	ahead := fmt.Sprintf("/api/puzzles/en-sowpods/%d", puzzle.Today(time.Now())+1)
	for _, path := range []string{"/api/puzzles/en-sowpods/0", "/api/puzzles/en-sowpods/x", "/api/puzzles/en-sowpods/1000001", "/api/puzzles/xx-none/1", ahead} {
		if code := e.do("GET", path, "", nil, nil); code != 404 {
			t.Errorf("%s: %d, want 404", path, code)
		}
	}

	// The solution, asked for.
	var sol PuzzleAnswer
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"reveal": true}, &sol); code != 200 ||
		len(sol.Best) == 0 || sol.Best[0].Score != sol.BestScore || sol.BestScore < puzzle.MinBest || sol.Moves < puzzle.MinMoves || sol.Correct {
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

// TestPuzzleRecords: a signed-in account's first answer to a puzzle is
// kept (the solution asked for first counts as not solved), shown with
// the puzzle and counted on the player's page.
func TestPuzzleRecords(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana := browser(t)
	e.signUp(ana, "Ana", "anagrams1")
	var sol PuzzleAnswer
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"reveal": true}, &sol); code != 200 || sol.First != nil {
		t.Fatalf("a guest's look at the solution: %d, first %+v", code, sol.First)
	}
	tiles := func(c Candidate) []PlacedTile {
		var out []PlacedTile
		for _, x := range c.Tiles {
			out = append(out, PlacedTile{Row: *x.Row, Col: *x.Col, Letter: x.Letter, Blank: x.Blank})
		}
		return out
	}
	answer := func(n int, body map[string]any) PuzzleAnswer {
		t.Helper()
		var a PuzzleAnswer
		if code := e.doWith(ana, "POST", fmt.Sprintf("/api/puzzles/en-sowpods/%d/answer", n), "", body, &a); code != 200 {
			t.Fatalf("answer to puzzle %d: %d", n, code)
		}
		return a
	}
	info := func(n int) PuzzleInfo {
		t.Helper()
		var p PuzzleInfo
		if code := e.doWith(ana, "GET", fmt.Sprintf("/api/puzzles/en-sowpods/%d", n), "", nil, &p); code != 200 {
			t.Fatalf("puzzle %d: %d", n, code)
		}
		return p
	}
	if p := info(5); p.Answered != nil {
		t.Errorf("puzzle 5 before an answer: answered %+v", p.Answered)
	}
	// Right at the first try; a later answer changes nothing.
	if a := answer(5, map[string]any{"tiles": tiles(sol.Best[0])}); a.First == nil || !a.First.Correct || a.First.Score != sol.BestScore {
		t.Errorf("the first answer: %+v", a.First)
	}
	if a := answer(5, map[string]any{"reveal": true}); a.First == nil || !a.First.Correct || a.AnsweredBy != 1 || a.SolvedBy != 1 {
		t.Errorf("a later look at the solution: first %+v, answered by %d, solved by %d", a.First, a.AnsweredBy, a.SolvedBy)
	}
	// Another account looks at the solution first: counted as answered.
	bo := browser(t)
	e.signUp(bo, "Boris", "anagrams2")
	var ba PuzzleAnswer
	if code := e.doWith(bo, "POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"reveal": true}, &ba); code != 200 || ba.AnsweredBy != 2 || ba.SolvedBy != 1 {
		t.Errorf("Boris's look at the solution: %d, answered by %d, solved by %d; want 2 and 1", code, ba.AnsweredBy, ba.SolvedBy)
	}
	if p := info(5); p.Answered == nil || !p.Answered.Correct || p.Answered.Revealed {
		t.Errorf("puzzle 5 after the answer: answered %+v", p.Answered)
	}
	// The solution asked for first: not solved, whatever comes after.
	var sol6 PuzzleAnswer
	e.do("POST", "/api/puzzles/en-sowpods/6/answer", "", map[string]any{"reveal": true}, &sol6)
	if a := answer(6, map[string]any{"reveal": true}); a.First == nil || !a.First.Revealed || a.First.Correct {
		t.Errorf("the solution asked for first: %+v", a.First)
	}
	if a := answer(6, map[string]any{"tiles": tiles(sol6.Best[0])}); !a.Correct || a.First == nil || !a.First.Revealed {
		t.Errorf("the best play after the solution: correct %v, first %+v", a.Correct, a.First)
	}
	// A refused play is no answer.
	bad := tiles(sol.Best[0])[:1]
	bad[0].Row, bad[0].Col = 0, 0
	if a := answer(7, map[string]any{"tiles": bad}); a.OK || a.First != nil {
		t.Errorf("a refused play: %+v", a)
	}
	if p := info(7); p.Answered != nil {
		t.Errorf("puzzle 7 after a refused play: answered %+v", p.Answered)
	}
	var prof Profile
	if code := e.do("GET", "/api/players/Ana", "", nil, &prof); code != 200 || prof.Puzzles.Tried != 2 || prof.Puzzles.Solved != 1 {
		t.Errorf("Ana's puzzles on her page: %d %+v", code, prof.Puzzles)
	}
}

func TestPuzzleStats(t *testing.T) {
	rec := func(n int, ok bool) store.PuzzleRecord {
		return store.PuzzleRecord{Lexicon: "en", Number: n, Correct: ok}
	}
	for _, tc := range []struct {
		rs   []store.PuzzleRecord
		want PuzzleStats
	}{
		{nil, PuzzleStats{}},
		{[]store.PuzzleRecord{rec(100, true), rec(99, true), rec(98, false), rec(97, true)}, PuzzleStats{Tried: 4, Solved: 3, Streak: 2}},
		// Today's not solved yet: the streak up to yesterday holds.
		{[]store.PuzzleRecord{rec(99, true), rec(98, true)}, PuzzleStats{Tried: 2, Solved: 2, Streak: 2}},
		{[]store.PuzzleRecord{rec(100, false), rec(99, true)}, PuzzleStats{Tried: 2, Solved: 1, Streak: 1}},
		{[]store.PuzzleRecord{rec(98, true)}, PuzzleStats{Tried: 1, Solved: 1}},
		// Two lists on one day count once.
		{[]store.PuzzleRecord{rec(100, true), {Lexicon: "es", Number: 100, Correct: true}, rec(99, true)}, PuzzleStats{Tried: 3, Solved: 3, Streak: 2}},
	} {
		got := puzzleStats(tc.rs, nil, 100)
		if got.Tried != tc.want.Tried || got.Solved != tc.want.Solved || got.Streak != tc.want.Streak || got.Ratings == nil || len(got.Ratings) != 0 {
			t.Errorf("%v: got %+v, want %+v", tc.rs, got, tc.want)
		}
	}
	rs := []store.PuzzleRating{{Lexicon: "en", R: 1612.4, RD: 201.6, Answered: 3, Solved: 2}}
	if got := puzzleStats(nil, rs, 100).Ratings; len(got) != 1 || got[0] != (PuzzleRatingInfo{Lexicon: "en", Rating: 1612, Deviation: 202, Provisional: true, Answered: 3, Solved: 2}) {
		t.Errorf("the ratings of the figures: %+v", got)
	}
}

func TestNextPuzzle(t *testing.T) {
	lv := func(n int, r float64) store.PuzzleRating { return store.PuzzleRating{Number: n, R: r, Answered: 1} }
	for _, tc := range []struct {
		name     string
		today    int
		mine     float64
		answered []int
		levels   []store.PuzzleRating
		want     int
		level    float64
		ok       bool
	}{
		{"nothing rated: today's", 10, 1500, nil, nil, 10, 1500, true},
		{"today's answered: yesterday's", 10, 1500, []int{10}, nil, 9, 1500, true},
		{"the nearest rating", 10, 1800, []int{2, 10}, []store.PuzzleRating{lv(3, 1700), lv(4, 1850), lv(9, 1300)}, 4, 1850, true},
		{"answered ones left out", 10, 1800, []int{4}, []store.PuzzleRating{lv(3, 1700), lv(4, 1810), lv(9, 1300)}, 3, 1700, true},
		{"as near: the latest", 10, 1600, nil, []store.PuzzleRating{lv(3, 1700), lv(7, 1700)}, 10, 1500, true},
		{"as near, rated: the latest", 10, 1700, nil, []store.PuzzleRating{lv(3, 1700), lv(7, 1700)}, 7, 1700, true},
		{"a low rating", 5, 1100, []int{1}, []store.PuzzleRating{lv(2, 1250), lv(5, 1400)}, 2, 1250, true},
		{"every one answered", 3, 1500, []int{1, 2, 3}, nil, 0, 0, false},
	} {
		n, level, ok := nextPuzzle(tc.today, tc.mine, tc.answered, tc.levels)
		if n != tc.want || level != tc.level || ok != tc.ok {
			t.Errorf("%s: got %d (%v) %v, want %d (%v) %v", tc.name, n, level, ok, tc.want, tc.level, tc.ok)
		}
	}
}

// TestPuzzleRatings: a first answer rates the account and the puzzle
// against each other; the page, the player's page, the data download
// and the next puzzle at one's level show the ratings.
func TestPuzzleRatings(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "anagrams1")
	e.signUp(bo, "Boris", "anagrams2")
	var sol PuzzleAnswer
	if code := e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"reveal": true}, &sol); code != 200 || sol.Level != nil || sol.Rating != nil {
		t.Fatalf("a guest's look at the solution: %d, level %+v, rating %+v", code, sol.Level, sol.Rating)
	}
	var tiles []PlacedTile
	for _, x := range sol.Best[0].Tiles {
		tiles = append(tiles, PlacedTile{Row: *x.Row, Col: *x.Col, Letter: x.Letter, Blank: x.Blank})
	}
	answer := func(b *http.Client, n int, body map[string]any) PuzzleAnswer {
		t.Helper()
		var a PuzzleAnswer
		if code := e.doWith(b, "POST", fmt.Sprintf("/api/puzzles/en-sowpods/%d/answer", n), "", body, &a); code != 200 {
			t.Fatalf("answer to puzzle %d: %d", n, code)
		}
		return a
	}
	// Ana solves it: both start as newcomers, she goes up, it goes down.
	a := answer(ana, 5, map[string]any{"tiles": tiles})
	if a.First == nil || a.First.RatingBefore != 1500 || a.First.RatingAfter <= 1500 || a.Rating == nil || a.Rating.Rating != a.First.RatingAfter ||
		a.Rating.Answered != 1 || a.Rating.Solved != 1 || a.Level == nil || a.Level.Rating >= 1500 || a.Level.Number != 5 || a.Level.Answered != 1 {
		t.Fatalf("Ana solves puzzle 5: first %+v, rating %+v, level %+v", a.First, a.Rating, a.Level)
	}
	want, _, _ := rating.Game(rating.New(), rating.New(), 1)
	if a.First.RatingAfter != int(math.Round(want.R)) {
		t.Errorf("Ana's rating after solving: %d, want %.0f (Glicko-2, two newcomers)", a.First.RatingAfter, want.R)
	}
	solvedLevel := a.Level.Rating
	// Asked again: nothing moves.
	if again := answer(ana, 5, map[string]any{"reveal": true}); again.Rating.Rating != a.Rating.Rating || again.Level.Rating != solvedLevel || again.First.RatingAfter != a.First.RatingAfter {
		t.Errorf("a later answer moved the ratings: %+v %+v %+v", again.First, again.Rating, again.Level)
	}
	// Boris asks for the solution first: a loss against the puzzle,
	// which goes up again.
	b := answer(bo, 5, map[string]any{"reveal": true})
	if b.First == nil || !b.First.Revealed || b.First.RatingAfter >= 1500 || b.Level == nil || b.Level.Rating <= solvedLevel || b.Level.Answered != 2 || b.Level.Solved != 1 {
		t.Errorf("Boris reveals puzzle 5: first %+v, level %+v", b.First, b.Level)
	}
	// The puzzle's page shows Ana's rating and, answered, the puzzle's.
	var p PuzzleInfo
	if code := e.doWith(ana, "GET", "/api/puzzles/en-sowpods/5", "", nil, &p); code != 200 || p.Rating == nil || p.Rating.Rating != a.Rating.Rating ||
		p.Level == nil || p.Level.Rating != b.Level.Rating || p.Answered == nil || p.Answered.RatingAfter != a.First.RatingAfter {
		t.Errorf("puzzle 5 for Ana: %d, rating %+v, level %+v, answered %+v", code, p.Rating, p.Level, p.Answered)
	}
	var p6 PuzzleInfo
	if code := e.doWith(ana, "GET", "/api/puzzles/en-sowpods/6", "", nil, &p6); code != 200 || p6.Rating == nil || p6.Level != nil {
		t.Errorf("puzzle 6, not answered: %d, rating %+v, level %+v; want her rating, not the puzzle's", code, p6.Rating, p6.Level)
	}
	// The player's page and the data download.
	var prof Profile
	if code := e.do("GET", "/api/players/Ana", "", nil, &prof); code != 200 || len(prof.Puzzles.Ratings) != 1 || prof.Puzzles.Ratings[0].Rating != a.Rating.Rating ||
		prof.Puzzles.Ratings[0].Lexicon != "en-sowpods" {
		t.Errorf("Ana's page: %d, puzzle ratings %+v", code, prof.Puzzles.Ratings)
	}
	var d AccountData
	if code := e.doWith(ana, "GET", "/api/me/data", "", nil, &d); code != 200 || len(d.PuzzleRatings) != 1 || len(d.Puzzles) != 1 ||
		d.Puzzles[0].RatingBefore != 1500 || math.Round(d.Puzzles[0].RatingAfter) != float64(a.First.RatingAfter) {
		t.Errorf("Ana's data: %d, puzzle ratings %+v, answers %+v", code, d.PuzzleRatings, d.Puzzles)
	}
	// The next puzzle at her level: not one she answered, and the one
	// rated nearest her (the unrated ones are all 1500: today's).
	var next PuzzleNext
	today := puzzle.Today(time.Now())
	if code := e.doWith(ana, "GET", "/api/puzzles/en-sowpods/next", "", nil, &next); code != 200 || next.Number != today || next.Level != 1500 {
		t.Errorf("Ana's next puzzle: %d %+v, want today's (%d) at 1500", code, next, today)
	}
	if code := e.do("GET", "/api/puzzles/en-sowpods/next", "", nil, nil); code != 401 {
		t.Errorf("a guest's next puzzle: %d, want 401", code)
	}
	if code := e.doWith(ana, "GET", "/api/puzzles/xx-none/next", "", nil, nil); code != 404 {
		t.Errorf("the next puzzle of no word list: %d, want 404", code)
	}
	// The leaderboard: Ana, who solved, above Boris; never a puzzle.
	var lb PuzzleLeaderboard
	if code := e.do("GET", "/api/puzzles/en-sowpods/leaders", "", nil, &lb); code != 200 || lb.Lexicon != "en-sowpods" || len(lb.Players) != 2 ||
		lb.Players[0].Name != "Ana" || lb.Players[0].Rating != a.Rating.Rating || lb.Players[0].Solved != 1 ||
		lb.Players[1].Name != "Boris" || lb.Players[1].Rating != b.First.RatingAfter || lb.Players[1].Number != 0 {
		t.Errorf("the puzzle leaderboard: %d %+v", code, lb)
	}
	if code := e.do("GET", "/api/puzzles/en-sowpods/leaders?n=1", "", nil, &lb); code != 200 || len(lb.Players) != 1 || lb.Players[0].Name != "Ana" {
		t.Errorf("the puzzle leaderboard's first: %d %+v", code, lb)
	}
	for _, bad := range []string{"/api/puzzles/en-sowpods/leaders?n=0", "/api/puzzles/en-sowpods/leaders?n=x", "/api/puzzles/xx-none/leaders"} {
		if code := e.do("GET", bad, "", nil, nil); code != 400 && code != 404 {
			t.Errorf("GET %s: %d, want 400 or 404", bad, code)
		}
	}
}

// TestPuzzleCacheRefusals asks, with no analyses left, for more puzzles
// than the cache holds: each is refused (429), and none of them takes
// the place of a puzzle made, which is served again at no cost.
func TestPuzzleCacheRefusals(t *testing.T) {
	e := newEnv(t, newStore(t))
	var made PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/1", "", nil, &made); code != 200 {
		t.Fatalf("puzzle 1: %d", code)
	}
	// Every analysis of the client spent (the test's requests come from
	// 127.0.0.1), and none given back while the test asks: the
	// allowance would refill one within the loop on a slow machine.
	lim := e.srv.analysisLim
	lim.mu.Lock()
	lim.rate = 1e-9
	lim.mu.Unlock()
	for ok := true; ok; ok, _ = lim.take("127.0.0.1", time.Now()) {
	}
	today := puzzle.Today(time.Now())
	asked := 0
	for _, kind := range []string{"puzzles", "endgames"} {
		for n := today; n >= 2 && asked <= puzzleCache; n-- {
			if code := e.do("GET", fmt.Sprintf("/api/%s/en-sowpods/%d", kind, n), "", nil, nil); code != 429 {
				t.Fatalf("%s %d with no analyses left: %d, want 429", kind, n, code)
			}
			asked++
		}
	}
	if asked <= puzzleCache {
		t.Skipf("only %d puzzles out by today: the cache holds %d", asked, puzzleCache)
	}
	var again PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/1", "", nil, &again); code != 200 || again.CGP != made.CGP {
		t.Errorf("puzzle 1 after %d refused requests: %d (%q), want it served from the cache", asked, code, again.CGP)
	}
	e.srv.puzzles.mu.Lock()
	n := len(e.srv.puzzles.m)
	e.srv.puzzles.mu.Unlock()
	if n != 1 {
		t.Errorf("%d puzzles kept after the refusals, want the one made", n)
	}
}
