package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"atril/store"
)

func TestRematch(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	id := e.create(SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Bo"})
	var a, b JoinResponse
	if code := e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Ana"}, &a); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Bo"}, &b); code != 200 {
		t.Fatalf("join: %d", code)
	}
	var eb errorBody
	if code := e.do("POST", "/api/games/"+id+"/rematch", a.Token, nil, &eb); code != 409 {
		t.Errorf("rematch of a game in play: %d %q, want 409", code, eb.Error)
	}
	if code := e.do("POST", "/api/games/"+id+"/rematch", "", nil, &eb); code != 401 {
		t.Errorf("rematch without a token: %d, want 401", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/resign", b.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	e.drain(id, b.Token)
	var ra RematchResponse
	if code := e.do("POST", "/api/games/"+id+"/rematch", a.Token, nil, &ra); code != 200 {
		t.Fatalf("rematch: %d", code)
	}
	if ra.Seat != 1 || ra.Token == "" || !validID(ra.ID) || ra.ID == id {
		t.Fatalf("rematch answer %+v", ra)
	}
	st := e.state(ra.ID, ra.Token)
	if st.Started || st.Seats[0].Name != "Bo" || st.Seats[1].Name != "Ana" || !st.Seats[1].Taken || st.Seats[0].Taken {
		t.Fatalf("rematch before Bo takes his seat: started %v seats %+v", st.Started, st.Seats)
	}
	// Bo is told, and only the seats see the new game's id.
	ns := e.drain(id, b.Token)
	if len(ns) != 1 || ns[0].Type != "rematch" || ns[0].Game != ra.ID {
		t.Errorf("Bo's notifications after the rematch: %+v", ns)
	}
	if sb := e.state(id, b.Token); sb.You.Rematch != ra.ID {
		t.Errorf("Bo's state shows rematch %q, want %q", sb.You.Rematch, ra.ID)
	}
	if pub := e.state(id, ""); pub.You != nil {
		t.Errorf("a spectator sees the seats' part: %+v", pub.You)
	}
	var rb RematchResponse
	if code := e.do("POST", "/api/games/"+id+"/rematch", b.Token, nil, &rb); code != 200 {
		t.Fatalf("Bo's rematch: %d", code)
	}
	if rb.ID != ra.ID || rb.Seat != 0 {
		t.Fatalf("Bo's rematch answer %+v, want seat 0 of %s", rb, ra.ID)
	}
	st = e.state(ra.ID, rb.Token)
	if !st.Started || st.Turn != 0 || st.You.Seat != 0 {
		t.Errorf("the rematch: started %v, turn %d, Bo's seat %d; want Bo to start", st.Started, st.Turn, st.You.Seat)
	}
	if code := e.do("POST", "/api/games/"+id+"/rematch", a.Token, nil, &eb); code != 409 {
		t.Errorf("a second rematch for Ana: %d, want 409", code)
	}
	// The rematch is in the finished game's log.
	e2 := e.restartSame(st0, id, e.state(id, ""))
	if sa := e2.state(id, a.Token); sa.You.Rematch != ra.ID {
		t.Errorf("after a restart Ana's state shows rematch %q, want %q", sa.You.Rematch, ra.ID)
	}
}

// TestRematchComputerClock: the rematch of a game against the computer
// keeps the level and the clock, and starts with the computer.
func TestRematchComputerClock(t *testing.T) {
	e := newEnv(t, nil)
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 42, "clock": ClockRequest{Seconds: 600, Overtime: 60},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "computer", Level: "adept"}}}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	a := e.join(cr.ID)
	if code := e.do("POST", "/api/games/"+cr.ID+"/resign", a.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	var r RematchResponse
	if code := e.do("POST", "/api/games/"+cr.ID+"/rematch", a.Token, nil, &r); code != 200 {
		t.Fatalf("rematch: %d", code)
	}
	st := e.state(r.ID, r.Token)
	if !st.Started || r.Seat != 1 || st.Seats[0].Level != "adept" || st.Seats[1].Name != "Ana" {
		t.Fatalf("rematch: started %v, seat %d, seats %+v", st.Started, r.Seat, st.Seats)
	}
	if st.Clock == nil || st.Clock.Seconds[0] != 0 || st.Clock.Seconds[1] != 600 || st.Clock.Overtime[1] != 60 {
		t.Errorf("rematch clock %+v, want Ana's 600 s + 60", st.Clock)
	}
}

// slowCreate is a store whose new games take a while to be made, after
// they are written.
type slowCreate struct {
	store.Store
	delay time.Duration
}

func (s *slowCreate) CreateGame(ctx context.Context, g *store.Game) error {
	err := s.Store.CreateGame(ctx, g)
	time.Sleep(s.delay)
	return err
}

// TestRematchAtOnce: both seats ask while the rematch is being made;
// each gets its seat in one and the same game.
func TestRematchAtOnce(t *testing.T) {
	sc := &slowCreate{Store: newStore(t)}
	e := newEnv(t, sc)
	id := e.create(SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Bo"})
	a, b := e.join(id), e.join(id)
	if code := e.do("POST", "/api/games/"+id+"/resign", b.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	sc.delay = 500 * time.Millisecond
	done := make(chan int)
	var ra RematchResponse
	go func() { done <- e.do("POST", "/api/games/"+id+"/rematch", a.Token, nil, &ra) }()
	for e.state(id, b.Token).You.Rematch == "" {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	var rb RematchResponse
	codeB := e.do("POST", "/api/games/"+id+"/rematch", b.Token, nil, &rb)
	if codeA := <-done; codeA != 200 || codeB != 200 || ra.ID != rb.ID {
		t.Fatalf("Ana %d %+v, Bo %d %+v", codeA, ra, codeB, rb)
	}
	st := e.state(ra.ID, rb.Token)
	if !st.Started || st.You.Seat != 0 || e.srv.LiveGames() != 1 {
		t.Errorf("rematch: started %v, Bo's seat %d, %d live games (want 1)", st.Started, st.You.Seat, e.srv.LiveGames())
	}
}

func TestChatNeedsAnotherPerson(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "adept"})
	a := e.join(id)
	if code := e.do("POST", "/api/games/"+id+"/chat", a.Token, map[string]any{"text": "hi"}, nil); code != 409 {
		t.Errorf("chat against the computer: %d, want 409", code)
	}
}

// TestRematchGamesPerClient: a rematch is a game made by the client that
// asks for it, counted against MaxGamesPerClient as any other (else a
// client could finish games and ask for their rematches without bound).
func TestRematchGamesPerClient(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.MaxGamesPerClient = 2
	e := newEnvConfig(t, cfg)
	person := SeatRequest{Kind: "human"}
	id := e.create(person, person)
	a := e.join(id)
	e.join(id)
	if code := e.do("POST", "/api/games/"+id+"/resign", a.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	other := e.create(person, person)
	e.create(person, person)
	var eb errorBody
	if code := e.do("POST", "/api/games/"+id+"/rematch", a.Token, nil, &eb); code != 429 || !strings.Contains(eb.Error, "not over yet") {
		t.Errorf("a rematch past the client's games: %d %q, want 429", code, eb.Error)
	}
	if n := e.srv.LiveGames(); n != 2 {
		t.Errorf("%d unfinished games, want 2", n)
	}
	// Once another of its games is over, the client may have it.
	if code := e.do("POST", "/api/games/"+other+"/abort", e.join(other).Token, nil, nil); code != 200 {
		t.Fatalf("abort: %d", code)
	}
	var rm RematchResponse
	if code := e.do("POST", "/api/games/"+id+"/rematch", a.Token, nil, &rm); code != 200 {
		t.Fatalf("a rematch within the client's games: %d", code)
	}
	e.srv.mu.Lock()
	n := e.srv.byClient["127.0.0.1"]
	e.srv.mu.Unlock()
	if n != 2 {
		t.Errorf("the client's unfinished games counted as %d, want 2 (the rematch among them)", n)
	}
}
