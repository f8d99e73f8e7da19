package server

import (
	"slices"
	"strings"
	"testing"
)

// TestFollows checks following other accounts: the refusals (signed
// out, oneself, no such player), the list in GET /api/me and
// /api/me/follows, the count on the player's page, the lobby's follows
// (who has it open, the games offered there), what a block either way
// hides of them, and unfollowing.
func TestFollows(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo, cy := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bob", "battery staple")
	e.signUp(cy, "Cyd", "battery staple")

	for _, tc := range []struct {
		signedIn bool
		method   string
		name     string
		code     int
		want     string
	}{
		{false, "POST", "Bob", 401, "sign in to follow"},
		{false, "DELETE", "Bob", 401, "sign in to unfollow"},
		{true, "POST", "ana", 400, "cannot follow yourself"},
		{true, "POST", "Nobody", 404, `no player is named "Nobody"`},
		{true, "DELETE", "Nobody", 404, `no player is named "Nobody"`},
	} {
		c := browser(t)
		if tc.signedIn {
			c = ana
		}
		var eb errorBody
		path, body := "/api/me/follows", any(map[string]string{"name": tc.name})
		if tc.method == "DELETE" {
			path, body = path+"/"+tc.name, nil
		}
		if code := e.doWith(c, tc.method, path, "", body, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("%s %q: %d %q, want %d %q", tc.method, tc.name, code, eb.Error, tc.code, tc.want)
		}
	}
	var list FollowList
	for _, name := range []string{"bob", "CYD", "Bob"} {
		if code := e.doWith(ana, "POST", "/api/me/follows", "", map[string]string{"name": name}, &list); code != 200 {
			t.Fatalf("follow %s: %d", name, code)
		}
	}
	if len(list.Follows) != 2 || list.Follows[0].Name != "Bob" || list.Follows[1].Name != "Cyd" || list.Follows[0].Since.IsZero() {
		t.Fatalf("Ana's follows: %+v, want Bo and Cyd once each", list)
	}
	var me Me
	if code := e.doWith(ana, "GET", "/api/me", "", nil, &me); code != 200 || !slices.Equal(me.Follows, []string{"Bob", "Cyd"}) {
		t.Errorf("Ana's me: %d %+v, want Bo and Cyd followed", code, me)
	}
	var boMe Me
	if code := e.doWith(bo, "GET", "/api/me", "", nil, &boMe); code != 200 || len(boMe.Follows) != 0 {
		t.Errorf("Bo's me: %d %+v, want no follows", code, boMe)
	}
	if code := e.doWith(cy, "POST", "/api/me/follows", "", map[string]string{"name": "Bob"}, nil); code != 200 {
		t.Fatalf("Cyd follows Bo: %d", code)
	}
	var p Profile
	if code := e.doWith(browser(t), "GET", "/api/players/Bob", "", nil, &p); code != 200 || p.Followers != 2 {
		t.Errorf("Bo's page: %d, %d followers; want 2", code, p.Followers)
	}

	// Bo opens the lobby and offers a game there; Cyd offers one that is
	// not listed.
	lobby := func() Lobby {
		t.Helper()
		var lb Lobby
		if code := e.doWith(ana, "GET", "/api/lobby", "", nil, &lb); code != 200 {
			t.Fatalf("lobby: %d", code)
		}
		return lb
	}
	if lb := lobby(); len(lb.Follows) != 2 || lb.Follows[0].Online || lb.Follows[0].Seen != nil || len(lb.Follows[0].Offers) != 0 {
		t.Fatalf("the lobby's follows before Bo comes: %+v", lb.Follows)
	}
	if code := e.doWith(bo, "GET", "/api/lobby", "", nil, nil); code != 200 {
		t.Fatal(code)
	}
	var cr CreateResponse
	if code := e.doWith(bo, "POST", "/api/games", "", map[string]any{"variant": "english",
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var j JoinResponse
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &j); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/list", j.Token, nil, nil); code != 200 {
		t.Fatalf("list: %d", code)
	}
	var hidden CreateResponse
	if code := e.doWith(cy, "POST", "/api/games", "", map[string]any{"variant": "english",
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &hidden); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := e.doWith(cy, "POST", "/api/games/"+hidden.ID+"/join", "", map[string]any{"seat": 0}, &j); code != 200 {
		t.Fatalf("join: %d", code)
	}
	waitFor(t, "Bo's game in Ana's follows", func() bool {
		lb := lobby()
		return len(lb.Follows) == 2 && len(lb.Follows[0].Offers) == 1 && lb.Follows[0].Offers[0].ID == cr.ID && len(lb.Follows[0].Playing) == 0
	})
	lb := lobby()
	if f := lb.Follows[0]; !f.Online || f.Seen == nil {
		t.Errorf("Bo, in the lobby: %+v, want online", f)
	}
	if f := lb.Follows[1]; f.Online || len(f.Offers)+len(f.Playing) != 0 {
		t.Errorf("Cyd, away, with a game not offered: %+v, want neither online nor a game", f)
	}

	// Bo blocks Ana: Ana still lists Bo, but sees neither when Bo was
	// about nor Bo's games.
	if code := e.doWith(bo, "POST", "/api/me/blocks", "", map[string]string{"name": "Ana"}, nil); code != 200 {
		t.Fatalf("block: %d", code)
	}
	for what, fs := range map[string][]FollowInfo{"lobby": lobby().Follows} {
		if len(fs) != 2 || fs[0].Name != "Bob" || fs[0].Online || fs[0].Seen != nil || len(fs[0].Playing) != 0 {
			t.Errorf("%s: Bo, who blocks Ana: %+v; want the name only", what, fs)
		}
	}
	if code := e.doWith(ana, "GET", "/api/me/follows", "", nil, &list); code != 200 || len(list.Follows) != 2 || list.Follows[0].Seen != nil {
		t.Errorf("Ana's follows with Bo blocking: %d %+v; want Bo's name only", code, list)
	}

	if code := e.doWith(ana, "DELETE", "/api/me/follows/bob", "", nil, &list); code != 200 || len(list.Follows) != 1 || list.Follows[0].Name != "Cyd" {
		t.Errorf("unfollow Bo: %d %+v", code, list)
	}
	if code := e.doWith(browser(t), "GET", "/api/players/Bob", "", nil, &p); code != 200 || p.Followers != 1 {
		t.Errorf("Bo's page after the unfollow: %d, %d followers; want 1", code, p.Followers)
	}
	if code := e.doWith(browser(t), "GET", "/api/me/follows", "", nil, nil); code != 401 {
		t.Errorf("follows signed out: %d, want 401", code)
	}
}
