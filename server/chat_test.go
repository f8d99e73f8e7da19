package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestChat(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	e.drain(id, a.Token)
	e.drain(id, b.Token)
	say := func(tok, text string) (int, string) {
		var eb errorBody
		code := e.do("POST", "/api/games/"+id+"/chat", tok, map[string]any{"text": text}, &eb)
		return code, eb.Error
	}
	if code, _ := say(a.Token, "  good\\nluck \u200b "); code != 200 {
		t.Fatalf("chat: %d", code)
	}
	if code, _ := say(b.Token, "gg <b>"); code != 200 {
		t.Fatalf("chat: %d", code)
	}
	for _, c := range []struct {
		tok, text string
		code      int
		says      string
	}{
		{"", "hi", 401, "token"},
		{a.Token, " \u200b ", 400, "empty"},
		{a.Token, strings.Repeat("x", MaxChatText+1), 400, "longer than"},
	} {
		if code, msg := say(c.tok, c.text); code != c.code || !strings.Contains(msg, c.says) {
			t.Errorf("chat %q: %d %q, want %d saying %q", c.text, code, msg, c.code, c.says)
		}
	}
	ns := e.drain(id, b.Token)
	if len(ns) != 2 || ns[0].Type != "chat" || *ns[0].Seat != 0 || ns[0].Text != `good\nluck` || ns[1].Text != "gg <b>" {
		t.Errorf("Bo's notifications: %+v", ns)
	}
	sa := e.state(id, a.Token)
	if len(sa.You.Chat) != 2 || sa.You.Chat[1] != (ChatLine{Seat: 1, Text: "gg <b>"}) {
		t.Errorf("Ana's chat: %+v", sa.You.Chat)
	}
	if pub := e.state(id, ""); pub.You != nil {
		t.Error("a spectator sees the chat")
	}
	// The lines are logged; a state holds the latest ChatShown.
	for i := 0; i < ChatShown; i++ {
		if code, _ := say(a.Token, "line "+itoa(i)); code != 200 {
			t.Fatalf("line %d: %d", i, code)
		}
	}
	// Memory holds about ChatShown lines, the log all of them.
	for i := ChatShown; i < 2*ChatShown+5; i++ {
		if code, _ := say(a.Token, "line "+itoa(i)); code != 200 {
			t.Fatalf("line %d: %d", i, code)
		}
	}
	e.srv.mu.Lock()
	l := e.srv.games[id]
	e.srv.mu.Unlock()
	l.mu.Lock()
	kept, count := len(l.chat.lines), l.chat.n
	l.mu.Unlock()
	if kept < ChatShown || kept > 2*ChatShown || count != 2*ChatShown+7 {
		t.Errorf("%d lines in memory, %d counted; want %d to %d, and %d", kept, count, ChatShown, 2*ChatShown, 2*ChatShown+7)
	}
	e2 := e.restartSame(st0, id, e.state(id, ""))
	sa = e2.state(id, a.Token)
	if len(sa.You.Chat) != ChatShown || sa.You.Chat[ChatShown-1].Text != "line "+itoa(2*ChatShown+4) {
		t.Errorf("after a restart Ana's chat holds %d lines, the last %+v", len(sa.You.Chat), sa.You.Chat[len(sa.You.Chat)-1])
	}
}

func TestChatLimit(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.ChatPerMinute = 2
	e := newEnvConfig(t, cfg)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a := e.join(id)
	for i, want := range []int{200, 200, 429} {
		if code := e.do("POST", "/api/games/"+id+"/chat", a.Token, map[string]any{"text": "hi"}, nil); code != want {
			t.Errorf("line %d: %d, want %d", i+1, code, want)
		}
	}
}

// TestChatFull: a game's chat takes MaxChatLines lines, no more.
func TestChatFull(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a := e.join(id)
	e.srv.mu.Lock()
	l := e.srv.games[id]
	e.srv.mu.Unlock()
	l.mu.Lock()
	l.chat.n = MaxChatLines - 1
	l.mu.Unlock()
	for i, want := range []int{200, 409} {
		if code := e.do("POST", "/api/games/"+id+"/chat", a.Token, map[string]any{"text": "hi"}, nil); code != want {
			t.Errorf("line %d: %d, want %d", MaxChatLines+i, code, want)
		}
	}
}

// TestKibitz checks the watchers' chat: only signed-in players holding no
// seat write in it, watchers read it while the game is played and the
// players only once it is over, and a restart keeps it.
func TestKibitz(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	cs := e.accounts(3) // two players and a watcher
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	var toks []string
	for _, c := range cs[:2] {
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		toks = append(toks, j.Token)
	}
	say := func(c *http.Client, text string) int {
		t.Helper()
		if c == nil {
			return e.do("POST", "/api/games/"+id+"/kibitz", "", map[string]string{"text": text}, nil)
		}
		return e.doWith(c, "POST", "/api/games/"+id+"/kibitz", "", map[string]string{"text": text}, nil)
	}
	if code := say(nil, "hello"); code != 401 {
		t.Errorf("a line signed out: %d, want 401", code)
	}
	if code := say(cs[0], "what do you think?"); code != 403 {
		t.Errorf("a line by a player: %d, want 403", code)
	}
	if code := say(cs[2], "  "); code != 400 {
		t.Errorf("an empty line: %d, want 400", code)
	}
	if code := say(cs[2], "the Q is stuck"); code != 200 {
		t.Fatalf("a watcher's line: %d", code)
	}
	var me Me
	e.doWith(cs[2], "GET", "/api/me", "", nil, &me)
	want := []KibitzLine{{Name: me.Name, Text: "the Q is stuck"}}
	if got := e.state(id, "").Kibitz; !slices.Equal(got, want) {
		t.Errorf("a watcher reads %+v, want %+v", got, want)
	}
	if got := e.state(id, toks[0]).Kibitz; len(got) != 0 {
		t.Errorf("a player reads the watchers' chat while playing: %+v", got)
	}
	if code := e.do("POST", "/api/games/"+id+"/resign", toks[0], nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	if got := e.state(id, toks[1]).Kibitz; !slices.Equal(got, want) {
		t.Errorf("a player reads %+v once the game is over, want %+v", got, want)
	}
	if code := say(cs[0], "gg, well watched"); code != 200 {
		t.Errorf("a player's line once the game is over: %d, want 200", code)
	}
	want = append(want, KibitzLine{Name: "", Text: "gg, well watched"})
	got := e.state(id, "").Kibitz
	if len(got) != 2 || got[1].Text != want[1].Text || got[1].Name == "" {
		t.Fatalf("after the game: %+v", got)
	}
	e.hs.Close()
	e.srv.Close()
	e2 := newEnv(t, st0)
	if after := e2.state(id, "").Kibitz; !slices.Equal(after, got) {
		t.Errorf("after a restart: %+v, want %+v", after, got)
	}
}
