package server

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestGamesPerClient: one client has at most MaxGamesPerClient
// unfinished games it made, and at most MaxComputerGames that only
// computers play; a game over counts no more.
func TestGamesPerClient(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.MaxGamesPerClient, cfg.MaxComputerGames = 3, 1
	cfg.ThinkTime = time.Hour // the computers never move: their games stay unfinished
	e := newEnvConfig(t, cfg)
	try := func(seats ...SeatRequest) (string, int, string) {
		t.Helper()
		var out struct {
			ID    string
			Error string
		}
		code := e.do("POST", "/api/games", "", map[string]any{"variant": "english", "seats": seats}, &out)
		return out.ID, code, out.Error
	}
	bot := SeatRequest{Kind: "computer", Level: "professional"}
	person := SeatRequest{Kind: "human"}
	if _, code, msg := try(bot, bot); code != 201 {
		t.Fatalf("the first computers' game: %d %s", code, msg)
	}
	if _, code, msg := try(bot, bot); code != 429 || !strings.Contains(msg, "only computers play") {
		t.Errorf("a second computers' game: %d %q, want 429", code, msg)
	}
	id, code, msg := try(person, bot)
	if code != 201 {
		t.Fatalf("a game against the computer: %d %s", code, msg)
	}
	if _, code, msg := try(person, person); code != 201 {
		t.Fatalf("a game for two people: %d %s", code, msg)
	}
	if _, code, msg := try(person, person); code != 429 || !strings.Contains(msg, "3 games that are not over yet") {
		t.Errorf("a fourth game: %d %q, want 429", code, msg)
	}
	// Once a game is over the client may make another.
	j := e.join(id)
	if code := e.do("POST", "/api/games/"+id+"/resign", j.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	if _, code, msg := try(person, person); code != 201 {
		t.Errorf("a game after one ended: %d %s", code, msg)
	}
	e.srv.mu.Lock()
	n := e.srv.byClient["127.0.0.1"]
	e.srv.mu.Unlock()
	if n != 3 {
		t.Errorf("the client's unfinished games counted as %d, want 3", n)
	}
}

// TestComputersOnlyShare: games that only computers play hold at most
// half the thinkers, so a game with a person still finds one.
func TestComputersOnlyShare(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.Thinkers = 2
	e := newEnvConfig(t, cfg)
	s := e.srv
	release1, ok := s.thinker(true)
	if !ok {
		t.Fatal("no thinker for the first computers' game")
	}
	second := make(chan func())
	go func() {
		r, _ := s.thinker(true)
		second <- r
	}()
	people := make(chan func())
	go func() {
		r, _ := s.thinker(false)
		people <- r
	}()
	var releasePeople func()
	select {
	case releasePeople = <-people:
	case r := <-second:
		r()
		t.Fatal("a second computers' game took a thinker while the first held their share")
	case <-time.After(10 * time.Second):
		t.Fatal("a game with a person found no thinker")
	}
	select {
	case r := <-second:
		r()
		t.Fatal("a second computers' game took a thinker while the first held their share")
	default:
	}
	release1()
	select {
	case r := <-second:
		r()
	case <-time.After(10 * time.Second):
		t.Fatal("the second computers' game never got the share back")
	}
	releasePeople()
}

// TestConnsPerClient: the listener holds at most perClient connections
// from one address; another address is still served, and a connection
// closed frees its place.
func TestConnsPerClient(t *testing.T) {
	e := newEnv(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(e.srv, HTTPOptions{})
	go hs.Serve(LimitListener(ln, 10, 2, 0))
	defer hs.Close()
	addr := ln.Addr().String()
	// get asks for /api/info on a new connection from the address from
	// and returns the status and the connection, left open.
	get := func(from string) (int, net.Conn) {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("from %s: %v", from, err)
		}
		resp.Body.Close()
		return resp.StatusCode, c
	}
	var held []net.Conn
	for range 2 {
		code, c := get("127.0.0.1")
		if code != 200 {
			t.Fatalf("a connection within the client's limit: %d", code)
		}
		held = append(held, c)
	}
	if code, _ := get("127.0.0.1"); code != 503 {
		t.Errorf("a third connection from one client: %d, want 503", code)
	}
	if code, _ := get("127.0.0.2"); code != 200 {
		t.Errorf("another client's connection: %d, want 200", code)
	}
	held[0].Close()
	waitFor(t, "the client's place freed", func() bool {
		code, c := get("127.0.0.1")
		c.Close()
		return code == 200
	})
}

// TestSocketsPerSeat: one seat opens at most MaxSocketsPerSeat
// WebSockets at once; one closed frees its place.
func TestSocketsPerSeat(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer"})
	j := e.join(id)
	var open []*wsConn
	for range MaxSocketsPerSeat {
		open = append(open, e.dialWS(id, j.Token, ""))
	}
	u := "ws" + strings.TrimPrefix(e.url, "http") + "/api/games/" + id + "/ws?token=" + j.Token
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if c, resp, err := websocket.Dial(ctx, u, nil); err == nil || resp == nil || resp.StatusCode != 429 {
		if c != nil {
			c.CloseNow()
		}
		t.Errorf("WebSocket %d of one seat: %v, %v; want 429", MaxSocketsPerSeat+1, resp, err)
	}
	open[0].c.Close(websocket.StatusNormalClosure, "")
	waitFor(t, "the seat's place freed", func() bool {
		c, _, err := websocket.Dial(ctx, u, nil)
		if err != nil {
			return false
		}
		c.CloseNow()
		return true
	})
}

// TestFinishedGamesCap: at most MaxFinished finished games stay in
// memory, the oldest leaving first, each served from the store after.
func TestFinishedGamesCap(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.MaxFinished, cfg.KeepFinished = 2, time.Hour
	e := newEnvConfig(t, cfg)
	var ids []string
	for range 3 {
		id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
		a := e.join(id)
		e.join(id)
		if code := e.do("POST", "/api/games/"+id+"/resign", a.Token, nil, nil); code != 200 {
			t.Fatalf("resign: %d", code)
		}
		ids = append(ids, id)
	}
	inMemory := func() []bool {
		e.srv.mu.Lock()
		defer e.srv.mu.Unlock()
		var out []bool
		for _, id := range ids {
			out = append(out, e.srv.games[id] != nil)
		}
		return out
	}
	if got := inMemory(); got[0] || !got[1] || !got[2] {
		t.Errorf("after three games ended, in memory: %v; want the latest two", got)
	}
	if st := e.state(ids[0], ""); !st.Over {
		t.Errorf("the first game, from the store: %+v", st)
	}
	if got := inMemory(); !got[0] || got[1] || !got[2] {
		t.Errorf("after the first game was read again, in memory: %v; want the first and the third", got)
	}
}
