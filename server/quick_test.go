package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"atril/store"
)

// quick asks client c (nil: the test's default) for a quick pairing.
func (e *testEnv) quick(c *http.Client, body map[string]any) (int, QuickResponse, string) {
	e.t.Helper()
	if c == nil {
		c = http.DefaultClient
	}
	var out struct {
		QuickResponse
		Error string `json:"error"`
	}
	code := e.doWith(c, "POST", "/api/quick", "", body, &out)
	return code, out.QuickResponse, out.Error
}

// started reports whether every seat of game id is taken.
func (e *testEnv) started(id string) bool {
	e.t.Helper()
	st := e.state(id, "")
	for _, s := range st.Seats {
		if !s.Taken {
			return false
		}
	}
	return true
}

// TestQuickPairing checks quick pairing between people not signed in:
// a new game offered when nobody waits, the same game again for the one
// waiting, a seat in it for the next player asking the same, and no
// pairing across settings.
func TestQuickPairing(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.MaxOffers = 3
	e := newEnvConfig(t, cfg)
	ten := map[string]any{"variant": "english", "lexicon": "en-sowpods", "name": "Ann", "clock": ClockRequest{Seconds: 600, Overtime: 60}}
	with := func(name string, changes map[string]any) map[string]any {
		b := map[string]any{}
		for k, v := range ten {
			b[k] = v
		}
		b["name"] = name
		for k, v := range changes {
			b[k] = v
		}
		return b
	}
	code, ann, _ := e.quick(nil, ten)
	if code != 201 || ann.Matched || ann.Token == "" || ann.Seat != 0 {
		t.Fatalf("Ann asks first: %d %+v", code, ann)
	}
	var lb Lobby
	e.do("GET", "/api/lobby", "", nil, &lb)
	if len(lb.Open) != 1 || lb.Open[0].ID != ann.ID || lb.Open[0].Clock == nil || lb.Open[0].Clock.Seconds != 600 {
		t.Fatalf("the lobby after Ann: %+v", lb.Open)
	}
	// Asking again finds the game she waits in.
	if code, again, _ := e.quick(nil, ten); code != 200 || again.ID != ann.ID || again.Token != "" || again.Matched {
		t.Errorf("Ann asks again: %d %+v", code, again)
	}
	// Other settings make games of their own.
	for _, tc := range []struct {
		what string
		body map[string]any
	}{
		{"five minutes", with("Cy", map[string]any{"clock": ClockRequest{Seconds: 300, Overtime: 60}})},
		{"untimed", with("Di", map[string]any{"clock": nil})},
		{"double challenge", with("Ed", map[string]any{"challenge": "double"})},
		{"an increment", with("Flo", map[string]any{"clock": ClockRequest{Seconds: 600, Overtime: 60, Increment: 5}})},
	} {
		code, r, _ := e.quick(nil, tc.body)
		if code != 201 || r.Matched || r.ID == ann.ID {
			t.Errorf("%s: %d %+v, want a game of its own", tc.what, code, r)
		}
		// (Calls it off: one address may have only three games waiting.)
		if code := e.do("POST", "/api/games/"+r.ID+"/abort", r.Token, nil, nil); code != 200 {
			t.Fatalf("%s: abort: %d", tc.what, code)
		}
	}
	code, bo, _ := e.quick(nil, with("Bo", nil))
	if code != 200 || !bo.Matched || bo.ID != ann.ID || bo.Seat != 1 || bo.Token == "" {
		t.Fatalf("Bo asks the same: %d %+v, want seat 1 of %s", code, bo, ann.ID)
	}
	if !e.started(ann.ID) {
		t.Errorf("the game has not started")
	}
	st := e.state(ann.ID, bo.Token)
	if st.Seats[0].Name != "Ann" || st.Seats[1].Name != "Bo" || st.You == nil || st.You.Seat != 1 {
		t.Errorf("the seats: %+v, you %+v", st.Seats, st.You)
	}
	if y := e.state(ann.ID, ann.Token).You; y == nil || y.Seat != 0 {
		t.Errorf("Ann's token does not hold seat 0")
	}
	// The next player asking waits in a game of its own.
	if code, r, _ := e.quick(nil, with("Gus", nil)); code != 201 || r.ID == ann.ID || r.Matched {
		t.Errorf("Gus after the pairing: %d %+v", code, r)
	}
	// One address may have three games waiting in the lobby: a fourth is
	// refused, and the game made for it called off.
	for _, m := range []int{15, 25} {
		if code, _, _ := e.quick(nil, with("Gus", map[string]any{"clock": ClockRequest{Seconds: m * 60, Overtime: 60}})); code != 201 {
			t.Fatalf("Gus, %d minutes: %d", m, code)
		}
	}
	playing := func() int {
		e.srv.mu.Lock()
		defer e.srv.mu.Unlock()
		n := 0
		for _, k := range e.srv.byClient {
			n += k
		}
		return n
	}
	before := playing()
	code, _, msg := e.quick(nil, with("Gus", map[string]any{"clock": ClockRequest{Seconds: 1200, Overtime: 60}}))
	if code != 409 || msg != "3 of your games wait in the lobby already; wait for players to join them, or call one off" {
		t.Errorf("a fourth game waiting: %d %q", code, msg)
	}
	e.do("GET", "/api/lobby", "", nil, &lb)
	if len(lb.Open) != 3 {
		t.Errorf("%d games wait in the lobby, want 3", len(lb.Open))
	}
	if n := playing(); n != before {
		t.Errorf("%d games not over, want %d: the refused one was not called off", n, before)
	}
	for _, tc := range []struct {
		body map[string]any
		code int
		want string
	}{
		{with("Hal", map[string]any{"variant": "klingon"}), 400, `unknown variant "klingon" (have english)`},
		{with("Hal", map[string]any{"clock": ClockRequest{Seconds: -1}}), 400, "clock: -1 seconds: give 1 to 7200"},
		{with("Hal", map[string]any{"rated": true}), 401, "sign in to play a rated game"},
		{with("Hal", map[string]any{"clock": ClockRequest{PerMove: 86400}}), 401, "sign in to play a game of correspondence play"},
		{with("Hal", map[string]any{"seats": 3}), 400, `bad JSON body: json: unknown field "seats"`},
	} {
		if code, _, msg := e.quick(nil, tc.body); code != tc.code || msg != tc.want {
			t.Errorf("%v: %d %q, want %d %q", tc.body, code, msg, tc.code, tc.want)
		}
	}
}

// TestQuickPairingRated checks rated quick pairing: the waiting player
// of the nearest rating in the game's word list and pace first, then the
// longest waiting; never one of a rating range that leaves the player
// out, one blocked either way, or the player's own game.
func TestQuickPairingRated(t *testing.T) {
	e := newEnv(t, newStore(t))
	names := []string{"Ann", "Bob", "Cyd", "Dan", "Eve", "Fay"}
	cs := map[string]*http.Client{}
	for _, n := range names {
		cs[n] = browser(t)
		e.signUp(cs[n], n, "correct horse")
	}
	// Ratings in rapid play: Ann 1900, Bob 1300, Dan 1850; the others
	// have none (1500). Cyd is rated 1880 in blitz alone.
	rate := func(id, cat string, a, b string, ra, rb float64) {
		g := &store.RatedGame{Game: id, Category: cat, Finished: time.Now(), Seats: []store.RatedSeat{
			{Seat: 0, Account: AccountKey(a), Name: a, Score: 400, Result: 1}, {Seat: 1, Account: AccountKey(b), Name: b, Score: 300}}}
		if _, err := e.st.RateGame(context.Background(), g, func(rs []store.Rating) ([]store.Rating, error) {
			rs[0].R, rs[0].RD, rs[0].Games = ra, 200, 1
			rs[1].R, rs[1].RD, rs[1].Games = rb, 200, 1
			return rs, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	rate("00000000000000a1", "en-sowpods/"+PaceRapid, "Ann", "Bob", 1900, 1300)
	rate("00000000000000a2", "en-sowpods/"+PaceRapid, "Dan", "Fay", 1850, 1500)
	rate("00000000000000a3", "en-sowpods/"+PaceBlitz, "Cyd", "Eve", 1880, 1500)
	rapid := map[string]any{"variant": "english", "lexicon": "en-sowpods", "rated": true, "clock": ClockRequest{Seconds: 600, Overtime: 60}}

	// Bob (1300) offers a game from the form first, then Cyd (1500 in
	// rapid) does.
	offer := func(c *http.Client, open SeatRequest) string {
		t.Helper()
		var cr CreateResponse
		body := map[string]any{"variant": "english", "lexicon": "en-sowpods", "rated": true,
			"clock": ClockRequest{Seconds: 600, Overtime: 60}, "seats": []SeatRequest{{Kind: "human"}, open}}
		if code := e.doWith(c, "POST", "/api/games", "", body, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		var ja JoinResponse
		e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &ja)
		if code := e.do("POST", "/api/games/"+cr.ID+"/list", ja.Token, nil, nil); code != 200 {
			t.Fatalf("list: %d", code)
		}
		return cr.ID
	}
	bob := offer(cs["Bob"], SeatRequest{Kind: "human"})
	cyd := offer(cs["Cyd"], SeatRequest{Kind: "human"})
	// Dan (1850) meets Cyd, the nearer; Eve (1500) then meets Bob.
	if code, r, _ := e.quick(cs["Dan"], rapid); code != 200 || r.ID != cyd || !r.Matched {
		t.Errorf("Dan: %d %+v, want Cyd's game %s", code, r, cyd)
	}
	if code, r, _ := e.quick(cs["Eve"], rapid); code != 200 || r.ID != bob || !r.Matched {
		t.Errorf("Eve: %d %+v, want Bob's game %s", code, r, bob)
	}
	st := e.state(cyd, "")
	if !st.Rated || st.Seats[1].Name != "Dan" || st.Seats[1].Rating != 1850 || st.Seats[0].Rating != 0 {
		t.Errorf("Cyd's game: rated %v, seats %+v", st.Rated, st.Seats)
	}

	// A game offered from the form for players rated 1600 to 1900 is not
	// one Fay (1500) is seated in, though it has her settings.
	ann := offer(cs["Ann"], SeatRequest{Kind: "human", RatingMin: 1600, RatingMax: 1900})
	code, fay, _ := e.quick(cs["Fay"], rapid)
	if code != 201 || fay.ID == ann {
		t.Fatalf("Fay: %d %+v, want a game of her own", code, fay)
	}
	// Ann asking the same gets the game she waits in already.
	if code, r, _ := e.quick(cs["Ann"], rapid); code != 200 || r.ID != ann || r.Matched || r.Token != "" {
		t.Errorf("Ann: %d %+v, want her game %s", code, r, ann)
	}

	// Bob blocks Eve: neither is seated in a game the other waits in.
	if code := e.doWith(cs["Bob"], "POST", "/api/me/blocks", "", map[string]string{"name": "Eve"}, nil); code != 200 {
		t.Fatalf("block: %d", code)
	}
	blitz := map[string]any{"variant": "english", "lexicon": "en-sowpods", "rated": true, "clock": ClockRequest{Seconds: 180, Overtime: 60, Increment: 2}}
	code, bb, _ := e.quick(cs["Bob"], blitz)
	if code != 201 {
		t.Fatalf("Bob in blitz: %d", code)
	}
	if code, r, _ := e.quick(cs["Eve"], blitz); code != 201 || r.ID == bb.ID {
		t.Errorf("Eve in blitz: %d %+v, want a game of her own", code, r)
	}
	// Asked again, Bob's own game comes back: he is not seated in Eve's.
	if code, r, _ := e.quick(cs["Bob"], blitz); code != 200 || r.ID != bb.ID || r.Matched {
		t.Errorf("Bob again: %d %+v, want his game %s", code, r, bb.ID)
	}
}

// TestQuickPairingAtOnce checks that players asking at once for the same
// game are seated in pairs: with an even number of them, every game
// made has started and nobody is left waiting.
func TestQuickPairingAtOnce(t *testing.T) {
	e := newEnv(t, nil)
	const n = 12
	ids := make([]string, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := map[string]any{"variant": "english", "name": fmt.Sprintf("P%d", i), "clock": ClockRequest{Seconds: 300, Overtime: 60}}
			var r QuickResponse
			codes[i] = e.doWith(http.DefaultClient, "POST", "/api/quick", "", body, &r)
			ids[i] = r.ID
		}()
	}
	wg.Wait()
	seated := map[string]int{}
	made := 0
	for i, id := range ids {
		switch codes[i] {
		case 201:
			made++
		case 200:
		default:
			t.Fatalf("player %d: %d", i, codes[i])
		}
		seated[id]++
	}
	if made != n/2 || len(seated) != n/2 {
		t.Errorf("%d games made, %d games in all, want %d", made, len(seated), n/2)
	}
	for id, k := range seated {
		if k != 2 || !e.started(id) {
			t.Errorf("game %s: %d players, started %v", id, k, e.started(id))
		}
	}
}

// TestQuickPairingNameless: a person not signed in who gives no name
// (the page sends none when its name box is empty) and asks twice gets
// the game it waits in again, not the free seat of its own game.
func TestQuickPairingNameless(t *testing.T) {
	e := newEnv(t, nil)
	body := map[string]any{"variant": "english", "clock": ClockRequest{Seconds: 300, Overtime: 60}}
	code, first, _ := e.quick(nil, body)
	if code != 201 || first.Matched {
		t.Fatalf("first: %d %+v", code, first)
	}
	code, again, _ := e.quick(nil, body)
	if code != 200 || again.ID != first.ID || again.Matched || again.Token != "" || again.Seat != first.Seat {
		t.Errorf("asked again: %d %+v, want game %s again, not matched", code, again, first.ID)
	}
	if e.started(first.ID) {
		t.Errorf("the player was seated against itself")
	}
	// Another person at the same address, with a name, waits too; one
	// without a name asking then is seated against that one, not given
	// that game back.
	code, ann, _ := e.quick(nil, map[string]any{"variant": "english", "name": "Ann", "clock": ClockRequest{Seconds: 600, Overtime: 60}})
	if code != 201 {
		t.Fatalf("Ann: %d", code)
	}
	code, r, _ := e.quick(nil, map[string]any{"variant": "english", "clock": ClockRequest{Seconds: 600, Overtime: 60}})
	if code != 200 || r.ID != ann.ID || !r.Matched || r.Token == "" {
		t.Errorf("one without a name after Ann: %d %+v, want seated in Ann's game %s", code, r, ann.ID)
	}
}
