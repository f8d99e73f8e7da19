package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestBlocks checks blocking another account: the list, its refusals
// (signed out, oneself, no such player), and what a block keeps apart
// both ways: invitations, seats of a game, the lobby's games and
// rematches; unblocking lifts it.
func TestBlocks(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo, cy := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bo_blocked", "battery staple")
	e.signUp(cy, "Cyd", "battery staple")
	clients := map[string]*http.Client{"ana": ana, "bo": bo, "cy": cy}

	for _, tc := range []struct {
		c    bool // signed in as Ana
		name string
		code int
		want string
	}{
		{false, "Bo_blocked", 401, "sign in to block"},
		{true, "ana", 400, "cannot block yourself"},
		{true, "Nobody", 404, `no player is named "Nobody"`},
		{true, "x", 400, "a name has"},
	} {
		c := browser(t)
		if tc.c {
			c = ana
		}
		var eb errorBody
		if code := e.doWith(c, "POST", "/api/me/blocks", "", map[string]string{"name": tc.name}, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("block %q: %d %q, want %d %q", tc.name, code, eb.Error, tc.code, tc.want)
		}
	}
	var list BlockList
	if code := e.doWith(ana, "POST", "/api/me/blocks", "", map[string]string{"name": "bo_BLOCKED"}, &list); code != 200 ||
		len(list.Blocks) != 1 || list.Blocks[0].Name != "Bo_blocked" || list.Blocks[0].Since.IsZero() {
		t.Fatalf("block Bo: %d %+v", code, list)
	}
	var me Me
	if code := e.doWith(ana, "GET", "/api/me", "", nil, &me); code != 200 || !slices.Equal(me.Blocked, []string{"Bo_blocked"}) {
		t.Errorf("Ana's me: %d %+v, want Bo blocked", code, me)
	}
	var boMe Me
	if code := e.doWith(bo, "GET", "/api/me", "", nil, &boMe); code != 200 || !boMe.SignedIn || len(boMe.Blocked) != 0 {
		t.Errorf("Bo's me: %d %+v, want no blocks (a block is not told)", code, boMe)
	}

	// offer makes a game of two people in which c takes seat 0 and offers
	// it in the lobby; it returns the game and the seat's token.
	offer := func(who string) (string, string) {
		t.Helper()
		hc := clients[who]
		var cr CreateResponse
		if code := e.doWith(hc, "POST", "/api/games", "", map[string]any{"variant": "english",
			"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		var j JoinResponse
		if code := e.doWith(hc, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		if code := e.doWith(hc, "POST", "/api/games/"+cr.ID+"/list", j.Token, nil, nil); code != 200 {
			t.Fatalf("list: %d", code)
		}
		return cr.ID, j.Token
	}
	lobbyHas := func(who, id string) bool {
		t.Helper()
		hc := clients[who]
		if hc == nil {
			hc = browser(t) // signed out
		}
		var lb Lobby
		if code := e.doWith(hc, "GET", "/api/lobby", "", nil, &lb); code != 200 {
			t.Fatalf("lobby: %d", code)
		}
		return slices.ContainsFunc(lb.Open, func(g LobbyGame) bool { return g.ID == id })
	}
	gAna, _ := offer("ana")
	gBo, _ := offer("bo")
	if lobbyHas("ana", gBo) || lobbyHas("bo", gAna) {
		t.Error("the lobby shows a game of an account blocked, or of one that blocks")
	}
	if !lobbyHas("ana", gAna) || !lobbyHas("anon", gBo) || !lobbyHas("anon", gAna) {
		t.Error("the lobby hides a game from its own player or from someone signed out")
	}
	// Neither joins the other's game, in either direction; Cy joins both.
	for _, tc := range []struct {
		who  string
		game string
	}{{"bo", gAna}, {"ana", gBo}} {
		var eb errorBody
		if code := e.doWith(clients[tc.who], "POST", "/api/games/"+tc.game+"/join", "", nil, &eb); code != 403 || !strings.Contains(eb.Error, "one of you blocks the other") {
			t.Errorf("%s joins a game of the other: %d %q, want 403", tc.who, code, eb.Error)
		}
	}
	// Invitations, both ways.
	for _, tc := range []struct {
		who     string
		invitee string
	}{{"ana", "Bo_blocked"}, {"bo", "Ana"}} {
		var eb errorBody
		body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human", Invite: tc.invitee}}}
		if code := e.doWith(clients[tc.who], "POST", "/api/games", "", body, &eb); code != 403 || !strings.Contains(eb.Error, "cannot play each other") {
			t.Errorf("%s invites %s: %d %q, want 403", tc.who, tc.invitee, code, eb.Error)
		}
	}

	// A game they played before the block has no rematch.
	var cr CreateResponse
	if code := e.doWith(cy, "POST", "/api/games", "", map[string]any{"variant": "english",
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := e.doWith(ana, "DELETE", "/api/me/blocks/BO_blocked", "", nil, &list); code != 200 || len(list.Blocks) != 0 {
		t.Fatalf("unblock: %d %+v", code, list)
	}
	var ja, jb JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &ja); code != 200 {
		t.Fatalf("Ana joins: %d", code)
	}
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 1}, &jb); code != 200 {
		t.Fatalf("Bo joins once unblocked: %d", code)
	}
	if code := e.do("POST", "/api/games/"+cr.ID+"/resign", ja.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	if code := e.doWith(bo, "POST", "/api/me/blocks", "", map[string]string{"name": "Ana"}, &list); code != 200 || len(list.Blocks) != 1 {
		t.Fatalf("Bo blocks Ana: %d %+v", code, list)
	}
	var eb errorBody
	if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/rematch", ja.Token, nil, &eb); code != 403 || !strings.Contains(eb.Error, "Bo_blocked") {
		t.Errorf("a rematch with an account that blocks: %d %q, want 403", code, eb.Error)
	}
	if st := e.state(cr.ID, jb.Token); st.You == nil || st.You.Rematch != "" {
		t.Errorf("a refused rematch is offered to the other seat: %+v", st.You)
	}
	if code := e.doWith(bo, "GET", "/api/me/blocks", "", nil, &list); code != 200 || len(list.Blocks) != 1 || list.Blocks[0].Name != "Ana" {
		t.Errorf("Bo's blocks: %d %+v", code, list)
	}
	if code := e.doWith(bo, "DELETE", "/api/me/blocks/Nobody", "", nil, &eb); code != 404 {
		t.Errorf("unblock of no one: %d", code)
	}
	if code := e.doWith(browser(t), "GET", "/api/me/blocks", "", nil, &eb); code != 401 {
		t.Errorf("blocks signed out: %d, want 401", code)
	}
}
