package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"atril/store"
)

// TestProvisionalRatings: a rating whose deviation is above
// rating.ProvisionalRD is marked provisional on the player's page, the
// leaderboard, /api/me and the seats it takes (kept in the seat's join,
// so a restart shows the same), and an established one is not.
func TestProvisionalRatings(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	ann, bob := browser(t), browser(t)
	e.signUp(ann, "Ann", "correct horse")
	e.signUp(bob, "Bob", "correct horse")
	g := &store.RatedGame{Game: "00000000000000b1", Category: "en-sowpods/" + PaceRapid, Finished: time.Now(), Seats: []store.RatedSeat{
		{Seat: 0, Account: AccountKey("Ann"), Name: "Ann", Score: 400, Result: 1}, {Seat: 1, Account: AccountKey("Bob"), Name: "Bob", Score: 300}}}
	if _, err := e.st.RateGame(context.Background(), g, func(rs []store.Rating) ([]store.Rating, error) {
		rs[0].R, rs[0].RD, rs[0].Games = 1700, 60, 40
		rs[1].R, rs[1].RD, rs[1].Games = 1400, 180, 3
		return rs, nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want bool
	}{{"Ann", false}, {"Bob", true}} {
		var p Profile
		if code := e.do("GET", "/api/players/"+tc.name, "", nil, &p); code != 200 || len(p.Ratings) != 1 || p.Ratings[0].Provisional != tc.want {
			t.Errorf("%s's page: %d %+v, want provisional %v", tc.name, code, p.Ratings, tc.want)
		}
	}
	var lb Leaderboard
	if code := e.do("GET", "/api/leaderboard?lexicon=en-sowpods&pace=rapid", "", nil, &lb); code != 200 || len(lb.Players) != 2 ||
		lb.Players[0].Name != "Ann" || lb.Players[0].Provisional || !lb.Players[1].Provisional {
		t.Errorf("the leaderboard: %d %+v", code, lb.Players)
	}
	var me Me
	if e.doWith(bob, "GET", "/api/me", "", nil, &me); len(me.Ratings) != 1 || !me.Ratings[0].Provisional {
		t.Errorf("Bob's /api/me: %+v", me.Ratings)
	}
	var cr CreateResponse
	rated := map[string]any{"variant": "english", "lexicon": "en-sowpods", "rated": true, "clock": ClockRequest{Seconds: 600, Overtime: 60},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}
	if code := e.doWith(ann, "POST", "/api/games", "", rated, &cr); code != 201 {
		t.Fatalf("rated game: %d", code)
	}
	for _, c := range []*http.Client{ann, bob} {
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 200 {
			t.Fatalf("join: %d", code)
		}
	}
	check := func(when string, s *State) {
		if s.Seats[0].Rating != 1700 || s.Seats[0].Provisional || s.Seats[1].Rating != 1400 || !s.Seats[1].Provisional {
			t.Errorf("%s: seats %+v, want Ann 1700 and Bob 1400?", when, s.Seats)
		}
	}
	check("the game", e.state(cr.ID, ""))
	// (The clock runs: the state as a whole differs after a restart.)
	e.hs.Close()
	e.srv.Close()
	check("after a restart", newEnv(t, st0).state(cr.ID, ""))
}
