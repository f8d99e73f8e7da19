package server

import (
	"strings"
	"testing"
)

// TestCloseAccount: closing an account needs its password, and is
// refused while the account holds a seat in an unfinished game or is in
// a tournament not over; closed, the account signs in no more, its name
// stays taken, its page says it was closed, nobody invites or follows
// it, and the invitation that waited for it is declined.
func TestCloseAccount(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bob := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bob, "Bob", "battery staple")
	closeWith := func(pw string, code int, want string) {
		t.Helper()
		var eb errorBody
		if got := e.doWith(ana, "POST", "/api/me/close", "", map[string]string{"password": pw}, &eb); got != code || !strings.Contains(eb.Error, want) {
			t.Fatalf("close with %q: %d %q, want %d %q", pw, got, eb.Error, code, want)
		}
	}
	var eb errorBody
	if code := e.doWith(browser(t), "POST", "/api/me/close", "", map[string]string{"password": "x"}, &eb); code != 401 {
		t.Errorf("closing signed out: %d, want 401", code)
	}
	closeWith("wrong horse", 403, "the current password is wrong")

	// A game not over.
	id, tok := e.accountComputerGame(ana)
	closeWith("correct horse", 409, "1 unfinished games (/g/"+id+")")
	if code := e.do("POST", "/api/games/"+id+"/resign", tok, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	// A tournament not over.
	var made map[string]string
	if code := e.doWith(bob, "POST", "/api/tournaments", "", map[string]any{"name": "Winter Cup", "clock": ClockRequest{Seconds: 600}}, &made); code != 201 {
		t.Fatalf("tournament: %d", code)
	}
	if code := e.doWith(ana, "POST", "/api/tournaments/"+made["id"]+"/register", "", nil, nil); code != 200 {
		t.Fatalf("register: %d", code)
	}
	closeWith("correct horse", 409, "Winter Cup")
	if code := e.doWith(ana, "POST", "/api/tournaments/"+made["id"]+"/withdraw", "", nil, nil); code != 200 {
		t.Fatalf("withdraw: %d", code)
	}
	// An invitation waits for Ana, and Bob follows her.
	var inv CreateResponse
	if code := e.doWith(bob, "POST", "/api/games", "", map[string]any{"variant": "english", "clock": ClockRequest{PerMove: 86400},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human", Invite: "Ana"}}}, &inv); code != 201 {
		t.Fatalf("invite: %d", code)
	}
	if code := e.doWith(bob, "POST", "/api/me/follows", "", map[string]string{"name": "Ana"}, nil); code != 200 {
		t.Fatalf("follow: %d", code)
	}
	var me Me
	if code := e.doWith(ana, "POST", "/api/me/close", "", map[string]string{"password": "correct horse"}, &me); code != 200 || me.SignedIn {
		t.Fatalf("close: %d %+v", code, me)
	}

	if code := e.doWith(ana, "GET", "/api/me", "", nil, &me); code != 200 || me.SignedIn {
		t.Errorf("Ana's device after the closing: %d %+v, want signed out", code, me)
	}
	if code := e.doWith(browser(t), "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "correct horse"}, &eb); code != 401 {
		t.Errorf("signing in to the closed account: %d %q, want 401", code, eb.Error)
	}
	if code := e.doWith(browser(t), "POST", "/api/accounts", "", map[string]string{"name": "ana", "password": "another horse"}, &eb); code != 409 {
		t.Errorf("a new account of the closed one's name: %d %q, want 409", code, eb.Error)
	}
	var p Profile
	if code := e.doWith(bob, "GET", "/api/players/Ana", "", nil, &p); code != 200 || !p.Closed || p.Followers != 0 || len(p.Games) != 1 {
		t.Errorf("Ana's page: %d closed %v, %d followers, %d games; want closed, none, her one game", code, p.Closed, p.Followers, len(p.Games))
	}
	if st := e.state(inv.ID, ""); !st.Over {
		t.Errorf("the invitation that waited for Ana: %+v, want called off", st)
	}
	var fl FollowList
	if code := e.doWith(bob, "GET", "/api/me/follows", "", nil, &fl); code != 200 || len(fl.Follows) != 0 {
		t.Errorf("Bob's follows: %d %+v, want none", code, fl)
	}
	for _, tc := range []struct{ path, body, want string }{
		{"/api/me/follows", `{"name":"Ana"}`, "Ana closed their account"},
		{"/api/me/blocks", `{"name":"Ana"}`, "Ana closed their account"},
		{"/api/games", `{"variant":"english","seats":[{"kind":"human"},{"kind":"human","invite":"Ana"}]}`, "Ana closed their account"},
	} {
		if code := e.doWith(bob, "POST", tc.path, "", tc.body, &eb); code != 400 || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("POST %s for the closed account: %d %q, want 400 %q", tc.path, code, eb.Error, tc.want)
		}
	}
}
