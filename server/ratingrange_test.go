package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// TestRatingRange checks a rated game's seat kept for a rating range:
// the requests refused when the game is made, the lobby's listing, and
// who may take the seat (a newcomer counts as 1500).
func TestRatingRange(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo, cyd := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bob", "battery staple")
	e.signUp(cyd, "Cyd", "staple battery")
	clock := ClockRequest{Seconds: 600, Overtime: 60}
	game := func(rated bool, open SeatRequest) map[string]any {
		return map[string]any{"variant": "english", "lexicon": "en-sowpods", "seats": []SeatRequest{{Kind: "human"}, open}, "rated": rated, "clock": clock}
	}
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{game(false, SeatRequest{Kind: "human", RatingMin: 1600}), "seat 1: a rating range is for a rated game"},
		{game(true, SeatRequest{Kind: "human", RatingMin: 1800, RatingMax: 1600}), "seat 1: rating range 1800 to 1600: the lower bound is above the upper"},
		{game(true, SeatRequest{Kind: "human", RatingMin: -5}), "seat 1: a rating range lies within 0 to 4000"},
		{game(true, SeatRequest{Kind: "human", RatingMax: 4001}), "seat 1: a rating range lies within 0 to 4000"},
		{game(true, SeatRequest{Kind: "human", Invite: "Bob", RatingMin: 1600}), "seat 1: a seat kept for an invited player has no rating range"},
	} {
		var eb errorBody
		if code := e.doWith(ana, "POST", "/api/games", "", tc.body, &eb); code != 400 || eb.Error != tc.want {
			t.Errorf("create %v: %d %q, want 400 %q", tc.body, code, eb.Error, tc.want)
		}
	}
	var cr CreateResponse
	if code := e.doWith(ana, "POST", "/api/games", "", game(true, SeatRequest{Kind: "human", RatingMin: 1600, RatingMax: 1900}), &cr); code != 201 {
		t.Fatalf("a rated game with a rating range: %d", code)
	}
	var ja JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &ja); code != 200 {
		t.Fatalf("Ana joins: %d", code)
	}
	if code := e.do("POST", "/api/games/"+cr.ID+"/list", ja.Token, nil, nil); code != 200 {
		t.Fatalf("listed: %d", code)
	}
	var lobby Lobby
	e.do("GET", "/api/lobby", "", nil, &lobby)
	if len(lobby.Open) != 1 || lobby.Open[0].Seats[1].RatingMin != 1600 || lobby.Open[0].Seats[1].RatingMax != 1900 || lobby.Open[0].Seats[0].RatingMin != 0 {
		t.Errorf("the lobby: %+v", lobby.Open)
	}
	// A game of ten minutes is rapid: Bob's blitz rating of 1700 does
	// not count.
	blitz := &store.RatedGame{Game: "0000000000000abb", Category: "en-sowpods/" + PaceBlitz, Finished: time.Now(), Seats: []store.RatedSeat{
		{Seat: 0, Account: AccountKey("Bob"), Name: "Bob", Score: 400, Result: 1}, {Seat: 1, Account: AccountKey("Cyd"), Name: "Cyd", Score: 300}}}
	if _, err := e.st.RateGame(context.Background(), blitz, func(b []store.Rating) ([]store.Rating, error) {
		b[0].R, b[0].RD, b[0].Games = 1700, 200, 1
		b[1].R, b[1].RD, b[1].Games = 1300, 200, 1
		return b, nil
	}); err != nil {
		t.Fatal(err)
	}
	var refused errorBody
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/join", "", nil, &refused); code != 403 ||
		refused.Error != "seat 1 is for players rated 1600 to 1900 in this word list and pace, and yours is 1500" {
		t.Errorf("Bob joins with a blitz rating only: %d %q", code, refused.Error)
	}
	// Bob is rated 1350 and Cyd 1650 after a rapid game of en-sowpods
	// recorded in the store.
	g := &store.RatedGame{Game: "0000000000000abc", Category: "en-sowpods/" + PaceRapid, Finished: time.Now(), Seats: []store.RatedSeat{
		{Seat: 0, Account: AccountKey("Cyd"), Name: "Cyd", Score: 400, Result: 1}, {Seat: 1, Account: AccountKey("Bob"), Name: "Bob", Score: 300}}}
	if _, err := e.st.RateGame(context.Background(), g, func(b []store.Rating) ([]store.Rating, error) {
		b[0].R, b[0].RD, b[0].Games = 1650, 200, 1
		b[1].R, b[1].RD, b[1].Games = 1350, 200, 1
		return b, nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, body := range []map[string]any{nil, {"seat": 1}} {
		var eb errorBody
		if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/join", "", body, &eb); code != 403 ||
			eb.Error != "seat 1 is for players rated 1600 to 1900 in this word list and pace, and yours is 1350" {
			t.Errorf("Bob joins (%v): %d %q", body, code, eb.Error)
		}
	}
	var jc JoinResponse
	if code := e.doWith(cyd, "POST", "/api/games/"+cr.ID+"/join", "", nil, &jc); code != 200 || jc.Seat != 1 {
		t.Fatalf("Cyd joins: %d %+v", code, jc)
	}
	if st := e.state(cr.ID, ""); !st.Started || st.Seats[1].Name != "Cyd" || st.Seats[1].RatingMin != 0 {
		t.Errorf("the game once Cyd sat down: %+v", st.Seats)
	}

	// A newcomer fits a range about 1500; a guest is asked to sign in
	// (a rated game's first refusal).
	if code := e.doWith(ana, "POST", "/api/games", "", game(true, SeatRequest{Kind: "human", RatingMax: 1500}), &cr); code != 201 {
		t.Fatalf("a game for players rated up to 1500: %d", code)
	}
	e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, nil)
	var eb errorBody
	if code := e.do("POST", "/api/games/"+cr.ID+"/join", "", nil, &eb); code != 401 || !strings.Contains(eb.Error, "sign in") {
		t.Errorf("a guest joins: %d %q", code, eb.Error)
	}
	newcomer := browser(t)
	e.signUp(newcomer, "Dee", "new player")
	if code := e.doWith(newcomer, "POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 200 {
		t.Errorf("a newcomer joins a game for players rated up to 1500: %d", code)
	}
}
