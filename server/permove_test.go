package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// accounts makes n signed-in clients, each with an account of its own.
func (e *testEnv) accounts(n int) []*http.Client {
	e.t.Helper()
	var cs []*http.Client
	for range n {
		c := browser(e.t)
		e.signUp(c, "player"+randomHex(4), "correct horse")
		cs = append(cs, c)
	}
	return cs
}

// createPerMove creates a game of two people with a time for each move
// and takes both seats, each with an account of its own.
func (e *testEnv) createPerMove(perMove int) (string, []string, []*http.Client) {
	e.t.Helper()
	cs := e.accounts(2)
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 42,
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}},
		"clock": ClockRequest{PerMove: perMove}}
	if code := e.doWith(cs[0], "POST", "/api/games", "", body, &cr); code != 201 {
		e.t.Fatalf("create with %d s a move: %d", perMove, code)
	}
	var toks []string
	for _, c := range cs {
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, &j); code != 200 {
			e.t.Fatalf("join: %d", code)
		}
		toks = append(toks, j.Token)
	}
	return cr.ID, toks, cs
}

func TestPerMoveBadRequests(t *testing.T) {
	e := newEnv(t, nil)
	for _, c := range []ClockRequest{{PerMove: -1}, {PerMove: MaxPerMoveSeconds + 1}, {Seconds: 60, PerMove: 60}, {Overtime: 30, PerMove: 60}} {
		body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "clock": c}
		var eb errorBody
		if code := e.do("POST", "/api/games", "", body, &eb); code != 400 || !strings.Contains(eb.Error, "clock") {
			t.Errorf("clock %+v: %d %q, want 400 about the clock", c, code, eb.Error)
		}
	}
	// Only a signed-in player makes one, and only a signed-in player
	// takes a seat.
	body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "computer"}},
		"clock": ClockRequest{PerMove: MaxPerMoveSeconds}}
	var eb errorBody
	if code := e.do("POST", "/api/games", "", body, &eb); code != 401 || !strings.Contains(eb.Error, "correspondence") {
		t.Errorf("a guest makes a game of correspondence play: %d %q", code, eb.Error)
	}
	// Two weeks a move is taken, and shown; a computer's seat has none.
	c := e.accounts(1)[0]
	var cr CreateResponse
	if code := e.doWith(c, "POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := e.do("POST", "/api/games/"+cr.ID+"/join", "", nil, &eb); code != 401 || !strings.Contains(eb.Error, "correspondence") {
		t.Errorf("a guest joins a game of correspondence play: %d %q", code, eb.Error)
	}
	st := e.state(cr.ID, "")
	if c := st.Clock; c == nil || len(c.PerMove) != 2 || c.PerMove[0] != MaxPerMoveSeconds || c.PerMove[1] != 0 ||
		c.Seconds[0] != 0 || c.LeftMs[0] != MaxPerMoveSeconds*1000 || c.Running != -1 {
		t.Errorf("clock before the start: %+v", st.Clock)
	}
}

// TestPerMoveClock: each move has its own time, so moves that take more
// than it together are all in time; the game shows each turn's time
// left; a player who lets one move's time run out loses on time with no
// penalty; the lobby, the rematch and a restart keep the clock.
func TestPerMoveClock(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	id, toks, cs := e.createPerMove(1)
	st := e.state(id, "")
	if c := st.Clock; c == nil || c.Running != 0 || c.LeftMs[0] > 1000 || c.LeftMs[1] != 1000 || c.PerMove[1] != 1 {
		t.Fatalf("clock at the start: %+v", st.Clock)
	}
	// Three passes of 0.6 s each: 1.8 s in all, each move in its time.
	for k := 0; k < 3; k++ {
		time.Sleep(600 * time.Millisecond)
		if code := e.do("POST", "/api/games/"+id+"/move", toks[k%2], map[string]any{"kind": "pass"}, nil); code != 200 {
			t.Fatalf("pass %d after 0.6 s: %d", k, code)
		}
		st := e.state(id, "")
		if st.Over || st.Clock.Running != (k+1)%2 || st.Clock.LeftMs[(k+1)%2] < 500 {
			t.Fatalf("after pass %d: over %v, clock %+v", k, st.Over, st.Clock)
		}
	}
	st = e.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 1 || len(st.Winners) != 1 || st.Winners[0] != 0 {
		t.Fatalf("timed out %v winners %v, want seat 1 out", st.TimedOut, st.Winners)
	}
	for _, h := range st.History {
		if h.Kind == "time_penalty" {
			t.Errorf("a penalty in a game with a time for each move: %+v", h)
		}
	}
	if st.Clock.Running != -1 || st.Clock.LeftMs[0] != 1000 || st.Clock.LeftMs[1] != 0 {
		t.Errorf("clock at the end: %+v", st.Clock)
	}
	e = e.restartSame(st0, id, st)

	// The rematch has the same clock.
	var rm struct{ ID string }
	if code := e.doWith(cs[0], "POST", "/api/games/"+id+"/rematch", toks[0], nil, &rm); code != 200 && code != 201 {
		t.Fatalf("rematch: %d", code)
	}
	if c := e.state(rm.ID, "").Clock; c == nil || c.PerMove == nil || c.PerMove[0] != 1 || c.PerMove[1] != 1 {
		t.Errorf("the rematch's clock: %+v", c)
	}
}

// TestPerMoveNotAbandoned: a game of correspondence play may wait longer
// than the idle expiry for a move; its clock, not the expiry, ends it.
// A game offered in the lobby shows its clock.
func TestPerMoveNotAbandoned(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.ExpireIdle, cfg.ExpireUnstarted = 200*time.Millisecond, 100*time.Millisecond
	e := newEnvConfig(t, cfg)
	// An unstarted game waits for its seats as long as one move's time.
	c := e.accounts(1)[0]
	var waiting CreateResponse
	body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}},
		"clock": ClockRequest{PerMove: 1}}
	if code := e.doWith(c, "POST", "/api/games", "", body, &waiting); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := e.doWith(c, "POST", "/api/games/"+waiting.ID+"/join", "", nil, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	slow, _, _ := e.createPerMove(60)
	idle := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	e.join(idle)
	e.join(idle)
	waitFor(t, "the untimed game abandoned", func() bool { return e.state(idle, "").Abandoned })
	start := time.Now()
	time.Sleep(300 * time.Millisecond)
	if st := e.state(slow, ""); st.Over || st.Clock.Running != 0 {
		t.Errorf("game with a minute a move after 0.5 s idle: over %v (abandoned %v), clock %+v", st.Over, st.Abandoned, st.Clock)
	}
	if st := e.state(waiting.ID, ""); st.Over && time.Since(start) < 700*time.Millisecond {
		t.Errorf("a game with a second a move abandoned before its second: %+v", st)
	}
	waitFor(t, "the unstarted game with a second a move abandoned", func() bool { return e.state(waiting.ID, "").Abandoned })

	var cr CreateResponse
	body = map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}},
		"clock": ClockRequest{PerMove: 3 * 24 * 3600}}
	if code := e.doWith(c, "POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var a JoinResponse
	if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, &a); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if code := e.do("POST", "/api/games/"+cr.ID+"/list", a.Token, nil, nil); code != 200 {
		t.Fatalf("list: %d", code)
	}
	var lobby Lobby
	if code := e.do("GET", "/api/lobby", "", nil, &lobby); code != 200 {
		t.Fatalf("lobby: %d", code)
	}
	found := false
	for _, g := range lobby.Open {
		if g.ID == cr.ID {
			found = true
			if g.Clock == nil || g.Clock.PerMove != 3*24*3600 || g.Clock.Seconds != 0 {
				t.Errorf("the lobby's clock: %+v", g.Clock)
			}
		}
	}
	if !found {
		t.Errorf("game %s not in the lobby: %+v", cr.ID, lobby.Open)
	}
}

// TestPerMoveRunsOutWhileDown: a move whose time ran out while no server
// ran ends the game on time when a server starts, the seat charged its
// time for the move and no more.
func TestPerMoveRunsOutWhileDown(t *testing.T) {
	st0 := newStore(t)
	id := "00112233445566bb"
	storeStarted(t, st0, id, time.Now().Add(-3*time.Hour), store.Seat{Name: "Ana", PerMove: 3600}, store.Seat{Name: "Bo", PerMove: 3600})
	e := newEnv(t, st0)
	st := e.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 0 || st.Abandoned {
		t.Fatalf("timed out %v abandoned %v, want seat 0 out on time", st.TimedOut, st.Abandoned)
	}
	e.srv.mu.Lock()
	l := e.srv.games[id]
	e.srv.mu.Unlock()
	l.mu.Lock()
	used := l.used[0]
	l.mu.Unlock()
	if used != time.Hour {
		t.Errorf("seat 0 charged %v, want its hour for the move", used)
	}
}
