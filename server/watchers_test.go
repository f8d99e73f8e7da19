package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// watcherPeriods sets the watchers' periods for a test, before its
// servers start, and puts them back after they stop (a cleanup
// registered first runs last).
func watcherPeriods(t *testing.T, every, count, window time.Duration) {
	e, c, w := watcherEvery, watcherCount, watcherWindow
	watcherEvery, watcherCount, watcherWindow = every, count, window
	t.Cleanup(func() { watcherEvery, watcherCount, watcherWindow = e, c, w })
}

// readAs reads game id's state from server e as the client at addr
// (with a seat's token unless tok is "") and returns its watchers.
func readAs(t *testing.T, e *testEnv, id, addr, tok string) int {
	t.Helper()
	return readStateAs(t, e, http.DefaultClient, id, addr, tok).Watching
}

// readStateAs reads game id's state from server e through c as the
// client at addr (with a seat's token unless tok is "").
func readStateAs(t *testing.T, e *testEnv, c *http.Client, id, addr, tok string) State {
	t.Helper()
	req, _ := http.NewRequest("GET", e.url+"/api/games/"+id, nil)
	req.Header.Set("X-Forwarded-For", addr)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s State
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil || resp.StatusCode != 200 {
		t.Fatalf("state from %s: %d %v", addr, resp.StatusCode, err)
	}
	return s
}

// watcherEnvs starts two servers on one store that see clients by
// X-Forwarded-For.
func watcherEnvs(t *testing.T) (*testEnv, *testEnv) {
	cfg := testConfig(newStore(t))
	cfg.RealIPHeader = "X-Forwarded-For"
	return newEnvConfig(t, cfg), newEnvConfig(t, cfg)
}

// TestWatchers: readers of a game's state without a seat's token count
// as its watchers, by address, on every server sharing the store; the
// players are not counted, and a game over shows none.
func TestWatchers(t *testing.T) {
	watcherPeriods(t, 0, 0, 20*time.Second) // every read records and counts
	e1, e2 := watcherEnvs(t)
	id := e1.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e1.join(id).Token, e1.join(id).Token}
	for _, tc := range []struct {
		e         *testEnv
		addr, tok string
		want      int
		what      string
	}{
		{e1, "10.0.0.1", "", 1, "the first watcher"},
		{e2, "10.0.0.2", "", 2, "a second watcher, on the other server"},
		{e1, "10.0.0.1", "", 2, "the first watcher again"},
		{e1, "10.0.0.9", toks[0], 2, "a player (players are not watchers)"},
	} {
		if n := readAs(t, tc.e, id, tc.addr, tc.tok); n != tc.want {
			t.Errorf("%s: %d watching, want %d", tc.what, n, tc.want)
		}
	}
	playOut(t, e1, id, toks, 200)
	if n := readAs(t, e1, id, "10.0.0.1", ""); n != 0 {
		t.Errorf("a game over: %d watching, want none", n)
	}
}

// TestWatchersNamed: a signed-in watcher is named to every reader of the
// state, on both servers; a guest is counted, not named.
func TestWatchersNamed(t *testing.T) {
	watcherPeriods(t, 0, 0, 20*time.Second)
	e1, e2 := watcherEnvs(t)
	id := e1.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	e1.join(id)
	e1.join(id)
	ana := browser(t)
	e1.signUp(ana, "Ana", "correct horse")
	read := func(e *testEnv, c *http.Client, addr string) State {
		t.Helper()
		return readStateAs(t, e, c, id, addr, "")
	}
	if s := read(e1, http.DefaultClient, "10.0.0.1"); s.Watching != 1 || len(s.WatchingNames) != 0 {
		t.Errorf("a guest watching: %d named %v", s.Watching, s.WatchingNames)
	}
	if s := read(e1, ana, "10.0.0.2"); s.Watching != 2 || strings.Join(s.WatchingNames, ",") != "Ana" {
		t.Errorf("Ana watching too: %d named %v", s.Watching, s.WatchingNames)
	}
	if s := read(e2, http.DefaultClient, "10.0.0.3"); s.Watching != 3 || strings.Join(s.WatchingNames, ",") != "Ana" {
		t.Errorf("read on the other server: %d named %v", s.Watching, s.WatchingNames)
	}
}

// TestWatchersWindow: a watcher not seen in the window is not counted.
func TestWatchersWindow(t *testing.T) {
	watcherPeriods(t, 0, 0, time.Millisecond)
	e1, _ := watcherEnvs(t)
	id := e1.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	e1.join(id)
	e1.join(id)
	readAs(t, e1, id, "10.0.0.1", "")
	time.Sleep(20 * time.Millisecond)
	if n := readAs(t, e1, id, "10.0.0.2", ""); n != 1 {
		t.Errorf("a watcher gone from the window: %d watching, want 1", n)
	}
}
