package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// TestTournament runs a Swiss tournament of three players over two
// rounds through the API: the checks of a new tournament, registering,
// the start, a round's game made with its seats kept for the players, a
// bye, a result by resignation and one by a declined game (a forfeit),
// the next round paired when a round ends, and the standings at the end.
func TestTournament(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.Logf = t.Logf
	e := newEnvConfig(t, cfg)
	dir := browser(t)
	e.signUp(dir, "Director", "correct horse")
	names := []string{"Tess", "Ugo", "Vera"}
	players := map[string]*http.Client{}
	for _, n := range names {
		players[n] = browser(t)
		e.signUp(players[n], n, "battery staple")
	}
	clock := ClockRequest{Seconds: 600, Overtime: 60}
	for _, tc := range []struct {
		body   any
		signed bool
		code   int
		want   string
	}{
		{map[string]any{"name": "Open", "clock": clock}, false, 401, "sign in to direct"},
		{map[string]any{"name": "Open"}, true, 400, "have a clock"},
		{map[string]any{"name": "Op", "clock": clock}, true, 400, "3 to 40 characters"},
		{map[string]any{"name": "Open", "clock": clock, "format": "knockout"}, true, 400, `format "knockout"`},
		{map[string]any{"name": "Open", "clock": clock, "rounds": 21}, true, 400, "21 rounds"},
		{map[string]any{"name": "Open", "clock": clock, "format": "round-robin", "rounds": 3}, true, 400, "give no rounds"},
		{map[string]any{"name": "Open", "clock": clock, "max_players": 65}, true, 400, "give 2 to 64"},
		{map[string]any{"name": "Open", "clock": clock, "variant": "klingon"}, true, 400, "unknown variant"},
	} {
		c := browser(t)
		if tc.signed {
			c = dir
		}
		var eb errorBody
		if code := e.doWith(c, "POST", "/api/tournaments", "", tc.body, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("%v: %d %q, want %d %q", tc.body, code, eb.Error, tc.code, tc.want)
		}
	}

	var made map[string]string
	if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": "Autumn Open", "clock": clock, "rounds": 2}, &made); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id := made["id"]
	path := "/api/tournaments/" + id
	action := func(c *http.Client, what string, code int, want string) *TournamentInfo {
		t.Helper()
		var out struct {
			TournamentInfo
			Error string `json:"error"`
		}
		if got := e.doWith(c, "POST", path+"/"+what, "", nil, &out); got != code || !strings.Contains(out.Error, want) {
			t.Fatalf("%s: %d %q, want %d %q", what, got, out.Error, code, want)
		}
		return &out.TournamentInfo
	}
	action(browser(t), "register", 401, "sign in")
	for _, n := range names {
		action(players[n], "register", 200, "")
	}
	action(players["Tess"], "register", 200, "") // twice: no change
	if info := action(players["Ugo"], "withdraw", 200, ""); len(info.Players) != 2 {
		t.Fatalf("after Ugo withdrew: %v", info.Players)
	}
	action(players["Ugo"], "register", 200, "")
	action(players["Tess"], "start", 403, "only the director")
	action(players["Tess"], "cancel", 403, "only the director")

	info := action(dir, "start", 200, "")
	if info.State != "playing" || len(info.Players) != 3 || len(info.Pairings) != 1 || len(info.Pairings[0]) != 2 || info.Rounds != 2 {
		t.Fatalf("started: %+v", info)
	}
	action(dir, "start", 409, "is playing")
	action(browser(t), "withdraw", 401, "sign in")
	if code := e.doWith(players["Vera"], "POST", path+"/withdraw", "", WithdrawRequest{Player: "Tess"}, nil); code != 403 {
		t.Errorf("a player withdraws another: %d", code)
	}
	newcomer := browser(t)
	e.signUp(newcomer, "Late", "battery staple")
	action(newcomer, "register", 409, "no more players")

	// play finishes round r's game: the first player resigns, or the
	// second declines without the first having come.
	play := func(round int, decline bool) (winner, loser string) {
		t.Helper()
		var info TournamentInfo
		if code := e.do("GET", path, "", nil, &info); code != 200 || len(info.Pairings) != round {
			t.Fatalf("round %d: %d %+v", round, code, info)
		}
		var game PairingInfo
		for _, p := range info.Pairings[round-1] {
			switch {
			case p.Second == "":
				if !p.Done || p.How != "bye" || p.Wins[0] != 1 {
					t.Errorf("round %d: the bye %+v", round, p)
				}
			default:
				game = p
			}
		}
		waitFor(t, "the round's game", func() bool {
			var st State
			return e.do("GET", "/api/games/"+game.Game, "", nil, &st) == 200
		})
		st := e.state(game.Game, "")
		if st.Tournament == nil || st.Tournament.ID != id || st.Tournament.Round != round || st.Tournament.Name != "Autumn Open" ||
			st.Seats[0].Name != game.First || !st.Seats[0].Invited || st.Seats[0].InvitedBy != "Director" || st.Clock == nil || st.Clock.Seconds[0] != 600 {
			t.Errorf("round %d game: %+v %+v", round, st.Tournament, st.Seats)
		}
		// Nobody else takes a kept seat.
		if code := e.doWith(newcomer, "POST", "/api/games/"+game.Game+"/join", "", nil, nil); code != 403 {
			t.Errorf("a stranger joins: %d", code)
		}
		if decline {
			if code := e.doWith(players[game.Second], "POST", "/api/games/"+game.Game+"/decline", "", nil, nil); code != 200 {
				t.Fatalf("decline: %d", code)
			}
			return game.First, game.Second
		}
		var seats [2]JoinResponse
		for i, n := range []string{game.First, game.Second} {
			if code := e.doWith(players[n], "POST", "/api/games/"+game.Game+"/join", "", nil, &seats[i]); code != 200 || seats[i].Seat != i {
				var eb errorBody
				e.doWith(players[n], "POST", "/api/games/"+game.Game+"/join", "", nil, &eb)
				t.Fatalf("%s joins: %d %+v %q", n, code, seats[i], eb.Error)
			}
		}
		if code := e.do("POST", "/api/games/"+game.Game+"/resign", seats[0].Token, nil, nil); code != 200 {
			t.Fatalf("resign: %d", code)
		}
		return game.Second, game.First
	}
	w1, l1 := play(1, false)
	waitFor(t, "round 2", func() bool {
		var info TournamentInfo
		return e.do("GET", path, "", nil, &info) == 200 && len(info.Pairings) == 2
	})
	w2, l2 := play(2, true)
	waitFor(t, "the end", func() bool {
		var info TournamentInfo
		return e.do("GET", path, "", nil, &info) == 200 && info.State == "over"
	})
	var end TournamentInfo
	e.doWith(players[w2], "GET", path, "", nil, &end)
	if end.You == nil || !end.You.Registered || end.You.Director || end.You.Game != "" {
		t.Errorf("you: %+v", end.You)
	}
	// Every player played once and had a bye or played twice; the
	// forfeit counts ±50.
	wins, games := 0.0, 0
	for _, s := range end.Standings {
		wins += s.Wins
		games += s.Games
		if s.Games != 2 || s.Wins+s.Losses != 2 {
			t.Errorf("standing %+v", s)
		}
	}
	if wins != 4 || games != 6 {
		t.Errorf("%v wins over %d games (want 4 over 6): %+v", wins, games, end.Standings)
	}
	f := end.Pairings[1]
	for _, p := range f {
		if p.Second != "" && (p.How != "forfeit" || p.First != w2 || p.Second != l2 || p.Wins != [2]float64{1, 0}) {
			t.Errorf("round 2 game: %+v (winner %s)", p, w2)
		}
	}
	if p := end.Pairings[0]; !slicesHasResult(p, w1, l1) {
		t.Errorf("round 1: %+v, want %s beating %s", p, w1, l1)
	}
	// Resigned before any word was played: a forfeit.
	for _, p := range end.Pairings[0] {
		if p.Second != "" && (p.How != "forfeit" || p.Score != [2]int{}) {
			t.Errorf("round 1, resigned at once: %+v", p)
		}
	}
	// Spreads: a resignation at 0-0, a forfeit (+50 and −50), two byes.
	spread := 0
	for _, s := range end.Standings {
		spread += s.Spread
	}
	if spread != 2*50 {
		t.Errorf("spreads add up to %d, want 100: %+v", spread, end.Standings)
	}

	// The list shows it finished; the director may direct three at once.
	var list TournamentList
	if code := e.do("GET", "/api/tournaments", "", nil, &list); code != 200 || len(list.Over) != 1 || list.Over[0].ID != id || len(list.Open) != 0 {
		t.Errorf("list: %d %+v", code, list)
	}
	for i := range 3 {
		if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": fmt.Sprintf("Club %d", i), "clock": clock}, &made); code != 201 {
			t.Fatalf("create %d: %d", i, code)
		}
	}
	var eb errorBody
	if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": "One more", "clock": clock}, &eb); code != 409 {
		t.Errorf("a fourth tournament: %d %q", code, eb.Error)
	}
	path = "/api/tournaments/" + made["id"]
	if info := action(dir, "cancel", 200, ""); info.State != "cancelled" {
		t.Errorf("cancelled: %+v", info)
	}
	action(players["Tess"], "register", 409, "is cancelled")
	action(dir, "cancel", 409, "is cancelled")
	// Cancelled while being played: its game goes on outside it.
	if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": "Short", "clock": clock, "rounds": 3}, &made); code != 201 {
		t.Fatalf("create: %d", code)
	}
	path = "/api/tournaments/" + made["id"]
	action(players["Tess"], "register", 200, "")
	action(players["Ugo"], "register", 200, "")
	started := action(dir, "start", 200, "")
	action(players["Tess"], "cancel", 403, "only the director")
	if info := action(dir, "cancel", 200, ""); info.State != "cancelled" || len(info.Pairings) != 1 {
		t.Errorf("cancelled while played: %+v", info)
	}
	g := started.Pairings[0][0].Game
	waitFor(t, "the cancelled tournament's game", func() bool { return e.do("GET", "/api/games/"+g, "", nil, nil) == 200 })
	var jr JoinResponse
	if code := e.doWith(players[started.Pairings[0][0].First], "POST", "/api/games/"+g+"/join", "", nil, &jr); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if code := e.do("POST", "/api/games/"+g+"/abort", jr.Token, nil, nil); code != 200 {
		t.Fatalf("call off: %d", code)
	}
	var after TournamentInfo
	if e.do("GET", path, "", nil, &after); after.State != "cancelled" || after.Pairings[0][0].Done {
		t.Errorf("the game of a cancelled tournament recorded: %+v", after)
	}
	if code := e.do("GET", "/api/tournaments/0123456789abcdef", "", nil, &eb); code != 404 {
		t.Errorf("unknown tournament: %d", code)
	}
}

// TestTournamentWithdraw: players withdraw after the start, themselves
// or by the director. A Swiss tournament pairs only the players left
// (the withdrawn player's game of the round goes on and counts) and
// ends with its round once fewer than two are left; in a round robin
// the later games with a withdrawn player are forfeits, made done with
// no game.
func TestTournamentWithdraw(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.Logf = t.Logf
	e := newEnvConfig(t, cfg)
	dir := browser(t)
	e.signUp(dir, "Director", "correct horse")
	players := map[string]*http.Client{}
	for _, n := range []string{"Ada", "Bea", "Cid", "Dov"} {
		players[n] = browser(t)
		e.signUp(players[n], n, "battery staple")
	}
	clock := ClockRequest{Seconds: 600}
	var path string
	do := func(c *http.Client, what string, body any, code int, want string) *TournamentInfo {
		t.Helper()
		var out struct {
			TournamentInfo
			Error string `json:"error"`
		}
		if got := e.doWith(c, "POST", path+"/"+what, "", body, &out); got != code || !strings.Contains(out.Error, want) {
			t.Fatalf("%s %v: %d %q, want %d %q", what, body, got, out.Error, code, want)
		}
		return &out.TournamentInfo
	}
	get := func() *TournamentInfo {
		t.Helper()
		var info TournamentInfo
		if code := e.do("GET", path, "", nil, &info); code != 200 {
			t.Fatalf("get: %d", code)
		}
		return &info
	}
	// decline ends game p by its second player's declining it.
	decline := func(p PairingInfo) {
		t.Helper()
		waitFor(t, "game "+p.Game, func() bool { return e.do("GET", "/api/games/"+p.Game, "", nil, nil) == 200 })
		if code := e.doWith(players[p.Second], "POST", "/api/games/"+p.Game+"/decline", "", nil, nil); code != 200 {
			t.Fatalf("%s declines: %d", p.Second, code)
		}
	}
	in := func(round []PairingInfo, name string) bool {
		for _, p := range round {
			if p.First == name || p.Second == name {
				return true
			}
		}
		return false
	}
	create := func(body map[string]any, names ...string) {
		t.Helper()
		var made map[string]string
		if code := e.doWith(dir, "POST", "/api/tournaments", "", body, &made); code != 201 {
			t.Fatalf("create: %d", code)
		}
		path = "/api/tournaments/" + made["id"]
		for _, n := range names {
			do(players[n], "register", nil, 200, "")
		}
	}

	// Swiss, four players, three rounds.
	create(map[string]any{"name": "Swiss Four", "clock": clock, "rounds": 3}, "Ada", "Bea", "Cid", "Dov")
	// Before the start the director takes a player off the list.
	if info := do(dir, "withdraw", WithdrawRequest{Player: "dov"}, 200, ""); len(info.Players) != 3 || len(info.Withdrawn) != 0 {
		t.Fatalf("Dov taken off the list: %+v", info.Players)
	}
	do(players["Dov"], "register", nil, 200, "")
	r1 := do(dir, "start", nil, 200, "").Pairings[0]
	if info := do(players["Bea"], "withdraw", nil, 200, ""); !slices.Equal(info.Withdrawn, []string{"Bea"}) ||
		info.You == nil || !info.You.Withdrawn || info.You.Game == "" {
		t.Fatalf("Bea withdrew: %+v %+v", info.Withdrawn, info.You)
	}
	do(players["Bea"], "withdraw", nil, 200, "") // again: no change
	do(players["Cid"], "withdraw", WithdrawRequest{Player: "Dov"}, 403, "only the director")
	do(dir, "withdraw", WithdrawRequest{Player: "Nobody"}, 404, "not a player")
	do(dir, "withdraw", map[string]any{"who": "Ada"}, 400, "bad JSON")
	for _, p := range r1 {
		decline(p) // Bea's game goes on and counts
	}
	waitFor(t, "round 2", func() bool { return len(get().Pairings) == 2 })
	r2 := get().Pairings[1]
	if in(r2, "Bea") || len(r2) != 2 || r2[1].Second != "" || !r2[1].Done {
		t.Fatalf("round 2 after Bea withdrew: %+v", r2)
	}
	// The director withdraws a player of round 2's game and the one with
	// the bye: one is left, and the tournament ends with the round.
	out, bye := r2[0].First, r2[1].First
	do(dir, "withdraw", WithdrawRequest{Player: out}, 200, "")
	if info := do(dir, "withdraw", WithdrawRequest{Player: bye}, 200, ""); len(info.Withdrawn) != 3 || info.State != "playing" {
		t.Fatalf("%s and %s withdrawn: %+v", out, bye, info)
	}
	decline(r2[0])
	waitFor(t, "the end", func() bool { return get().State == "over" })
	end := get()
	if len(end.Pairings) != 2 {
		t.Errorf("ended after %d rounds, want 2", len(end.Pairings))
	}
	for _, s := range end.Standings {
		want := 2
		if s.Name == "Bea" {
			want = 1
		}
		if s.Games != want || s.Withdrawn != (s.Name == "Bea" || s.Name == out || s.Name == bye) {
			t.Errorf("standing %+v (withdrawn: Bea, %s and %s)", s, out, bye)
		}
	}
	if len(end.Withdrawn) != 3 {
		t.Errorf("withdrawn %v", end.Withdrawn)
	}
	for _, s := range end.Standings {
		if !s.Withdrawn {
			do(players[s.Name], "withdraw", nil, 409, "is over")
		}
	}

	// A round robin of three: one game and a bye a round.
	create(map[string]any{"name": "Round Three", "clock": clock, "format": "round-robin"}, "Ada", "Bea", "Cid")
	r1 = do(dir, "start", nil, 200, "").Pairings[0]
	var game PairingInfo
	for _, p := range r1 {
		if p.Second != "" {
			game = p
		}
	}
	do(players[game.First], "withdraw", nil, 200, "")
	declined := map[string]bool{}
	waitFor(t, "the end", func() bool {
		info := get()
		for _, p := range info.Pairings[len(info.Pairings)-1] {
			if p.Game != "" && !p.Done && !declined[p.Game] {
				declined[p.Game] = true
				decline(p)
			}
		}
		return info.State == "over"
	})
	end = get()
	if len(end.Pairings) != 3 {
		t.Fatalf("round robin of three over after %d rounds", len(end.Pairings))
	}
	for k, round := range end.Pairings[1:] {
		for _, p := range round {
			switch {
			case p.Second == "":
			case p.First == game.First || p.Second == game.First:
				gone := 0
				if p.Second == game.First {
					gone = 1
				}
				if p.Game != "" || p.How != "forfeit" || p.Wins[gone] != 0 || p.Wins[1-gone] != 1 {
					t.Errorf("round %d, against %s who withdrew: %+v", k+2, game.First, p)
				}
			case p.Game == "":
				t.Errorf("round %d: no game for %+v", k+2, p)
			}
		}
	}
}

// slicesHasResult reports whether the round holds a game won by winner
// against loser.
func slicesHasResult(round []PairingInfo, winner, loser string) bool {
	for _, p := range round {
		if p.Done && (p.First == winner && p.Second == loser && p.Wins == [2]float64{1, 0} ||
			p.First == loser && p.Second == winner && p.Wins == [2]float64{0, 1}) {
			return true
		}
	}
	return false
}

// TestTournamentSweep: the games of a round that a crash left unmade
// are made by the sweeper, and a result left unrecorded is recorded.
func TestTournamentSweep(t *testing.T) {
	st := newStore(t)
	cfg := testConfig(st)
	cfg.TournamentSweep = 20 * time.Millisecond
	e := newEnvConfig(t, cfg)
	a, b := browser(t), browser(t)
	e.signUp(a, "Alba", "battery staple")
	e.signUp(b, "Bruno", "battery staple")
	// As a process that died after pairing round 1 left it: the round
	// written, its game not made.
	now := time.Now().UTC()
	d := tournamentDoc{TournamentRequest: TournamentRequest{Name: "Crash Cup", Variant: "english", Lexicon: "en-sowpods",
		Clock: &ClockRequest{Seconds: 300}, Format: "swiss", Rounds: 1, MaxPlayers: 4},
		Director: "Alba", DirectorKey: AccountKey("Alba"), State: "playing", Created: now, Started: now,
		Players: []tPlayer{{Key: AccountKey("Alba"), Name: "Alba"}, {Key: AccountKey("Bruno"), Name: "Bruno"}},
		Played:  [][]tGame{{{Game: "00000000000000a1", First: 1, Second: 0}}}}
	data, err := json.Marshal(&d)
	if err != nil {
		t.Fatal(err)
	}
	const id = "00000000000000f1"
	if err := st.CreateTournament(context.Background(), &store.Tournament{ID: id, Data: string(data), Created: now, Updated: now}, store.TournamentLimit{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the game made by the sweeper", func() bool {
		var s State
		return e.do("GET", "/api/games/00000000000000a1", "", nil, &s) == 200 && s.Tournament != nil && s.Tournament.ID == id
	})
	var jb JoinResponse
	if code := e.doWith(b, "POST", "/api/games/00000000000000a1/join", "", nil, &jb); code != 200 || jb.Seat != 0 {
		t.Fatalf("Bruno joins: %d %+v", code, jb)
	}
	// The game ends and its result is not recorded (as when the process
	// dies in between): the sweeper records it.
	l, err := e.srv.game(context.Background(), "00000000000000a1")
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	ref := *l.tournament
	l.tournament = nil // the record is skipped, as if it had failed
	err = l.end(context.Background(), "abort", 1)
	l.tournament = &ref
	l.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the result recorded by the sweeper", func() bool {
		var info TournamentInfo
		return e.do("GET", "/api/tournaments/"+id, "", nil, &info) == 200 && info.State == "over"
	})
	var info TournamentInfo
	e.do("GET", "/api/tournaments/"+id, "", nil, &info)
	if p := info.Pairings[0][0]; p.First != "Bruno" || p.How != "forfeit" || p.Wins != [2]float64{1, 0} || info.Standings[0].Name != "Bruno" {
		t.Errorf("Alba called the game off and forfeits: %+v %+v", p, info.Standings)
	}
}

// TestTournamentRegistrationExpires: a tournament nobody starts is
// cancelled once it has taken registrations for TournamentRegistration;
// one being played is not.
func TestTournamentRegistrationExpires(t *testing.T) {
	st := newStore(t)
	cfg := testConfig(st)
	cfg.TournamentSweep = 20 * time.Millisecond
	cfg.TournamentRegistration = time.Hour
	e := newEnvConfig(t, cfg)
	dir := browser(t)
	e.signUp(dir, "Director", "correct horse")
	// Two tournaments announced a day ago, one of them started since.
	old := time.Now().UTC().Add(-24 * time.Hour)
	for id, state := range map[string]string{"00000000000000e1": "registering", "00000000000000e2": "playing"} {
		d := tournamentDoc{TournamentRequest: TournamentRequest{Name: "Old Cup " + state, Variant: "english", Lexicon: "en-sowpods",
			Clock: &ClockRequest{Seconds: 300}, Format: "swiss", Rounds: 1, MaxPlayers: 4},
			Director: "Director", DirectorKey: AccountKey("Director"), State: state, Created: old}
		data, err := json.Marshal(&d)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateTournament(context.Background(), &store.Tournament{ID: id, Data: string(data), Created: old, Updated: old}, store.TournamentLimit{}); err != nil {
			t.Fatal(err)
		}
	}
	// And one announced now.
	var made map[string]string
	if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": "New Cup", "clock": ClockRequest{Seconds: 300}}, &made); code != 201 {
		t.Fatalf("announce: %d", code)
	}
	state := func(id string) string {
		d, _, err := e.srv.loadTournament(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return d.State
	}
	waitFor(t, "the old tournament cancelled", func() bool { return state("00000000000000e1") == "cancelled" })
	if s := state("00000000000000e2"); s != "playing" {
		t.Errorf("the tournament being played is %s", s)
	}
	if s := state(made["id"]); s != "registering" {
		t.Errorf("the new tournament is %s", s)
	}
}

// TestTournamentsPaged: with the unfinished tournaments read from the
// store a few at a time, the sweep still reaches the last page (a
// registration that ran out there is cancelled) and a director's count
// takes in every page (the limit of tournaments directed at once holds).
func TestTournamentsPaged(t *testing.T) {
	st := newStore(t)
	cfg := testConfig(st)
	cfg.TournamentSweep = 20 * time.Millisecond
	cfg.TournamentRegistration = time.Hour
	cfg.openPage = 2
	e := newEnvConfig(t, cfg)
	dir := browser(t)
	e.signUp(dir, "Director", "correct horse")
	put := func(id, director, state string, created time.Time) {
		t.Helper()
		d := tournamentDoc{TournamentRequest: TournamentRequest{Name: "Cup " + id, Variant: "english", Lexicon: "en-sowpods",
			Clock: &ClockRequest{Seconds: 300}, Format: "swiss", Rounds: 1, MaxPlayers: 4},
			Director: director, DirectorKey: AccountKey(director), State: state, Created: created}
		data, err := json.Marshal(&d)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateTournament(context.Background(), &store.Tournament{ID: id, Data: string(data), Created: created, Updated: created}, store.TournamentLimit{}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC()
	// Five started two days ago, three of them the Director's, on the
	// first three pages; then one by another director whose
	// registration ran out, alone on the last page.
	for i, who := range []string{"Other", "Director", "Other", "Director", "Director"} {
		put(fmt.Sprintf("00000000000000a%d", i), who, "playing", now.Add(-48*time.Hour+time.Duration(i)*time.Minute))
	}
	put("00000000000000b0", "Other", "registering", now.Add(-24*time.Hour))
	var made map[string]string
	if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": "One Too Many", "clock": ClockRequest{Seconds: 300}}, &made); code != 409 {
		t.Errorf("a fourth tournament directed at once: %d, want 409", code)
	}
	waitFor(t, "the expired registration on the last page cancelled", func() bool {
		d, _, err := e.srv.loadTournament(context.Background(), "00000000000000b0")
		return err == nil && d.State == "cancelled"
	})
}

// TestRoundRobinByeOfWithdrawn pairs the rounds of a round robin of
// three in which a player withdrew: the bye of a round of the player
// who left is no win for them, and the round's game of the others is
// made as usual.
func TestRoundRobinByeOfWithdrawn(t *testing.T) {
	d := tournamentDoc{TournamentRequest: TournamentRequest{Format: "round-robin", Rounds: 3}, State: "playing",
		Players: []tPlayer{{Name: "Ada"}, {Name: "Bea"}, {Name: "Cid"}}}
	d.pairNext() // round 1: Ada has the bye
	for k := range d.Played[0] {
		d.Played[0][k].Done = true
	}
	d.Players[1].Left = 1 // Bea leaves after round 1
	d.pairNext()          // round 2: Bea has the bye
	for _, g := range d.Played[1] {
		if g.First == 1 && g.Wins[0] > 0 {
			t.Errorf("round 2: Bea, who withdrew, gets %+v", g)
		}
		if g.First != 1 && g.Second != 1 && (g.Game == "" || g.Done) {
			t.Errorf("round 2: the game of the players still in is not made: %+v", g)
		}
	}
	for k := range d.Played[1] {
		d.Played[1][k].Done = true
	}
	for _, s := range d.info("x", nil).Standings {
		if s.Name == "Bea" && s.Wins != 0 {
			t.Errorf("Bea, who withdrew and lost her game, has %v wins: %+v", s.Wins, s)
		}
	}
}
