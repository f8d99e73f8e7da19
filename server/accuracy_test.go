package server

import (
	"context"
	"testing"

	"atril/store"
)

// waitAnalysed waits until the moves of the recorded game id are
// analysed: every account's seat that took a turn has its analysis.
func waitAnalysed(t *testing.T, st store.Store, id string) {
	t.Helper()
	waitFor(t, "game "+id+" analysed", func() bool {
		g, err := st.RatedGame(context.Background(), id)
		if err != nil {
			return false
		}
		for _, s := range g.Seats {
			if s.Account != "" && s.Turns > 0 && s.Analysed == 0 {
				return false
			}
		}
		return true
	})
}

// TestAccuracy checks the analysis of a finished game's moves: a game
// between two accounts, one playing the highest-scoring move and
// the other passing, is analysed once it ends; the store keeps, seat by
// seat, what the game's summary says (moves, best moves, equity given
// up), the game lists and the player's statistics show it, and the
// passes were not all the best.
func TestAccuracy(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bob := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bob, "Bob", "battery staple")
	body := map[string]any{"variant": "english", "lexicon": "en-sowpods", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}},
		"seed": 42}
	var cr CreateResponse
	if code := e.doWith(ana, "POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id := cr.ID
	var ja, jb JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+id+"/join", "", map[string]any{"seat": 0}, &ja); code != 200 {
		t.Fatalf("Ana joins: %d", code)
	}
	if code := e.doWith(bob, "POST", "/api/games/"+id+"/join", "", map[string]any{"seat": 1}, &jb); code != 200 {
		t.Fatalf("Bob joins: %d", code)
	}
	tokens := []string{ja.Token, jb.Token}
	for k := range 6 {
		st := e.state(id, tokens[k%2])
		if st.Turn != k%2 {
			t.Fatalf("move %d: seat %d on turn", k, st.Turn)
		}
		req := map[string]any{"kind": "pass"}
		if k%2 == 0 {
			req, _ = bestRequest(t, st)
		}
		if code := e.do("POST", "/api/games/"+id+"/move", tokens[k%2], req, nil); code != 200 {
			t.Fatalf("move %d: %d", k, code)
		}
	}
	if code := e.do("POST", "/api/games/"+id+"/resign", jb.Token, nil, nil); code != 200 {
		t.Fatalf("Bob resigns: %d", code)
	}
	waitAnalysed(t, e.st, id)
	g, err := e.st.RatedGame(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var sum Summary
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &sum); code != 200 || len(sum.Seats) != 2 {
		t.Fatalf("summary: %d %+v", code, sum)
	}
	for i, s := range g.Seats {
		ss := sum.Seats[i]
		if s.Analysed != 3 || s.Analysed != ss.Moves || s.TopMoves != ss.Best || s.Lost != ss.Lost {
			t.Errorf("seat %d as recorded: %d moves, %d best, %.2f lost; the summary says %d, %d, %.2f; want 3 moves",
				i, s.Analysed, s.TopMoves, s.Lost, ss.Moves, ss.Best, ss.Lost)
		}
	}
	// (How much a pass gives up depends on the rack: on the tests' word
	// list of short words, as little as a high-scoring play that breaks
	// up a good leave. Three passes from a full bag are not all best.)
	if g.Seats[1].TopMoves == 3 || g.Seats[1].Lost <= 0 {
		t.Errorf("Bob passed three times: %d of them the best, %.2f given up", g.Seats[1].TopMoves, g.Seats[1].Lost)
	}
	for i, name := range []string{"Ana", "Bob"} {
		s := g.Seats[i]
		var ps PlayerStats
		if code := e.do("GET", "/api/players/"+name+"/stats", "", nil, &ps); code != 200 {
			t.Fatalf("%s's stats: %d", name, code)
		}
		share := tenths(100 * float64(s.TopMoves) / 3)
		if ps.AnalysedGames != 1 || ps.Analysed != 3 || ps.TopShare != share || ps.LostPerMove != tenths(s.Lost/3) {
			t.Errorf("%s's stats: %+v; want 1 game, 3 moves, %.1f%% best, %.1f lost a move", name, ps, share, tenths(s.Lost/3))
		}
		var pg PlayerGames
		if code := e.do("GET", "/api/players/"+name+"/games", "", nil, &pg); code != 200 || len(pg.Games) != 1 {
			t.Fatalf("%s's games: %d %+v", name, code, pg)
		}
		if got := pg.Games[0].Seats[i]; got.Analysed != 3 || got.TopMoves != s.TopMoves || got.Lost != s.Lost {
			t.Errorf("%s's seat in the game list: %+v", name, got)
		}
	}
	// The operators see it in the metrics.
	m := readMetrics(t, e)
	if n, ok := m["atril_game_analysis_seconds_count"]; !ok || n != 1 {
		t.Errorf("atril_game_analysis_seconds_count: %v (reported %v), want 1", n, ok)
	}
	if n, ok := m["atril_game_analysis_failures_total"]; !ok || n != 0 {
		t.Errorf("atril_game_analysis_failures_total: %v (reported %v), want 0", n, ok)
	}
}
