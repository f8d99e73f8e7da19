package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestLobbySocket: the lobby's WebSocket says when a game is offered and
// when a line is written in the lobby chat, not while nothing changes,
// and /metrics counts it.
func TestLobbySocket(t *testing.T) {
	look, gap := lobbyLookEvery, lobbyGap
	lobbyLookEvery, lobbyGap = 10*time.Millisecond, 10*time.Millisecond
	t.Cleanup(func() { lobbyLookEvery, lobbyGap = look, gap })
	cfg := testConfig(newStore(t))
	cfg.LobbyEvery = -1 // every reading of the lobby reads it afresh
	e := newEnvConfig(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.url, "http")+"/api/lobby/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	// A reader passes the socket's messages on (a read whose context
	// ends closes the connection).
	msgs := make(chan string, 16)
	go func() {
		defer close(msgs)
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			msgs <- string(data)
		}
	}()
	// changed waits for the socket's next message, or says there was
	// none within d.
	changed := func(d time.Duration) bool {
		t.Helper()
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatal("the lobby's socket closed")
			}
			if m != `{"type":"changed"}` {
				t.Fatalf("the lobby's socket says %s", m)
			}
			return true
		case <-time.After(d):
			return false
		}
	}
	// The first look at the lobby tells of it; then all is quiet.
	changed(5 * time.Second)
	if changed(300 * time.Millisecond) {
		t.Error("the lobby's socket speaks while nothing changes")
	}
	if got := readMetrics(t, e)["atril_lobby_sockets"]; got != 1 {
		t.Errorf("atril_lobby_sockets %v, want 1", got)
	}
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	j := e.join(id)
	if code := e.do("POST", "/api/games/"+id+"/list", j.Token, nil, nil); code != 200 {
		t.Fatalf("offer the game: %d", code)
	}
	if !changed(5 * time.Second) {
		t.Error("a game offered: the lobby's socket says nothing")
	}
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	// Ana signing up and reading nothing leaves the lobby as it was;
	// her line in the chat changes it.
	for changed(300 * time.Millisecond) {
	}
	if code := e.doWith(ana, "POST", "/api/lobby/chat", "", map[string]string{"text": "hello all"}, nil); code != 200 {
		t.Fatalf("a line in the lobby chat: %d", code)
	}
	if !changed(5 * time.Second) {
		t.Error("a line in the lobby chat: the lobby's socket says nothing")
	}
	// A tournament announced, and a player registering for it.
	var made TournamentInfo
	if code := e.doWith(ana, "POST", "/api/tournaments", "", map[string]any{"name": "Winter Cup", "clock": ClockRequest{Seconds: 600}}, &made); code != 201 {
		t.Fatalf("announce a tournament: %d", code)
	}
	if !changed(5 * time.Second) {
		t.Error("a tournament announced: the lobby's socket says nothing")
	}
	bo := browser(t)
	e.signUp(bo, "Bodil", "battery staple")
	if code := e.doWith(bo, "POST", "/api/tournaments/"+made.ID+"/register", "", nil, nil); code != 200 {
		t.Fatalf("register: %d", code)
	}
	if !changed(5 * time.Second) {
		t.Error("a player registered: the lobby's socket says nothing")
	}
}
