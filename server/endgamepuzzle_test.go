package server

import (
	"strings"
	"testing"
	"time"

	"atril/lexicon"
	"atril/movegen"
	"atril/puzzle"
)

// endgameEnv is a server whose generators are GADDAGs (an endgame
// puzzle's searches cut the word list with one), on the short list.
func endgameEnv(t *testing.T) *testEnv {
	cfg := testConfig(newStore(t))
	cfg.NewGenerator = func(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewGaddag(lex) }
	return newEnvConfig(t, cfg)
}

// TestEndgamePuzzle: an endgame puzzle's position (the bag empty, the
// unseen tiles the opponent's rack), its solution, and answers valued
// to the end: the best move right, the highest-scoring play wrong by
// what the solution says, a pass valued too, a play the rules refuse
// showing nothing of the solution, and bad requests refused.
func TestEndgamePuzzle(t *testing.T) {
	e := endgameEnv(t)
	const path = "/api/endgames/en-sowpods/5"
	var info PuzzleInfo
	if code := e.do("GET", path, "", nil, &info); code != 200 {
		t.Fatalf("the puzzle: %d", code)
	}
	st := info.State
	if info.Goal != "endgame" || info.Number != 5 || st == nil || st.You == nil || st.Bag != 0 || st.Over || len(st.You.Rack) < 3 || info.CGP == "" {
		t.Fatalf("the puzzle: %+v, state %+v", info, st)
	}
	unseen := 0
	for _, l := range st.You.Unseen {
		unseen += l.Count
	}
	if unseen != st.Seats[1-st.Turn].Tiles {
		t.Errorf("%d tiles unseen, the opponent holds %d", unseen, st.Seats[1-st.Turn].Tiles)
	}
	var sol EndgameAnswer
	if code := e.do("POST", path+"/answer", "", map[string]any{"reveal": true}, &sol); code != 200 || sol.Value != nil || sol.Correct ||
		len(sol.Line) == 0 || !sol.Line[0].You || sol.Top.Kind != "place" || sol.TopValue > sol.Best-3 {
		t.Fatalf("the solution: %d %+v", code, sol)
	}
	for k, m := range sol.Line {
		if m.You != (k%2 == 0) || m.Move == "" {
			t.Errorf("move %d of the line: %+v", k, m)
		}
	}
	answer := func(body any) EndgameAnswer {
		t.Helper()
		var a EndgameAnswer
		if code := e.do("POST", path+"/answer", "", body, &a); code != 200 {
			t.Fatalf("answer %v: %d", body, code)
		}
		return a
	}
	tilesOf := func(m EndgameMove) []PlacedTile {
		var ps []PlacedTile
		for _, tl := range m.Tiles {
			ps = append(ps, PlacedTile{Row: *tl.Row, Col: *tl.Col, Letter: tl.Letter, Blank: tl.Blank})
		}
		return ps
	}
	if best := sol.Line[0]; best.Kind == "place" {
		if a := answer(map[string]any{"tiles": tilesOf(best)}); !a.OK || a.Value == nil || *a.Value != sol.Best || !a.Exact || !a.Correct || a.Move != best.Move {
			t.Errorf("the best move %s: %+v (value %v)", best.Move, a, a.Value)
		}
	}
	if a := answer(map[string]any{"tiles": tilesOf(sol.Top)}); !a.OK || a.Value == nil || *a.Value != sol.TopValue || a.Correct || a.Best != sol.Best || a.Score != sol.Top.Score {
		t.Errorf("the top play %s: %+v (value %v)", sol.Top.Move, a, a.Value)
	}
	if a := answer(map[string]any{"pass": true}); !a.OK || a.Value == nil || *a.Value > sol.Best || a.Move != "-" || a.Correct != (*a.Value == sol.Best) {
		t.Errorf("a pass: %+v (value %v)", a, a.Value)
	}
	// A play the rules refuse: its reason, nothing of the solution.
	corner := PlacedTile{Row: 0, Col: 0, Letter: st.You.Rack[0].Letter}
	if st.You.Rack[0].Blank {
		corner.Letter, corner.Blank = "A", true
	}
	if a := answer(map[string]any{"tiles": []PlacedTile{corner}}); a.OK || a.Reason == "" || a.Value != nil || len(a.Line) != 0 || a.Best != 0 {
		t.Errorf("a refused play: %+v", a)
	}
	var pv Preview
	if code := e.do("POST", path+"/preview", "", map[string]any{"tiles": tilesOf(sol.Top)}, &pv); code != 200 || !pv.OK || pv.Score != sol.Top.Score {
		t.Errorf("preview of the top play: %d %+v", code, pv)
	}
	for _, tc := range []struct {
		path string
		body string
		code int
		want string
	}{
		{path + "/answer", `{}`, 400, "one of them"},
		{path + "/answer", `{"pass":true,"reveal":true}`, 400, "one of them"},
		{path + "/answer", `{"pass":true,"tiles":[]}`, 400, "a pass takes no tiles"},
		{path + "/answer", `{"move":"x"}`, 400, "unknown field"},
		{"/api/endgames/xx/5/answer", `{"reveal":true}`, 404, "no word list"},
		{"/api/endgames/en-sowpods/999999/answer", `{"reveal":true}`, 404, "not out yet"},
	} {
		var eb errorBody
		if code := e.do("POST", tc.path, "", tc.body, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.path, tc.body, code, eb.Error, tc.code, tc.want)
		}
	}
}

// TestEndgamePuzzleRecorded: a signed-in account's first answer to an
// endgame puzzle is kept (a later one changes nothing), shown with the
// puzzle, counted with the other accounts' answers, on the player's
// page, and in the account's data; a guest's answers are counted
// nowhere; a look at the solution first counts as not found.
func TestEndgamePuzzleRecorded(t *testing.T) {
	e := endgameEnv(t)
	const path = "/api/endgames/en-sowpods/5"
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bo.B", "correct horse")
	var sol EndgameAnswer
	if code := e.do("POST", path+"/answer", "", map[string]any{"reveal": true}, &sol); code != 200 || sol.AnsweredBy != 0 || sol.First != nil {
		t.Fatalf("a guest's look at the solution: %d %+v", code, sol)
	}
	var tiles []PlacedTile
	for _, tl := range sol.Top.Tiles {
		tiles = append(tiles, PlacedTile{Row: *tl.Row, Col: *tl.Col, Letter: tl.Letter, Blank: tl.Blank})
	}
	var a EndgameAnswer
	if code := e.doWith(ana, "POST", path+"/answer", "", map[string]any{"tiles": tiles}, &a); code != 200 || a.Correct || a.First == nil ||
		a.First.Correct || a.First.Revealed || a.First.Value != sol.TopValue || a.AnsweredBy != 1 || a.SolvedBy != 0 {
		t.Fatalf("Ana's first answer, the top play: %d %+v (first %+v)", code, a, a.First)
	}
	// It is rated: a game against the puzzle, lost.
	if a.First.RatingBefore != 1500 || a.First.RatingAfter >= 1500 || a.Rating == nil || a.Rating.Rating != a.First.RatingAfter ||
		a.Rating.Answered != 1 || a.Rating.Solved != 0 || a.Level == nil || a.Level.Rating <= 1500 || a.Level.Number != 5 {
		t.Errorf("Ana's first answer rated: first %+v, rating %+v, the puzzle's %+v", a.First, a.Rating, a.Level)
	}
	anaAfter := a.First.RatingAfter
	// Her second answer, the best move, does not change the first.
	var best []PlacedTile
	for _, tl := range sol.Line[0].Tiles {
		best = append(best, PlacedTile{Row: *tl.Row, Col: *tl.Col, Letter: tl.Letter, Blank: tl.Blank})
	}
	if code := e.doWith(ana, "POST", path+"/answer", "", map[string]any{"tiles": best}, &a); code != 200 || !a.Correct || a.First == nil || a.First.Correct || a.AnsweredBy != 1 {
		t.Errorf("Ana's second answer: %d %+v (first %+v)", code, a, a.First)
	}
	if a.Rating == nil || a.Rating.Rating != anaAfter || a.Rating.Answered != 1 {
		t.Errorf("Ana's rating after her second answer: %+v, want %d from one answer", a.Rating, anaAfter)
	}
	if code := e.doWith(bo, "POST", path+"/answer", "", map[string]any{"tiles": best}, &a); code != 200 || !a.First.Correct || a.First.Value != sol.Best || a.AnsweredBy != 2 || a.SolvedBy != 1 {
		t.Errorf("Bo's first answer, the best move: %d %+v (first %+v)", code, a, a.First)
	}
	if a.First.RatingAfter <= 1500 || a.Level == nil || a.Level.Answered != 2 || a.Level.Solved != 1 {
		t.Errorf("Bo's answer rated: first %+v, the puzzle's %+v", a.First, a.Level)
	}
	var info EndgameInfo
	if code := e.doWith(ana, "GET", path, "", nil, &info); code != 200 || info.First == nil || info.First.Correct || info.First.Value != sol.TopValue {
		t.Errorf("the puzzle as Ana sees it: %d first %+v", code, info.First)
	}
	if info.Rating == nil || info.Rating.Rating != anaAfter || info.Level == nil || info.Level.Answered != 2 {
		t.Errorf("the puzzle as Ana sees it: her rating %+v, the puzzle's %+v", info.Rating, info.Level)
	}
	var guest EndgameInfo
	if code := e.do("GET", path, "", nil, &guest); code != 200 || guest.First != nil || guest.Rating != nil || guest.Level != nil {
		t.Errorf("the puzzle as a guest sees it: %d first %+v, rating %+v, level %+v", code, guest.First, guest.Rating, guest.Level)
	}
	// Asking for the solution first counts as not found.
	cy := browser(t)
	e.signUp(cy, "Cyd", "correct horse")
	if code := e.doWith(cy, "POST", path+"/answer", "", map[string]any{"reveal": true}, &a); code != 200 || a.First == nil || !a.First.Revealed || a.First.Correct || a.AnsweredBy != 3 {
		t.Errorf("Cyd's look at the solution: %d %+v (first %+v)", code, a, a.First)
	}
	if a.First.RatingAfter >= 1500 {
		t.Errorf("Cyd's look at the solution rated %+v, want a loss", a.First)
	}
	for _, tc := range []struct {
		name          string
		tried, solved int
	}{{"Ana", 1, 0}, {"Bo.B", 1, 1}, {"Cyd", 1, 0}} {
		var p Profile
		if code := e.do("GET", "/api/players/"+tc.name, "", nil, &p); code != 200 || p.Puzzles.EndgamesTried != tc.tried || p.Puzzles.EndgamesSolved != tc.solved {
			t.Errorf("%s's page: %d, endgames %d tried, %d solved", tc.name, code, p.Puzzles.EndgamesTried, p.Puzzles.EndgamesSolved)
		}
		if rs := p.Puzzles.EndgameRatings; len(rs) != 1 || rs[0].Lexicon != "en-sowpods" || rs[0].Answered != 1 || rs[0].Solved != tc.solved ||
			(rs[0].Rating > 1500) != (tc.solved == 1) || len(p.Puzzles.Ratings) != 0 {
			t.Errorf("%s's page: endgame ratings %+v, puzzle ratings %+v", tc.name, rs, p.Puzzles.Ratings)
		}
	}
	// An endgame at Ana's level: not the one she answered, and the
	// puzzles to score still all hers to answer.
	today := puzzle.Today(time.Now())
	var next PuzzleNext
	if code := e.doWith(ana, "GET", "/api/puzzles/en-sowpods/next?kind=endgame", "", nil, &next); code != 200 || next.Number == 5 || next.Number != today || next.Level != 1500 {
		t.Errorf("an endgame at Ana's level: %d %+v (today %d)", code, next, today)
	}
	if code := e.doWith(ana, "GET", "/api/puzzles/en-sowpods/next?kind=solo", "", nil, nil); code != 400 {
		t.Errorf("a puzzle at Ana's level of an unknown kind: %d, want 400", code)
	}
	// The endgame leaderboard ranks Bo first; the puzzles' has nobody.
	var board PuzzleLeaderboard
	if code := e.do("GET", "/api/puzzles/en-sowpods/leaders?kind=endgame", "", nil, &board); code != 200 || board.Kind != "endgame" ||
		len(board.Players) != 3 || board.Players[0].Name != "Bo.B" {
		t.Errorf("the endgame leaderboard: %d %+v", code, board)
	}
	if code := e.do("GET", "/api/puzzles/en-sowpods/leaders", "", nil, &board); code != 200 || board.Kind != "score" || len(board.Players) != 0 {
		t.Errorf("the puzzles' leaderboard: %d %+v", code, board)
	}
	if code := e.do("GET", "/api/puzzles/en-sowpods/leaders?kind=rush", "", nil, nil); code != 400 {
		t.Errorf("a leaderboard of an unknown kind: %d, want 400", code)
	}
	var d AccountData
	if code := e.doWith(bo, "GET", "/api/me/data", "", nil, &d); code != 200 || len(d.Endgames) != 1 || d.Endgames[0].Number != 5 || !d.Endgames[0].Correct {
		t.Errorf("Bo's data: %d, endgames %+v", code, d.Endgames)
	}
	if len(d.EndgameRatings) != 1 || d.EndgameRatings[0].Rating <= 1500 || d.Endgames[0].RatingAfter != d.EndgameRatings[0].Rating {
		t.Errorf("Bo's data: endgame ratings %+v, answer %+v", d.EndgameRatings, d.Endgames)
	}
}
