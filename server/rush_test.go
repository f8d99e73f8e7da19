package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"atril/puzzle"
	"atril/store"
)

// rushPlays returns the best plays of the puzzle on turn in a rush, as
// the server made it, best first, as tiles to answer with, and their
// scores.
func rushPlays(t *testing.T, e *testEnv, id string) ([][]PlacedTile, []int) {
	t.Helper()
	run, err := e.st.Rush(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("rush\x00%s\x00%d\x00%d", run.Lexicon, run.Seed, run.Puzzle)
	e.srv.puzzles.mu.Lock()
	p := e.srv.puzzles.m[key]
	e.srv.puzzles.mu.Unlock()
	if p == nil || !p.made.Load() {
		t.Fatalf("rush %s: puzzle %d not made", id, run.Puzzle)
	}
	var plays [][]PlacedTile
	var scores []int
	for _, c := range p.best {
		var tiles []PlacedTile
		for _, x := range c.Tiles {
			tiles = append(tiles, PlacedTile{Row: *x.Row, Col: *x.Col, Letter: x.Letter, Blank: x.Blank})
		}
		plays = append(plays, tiles)
		scores = append(scores, c.Score)
	}
	return plays, scores
}

// TestRush plays a guest's timed rush to its third miss: the targets,
// answers right and wrong, skips, an answer sent twice, a play the rules
// refuse; then a survival run, a run ended by its holder and one whose
// clock ran out.
func TestRush(t *testing.T) {
	e := newEnv(t, newStore(t))
	for _, tc := range []struct {
		body string
		code int
	}{
		{`{"lexicon":"xx-none","mode":"timed"}`, 400},
		{`{"lexicon":"en-sowpods","mode":"blitz"}`, 400},
		{`{"lexicon":"en-sowpods","mode":"timed","extra":1}`, 400},
		{`not json`, 400},
	} {
		if code := e.do("POST", "/api/rush", "", tc.body, nil); code != tc.code {
			t.Errorf("start %s: %d, want %d", tc.body, code, tc.code)
		}
	}
	var run RushInfo
	if code := e.do("POST", "/api/rush", "", map[string]string{"lexicon": "en-sowpods", "mode": "timed"}, &run); code != 201 {
		t.Fatalf("start: %d", code)
	}
	if len(run.ID) != 2*rushIDBytes || run.Number != 1 || run.Over || run.Solved != 0 || run.Misses != 0 || run.MaxMisses != rushMisses ||
		run.Seconds != 300 || run.LeftMS <= 290_000 || run.LeftMS > 300_000 || run.State == nil || run.State.You == nil || len(run.State.You.Rack) != 7 ||
		run.Target < 1 || run.Best != nil {
		t.Fatalf("a new run: %+v", run)
	}
	path := "/api/rush/" + run.ID
	var again RushInfo
	position := func(r RushInfo) string {
		b, _ := json.Marshal([]any{r.State.Board, r.State.You.Rack})
		return string(b)
	}
	if code := e.do("GET", path, "", nil, &again); code != 200 || again.Number != 1 || again.Target != run.Target || position(again) != position(run) {
		t.Errorf("the run read again: %d %+v", code, again)
	}
	for _, p := range []string{"/api/rush/0123456789abcdef0123456789abcdef", "/api/rush/short"} {
		if code := e.do("GET", p, "", nil, nil); code != 404 {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
	plays, scores := rushPlays(t, e, run.ID)
	if scores[0] < run.Target {
		t.Fatalf("puzzle 1: target %d above the top score %d", run.Target, scores[0])
	}
	var pv Preview
	if code := e.do("POST", path+"/preview", "", map[string]any{"number": 1, "tiles": plays[0]}, &pv); code != 200 || !pv.OK || pv.Score != scores[0] {
		t.Errorf("preview of the top play: %d %+v", code, pv)
	}
	if code := e.do("POST", path+"/preview", "", map[string]any{"number": 2, "tiles": plays[0]}, nil); code != 409 {
		t.Errorf("preview of puzzle 2 while 1 is on: %d, want 409", code)
	}
	// A play the rules refuse is no answer: a tile on a square a tile
	// already holds (a corner could make a word: the run's position is
	// random).
	bad := plays[0][:1]
	bad[0].Row, bad[0].Col = *run.State.Board[0].Row, *run.State.Board[0].Col
	var refused RushAnswer
	if code := e.do("POST", path+"/answer", "", map[string]any{"number": 1, "tiles": bad}, &refused); code != 200 || refused.OK || refused.Run != nil || refused.Best != nil {
		t.Errorf("a refused play: %d %+v", code, refused)
	}
	// The fifth best play reaches the first puzzle's target (one of the
	// eight best scores).
	plays, _ = rushPlays(t, e, run.ID)
	var ans RushAnswer
	last := len(plays) - 1
	if code := e.do("POST", path+"/answer", "", map[string]any{"number": 1, "tiles": plays[last]}, &ans); code != 200 || !ans.OK || !ans.Correct ||
		ans.Score != scores[last] || ans.Target != run.Target || ans.BestScore != scores[0] || len(ans.Best) != puzzle.Shown ||
		ans.Run == nil || ans.Run.Number != 2 || ans.Run.Solved != 1 || ans.Run.Over || ans.Run.State == nil {
		t.Fatalf("the fifth best play: %d %+v", code, ans)
	}
	if code := e.do("POST", path+"/answer", "", map[string]any{"number": 1, "tiles": plays[0]}, nil); code != 409 {
		t.Errorf("puzzle 1 answered again: %d, want 409", code)
	}
	// A skip is a miss.
	ans = RushAnswer{}
	if code := e.do("POST", path+"/answer", "", map[string]any{"number": 2, "skip": true}, &ans); code != 200 || ans.Correct || !ans.Skipped ||
		ans.Run.Number != 3 || ans.Run.Misses != 1 || ans.Run.Solved != 1 || ans.BestScore < ans.Target {
		t.Fatalf("a skip: %d %+v", code, ans)
	}
	// The top play up to the ninth puzzle, which asks for the top score.
	for n := 3; n <= len(puzzle.RushRanks); n++ {
		plays, _ := rushPlays(t, e, run.ID)
		if code := e.do("POST", path+"/answer", "", map[string]any{"number": n, "tiles": plays[0]}, &ans); code != 200 || !ans.Correct || ans.Run.Number != n+1 {
			t.Fatalf("the top play of puzzle %d: %d %+v", n, code, ans)
		}
	}
	if r := ans.Run; !r.Top || r.Solved != len(puzzle.RushRanks)-1 {
		t.Fatalf("puzzle %d: %+v, want the top score asked for", r.Number, r)
	}
	n := len(puzzle.RushRanks) + 1
	for misses := 2; misses <= rushMisses; misses++ {
		plays, scores := rushPlays(t, e, run.ID)
		body := map[string]any{"number": n, "skip": true}
		if scores[last] < scores[0] { // a play below the top: a miss
			body = map[string]any{"number": n, "tiles": plays[last]}
		}
		ans = RushAnswer{}
		if code := e.do("POST", path+"/answer", "", body, &ans); code != 200 || ans.Correct || ans.Run.Misses != misses ||
			ans.Run.Over != (misses == rushMisses) || (ans.Run.State == nil) != ans.Run.Over {
			t.Fatalf("miss %d: %d %+v", misses, code, *ans.Run)
		}
		n++
	}
	if code := e.do("POST", path+"/answer", "", map[string]any{"number": n, "skip": true}, nil); code != 409 {
		t.Errorf("an answer after the third miss: %d, want 409", code)
	}
	again = RushInfo{}
	if code := e.do("GET", path, "", nil, &again); code != 200 || !again.Over || again.Solved != len(puzzle.RushRanks)-1 || again.LeftMS != 0 || again.State != nil {
		t.Errorf("the run over: %d %+v", code, again)
	}

	// Survival: no clock; ended by its holder.
	run, again = RushInfo{}, RushInfo{}
	if code := e.do("POST", "/api/rush", "", map[string]string{"lexicon": "en-sowpods", "mode": "survival"}, &run); code != 201 || run.Seconds != 0 || run.LeftMS != 0 {
		t.Fatalf("a survival run: %d %+v", code, run)
	}
	if code := e.do("POST", "/api/rush/"+run.ID+"/end", "", nil, &again); code != 200 || !again.Over || again.State != nil {
		t.Errorf("a run ended: %d %+v", code, again)
	}
	// A run whose clock ran out ends at its deadline.
	now := time.Now().UTC()
	late := &store.RushRun{ID: randomHex(rushIDBytes), Lexicon: "en-sowpods", Mode: "timed", Seed: 9, Started: now.Add(-6 * time.Minute), Deadline: now.Add(-time.Minute)}
	if err := e.st.StartRush(context.Background(), late); err != nil {
		t.Fatal(err)
	}
	if code := e.do("POST", "/api/rush/"+late.ID+"/answer", "", map[string]any{"number": 1, "skip": true}, nil); code != 409 {
		t.Errorf("an answer after the clock ran out: %d, want 409", code)
	}
	if got, err := e.st.Rush(context.Background(), late.ID); err != nil || !got.Ended.Equal(late.Deadline) {
		t.Errorf("the run out of time: %+v, %v; want it ended at its deadline", got, err)
	}
}

// TestRushLimit: a client starts at most CreatePerMinute runs and games
// a minute.
func TestRushLimit(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.CreatePerMinute = 2
	e := newEnvConfig(t, cfg)
	body := map[string]string{"lexicon": "en-sowpods", "mode": "survival"}
	for k, want := range []int{201, 201, 429} {
		if code := e.do("POST", "/api/rush", "", body, nil); code != want {
			t.Errorf("run %d: %d, want %d", k+1, code, want)
		}
	}
}

// TestRushAccounts: a signed-in account's run is its own; its best runs
// show on its page, in the leaderboard and in its data.
func TestRushAccounts(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "anagrams1")
	e.signUp(bo, "Bo.B", "bobobobo1")
	var run RushInfo
	if code := e.doWith(ana, "POST", "/api/rush", "", map[string]string{"lexicon": "en-sowpods", "mode": "timed"}, &run); code != 201 {
		t.Fatalf("Ana's run: %d", code)
	}
	path := "/api/rush/" + run.ID
	for _, tc := range []struct {
		who    string
		client *http.Client
	}{{"Bo", bo}, {"a guest", browser(t)}} {
		who, client := tc.who, tc.client
		if code := e.doWith(client, "GET", path, "", nil, nil); code != 403 {
			t.Errorf("%s reads Ana's run: %d, want 403", who, code)
		}
		if code := e.doWith(client, "POST", path+"/answer", "", map[string]any{"number": 1, "skip": true}, nil); code != 403 {
			t.Errorf("%s answers Ana's run: %d, want 403", who, code)
		}
	}
	var ans RushAnswer
	for n := 1; n <= 2; n++ {
		plays, _ := rushPlays(t, e, run.ID)
		if code := e.doWith(ana, "POST", path+"/answer", "", map[string]any{"number": n, "tiles": plays[0]}, &ans); code != 200 || !ans.Correct {
			t.Fatalf("Ana's answer %d: %d %+v", n, code, ans)
		}
	}
	var info RushInfo
	if code := e.doWith(ana, "POST", path+"/end", "", nil, &info); code != 200 || !info.Over || info.Best == nil || info.Best.Solved != 2 || info.Best.Runs != 1 {
		t.Fatalf("Ana's run ended: %d %+v", code, info)
	}
	var lb RushLeaderboard
	if code := e.do("GET", "/api/rush/leaders?lexicon=en-sowpods&mode=timed", "", nil, &lb); code != 200 || len(lb.Players) != 1 ||
		lb.Players[0].Name != "Ana" || lb.Players[0].Solved != 2 {
		t.Errorf("the leaderboard: %d %+v", code, lb)
	}
	if code := e.do("GET", "/api/rush/leaders?lexicon=en-sowpods&mode=survival", "", nil, &lb); code != 200 || len(lb.Players) != 0 {
		t.Errorf("the survival leaderboard: %d %+v", code, lb)
	}
	for _, q := range []string{"lexicon=en-sowpods&mode=x", "lexicon=xx&mode=timed", "lexicon=en-sowpods&mode=timed&n=0"} {
		if code := e.do("GET", "/api/rush/leaders?"+q, "", nil, nil); code/100 != 4 {
			t.Errorf("leaderboard %s: %d, want 4xx", q, code)
		}
	}
	var p Profile
	if code := e.do("GET", "/api/players/ana", "", nil, &p); code != 200 || len(p.Puzzles.Rush) != 1 || p.Puzzles.Rush[0].Solved != 2 || p.Puzzles.Rush[0].Mode != "timed" {
		t.Errorf("Ana's page: %d %+v", code, p.Puzzles)
	}
	var d AccountData
	if code := e.doWith(ana, "GET", "/api/me/data", "", nil, &d); code != 200 || len(d.Rushes) != 1 || d.Rushes[0].Solved != 2 || d.Rushes[0].Ended.IsZero() {
		t.Errorf("Ana's data: %d %+v", code, d.Rushes)
	}
}

// TestRushDaily: the daily rush deals everyone the same puzzles on a
// day; an account plays it once a day (a second start goes on with the
// run while it is on); its leaderboard is the day's.
func TestRushDaily(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "anagrams1")
	e.signUp(bo, "Bo.B", "bobobobo1")
	today := puzzle.Today(time.Now())
	body := map[string]string{"lexicon": "en-sowpods", "mode": "daily"}
	position := func(r RushInfo) string {
		b, _ := json.Marshal([]any{r.State.Board, r.State.You.Rack})
		return string(b)
	}
	var run, again, other RushInfo
	if code := e.doWith(ana, "POST", "/api/rush", "", body, &run); code != 201 || run.Day != today || run.Seconds != 300 || run.LeftMS <= 0 {
		t.Fatalf("Ana's daily rush: %d %+v", code, run)
	}
	if code := e.doWith(ana, "POST", "/api/rush", "", body, &again); code != 200 || again.ID != run.ID {
		t.Errorf("Ana's daily rush started again: %d, run %q (want %q)", code, again.ID, run.ID)
	}
	if code := e.doWith(bo, "POST", "/api/rush", "", body, &other); code != 201 || other.ID == run.ID || position(other) != position(run) {
		t.Errorf("Bo's daily rush: %d, another first puzzle than Ana's", code)
	}
	// A guest, who could start it again and again, does not see the
	// day's puzzles.
	var eb errorBody
	if code := e.do("POST", "/api/rush", "", body, &eb); code != 401 || !strings.Contains(eb.Error, "sign in") {
		t.Errorf("a guest's daily rush: %d %q, want 401", code, eb.Error)
	}
	// Ana solves one and misses three: over, and not to be played again.
	plays, _ := rushPlays(t, e, run.ID)
	path := "/api/rush/" + run.ID + "/answer"
	var ans RushAnswer
	if code := e.doWith(ana, "POST", path, "", map[string]any{"number": 1, "tiles": plays[0]}, &ans); code != 200 || !ans.Correct {
		t.Fatalf("Ana's first answer: %d %+v", code, ans)
	}
	for n := 2; n <= 4; n++ {
		if code := e.doWith(ana, "POST", path, "", map[string]any{"number": n, "skip": true}, nil); code != 200 {
			t.Fatalf("Ana's skip %d: %d", n, code)
		}
	}
	var refused errorBody
	if code := e.doWith(ana, "POST", "/api/rush", "", body, &refused); code != 409 || !strings.Contains(refused.Error, "1 solved") {
		t.Errorf("Ana's daily rush once over, started again: %d %q", code, refused.Error)
	}
	var lb RushLeaderboard
	if code := e.do("GET", "/api/rush/leaders?lexicon=en-sowpods&mode=daily", "", nil, &lb); code != 200 || lb.Day != today || len(lb.Players) != 1 || lb.Players[0].Name != "Ana" {
		t.Errorf("today's daily leaderboard: %d %+v", code, lb)
	}
	lb = RushLeaderboard{}
	if code := e.do("GET", fmt.Sprintf("/api/rush/leaders?lexicon=en-sowpods&mode=daily&day=%d", today-1), "", nil, &lb); code != 200 || lb.Day != today-1 || len(lb.Players) != 0 {
		t.Errorf("yesterday's daily leaderboard: %d %+v", code, lb)
	}
	for _, q := range []string{"day=0", fmt.Sprintf("day=%d", today+1), "day=x"} {
		if code := e.do("GET", "/api/rush/leaders?lexicon=en-sowpods&mode=daily&"+q, "", nil, nil); code != 400 {
			t.Errorf("the daily leaderboard of %s: %d, want 400", q, code)
		}
	}
}
