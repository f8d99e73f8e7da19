package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// recordAnasGames records, as finished rated games record them, 25
// rapid games of Ana against Bob in en-sowpods, one an hour from start (she
// wins when i%3 != 0, 400 + i to 380), then a draw with Cyd (300 to 300);
// ratings start at 1500 and move by 10 a game. The last five against Bob
// (i = 20 to 24) record her play: 12 turns, a bingo when i is odd, a
// best placement of 60 + i points but 100 for i = 22; the first four of
// them (i = 20 to 23) have their moves analysed.
func recordAnasGames(t *testing.T, st store.Store, start time.Time) {
	t.Helper()
	rate := func(before []store.Rating, g *store.RatedGame) []store.Rating {
		after := make([]store.Rating, len(before))
		for i := range before {
			if before[i].Games == 0 {
				before[i].R, before[i].RD, before[i].Vol = 1500, 350, 0.06
			}
			a := before[i]
			a.R += 20*g.Seats[i].Result - 10
			a.RD = max(60, a.RD-15)
			a.Games++
			switch g.Seats[i].Result {
			case 1:
				a.Wins++
			case 0:
				a.Losses++
			default:
				a.Draws++
			}
			after[i] = a
		}
		return after
	}
	record := func(id, opp string, at time.Time, score, oppScore int, result float64, play store.RatedSeat) {
		g := &store.RatedGame{Game: id, Category: "en-sowpods/" + PaceRapid, Finished: at, Seats: []store.RatedSeat{
			{Seat: 0, Account: AccountKey("Ana"), Name: "Ana", Score: score, Result: result, Turns: play.Turns, Bingos: play.Bingos, Best: play.Best},
			{Seat: 1, Account: AccountKey(opp), Name: opp, Score: oppScore, Result: 1 - result}}}
		if _, err := st.RateGame(context.Background(), g, func(b []store.Rating) ([]store.Rating, error) { return rate(b, g), nil }); err != nil {
			t.Fatal(err)
		}
		if play.Analysed > 0 {
			g.Seats[0].Analysed, g.Seats[0].TopMoves, g.Seats[0].Lost = play.Analysed, play.TopMoves, play.Lost
			g.Seats[1].Analysed, g.Seats[1].TopMoves, g.Seats[1].Lost = 12, 3, 60
			if err := st.SetAccuracy(context.Background(), g); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 25 {
		res := 1.0
		if i%3 == 0 {
			res = 0
		}
		var play store.RatedSeat
		if i >= 20 {
			play = store.RatedSeat{Turns: 12, Bingos: i % 2, Best: 60 + i}
			if i < 24 {
				// Four of them analysed: 5, 6, 7 and 8 moves of 12 the
				// computer's top choice, 30 points of equity given up
				// in each.
				play.Analysed, play.TopMoves, play.Lost = 12, i-15, 30
			}
			if i == 22 {
				play.Best = 100
			}
		}
		record(fmt.Sprintf("%016x", i+1), "Bob", start.Add(time.Duration(i)*time.Hour), 400+i, 380, res, play)
	}
	record(fmt.Sprintf("%016x", 100), "Cyd", start.Add(30*time.Hour), 300, 300, 0.5, store.RatedSeat{})
}

// TestPlayerGames checks a player's games by pages and filters, and the
// statistics with the rating history: the games are recorded in the
// store as a finished rated game records them.
func TestPlayerGames(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo, cy := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bob", "battery staple")
	e.signUp(cy, "Cyd", "staple battery")
	start := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	recordAnasGames(t, e.st, start)

	// Pages of 10, newest first, then the filters.
	var ids []string
	before := ""
	for page := 0; ; page++ {
		var pg PlayerGames
		if code := e.do("GET", "/api/players/ana/games?n=10"+before, "", nil, &pg); code != 200 || page > 3 {
			t.Fatalf("page %d: %d", page, code)
		}
		for _, g := range pg.Games {
			ids = append(ids, g.ID)
		}
		if !pg.More {
			break
		}
		before = "&before=" + pg.Games[len(pg.Games)-1].ID
	}
	if len(ids) != 26 || ids[0] != fmt.Sprintf("%016x", 100) || ids[1] != fmt.Sprintf("%016x", 25) || ids[25] != fmt.Sprintf("%016x", 1) {
		t.Errorf("Ana's games by pages: %v", ids)
	}
	var pg PlayerGames
	if code := e.do("GET", "/api/players/Cyd/games?opponent=ANA", "", nil, &pg); code != 200 || len(pg.Games) != 1 || pg.More ||
		pg.Games[0].Seats[1].Name != "Cyd" || pg.Games[0].Seats[1].After != 1500 {
		t.Errorf("Cy's games against Ana: %d %+v", code, pg)
	}

	var st PlayerStats
	if code := e.do("GET", "/api/players/ana/stats?lexicon=en-sowpods&pace=rapid", "", nil, &st); code != 200 || st.Lexicon != "en-sowpods" || st.Pace != PaceRapid {
		t.Fatalf("stats: %d %+v", code, st)
	}
	// 25 games against Bo: 9 lost (i = 0, 3, ..., 24), 16 won; points
	// 400·25 + 300 + (0+...+24) = 10600 over 26 games.
	if st.Games != 26 || st.Wins != 16 || st.Losses != 9 || st.Draws != 1 || st.Average != 407.7 || st.OpponentAverage != 376.9 ||
		st.High == nil || st.High.Score != 424 || st.High.Game != fmt.Sprintf("%016x", 25) {
		t.Errorf("Ana's stats: %+v", st)
	}
	// Her play, over the five games that record it: (420+...+424) /
	// 60 turns = 35.17 points a turn, 2 bingos in 5 games.
	if st.PlayGames != 5 || st.PerTurn != 35.2 || st.BingosPerGame != 0.4 || st.Best == nil || st.Best.Score != 100 || st.Best.Game != fmt.Sprintf("%016x", 23) {
		t.Errorf("Ana's play: %d games, %v a turn, %v bingos a game, best %+v", st.PlayGames, st.PerTurn, st.BingosPerGame, st.Best)
	}
	// Four of them analysed: 26 of 48 moves the top choice, 120 points
	// given up.
	if st.AnalysedGames != 4 || st.Analysed != 48 || st.TopShare != 54.2 || st.LostPerMove != 2.5 {
		t.Errorf("Ana's analysed moves: %d games, %d moves, %v%% top, %v lost a move", st.AnalysedGames, st.Analysed, st.TopShare, st.LostPerMove)
	}
	// Game by game, oldest first.
	var acc []string
	for _, p := range st.Accuracy {
		acc = append(acc, fmt.Sprintf("%s:%d:%d:%v:%v:%v", p.Game, p.Moves, p.TopMoves, p.TopShare, p.Lost, p.LostPerMove))
	}
	if want := fmt.Sprintf("[%016x:12:5:41.7:30:2.5 %016x:12:6:50:30:2.5 %016x:12:7:58.3:30:2.5 %016x:12:8:66.7:30:2.5]", 21, 22, 23, 24); fmt.Sprint(acc) != want {
		t.Errorf("Ana's accuracy game by game: %v, want %s", acc, want)
	}
	if len(st.History) != 26 || st.History[0].Rating != 1490 || st.History[25].Rating != 1500+16*10-9*10 ||
		st.History[25].Game != fmt.Sprintf("%016x", 100) || !st.History[0].Finished.Equal(start) {
		t.Errorf("Ana's rating history: %d points, %+v ... %+v", len(st.History), st.History[0], st.History[len(st.History)-1])
	}
	// Her rated games alone (all of these are): the same graphs, from
	// one read of her games.
	var rated PlayerStats
	if code := e.do("GET", "/api/players/ana/stats?lexicon=en-sowpods&pace=rapid&kind=rated", "", nil, &rated); code != 200 ||
		!reflect.DeepEqual(rated.History, st.History) || !reflect.DeepEqual(rated.Accuracy, st.Accuracy) {
		t.Errorf("Ana's rated games' graphs: %d\n%+v\n%+v\nwant\n%+v\n%+v", code, rated.History, rated.Accuracy, st.History, st.Accuracy)
	}
	// The word list's games of every pace add up the same, with no
	// graph across paces; none is blitz.
	all := PlayerStats{}
	if code := e.do("GET", "/api/players/ana/stats?lexicon=en-sowpods", "", nil, &all); code != 200 || all.Games != 26 || all.Wins != 16 || all.History != nil {
		t.Errorf("Ana's stats in every pace: %d %+v", code, all)
	}
	if code := e.do("GET", "/api/players/ana/stats?lexicon=en-sowpods&pace=blitz", "", nil, &all); code != 200 || all.Games != 0 || all.History != nil {
		t.Errorf("Ana's blitz stats: %d %+v", code, all)
	}
	st = PlayerStats{}
	if code := e.do("GET", "/api/players/bob/stats?opponent=Ana", "", nil, &st); code != 200 || st.Games != 25 || st.Wins != 9 || st.Losses != 16 ||
		st.Average != 380 || st.History != nil || st.Opponent != "Ana" {
		t.Errorf("Bo's stats against Ana: %d %+v", code, st)
	}
	st = PlayerStats{}
	if code := e.do("GET", "/api/players/cyd/stats?opponent=Bob", "", nil, &st); code != 200 || st.Games != 0 || st.High != nil || st.Average != 0 ||
		st.PlayGames != 0 || st.Best != nil {
		t.Errorf("Cy's stats against Bo: %d %+v", code, st)
	}

	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/api/players/nobody/games", 404, "no player is called"},
		{"/api/players/nobody/stats", 404, "no player is called"},
		{"/api/players/ana/games?lexicon=xx-none", 400, `word list "xx-none" is not offered`},
		{"/api/players/ana/stats?lexicon=xx-none", 400, `word list "xx-none" is not offered`},
		{"/api/players/ana/stats?lexicon=en-sowpods&pace=slow", 400, "pace=slow: want one of blitz, rapid, regular, correspondence"},
		{"/api/players/ana/games?pace=rapid", 400, "pace= goes with lexicon="},
		{"/api/players/ana/games?opponent=Nobody", 404, `no player is named "Nobody"`},
		{"/api/players/ana/games?n=0", 400, "n=0: want 1 to 100"},
		{"/api/players/ana/games?n=101", 400, "n=101"},
		{"/api/players/ana/games?before=ffffffffffffffff", 400, "before=ffffffffffffffff: not a finished game of Ana"},
		{"/api/players/cyd/games?before=" + fmt.Sprintf("%016x", 3), 400, "not a finished game of Cyd"},
	} {
		var eb errorBody
		if code := e.do("GET", tc.path, "", nil, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("GET %s: %d %q, want %d %q", tc.path, code, eb.Error, tc.code, tc.want)
		}
	}
}

// TestCasualGamesListed checks that every finished game an account held
// a seat of is recorded for its page, rated or not, against the computer
// or people: listed by kind with the seats' levels and guests, added up
// by kind, while games called off and games without an account are not
// recorded at all.
func TestCasualGamesListed(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bob", "battery staple")
	join := func(c *http.Client, id string) string {
		t.Helper()
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join %s: %d", id, code)
		}
		return j.Token
	}
	// Ana resigns to the computer; Bob resigns to Ana and a guest in a
	// game of three; a guest resigns to the computer; Ana calls one off.
	vsComputer := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "adept"})
	if code := e.do("POST", "/api/games/"+vsComputer+"/resign", join(ana, vsComputer), nil, nil); code != 200 {
		t.Fatalf("Ana resigns: %d", code)
	}
	three := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	bobTok := join(bo, three)
	join(ana, three)
	var guest JoinResponse
	if code := e.do("POST", "/api/games/"+three+"/join", "", map[string]string{"name": "Visitor"}, &guest); code != 200 {
		t.Fatalf("the guest joins: %d", code)
	}
	if code := e.do("POST", "/api/games/"+three+"/resign", bobTok, nil, nil); code != 200 {
		t.Fatalf("Bob resigns: %d", code)
	}
	guests := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "adept"})
	var gj JoinResponse
	if code := e.do("POST", "/api/games/"+guests+"/join", "", map[string]string{"name": "Nobody"}, &gj); code != 200 {
		t.Fatalf("a guest joins: %d", code)
	}
	if code := e.do("POST", "/api/games/"+guests+"/resign", gj.Token, nil, nil); code != 200 {
		t.Fatalf("the guest resigns: %d", code)
	}
	off := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "adept"})
	if code := e.do("POST", "/api/games/"+off+"/abort", join(ana, off), nil, nil); code != 200 {
		t.Fatalf("Ana calls a game off: %d", code)
	}
	for _, id := range []string{guests, off} {
		if g, err := e.st.RatedGame(context.Background(), id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("game %s recorded: %+v, %v", id, g, err)
		}
	}

	var pg PlayerGames
	if code := e.do("GET", "/api/players/ana/games", "", nil, &pg); code != 200 || len(pg.Games) != 2 || pg.More {
		t.Fatalf("Ana's games: %d %+v", code, pg)
	}
	g3, gc := pg.Games[0], pg.Games[1]
	if g3.ID != three || g3.Rated || len(g3.Seats) != 3 || g3.Seats[0].Name != "Bob" || g3.Seats[0].Result != 0 ||
		g3.Seats[1].Result != 0.5 || g3.Seats[2].Name != "Visitor" || !g3.Seats[2].Guest || g3.Seats[0].Guest || g3.Seats[1].After != 0 {
		t.Errorf("the game of three: %+v", g3)
	}
	if gc.ID != vsComputer || gc.Rated || gc.Seats[1].Level != "adept" || gc.Seats[1].Guest || gc.Seats[0].Result != 0 || gc.Seats[1].Result != 1 {
		t.Errorf("the game against the computer: %+v", gc)
	}
	for _, c := range []struct {
		q           string
		games, wins int
		draws       int
	}{{"", 2, 0, 1}, {"kind=casual", 2, 0, 1}, {"kind=all&opponent=bob", 1, 0, 1}, {"kind=rated", 0, 0, 0},
		{"level=adept", 1, 0, 0}, {"level=inhuman", 0, 0, 0}} {
		var list PlayerGames
		var stats PlayerStats
		if code := e.do("GET", "/api/players/ana/games?"+c.q, "", nil, &list); code != 200 || len(list.Games) != c.games {
			t.Errorf("games?%s: %d, %d games, want %d", c.q, code, len(list.Games), c.games)
		}
		if code := e.do("GET", "/api/players/ana/stats?"+c.q, "", nil, &stats); code != 200 || stats.Games != c.games || stats.Wins != c.wins || stats.Draws != c.draws {
			t.Errorf("stats?%s: %d %+v", c.q, code, stats)
		}
		if strings.HasPrefix(c.q, "level=") && stats.Level != strings.TrimPrefix(c.q, "level=") {
			t.Errorf("stats?%s: level %q", c.q, stats.Level)
		}
	}
	for _, c := range []struct{ q, want string }{
		{"level=grandmaster", "level=grandmaster: want one of adept, amateur"},
		{"level=adept&opponent=bob", "give opponent= or level=, not both"},
	} {
		var eb errorBody
		if code := e.do("GET", "/api/players/ana/stats?"+c.q, "", nil, &eb); code != 400 || !strings.Contains(eb.Error, c.want) {
			t.Errorf("stats?%s: %d %q, want 400 %q", c.q, code, eb.Error, c.want)
		}
	}
	// Her page sums up her games against the computer, level by level.
	var p Profile
	if code := e.do("GET", "/api/players/ana", "", nil, &p); code != 200 || len(p.Computer) != 1 ||
		p.Computer[0] != (LevelStats{Level: "adept", Games: 1, Losses: 1, Average: float64(gc.Seats[0].Score), ComputerAverage: float64(gc.Seats[1].Score)}) {
		t.Errorf("Ana's games against the computer: %d %+v", code, p.Computer)
	}
	p = Profile{}
	if code := e.do("GET", "/api/players/bob", "", nil, &p); code != 200 || p.Computer == nil || len(p.Computer) != 0 {
		t.Errorf("Bob's games against the computer: %d %+v, want none", code, p.Computer)
	}
	if code := e.do("GET", "/api/players/bob/games?kind=casual", "", nil, &pg); code != 200 || len(pg.Games) != 1 || pg.Games[0].ID != three {
		t.Errorf("Bob's casual games: %d %+v", code, pg)
	}
	var out struct{ Error string }
	if code := e.do("GET", "/api/players/ana/games?kind=friendly", "", nil, &out); code != 400 || out.Error != "kind=friendly: want all, rated or casual" {
		t.Errorf("kind=friendly: %d %q", code, out.Error)
	}
}

// TestPlayStats: a finished game records how each seat played (turns,
// bingos, best placement), which the player's games list and stats
// give: points a turn, bingos a game, the game of the best placement.
func TestPlayStats(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bob", "battery staple")
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	var toks [2]string
	for i, c := range []*http.Client{ana, bo} {
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		toks[i] = j.Token
	}
	// Ten turns each, the best placement or a pass; then Bob resigns.
	for k := 0; k < 20; k++ {
		st := e.state(id, toks[k%2])
		if st.Over {
			break
		}
		req, _ := bestRequest(t, st)
		if k == 2 {
			req = map[string]any{"kind": "pass"}
		}
		if code := e.do("POST", "/api/games/"+id+"/move", toks[k%2], req, nil); code != 200 {
			t.Fatalf("move %d: %d", k, code)
		}
	}
	if st := e.state(id, ""); !st.Over {
		if code := e.do("POST", "/api/games/"+id+"/resign", toks[1], nil, nil); code != 200 {
			t.Fatalf("Bob resigns: %d", code)
		}
	}
	st := e.state(id, "")
	var turns, best [2]int
	for _, h := range st.History {
		switch h.Kind {
		case "place":
			best[h.Seat] = max(best[h.Seat], h.Points)
			turns[h.Seat]++
		case "pass", "exchange":
			turns[h.Seat]++
		}
	}
	if turns[0] < 5 || best[0] == 0 || best[1] == 0 {
		t.Fatalf("the game played: turns %v, best placements %v", turns, best)
	}
	var pg PlayerGames
	if code := e.do("GET", "/api/players/ana/games", "", nil, &pg); code != 200 || len(pg.Games) != 1 {
		t.Fatalf("Ana's games: %d %+v", code, pg)
	}
	for i, s := range pg.Games[0].Seats {
		// The test's word list has no word of seven letters: no bingo.
		if s.Turns != turns[i] || s.Best != best[i] || s.Bingos != 0 || s.Score != st.Seats[i].Score {
			t.Errorf("seat %d as listed: %+v; want %d turns, best %d, score %d", i, s, turns[i], best[i], st.Seats[i].Score)
		}
	}
	var stats PlayerStats
	if code := e.do("GET", "/api/players/bob/stats", "", nil, &stats); code != 200 {
		t.Fatalf("Bob's stats: %d", code)
	}
	perTurn := float64(roundInt(10*float64(st.Seats[1].Score)/float64(turns[1]))) / 10
	if stats.PlayGames != 1 || stats.PerTurn != perTurn || stats.BingosPerGame != 0 || stats.Best == nil ||
		stats.Best.Score != best[1] || stats.Best.Game != id {
		t.Errorf("Bob's stats: %+v (best %+v); want %.1f points a turn, best %d in %s", stats, stats.Best, perTurn, best[1], id)
	}
}

// TestCountPlay: games finished before the server counted the seats'
// play, a casual one never recorded and one recorded without its play,
// get their records from a replay; a game called off stays unrecorded.
func TestCountPlay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := newEnv(t, st)
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	// Three games against the computer: Ana plays, passes twice and
	// resigns in the first two, and calls the third off.
	var ids []string
	for k := range 3 {
		id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
		var j JoinResponse
		if code := e.doWith(ana, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		if k == 2 {
			if code := e.do("POST", "/api/games/"+id+"/abort", j.Token, nil, nil); code != 200 {
				t.Fatalf("abort: %d", code)
			}
			continue
		}
		ids = append(ids, id)
		for turn := range 3 {
			waitFor(t, "Ana's turn", func() bool { s := e.state(id, j.Token); return s.Turn == 0 && s.Moves == 2*turn })
			req, _ := bestRequest(t, e.state(id, j.Token))
			if turn > 0 {
				req = map[string]any{"kind": "pass"}
			}
			if code := e.do("POST", "/api/games/"+id+"/move", j.Token, req, nil); code != 200 {
				t.Fatalf("move: %d", code)
			}
		}
		if code := e.do("POST", "/api/games/"+id+"/resign", j.Token, nil, nil); code != 200 {
			t.Fatalf("resign: %d", code)
		}
	}
	want := make([]store.RatedSeat, 2)
	for i, id := range ids {
		waitAnalysed(t, st, id)
		g, err := st.RatedGame(context.Background(), id)
		if err != nil || g.Seats[0].Turns != 3 || g.Seats[0].Best == 0 {
			t.Fatalf("game %s as recorded: %+v, %v", id, g, err)
		}
		want[i] = g.Seats[0]
	}
	// As an earlier version left them: the first not recorded, the
	// second without the play or its analysis.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`DELETE FROM rated_seats WHERE game = ?`, `DELETE FROM rated_games WHERE game = ?`} {
		if _, err := db.Exec(q, ids[0]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`UPDATE rated_seats SET turns = 0, bingos = 0, best_move = 0, analysed = 0, top_moves = 0, lost = 0 WHERE game = ?`, ids[1]); err != nil {
		t.Fatal(err)
	}
	pc, err := e.srv.CountPlay(context.Background())
	if err != nil || pc != (PlayCount{Replayed: 3, Recorded: 1, Filled: 1, Left: 1, Analysed: 2}) {
		t.Errorf("CountPlay: %+v, %v", pc, err)
	}
	for i, id := range ids {
		if g, err := st.RatedGame(context.Background(), id); err != nil || g.Seats[0] != want[i] {
			t.Errorf("game %s after CountPlay: %+v, %v; want Ana's seat %+v", id, g, err, want[i])
		}
	}
	if pc, err := e.srv.CountPlay(context.Background()); err != nil || pc != (PlayCount{Replayed: 1, Left: 1}) {
		t.Errorf("CountPlay again: %+v, %v", pc, err)
	}
}
