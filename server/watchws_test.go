package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// dialWatch opens game id's watchers' WebSocket as the client at addr,
// and returns the connection or the HTTP status it was refused with.
func (e *testEnv) dialWatch(ctx context.Context, id, addr string) (*websocket.Conn, int) {
	e.t.Helper()
	u := "ws" + strings.TrimPrefix(e.url, "http") + "/api/games/" + id + "/watch"
	h := http.Header{}
	h.Set("X-Forwarded-For", addr)
	c, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		if resp == nil {
			e.t.Fatalf("dial %s: %v", u, err)
		}
		return nil, resp.StatusCode
	}
	e.t.Cleanup(func() { c.CloseNow() })
	return c, 101
}

// readWatch reads the watchers' socket's next message.
func readWatch(t *testing.T, ctx context.Context, c *websocket.Conn) watchMessage {
	t.Helper()
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read the watchers' socket: %v", err)
	}
	var m watchMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("message %s: %v", data, err)
	}
	return m
}

// TestWatchSocket: a watcher's WebSocket counts its client among the
// watchers, says when the count changes and when the state does (a move,
// the end), is counted by /metrics, ends with the game, and is refused
// for a game over and past its bound.
func TestWatchSocket(t *testing.T) {
	watcherPeriods(t, 20*time.Millisecond, 0, 20*time.Second)
	gap := watchGap
	watchGap = 10 * time.Millisecond
	t.Cleanup(func() { watchGap = gap })
	cfg := testConfig(newStore(t))
	cfg.RealIPHeader = "X-Forwarded-For"
	e := newEnvConfig(t, cfg)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	c, code := e.dialWatch(ctx, id, "10.0.0.1")
	if c == nil {
		t.Fatalf("the watchers' socket: %d", code)
	}
	if m := readWatch(t, ctx, c); m.Type != "watching" || m.Watching == nil || *m.Watching != 1 {
		t.Fatalf("first message %+v, want the socket's own client watching", m)
	}
	if n := readAs(t, e, id, "10.0.0.2", ""); n != 2 {
		t.Errorf("a reader of the state sees %d watching, want 2 (the socket's client and itself)", n)
	}
	if m := readWatch(t, ctx, c); m.Type != "watching" || *m.Watching != 2 {
		t.Errorf("after a second watcher: %+v, want 2 watching", m)
	}
	if got := readMetrics(t, e)["atril_watch_sockets"]; got != 1 {
		t.Errorf("atril_watch_sockets %v, want 1", got)
	}

	// A move: the socket says the state changed, and says nothing of
	// what the seats alone see.
	st := e.state(id, toks[0])
	req, _ := bestRequest(t, st)
	if code := e.do("POST", "/api/games/"+id+"/move", toks[0], req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	for {
		m := readWatch(t, ctx, c)
		if m.Type == "changed" {
			break
		}
		if m.Type != "watching" {
			t.Fatalf("message %+v, want changed", m)
		}
	}

	// The bound: one socket more is refused.
	most := watchSocketsMost
	watchSocketsMost = 1
	if c2, code := e.dialWatch(ctx, id, "10.0.0.3"); c2 != nil || code != 503 {
		t.Errorf("a socket past the bound: %d, want 503", code)
	}
	watchSocketsMost = most
	// One client holds at most clientSocketsMost of them (the socket
	// above is another client's).
	var theirs []*websocket.Conn
	for k := range clientSocketsMost {
		c, code := e.dialWatch(ctx, id, "10.0.0.9")
		if c == nil {
			t.Fatalf("socket %d of one client: %d", k+1, code)
		}
		theirs = append(theirs, c)
	}
	if c, code := e.dialWatch(ctx, id, "10.0.0.9"); c != nil || code != 429 {
		t.Errorf("one socket more of that client: %d, want 429", code)
	}
	for _, c := range theirs {
		c.CloseNow()
	}

	// The end: the socket says so and closes.
	if code := e.do("POST", "/api/games/"+id+"/resign", toks[1], nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			if s := websocket.CloseStatus(err); s != websocket.StatusNormalClosure {
				t.Errorf("the socket closed with %v (%v), want a normal closure", s, err)
			}
			break
		}
		if !strings.Contains(string(data), `"changed"`) && !strings.Contains(string(data), `"watching"`) {
			t.Errorf("message %s", data)
		}
	}
	if pub := e.state(id, ""); !pub.Over {
		t.Fatal("the game is not over")
	}
	deadline := time.Now().Add(5 * time.Second)
	for readMetrics(t, e)["atril_watch_sockets"] != 0 {
		if time.Now().After(deadline) {
			t.Fatal("atril_watch_sockets does not come back to 0 once the socket closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if c3, code := e.dialWatch(ctx, id, "10.0.0.1"); c3 != nil || code != 409 {
		t.Errorf("a finished game's socket: %d, want 409", code)
	}
}
