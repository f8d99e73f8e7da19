package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestInvite: a seat kept for an invited account is taken by that
// account only (by number or as the first free seat); the invitation is
// among the account's games before it takes the seat; bad invitations
// are refused with the reason; a declined invitation calls the game off.
func TestInvite(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	ana, bo, cy := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana_inv", "correct horse")
	e.signUp(bo, "Bodil", "battery staple")
	e.signUp(cy, "Cyril", "battery staple")
	game := func(invite string) map[string]any {
		return map[string]any{"variant": "english", "clock": ClockRequest{PerMove: 86400},
			"seats": []SeatRequest{{Kind: "human"}, {Kind: "human", Invite: invite}}}
	}
	for _, tc := range []struct {
		body   any
		signed bool
		code   int
		want   string
	}{
		{body: game("Bodil"), code: 401, want: "sign in to"},
		{body: game("Nobody"), signed: true, code: 400, want: `no player is named "Nobody"`},
		{body: game("ana_INV"), signed: true, code: 400, want: "cannot invite yourself"},
		{body: game("x"), signed: true, code: 400, want: "invite: a name has"},
		{body: map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human", Invite: "Bodil"}, {Kind: "human", Invite: "BODIL"}}},
			signed: true, code: 400, want: "invited to another seat"},
		{body: map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "computer", Invite: "Bodil"}}},
			signed: true, code: 400, want: "only a person's seat"},
	} {
		c := browser(t)
		if tc.signed {
			c = ana
		}
		var eb errorBody
		if code := e.doWith(c, "POST", "/api/games", "", tc.body, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("%v: %d %q, want %d %q", tc.body, code, eb.Error, tc.code, tc.want)
		}
	}

	var cr CreateResponse
	if code := e.doWith(ana, "POST", "/api/games", "", game("bodil"), &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var host JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &host); code != 200 {
		t.Fatalf("Ana joins: %d", code)
	}
	st := e.state(cr.ID, "")
	if s := st.Seats[1]; s.Name != "Bodil" || !s.Invited || s.InvitedBy != "Ana_inv" || s.Taken {
		t.Errorf("the kept seat: %+v", s)
	}
	// The invitation is among Bodil's invitations (not his games, which
	// it would crowd), not among Cyril's.
	var games AccountGames
	if code := e.doWith(bo, "GET", "/api/me/games", "", nil, &games); code != 200 || len(games.Games) != 0 ||
		len(games.Invitations) != 1 || games.Invitations[0].ID != cr.ID || games.Invitations[0].Seat != 1 {
		t.Errorf("Bodil's games: %d %+v", code, games)
	}
	if code := e.doWith(cy, "GET", "/api/me/games", "", nil, &games); code != 200 || len(games.Games)+len(games.Invitations) != 0 {
		t.Errorf("Cyril's games: %d %+v", code, games)
	}
	// At most three of Ana's invitations wait for Bodil at once.
	var more []string
	for k := 0; k < 3; k++ {
		var eb errorBody
		code := e.doWith(ana, "POST", "/api/games", "", game("Bodil"), &eb)
		if k < 2 && code != 201 || k == 2 && (code != 409 || !strings.Contains(eb.Error, "3 of your invitations")) {
			t.Errorf("Ana's invitation %d to Bodil: %d %q", k+2, code, eb.Error)
		}
	}
	if code := e.doWith(bo, "GET", "/api/me/games", "", nil, &games); code != 200 || len(games.Invitations) != 3 {
		t.Errorf("Bodil's invitations: %d %+v", code, games)
	}
	for _, g := range games.Invitations {
		if g.ID != cr.ID {
			more = append(more, g.ID)
		}
	}
	// Nobody else takes it, by number or as the first free seat, nor
	// declines it; the game cannot be offered in the lobby.
	for _, c := range []struct {
		who  string
		body any
		code int
	}{{"guest", map[string]any{"seat": 1}, 401}, {"guest", nil, 401}, {"Cyril", map[string]any{"seat": 1}, 403}, {"Cyril", nil, 403}} {
		cl := browser(t)
		if c.who == "Cyril" {
			cl = cy
		}
		var eb errorBody
		if code := e.doWith(cl, "POST", "/api/games/"+cr.ID+"/join", "", c.body, &eb); code != c.code {
			t.Errorf("%s joins with %v: %d %q, want %d", c.who, c.body, code, eb.Error, c.code)
		}
	}
	if code := e.doWith(cy, "POST", "/api/games/"+cr.ID+"/decline", "", nil, nil); code != 403 {
		t.Errorf("Cyril declines Bodil's invitation: %d, want 403", code)
	}
	if code := e.do("POST", "/api/games/"+cr.ID+"/list", host.Token, nil, nil); code != 409 {
		t.Errorf("an invitation offered in the lobby: %d, want 409", code)
	}
	// Bodil takes the first free seat, which is the one kept for him;
	// the game starts with his clock.
	var j JoinResponse
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/join", "", nil, &j); code != 200 || j.Seat != 1 {
		t.Fatalf("Bodil joins: %d seat %d", code, j.Seat)
	}
	if st := e.state(cr.ID, ""); !st.Started || st.Seats[1].Invited || !st.Seats[1].Taken || !st.Seats[1].Account {
		t.Errorf("after Bodil joined: started %v, seat %+v", st.Started, st.Seats[1])
	}
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/decline", "", nil, nil); code != 403 {
		t.Errorf("declining a game already joined: %d, want 403", code)
	}
	// Taken, it is no longer an invitation; declined, neither.
	if code := e.doWith(bo, "POST", "/api/games/"+more[0]+"/decline", "", nil, nil); code != 200 {
		t.Errorf("Bodil declines: %d", code)
	}
	if code := e.doWith(bo, "GET", "/api/me/games", "", nil, &games); code != 200 || len(games.Invitations) != 1 || games.Invitations[0].ID != more[1] ||
		len(games.Games) != 1 || games.Games[0].ID != cr.ID {
		t.Errorf("Bodil's games after one invitation taken and one declined: %d %+v", code, games)
	}
	if code := e.doWith(ana, "POST", "/api/games/"+more[0]+"/join", "", map[string]any{"seat": 0}, &host); code != 409 {
		t.Errorf("joining a game called off: %d", code)
	}

	// A second invitation, declined: the game is called off, the host
	// told.
	if code := e.doWith(ana, "POST", "/api/games", "", game("Cyril"), &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &host)
	var after State
	if code := e.doWith(cy, "POST", "/api/games/"+cr.ID+"/decline", "", nil, &after); code != 200 || !after.Over || !after.Aborted {
		t.Fatalf("Cyril declines: %d over %v aborted %v", code, after.Over, after.Aborted)
	}
	if got := types(e.drain(cr.ID, host.Token)); !strings.Contains(got, "aborted,over") {
		t.Errorf("the host's notifications: %s", got)
	}
	if code := e.doWith(cy, "POST", "/api/games/"+cr.ID+"/decline", "", nil, nil); code != 409 {
		t.Errorf("declining twice: %d, want 409", code)
	}
	// Its rematch ("Play again") invites Cyril again.
	var rm RematchResponse
	if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/rematch", host.Token, nil, &rm); code != 200 {
		t.Fatalf("rematch: %d", code)
	}
	if s := e.state(rm.ID, "").Seats; !s[0].Invited || s[0].Name != "Cyril" || s[0].InvitedBy != "Ana_inv" || !s[1].Taken {
		t.Errorf("the rematch's seats: %+v", s)
	}
	// A restart keeps the kept seat.
	if code := e.doWith(ana, "POST", "/api/games", "", game("Cyril"), &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	e.restartSame(st0, cr.ID, e.state(cr.ID, ""))
}

// fromAddr sends a client's requests as from addr (X-Forwarded-For).
type fromAddr struct {
	rt   http.RoundTripper
	addr string
}

func (f fromAddr) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", f.addr)
	return f.rt.RoundTrip(r)
}

// TestInvitesPerClient: accounts made at one address for the purpose
// leave an account at most maxInvitesFrom invitations from that address;
// another address's go through.
func TestInvitesPerClient(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.RealIPHeader = "X-Forwarded-For"
	e := newEnvConfig(t, cfg)
	e.signUp(browser(t), "Bodil", "battery staple")
	game := map[string]any{"variant": "english", "clock": ClockRequest{PerMove: 86400},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human", Invite: "Bodil"}}}
	for k := range maxInvitesFrom + 2 {
		addr := "198.51.100.1"
		if k == maxInvitesFrom+1 {
			addr = "198.51.100.2"
		}
		c := browser(t)
		c.Transport = fromAddr{http.DefaultTransport, addr}
		e.signUp(c, fmt.Sprintf("throwaway%d", k), "correct horse")
		var eb errorBody
		code := e.doWith(c, "POST", "/api/games", "", game, &eb)
		if k == maxInvitesFrom {
			if code != 409 || !strings.Contains(eb.Error, fmt.Sprintf("%d invitations from your address", maxInvitesFrom)) {
				t.Errorf("invitation %d from one address: %d %q, want 409", k+1, code, eb.Error)
			}
		} else if code != 201 {
			t.Errorf("invitation %d (from %s): %d %q, want 201", k+1, addr, code, eb.Error)
		}
	}
}

// TestRematchInvitesWithinBounds: the rematch of a game whose invited
// player never came invites that player again as a new game would: not
// past the invitations one account may have waiting from another, and
// not once one of the two blocks the other.
func TestRematchInvitesWithinBounds(t *testing.T) {
	e := newEnv(t, nil)
	ana, cy := browser(t), browser(t)
	e.signUp(ana, "Ana_re", "correct horse")
	e.signUp(cy, "Cyril_re", "battery staple")
	body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human", Invite: "Cyril_re"}}}
	// invite makes a game inviting Cyril, with Ana in seat 0.
	invite := func() (string, string) {
		t.Helper()
		var cr CreateResponse
		if code := e.doWith(ana, "POST", "/api/games", "", body, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		var host JoinResponse
		if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &host); code != 200 {
			t.Fatalf("join: %d", code)
		}
		return cr.ID, host.Token
	}
	// Three games called off, three invitations waiting: as many as
	// Cyril may have from Ana.
	var ended, toks []string
	for range maxInvitesFrom {
		id, tok := invite()
		if code := e.do("POST", "/api/games/"+id+"/abort", tok, nil, nil); code != 200 {
			t.Fatalf("abort: %d", code)
		}
		ended, toks = append(ended, id), append(toks, tok)
	}
	var waiting, wtoks []string
	for range maxInvitesFrom {
		id, tok := invite()
		waiting, wtoks = append(waiting, id), append(wtoks, tok)
	}
	for k, id := range ended {
		var eb errorBody
		if code := e.doWith(ana, "POST", "/api/games/"+id+"/rematch", toks[k], nil, &eb); code != 409 || !strings.Contains(eb.Error, "of your invitations") {
			t.Errorf("rematch %d with %d invitations waiting: %d %q, want 409", k, maxInvitesFrom, code, eb.Error)
		}
	}
	var games AccountGames
	if code := e.doWith(cy, "GET", "/api/me/games", "", nil, &games); code != 200 || len(games.Invitations) != maxInvitesFrom {
		t.Errorf("Cyril's invitations: %d, %d of them, want %d", code, len(games.Invitations), maxInvitesFrom)
	}
	// One called off: its room is the rematch's.
	if code := e.do("POST", "/api/games/"+waiting[0]+"/abort", wtoks[0], nil, nil); code != 200 {
		t.Fatalf("abort: %d", code)
	}
	var rm RematchResponse
	if code := e.doWith(ana, "POST", "/api/games/"+ended[0]+"/rematch", toks[0], nil, &rm); code != 200 {
		t.Fatalf("a rematch with room for its invitation: %d", code)
	}
	if s := e.state(rm.ID, "").Seats; !s[0].Invited || s[0].Name != "Cyril_re" {
		t.Errorf("the rematch's seats: %+v", s)
	}
	// Cyril blocks Ana: no rematch invites him again.
	if code := e.doWith(cy, "POST", "/api/me/blocks", "", map[string]string{"name": "Ana_re"}, nil); code != 200 {
		t.Fatalf("block: %d", code)
	}
	if code := e.do("POST", "/api/games/"+waiting[1]+"/abort", wtoks[1], nil, nil); code != 200 {
		t.Fatalf("abort: %d", code)
	}
	var eb errorBody
	if code := e.doWith(ana, "POST", "/api/games/"+ended[1]+"/rematch", toks[1], nil, &eb); code != 403 || !strings.Contains(eb.Error, "Cyril_re") {
		t.Errorf("a rematch inviting an account that blocks: %d %q, want 403", code, eb.Error)
	}
}
