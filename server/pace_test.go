package server

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"atril/store"
)

func TestPaceOf(t *testing.T) {
	for _, tc := range []struct {
		seat store.Seat
		want string
	}{
		{store.Seat{Seconds: 180, Increment: 2}, PaceBlitz}, // 3.5 minutes
		{store.Seat{Seconds: 300, Overtime: 60}, PaceBlitz},
		{store.Seat{Seconds: 420, Increment: 3}, PaceBlitz}, // 7 minutes and 15 × 3 s
		{store.Seat{Seconds: 420, Increment: 5}, PaceRapid}, // 7 minutes and 15 × 5 s
		{store.Seat{Seconds: 479}, PaceBlitz},
		{store.Seat{Seconds: 480}, PaceRapid},
		{store.Seat{Seconds: 600, Increment: 5}, PaceRapid},
		{store.Seat{Seconds: 900, Overtime: 60}, PaceRapid},
		{store.Seat{Seconds: 1199}, PaceRapid},
		{store.Seat{Seconds: 1200}, PaceRegular},
		{store.Seat{Seconds: 1500, Overtime: 60}, PaceRegular},
		{store.Seat{Seconds: 900, Increment: 30}, PaceRegular}, // 15 + 7.5 minutes
		{store.Seat{}, PaceRegular},
		{store.Seat{PerMove: 86400}, PaceCorrespondence},
	} {
		if got := paceOf(tc.seat); got != tc.want {
			t.Errorf("paceOf(%+v) = %s, want %s", tc.seat, got, tc.want)
		}
	}
	// The page's bounds are the rule's: just under each, its pace.
	var names []string
	for _, p := range paceInfo() {
		names = append(names, p.Name)
		if p.UnderSeconds > 0 && paceOf(store.Seat{Seconds: p.UnderSeconds - 1}) != p.Name {
			t.Errorf("%d seconds: %s, want %s", p.UnderSeconds-1, paceOf(store.Seat{Seconds: p.UnderSeconds - 1}), p.Name)
		}
	}
	if strings.Join(names, " ") != "blitz rapid regular correspondence computer" {
		t.Errorf("the paces for the page: %v", names)
	}
	// The computer's seats have no clock: the people's say, in a casual
	// game; a rated game against the computer is of the computer's pace.
	seats := []store.Seat{{Name: "Bot", Level: "inhuman"}, {Name: "Ana", Seconds: 300}}
	if got := ratingCategory("en-sowpods", seats, false); got != "en-sowpods/blitz" {
		t.Errorf("category of a casual game against the computer: %s", got)
	}
	if got := ratingCategory("en-sowpods", seats, true); got != "en-sowpods/computer" {
		t.Errorf("category of a rated game against the computer: %s", got)
	}
	if got := ratingCategory("en-sowpods", []store.Seat{{Name: "Bo", Seconds: 300}, {Name: "Ana", Seconds: 300}}, true); got != "en-sowpods/blitz" {
		t.Errorf("category of a rated game between people: %s", got)
	}
	if lex, pace := splitCategory("es-fise/correspondence"); lex != "es-fise" || pace != PaceCorrespondence {
		t.Errorf("splitCategory: %s, %s", lex, pace)
	}
	if lex, pace := splitCategory("es-fise"); lex != "es-fise" || pace != "" {
		t.Errorf("splitCategory of a word list alone: %s, %s", lex, pace)
	}
}

// TestRerateByPace checks that a server started on a store whose ratings
// were kept by word list alone moves the games to their paces and rates
// them again, game by game, as if ratings had always been kept by pace:
// a game first in its pace keeps its figures, a later one starts from
// its pace's rating; and that a second start changes nothing.
func TestRerateByPace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	for _, name := range []string{"Ana", "Bob"} {
		if err := st.CreateAccount(ctx, &store.Account{Key: AccountKey(name), Name: name, Password: "pbkdf2$x", Created: start}); err != nil {
			t.Fatal(err)
		}
	}
	// As the server rated them before paces: g1 (10 minutes) Ana wins,
	// g2 (5 minutes) Bob wins, g3 (10 minutes) Ana wins, g4 (3 days a
	// move, a casual game) Bob wins; all in "en-sowpods".
	type played struct {
		id     string
		seat   store.Seat
		winner int
		rated  bool
	}
	games := []played{
		{"00000000000000a1", store.Seat{Seconds: 600, Overtime: 60}, 0, true},
		{"00000000000000a2", store.Seat{Seconds: 300, Overtime: 60}, 1, true},
		{"00000000000000a3", store.Seat{Seconds: 600, Overtime: 60}, 0, true},
		{"00000000000000a4", store.Seat{PerMove: 3 * 86400}, 1, false},
	}
	recorded := map[string]*store.RatedGame{}
	for i, p := range games {
		at := start.Add(time.Duration(i) * 24 * time.Hour)
		a, b := p.seat, p.seat
		a.Name, b.Name = "Ana", "Bob"
		if err := st.CreateGame(ctx, &store.Game{ID: p.id, Variant: "english", Lexicon: "en-sowpods", Created: at, Rated: p.rated,
			Seats: []store.Seat{a, b}}); err != nil {
			t.Fatal(err)
		}
		if err := st.Finish(ctx, p.id); err != nil {
			t.Fatal(err)
		}
		g := &store.RatedGame{Game: p.id, Category: "en-sowpods", Finished: at, Rated: p.rated, Seats: []store.RatedSeat{
			{Seat: 0, Account: AccountKey("Ana"), Name: "Ana", Score: 400}, {Seat: 1, Account: AccountKey("Bob"), Name: "Bob", Score: 400}}}
		g.Seats[p.winner].Result, g.Seats[p.winner].Score = 1, 450
		if p.rated {
			_, err = st.RateGame(ctx, g, func(before []store.Rating) ([]store.Rating, error) {
				return rateTwo(before, [2]float64{g.Seats[0].Result, g.Seats[1].Result}, [2]string{}, at)
			})
		} else {
			_, err = st.RecordGame(ctx, g)
		}
		if err != nil {
			t.Fatal(err)
		}
		recorded[p.id] = g
	}
	var mu sync.Mutex
	var logged []string
	cfg := testConfig(st)
	cfg.Logf = func(f string, args ...any) {
		mu.Lock()
		logged = append(logged, f)
		mu.Unlock()
	}
	wasLogged := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(strings.Join(logged, "\n"), "ratings kept by pace")
	}
	e := newEnvConfig(t, cfg)
	if !wasLogged() {
		t.Error("the start logged nothing of the rerating")
	}

	// What the games give in their paces: g1 and g3 in rapid, g2 alone
	// in blitz.
	want := map[string][]store.Rating{}
	for _, id := range []string{"00000000000000a1", "00000000000000a3", "00000000000000a2"} {
		g := recorded[id]
		pace := PaceRapid
		if id == "00000000000000a2" {
			pace = PaceBlitz
		}
		before := want[pace]
		if before == nil {
			before = []store.Rating{{Account: AccountKey("Ana")}, {Account: AccountKey("Bob")}}
		}
		after, err := rateTwo(before, [2]float64{g.Seats[0].Result, g.Seats[1].Result}, [2]string{}, g.Finished)
		if err != nil {
			t.Fatal(err)
		}
		for i := range after {
			after[i].Updated = g.Finished
		}
		want[pace] = after
	}
	var p Profile
	if code := e.do("GET", "/api/players/ana", "", nil, &p); code != 200 || len(p.Ratings) != 2 {
		t.Fatalf("Ana's profile: %d %+v", code, p.Ratings)
	}
	for _, r := range p.Ratings {
		w := want[r.Pace][0]
		if r.Lexicon != "en-sowpods" || r.Rating != roundInt(w.R) || r.Deviation != roundInt(w.RD) || r.Games != w.Games || r.Wins != w.Wins {
			t.Errorf("Ana's %s rating: %+v, want %.0f ± %.0f over %d games", r.Pace, r, w.R, w.RD, w.Games)
		}
	}
	// g1 came first in both ways of keeping ratings: the same figures;
	// g3 now starts from g1's rapid rating, not from g2's.
	g1, err := st.RatedGame(ctx, "00000000000000a1")
	if err != nil || g1.Category != "en-sowpods/rapid" || g1.Seats[0].RAfter != recorded["00000000000000a1"].Seats[0].RAfter {
		t.Errorf("g1 after rerating: %+v, %v", g1, err)
	}
	g3, err := st.RatedGame(ctx, "00000000000000a3")
	if err != nil || g3.Category != "en-sowpods/rapid" || g3.Seats[0].RBefore != g1.Seats[0].RAfter || g3.Seats[0].RAfter == recorded["00000000000000a3"].Seats[0].RAfter {
		t.Errorf("g3 after rerating: %+v, %v (before rerating %+v)", g3, err, recorded["00000000000000a3"].Seats)
	}
	var pg PlayerGames
	if code := e.do("GET", "/api/players/ana/games?lexicon=en-sowpods&pace=correspondence", "", nil, &pg); code != 200 || len(pg.Games) != 1 ||
		pg.Games[0].ID != "00000000000000a4" || pg.Games[0].Pace != PaceCorrespondence || pg.Games[0].Rated {
		t.Errorf("Ana's correspondence games: %d %+v", code, pg)
	}
	var lb Leaderboard
	if code := e.do("GET", "/api/leaderboard?lexicon=en-sowpods&pace=blitz", "", nil, &lb); code != 200 || len(lb.Players) != 2 || lb.Players[0].Name != "Bob" {
		t.Errorf("blitz leaderboard: %d %+v", code, lb)
	}

	// A second start finds nothing to move.
	e.srv.Close()
	mu.Lock()
	logged = nil
	mu.Unlock()
	newEnvConfig(t, cfg)
	if wasLogged() {
		t.Error("the second start rated again")
	}
	if g, err := st.RatedGame(ctx, "00000000000000a3"); err != nil || g.Category != g3.Category || g.Seats[0] != g3.Seats[0] {
		t.Errorf("g3 after a second start: %+v, %v", g, err)
	}
}
