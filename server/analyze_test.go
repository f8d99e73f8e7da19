package server

import "testing"

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
