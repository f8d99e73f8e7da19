package server

import (
	"math"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// twoPeoplePlayed starts a game of two people's seats and plays up to
// moves best moves in it; it returns the game and the seats' tokens, by
// seat.
func twoPeoplePlayed(t *testing.T, e *testEnv, moves int) (string, []string) {
	t.Helper()
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	toks := make([]string, 2)
	toks[a.Seat], toks[b.Seat] = a.Token, b.Token
	playOut(t, e, id, toks, moves)
	return id, toks
}

// TestAnalyze asks for analyses of a finished game's positions (any turn,
// no token needed) and of an unfinished game (only the current position
// of the token's own seat), and checks the per-client limit.
func TestAnalyze(t *testing.T) {
	e := newEnv(t, nil)
	id, toks := twoPeoplePlayed(t, e, 2)

	turn := func(n int) *int { return &n }
	var got AnalyzeResponse
	tests := []struct {
		name string
		tok  string
		req  AnalyzeRequest
		code int
	}{
		{"unfinished, no token", "", AnalyzeRequest{Game: id}, 403},
		{"unfinished, own seat", toks[0], AnalyzeRequest{Game: id, Millis: 200}, 200},
		{"unfinished, past turn", toks[0], AnalyzeRequest{Game: id, Turn: turn(0)}, 409},
		{"unknown game", "", AnalyzeRequest{Game: "nope"}, 404},
	}
	for _, tc := range tests {
		if code := e.do("POST", "/api/analyze", tc.tok, tc.req, nil); code != tc.code {
			t.Errorf("%s: %d, want %d", tc.name, code, tc.code)
		}
	}
	playOut(t, e, id, toks, 300)
	if !e.state(id, "").Over {
		t.Fatal("game not over")
	}
	if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{Game: id, Turn: turn(3), Millis: 200}, &got); code != 200 {
		t.Fatalf("finished game, turn 3: %d", code)
	}
	if got.Turn != 3 || got.Phase != "static" || got.Best == "" || len(got.Candidates) == 0 {
		t.Errorf("turn 3: %+v", got)
	}
	if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{Game: id, Turn: turn(1000)}, nil); code != 422 {
		t.Errorf("turn out of range: %d, want 422", code)
	}
	// Six analyses a minute per client: a quick run of requests is
	// refused well before twenty (a refill of that many takes minutes).
	refused := false
	for i := 0; i < 20 && !refused; i++ {
		refused = e.do("POST", "/api/analyze", "", AnalyzeRequest{Game: "nope"}, nil) == 429
	}
	if !refused {
		t.Error("twenty analyses in a row all accepted")
	}
}

// TestAnalyzeJudge judges moves of a finished game (POST /api/analyze
// with "judge"): the move played at the turn is among the simulation's
// candidates with its values, what it gave up is the best's value less
// its own, the bag empty is judged by the endgame, and a CGP line or an
// unfinished game is refused.
func TestAnalyzeJudge(t *testing.T) {
	e := newEnv(t, nil)
	id, toks := twoPeoplePlayed(t, e, 2)
	turn := func(n int) *int { return &n }
	if code := e.do("POST", "/api/analyze", toks[0], AnalyzeRequest{Game: id, Judge: true, Millis: 100}, nil); code != 409 {
		t.Errorf("unfinished game judged: %d, want 409", code)
	}
	cgp := "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex en-sowpods;"
	if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{CGP: cgp, Judge: true, Millis: 100}, nil); code != 400 {
		t.Errorf("CGP judged: %d, want 400", code)
	}
	playOut(t, e, id, toks, 300)
	var rv Review
	if code := e.do("GET", "/api/games/"+id+"/review", "", nil, &rv); code != 200 {
		t.Fatalf("review: %d", code)
	}
	var moves []ReviewTurn
	for _, rt := range rv.Turns {
		switch rt.Kind {
		case "place", "exchange", "pass", "withdrawn":
			moves = append(moves, rt)
		}
	}
	for _, k := range []int{3, len(moves) - 1} {
		var got AnalyzeResponse
		if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{Game: id, Turn: turn(k), Judge: true, Millis: 3000, Top: 50}, &got); code != 200 {
			t.Fatalf("turn %d judged: %d", k, code)
		}
		j := got.Judged
		if j == nil || j.Value == nil || j.BestValue == nil {
			t.Fatalf("turn %d: judgement %+v", k, j)
		}
		want := moves[k].Move
		if want == "" {
			want = "-"
		}
		if j.Played != want || j.Lost != math.Round(max(0, *j.BestValue-*j.Value)*100)/100 {
			t.Errorf("turn %d: judged %+v, played %q", k, j, want)
		}
		switch got.Phase {
		case "simulation":
			found := false
			for _, c := range got.Candidates {
				found = found || c.Move == j.Played && c.Mean != nil && *c.Mean == *j.Value
			}
			if !found || j.Win == nil || j.BestWin == nil {
				t.Errorf("turn %d: the played %s is not among the candidates with its value: %+v", k, j.Played, got.Candidates)
			}
		case "static":
			// The time ran out before one iteration: only under the
			// race detector (-short), whose searches run many times
			// slower.
			found := false
			for _, c := range got.Candidates {
				found = found || c.Move == j.Played && c.Static == *j.Value
			}
			if !testing.Short() || !found || k == len(moves)-1 {
				t.Errorf("turn %d judged by static values (the played move among the candidates: %v)", k, found)
			}
		case "endgame":
			if got.Spread == nil || float64(*got.Spread) != *j.BestValue {
				t.Errorf("turn %d: endgame spread %v, best value %v", k, got.Spread, *j.BestValue)
			}
		default:
			t.Errorf("turn %d judged by %s", k, got.Phase)
		}
	}
}

// TestAnalyzeOwnEarlierTurn: against the computer alone, a seat's own
// earlier turn of an unfinished game is analysed and judged with its
// token (as the page's coach asks after each move); the computer's turns,
// a game with another person, a reader without the token and a turn not
// played yet are refused.
func TestAnalyzeOwnEarlierTurn(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := e.join(id)
	st := e.state(id, a.Token)
	req, _ := bestRequest(t, st)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	deadline := time.Now().Add(30 * time.Second)
	for e.state(id, "").Moves < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	turn := func(n int) *int { return &n }
	var got AnalyzeResponse
	if code := e.do("POST", "/api/analyze", a.Token, AnalyzeRequest{Game: id, Turn: turn(0), Judge: true, Sim: true, Millis: 300, Top: 3}, &got); code != 200 {
		t.Fatalf("the seat's own first turn judged: %d", code)
	}
	if got.Turn != 0 || got.Seat != a.Seat || got.Judged == nil || got.Judged.Value == nil || got.Judged.Played == "" || got.Judged.Lost < 0 {
		t.Errorf("the judgement of turn 0: %+v (judged %+v)", got, got.Judged)
	}
	pid, toks := twoPeoplePlayed(t, e, 2)
	for _, tc := range []struct {
		name string
		tok  string
		game string
		turn int
		code int
	}{
		{"the computer's turn", a.Token, id, 1, 403},
		{"no token", "", id, 0, 403},
		{"a turn not played yet", a.Token, id, 5, 409},
		{"a game with a person", toks[0], pid, 0, 409},
	} {
		if code := e.do("POST", "/api/analyze", tc.tok, AnalyzeRequest{Game: tc.game, Turn: turn(tc.turn), Judge: true, Millis: 100}, nil); code != tc.code {
			t.Errorf("%s: %d, want %d", tc.name, code, tc.code)
		}
	}
}

// TestAnalyzeBudgetOverflow asks for analyses with search times beyond
// the bound, up to ones whose milliseconds overflow a time.Duration (a
// negative budget bounds no search): each searches at most analyzeCap.
func TestAnalyzeBudgetOverflow(t *testing.T) {
	defer func(d time.Duration) { analyzeCap = d }(analyzeCap)
	analyzeCap = 200 * time.Millisecond
	e := newEnv(t, nil)
	c := &http.Client{Timeout: 5 * time.Second}
	cgp := "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex en-sowpods;"
	for _, ms := range []int{6000, math.MaxInt64 / 1_000_000, math.MaxInt64/1_000_000 + 1, math.MaxInt64} {
		t.Run(strconv.Itoa(ms), func(t *testing.T) {
			t0 := time.Now()
			var got AnalyzeResponse
			if code := e.doWith(c, "POST", "/api/analyze", "", AnalyzeRequest{CGP: cgp, Sim: true, Millis: ms}, &got); code != 200 {
				t.Fatalf("%d", code)
			}
			// A loaded machine finishes the iteration under way late: the
			// slack is wide, and still far under the 6 s asked for.
			if took := time.Since(t0); took > analyzeCap+3*time.Second || got.Millis > analyzeCap.Milliseconds()+2000 {
				t.Errorf("answered in %v, searched %d ms: the bound is %v", took, got.Millis, analyzeCap)
			}
		})
	}
}
