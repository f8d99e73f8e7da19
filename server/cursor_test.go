package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"atril/store"
)

// wsConn is a test client of the notification WebSocket.
type wsConn struct {
	t   *testing.T
	c   *websocket.Conn
	ctx context.Context
}

func (e *testEnv) dialWS(id, tok, query string) *wsConn {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	e.t.Cleanup(cancel)
	u := "ws" + strings.TrimPrefix(e.url, "http") + "/api/games/" + id + "/ws?token=" + tok + query
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.CloseNow() })
	return &wsConn{t: e.t, c: c, ctx: ctx}
}

// read reads n notifications.
func (w *wsConn) read(n int) []Notification {
	w.t.Helper()
	var out []Notification
	for range n {
		_, data, err := w.c.Read(w.ctx)
		if err != nil {
			w.t.Fatalf("after %d notifications: %v", len(out), err)
		}
		var nt Notification
		if err := json.Unmarshal(data, &nt); err != nil {
			w.t.Fatal(err)
		}
		out = append(out, nt)
	}
	return out
}

func (e *testEnv) after(id, tok string, seq int) []Notification {
	e.t.Helper()
	var ns []Notification
	if code := e.do("GET", fmt.Sprintf("/api/games/%s/notifications?after=%d", id, seq), tok, nil, &ns); code != 200 {
		e.t.Fatalf("notifications after %d: %d", seq, code)
	}
	return ns
}

func seqs(ns []Notification) string {
	var s []string
	for _, n := range ns {
		s = append(s, fmt.Sprintf("%d:%s", n.Seq, n.Type))
	}
	return strings.Join(s, " ")
}

// TestTwoConnectionsOneSeat checks that every connection of a seat gets
// every notification of that seat, whether it reads with a cursor over
// HTTP or over a WebSocket, and that the numbers increase.
func TestTwoConnectionsOneSeat(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	w1 := e.dialWS(id, b.Token, "&after=0")
	w2 := e.dialWS(id, b.Token, "&after=0")
	playOut(t, e, id, []string{a.Token, b.Token}, 4)
	// A refusal goes to every connection of the refused seat.
	e.do("POST", "/api/games/"+id+"/move", b.Token, `{"kind":"exchange","exchange":["@"]}`, nil)
	want := e.after(id, b.Token, 0)
	if got := types(want); !strings.HasPrefix(got, "seat,started,tiles,turn,placed,points,") || !strings.HasSuffix(got, ",rejected") {
		t.Fatalf("seat 1 notifications: %s", got)
	}
	for k := 1; k < len(want); k++ {
		if want[k].Seq <= want[k-1].Seq {
			t.Fatalf("numbers do not increase: %s", seqs(want))
		}
	}
	got1, got2 := w1.read(len(want)), w2.read(len(want))
	if seqs(got1) != seqs(want) || seqs(got2) != seqs(want) {
		t.Errorf("connections differ:\nHTTP %s\nWS1  %s\nWS2  %s", seqs(want), seqs(got1), seqs(got2))
	}
	// A draining read (no cursor) is a queue of its own: it does not
	// take anything from the cursor readers, and they from it.
	if d := e.drain(id, b.Token); seqs(d) != seqs(want) {
		t.Errorf("drain: %s, want %s", seqs(d), seqs(want))
	}
	if d := e.drain(id, b.Token); len(d) != 0 {
		t.Errorf("second drain: %s", seqs(d))
	}
	if again := e.after(id, b.Token, 0); seqs(again) != seqs(want) {
		t.Errorf("cursor read after a drain: %s", seqs(again))
	}
	// Seat 0 does not see seat 1's tiles or refusal.
	for _, n := range e.after(id, a.Token, 0) {
		if n.Seat != nil && *n.Seat == 1 && (n.Type == "tiles" || n.Type == "rejected") {
			t.Errorf("seat 0 sees %s of seat 1", n.Type)
		}
	}
}

// TestStateSeqContinues checks that reading the notifications after the
// state's seq gives exactly what happened after the state was read, over
// HTTP and over the WebSocket, and that a long poll with a cursor waits
// for the next one.
func TestStateSeqContinues(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	st := e.state(id, b.Token)
	if st.Seq == 0 || st.Seq != e.state(id, "").Seq {
		t.Fatalf("state seq %d (spectator %d)", st.Seq, e.state(id, "").Seq)
	}
	if ns := e.after(id, b.Token, st.Seq); len(ns) != 0 {
		t.Errorf("after the state's seq: %s", seqs(ns))
	}
	ws := e.dialWS(id, b.Token, fmt.Sprintf("&after=%d", st.Seq))
	done := make(chan []Notification)
	go func() {
		var ns []Notification
		e.do("GET", fmt.Sprintf("/api/games/%s/notifications?after=%d&wait=20", id, st.Seq), b.Token, nil, &ns)
		done <- ns
	}()
	time.Sleep(50 * time.Millisecond) // let the long poll start waiting (either order passes)
	playOut(t, e, id, []string{a.Token, b.Token}, 1)
	polled := <-done
	if types(polled) == "" || !strings.HasPrefix("placed,points,turn", types(polled)) {
		t.Errorf("long poll after the state: %s", types(polled))
	}
	if got := types(ws.read(3)); got != "placed,points,turn" {
		t.Errorf("WebSocket after the state: %s", got)
	}
	if st2 := e.state(id, b.Token); st2.Seq <= st.Seq {
		t.Errorf("seq did not move: %d then %d", st.Seq, st2.Seq)
	}
}

// TestLostWhenBehind checks the bound on a game's notifications: a reader
// further behind than the log keeps gets "lost" first, then what is
// kept, and the answer stays within the bound.
func TestLostWhenBehind(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(st)
	cfg.LogBytes = 2000
	e := newEnvConfig(t, cfg)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	playOut(t, e, id, []string{a.Token, b.Token}, 20)
	var raw json.RawMessage
	e.do("GET", "/api/games/"+id+"/notifications?after=0", b.Token, nil, &raw)
	if len(raw) > 2*cfg.LogBytes {
		t.Errorf("answer of %d bytes over a log bound of %d", len(raw), cfg.LogBytes)
	}
	ns := e.after(id, b.Token, 0)
	if len(ns) < 2 || ns[0].Type != "lost" || ns[1].Seq <= ns[0].Seq {
		t.Fatalf("reader far behind: %s", seqs(ns))
	}
	// Reading on from what came last loses nothing more.
	if more := e.after(id, b.Token, ns[len(ns)-1].Seq); len(more) != 0 {
		t.Errorf("after the last: %s", seqs(more))
	}
	if d := e.drain(id, a.Token); len(d) == 0 || d[0].Type != "lost" {
		t.Errorf("queue that was never read: %s", seqs(d))
	}
	w := e.dialWS(id, b.Token, "&after=1")
	if n := w.read(1); n[0].Type != "lost" || n[0].Seq != ns[0].Seq {
		t.Errorf("WebSocket far behind starts with %s", seqs(n))
	}
}
