package server

import (
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"atril/store"
)

// shownIDs lists the ids of the games the server's lobby index holds.
func (e *testEnv) shownIDs() map[string]bool {
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	ids := map[string]bool{}
	for l := range e.srv.shown {
		ids[l.hdr.ID] = true
	}
	return ids
}

// TestLobbyIndex checks that the lobby's index holds exactly the
// unfinished games offered in the lobby or rated, through offers, the
// end of a game, a restart and an eviction, and that the lobby answers
// from it what it answered from every game.
func TestLobbyIndex(t *testing.T) {
	e := newEnv(t, nil)
	private := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	e.join(private)
	offered := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	ao := e.join(offered)
	if got := e.shownIDs(); len(got) != 0 {
		t.Fatalf("index before any offer: %v", got)
	}
	if code := e.do("POST", "/api/games/"+offered+"/list", ao.Token, nil, nil); code != 200 {
		t.Fatalf("list: %d", code)
	}
	// A rated game is shown once it is played, whether offered or not.
	cs := e.accounts(2)
	var cr CreateResponse
	body := map[string]any{"variant": "english", "rated": true,
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "clock": ClockRequest{Seconds: 600}}
	if code := e.doWith(cs[0], "POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create a rated game: %d", code)
	}
	for _, c := range cs {
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 200 {
			t.Fatalf("join the rated game: %d", code)
		}
	}
	rated := cr.ID
	want := map[string]bool{offered: true, rated: true}
	check := func(what string, e *testEnv, want map[string]bool) {
		t.Helper()
		got := e.shownIDs()
		if len(got) != len(want) {
			t.Errorf("%s: index %v, want %v", what, got, want)
		}
		for id := range want {
			if !got[id] {
				t.Errorf("%s: index %v lacks %s", what, got, id)
			}
		}
		var lb Lobby
		if code := e.do("GET", "/api/lobby", "", nil, &lb); code != 200 {
			t.Fatalf("%s: lobby: %d", what, code)
		}
		listed := map[string]bool{}
		for _, g := range append(lb.Open, lb.Playing...) {
			listed[g.ID] = true
		}
		if len(listed) != len(want) {
			t.Errorf("%s: lobby lists %v, want %v", what, listed, want)
		}
		for id := range want {
			if !listed[id] {
				t.Errorf("%s: lobby %v lacks %s", what, listed, id)
			}
		}
	}
	check("offered and rated", e, want)

	// After a restart the index is rebuilt from the store.
	e.hs.Close()
	e.srv.Close()
	e2 := newEnv(t, e.st)
	check("after a restart", e2, want)

	// A game that ends leaves the index.
	bo := e2.join(offered)
	if code := e2.do("POST", "/api/games/"+offered+"/abort", bo.Token, nil, nil); code != 200 {
		t.Fatalf("abort: %d", code)
	}
	delete(want, offered)
	check("after the offered game ended", e2, want)

	// So does a game dropped from memory; it comes back when loaded.
	e2.srv.mu.Lock()
	l := e2.srv.games[rated]
	e2.srv.mu.Unlock()
	l.mu.Lock()
	e2.srv.evict(l)
	l.mu.Unlock()
	check("after an eviction", e2, map[string]bool{})
	e2.state(rated, "")
	check("loaded again", e2, want)
}

// TestEvictUncounts checks that a game of correspondence play dropped
// from memory stops counting among those games, so that loading it again
// does not count it twice.
func TestEvictUncounts(t *testing.T) {
	e := newEnv(t, nil)
	id, _, _ := e.createPerMove(3600)
	counts := func() (int, int) {
		e.srv.mu.Lock()
		defer e.srv.mu.Unlock()
		return e.srv.nlive, e.srv.ncorr
	}
	if n, nc := counts(); n != 1 || nc != 1 {
		t.Fatalf("counted %d games, %d of correspondence play; want 1 and 1", n, nc)
	}
	for range 3 {
		e.srv.mu.Lock()
		l := e.srv.games[id]
		e.srv.mu.Unlock()
		l.mu.Lock()
		e.srv.evict(l)
		l.mu.Unlock()
		if n, nc := counts(); n != 0 || nc != 0 {
			t.Fatalf("after an eviction counted %d and %d; want 0 and 0", n, nc)
		}
		e.state(id, "")
		if n, nc := counts(); n != 1 || nc != 1 {
			t.Fatalf("loaded again, counted %d and %d; want 1 and 1", n, nc)
		}
	}
}

// forwardedFor sends every request as if a proxy had seen it come from
// addr (the server trusts X-Forwarded-For in TestOfferCap).
type forwardedFor struct{ addr string }

func (f forwardedFor) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", f.addr)
	return http.DefaultTransport.RoundTrip(r)
}

// TestOfferCap checks that one client, or one account from any address,
// has at most MaxOffers games waiting in the lobby at once.
func TestOfferCap(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(st)
	cfg.MaxOffers = 2
	cfg.RealIPHeader = "X-Forwarded-For"
	e := newEnvConfig(t, cfg)
	from := func(addr string, jar http.CookieJar) *http.Client {
		return &http.Client{Jar: jar, Transport: forwardedFor{addr}}
	}
	// offer creates a game through c, takes a seat and offers the game;
	// it returns the game, the seat's token and the offer's status.
	offer := func(c *http.Client) (string, string, int) {
		t.Helper()
		var cr CreateResponse
		if code := e.doWith(c, "POST", "/api/games", "", map[string]any{"variant": "english",
			"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		return cr.ID, j.Token, e.doWith(c, "POST", "/api/games/"+cr.ID+"/list", j.Token, nil, nil)
	}
	a := from("192.0.2.1", nil)
	g1, t1, c1 := offer(a)
	_, _, c2 := offer(a)
	g3, t3, c3 := offer(a)
	if c1 != 200 || c2 != 200 || c3 != 409 {
		t.Errorf("three offers from one address: %d, %d, %d; want 200, 200, 409", c1, c2, c3)
	}
	if code := e.doWith(a, "POST", "/api/games/"+g1+"/list", t1, nil, nil); code != 200 {
		t.Errorf("the same offer again: %d, want 200", code)
	}
	if _, _, code := offer(from("192.0.2.2", nil)); code != 200 {
		t.Errorf("an offer from another address: %d, want 200", code)
	}
	// Once a player joins one of them, there is room for another.
	if code := e.doWith(from("192.0.2.9", nil), "POST", "/api/games/"+g1+"/join", "", nil, nil); code != 200 {
		t.Fatalf("join the offered game: %d", code)
	}
	if code := e.doWith(a, "POST", "/api/games/"+g3+"/list", t3, nil, nil); code != 200 {
		t.Errorf("an offer after one was taken up: %d, want 200", code)
	}
	// An account counts its offers from every address.
	home := browser(t)
	home.Transport = forwardedFor{"198.51.100.1"}
	e.signUp(home, "Offerer", "correct horse")
	offer(home)
	offer(home)
	if _, _, code := offer(from("198.51.100.2", home.Jar)); code != 409 {
		t.Errorf("the account's third offer from another address: %d, want 409", code)
	}
	var lb Lobby
	e.do("GET", "/api/lobby", "", nil, &lb)
	if len(lb.Open) != 5 { // two from the first address, one from the second, two by the account
		t.Errorf("the lobby lists %d games waiting, want 5", len(lb.Open))
	}
}

// TestLobbyEvery: one reading of the lobby's games serves its readers for
// LobbyEvery, each still without the games of accounts blocked either
// way.
func TestLobbyEvery(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.LobbyEvery = time.Hour
	e := newEnvConfig(t, cfg)
	cs := e.accounts(2)
	// offer makes a game of c's account (or a guest's, for nil) and
	// offers it in the lobby.
	offer := func(c *http.Client) string {
		t.Helper()
		if c == nil {
			c = http.DefaultClient
		}
		var cr CreateResponse
		if code := e.doWith(c, "POST", "/api/games", "", map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		if code := e.do("POST", "/api/games/"+cr.ID+"/list", j.Token, nil, nil); code != 200 {
			t.Fatalf("list: %d", code)
		}
		return cr.ID
	}
	open := func(c *http.Client) []string {
		t.Helper()
		var lb Lobby
		if code := e.doWith(c, "GET", "/api/lobby", "", nil, &lb); code != 200 {
			t.Fatalf("lobby: %d", code)
		}
		var ids []string
		for _, g := range lb.Open {
			ids = append(ids, g.ID)
		}
		return ids
	}
	first := offer(cs[0])
	if got := open(http.DefaultClient); !slices.Equal(got, []string{first}) {
		t.Fatalf("the lobby lists %v, want %v", got, []string{first})
	}
	second := offer(nil)
	if got := open(http.DefaultClient); !slices.Equal(got, []string{first}) {
		t.Errorf("within LobbyEvery the lobby lists %v, want the reading before, %v", got, []string{first})
	}
	// The second account blocks the first: the reading kept serves it
	// without the first account's game.
	var name Me
	if code := e.doWith(cs[0], "GET", "/api/me", "", nil, &name); code != 200 {
		t.Fatalf("me: %d", code)
	}
	if code := e.doWith(cs[1], "POST", "/api/me/blocks", "", map[string]string{"name": name.Name}, nil); code != 200 {
		t.Fatalf("block: %d", code)
	}
	if got := open(cs[1]); len(got) != 0 {
		t.Errorf("the blocker's lobby lists %v", got)
	}
	e.srv.lobbyCache.forget()
	if got := open(http.DefaultClient); !slices.Equal(got, []string{second, first}) && !slices.Equal(got, []string{first, second}) {
		t.Errorf("read again, the lobby lists %v, want both", got)
	}
	if got := open(cs[1]); !slices.Equal(got, []string{second}) {
		t.Errorf("read again, the blocker's lobby lists %v, want %v", got, []string{second})
	}
}

// TestLobbyPeopleFirst: the lobby lists the rated games being played
// between people before those against the computer, whichever is newer.
func TestLobbyPeopleFirst(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo, cy := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bob", "battery staple")
	e.signUp(cy, "Cyd", "staple battery")
	clock := ClockRequest{Seconds: 1500}
	rated := func(c *http.Client, seats ...SeatRequest) string {
		t.Helper()
		var cr CreateResponse
		if code := e.doWith(c, "POST", "/api/games", "", map[string]any{"variant": "english", "seats": seats, "rated": true, "clock": clock}, &cr); code != 201 {
			t.Fatalf("a rated game: %d", code)
		}
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, nil); code != 200 {
			t.Fatalf("join: %d", code)
		}
		return cr.ID
	}
	people := rated(ana, SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	if code := e.doWith(bo, "POST", "/api/games/"+people+"/join", "", nil, nil); code != 200 {
		t.Fatalf("Bo joins: %d", code)
	}
	time.Sleep(10 * time.Millisecond) // the game against the computer is the newer
	computer := rated(cy, SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	var lb Lobby
	if code := e.do("GET", "/api/lobby", "", nil, &lb); code != 200 || len(lb.Playing) != 2 || lb.Playing[0].ID != people || lb.Playing[1].ID != computer {
		ids := []string{}
		for _, g := range lb.Playing {
			ids = append(ids, g.ID)
		}
		t.Errorf("the lobby's games being played: %d %v, want %s (people) then %s (the computer)", code, ids, people, computer)
	}
}
