package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// TestLobbyChat writes in the lobby's chat through the API: only signed
// in, lines checked as the games' chats check them, read by everyone in
// the lobby but those blocked either way, a suspended account's lines
// left out, and a client's lines limited per minute.
func TestLobbyChat(t *testing.T) {
	e := newEnv(t, nil)
	ana, bo, cy := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bodil", "correct horse")
	e.signUp(cy, "Cyril", "correct horse")
	var why struct{ Error string }
	if code := e.do("POST", "/api/lobby/chat", "", map[string]string{"text": "hi"}, &why); code != 401 || !strings.Contains(why.Error, "sign in") {
		t.Errorf("a line signed out: %d %q", code, why.Error)
	}
	for _, tc := range []struct {
		text string
		want string
	}{
		{"   ", "empty"},
		{strings.Repeat("x", MaxChatText+1), "chat line"},
	} {
		why.Error = ""
		if code := e.doWith(ana, "POST", "/api/lobby/chat", "", map[string]string{"text": tc.text}, &why); code != 400 || !strings.Contains(why.Error, tc.want) {
			t.Errorf("line %q: %d %q, want 400 saying %q", tc.text, code, why.Error, tc.want)
		}
	}
	var line LobbyChatLine
	if code := e.doWith(ana, "POST", "/api/lobby/chat", "", map[string]string{"text": "  good evening  "}, &line); code != 200 ||
		line.Name != "Ana" || line.Text != "good evening" || line.ID == 0 || time.Since(line.At) > time.Minute {
		t.Fatalf("Ana's line: %d %+v", code, line)
	}
	var line2 LobbyChatLine
	if code := e.doWith(bo, "POST", "/api/lobby/chat", "", map[string]string{"text": "hello Ana"}, &line2); code != 200 || line2.ID <= line.ID {
		t.Fatalf("Bodil's line: %d %+v", code, line2)
	}
	// chat is the lobby's chat as c sees it, "name: text" a line.
	chat := func(c *http.Client) []string {
		t.Helper()
		var lb Lobby
		if code := e.doWith(c, "GET", "/api/lobby", "", nil, &lb); code != 200 {
			t.Fatalf("lobby: %d", code)
		}
		var out []string
		for _, l := range lb.Chat {
			out = append(out, l.Name+": "+l.Text)
		}
		return out
	}
	both := []string{"Ana: good evening", "Bodil: hello Ana"}
	for who, c := range map[string]*http.Client{"a visitor": http.DefaultClient, "Ana": ana, "Cyril": cy} {
		if got := chat(c); !slices.Equal(got, both) {
			t.Errorf("%s reads %q, want %q", who, got, both)
		}
	}
	// Cyril blocks Ana: neither reads the other's lines; others read all.
	if code := e.doWith(cy, "POST", "/api/me/blocks", "", map[string]string{"name": "Ana"}, nil); code != 200 {
		t.Fatalf("block: %d", code)
	}
	if got := chat(cy); !slices.Equal(got, both[1:]) {
		t.Errorf("Cyril, blocking Ana, reads %q", got)
	}
	if code := e.doWith(cy, "POST", "/api/lobby/chat", "", map[string]string{"text": "anyone?"}, nil); code != 200 {
		t.Fatalf("Cyril's line: %d", code)
	}
	if got := chat(ana); !slices.Equal(got, both) {
		t.Errorf("Ana, blocked by Cyril, reads %q", got)
	}
	if got, want := chat(bo), append(both, "Cyril: anyone?"); !slices.Equal(got, want) {
		t.Errorf("Bodil reads %q, want %q", got, want)
	}
	// A suspended account's lines go from the lobby (once the lines are
	// read again).
	if err := e.st.Suspend(context.Background(), AccountKey("Bodil"), "spam", time.Now()); err != nil {
		t.Fatal(err)
	}
	e.srv.lobbyLines.forget()
	if got, want := chat(http.DefaultClient), []string{"Ana: good evening", "Cyril: anyone?"}; !slices.Equal(got, want) {
		t.Errorf("with Bodil suspended a visitor reads %q, want %q", got, want)
	}
}

// TestLobbyChatLimits: a client writes at most ChatPerMinute lines a
// minute, and the lobby gives the latest LobbyChatShown lines.
func TestLobbyChatLimits(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.ChatPerMinute = 3
	e := newEnvConfig(t, cfg)
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	for i := 0; i < 3; i++ {
		if code := e.doWith(ana, "POST", "/api/lobby/chat", "", map[string]string{"text": fmt.Sprint("line ", i)}, nil); code != 200 {
			t.Fatalf("line %d: %d", i, code)
		}
	}
	var why struct{ Error string }
	if code := e.doWith(ana, "POST", "/api/lobby/chat", "", map[string]string{"text": "one more"}, &why); code != 429 || !strings.Contains(why.Error, "chat lines") {
		t.Errorf("a fourth line in a minute: %d %q", code, why.Error)
	}
	// More lines than the lobby shows, written to the store directly.
	key := AccountKey("Ana")
	for i := 3; i < LobbyChatShown+10; i++ {
		if err := e.st.AddLobbyLine(context.Background(), &store.LobbyLine{Account: key, Text: fmt.Sprint("line ", i), At: time.Now()}, LobbyChatKept); err != nil {
			t.Fatal(err)
		}
	}
	e.srv.lobbyLines.forget()
	var lb Lobby
	if code := e.do("GET", "/api/lobby", "", nil, &lb); code != 200 || len(lb.Chat) != LobbyChatShown ||
		lb.Chat[0].Text != "line 10" || lb.Chat[len(lb.Chat)-1].Text != fmt.Sprint("line ", LobbyChatShown+9) {
		t.Errorf("the lobby's chat: %d, %d lines from %+v", code, len(lb.Chat), lb.Chat[:min(1, len(lb.Chat))])
	}
}
