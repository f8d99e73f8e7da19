// Package storetest is the test suite every store.Store implementation
// must pass.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"atril/store"
)

// Run runs the suite. open returns a fresh, empty store; prefix makes the
// game ids of this run unique (for databases shared between runs). Every
// game the suite makes is marked finished at the end, so a shared
// database holds no unfinished test game for a server to rebuild.
func Run(t *testing.T, open func(t *testing.T) store.Store, prefix string) {
	ctx := context.Background()
	open0 := open
	open = func(t *testing.T) store.Store {
		s := open0(t)
		t.Cleanup(func() {
			ids, err := s.Unfinished(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			for _, id := range ids {
				if strings.HasPrefix(id, prefix) {
					s.Finish(ctx, id)
				}
			}
		})
		return s
	}
	newGame := func(id string) *store.Game {
		return &store.Game{ID: prefix + id, Variant: "english", Lexicon: "en-sowpods", Seed: 1<<63 + 12345,
			Seats:   []store.Seat{{Name: "Ana"}, {Name: "Bot", Level: "professional"}},
			Created: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)}
	}
	t.Run("Accounts", func(t *testing.T) { accounts(t, open(t), prefix) })
	t.Run("tournaments", func(t *testing.T) { tournaments(t, open(t), prefix) })
	t.Run("LobbyChat", func(t *testing.T) { lobbyChat(t, open(t), prefix) })
	t.Run("Rerate", func(t *testing.T) { rerating(t, open(t), prefix) })
	t.Run("Bios", func(t *testing.T) { bios(t, open(t), prefix) })
	t.Run("Settings", func(t *testing.T) { settings(t, open(t), prefix) })
	t.Run("Push", func(t *testing.T) { push(t, open(t), prefix) })
	t.Run("Passkeys", func(t *testing.T) { passkeys(t, open(t), prefix) })
	t.Run("RecoveryCodes", func(t *testing.T) { recoveryCodes(t, open(t), prefix) })
	t.Run("Endgames", func(t *testing.T) { endgames(t, open(t), prefix) })
	t.Run("RatedAgainstComputer", func(t *testing.T) { ratedAgainstComputer(t, open(t), prefix) })
	t.Run("LevelTotals", func(t *testing.T) { levelTotals(t, open(t), prefix) })
	t.Run("Accuracy", func(t *testing.T) { accuracy(t, open(t), prefix) })
	t.Run("Rushes", func(t *testing.T) { rushes(t, open(t), prefix) })
	t.Run("Messages", func(t *testing.T) { messages(t, open(t), prefix) })
	t.Run("Watchers", func(t *testing.T) { gameWatchers(t, open(t), prefix) })
	t.Run("Limits", func(t *testing.T) { limits(t, open(t), prefix) })
	t.Run("ByteOrder", func(t *testing.T) { byteOrder(t, open(t), prefix) })
	t.Run("RoundTrip", func(t *testing.T) {
		s := open(t)
		g := newGame("rt")
		g.Challenge = "double"
		g.Rated = true
		g.Tournament = `{"id":"t1","round":2}`
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		evs := []store.Event{
			{Seq: 0, Kind: "join", Data: `{"seat":0}`},
			{Seq: 1, Kind: "move", Data: `{"kind":"pass","text":"ñandú \"x\""}`},
		}
		for _, e := range evs {
			e.Time = time.Unix(100, 0).UTC()
			if err := s.Append(ctx, g.ID, e); err != nil {
				t.Fatal(err)
			}
		}
		got, gotEvs, err := s.Load(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != g.ID || got.Variant != g.Variant || got.Lexicon != g.Lexicon || got.Seed != g.Seed ||
			!got.Created.Equal(g.Created) || got.Finished || fmt.Sprint(got.Seats) != fmt.Sprint(g.Seats) ||
			got.Challenge != "double" || !got.Rated || got.Tournament != g.Tournament {
			t.Errorf("header: got %+v, want %+v", got, g)
		}
		if len(gotEvs) != len(evs) {
			t.Fatalf("got %d events, want %d", len(gotEvs), len(evs))
		}
		for i, e := range gotEvs {
			if e.Seq != evs[i].Seq || e.Kind != evs[i].Kind || e.Data != evs[i].Data || !e.Time.Equal(time.Unix(100, 0)) {
				t.Errorf("event %d: got %+v, want %+v", i, e, evs[i])
			}
		}
	})
	t.Run("Conflicts", func(t *testing.T) {
		s := open(t)
		g := newGame("cf")
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateGame(ctx, g); !errors.Is(err, store.ErrConflict) {
			t.Errorf("second create: got %v, want ErrConflict", err)
		}
		if err := s.Append(ctx, g.ID, store.Event{Seq: 1, Kind: "move", Data: "{}"}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("gap: got %v, want ErrConflict", err)
		}
		if err := s.Append(ctx, g.ID, store.Event{Seq: 0, Kind: "move", Data: "{}"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, g.ID, store.Event{Seq: 0, Kind: "move", Data: "{}"}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate: got %v, want ErrConflict", err)
		}
		if err := s.Append(ctx, prefix+"nope", store.Event{Seq: 0, Kind: "move", Data: "{}"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown game: got %v, want ErrNotFound", err)
		}
		if _, _, err := s.Load(ctx, prefix+"nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("load unknown: got %v, want ErrNotFound", err)
		}
		if err := s.Finish(ctx, prefix+"nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("finish unknown: got %v, want ErrNotFound", err)
		}
		_, evs, err := s.Load(ctx, g.ID)
		if err != nil || len(evs) != 1 {
			t.Errorf("after conflicts: %d events, %v; want 1", len(evs), err)
		}
	})
	t.Run("CreateFinishedGame", func(t *testing.T) {
		s := open(t)
		taken := newGame("fg-taken")
		if err := s.CreateGame(ctx, taken); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, taken.ID, store.Event{Seq: 0, Kind: "join", Data: "{}"}); err != nil {
			t.Fatal(err)
		}
		at := time.Unix(300, 0).UTC()
		ev := func(seq int) store.Event {
			return store.Event{Seq: seq, Kind: "import", Data: fmt.Sprintf(`{"n":%d}`, seq), Time: at}
		}
		// Each refusal comes once the header is written, or at it: none
		// leaves anything of the game.
		for _, c := range []struct {
			name string
			id   string
			evs  []store.Event
		}{
			{"a gap in the log", "fg-gap", []store.Event{ev(0), ev(2)}},
			{"a number twice", "fg-twice", []store.Event{ev(0), ev(1), ev(1)}},
			{"a log not from 0", "fg-late", []store.Event{ev(1)}},
			{"an id taken", "fg-taken", []store.Event{ev(0)}},
		} {
			g := newGame(c.id)
			if err := s.CreateFinishedGame(ctx, g, c.evs); !errors.Is(err, store.ErrConflict) {
				t.Errorf("%s: %v, want ErrConflict", c.name, err)
			}
			if c.id == "fg-taken" {
				if got, evs, err := s.Load(ctx, taken.ID); err != nil || got.Finished || len(evs) != 1 || evs[0].Kind != "join" {
					t.Errorf("%s: the game there is now %+v with %d events, %v; want it as it was", c.name, got, len(evs), err)
				}
				continue
			}
			if _, _, err := s.Load(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: the game was left in the store (%v)", c.name, err)
			}
		}
		g := newGame("fg")
		evs := []store.Event{ev(0), ev(1)}
		if err := s.CreateFinishedGame(ctx, g, evs); err != nil {
			t.Fatal(err)
		}
		got, gotEvs, err := s.Load(ctx, g.ID)
		if err != nil || !got.Finished || !g.Finished || got.Variant != g.Variant || fmt.Sprint(got.Seats) != fmt.Sprint(g.Seats) ||
			fmt.Sprint(gotEvs) != fmt.Sprint(evs) {
			t.Errorf("the game stored: %+v %+v, %v; want %+v finished, %+v", got, gotEvs, err, g, evs)
		}
		ids, err := s.Unfinished(ctx)
		if err != nil || slices.Contains(ids, g.ID) {
			t.Errorf("unfinished games: %v, %v; want the game left out", ids, err)
		}
	})
	t.Run("Unfinished", func(t *testing.T) {
		s := open(t)
		for i, id := range []string{"u1", "u2", "u3"} {
			g := newGame(id)
			g.Created = g.Created.Add(time.Duration(i) * time.Second)
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Finish(ctx, prefix+"u2"); err != nil {
			t.Fatal(err)
		}
		ids, err := s.Unfinished(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var mine []string
		for _, id := range ids {
			if id == prefix+"u1" || id == prefix+"u2" || id == prefix+"u3" {
				mine = append(mine, id)
			}
		}
		if fmt.Sprint(mine) != fmt.Sprint([]string{prefix + "u1", prefix + "u3"}) {
			t.Errorf("unfinished: got %v", mine)
		}
		g, _, err := s.Load(ctx, prefix+"u2")
		if err != nil || !g.Finished {
			t.Errorf("finished game loads as %+v, %v", g, err)
		}
	})
	t.Run("Play", func(t *testing.T) {
		s := open(t)
		now := time.Now().UTC().Truncate(time.Millisecond)
		ana := &store.Account{Key: prefix + "pana", Name: "Ana", Password: "pbkdf2$p", Created: now}
		if err := s.CreateAccount(ctx, ana); err != nil {
			t.Fatal(err)
		}
		// p1 finished, not recorded; p2 recorded without its play; p3
		// with it; p4 not finished; p5 with no account's seat.
		for _, id := range []string{"p1", "p2", "p3", "p4", "p5"} {
			if err := s.CreateGame(ctx, newGame(id)); err != nil {
				t.Fatal(err)
			}
			if id != "p4" {
				if err := s.Finish(ctx, prefix+id); err != nil {
					t.Fatal(err)
				}
			}
			if id != "p5" {
				if err := s.AddAccountGame(ctx, ana.Key, store.AccountGame{Game: prefix + id, Joined: now}); err != nil {
					t.Fatal(err)
				}
			}
		}
		seats := func(turns int) []store.RatedSeat {
			return []store.RatedSeat{{Seat: 0, Account: ana.Key, Name: "Ana", Score: 300, Result: 1, Turns: turns},
				{Seat: 1, Name: "Bot", Level: "professional", Score: 200}}
		}
		for id, turns := range map[string]int{"p2": 0, "p3": 9} {
			if _, err := s.RecordGame(ctx, &store.RatedGame{Game: prefix + id, Category: "en-sowpods", Finished: now, Seats: seats(turns)}); err != nil {
				t.Fatal(err)
			}
		}
		// The IDs of this run follow its prefix, before any other's.
		uncounted := func(after string) string {
			ids, err := s.UncountedGames(ctx, after, 2)
			if err != nil {
				t.Fatal(err)
			}
			var mine []string
			for _, id := range ids {
				if strings.HasPrefix(id, prefix) {
					mine = append(mine, id[len(prefix):])
				}
			}
			return fmt.Sprint(mine)
		}
		if got := uncounted(prefix); got != "[p1 p2]" {
			t.Errorf("UncountedGames: %s, want [p1 p2]", got)
		}
		if got := uncounted(prefix + "p1"); got != "[p2]" {
			t.Errorf("UncountedGames after p1: %s, want [p2]", got)
		}
		play := &store.RatedGame{Game: prefix + "p2", Seats: []store.RatedSeat{{Seat: 0, Turns: 11, Bingos: 2, Best: 86}, {Seat: 1, Turns: 11, Best: 40}}}
		if err := s.SetPlay(ctx, play); err != nil {
			t.Fatal(err)
		}
		if g, err := s.RatedGame(ctx, prefix+"p2"); err != nil || g.Seats[0].Turns != 11 || g.Seats[0].Bingos != 2 || g.Seats[0].Best != 86 ||
			g.Seats[1].Best != 40 || g.Seats[0].Score != 300 {
			t.Errorf("RatedGame p2 after SetPlay: %+v, %v", g, err)
		}
		if got := uncounted(prefix); got != "[p1]" {
			t.Errorf("UncountedGames after SetPlay: %s, want [p1]", got)
		}
		play.Game = prefix + "p1"
		if err := s.SetPlay(ctx, play); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("SetPlay of a game not recorded: %v, want ErrNotFound", err)
		}
	})
	t.Run("ConcurrentAppends", func(t *testing.T) {
		s := open(t)
		const games, events = 8, 20
		var wg sync.WaitGroup
		errs := make(chan error, games)
		for i := 0; i < games; i++ {
			g := newGame(fmt.Sprintf("c%d", i))
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < events; j++ {
					if err := s.Append(ctx, g.ID, store.Event{Seq: j, Kind: "move", Data: fmt.Sprintf(`{"n":%d}`, j)}); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		for i := 0; i < games; i++ {
			_, evs, err := s.Load(ctx, fmt.Sprintf("%sc%d", prefix, i))
			if err != nil || len(evs) != events {
				t.Errorf("game %d: %d events, %v", i, len(evs), err)
				continue
			}
			for j, e := range evs {
				if e.Data != fmt.Sprintf(`{"n":%d}`, j) {
					t.Errorf("game %d event %d: %q", i, j, e.Data)
				}
			}
		}
	})
	t.Run("Migrate", func(t *testing.T) {
		s := open(t)
		ids := []string{prefix + "mg1", prefix + "mg2"}
		for i, id := range ids {
			g := newGame(id[len(prefix):])
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			for j := 0; j <= i+1; j++ {
				e := store.Event{Seq: j, Kind: "move", Data: fmt.Sprintf(`{"old":%d}`, j), Time: time.Unix(200, 0)}
				if err := s.Append(ctx, id, e); err != nil {
					t.Fatal(err)
				}
			}
		}
		v0, err := s.DataVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		// Rewrites this test's events, all but the first of each game.
		rewrite := func(g *store.Game, e store.Event) (string, error) {
			if !strings.HasPrefix(g.ID, prefix+"mg") {
				return e.Data, nil
			}
			calls++
			if g.Variant != "english" || len(g.Seats) != 2 {
				t.Errorf("migration sees header %+v", g)
			}
			if e.Seq == 0 {
				return e.Data, nil
			}
			return strings.Replace(e.Data, "old", "new", 1), nil
		}
		n, err := s.Migrate(ctx, v0+1, rewrite)
		if err != nil {
			t.Fatal(err)
		}
		if n != 3 || calls != 5 {
			t.Errorf("migration changed %d events in %d calls, want 3 in 5", n, calls)
		}
		if v, err := s.DataVersion(ctx); err != nil || v != v0+1 {
			t.Errorf("data version %d (%v), want %d", v, err, v0+1)
		}
		check := func(when string) {
			t.Helper()
			for i, id := range ids {
				_, evs, err := s.Load(ctx, id)
				if err != nil || len(evs) != i+2 {
					t.Fatalf("%s: game %s: %d events, %v", when, id, len(evs), err)
				}
				for j, e := range evs {
					want := fmt.Sprintf(`{"new":%d}`, j)
					if j == 0 {
						want = `{"old":0}`
					}
					if e.Seq != j || e.Kind != "move" || e.Data != want || !e.Time.Equal(time.Unix(200, 0)) {
						t.Errorf("%s: game %s event %d: %+v, want data %s", when, id, j, e, want)
					}
				}
			}
		}
		check("after migration")
		// The same version again does nothing.
		calls = 0
		if n, err := s.Migrate(ctx, v0+1, rewrite); n != 0 || err != nil || calls != 0 {
			t.Errorf("second migration: %d events, %d calls, %v", n, calls, err)
		}
		// A failing migration changes nothing, not even the version.
		failing := func(g *store.Game, e store.Event) (string, error) {
			if strings.HasPrefix(g.ID, prefix+"mg") && e.Seq == 1 {
				return "", errors.New("bad event")
			}
			return "{}", nil
		}
		if _, err := s.Migrate(ctx, v0+2, failing); err == nil || !strings.Contains(err.Error(), "bad event") {
			t.Errorf("failing migration: %v", err)
		}
		if v, err := s.DataVersion(ctx); err != nil || v != v0+1 {
			t.Errorf("data version after a failed migration %d (%v), want %d", v, err, v0+1)
		}
		check("after a failed migration")
		// Appends go on after a migration.
		if err := s.Append(ctx, ids[0], store.Event{Seq: 2, Kind: "move", Data: "{}"}); err != nil {
			t.Error(err)
		}
	})
}

// accounts tests accounts, sessions and ratings; prefix makes the keys
// and game ids unique.
func accounts(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	ana := &store.Account{Key: prefix + "ana", Name: "Ana", Password: "pbkdf2$x", Created: now}
	bo := &store.Account{Key: prefix + "bo", Name: "Bo", Password: "pbkdf2$y", Created: now}
	for _, a := range []*store.Account{ana, bo} {
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateAccount(ctx, &store.Account{Key: ana.Key, Name: "ANA", Password: "z", Created: now}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second account with key %q: got %v, want ErrConflict", ana.Key, err)
	}
	got, err := s.Account(ctx, ana.Key)
	if err != nil || *got != *ana {
		t.Errorf("Account: got %+v, %v; want %+v", got, err, ana)
	}
	if _, err := s.Account(ctx, prefix+"nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Account of no one: got %v, want ErrNotFound", err)
	}

	// Sessions.
	if err := s.CreateSession(ctx, prefix+"h1", ana.Key, ana.Password, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Session(ctx, prefix+"h1", now); err != nil || a.Key != ana.Key {
		t.Errorf("Session: got %+v, %v", a, err)
	}
	if _, err := s.Session(ctx, prefix+"h1", now.Add(2*time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired session: got %v, want ErrNotFound", err)
	}
	if err := s.DeleteSession(ctx, prefix+"h1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, prefix+"h1", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ended session: got %v, want ErrNotFound", err)
	}
	// Ending an account's other sessions, and a new password, which ends
	// them too (live sessions: making one clears those expired by the
	// clock).
	live := time.Now()
	for _, h := range []string{"a1", "a2", "a3"} {
		if err := s.CreateSession(ctx, prefix+h, ana.Key, ana.Password, live.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateSession(ctx, prefix+"b1", bo.Key, bo.Password, live.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	alive := func(h string) bool {
		t.Helper()
		_, err := s.Session(ctx, prefix+h, live)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	if n, err := s.DeleteSessions(ctx, ana.Key, prefix+"a1"); err != nil || n != 2 {
		t.Errorf("DeleteSessions keeping one of three: got %d, %v; want 2", n, err)
	}
	if !alive("a1") || alive("a2") || alive("a3") || !alive("b1") {
		t.Errorf("after DeleteSessions: a1 %v a2 %v a3 %v b1 %v; want only a1 and b1", alive("a1"), alive("a2"), alive("a3"), alive("b1"))
	}
	if err := s.CreateSession(ctx, prefix+"a4", ana.Key, ana.Password, live.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPassword(ctx, ana.Key, "pbkdf2$not-hers", "pbkdf2$new", prefix+"a4"); !errors.Is(err, store.ErrConflict) {
		t.Errorf("SetPassword from another hash: %v, want ErrConflict", err)
	}
	if err := s.SetPassword(ctx, ana.Key, ana.Password, "pbkdf2$new", prefix+"a4"); err != nil {
		t.Fatal(err)
	}
	// A sign-in that checked the old password makes no session.
	if err := s.CreateSession(ctx, prefix+"a5", ana.Key, ana.Password, live.Add(time.Hour)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("CreateSession with the old password's hash: %v, want ErrConflict", err)
	}
	if err := s.CreateSession(ctx, prefix+"n1", prefix+"nobody", "x", live.Add(time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("CreateSession of no one: %v, want ErrNotFound", err)
	}
	if a, err := s.Account(ctx, ana.Key); err != nil || a.Password != "pbkdf2$new" {
		t.Errorf("after SetPassword: %+v, %v", a, err)
	}
	if alive("a1") || !alive("a4") || !alive("b1") || alive("a5") {
		t.Errorf("after SetPassword: a1 %v a4 %v b1 %v; want a4 and b1", alive("a1"), alive("a4"), alive("b1"))
	}
	if err := s.SetPassword(ctx, prefix+"nobody", "x", "y", ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetPassword of no one: got %v, want ErrNotFound", err)
	}
	if n, err := s.DeleteSessions(ctx, ana.Key, ""); err != nil || n != 1 || alive("a4") {
		t.Errorf("DeleteSessions keeping none: got %d, %v (a4 alive %v); want 1", n, err, alive("a4"))
	}
	ana.Password = "pbkdf2$new"

	// Puzzle answers: the first one is kept. (The word lists' names
	// carry the prefix: a shared database keeps earlier runs' answers.)
	en, es := prefix+"en", prefix+"es"
	for _, r := range []store.PuzzleRecord{
		{Lexicon: en, Number: 7, Correct: false, Score: 20, Answered: now},
		{Lexicon: en, Number: 9, Correct: true, Score: 45, Answered: now.Add(time.Hour)},
		{Lexicon: es, Number: 9, Correct: true, Score: 30, Answered: now.Add(2 * time.Hour)},
	} {
		if first, err := s.RecordPuzzle(ctx, ana.Key, &r, nil); err != nil || !first {
			t.Fatalf("RecordPuzzle %+v: %v, %v", r, first, err)
		}
	}
	if first, err := s.RecordPuzzle(ctx, ana.Key, &store.PuzzleRecord{Lexicon: en, Number: 7, Correct: true, Score: 50, Answered: now}, nil); err != nil || first {
		t.Errorf("a second answer: first %v, %v", first, err)
	}
	if r, err := s.PuzzleRecord(ctx, ana.Key, en, 7); err != nil || r.Correct || r.Score != 20 || !r.Answered.Equal(now) {
		t.Errorf("PuzzleRecord after a second answer: %+v, %v", r, err)
	}
	if _, err := s.PuzzleRecord(ctx, bo.Key, en, 7); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PuzzleRecord of another account: %v, want ErrNotFound", err)
	}
	if rs, err := s.PuzzleRecords(ctx, ana.Key, 2); err != nil || len(rs) != 2 || rs[0].Number != 9 || rs[0].Lexicon != en || rs[1].Lexicon != es {
		t.Errorf("PuzzleRecords: %+v, %v", rs, err)
	}
	if _, err := s.RecordPuzzle(ctx, bo.Key, &store.PuzzleRecord{Lexicon: en, Number: 9, Correct: false, Score: 12, Answered: now}, nil); err != nil {
		t.Fatal(err)
	}
	if a, n, err := s.PuzzleCounts(ctx, en, 9); err != nil || a != 2 || n != 1 {
		t.Errorf("PuzzleCounts of puzzle en 9: %d answered, %d solved, %v; want 2 and 1", a, n, err)
	}
	if a, n, err := s.PuzzleCounts(ctx, prefix+"xx", 1); err != nil || a != 0 || n != 0 {
		t.Errorf("PuzzleCounts of a puzzle nobody answered: %d, %d, %v", a, n, err)
	}

	// Ratings: a rule that adds 10 to the winner and takes 10 from the
	// loser, starting from 1500.
	rate := func(before []store.Rating, results []float64) []store.Rating {
		after := make([]store.Rating, len(before))
		for i := range before {
			if before[i].Games == 0 {
				// A newcomer's rating, filled in place: the record
				// keeps it as the rating before.
				before[i].R, before[i].RD, before[i].Vol = 1500, 350, 0.06
			}
			r := before[i]
			r.R += 20*results[i] - 10
			r.RD -= 10
			r.Games++
			switch results[i] {
			case 1:
				r.Wins++
			case 0:
				r.Losses++
			default:
				r.Draws++
			}
			after[i] = r
		}
		return after
	}
	game := func(id string, at time.Time, winner int) *store.RatedGame {
		g := &store.RatedGame{Game: prefix + id, Category: prefix + "en", Finished: at,
			Seats: []store.RatedSeat{{Seat: 0, Account: ana.Key, Name: "Ana", Score: 400}, {Seat: 1, Account: bo.Key, Name: "Bo", Score: 350}}}
		g.Seats[winner].Result = 1
		return g
	}
	results := func(g *store.RatedGame) []float64 { return []float64{g.Seats[0].Result, g.Seats[1].Result} }
	g1 := game("r1", now, 0)
	ok, err := s.RateGame(ctx, g1, func(b []store.Rating) ([]store.Rating, error) { return rate(b, results(g1)), nil })
	if err != nil || !ok {
		t.Fatalf("RateGame: %v, %v", ok, err)
	}
	if s0 := g1.Seats[0]; s0.RBefore != 1500 || s0.RDBefore != 350 || s0.RAfter != 1510 || s0.RDAfter != 340 {
		t.Errorf("first game's seat 0: %+v", s0)
	}
	again := game("r1", now, 1)
	ok, err = s.RateGame(ctx, again, func(b []store.Rating) ([]store.Rating, error) {
		t.Error("the rating function ran for a game rated before")
		return b, nil
	})
	if err != nil || ok {
		t.Errorf("RateGame twice: got %v, %v; want false, nil", ok, err)
	}
	// A failing rating function changes nothing.
	if _, err := s.RateGame(ctx, game("bad", now, 0), func(b []store.Rating) ([]store.Rating, error) { return b[:1], nil }); err == nil {
		t.Error("RateGame with a function that drops a seat: no error")
	}
	// Concurrent games of the same players: none is lost, each is rated
	// once.
	var wg sync.WaitGroup
	var applied sync.Map
	for i := range 8 {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				g := game(fmt.Sprintf("c%d", i), now.Add(time.Duration(i+1)*time.Minute), i%2)
				ok, err := s.RateGame(ctx, g, func(b []store.Rating) ([]store.Rating, error) { return rate(b, results(g)), nil })
				if err != nil {
					t.Error(err)
				}
				if ok {
					if _, dup := applied.LoadOrStore(i, true); dup {
						t.Errorf("game c%d rated twice", i)
					}
				}
			}()
		}
	}
	wg.Wait()
	rs, err := s.Ratings(ctx, ana.Key)
	if err != nil || len(rs) != 1 {
		t.Fatalf("Ratings: %+v, %v", rs, err)
	}
	// Ana won r1 and c0, c2, c4, c6; lost c1, c3, c5, c7.
	if r := rs[0]; r.Games != 9 || r.Wins != 5 || r.Losses != 4 || r.R != 1510 || r.Category != prefix+"en" || r.Name != "Ana" {
		t.Errorf("Ana's rating: %+v", r)
	}
	board, err := s.Leaderboard(ctx, prefix+"en", 10)
	if err != nil || len(board) != 2 || board[0].Account != ana.Key || board[1].R != 1490 {
		t.Errorf("Leaderboard: %+v, %v", board, err)
	}
	if board, err := s.Leaderboard(ctx, prefix+"en", 1); err != nil || len(board) != 1 {
		t.Errorf("Leaderboard of 1: %+v, %v", board, err)
	}
	games, err := s.RatedGames(ctx, bo.Key, store.RatedFilter{}, 3)
	if err != nil || len(games) != 3 {
		t.Fatalf("RatedGames: %+v, %v", games, err)
	}
	for i, g := range games {
		want := prefix + fmt.Sprintf("c%d", 7-i)
		if g.Game != want || len(g.Seats) != 2 || g.Seats[1].Account != bo.Key || g.Seats[0].Score != 400 || g.Category != prefix+"en" {
			t.Errorf("rated game %d: %+v, want %s", i, g, want)
		}
		if g.Seats[0].RAfter-g.Seats[0].RBefore != 20*g.Seats[0].Result-10 {
			t.Errorf("rated game %s: seat 0 from %v to %v with result %v", g.Game, g.Seats[0].RBefore, g.Seats[0].RAfter, g.Seats[0].Result)
		}
	}
	if g := games[0]; !g.Finished.Equal(now.Add(8*time.Minute)) || g.Seats[1].Result != 1 {
		t.Errorf("latest rated game: %+v", g)
	}
	ratedLists(ctx, t, s, prefix, ana, bo, now, func(g *store.RatedGame) error {
		_, err := s.RateGame(ctx, g, func(b []store.Rating) ([]store.Rating, error) { return rate(b, results(g)), nil })
		return err
	})
	if g, err := s.RatedGame(ctx, prefix+"r1"); err != nil || len(g.Seats) != 2 || g.Seats[0].RAfter != 1510 || g.Seats[1].RBefore != 1500 || g.Seats[1].Name != "Bo" {
		t.Errorf("RatedGame r1: %+v, %v", g, err)
	}
	// The seats an account took, newest first, each once.
	for i, g := range []store.AccountGame{{Game: prefix + "g1", Seat: 0, Joined: now}, {Game: prefix + "g2", Seat: 1, Joined: now.Add(time.Minute)},
		{Game: prefix + "g1", Seat: 0, Joined: now.Add(time.Hour)}, {Game: prefix + "g3", Seat: 0, Joined: now.Add(2 * time.Minute)}} {
		if err := s.AddAccountGame(ctx, ana.Key, g); err != nil {
			t.Fatalf("AddAccountGame %d: %v", i, err)
		}
	}
	if gs, err := s.AccountGames(ctx, ana.Key, 2); err != nil || len(gs) != 2 || gs[0].Game != prefix+"g3" || gs[1].Game != prefix+"g2" || gs[1].Seat != 1 {
		t.Errorf("AccountGames: %+v, %v", gs, err)
	}
	if gs, err := s.AccountGames(ctx, ana.Key, 10); err != nil || len(gs) != 3 || !gs[2].Joined.Equal(now) {
		t.Errorf("AccountGames of 10: %+v, %v", gs, err)
	}
	if gs, err := s.AccountGames(ctx, bo.Key, 10); err != nil || len(gs) != 0 {
		t.Errorf("Bo's games: %+v, %v", gs, err)
	}
	if _, err := s.RatedGame(ctx, prefix+"bad"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RatedGame of a game whose rating failed: %v, want ErrNotFound", err)
	}

	// A suspension ends the account's sessions, hides any made after it,
	// takes the account off the leaderboard, and is lifted.
	if err := s.CreateSession(ctx, prefix+"s1", ana.Key, ana.Password, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.Suspend(ctx, prefix+"nobody", "spam", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Suspend of no one: %v, want ErrNotFound", err)
	}
	if err := s.Suspend(ctx, ana.Key, "", now); err == nil {
		t.Error("Suspend without a reason: no error")
	}
	if err := s.Suspend(ctx, ana.Key, "abuse in chat", now); err != nil {
		t.Fatal(err)
	}
	if err := s.Suspend(ctx, ana.Key, "abuse in chat, twice", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Account(ctx, ana.Key); err != nil || a.Suspended != "abuse in chat, twice" || !a.SuspendedAt.Equal(now) {
		t.Errorf("suspended account: %+v, %v; want the second reason since the first time", a, err)
	}
	if _, err := s.Session(ctx, prefix+"s1", time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("session of a suspended account: %v, want ErrNotFound", err)
	}
	if err := s.CreateSession(ctx, prefix+"s2", ana.Key, ana.Password, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, prefix+"s2", time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("session made for a suspended account: %v, want ErrNotFound", err)
	}
	if board, err := s.Leaderboard(ctx, prefix+"en", 10); err != nil || len(board) != 1 || board[0].Account != bo.Key {
		t.Errorf("Leaderboard with Ana suspended: %+v, %v", board, err)
	}
	if err := s.Unsuspend(ctx, prefix+"nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Unsuspend of no one: %v, want ErrNotFound", err)
	}
	if err := s.Unsuspend(ctx, ana.Key); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Account(ctx, ana.Key); err != nil || a.Suspended != "" || !a.SuspendedAt.IsZero() {
		t.Errorf("account after the suspension: %+v, %v", a, err)
	}
	if a, err := s.Session(ctx, prefix+"s2", time.Now()); err != nil || a.Key != ana.Key {
		t.Errorf("session after the suspension: %+v, %v", a, err)
	}
	if board, err := s.Leaderboard(ctx, prefix+"en", 10); err != nil || len(board) != 2 {
		t.Errorf("Leaderboard after the suspension: %+v, %v", board, err)
	}
	blocks(t, s, ana, bo, prefix, now)
	reports(t, s, ana, bo, prefix, now)
	presence(t, s, ana, bo, prefix, now)
	cards(t, s, ana, bo, prefix, now)
	follows(t, s, prefix, now)
	findAccounts(t, s, prefix, now)
	puzzleRatings(t, s, ana, bo, prefix, now)
	closeAccount(t, s, prefix, now)
}

// closeAccount tests CloseAccount and UnfinishedGames: what the closed
// account kept for itself goes, the other account's own stays.
func closeAccount(t *testing.T, s store.Store, prefix string, now time.Time) {
	ctx := context.Background()
	now = now.Truncate(time.Millisecond)
	cal := &store.Account{Key: prefix + "cal", Name: "Cal", Password: "pbkdf2$c", Created: now}
	dot := &store.Account{Key: prefix + "dot", Name: "Dot", Password: "pbkdf2$d", Created: now}
	for _, a := range []*store.Account{cal, dot} {
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	// Cal's own: a session, a block, a follow both ways, cards, a
	// sighting, a puzzle answer, a lobby line, two games (one over).
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.CreateSession(ctx, prefix+"cal-s", cal.Key, cal.Password, now.Add(time.Hour)))
	must(s.CreateSession(ctx, prefix+"dot-s", dot.Key, dot.Password, now.Add(time.Hour)))
	must(s.Block(ctx, cal.Key, dot.Key, now, 0))
	must(s.Follow(ctx, dot.Key, cal.Key, now, 0))
	must(s.Follow(ctx, cal.Key, dot.Key, now, 0))
	_, err := s.PutCards(ctx, cal.Key, prefix+"en", []store.Card{{Letters: "AB", Box: 1, Due: now, Filed: now}}, 100)
	must(err)
	_, err = s.PutCards(ctx, dot.Key, prefix+"en", []store.Card{{Letters: "AB", Box: 1, Due: now, Filed: now}}, 100)
	must(err)
	seen := now.AddDate(250, 0, 0)
	must(s.SetSeen(ctx, cal.Key, seen))
	_, err = s.RecordPuzzle(ctx, cal.Key, &store.PuzzleRecord{Lexicon: prefix + "en", Number: 1, Correct: true, Score: 30, Answered: now}, newcomers)
	must(err)
	line := &store.LobbyLine{Account: cal.Key, Text: prefix + "hello", At: now}
	must(s.AddLobbyLine(ctx, line, 1000))
	for i, id := range []string{prefix + "cg1", prefix + "cg2"} {
		must(s.CreateGame(ctx, &store.Game{ID: id, Variant: "english", Lexicon: "en-sowpods", Seats: []store.Seat{{Name: "Cal"}, {Name: "Dot"}}, Created: now}))
		must(s.AddAccountGame(ctx, cal.Key, store.AccountGame{Game: id, Seat: 0, Joined: now.Add(time.Duration(i) * time.Minute)}))
	}
	must(s.Finish(ctx, prefix+"cg1"))
	if ids, err := s.UnfinishedGames(ctx, cal.Key); err != nil || !slices.Equal(ids, []string{prefix + "cg2"}) {
		t.Errorf("Cal's unfinished games: %v, %v; want %scg2", ids, err, prefix)
	}
	must(s.Finish(ctx, prefix+"cg2"))
	if ids, err := s.UnfinishedGames(ctx, cal.Key); err != nil || len(ids) != 0 {
		t.Errorf("Cal's unfinished games once both are over: %v, %v", ids, err)
	}
	// Their results, so that no other check takes them for games whose
	// play was never counted.
	for _, id := range []string{prefix + "cg1", prefix + "cg2"} {
		_, err := s.RecordGame(ctx, &store.RatedGame{Game: id, Category: prefix + "en", Finished: now, Seats: []store.RatedSeat{
			{Seat: 0, Account: cal.Key, Name: "Cal", Score: 300, Result: 1, Turns: 10}, {Seat: 1, Account: dot.Key, Name: "Dot", Score: 200, Turns: 10}}})
		must(err)
	}

	if err := s.CloseAccount(ctx, prefix+"nobody", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("closing no account: %v, want ErrNotFound", err)
	}
	must(s.CloseAccount(ctx, cal.Key, now))
	a, err := s.Account(ctx, cal.Key)
	if err != nil || !a.Closed() || a.Name != "Cal" || a.Password == cal.Password {
		t.Fatalf("Cal closed: %+v, %v; want the name kept, closed, the password gone", a, err)
	}
	if _, err := s.Session(ctx, prefix+"cal-s", now); err == nil {
		t.Error("Cal's session outlives the closing")
	}
	if fs, err := s.Follows(ctx, dot.Key); err != nil || len(fs) != 0 {
		t.Errorf("Dot's follows after Cal closed: %+v, %v", fs, err)
	}
	if ks, err := s.Blocking(ctx, dot.Key); err != nil || len(ks) != 0 {
		t.Errorf("Dot's blocks after Cal closed: %v, %v", ks, err)
	}
	if cs, err := s.Cards(ctx, cal.Key, prefix+"en"); err != nil || len(cs) != 0 {
		t.Errorf("Cal's cards after the closing: %+v, %v", cs, err)
	}
	if rs, err := s.PuzzleRecords(ctx, cal.Key, 10); err != nil || len(rs) != 0 {
		t.Errorf("Cal's puzzle answers after the closing: %+v, %v", rs, err)
	}
	if rs, err := s.PuzzleRatings(ctx, cal.Key); err != nil || len(rs) != 0 {
		t.Errorf("Cal's puzzle ratings after the closing: %+v, %v", rs, err)
	}
	if p, err := s.PuzzleLevel(ctx, prefix+"en", 1); err != nil || p.Answered != 1 {
		t.Errorf("the puzzle Cal answered, after the closing: %+v, %v; want it kept", p, err)
	}
	if ss, err := s.SeenSince(ctx, seen, 1000); err != nil || slices.ContainsFunc(ss, func(x store.Seen) bool { return x.Key == cal.Key }) {
		t.Errorf("Cal still seen: %+v, %v", ss, err)
	}
	if ls, err := s.LobbyLines(ctx, 1000); err != nil || slices.ContainsFunc(ls, func(l store.LobbyLine) bool { return l.Text == prefix+"hello" }) {
		t.Errorf("Cal's lobby line after the closing: %v", err)
	}
	// Dot's own stays.
	if d, err := s.Session(ctx, prefix+"dot-s", now); err != nil || d.Key != dot.Key {
		t.Errorf("Dot's session: %+v, %v", d, err)
	}
	if cs, err := s.Cards(ctx, dot.Key, prefix+"en"); err != nil || len(cs) != 1 {
		t.Errorf("Dot's cards: %+v, %v", cs, err)
	}
	if gs, err := s.AccountGames(ctx, cal.Key, 10); err != nil || len(gs) != 2 {
		t.Errorf("Cal's seats, kept for the games' records: %+v, %v", gs, err)
	}
	afterClosing(t, s, prefix, cal, dot, now)
}

// afterClosing checks that the writes of a request that passed its
// session check before the account of cal was closed, and reach the
// store after, keep nothing of what the closing took away.
func afterClosing(t *testing.T, s store.Store, prefix string, cal, dot *store.Account, now time.Time) {
	ctx := context.Background()
	later := now.Add(time.Minute)
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s for a closed account: %v, want ErrNotFound", what, err)
		}
	}
	refused("SetBio", s.SetBio(ctx, cal.Key, store.Bio{About: "back", Updated: later}))
	if b, err := s.Bio(ctx, cal.Key); err != nil || b.About != "" {
		t.Errorf("a closed account's bio: %+v, %v", b, err)
	}
	refused("SetSettings", s.SetSettings(ctx, cal.Key, `{"theme":"dark"}`, later))
	if st, err := s.Settings(ctx, cal.Key); err != nil || st != "" {
		t.Errorf("a closed account's settings: %q, %v", st, err)
	}
	refused("AddPushSubscription", s.AddPushSubscription(ctx, store.PushSubscription{Account: cal.Key, Endpoint: "https://push.example/" + cal.Key, P256dh: "k", Auth: "a", Created: later}))
	if ps, err := s.PushSubscriptions(ctx, cal.Key); err != nil || len(ps) != 0 {
		t.Errorf("a closed account's push subscriptions: %+v, %v", ps, err)
	}
	refused("Follow by it", s.Follow(ctx, cal.Key, dot.Key, later, 0))
	refused("Follow of it", s.Follow(ctx, dot.Key, cal.Key, later, 0))
	refused("Block by it", s.Block(ctx, cal.Key, dot.Key, later, 0))
	refused("Block of it", s.Block(ctx, dot.Key, cal.Key, later, 0))
	if fs, err := s.Follows(ctx, cal.Key); err != nil || len(fs) != 0 {
		t.Errorf("a closed account's follows: %+v, %v", fs, err)
	}
	if ks, err := s.Blocking(ctx, dot.Key); err != nil || len(ks) != 0 {
		t.Errorf("blocks with a closed account: %v, %v", ks, err)
	}
	_, err := s.PutCards(ctx, cal.Key, prefix+"en", []store.Card{{Letters: "CD", Box: 1, Due: later, Filed: later}}, 100)
	refused("PutCards", err)
	if cs, err := s.Cards(ctx, cal.Key, prefix+"en"); err != nil || len(cs) != 0 {
		t.Errorf("a closed account's cards: %+v, %v", cs, err)
	}
	refused("AddLobbyLine", s.AddLobbyLine(ctx, &store.LobbyLine{Account: cal.Key, Text: prefix + "again", At: later}, 1000))
	if ls, err := s.LobbyLines(ctx, 1000); err != nil || slices.ContainsFunc(ls, func(l store.LobbyLine) bool { return l.Account == cal.Key }) {
		t.Errorf("a closed account's lobby lines: %v", err)
	}
	refused("AddMessage from it", s.AddMessage(ctx, &store.Message{From: cal.Key, To: dot.Key, Text: "hi", At: later}, 100, store.ContactLimit{}))
	refused("AddMessage to it", s.AddMessage(ctx, &store.Message{From: dot.Key, To: cal.Key, Text: "hi", At: later}, 100, store.ContactLimit{}))
	if cs, err := s.Conversations(ctx, dot.Key, 10); err != nil || len(cs) != 0 {
		t.Errorf("conversations with a closed account: %+v, %v", cs, err)
	}
	_, err = s.RecordPuzzle(ctx, cal.Key, &store.PuzzleRecord{Lexicon: prefix + "en", Number: 2, Correct: true, Score: 30, Answered: later}, newcomers)
	refused("RecordPuzzle", err)
	if rs, err := s.PuzzleRecords(ctx, cal.Key, 10); err != nil || len(rs) != 0 {
		t.Errorf("a closed account's puzzle answers: %+v, %v", rs, err)
	}
	if rs, err := s.PuzzleRatings(ctx, cal.Key); err != nil || len(rs) != 0 {
		t.Errorf("a closed account's puzzle ratings: %+v, %v", rs, err)
	}
	_, err = s.RecordEndgame(ctx, cal.Key, &store.EndgameRecord{Lexicon: prefix + "en", Number: 1, Correct: true, Value: 10, Answered: later}, newcomers)
	refused("RecordEndgame", err)
	if rs, err := s.EndgameRecords(ctx, cal.Key, 10); err != nil || len(rs) != 0 {
		t.Errorf("a closed account's endgame answers: %+v, %v", rs, err)
	}
	refused("StartRush", s.StartRush(ctx, &store.RushRun{ID: prefix + "cal-rush", Account: cal.Key, Lexicon: prefix + "en", Mode: "timed", Started: later}))
	if rs, err := s.RushRuns(ctx, cal.Key, 10); err != nil || len(rs) != 0 {
		t.Errorf("a closed account's rushes: %+v, %v", rs, err)
	}
	if err := s.SetSeen(ctx, cal.Key, later); err != nil {
		t.Errorf("SetSeen of a closed account: %v", err)
	}
	if at, err := s.SeenAt(ctx, cal.Key); err != nil || !at.IsZero() {
		t.Errorf("a closed account seen at %v, %v; want never", at, err)
	}
}

// findAccounts tests FindAccounts and SeenAt: accounts by the start of
// their keys, in key order, with when they were last seen; suspended and
// closed ones left out.
func findAccounts(t *testing.T, s store.Store, prefix string, now time.Time) {
	ctx := context.Background()
	now = now.Truncate(time.Microsecond)
	for _, a := range []struct{ key, name string }{{"qzeb", "Zeb"}, {"qzebra", "Zebra"}, {"qzed", "Zed"}, {"qzoe", "Zoë"}, {"qzel", "Zel"}, {"qzip", "Zip"}} {
		if err := s.CreateAccount(ctx, &store.Account{Key: prefix + a.key, Name: a.name, Password: "pbkdf2$q", Created: now}); err != nil {
			t.Fatal(err)
		}
	}
	seen := now.AddDate(150, 0, 0)
	if err := s.SetSeen(ctx, prefix+"qzebra", seen); err != nil {
		t.Fatal(err)
	}
	if err := s.Suspend(ctx, prefix+"qzel", "test", now); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseAccount(ctx, prefix+"qzip", now); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prefix string
		n      int
		want   string
	}{
		{"qz", 10, "Zeb -;Zebra seen;Zed -;Zoë -;"},
		{"qze", 10, "Zeb -;Zebra seen;Zed -;"},
		{"qzeb", 10, "Zeb -;Zebra seen;"},
		{"qzebr", 10, "Zebra seen;"},
		{"qz", 2, "Zeb -;Zebra seen;"},
		{"qzel", 10, ""},
		{"qzi", 10, ""},
		{"qzx", 10, ""},
		{"qzebras", 10, ""},
	} {
		got, err := s.FindAccounts(ctx, prefix+c.prefix, c.n)
		if err != nil {
			t.Fatalf("FindAccounts(%s, %d): %v", c.prefix, c.n, err)
		}
		out := ""
		for _, a := range got {
			mark := "-"
			switch {
			case a.At.Equal(seen):
				mark = "seen"
			case !a.At.IsZero():
				mark = a.At.String()
			}
			out += a.Name + " " + mark + ";"
		}
		if out != c.want {
			t.Errorf("FindAccounts(%s, %d): %q, want %q", c.prefix, c.n, out, c.want)
		}
	}
	for _, c := range []struct {
		key  string
		want time.Time
	}{{"qzebra", seen}, {"qzeb", time.Time{}}, {"qnobody", time.Time{}}} {
		if at, err := s.SeenAt(ctx, prefix+c.key); err != nil || !at.Equal(c.want) {
			t.Errorf("SeenAt(%s): %v %v, want %v", c.key, at, err, c.want)
		}
	}
}

// follows tests Follow, Unfollow, Follows and Followers, with when the
// accounts followed were last seen and suspended ones left out.
func follows(t *testing.T, s store.Store, prefix string, now time.Time) {
	ctx := context.Background()
	now = now.Truncate(time.Millisecond)
	var fa, fb, fc *store.Account
	for _, a := range []struct {
		acct **store.Account
		key  string
		name string
	}{{&fa, "fa", "Fay"}, {&fb, "fb", "Fox"}, {&fc, "fc", "Fig"}} {
		*a.acct = &store.Account{Key: prefix + a.key, Name: a.name, Password: "pbkdf2$f", Created: now}
		if err := s.CreateAccount(ctx, *a.acct); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Follow(ctx, fa.Key, prefix+"nobody", now, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Follow of no one: %v, want ErrNotFound", err)
	}
	if err := s.Follow(ctx, prefix+"nobody", fa.Key, now, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Follow by no one: %v, want ErrNotFound", err)
	}
	if err := s.Follow(ctx, fa.Key, fa.Key, now, 0); err == nil {
		t.Error("Follow of oneself: no error")
	}
	for _, f := range []struct {
		by, of string
		at     time.Time
	}{{fa.Key, fb.Key, now}, {fa.Key, fb.Key, now.Add(time.Hour)}, {fa.Key, fc.Key, now.Add(time.Minute)}, {fb.Key, fc.Key, now}} {
		if err := s.Follow(ctx, f.by, f.of, f.at, 0); err != nil {
			t.Fatalf("Follow(%s, %s): %v", f.by, f.of, err)
		}
	}
	seen := now.Add(200 * 365 * 24 * time.Hour)
	if err := s.SetSeen(ctx, fc.Key, seen); err != nil {
		t.Fatal(err)
	}
	list := func(key string) string {
		t.Helper()
		fs, err := s.Follows(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, f := range fs {
			out += fmt.Sprintf("%s %s %v %v;", strings.TrimPrefix(f.Key, prefix), f.Name, f.Since.Sub(now), f.Seen.IsZero() || f.Seen.Equal(seen))
		}
		return out
	}
	if got, want := list(fa.Key), "fb Fox 0s true;fc Fig 1m0s true;"; got != want {
		t.Errorf("Follows of Fay: %q, want %q", got, want)
	}
	if fs, err := s.Follows(ctx, fa.Key); err != nil || len(fs) != 2 || !fs[0].Seen.IsZero() || !fs[1].Seen.Equal(seen) {
		t.Errorf("Follows of Fay: %+v, %v; want Fox never seen and Fig seen at %v", fs, err, seen)
	}
	count := func(key string) int {
		t.Helper()
		n, err := s.Followers(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if a, b, c := count(fa.Key), count(fb.Key), count(fc.Key); a != 0 || b != 1 || c != 2 {
		t.Errorf("followers of Fay, Fox and Fig: %d, %d, %d; want 0, 1, 2", a, b, c)
	}
	// A suspended account is neither listed nor counted.
	if err := s.Suspend(ctx, fb.Key, "test", now); err != nil {
		t.Fatal(err)
	}
	if got, want := list(fa.Key), "fc Fig 1m0s true;"; got != want {
		t.Errorf("Follows of Fay with Fox suspended: %q, want %q", got, want)
	}
	if c := count(fc.Key); c != 1 {
		t.Errorf("followers of Fig with Fox suspended: %d, want 1", c)
	}
	if err := s.Unsuspend(ctx, fb.Key); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.Unfollow(ctx, fa.Key, fb.Key); err != nil {
			t.Errorf("Unfollow: %v", err)
		}
	}
	if got, want := list(fa.Key), "fc Fig 1m0s true;"; got != want {
		t.Errorf("Follows of Fay after the unfollow: %q, want %q", got, want)
	}
	if b := count(fb.Key); b != 0 {
		t.Errorf("followers of Fox after the unfollow: %d, want 0", b)
	}
}

// reports tests AddReport, Reports, OpenReportsBy and CloseReport.
func reports(t *testing.T, s store.Store, ana, bo *store.Account, prefix string, now time.Time) {
	ctx := context.Background()
	if err := s.AddReport(ctx, &store.Report{By: ana.Key, Of: prefix + "nobody", Reason: "spam", Created: now}, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a report of no one: %v, want ErrNotFound", err)
	}
	if err := s.AddReport(ctx, &store.Report{By: ana.Key, Of: bo.Key, Created: now}, 0); err == nil {
		t.Error("a report without a reason: no error")
	}
	r1 := &store.Report{By: ana.Key, Of: bo.Key, Game: prefix + "g1", Reason: "rude in chat", Created: now}
	r2 := &store.Report{By: bo.Key, Of: ana.Key, Reason: "stalls", Created: now.Add(time.Minute)}
	r3 := &store.Report{By: ana.Key, Of: bo.Key, Reason: "again", Created: now.Add(2 * time.Minute)}
	for _, r := range []*store.Report{r1, r2, r3} {
		if err := s.AddReport(ctx, r, 0); err != nil {
			t.Fatal(err)
		}
	}
	if !(r1.ID > 0 && r2.ID > r1.ID && r3.ID > r2.ID) {
		t.Fatalf("report ids %d, %d, %d: want increasing", r1.ID, r2.ID, r3.ID)
	}
	ids := func(rs []store.Report) []int64 {
		var out []int64
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	got, err := s.Reports(ctx, bo.Key, false, 10)
	if err != nil || !slices.Equal(ids(got), []int64{r3.ID, r1.ID}) {
		t.Fatalf("open reports of Bo: %v, %v; want %d, %d", ids(got), err, r3.ID, r1.ID)
	}
	if g := got[1]; g.By != ana.Key || g.ByName != "Ana" || g.OfName != "Bo" || g.Game != prefix+"g1" || g.Reason != "rude in chat" || !g.Created.Equal(now) || !g.Closed.IsZero() {
		t.Errorf("the first report as read: %+v", g)
	}
	if n, err := s.OpenReportsBy(ctx, ana.Key); err != nil || n != 2 {
		t.Errorf("open reports by Ana: %d, %v; want 2", n, err)
	}
	if err := s.CloseReport(ctx, r1.ID, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseReport(ctx, r1.ID, now.Add(2*time.Hour)); err != nil {
		t.Errorf("closing a report again: %v", err)
	}
	if err := s.CloseReport(ctx, r3.ID+1000, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("closing no report: %v, want ErrNotFound", err)
	}
	if n, err := s.OpenReportsBy(ctx, ana.Key); err != nil || n != 1 {
		t.Errorf("open reports by Ana after a close: %d, %v; want 1", n, err)
	}
	if got, err := s.Reports(ctx, bo.Key, false, 10); err != nil || !slices.Equal(ids(got), []int64{r3.ID}) {
		t.Errorf("open reports of Bo after a close: %v, %v", ids(got), err)
	}
	got, err = s.Reports(ctx, bo.Key, true, 10)
	if err != nil || !slices.Equal(ids(got), []int64{r3.ID, r1.ID}) || !got[1].Closed.Equal(now.Add(time.Hour)) {
		t.Errorf("all reports of Bo: %+v, %v; the first closed at the first close", got, err)
	}
	if got, err := s.Reports(ctx, "", false, 1); err != nil || !slices.Equal(ids(got), []int64{r3.ID}) {
		t.Errorf("the latest open report of anyone: %v, %v", ids(got), err)
	}
}

// blocks tests Block, Unblock, Blocks and Blocking between two existing
// accounts.
func blocks(t *testing.T, s store.Store, ana, bo *store.Account, prefix string, now time.Time) {
	ctx := context.Background()
	cy := &store.Account{Key: prefix + "cy", Name: "Cy", Password: "pbkdf2$z", Created: now}
	if err := s.CreateAccount(ctx, cy); err != nil {
		t.Fatal(err)
	}
	if err := s.Block(ctx, ana.Key, prefix+"nobody", now, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Block of no one: %v, want ErrNotFound", err)
	}
	if err := s.Block(ctx, prefix+"nobody", ana.Key, now, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Block by no one: %v, want ErrNotFound", err)
	}
	if err := s.Block(ctx, ana.Key, ana.Key, now, 0); err == nil {
		t.Error("Block of oneself: no error")
	}
	for _, b := range []struct {
		by, of string
		at     time.Time
	}{{ana.Key, bo.Key, now}, {ana.Key, bo.Key, now.Add(time.Hour)}, {ana.Key, cy.Key, now.Add(time.Minute)}, {cy.Key, ana.Key, now}} {
		if err := s.Block(ctx, b.by, b.of, b.at, 0); err != nil {
			t.Fatalf("Block(%s, %s): %v", b.by, b.of, err)
		}
	}
	got, err := s.Blocks(ctx, ana.Key)
	if err != nil || len(got) != 2 || got[0].Key != bo.Key || got[0].Name != "Bo" || !got[0].Since.Equal(now) ||
		got[1].Key != cy.Key || !got[1].Since.Equal(now.Add(time.Minute)) {
		t.Errorf("Blocks of Ana: %+v, %v; want Bo since the first block, then Cy", got, err)
	}
	if got, err := s.Blocks(ctx, bo.Key); err != nil || len(got) != 0 {
		t.Errorf("Blocks of Bo: %+v, %v; want none", got, err)
	}
	keys := func(key string) []string {
		ks, err := s.Blocking(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(ks)
		return ks
	}
	if ks := keys(ana.Key); !slices.Equal(ks, []string{bo.Key, cy.Key}) {
		t.Errorf("Blocking of Ana: %v, want Bo and Cy once each", ks)
	}
	if ks := keys(bo.Key); !slices.Equal(ks, []string{ana.Key}) {
		t.Errorf("Blocking of Bo: %v, want Ana (who blocks Bo)", ks)
	}
	if err := s.Unblock(ctx, ana.Key, bo.Key); err != nil {
		t.Fatal(err)
	}
	if err := s.Unblock(ctx, ana.Key, bo.Key); err != nil {
		t.Errorf("Unblock again: %v", err)
	}
	if ks := keys(bo.Key); len(ks) != 0 {
		t.Errorf("Blocking of Bo after the unblock: %v", ks)
	}
	if ks := keys(ana.Key); !slices.Equal(ks, []string{cy.Key}) {
		t.Errorf("Blocking of Ana after the unblock: %v, want Cy", ks)
	}
}

// presence tests when accounts were last seen. The times are a century
// and more ahead, and only this run's accounts (by prefix) are looked
// at, as a database may be shared with other runs.
// cards checks the cardboxes: filing, a later filing winning over an
// earlier one whichever comes first, the order by due time, the limit,
// and emptying, each account's and word list's cardbox apart.
func cards(t *testing.T, s store.Store, ana, bo *store.Account, prefix string, now time.Time) {
	ctx := context.Background()
	now = now.Truncate(time.Millisecond)
	lex, other := prefix+"en", prefix+"es"
	card := func(letters string, box int, due, filed time.Duration) store.Card {
		return store.Card{Letters: letters, Box: box, Due: now.Add(due), Filed: now.Add(filed)}
	}
	list := func(key, lexicon string) string {
		cs, err := s.Cards(ctx, key, lexicon)
		if err != nil {
			t.Fatalf("Cards: %v", err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, fmt.Sprintf("%s:%d:%v:%v", c.Letters, c.Box, c.Due.Sub(now), c.Filed.Sub(now)))
		}
		return strings.Join(out, " ")
	}
	if n, err := s.PutCards(ctx, ana.Key, lex, []store.Card{card("AEINRST", 1, 48*time.Hour, 0), card("AB", 0, 24*time.Hour, 0), card("CEIORT", 2, 96*time.Hour, 0)}, 10); err != nil || n != 3 {
		t.Fatalf("PutCards: %d, %v", n, err)
	}
	// A later filing replaces a card; an earlier or simultaneous one
	// does not.
	if n, err := s.PutCards(ctx, ana.Key, lex, []store.Card{card("AEINRST", 0, 30*time.Hour, time.Hour), card("AB", 5, 900*time.Hour, -time.Hour), card("CEIORT", 7, 99*time.Hour, 0)}, 10); err != nil || n != 3 {
		t.Fatalf("PutCards again: %d, %v", n, err)
	}
	if got, want := list(ana.Key, lex), "AB:0:24h0m0s:0s AEINRST:0:30h0m0s:1h0m0s CEIORT:2:96h0m0s:0s"; got != want {
		t.Errorf("Ana's cardbox: %s, want %s", got, want)
	}
	if _, err := s.PutCards(ctx, bo.Key, lex, []store.Card{card("AB", 3, time.Hour, 0)}, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutCards(ctx, ana.Key, other, []store.Card{card("AB", 4, time.Hour, 0)}, 10); err != nil {
		t.Fatal(err)
	}
	// Over the limit: an error, and nothing changed.
	if _, err := s.PutCards(ctx, ana.Key, lex, []store.Card{card("AEINRST", 3, time.Hour, 2*time.Hour), card("DE", 1, time.Hour, 0)}, 3); !errors.Is(err, store.ErrFull) {
		t.Errorf("PutCards over the limit: %v, want ErrFull", err)
	}
	if got, want := list(ana.Key, lex), "AB:0:24h0m0s:0s AEINRST:0:30h0m0s:1h0m0s CEIORT:2:96h0m0s:0s"; got != want {
		t.Errorf("Ana's cardbox after a refusal: %s, want %s", got, want)
	}
	if n, err := s.ClearCards(ctx, ana.Key, lex); err != nil || n != 3 {
		t.Errorf("ClearCards: %d, %v", n, err)
	}
	if got := list(ana.Key, lex); got != "" {
		t.Errorf("Ana's emptied cardbox: %s", got)
	}
	if got := list(bo.Key, lex) + "|" + list(ana.Key, other); got != "AB:3:1h0m0s:0s|AB:4:1h0m0s:0s" {
		t.Errorf("the other cardboxes: %s", got)
	}
}

func presence(t *testing.T, s store.Store, ana, bo *store.Account, prefix string, now time.Time) {
	ctx := context.Background()
	// After every sighting stored before, so that runs sharing a
	// database (which keeps theirs) stay out of each other's windows.
	at := now.AddDate(100, 0, 0)
	latest, err := s.SeenSince(ctx, time.Time{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(latest) == 1 && !latest[0].At.Before(at) {
		at = latest[0].At.Add(time.Hour)
	}
	at = at.Truncate(time.Microsecond)
	di := &store.Account{Key: prefix + "di", Name: "Di", Password: "pbkdf2$z", Created: now}
	if err := s.CreateAccount(ctx, di); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key string
		at  time.Time
	}{{ana.Key, at}, {bo.Key, at.Add(time.Minute)}, {ana.Key, at.Add(-time.Hour)}, {di.Key, at.Add(2 * time.Minute)}, {prefix + "nobody", at.Add(3 * time.Minute)}} {
		if err := s.SetSeen(ctx, c.key, c.at); err != nil {
			t.Fatalf("SetSeen(%s): %v", c.key, err)
		}
	}
	if err := s.Suspend(ctx, di.Key, "test", now); err != nil {
		t.Fatal(err)
	}
	names := func(since time.Time, n int) string {
		t.Helper()
		got, err := s.SeenSince(ctx, since, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > n {
			t.Errorf("SeenSince(+%v, %d): %d accounts", since.Sub(at), n, len(got))
		}
		var out []string
		for _, g := range got {
			if strings.HasPrefix(g.Key, prefix) {
				out = append(out, g.Name+" "+g.At.Sub(at).String())
			}
		}
		return strings.Join(out, ", ")
	}
	// Ana's earlier sighting changes nothing; Di is suspended, and a key
	// without an account is no one.
	for _, c := range []struct {
		since time.Time
		n     int
		want  string
	}{
		{at, 10, "Bo 1m0s, Ana 0s"},
		{at.Add(time.Second), 10, "Bo 1m0s"},
		{at.Add(time.Hour), 10, ""},
	} {
		if got := names(c.since, c.n); got != c.want {
			t.Errorf("SeenSince(+%v, %d): %q, want %q", c.since.Sub(at), c.n, got, c.want)
		}
	}
	if got, err := s.SeenSince(ctx, at, 1); err != nil || len(got) != 1 {
		t.Errorf("SeenSince(+0s, 1): %+v %v, want one account", got, err)
	}
	if err := s.Unsuspend(ctx, di.Key); err != nil {
		t.Fatal(err)
	}
	if got := names(at, 10); got != "Di 2m0s, Bo 1m0s, Ana 0s" {
		t.Errorf("SeenSince after Di's suspension is lifted: %q", got)
	}
}

// tournaments tests tournament records; prefix makes their ids unique.
func tournaments(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	created := time.Date(2026, 5, 6, 7, 8, 9, 123456789, time.UTC)
	tr := &store.Tournament{ID: prefix + "t1", Data: `{"name":"Copa","rounds":[]}`, Version: 7, Created: created, Updated: created.Add(time.Second)}
	if err := s.CreateTournament(ctx, tr, store.TournamentLimit{}); err != nil {
		t.Fatal(err)
	}
	if tr.Version != 1 {
		t.Errorf("CreateTournament left Version %d, want 1", tr.Version)
	}
	same := func(got, want *store.Tournament) bool {
		return got.ID == want.ID && got.Data == want.Data && got.Version == want.Version && got.Finished == want.Finished &&
			got.Created.Equal(want.Created) && got.Updated.Equal(want.Updated)
	}
	got, err := s.Tournament(ctx, tr.ID)
	if err != nil || !same(got, tr) {
		t.Fatalf("Tournament: got %+v, %v; want %+v", got, err, tr)
	}

	// Refusals: none changes the tournament.
	now := created.Add(time.Hour)
	for _, c := range []struct {
		name string
		do   func() error
		want error
	}{
		{"create with an id taken", func() error {
			return s.CreateTournament(ctx, &store.Tournament{ID: tr.ID, Data: "{}", Created: now, Updated: now}, store.TournamentLimit{})
		}, store.ErrConflict},
		{"read an unknown id", func() error {
			_, err := s.Tournament(ctx, prefix+"nope")
			return err
		}, store.ErrNotFound},
		{"update at a version to come", func() error {
			_, err := s.UpdateTournament(ctx, tr.ID, 2, `{"stale":true}`, true, now)
			return err
		}, store.ErrConflict},
		{"update at version 0", func() error {
			_, err := s.UpdateTournament(ctx, tr.ID, 0, `{"stale":true}`, true, now)
			return err
		}, store.ErrConflict},
		{"update an unknown id", func() error {
			_, err := s.UpdateTournament(ctx, prefix+"nope", 1, "{}", false, now)
			return err
		}, store.ErrNotFound},
	} {
		if err := c.do(); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
		if got, err := s.Tournament(ctx, tr.ID); err != nil || !same(got, tr) {
			t.Errorf("after %s: %+v, %v; want %+v", c.name, got, err, tr)
		}
	}

	// Updates at the version read.
	v, err := s.UpdateTournament(ctx, tr.ID, 1, `{"name":"Copa","rounds":[1]}`, false, now)
	if err != nil || v != 2 {
		t.Fatalf("update at version 1: got %d, %v; want 2", v, err)
	}
	tr.Data, tr.Version, tr.Updated = `{"name":"Copa","rounds":[1]}`, 2, now
	if got, err := s.Tournament(ctx, tr.ID); err != nil || !same(got, tr) {
		t.Errorf("after an update: %+v, %v; want %+v", got, err, tr)
	}
	if _, err := s.UpdateTournament(ctx, tr.ID, 1, `{"lost":true}`, true, now.Add(time.Hour)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("update at a stale version: got %v, want ErrConflict", err)
	}
	if got, err := s.Tournament(ctx, tr.ID); err != nil || !same(got, tr) {
		t.Errorf("after an update at a stale version: %+v, %v; want %+v", got, err, tr)
	}
	later := now.Add(time.Minute)
	if v, err := s.UpdateTournament(ctx, tr.ID, 2, `{"done":true}`, true, later); err != nil || v != 3 {
		t.Fatalf("update at version 2: got %d, %v; want 3", v, err)
	}
	tr.Data, tr.Version, tr.Finished, tr.Updated = `{"done":true}`, 3, true, later
	if got, err := s.Tournament(ctx, tr.ID); err != nil || !same(got, tr) {
		t.Errorf("after finishing: %+v, %v; want %+v", got, err, tr)
	}

	// Concurrent updates at one version: one wins, the others conflict.
	c := &store.Tournament{ID: prefix + "race", Data: "{}", Created: created, Updated: created}
	if err := s.CreateTournament(ctx, c, store.TournamentLimit{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var v int
			v, errs[i] = s.UpdateTournament(ctx, c.ID, 1, fmt.Sprintf(`{"by":%d}`, i), false, now)
			if errs[i] == nil && v != 2 {
				t.Errorf("winning update: version %d, want 2", v)
			}
		}()
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("updates %d and %d both succeeded at version 1", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("update %d: got %v, want ErrConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no concurrent update succeeded")
	}
	if got, err := s.Tournament(ctx, c.ID); err != nil || got.Version != 2 || got.Data != fmt.Sprintf(`{"by":%d}`, winner) {
		t.Errorf("after the concurrent updates: %+v, %v; want version 2 by %d", got, err, winner)
	}
	// It is finished, so that it stays out of the lists' test.
	if _, err := s.UpdateTournament(ctx, c.ID, 2, "{}", true, created); err != nil {
		t.Fatal(err)
	}

	// Lists: open ones newest created first, finished ones most recently
	// updated first. Rows of other runs (in a shared database) may come
	// before or after these: only this run's are looked at, in a long
	// list, and a short one is checked for its length. The open ones are
	// finished at the end, so that a shared database holds no open test
	// tournament for a server to take up.
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, l := range []struct {
		id       string
		created  time.Duration
		finished bool
		updated  time.Duration
	}{
		{"o1", 1, false, 1},
		{"o2", 3, false, 2},
		{"o3", 2, false, 9},
		{"o4", 2, false, 3},
		{"f1", 4, true, 7},
		{"f2", 5, true, 5},
		{"f3", 0, true, 8},
	} {
		lt := &store.Tournament{ID: prefix + "l-" + l.id, Data: "{}", Created: base.Add(l.created * time.Minute), Updated: base.Add(l.created * time.Minute)}
		if err := s.CreateTournament(ctx, lt, store.TournamentLimit{}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpdateTournament(ctx, lt.ID, 1, `{"l":true}`, l.finished, base.Add(l.updated*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if !l.finished {
			t.Cleanup(func() {
				if _, err := s.UpdateTournament(ctx, lt.ID, 2, `{"l":true}`, true, time.Now()); err != nil {
					t.Error(err)
				}
			})
		}
	}
	mine := func(ts []store.Tournament, finished bool) []string {
		var ids []string
		for _, x := range ts {
			if x.Finished != finished {
				t.Errorf("tournament %s with Finished %v listed among the others", x.ID, x.Finished)
			}
			if id, ok := strings.CutPrefix(x.ID, prefix+"l-"); ok {
				ids = append(ids, id)
				if x.Version != 2 || x.Data != `{"l":true}` {
					t.Errorf("listed %+v: want version 2 and its data", x)
				}
			}
		}
		return ids
	}
	open, finished, err := s.ListTournaments(ctx, 1000000)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(mine(open, false)); got != "[o2 o4 o3 o1]" {
		t.Errorf("open tournaments: %s, want [o2 o4 o3 o1]", got)
	}
	// Paged oldest first, every open one comes once, whatever the page's
	// size; o3 and o4, created at once, in the order of their ids.
	for _, size := range []int{1, 2, 1000} {
		var all []store.Tournament
		var after store.TournamentCursor
		for pages := 0; ; pages++ {
			page, err := s.OpenTournaments(ctx, after, size)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) > size || pages > 1000 {
				t.Fatalf("pages of %d: a page of %d after %d pages", size, len(page), pages)
			}
			all = append(all, page...)
			if len(page) < size {
				break
			}
			after = after.Next(page)
		}
		if got := fmt.Sprint(mine(all, false)); got != "[o1 o3 o4 o2]" {
			t.Errorf("open tournaments in pages of %d: %s, want [o1 o3 o4 o2]", size, got)
		}
	}
	if got := fmt.Sprint(mine(finished, true)); got != "[f3 f1 f2]" {
		t.Errorf("finished tournaments: %s, want [f3 f1 f2]", got)
	}
	for _, x := range finished {
		if x.ID == tr.ID && !same(&x, tr) {
			t.Errorf("listed %+v, want %+v", x, tr)
		}
	}
	open, finished, err = s.ListTournaments(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 2 || len(finished) != 2 {
		t.Fatalf("lists of 2: %d open, %d finished", len(open), len(finished))
	}
	if prefix == "" {
		// A store of this run's alone.
		if got := fmt.Sprint(mine(open, false), mine(finished, true)); got != "[o2 o4] [f3 f1]" {
			t.Errorf("lists of 2: %s, want [o2 o4] [f3 f1]", got)
		}
	}
}

// ratedLists checks RatedGames' filters and pages and RatedTotals, on
// the games r1 and c0 to c7 of Ana and Bo (category prefix+"en", one a
// minute from now; Ana won r1 and the even ones, 400 to 350) and two
// more that rateGame records: a draw of Ana with Dee in prefix+"es",
// and a game Ana lost to Dee there at the same time as c7.
func ratedLists(ctx context.Context, t *testing.T, s store.Store, prefix string, ana, bo *store.Account, now time.Time, rateGame func(*store.RatedGame) error) {
	t.Helper()
	dee := &store.Account{Key: prefix + "dee", Name: "Dee", Password: "pbkdf2$d", Created: now}
	if err := s.CreateAccount(ctx, dee); err != nil {
		t.Fatal(err)
	}
	for _, g := range []*store.RatedGame{
		{Game: prefix + "e1", Category: prefix + "es", Finished: now.Add(30 * time.Second),
			Seats: []store.RatedSeat{{Seat: 0, Account: dee.Key, Name: "Dee", Score: 300, Result: 0.5}, {Seat: 1, Account: ana.Key, Name: "Ana", Score: 300, Result: 0.5}}},
		{Game: prefix + "e2", Category: prefix + "es", Finished: now.Add(8 * time.Minute),
			Seats: []store.RatedSeat{{Seat: 0, Account: ana.Key, Name: "Ana", Score: 500, Result: 0, Turns: 11, Best: 60}, {Seat: 1, Account: dee.Key, Name: "Dee", Score: 510, Result: 1}}},
	} {
		if err := rateGame(g); err != nil {
			t.Fatalf("RateGame %s: %v", g.Game, err)
		}
	}
	// Two casual games: Ana beat a computer, and lost a game of three
	// to Dee and a guest.
	for _, g := range []*store.RatedGame{
		{Game: prefix + "x1", Category: prefix + "en", Finished: now.Add(9 * time.Minute),
			Seats: []store.RatedSeat{{Seat: 0, Account: ana.Key, Name: "Ana", Score: 420, Result: 1, Turns: 12, Bingos: 2, Best: 98},
				{Seat: 1, Name: "Inhuman", Level: "inhuman", Score: 380, Turns: 12, Bingos: 1, Best: 80}}},
		{Game: prefix + "x2", Category: prefix + "es", Finished: now.Add(10 * time.Minute),
			Seats: []store.RatedSeat{{Seat: 0, Name: "Guest", Score: 200}, {Seat: 1, Account: ana.Key, Name: "Ana", Score: 290, Turns: 10, Bingos: 1, Best: 74},
				{Seat: 2, Account: dee.Key, Name: "Dee", Score: 350, Result: 1}}},
	} {
		if ok, err := s.RecordGame(ctx, g); err != nil || !ok {
			t.Fatalf("RecordGame %s: %v, %v", g.Game, ok, err)
		}
		if ok, err := s.RecordGame(ctx, g); err != nil || ok {
			t.Errorf("RecordGame %s twice: %v, %v; want false, nil", g.Game, ok, err)
		}
	}
	if g, err := s.RatedGame(ctx, prefix+"x1"); err != nil || g.Rated || len(g.Seats) != 2 || g.Seats[1].Level != "inhuman" || g.Seats[1].Account != "" || g.Seats[0].RAfter != 0 ||
		g.Seats[0].Turns != 12 || g.Seats[0].Bingos != 2 || g.Seats[0].Best != 98 || g.Seats[1].Best != 80 {
		t.Errorf("RatedGame x1: %+v, %v", g, err)
	}
	if g, err := s.RatedGame(ctx, prefix+"e1"); err != nil || !g.Rated || g.Seats[0].Level != "" {
		t.Errorf("RatedGame e1: %+v, %v", g, err)
	}
	ids := func(gs []store.RatedGame) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.Game[len(prefix):])
		}
		return out
	}
	// Newest first, ties in time by game ID; pages follow each other.
	all := []string{"x2", "x1", "c7", "e2", "c6", "c5", "c4", "c3", "c2", "c1", "c0", "e1", "r1"}
	var got []string
	var cur *store.RatedCursor
	for page := 0; page < 6; page++ {
		gs, err := s.RatedGames(ctx, ana.Key, store.RatedFilter{Before: cur}, 3)
		if err != nil {
			t.Fatalf("RatedGames page %d: %v", page, err)
		}
		got = append(got, ids(gs)...)
		if len(gs) < 3 {
			break
		}
		last := gs[len(gs)-1]
		cur = &store.RatedCursor{Finished: last.Finished, Game: last.Game}
	}
	if fmt.Sprint(got) != fmt.Sprint(all) {
		t.Errorf("Ana's games by pages of 3: %v, want %v", got, all)
	}
	rated := store.KindRated
	// Of Ana's games, e2, x1 and x2 have her play recorded.
	esTotals := store.RatedTotals{Games: 2, Losses: 1, Draws: 1, Points: 800, OpponentSeats: 2, OpponentPoints: 810, High: 500, HighGame: prefix + "e2",
		PlayGames: 1, PlayPoints: 500, Turns: 11, Best: 60, BestGame: prefix + "e2"}
	enTotals := store.RatedTotals{Games: 9, Wins: 5, Losses: 4, Points: 3600, OpponentSeats: 9, OpponentPoints: 3150, High: 400, HighGame: prefix + "c7"}
	esAll := store.RatedTotals{Games: 3, Losses: 2, Draws: 1, Points: 1090, OpponentSeats: 4, OpponentPoints: 1360, High: 500, HighGame: prefix + "e2",
		PlayGames: 2, PlayPoints: 790, Turns: 21, Bingos: 1, Best: 74, BestGame: prefix + "x2"}
	for _, c := range []struct {
		f    store.RatedFilter
		want string
		tot  store.RatedTotals
		high time.Duration // when the highest score's game finished
	}{
		{store.RatedFilter{Kind: rated, Categories: []string{prefix + "es"}}, "[e2 e1]", esTotals, 8 * time.Minute},
		{store.RatedFilter{Kind: rated, Opponent: dee.Key}, "[e2 e1]", esTotals, 8 * time.Minute},
		{store.RatedFilter{Kind: rated, Categories: []string{prefix + "en"}, Opponent: bo.Key}, "[c7 c6 c5 c4 c3 c2 c1 c0 r1]", enTotals, 8 * time.Minute},
		{store.RatedFilter{Categories: []string{prefix + "en"}, Opponent: bo.Key}, "[c7 c6 c5 c4 c3 c2 c1 c0 r1]", enTotals, 8 * time.Minute},
		{store.RatedFilter{Kind: rated, Categories: []string{prefix + "es"}, Opponent: bo.Key}, "[]", store.RatedTotals{}, 0},
		{store.RatedFilter{Opponent: ana.Key}, "[]", store.RatedTotals{}, 0},
		{store.RatedFilter{Kind: rated, Categories: []string{prefix + "en"}, Before: &store.RatedCursor{Finished: now.Add(2 * time.Minute), Game: prefix + "c1"}}, "[c0 r1]", enTotals, 8 * time.Minute},
		{store.RatedFilter{Categories: []string{prefix + "es"}}, "[x2 e2 e1]", esAll, 8 * time.Minute},
		{store.RatedFilter{Opponent: dee.Key}, "[x2 e2 e1]", esAll, 8 * time.Minute},
		{store.RatedFilter{Kind: store.KindCasual}, "[x2 x1]",
			store.RatedTotals{Games: 2, Wins: 1, Losses: 1, Points: 710, OpponentSeats: 3, OpponentPoints: 930, High: 420, HighGame: prefix + "x1",
				PlayGames: 2, PlayPoints: 710, Turns: 22, Bingos: 3, Best: 98, BestGame: prefix + "x1"}, 9 * time.Minute},
		{store.RatedFilter{Kind: store.KindCasual, Opponent: bo.Key}, "[]", store.RatedTotals{}, 0},
		{store.RatedFilter{Kind: rated, Categories: []string{prefix + "en"}}, "[c7 c6 c5 c4 c3 c2 c1 c0 r1]", enTotals, 8 * time.Minute},
		{store.RatedFilter{Kind: rated, Categories: []string{prefix + "es", prefix + "en"}}, "[c7 e2 c6 c5 c4 c3 c2 c1 c0 e1 r1]",
			store.RatedTotals{Games: 11, Wins: 5, Losses: 5, Draws: 1, Points: 4400, OpponentSeats: 11, OpponentPoints: 3960, High: 500, HighGame: prefix + "e2",
				PlayGames: 1, PlayPoints: 500, Turns: 11, Best: 60, BestGame: prefix + "e2"}, 8 * time.Minute},
	} {
		gs, err := s.RatedGames(ctx, ana.Key, c.f, 20)
		if err != nil || fmt.Sprint(ids(gs)) != c.want {
			t.Errorf("RatedGames %+v: %v, %v; want %s", c.f, ids(gs), err, c.want)
		}
		tot, err := s.RatedTotals(ctx, ana.Key, c.f)
		hf, bf := tot.HighFinished, tot.BestFinished
		tot.HighFinished, tot.BestFinished = time.Time{}, time.Time{}
		if err != nil || tot != c.tot {
			t.Errorf("RatedTotals %+v: %+v, %v; want %+v", c.f, tot, err, c.tot)
		}
		if tot.Games > 0 && !hf.Equal(now.Add(c.high)) {
			t.Errorf("RatedTotals %+v: the highest score's game finished %v", c.f, hf)
		}
		if g, err := s.RatedGame(ctx, tot.BestGame); tot.PlayGames > 0 && (err != nil || !bf.Equal(g.Finished)) {
			t.Errorf("RatedTotals %+v: the best placement's game finished %v, the game %v (%v)", c.f, bf, g, err)
		}
	}
	if gs, err := s.RatedGames(ctx, dee.Key, store.RatedFilter{Kind: rated}, 1); err != nil || fmt.Sprint(ids(gs)) != "[e2]" || gs[0].Seats[1].Account != dee.Key {
		t.Errorf("Dee's latest rated game: %+v, %v", gs, err)
	}
	if gs, err := s.RatedGames(ctx, dee.Key, store.RatedFilter{}, 1); err != nil || fmt.Sprint(ids(gs)) != "[x2]" || gs[0].Rated || gs[0].Seats[2].Account != dee.Key || gs[0].Seats[0].Account != "" {
		t.Errorf("Dee's latest game of any kind: %+v, %v", gs, err)
	}
}

// lobbyChat checks the lobby's chat: lines kept in order with their
// writers' names, the oldest pruned past the number kept, a suspended
// account's lines left out until the suspension is lifted, a line
// deleted, and lines refused for no account or no text.
func lobbyChat(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	cy := &store.Account{Key: prefix + "chat-cy", Name: "Cy", Password: "p", Created: now}
	di := &store.Account{Key: prefix + "chat-di", Name: "Di", Password: "p", Created: now}
	for _, a := range []*store.Account{cy, di} {
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	// ours lists the lines of this test's accounts among the latest 100.
	ours := func() []store.LobbyLine {
		t.Helper()
		all, err := s.LobbyLines(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		var out []store.LobbyLine
		for _, l := range all {
			if l.Account == cy.Key || l.Account == di.Key {
				out = append(out, l)
			}
		}
		return out
	}
	var added []store.LobbyLine
	for i, by := range []*store.Account{cy, di, cy, di, cy} {
		l := store.LobbyLine{Account: by.Key, Text: fmt.Sprintf("line %d", i), At: now.Add(time.Duration(i) * time.Second)}
		if err := s.AddLobbyLine(ctx, &l, 100); err != nil {
			t.Fatal(err)
		}
		if len(added) > 0 && l.ID <= added[len(added)-1].ID {
			t.Errorf("line %d numbered %d after %d", i, l.ID, added[len(added)-1].ID)
		}
		l.Name = by.Name
		added = append(added, l)
	}
	if got := ours(); !slices.Equal(got, added) {
		t.Errorf("LobbyLines: got %+v, want %+v", got, added)
	}
	// Keeping three lines drops the two oldest.
	l := store.LobbyLine{Account: di.Key, Text: "line 5", At: now.Add(5 * time.Second)}
	if err := s.AddLobbyLine(ctx, &l, 3); err != nil {
		t.Fatal(err)
	}
	l.Name = di.Name
	added = append(added[3:], l)
	if got := ours(); !slices.Equal(got, added) {
		t.Errorf("after keeping 3: got %+v, want %+v", got, added)
	}
	// A suspended account's lines are left out while it is suspended.
	if err := s.Suspend(ctx, cy.Key, "spam", now); err != nil {
		t.Fatal(err)
	}
	if got := ours(); len(got) != 2 || got[0] != added[0] || got[1] != added[2] {
		t.Errorf("Cy suspended: got %+v, want Di's lines of %+v", got, added)
	}
	if err := s.Unsuspend(ctx, cy.Key); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteLobbyLine(ctx, added[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := ours(); !slices.Equal(got, added[1:]) {
		t.Errorf("after deleting %d: got %+v, want %+v", added[0].ID, got, added[1:])
	}
	if err := s.DeleteLobbyLine(ctx, added[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting line %d again: got %v, want ErrNotFound", added[0].ID, err)
	}
	if err := s.AddLobbyLine(ctx, &store.LobbyLine{Account: prefix + "nobody", Text: "hi", At: now}, 100); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a line by no account: got %v, want ErrNotFound", err)
	}
	if err := s.AddLobbyLine(ctx, &store.LobbyLine{Account: cy.Key, At: now}, 100); err == nil {
		t.Error("a line with no text was stored")
	}
}

// newcomers is a puzzle rating rule that fills in a newcomer's rating
// (1500) where one does not exist yet and changes nothing else.
func newcomers(a, p *store.PuzzleRating) (store.PuzzleRating, store.PuzzleRating, error) {
	for _, r := range []*store.PuzzleRating{a, p} {
		if r.R == 0 {
			r.R, r.RD, r.Vol = 1500, 350, 0.06
		}
	}
	return *a, *p, nil
}

// tenPoints is a puzzle rating rule for the tests: the account wins
// when it solved the puzzle, and the winner takes 10 points from the
// loser; both deviations go down by 1 (newcomers filled in first).
func tenPoints(solved bool) store.PuzzleRateFunc {
	return func(a, p *store.PuzzleRating) (store.PuzzleRating, store.PuzzleRating, error) {
		na, np, err := newcomers(a, p)
		d := 10.0
		if !solved {
			d = -10
		}
		na.R += d
		np.R -= d
		na.RD, np.RD = a.RD-1, p.RD-1
		return na, np, err
	}
}

// puzzleRatings checks the puzzle ratings that first answers make.
func puzzleRatings(t *testing.T, s store.Store, ana, bo *store.Account, prefix string, now time.Time) {
	ctx := context.Background()
	lex := prefix + "pz"
	rate := tenPoints
	answer := func(acc *store.Account, n int, solved bool) (*store.PuzzleRecord, bool) {
		t.Helper()
		r := &store.PuzzleRecord{Lexicon: lex, Number: n, Correct: solved, Score: 20, Answered: now.Add(time.Duration(n) * time.Minute)}
		first, err := s.RecordPuzzle(ctx, acc.Key, r, rate(solved))
		if err != nil {
			t.Fatalf("%s answers puzzle %d: %v", acc.Name, n, err)
		}
		return r, first
	}
	if r, first := answer(ana, 11, true); !first || r.RBefore != 1500 || r.RAfter != 1510 {
		t.Errorf("Ana solves puzzle 11: first %v, rating %v → %v; want 1500 → 1510", first, r.RBefore, r.RAfter)
	}
	if r, first := answer(bo, 11, false); !first || r.RBefore != 1500 || r.RAfter != 1490 {
		t.Errorf("Bo misses puzzle 11: first %v, rating %v → %v; want 1500 → 1490", first, r.RBefore, r.RAfter)
	}
	if r, first := answer(ana, 11, false); first || r.RBefore != 0 || r.RAfter != 0 {
		t.Errorf("Ana answers puzzle 11 again: first %v, rating %v → %v; want nothing rated", first, r.RBefore, r.RAfter)
	}
	if r, first := answer(ana, 12, false); !first || r.RBefore != 1510 || r.RAfter != 1500 {
		t.Errorf("Ana misses puzzle 12: first %v, rating %v → %v; want 1510 → 1500", first, r.RBefore, r.RAfter)
	}
	if r, err := s.PuzzleRecord(ctx, ana.Key, lex, 11); err != nil || r.RBefore != 1500 || r.RAfter != 1510 || !r.Correct {
		t.Errorf("Ana's answer to puzzle 11 as kept: %+v, %v", r, err)
	}
	// A rule that fails records nothing.
	fail := func(a, p *store.PuzzleRating) (store.PuzzleRating, store.PuzzleRating, error) {
		return *a, *p, errors.New("no rating today")
	}
	if _, err := s.RecordPuzzle(ctx, bo.Key, &store.PuzzleRecord{Lexicon: lex, Number: 12, Correct: true, Answered: now}, fail); err == nil {
		t.Error("RecordPuzzle with a failing rule: no error")
	}
	if _, err := s.PuzzleRecord(ctx, bo.Key, lex, 12); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Bo's answer to puzzle 12 after the rule failed: %v, want ErrNotFound", err)
	}

	rs, err := s.PuzzleRatings(ctx, ana.Key)
	if err != nil || len(rs) != 1 || rs[0].Lexicon != lex || rs[0].R != 1500 || rs[0].RD != 348 || rs[0].Answered != 2 || rs[0].Solved != 1 ||
		rs[0].Number != 0 || !rs[0].Updated.Equal(now.Add(12*time.Minute)) {
		t.Errorf("Ana's puzzle ratings: %+v, %v; want one of %s at 1500 (RD 348), 2 answered, 1 solved", rs, err, lex)
	}
	levels, err := s.PuzzleLevels(ctx, lex)
	if err != nil || len(levels) != 2 || levels[0].Number != 11 || levels[0].R != 1500 || levels[0].Answered != 2 || levels[0].Solved != 1 ||
		levels[1].Number != 12 || levels[1].R != 1510 || levels[1].Answered != 1 || levels[1].Solved != 0 || levels[0].Account != "" {
		t.Errorf("the ratings of the puzzles of %s: %+v, %v", lex, levels, err)
	}
	if p, err := s.PuzzleLevel(ctx, lex, 12); err != nil || p.R != 1510 {
		t.Errorf("PuzzleLevel %s 12: %+v, %v", lex, p, err)
	}
	if _, err := s.PuzzleLevel(ctx, lex, 13); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PuzzleLevel of a puzzle nobody answered: %v, want ErrNotFound", err)
	}
	if ns, err := s.PuzzleNumbers(ctx, ana.Key, lex); err != nil || !slices.Equal(ns, []int{11, 12}) {
		t.Errorf("PuzzleNumbers of Ana in %s: %v, %v; want [11 12]", lex, ns, err)
	}

	// Answers at once to one puzzle are all counted, none lost.
	var wg sync.WaitGroup
	const many = 6
	errs := make(chan error, many)
	for i := range many {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := &store.Account{Key: fmt.Sprintf("%spz%d", prefix, i), Name: fmt.Sprintf("Pz%d", i), Password: "pbkdf2$p", Created: now}
			if err := s.CreateAccount(ctx, acc); err != nil {
				errs <- err
				return
			}
			r := &store.PuzzleRecord{Lexicon: lex, Number: 14, Correct: i%3 == 0, Answered: now}
			_, err := s.RecordPuzzle(ctx, acc.Key, r, rate(r.Correct))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// Two of the six solve it: the puzzle goes down 20 and up 40.
	if p, err := s.PuzzleLevel(ctx, lex, 14); err != nil || p.Answered != many || p.Solved != 2 || p.R != 1520 {
		t.Errorf("puzzle 14 after %d answers at once: %+v, %v; want %d answered, 2 solved, 1520", many, p, err, many)
	}

	// The leaderboard ranks accounts (never puzzles) by rating less twice
	// the deviation: Pz0 and Pz3 solved puzzle 14 (1510, RD 349), Ana is
	// at 1500 with RD 348 (812, 812 and 804), the rest at 1490.
	leaders := func(n int) string {
		t.Helper()
		board, err := s.PuzzleLeaderboard(ctx, lex, n)
		if err != nil {
			t.Fatalf("PuzzleLeaderboard of %s: %v", lex, err)
		}
		var names []string
		for _, r := range board {
			if r.Number != 0 || r.Account == "" || r.Lexicon != lex {
				t.Errorf("PuzzleLeaderboard holds %+v", r)
			}
			names = append(names, fmt.Sprintf("%s %.0f/%d", r.Name, r.R, r.Answered))
		}
		return strings.Join(names, ", ")
	}
	if got, want := leaders(3), "Pz0 1510/1, Pz3 1510/1, Ana 1500/2"; got != want {
		t.Errorf("the puzzle leaderboard's first three: %s; want %s", got, want)
	}
	if got := leaders(100); strings.Count(got, "/") != 2+many {
		t.Errorf("the whole puzzle leaderboard: %s; want %d accounts", got, 2+many)
	}
	if board, err := s.PuzzleLeaderboard(ctx, prefix+"none", 10); err != nil || len(board) != 0 {
		t.Errorf("the puzzle leaderboard of a word list without answers: %+v, %v", board, err)
	}
	if err := s.Suspend(ctx, ana.Key, "cheating at puzzles", now); err != nil {
		t.Fatal(err)
	}
	if got := leaders(3); strings.Contains(got, "Ana") {
		t.Errorf("the puzzle leaderboard with Ana suspended: %s", got)
	}
	if err := s.Unsuspend(ctx, ana.Key); err != nil {
		t.Fatal(err)
	}
}

// rerating checks Rerate: games of one category split by their headers'
// clocks, rated again in the order they finished, the ratings rebuilt,
// another category left alone, a failing rating function changing
// nothing, and a second run finding nothing to move.
func rerating(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	var acc [3]*store.Account
	for i, name := range []string{"Ann", "Ben", "Cy"} {
		acc[i] = &store.Account{Key: prefix + "rerate-" + strings.ToLower(name), Name: name, Password: "pbkdf2$r", Created: now}
		if err := s.CreateAccount(ctx, acc[i]); err != nil {
			t.Fatal(err)
		}
	}
	// rate: a newcomer starts at 1500; the winner gains 10 + its game
	// count, the loser loses as much.
	rate := func(g *store.RatedGame) store.RateFunc {
		return func(before []store.Rating) ([]store.Rating, error) {
			after := make([]store.Rating, len(before))
			for i := range before {
				if before[i].Games == 0 {
					before[i].R, before[i].RD, before[i].Vol = 1500, 350, 0.06
				}
				r := before[i]
				d := float64(10 + r.Games)
				if g.Seats[i].Result == 1 {
					r.R += d
					r.Wins++
				} else {
					r.R -= d
					r.Losses++
				}
				r.Games++
				after[i] = r
			}
			return after, nil
		}
	}
	en, es := prefix+"rr-en", prefix+"rr-es"
	// Games in the order they finish: seats (by account), winner, the
	// clock's seconds (0: no header), category.
	type played struct {
		id     string
		a, b   int
		winner int
		clock  int
		cat    string
		casual bool
	}
	games := []played{
		{"f1", 0, 1, 0, 300, en, false},
		{"s1", 0, 1, 1, 1500, en, false},
		{"f2", 1, 2, 0, 300, en, false},
		{"g1", 2, 0, 0, 300, en + "/fast", false}, // rated once split
		{"x1", 0, 2, 0, 300, es, false},
		{"n1", 0, 1, 0, 0, en, false},
		{"c1", 0, 1, 0, 300, en, true},
		{"f3", 0, 1, 1, 300, en, false},
	}
	for i, p := range games {
		at := now.Add(time.Duration(i) * time.Minute)
		if p.clock > 0 {
			if err := s.CreateGame(ctx, &store.Game{ID: prefix + "rr-" + p.id, Variant: "english", Lexicon: "en-sowpods", Created: at,
				Seats: []store.Seat{{Name: acc[p.a].Name, Seconds: p.clock}, {Name: acc[p.b].Name, Seconds: p.clock}}}); err != nil {
				t.Fatal(err)
			}
			if err := s.Finish(ctx, prefix+"rr-"+p.id); err != nil {
				t.Fatal(err)
			}
		}
		g := &store.RatedGame{Game: prefix + "rr-" + p.id, Category: p.cat, Finished: at, Rated: !p.casual,
			Seats: []store.RatedSeat{{Seat: 0, Account: acc[p.a].Key, Name: acc[p.a].Name, Score: 400}, {Seat: 1, Account: acc[p.b].Key, Name: acc[p.b].Name, Score: 300}}}
		g.Seats[p.winner].Result = 1
		var err error
		if p.casual {
			_, err = s.RecordGame(ctx, g)
		} else {
			_, err = s.RateGame(ctx, g, rate(g))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	ratings := func() string {
		var out []string
		for _, a := range acc {
			rs, err := s.Ratings(ctx, a.Key)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				out = append(out, fmt.Sprintf("%s %s %.0f %d-%d", r.Name, strings.TrimPrefix(r.Category, prefix+"rr-"), r.R, r.Wins, r.Losses))
			}
		}
		return strings.Join(out, ", ")
	}
	if got, want := ratings(), "Ann en 1498 2-2, Ann en/fast 1490 0-1, Ann es 1510 1-0, Ben en 1514 3-2, Cy en 1490 0-1, Cy en/fast 1510 1-0, Cy es 1490 0-1"; got != want {
		t.Fatalf("ratings before: %s, want %s", got, want)
	}
	speed := func(g *store.RatedGame, seats []store.Seat) string {
		base, _, _ := strings.Cut(g.Category, "/")
		switch {
		case seats == nil:
			return base + "/none"
		case seats[0].Seconds < 600:
			return base + "/fast"
		}
		return base + "/slow"
	}
	// A failing rating function changes nothing.
	if _, err := s.Rerate(ctx, []string{en}, speed, func(*store.RatedGame) store.RateFunc {
		return func([]store.Rating) ([]store.Rating, error) { return nil, errors.New("no") }
	}); err == nil {
		t.Error("Rerate with a failing rating function: no error")
	}
	if got, want := ratings(), "Ann en 1498 2-2, Ann en/fast 1490 0-1, Ann es 1510 1-0, Ben en 1514 3-2, Cy en 1490 0-1, Cy en/fast 1510 1-0, Cy es 1490 0-1"; got != want {
		t.Errorf("ratings after a failed Rerate: %s, want %s", got, want)
	}
	n, err := s.Rerate(ctx, []string{en}, speed, rate)
	if err != nil || n != 6 {
		t.Fatalf("Rerate: %d, %v; want 6 games", n, err)
	}
	// fast: f1 Ann beats Ben (1510, 1490), f2 Ben beats Cy (1490+11 =
	// 1501, 1490), g1 Cy beats Ann (1490+11 = 1501, 1510-11 = 1499), f3
	// Ben beats Ann (1501+12 = 1513, 1499-12 = 1487); slow: s1 Ben beats
	// Ann; none: n1 Ann beats Ben.
	if got, want := ratings(), "Ann en/fast 1487 1-2, Ann en/none 1510 1-0, Ann en/slow 1490 0-1, Ann es 1510 1-0, "+
		"Ben en/fast 1513 2-1, Ben en/none 1490 0-1, Ben en/slow 1510 1-0, Cy en/fast 1501 1-1, Cy es 1490 0-1"; got != want {
		t.Errorf("ratings after Rerate: %s, want %s", got, want)
	}
	if g, err := s.RatedGame(ctx, prefix+"rr-f3"); err != nil || g.Category != en+"/fast" || g.Seats[0].RBefore != 1499 || g.Seats[0].RAfter != 1487 ||
		g.Seats[1].RBefore != 1501 || g.Seats[1].RAfter != 1513 {
		t.Errorf("f3 after Rerate: %+v, %v", g, err)
	}
	if g, err := s.RatedGame(ctx, prefix+"rr-c1"); err != nil || g.Category != en+"/fast" || g.Rated {
		t.Errorf("casual c1 after Rerate: %+v, %v", g, err)
	}
	if gs, err := s.RatedGames(ctx, acc[0].Key, store.RatedFilter{Categories: []string{en + "/fast"}}, 10); err != nil || len(gs) != 4 {
		t.Errorf("Ann's games in en/fast: %d, %v; want f3, c1, g1, f1", len(gs), err)
	}
	cats, err := s.RecordedCategories(ctx)
	var mine []string
	for _, c := range cats {
		if strings.HasPrefix(c, prefix+"rr-") {
			mine = append(mine, strings.TrimPrefix(c, prefix+"rr-"))
		}
	}
	if err != nil || fmt.Sprint(mine) != "[en/fast en/none en/slow es]" {
		t.Errorf("RecordedCategories: %v, %v", mine, err)
	}
	// Nothing is left in en; rating en/fast again changes nothing.
	if n, err := s.Rerate(ctx, []string{en}, speed, rate); err != nil || n != 0 {
		t.Errorf("Rerate again: %d, %v; want 0, nil", n, err)
	}
	if n, err := s.Rerate(ctx, []string{en + "/fast"}, speed, rate); err != nil || n != 4 {
		t.Errorf("Rerate of en/fast: %d, %v; want 4, nil", n, err)
	}
	if got, want := ratings(), "Ann en/fast 1487 1-2, Ann en/none 1510 1-0, Ann en/slow 1490 0-1, Ann es 1510 1-0, "+
		"Ben en/fast 1513 2-1, Ben en/none 1490 0-1, Ben en/slow 1510 1-0, Cy en/fast 1501 1-1, Cy es 1490 0-1"; got != want {
		t.Errorf("ratings after rating en/fast again: %s, want %s", got, want)
	}
}

// bios checks SetBio and Bio: none at first, written, written over,
// refused for no account, taken away, and gone with a closed account.
func bios(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 7, 8, 9, 10, 11, 0, time.UTC)
	a := &store.Account{Key: prefix + "bio-ana", Name: "Ana", Password: "pbkdf2$b", Created: now}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Bio(ctx, a.Key); err != nil || b != (store.Bio{}) {
		t.Errorf("Bio before any: %+v, %v", b, err)
	}
	for _, want := range []store.Bio{
		{About: "Club player in Brno. Ask me for a game!", Country: "CZ", Updated: now},
		{About: "", Country: "ES", Updated: now.Add(time.Hour)},
		{About: "Just words.", Updated: now.Add(2 * time.Hour)},
	} {
		if err := s.SetBio(ctx, a.Key, want); err != nil {
			t.Fatal(err)
		}
		if b, err := s.Bio(ctx, a.Key); err != nil || b != want {
			t.Errorf("Bio: %+v, %v; want %+v", b, err, want)
		}
	}
	if err := s.SetBio(ctx, prefix+"bio-nobody", store.Bio{About: "x", Updated: now}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetBio of no account: %v, want ErrNotFound", err)
	}
	if err := s.SetBio(ctx, a.Key, store.Bio{Updated: now}); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Bio(ctx, a.Key); err != nil || b != (store.Bio{}) {
		t.Errorf("Bio taken away: %+v, %v", b, err)
	}
	if err := s.SetBio(ctx, a.Key, store.Bio{About: "Leaving soon.", Updated: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseAccount(ctx, a.Key, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Bio(ctx, a.Key); err != nil || b != (store.Bio{}) {
		t.Errorf("Bio of a closed account: %+v, %v", b, err)
	}
}

// ratedAgainstComputer checks RateGame of a game between an account and
// the computer: the rating function gets the computer's seat with no
// account, the account's rating alone is written (no rating of an
// account "" anywhere), and the record keeps both seats, the computer's
// with its level and the rating the function gave it.
func ratedAgainstComputer(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	cy := &store.Account{Key: prefix + "rated-cy", Name: "Cy", Password: "pbkdf2$c", Created: now}
	if err := s.CreateAccount(ctx, cy); err != nil {
		t.Fatal(err)
	}
	cat := prefix + "en/computer"
	g := &store.RatedGame{Game: prefix + "vs-computer", Category: cat, Finished: now, Rated: true,
		Seats: []store.RatedSeat{{Seat: 0, Account: cy.Key, Name: "Cy", Score: 420, Result: 1},
			{Seat: 1, Name: "Computer", Level: "professional", Score: 380}}}
	ok, err := s.RateGame(ctx, g, func(before []store.Rating) ([]store.Rating, error) {
		if len(before) != 2 || before[0].Account != cy.Key || before[0].Games != 0 || before[1].Account != "" || before[1].Name != "Computer" {
			t.Errorf("the rating function was given %+v", before)
		}
		before[0].R, before[0].RD = 1500, 350
		before[1].R, before[1].RD = 1700, 30
		after := slices.Clone(before)
		after[0].R, after[0].RD, after[0].Games, after[0].Wins = 1620, 300, 1, 1
		return after, nil
	})
	if err != nil || !ok {
		t.Fatalf("RateGame against the computer: %v, %v", ok, err)
	}
	if rs, err := s.Ratings(ctx, cy.Key); err != nil || len(rs) != 1 || rs[0].Category != cat || rs[0].R != 1620 || rs[0].Games != 1 || rs[0].Wins != 1 {
		t.Errorf("Cy's ratings: %+v, %v", rs, err)
	}
	if lb, err := s.Leaderboard(ctx, cat, 10); err != nil || len(lb) != 1 || lb[0].Account != cy.Key {
		t.Errorf("the leaderboard against the computer: %+v, %v; want Cy alone", lb, err)
	}
	rg, err := s.RatedGame(ctx, g.Game)
	if err != nil {
		t.Fatal(err)
	}
	if !rg.Rated || len(rg.Seats) != 2 || rg.Seats[0].RBefore != 1500 || rg.Seats[0].RAfter != 1620 ||
		rg.Seats[1].Level != "professional" || rg.Seats[1].Account != "" || rg.Seats[1].RBefore != 1700 || rg.Seats[1].RAfter != 1700 {
		t.Errorf("the record of the game against the computer: %+v", rg)
	}
}

// levelTotals checks LevelTotals: an account's games against the
// computer summed up by level, the games between people left out.
func levelTotals(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 11, 0, 0, 0, time.UTC)
	dee := &store.Account{Key: prefix + "levels-dee", Name: "Dee", Password: "pbkdf2$d", Created: now}
	if err := s.CreateAccount(ctx, dee); err != nil {
		t.Fatal(err)
	}
	if ts, err := s.LevelTotals(ctx, dee.Key); err != nil || len(ts) != 0 {
		t.Errorf("LevelTotals before any game: %+v, %v", ts, err)
	}
	for i, g := range []struct {
		level        string
		score, other int
		result       float64
	}{{"adept", 400, 300, 1}, {"adept", 300, 350, 0}, {"inhuman", 350, 450, 0}, {"adept", 320, 320, 0.5}, {"", 410, 390, 1}} {
		opp := store.RatedSeat{Seat: 1, Name: "Computer", Level: g.level, Score: g.other, Result: 1 - g.result}
		if g.level == "" {
			opp.Name, opp.Account = "Eve", prefix+"levels-eve"
		}
		rg := &store.RatedGame{Game: fmt.Sprintf("%slevels-%d", prefix, i), Category: prefix + "en/regular", Finished: now.Add(time.Duration(i) * time.Minute),
			Seats: []store.RatedSeat{{Seat: 0, Account: dee.Key, Name: "Dee", Score: g.score, Result: g.result}, opp}}
		if _, err := s.RecordGame(ctx, rg); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := s.LevelTotals(ctx, dee.Key)
	want := []store.LevelTotal{{Level: "adept", Games: 3, Wins: 1, Losses: 1, Draws: 1, Points: 1020, LevelPoints: 970},
		{Level: "inhuman", Games: 1, Losses: 1, Points: 350, LevelPoints: 450}}
	if err != nil || !slices.Equal(ts, want) {
		t.Errorf("LevelTotals: %+v, %v; want %+v", ts, err, want)
	}
}

// settings checks SetSettings and Settings: none at first, written,
// written over, refused for no account and when too long, taken away,
// and gone with a closed account.
func settings(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 9, 10, 11, 0, time.UTC)
	a := &store.Account{Key: prefix + "settings-ana", Name: "Ana", Password: "pbkdf2$b", Created: now}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	read := func() string {
		t.Helper()
		p, err := s.Settings(ctx, a.Key)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := read(); p != "" {
		t.Errorf("Settings before any: %q", p)
	}
	for i, want := range []string{`{"theme":"dark"}`, `{"theme":"light","board":"felt","sound":"off"}`, `{"language":"cs"}`} {
		if err := s.SetSettings(ctx, a.Key, want, now.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if p := read(); p != want {
			t.Errorf("Settings: %q, want %q", p, want)
		}
	}
	if err := s.SetSettings(ctx, prefix+"settings-nobody", `{}`, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetSettings of no account: %v, want ErrNotFound", err)
	}
	long := `{"x":"` + strings.Repeat("a", store.MaxSettings) + `"}`
	if err := s.SetSettings(ctx, a.Key, long, now); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("SetSettings of %d bytes: %v, want an error", len(long), err)
	}
	if p := read(); p != `{"language":"cs"}` {
		t.Errorf("Settings after a refused write: %q", p)
	}
	if err := s.SetSettings(ctx, a.Key, "", now); err != nil {
		t.Fatal(err)
	}
	if p := read(); p != "" {
		t.Errorf("Settings taken away: %q", p)
	}
	if err := s.SetSettings(ctx, a.Key, `{"theme":"dark"}`, now); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseAccount(ctx, a.Key, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if p := read(); p != "" {
		t.Errorf("Settings of a closed account: %q", p)
	}
}

func rushes(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 8, 9, 10, 11, 12, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var accounts [4]*store.Account
	for i, name := range []string{"Ana", "Bo", "Cy", "Di"} {
		accounts[i] = &store.Account{Key: prefix + "rush-" + name, Name: prefix + name, Password: "pbkdf2$r", Created: now}
		must(s.CreateAccount(ctx, accounts[i]))
	}
	ana, bo, cy, di := accounts[0], accounts[1], accounts[2], accounts[3]
	lex := prefix + "en"
	run := func(id string, who *store.Account, mode string, at time.Time) *store.RushRun {
		r := &store.RushRun{ID: prefix + id, Lexicon: lex, Mode: mode, Seed: 1<<63 + 5, Started: at}
		if who != nil {
			r.Account = who.Key
		}
		if mode == "timed" {
			r.Deadline = at.Add(5 * time.Minute)
		}
		must(s.StartRush(ctx, r))
		return r
	}
	r := run("r1", ana, "timed", now)
	got, err := s.Rush(ctx, r.ID)
	if err != nil || *got != *r {
		t.Fatalf("Rush: %+v, %v; want %+v", got, err, r)
	}
	if err := s.StartRush(ctx, r); !errors.Is(err, store.ErrConflict) {
		t.Errorf("StartRush of an id taken: %v, want ErrConflict", err)
	}
	if err := s.StartRush(ctx, &store.RushRun{ID: prefix + "r0", Lexicon: lex, Mode: "timed", Started: now, Solved: 2}); err == nil {
		t.Error("StartRush of a run already solving: no error")
	}
	if _, err := s.Rush(ctx, prefix+"nothing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Rush of no run: %v, want ErrNotFound", err)
	}
	// An answer moves the run on once: the same puzzle answered again
	// (another process, a second click) changes nothing.
	if got, err = s.AdvanceRush(ctx, r.ID, 0, true, time.Time{}); err != nil || got.Puzzle != 1 || got.Solved != 1 || got.Misses != 0 || !got.Ended.IsZero() {
		t.Errorf("AdvanceRush solved: %+v, %v", got, err)
	}
	if got, err = s.AdvanceRush(ctx, r.ID, 0, false, time.Time{}); !errors.Is(err, store.ErrConflict) || got == nil || got.Puzzle != 1 || got.Misses != 0 {
		t.Errorf("AdvanceRush of a puzzle answered: %+v, %v; want the run and ErrConflict", got, err)
	}
	must2 := func(r *store.RushRun, err error) *store.RushRun {
		t.Helper()
		must(err)
		return r
	}
	must2(s.AdvanceRush(ctx, r.ID, 1, true, time.Time{}))
	must2(s.AdvanceRush(ctx, r.ID, 2, true, time.Time{}))
	end := now.Add(3 * time.Minute)
	if got = must2(s.AdvanceRush(ctx, r.ID, 3, false, end)); got.Puzzle != 4 || got.Solved != 3 || got.Misses != 1 || !got.Ended.Equal(end) {
		t.Errorf("AdvanceRush that ends the run: %+v", got)
	}
	if _, err = s.AdvanceRush(ctx, r.ID, 4, true, time.Time{}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AdvanceRush of a run over: %v, want ErrConflict", err)
	}
	if got = must2(s.EndRush(ctx, r.ID, end.Add(time.Minute))); !got.Ended.Equal(end) || got.Solved != 3 {
		t.Errorf("EndRush of a run over: %+v, want it ended at %v", got, end)
	}
	// Ana: 3 and 1 timed, 2 in survival; Bo 3 timed, later than Ana;
	// Cy none solved; Di suspended; a guest 9.
	r2 := run("r2", ana, "timed", now.Add(time.Hour))
	must2(s.AdvanceRush(ctx, r2.ID, 0, true, time.Time{}))
	r3 := run("r3", ana, "survival", now.Add(2*time.Hour))
	must2(s.AdvanceRush(ctx, r3.ID, 0, true, time.Time{}))
	must2(s.AdvanceRush(ctx, r3.ID, 1, true, time.Time{}))
	rb := run("rb", bo, "timed", now.Add(3*time.Hour))
	rc := run("rc", cy, "timed", now.Add(3*time.Hour))
	rd := run("rd", di, "timed", now.Add(3*time.Hour))
	guest := run("rg", nil, "timed", now.Add(3*time.Hour))
	for k := range 9 {
		if k < 3 {
			must2(s.AdvanceRush(ctx, rb.ID, k, true, time.Time{}))
		}
		must2(s.AdvanceRush(ctx, rd.ID, k, true, time.Time{}))
		must2(s.AdvanceRush(ctx, guest.ID, k, true, time.Time{}))
	}
	must2(s.EndRush(ctx, rc.ID, now.Add(4*time.Hour)))
	must(s.Suspend(ctx, di.Key, "test", now))
	bests, err := s.RushBests(ctx, ana.Key)
	must(err)
	want := fmt.Sprint([]store.RushBest{{Account: ana.Key, Lexicon: lex, Mode: "survival", Solved: 2, At: r3.Started, Runs: 1},
		{Account: ana.Key, Lexicon: lex, Mode: "timed", Solved: 3, At: r.Started, Runs: 2}})
	if fmt.Sprint(bests) != want {
		t.Errorf("RushBests:\n %v\nwant\n %v", bests, want)
	}
	leaders, err := s.RushLeaders(ctx, lex, "timed", 0, 10)
	must(err)
	want = fmt.Sprint([]store.RushBest{{Account: ana.Key, Name: ana.Name, Lexicon: lex, Mode: "timed", Solved: 3, At: r.Started, Runs: 2},
		{Account: bo.Key, Name: bo.Name, Lexicon: lex, Mode: "timed", Solved: 3, At: rb.Started, Runs: 1}})
	if fmt.Sprint(leaders) != want {
		t.Errorf("RushLeaders:\n %v\nwant\n %v", leaders, want)
	}
	if leaders, err = s.RushLeaders(ctx, lex, "timed", 0, 1); err != nil || len(leaders) != 1 || leaders[0].Account != ana.Key {
		t.Errorf("RushLeaders, 1: %v, %v", leaders, err)
	}
	runs, err := s.RushRuns(ctx, ana.Key, 2)
	if err != nil || len(runs) != 2 || runs[0].ID != r3.ID || runs[1].ID != r2.ID {
		t.Errorf("RushRuns, 2: %v, %v; want r3 and r2", runs, err)
	}
	// The daily rush: once a seed (a day) per account and word list;
	// its leaderboard is the day's.
	daily := func(id string, who *store.Account, seed uint64, solved int) error {
		r := &store.RushRun{ID: prefix + id, Lexicon: lex, Mode: store.RushOnce, Seed: seed, Started: now.Add(4 * time.Hour), Deadline: now.Add(5 * time.Hour)}
		if who != nil {
			r.Account = who.Key
		}
		if err := s.StartRush(ctx, r); err != nil {
			return err
		}
		for k := range solved {
			must2(s.AdvanceRush(ctx, r.ID, k, true, time.Time{}))
		}
		return nil
	}
	must(daily("d1", ana, 330, 2))
	must(daily("d2", bo, 330, 4))
	must(daily("d3", ana, 331, 5))
	must(daily("d4", nil, 330, 1))
	must(daily("d5", nil, 330, 7)) // a guest may play a day twice: it is on no leaderboard
	if err := daily("d6", ana, 330, 0); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second daily run of one day: %v, want ErrConflict", err)
	}
	found, err := s.RushFind(ctx, ana.Key, lex, store.RushOnce, 330)
	if err != nil || len(found) != 1 || found[0].ID != prefix+"d1" || found[0].Solved != 2 {
		t.Errorf("RushFind: %+v, %v", found, err)
	}
	if found, err = s.RushFind(ctx, cy.Key, lex, store.RushOnce, 330); err != nil || len(found) != 0 {
		t.Errorf("RushFind of none: %+v, %v", found, err)
	}
	day, err := s.RushLeaders(ctx, lex, store.RushOnce, 330, 10)
	if err != nil || len(day) != 2 || day[0].Name != bo.Name || day[0].Solved != 4 || day[1].Name != ana.Name || day[1].Solved != 2 {
		t.Errorf("the leaders of day 330: %+v, %v", day, err)
	}
	if all, err := s.RushLeaders(ctx, lex, store.RushOnce, 0, 10); err != nil || len(all) != 2 || all[0].Name != ana.Name || all[0].Solved != 5 || all[0].Runs != 2 {
		t.Errorf("the daily leaders of all days: %+v, %v", all, err)
	}
	// A guest's runs go a day after they start, when another run starts;
	// an account's stay.
	old := run("rg-old", nil, "timed", now.Add(-25*time.Hour))
	oldAna := run("ra-old", ana, "timed", now.Add(-25*time.Hour))
	run("r-next", cy, "timed", now)
	if _, err := s.Rush(ctx, old.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a guest's run of 25 hours before: %v, want ErrNotFound", err)
	}
	for _, id := range []string{guest.ID, oldAna.ID} {
		if _, err := s.Rush(ctx, id); err != nil {
			t.Errorf("run %s: %v", id, err)
		}
	}
	// A day's leaderboard times and ranks the runs of that day: Bo's 4
	// of day 330 does not make his 4 of day 332 earlier than Cy's.
	dayRun := func(id string, who *store.Account, seed uint64, solved int, at time.Time) {
		r := &store.RushRun{ID: prefix + id, Account: who.Key, Lexicon: lex, Mode: store.RushOnce, Seed: seed, Started: at, Deadline: at.Add(5 * time.Minute)}
		must(s.StartRush(ctx, r))
		for k := range solved {
			must2(s.AdvanceRush(ctx, r.ID, k, true, time.Time{}))
		}
	}
	day332 := now.Add(48 * time.Hour)
	dayRun("d7", cy, 332, 4, day332.Add(time.Hour))
	dayRun("d8", bo, 332, 4, day332.Add(2*time.Hour))
	day, err = s.RushLeaders(ctx, lex, store.RushOnce, 332, 10)
	want = fmt.Sprint([]store.RushBest{{Account: cy.Key, Name: cy.Name, Lexicon: lex, Mode: store.RushOnce, Solved: 4, At: day332.Add(time.Hour), Runs: 1},
		{Account: bo.Key, Name: bo.Name, Lexicon: lex, Mode: store.RushOnce, Solved: 4, At: day332.Add(2 * time.Hour), Runs: 1}})
	if err != nil || fmt.Sprint(day) != want {
		t.Errorf("the leaders of day 332:\n %v, %v\nwant\n %v", day, err, want)
	}
	must(s.CloseAccount(ctx, ana.Key, now.Add(5*time.Hour)))
	if runs, err = s.RushRuns(ctx, ana.Key, 10); err != nil || len(runs) != 0 {
		t.Errorf("the runs of a closed account: %v, %v", runs, err)
	}
	if _, err := s.Rush(ctx, r.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a run of a closed account: %v, want ErrNotFound", err)
	}
}

func messages(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 9, 10, 11, 12, 13, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var accounts [3]*store.Account
	for i, name := range []string{"Ana", "Bo", "Cy"} {
		accounts[i] = &store.Account{Key: prefix + "msg-" + name, Name: prefix + "m" + name, Password: "pbkdf2$m", Created: now}
		must(s.CreateAccount(ctx, accounts[i]))
	}
	ana, bo, cy := accounts[0], accounts[1], accounts[2]
	send := func(from, to *store.Account, text string, at time.Time, keep int) *store.Message {
		t.Helper()
		m := &store.Message{From: from.Key, To: to.Key, Text: text, At: at}
		must(s.AddMessage(ctx, m, keep, store.ContactLimit{}))
		if m.ID == 0 {
			t.Fatalf("message %q: no id", text)
		}
		return m
	}
	m1 := send(ana, bo, "Hi Bo, a game?", now, 100)
	m2 := send(bo, ana, "Sure, in ten minutes.", now.Add(time.Minute), 100)
	m3 := send(ana, bo, "Great.", now.Add(2*time.Minute), 100)
	send(cy, ana, "Hello Ana", now.Add(3*time.Minute), 100)
	if !(m1.ID < m2.ID && m2.ID < m3.ID) {
		t.Errorf("ids out of order: %d %d %d", m1.ID, m2.ID, m3.ID)
	}
	for _, bad := range []*store.Message{{From: ana.Key, To: prefix + "nobody", Text: "x", At: now}, {From: prefix + "nobody", To: ana.Key, Text: "x", At: now}} {
		if err := s.AddMessage(ctx, bad, 100, store.ContactLimit{}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a message from %q to %q: %v, want ErrNotFound", bad.From, bad.To, err)
		}
	}
	if err := s.AddMessage(ctx, &store.Message{From: ana.Key, To: ana.Key, Text: "me", At: now}, 100, store.ContactLimit{}); err == nil {
		t.Error("a message to oneself: no error")
	}
	got, err := s.Messages(ctx, bo.Key, ana.Key, 0, 10)
	must(err)
	if len(got) != 3 || got[0].ID != m1.ID || got[2].ID != m3.ID || got[1].Text != m2.Text || got[1].From != bo.Key || !got[0].At.Equal(now) || !got[0].Read.IsZero() {
		t.Errorf("the conversation: %+v", got)
	}
	if got, err = s.Messages(ctx, ana.Key, bo.Key, m3.ID, 1); err != nil || len(got) != 1 || got[0].ID != m2.ID {
		t.Errorf("one before the last: %+v, %v", got, err)
	}
	// Ana's conversations: Cy's first (the latest), one unread; Bo's
	// with Ana's own last message, one unread (Bo's).
	cs, err := s.Conversations(ctx, ana.Key, 10)
	must(err)
	if len(cs) != 2 || cs[0].Other != cy.Key || cs[0].Name != cy.Name || cs[0].Unread != 1 || cs[1].Other != bo.Key || cs[1].Last.ID != m3.ID || cs[1].Unread != 1 {
		t.Errorf("Ana's conversations: %+v", cs)
	}
	if n, err := s.UnreadMessages(ctx, ana.Key); err != nil || n != 2 {
		t.Errorf("Ana's unread: %d, %v; want 2", n, err)
	}
	if n, err := s.MarkRead(ctx, ana.Key, bo.Key, now.Add(time.Hour)); err != nil || n != 1 {
		t.Errorf("MarkRead: %d, %v; want 1", n, err)
	}
	if n, err := s.UnreadMessages(ctx, ana.Key); err != nil || n != 1 {
		t.Errorf("Ana's unread after reading Bo's: %d, %v; want 1", n, err)
	}
	if got, _ = s.Messages(ctx, ana.Key, bo.Key, 0, 10); !got[1].Read.Equal(now.Add(time.Hour)) || !got[2].Read.IsZero() {
		t.Errorf("read marks: %+v", got)
	}
	// Accounts written to that never wrote back: Cy wrote to Ana, who
	// never answered; Ana wrote to Bo, who did.
	if n, err := s.NewContacts(ctx, cy.Key, now); err != nil || n != 1 {
		t.Errorf("Cy's new contacts: %d, %v; want 1", n, err)
	}
	if n, err := s.NewContacts(ctx, ana.Key, now); err != nil || n != 0 {
		t.Errorf("Ana's new contacts: %d, %v; want 0", n, err)
	}
	if n, err := s.NewContacts(ctx, cy.Key, now.Add(time.Hour)); err != nil || n != 0 {
		t.Errorf("Cy's new contacts in the last hour: %d, %v; want 0", n, err)
	}
	// A block either way puts the blocked account's messages out of the
	// count.
	must(s.Block(ctx, cy.Key, ana.Key, now, 0))
	if n, err := s.UnreadMessages(ctx, ana.Key); err != nil || n != 0 {
		t.Errorf("Ana's unread after Cy blocked her: %d, %v; want 0", n, err)
	}
	must(s.Unblock(ctx, cy.Key, ana.Key))
	// A conversation keeps its latest lines.
	for k := range 4 {
		send(bo, ana, fmt.Sprintf("line %d", k), now.Add(time.Duration(10+k)*time.Minute), 3)
	}
	if got, err = s.Messages(ctx, ana.Key, bo.Key, 0, 10); err != nil || len(got) != 3 || got[0].Text != "line 1" || got[2].Text != "line 3" {
		t.Errorf("a conversation kept to 3: %+v, %v", got, err)
	}
	must(s.CloseAccount(ctx, ana.Key, now.Add(2*time.Hour)))
	if got, err = s.Messages(ctx, bo.Key, ana.Key, 0, 10); err != nil || len(got) != 0 {
		t.Errorf("the conversation with a closed account: %+v, %v", got, err)
	}
	if cs, err = s.Conversations(ctx, cy.Key, 10); err != nil || len(cs) != 0 {
		t.Errorf("Cy's conversations after Ana closed hers: %+v, %v", cs, err)
	}
}

func gameWatchers(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	g1, g2 := prefix+"w-g1", prefix+"w-g2"
	must(s.SawWatcher(ctx, g1, "w1", "", now))
	must(s.SawWatcher(ctx, g1, "w2", "Bo", now))
	must(s.SawWatcher(ctx, g1, "w2", "Bo", now.Add(time.Second))) // seen again: one watcher
	must(s.SawWatcher(ctx, g1, "w4", "Ana", now))
	must(s.SawWatcher(ctx, g1, "w5", "Bo", now)) // Bo on another device: named once
	must(s.SawWatcher(ctx, g2, "w1", "", now))
	count := func(game string, since time.Time, want int, names string) {
		t.Helper()
		m, err := s.Watchers(ctx, since)
		if w := m[game]; err != nil || w.Count != want || strings.Join(w.Names, ",") != names {
			t.Errorf("watchers of %s since %v: %+v, %v; want %d named %q", game, since, w, err, want, names)
		}
		if _, listed := m[game]; listed != (want > 0) {
			t.Errorf("watchers of %s since %v: listed %v with %d", game, since, listed, want)
		}
	}
	count(g1, now.Add(-time.Second), 4, "Ana,Bo")
	count(g2, now.Add(-time.Second), 1, "")
	count(g1, now.Add(500*time.Millisecond), 1, "Bo")
	count(prefix+"w-none", now, 0, "")
	// A watcher not seen for WatcherKept goes when another is seen.
	must(s.SawWatcher(ctx, g2, "w3", "", now.Add(store.WatcherKept+2*time.Second)))
	count(g1, now.Add(-time.Hour), 0, "")
	count(g2, now.Add(-time.Hour), 1, "")
	if err := s.SawWatcher(ctx, "", "w1", "", now); err == nil {
		t.Error("a watcher of no game: no error")
	}
}

// endgames checks the answers to endgame puzzles: the first kept and a
// later one ignored, read back one by one and all, counted per puzzle
// (found or not, revealed), refused for no account and for a malformed
// answer, and gone with a closed account.
func endgames(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 9, 10, 11, 0, time.UTC)
	lex := prefix + "en"
	var keys []string
	for _, n := range []string{"ana", "bo", "cy"} {
		a := &store.Account{Key: prefix + "endgames-" + n, Name: n, Password: "pbkdf2$b", Created: now}
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, a.Key)
	}
	record := func(key string, r store.EndgameRecord) bool {
		t.Helper()
		first, err := s.RecordEndgame(ctx, key, &r, nil)
		if err != nil {
			t.Fatal(err)
		}
		return first
	}
	ana := []store.EndgameRecord{
		{Lexicon: lex, Number: 7, Correct: true, Value: 25, Answered: now},
		{Lexicon: lex, Number: 9, Value: -6, Answered: now.Add(time.Hour)},
		{Lexicon: lex, Number: 8, Revealed: true, Answered: now.Add(2 * time.Hour)},
	}
	for _, r := range ana {
		if !record(keys[0], r) {
			t.Errorf("Ana's answer to %d is not her first", r.Number)
		}
	}
	if record(keys[0], store.EndgameRecord{Lexicon: lex, Number: 9, Correct: true, Value: 30, Answered: now.Add(3 * time.Hour)}) {
		t.Error("a second answer to 9 counted as the first")
	}
	if got, err := s.EndgameRecord(ctx, keys[0], lex, 9); err != nil || *got != ana[1] {
		t.Errorf("Ana's answer to 9: %+v, %v; want %+v", got, err, ana[1])
	}
	if _, err := s.EndgameRecord(ctx, keys[0], lex, 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an answer never given: %v, want ErrNotFound", err)
	}
	all, err := s.EndgameRecords(ctx, keys[0], 10)
	if want := []store.EndgameRecord{ana[1], ana[2], ana[0]}; err != nil || !slices.Equal(all, want) {
		t.Errorf("Ana's answers: %+v, %v; want %+v", all, err, want)
	}
	if two, err := s.EndgameRecords(ctx, keys[0], 2); err != nil || len(two) != 2 || two[0].Number != 9 {
		t.Errorf("Ana's two latest answers: %+v, %v", two, err)
	}
	record(keys[1], store.EndgameRecord{Lexicon: lex, Number: 7, Value: 3, Answered: now})
	record(keys[2], store.EndgameRecord{Lexicon: lex, Number: 7, Correct: true, Value: 25, Answered: now})
	for _, tc := range []struct{ number, answered, solved int }{{7, 3, 2}, {8, 1, 0}, {9, 1, 0}, {10, 0, 0}} {
		if a, n, err := s.EndgameCounts(ctx, lex, tc.number); err != nil || a != tc.answered || n != tc.solved {
			t.Errorf("counts of %d: %d answered, %d solved, %v; want %d and %d", tc.number, a, n, err, tc.answered, tc.solved)
		}
	}
	if _, err := s.RecordEndgame(ctx, prefix+"endgames-nobody", &store.EndgameRecord{Lexicon: lex, Number: 1, Answered: now}, newcomers); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an answer of no account: %v, want ErrNotFound", err)
	}
	for _, bad := range []store.EndgameRecord{{Number: 1}, {Lexicon: lex}, {Lexicon: lex, Number: 1, Correct: true, Revealed: true}} {
		if _, err := s.RecordEndgame(ctx, keys[1], &bad, newcomers); err == nil {
			t.Errorf("answer %+v recorded", bad)
		}
	}
	endgameRatings(t, s, keys, prefix, now)
	if err := s.CloseAccount(ctx, keys[0], now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if rs, err := s.EndgameRatings(ctx, keys[0]); err != nil || len(rs) != 0 {
		t.Errorf("the endgame ratings of a closed account: %+v, %v", rs, err)
	}
	if all, err := s.EndgameRecords(ctx, keys[0], 10); err != nil || len(all) != 0 {
		t.Errorf("the answers of a closed account: %+v, %v", all, err)
	}
	if a, n, err := s.EndgameCounts(ctx, lex, 7); err != nil || a != 2 || n != 1 {
		t.Errorf("counts of 7 after Ana closed her account: %d, %d, %v", a, n, err)
	}
}

// endgameRatings checks the endgame ratings that first answers make
// (keys: three accounts), kept apart from the puzzle ratings: an
// answer rated with its ratings before and after kept, a second answer
// not rated, a failing rule recording nothing, the ratings of the
// accounts and of the puzzles, and the leaderboard.
func endgameRatings(t *testing.T, s store.Store, keys []string, prefix string, now time.Time) {
	ctx := context.Background()
	lex := prefix + "eg"
	rate := tenPoints
	answer := func(key string, n int, solved, revealed bool) (*store.EndgameRecord, bool) {
		t.Helper()
		r := &store.EndgameRecord{Lexicon: lex, Number: n, Correct: solved, Revealed: revealed, Value: 4, Answered: now.Add(time.Duration(n) * time.Minute)}
		first, err := s.RecordEndgame(ctx, key, r, rate(solved))
		if err != nil {
			t.Fatalf("%s answers endgame %d: %v", key, n, err)
		}
		return r, first
	}
	if r, first := answer(keys[0], 3, true, false); !first || r.RBefore != 1500 || r.RAfter != 1510 {
		t.Errorf("Ana solves endgame 3: first %v, rating %v → %v; want 1500 → 1510", first, r.RBefore, r.RAfter)
	}
	if r, first := answer(keys[0], 3, false, false); first || r.RAfter != 0 {
		t.Errorf("Ana answers endgame 3 again: first %v, rating after %v; want nothing rated", first, r.RAfter)
	}
	if r, first := answer(keys[1], 3, false, true); !first || r.RBefore != 1500 || r.RAfter != 1490 {
		t.Errorf("Bo asks for endgame 3's solution: first %v, rating %v → %v; want 1500 → 1490", first, r.RBefore, r.RAfter)
	}
	if r, first := answer(keys[0], 4, false, false); !first || r.RBefore != 1510 || r.RAfter != 1500 {
		t.Errorf("Ana misses endgame 4: first %v, rating %v → %v; want 1510 → 1500", first, r.RBefore, r.RAfter)
	}
	if got, err := s.EndgameRecord(ctx, keys[0], lex, 3); err != nil || got.RBefore != 1500 || got.RAfter != 1510 {
		t.Errorf("Ana's answer to endgame 3 as kept: %+v, %v", got, err)
	}
	fail := func(a, p *store.PuzzleRating) (store.PuzzleRating, store.PuzzleRating, error) {
		return *a, *p, errors.New("no rating today")
	}
	if _, err := s.RecordEndgame(ctx, keys[2], &store.EndgameRecord{Lexicon: lex, Number: 4, Correct: true, Answered: now}, fail); err == nil {
		t.Error("RecordEndgame with a failing rule: no error")
	}
	if _, err := s.EndgameRecord(ctx, keys[2], lex, 4); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Cy's answer to endgame 4 after the rule failed: %v, want ErrNotFound", err)
	}
	rs, err := s.EndgameRatings(ctx, keys[0])
	if err != nil || len(rs) != 1 || rs[0].Lexicon != lex || rs[0].R != 1500 || rs[0].Answered != 2 || rs[0].Solved != 1 || rs[0].Number != 0 {
		t.Errorf("Ana's endgame ratings: %+v, %v; want one of %s at 1500, 2 answered, 1 solved", rs, err, lex)
	}
	if ps, err := s.PuzzleRatings(ctx, keys[0]); err != nil || len(ps) != 0 {
		t.Errorf("Ana's puzzle ratings after endgame answers only: %+v, %v; want none", ps, err)
	}
	if p, err := s.EndgameLevel(ctx, lex, 3); err != nil || p.R != 1500 || p.Answered != 2 || p.Solved != 1 || p.Account != "" {
		t.Errorf("EndgameLevel %s 3: %+v, %v; want 1500, 2 answered, 1 solved", lex, p, err)
	}
	if levels, err := s.EndgameLevels(ctx, lex); err != nil || len(levels) != 2 || levels[0].Number != 3 || levels[0].R != 1500 ||
		levels[1].Number != 4 || levels[1].R != 1510 || levels[1].Answered != 1 {
		t.Errorf("the ratings of the endgames of %s: %+v, %v", lex, levels, err)
	}
	if ns, err := s.EndgameNumbers(ctx, keys[0], lex); err != nil || !slices.Equal(ns, []int{3, 4}) {
		t.Errorf("EndgameNumbers of Ana in %s: %v, %v; want [3 4]", lex, ns, err)
	}
	if ns, err := s.PuzzleNumbers(ctx, keys[0], lex); err != nil || len(ns) != 0 {
		t.Errorf("PuzzleNumbers of Ana in %s after endgame answers only: %v, %v", lex, ns, err)
	}
	if _, err := s.EndgameLevel(ctx, lex, 5); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("EndgameLevel of an endgame nobody answered: %v, want ErrNotFound", err)
	}
	if _, err := s.PuzzleLevel(ctx, lex, 3); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PuzzleLevel of an endgame puzzle: %v, want ErrNotFound", err)
	}
	board, err := s.EndgameLeaderboard(ctx, lex, 10)
	var names []string
	for _, r := range board {
		names = append(names, fmt.Sprintf("%s %.0f", r.Name, r.R))
	}
	if got, want := strings.Join(names, ", "), "ana 1500, bo 1490"; err != nil || got != want {
		t.Errorf("the endgame leaderboard: %s, %v; want %s", got, err, want)
	}
}

// accuracy checks UnanalysedGames, SetAccuracy and FairPlay: the games
// with an account's seat that took a turn listed until analysed, the
// analysis kept by seat and summed up in RatedTotals, a seat without a
// record refused and nothing changed, and the fair-play report keeping
// to the rated games between people since a time.
func accuracy(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 16, 0, 0, 0, time.UTC)
	var keys []string
	for _, n := range []string{"ana", "bo"} {
		a := &store.Account{Key: prefix + "accuracy-" + n, Name: n, Password: "pbkdf2$a", Created: now}
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, a.Key)
	}
	cat := prefix + "en/regular"
	people := func(game string, at time.Time) *store.RatedGame {
		return &store.RatedGame{Game: prefix + game, Category: cat, Finished: at, Rated: true,
			Seats: []store.RatedSeat{{Seat: 0, Account: keys[0], Name: "ana", Score: 400, Result: 1, Turns: 12},
				{Seat: 1, Account: keys[1], Name: "bo", Score: 350, Turns: 11}}}
	}
	rate := func(g *store.RatedGame) {
		t.Helper()
		ok, err := s.RateGame(ctx, g, func(before []store.Rating) ([]store.Rating, error) {
			after := slices.Clone(before)
			for i := range after {
				after[i].R, after[i].RD, after[i].Games = 1500, 300, after[i].Games+1
			}
			return after, nil
		})
		if err != nil || !ok {
			t.Fatalf("RateGame %s: %v, %v", g.Game, ok, err)
		}
	}
	old, g1 := people("acc-old", now.Add(-60*24*time.Hour)), people("acc-1", now)
	rate(old)
	rate(g1)
	vsComputer := &store.RatedGame{Game: prefix + "acc-2", Category: prefix + "en/computer", Finished: now.Add(time.Minute), Rated: true,
		Seats: []store.RatedSeat{{Seat: 0, Account: keys[0], Name: "ana", Score: 420, Result: 1, Turns: 10},
			{Seat: 1, Name: "Computer", Level: "inhuman", Score: 380, Turns: 10}}}
	rate(vsComputer)
	casual := people("acc-3", now.Add(2*time.Minute))
	casual.Rated = false
	noTurn := people("acc-4", now.Add(3*time.Minute))
	noTurn.Rated = false
	noTurn.Seats[0].Turns, noTurn.Seats[1].Turns = 0, 0
	for _, g := range []*store.RatedGame{casual, noTurn} {
		if _, err := s.RecordGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	unanalysed := func() []string {
		t.Helper()
		var out []string
		for after := prefix + "acc-"; ; {
			ids, err := s.UnanalysedGames(ctx, after, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				if strings.HasPrefix(id, prefix+"acc-") {
					out = append(out, id[len(prefix):])
				}
			}
			if len(ids) < 2 {
				return out
			}
			after = ids[len(ids)-1]
		}
	}
	if got := fmt.Sprint(unanalysed()); got != "[acc-1 acc-2 acc-3 acc-old]" {
		t.Errorf("UnanalysedGames before any analysis: %s", got)
	}
	set := func(g *store.RatedGame, seat, analysed, top int, lost float64) {
		g.Seats[seat].Analysed, g.Seats[seat].TopMoves, g.Seats[seat].Lost = analysed, top, lost
	}
	set(g1, 0, 12, 11, 3.5)
	set(g1, 1, 11, 2, 80.25)
	set(old, 0, 12, 3, 60)
	set(old, 1, 11, 3, 50)
	set(vsComputer, 0, 10, 10, 0)
	set(vsComputer, 1, 10, 10, 0)
	set(casual, 0, 12, 12, 0)
	set(casual, 1, 11, 11, 0)
	for _, g := range []*store.RatedGame{g1, old, vsComputer, casual} {
		if err := s.SetAccuracy(ctx, g); err != nil {
			t.Fatalf("SetAccuracy %s: %v", g.Game, err)
		}
	}
	if got := unanalysed(); len(got) != 0 {
		t.Errorf("UnanalysedGames after the analyses: %v", got)
	}
	if rg, err := s.RatedGame(ctx, g1.Game); err != nil || rg.Seats[0].Analysed != 12 || rg.Seats[0].TopMoves != 11 || rg.Seats[0].Lost != 3.5 ||
		rg.Seats[1].Analysed != 11 || rg.Seats[1].TopMoves != 2 || rg.Seats[1].Lost != 80.25 || rg.Seats[0].Turns != 12 {
		t.Errorf("RatedGame %s after SetAccuracy: %+v, %v", g1.Game, rg, err)
	}
	// A seat without a record: refused, and the other seat not changed.
	bad := people("acc-1", now)
	set(bad, 0, 1, 1, 0)
	bad.Seats[1].Seat = 5
	if err := s.SetAccuracy(ctx, bad); !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "seat 5") {
		t.Errorf("SetAccuracy with a seat not recorded: %v; want ErrNotFound naming seat 5", err)
	}
	if rg, err := s.RatedGame(ctx, g1.Game); err != nil || rg.Seats[0].Analysed != 12 {
		t.Errorf("after a refused SetAccuracy: %+v, %v", rg, err)
	}
	if err := s.SetAccuracy(ctx, &store.RatedGame{Game: prefix + "acc-none", Seats: []store.RatedSeat{{Seat: 0}}}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetAccuracy of a game not recorded: %v", err)
	}
	tot, err := s.RatedTotals(ctx, keys[0], store.RatedFilter{})
	if err != nil || tot.Games != 5 || tot.AnalysedGames != 4 || tot.Analysed != 46 || tot.TopMoves != 36 || tot.Lost != 63.5 {
		t.Errorf("ana's totals: %+v, %v; want 5 games, 4 analysed, 46 moves, 36 best, 63.5 lost", tot, err)
	}
	fp, err := s.FairPlay(ctx, now.Add(-24*time.Hour), "")
	var mine []store.FairPlayRow
	for _, r := range fp {
		if strings.HasPrefix(r.Account, prefix+"accuracy-") {
			mine = append(mine, r)
		}
	}
	want := []store.FairPlayRow{{Account: keys[0], Name: "ana", Games: 1, Analysed: 12, TopMoves: 11, Lost: 3.5},
		{Account: keys[1], Name: "bo", Games: 1, Analysed: 11, TopMoves: 2, Lost: 80.25}}
	if err != nil || !slices.Equal(mine, want) {
		t.Errorf("FairPlay over the last day: %+v, %v; want %+v", mine, err, want)
	}
	fp, err = s.FairPlay(ctx, now.Add(-90*24*time.Hour), "")
	mine = mine[:0]
	for _, r := range fp {
		if strings.HasPrefix(r.Account, prefix+"accuracy-") {
			mine = append(mine, r)
		}
	}
	want = []store.FairPlayRow{{Account: keys[0], Name: "ana", Games: 2, Analysed: 24, TopMoves: 14, Lost: 63.5},
		{Account: keys[1], Name: "bo", Games: 2, Analysed: 22, TopMoves: 5, Lost: 130.25}}
	if err != nil || !slices.Equal(mine, want) {
		t.Errorf("FairPlay over 90 days: %+v, %v; want %+v", mine, err, want)
	}
	// One account's row alone; none for an account without such seats.
	if fp, err := s.FairPlay(ctx, now.Add(-90*24*time.Hour), keys[1]); err != nil || !slices.Equal(fp, want[1:]) {
		t.Errorf("FairPlay of bo alone: %+v, %v; want %+v", fp, err, want[1:])
	}
	if fp, err := s.FairPlay(ctx, now.Add(-90*24*time.Hour), prefix+"accuracy-nobody"); err != nil || len(fp) != 0 {
		t.Errorf("FairPlay of an account without games: %+v, %v", fp, err)
	}
}

// push checks the push subscriptions: added, listed newest first, an
// endpoint moving to the account that subscribes it last, the oldest
// going beyond the bound, removed by owner or by anyone, refused for no
// account, gone with a closed account; and the server's key, stored by
// the first to ask.
func push(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 9, 10, 11, 0, time.UTC)
	ana := &store.Account{Key: prefix + "push-ana", Name: "Ana", Password: "pbkdf2$b", Created: now}
	bea := &store.Account{Key: prefix + "push-bea", Name: "Bea", Password: "pbkdf2$b", Created: now}
	for _, a := range []*store.Account{ana, bea} {
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	endpoint := func(i int) string { return fmt.Sprintf("https://push.example/%s/%d", prefix, i) }
	add := func(a *store.Account, i int, at time.Time) {
		t.Helper()
		err := s.AddPushSubscription(ctx, store.PushSubscription{Account: a.Key, Endpoint: endpoint(i), P256dh: fmt.Sprint("key", i), Auth: fmt.Sprint("auth", i),
			Session: fmt.Sprint("session", i), Created: at})
		if err != nil {
			t.Fatal(err)
		}
	}
	list := func(a *store.Account) []string {
		t.Helper()
		ps, err := s.PushSubscriptions(ctx, a.Key)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range ps {
			if p.Account != a.Key || p.P256dh == "" || p.Auth == "" || p.Created.IsZero() {
				t.Errorf("subscription %+v", p)
			}
			out = append(out, p.Endpoint)
		}
		return out
	}
	if l := list(ana); len(l) != 0 {
		t.Errorf("before any: %v", l)
	}
	add(ana, 1, now)
	add(ana, 2, now.Add(time.Minute))
	if l := list(ana); !slices.Equal(l, []string{endpoint(2), endpoint(1)}) {
		t.Errorf("Ana's: %v", l)
	}
	ps, _ := s.PushSubscriptions(ctx, ana.Key)
	if len(ps) != 2 || ps[1].P256dh != "key1" || ps[1].Auth != "auth1" || ps[1].Session != "session1" || !ps[1].Created.Equal(now) {
		t.Errorf("Ana's first: %+v", ps)
	}
	// A browser signed in to another account moves with it.
	add(bea, 2, now.Add(2*time.Minute))
	if l, m := list(ana), list(bea); !slices.Equal(l, []string{endpoint(1)}) || !slices.Equal(m, []string{endpoint(2)}) {
		t.Errorf("after Bea took 2: Ana %v, Bea %v", l, m)
	}
	// The newest MaxPushSubscriptions stay.
	for i := 10; i < 10+store.MaxPushSubscriptions+2; i++ {
		add(ana, i, now.Add(time.Duration(i)*time.Minute))
	}
	l := list(ana)
	if len(l) != store.MaxPushSubscriptions || l[0] != endpoint(11+store.MaxPushSubscriptions) || slices.Contains(l, endpoint(1)) || slices.Contains(l, endpoint(10)) {
		t.Errorf("after %d more: %v", store.MaxPushSubscriptions+2, l)
	}
	// Removed by its owner only, or by anyone.
	if err := s.RemovePushSubscription(ctx, bea.Key, endpoint(13)); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(list(ana), endpoint(13)) {
		t.Error("Bea removed Ana's subscription")
	}
	if err := s.RemovePushSubscription(ctx, ana.Key, endpoint(13)); err != nil {
		t.Fatal(err)
	}
	if err := s.RemovePushSubscription(ctx, "", endpoint(14)); err != nil {
		t.Fatal(err)
	}
	if l := list(ana); slices.Contains(l, endpoint(13)) || slices.Contains(l, endpoint(14)) || len(l) != store.MaxPushSubscriptions-2 {
		t.Errorf("after two removed: %v", l)
	}
	err := s.AddPushSubscription(ctx, store.PushSubscription{Account: prefix + "push-nobody", Endpoint: endpoint(99), P256dh: "k", Auth: "a", Created: now})
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a subscription of no account: %v, want ErrNotFound", err)
	}
	if err := s.AddPushSubscription(ctx, store.PushSubscription{Account: ana.Key, Endpoint: endpoint(98), Created: now}); err == nil {
		t.Error("a subscription without keys was taken")
	}
	if err := s.CloseAccount(ctx, ana.Key, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if l := list(ana); len(l) != 0 {
		t.Errorf("a closed account's: %v", l)
	}
	if l := list(bea); len(l) != 1 {
		t.Errorf("Bea's after Ana closed: %v", l)
	}
	// The first key stored is everyone's.
	name := prefix + "vapid"
	k1, err := s.PushKey(ctx, name, "first")
	if err != nil || k1 != "first" {
		t.Fatalf("PushKey: %q, %v", k1, err)
	}
	if k2, err := s.PushKey(ctx, name, "second"); err != nil || k2 != "first" {
		t.Errorf("PushKey again: %q, %v; want the first", k2, err)
	}
}

// limits checks the bounds that writes check in their transactions: for
// each, many writes for one account sent at once, each of which would
// add one, leave the account with exactly as many as the bound allows;
// the others are refused with ErrLimit (ErrFull for the cards), and the
// bound holds for one account only.
func limits(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	const limit, writers = 4, 16
	account := func(key string) string {
		t.Helper()
		if err := s.CreateAccount(ctx, &store.Account{Key: prefix + key, Name: prefix + key, Password: "pbkdf2$l", Created: now}); err != nil {
			t.Fatal(err)
		}
		return prefix + key
	}
	var others []string
	for i := range writers {
		others = append(others, account(fmt.Sprintf("lim-other%d", i)))
	}
	// Each tournament names its director, as the server's data does.
	directs := func(key string) func(*store.Tournament) bool {
		return func(tr *store.Tournament) bool { return strings.Contains(tr.Data, `"`+key+`"`) }
	}
	var tournaments []string
	t.Cleanup(func() {
		for _, id := range tournaments {
			s.UpdateTournament(ctx, id, 1, "{}", true, now)
		}
	})
	var tmu sync.Mutex
	for _, c := range []struct {
		name string
		// add writes the i-th of the owner's writes with the bound.
		add func(owner string, i int) error
		// count is what the owner holds.
		count func(owner string) (int, error)
		full  error
	}{
		{"follows", func(owner string, i int) error {
			return s.Follow(ctx, owner, others[i], now, limit)
		}, func(owner string) (int, error) {
			fs, err := s.Follows(ctx, owner)
			return len(fs), err
		}, store.ErrLimit},
		{"blocks", func(owner string, i int) error {
			return s.Block(ctx, owner, others[i], now, limit)
		}, func(owner string) (int, error) {
			bs, err := s.Blocks(ctx, owner)
			return len(bs), err
		}, store.ErrLimit},
		{"open reports", func(owner string, i int) error {
			return s.AddReport(ctx, &store.Report{By: owner, Of: others[i], Reason: "spam", Created: now}, limit)
		}, func(owner string) (int, error) {
			return s.OpenReportsBy(ctx, owner)
		}, store.ErrLimit},
		{"new contacts", func(owner string, i int) error {
			return s.AddMessage(ctx, &store.Message{From: owner, To: others[i], Text: "hello", At: now}, 10,
				store.ContactLimit{Since: now.Add(-time.Hour), Max: limit})
		}, func(owner string) (int, error) {
			return s.NewContacts(ctx, owner, now.Add(-time.Hour))
		}, store.ErrLimit},
		{"tournaments", func(owner string, i int) error {
			id := fmt.Sprintf("%s-t%d", owner, i)
			err := s.CreateTournament(ctx, &store.Tournament{ID: id, Data: fmt.Sprintf(`{"director":%q}`, owner), Created: now, Updated: now},
				store.TournamentLimit{Account: owner, Max: limit, Holds: directs(owner)})
			if err == nil {
				tmu.Lock()
				tournaments = append(tournaments, id)
				tmu.Unlock()
			}
			return err
		}, func(owner string) (int, error) {
			n := 0
			for after := (store.TournamentCursor{}); ; {
				page, err := s.OpenTournaments(ctx, after, 100)
				if err != nil {
					return 0, err
				}
				for i := range page {
					if directs(owner)(&page[i]) {
						n++
					}
				}
				if len(page) < 100 {
					return n, nil
				}
				after = after.Next(page)
			}
		}, store.ErrLimit},
		{"cards", func(owner string, i int) error {
			_, err := s.PutCards(ctx, owner, prefix+"en", []store.Card{{Letters: fmt.Sprintf("AB%c", 'A'+i), Due: now, Filed: now}}, limit)
			return err
		}, func(owner string) (int, error) {
			cs, err := s.Cards(ctx, owner, prefix+"en")
			return len(cs), err
		}, store.ErrFull},
	} {
		t.Run(c.name, func(t *testing.T) {
			owner := account("lim-" + strings.ReplaceAll(c.name, " ", "-"))
			var wg sync.WaitGroup
			errs := make([]error, writers)
			start := make(chan struct{})
			for i := range writers {
				wg.Go(func() {
					<-start
					errs[i] = c.add(owner, i)
				})
			}
			close(start)
			wg.Wait()
			ok := 0
			for i, err := range errs {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, c.full):
					t.Errorf("write %d: %v, want %v", i, err, c.full)
				}
			}
			n, err := c.count(owner)
			if err != nil {
				t.Fatal(err)
			}
			if ok != limit || n != limit {
				t.Errorf("%d writes at once, bound %d: %d written, the account holds %d", writers, limit, ok, n)
			}
			var le *store.LimitError
			for _, err := range errs {
				if errors.As(err, &le) && (le.Have != limit || le.Max != limit) {
					t.Errorf("refusal %v: have %d of at most %d, want %d of %d", err, le.Have, le.Max, limit, limit)
				}
			}
			// The bound is the owner's: another account writes as
			// before.
			if err := c.add(account("lim-else-"+strings.ReplaceAll(c.name, " ", "-")), 0); err != nil {
				t.Errorf("another account's write: %v", err)
			}
		})
	}
	// Bounded writes that hold one another's accounts (each account
	// follows, blocks and writes to every other at once) all go through:
	// none waits for ever on another.
	t.Run("crossed", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make(chan error, 3*writers*writers)
		for _, a := range others[:6] {
			for _, b := range others[:6] {
				if a == b {
					continue
				}
				wg.Go(func() { errs <- s.Follow(ctx, a, b, now, 100) })
				wg.Go(func() { errs <- s.Block(ctx, a, b, now, 100) })
				wg.Go(func() {
					errs <- s.AddMessage(ctx, &store.Message{From: a, To: b, Text: "hi", At: now}, 10, store.ContactLimit{Since: now, Max: 100})
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	})
}

// byteOrder checks that listings order names, keys and ids by their
// bytes (Go's order of strings), whatever the database's collation: the
// strings below differ only in case, accents and punctuation, which a
// language's collation weighs otherwise (and which, with a LIMIT or a
// cursor, would make the backends list different ones).
func byteOrder(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	tails := []string{"ab", "aB", "Ab", "áb", "a-b", "a b", "ac", "Ac", "a_b", "äb"}
	sorted := slices.Sorted(slices.Values(tails))
	owner := prefix + "order-owner"
	if err := s.CreateAccount(ctx, &store.Account{Key: owner, Name: owner, Password: "pbkdf2$o", Created: now}); err != nil {
		t.Fatal(err)
	}
	// The accounts' keys and names are base+tail; each is followed and
	// blocked, and seen at the same time, in a century of this run's own.
	base := prefix + "order-"
	// Seen in the far future (before 2262, as nanoseconds since 1970
	// hold), later than any run before on the same database (SeenSince
	// lists every account seen since, whatever its run), so that this
	// run's accounts are the ones listed.
	seen := time.Now().AddDate(200, 0, 0)
	// The games' ids come after those of every run (which begin with
	// letters), so that they are not among the first UncountedGames
	// lists after a run's prefix (the Play test's).
	games := "~" + prefix + "order-"
	for _, tail := range tails {
		k := base + tail
		if err := s.CreateAccount(ctx, &store.Account{Key: k, Name: k, Password: "pbkdf2$o", Created: now}); err != nil {
			t.Fatal(err)
		}
		if err := s.Follow(ctx, owner, k, now, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.Block(ctx, owner, k, now, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetSeen(ctx, k, seen); err != nil {
			t.Fatal(err)
		}
		if err := s.SawWatcher(ctx, base+"game", tail, tail, now); err != nil {
			t.Fatal(err)
		}
		g := &store.Game{ID: games + tail, Variant: "english", Lexicon: "en-sowpods", Seats: []store.Seat{{Name: "A"}, {Name: "B"}}, Created: now}
		if err := s.CreateFinishedGame(ctx, g, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.AddAccountGame(ctx, owner, store.AccountGame{Game: g.ID, Joined: now}); err != nil {
			t.Fatal(err)
		}
	}
	var cards []store.Card
	for _, tail := range tails {
		cards = append(cards, store.Card{Letters: tail, Due: now, Filed: now})
	}
	if _, err := s.PutCards(ctx, owner, prefix+"order", cards, 100); err != nil {
		t.Fatal(err)
	}
	mine := func(keys []string, start string) []string {
		var out []string
		for _, k := range keys {
			if strings.HasPrefix(k, start) {
				out = append(out, strings.TrimPrefix(k, start))
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		list func() ([]string, error)
		want []string
	}{
		{"FindAccounts, the first 4", func() ([]string, error) {
			found, err := s.FindAccounts(ctx, base, 4)
			var keys []string
			for _, f := range found {
				keys = append(keys, f.Key)
			}
			return mine(keys, base), err
		}, sorted[:4]},
		{"Follows", func() ([]string, error) {
			fs, err := s.Follows(ctx, owner)
			var keys []string
			for _, f := range fs {
				keys = append(keys, f.Key)
			}
			return mine(keys, base), err
		}, sorted},
		{"Blocks", func() ([]string, error) {
			bs, err := s.Blocks(ctx, owner)
			var keys []string
			for _, b := range bs {
				keys = append(keys, b.Key)
			}
			return mine(keys, base), err
		}, sorted},
		{"SeenSince, seen at once", func() ([]string, error) {
			ss, err := s.SeenSince(ctx, seen, 100)
			var keys []string
			for _, a := range ss {
				keys = append(keys, a.Key)
			}
			return mine(keys, base), err
		}, sorted},
		{"Watchers' names", func() ([]string, error) {
			ws, err := s.Watchers(ctx, now)
			return ws[base+"game"].Names, err
		}, sorted},
		{"Cards due at once", func() ([]string, error) {
			cs, err := s.Cards(ctx, owner, prefix+"order")
			var letters []string
			for _, c := range cs {
				letters = append(letters, c.Letters)
			}
			return letters, err
		}, sorted},
		{"UncountedGames, 3 a page", func() ([]string, error) {
			var ids []string
			for after := games; ; {
				page, err := s.UncountedGames(ctx, after, 3)
				if err != nil {
					return nil, err
				}
				for _, id := range page {
					if !strings.HasPrefix(id, games) {
						return mine(ids, games), nil
					}
					ids = append(ids, id)
				}
				if len(page) < 3 {
					return mine(ids, games), nil
				}
				after = page[len(page)-1]
			}
		}, sorted},
	} {
		got, err := c.list()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q (in byte order)", c.name, got, c.want)
		}
	}
}

// passkeys checks the passkeys and the challenges: added, listed, found
// by id, their counter moving up only, at most MaxPasskeys, an id once,
// removed by their account only, gone with a closed account; a
// challenge taken once, for its purpose, before it expires.
func passkeys(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 9, 10, 11, 0, time.UTC)
	ana := &store.Account{Key: prefix + "pk-ana", Name: "Ana", Password: "pbkdf2$b", Created: now}
	bea := &store.Account{Key: prefix + "pk-bea", Name: "Bea", Password: "pbkdf2$b", Created: now}
	for _, a := range []*store.Account{ana, bea} {
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	id := func(i int) string { return fmt.Sprintf("%scred%d", prefix, i) }
	add := func(a *store.Account, i int) error {
		return s.AddPasskey(ctx, &store.Passkey{ID: id(i), Account: a.Key, PublicKey: "key" + fmt.Sprint(i), Alg: -7, SignCount: 1,
			Name: fmt.Sprint("device ", i), Created: now.Add(time.Duration(i) * time.Minute)})
	}
	if err := add(ana, 0); err != nil {
		t.Fatal(err)
	}
	if err := add(bea, 0); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an id registered twice: %v, want ErrConflict", err)
	}
	p, err := s.PasskeyByID(ctx, id(0))
	if err != nil || p.Account != ana.Key || p.PublicKey != "key0" || p.Alg != -7 || p.SignCount != 1 || p.Name != "device 0" || !p.Created.Equal(now) || !p.Used.IsZero() {
		t.Errorf("PasskeyByID: %+v, %v", p, err)
	}
	if _, err := s.PasskeyByID(ctx, id(99)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PasskeyByID of none: %v", err)
	}
	// The counter moves up only.
	if err := s.PasskeyUsed(ctx, id(0), 5, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.PasskeyUsed(ctx, id(0), 5, now.Add(2*time.Hour)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("the same counter again: %v, want ErrConflict", err)
	}
	if p, _ := s.PasskeyByID(ctx, id(0)); p.SignCount != 5 || !p.Used.Equal(now.Add(time.Hour)) {
		t.Errorf("after use: %+v", p)
	}
	for i := 1; i < store.MaxPasskeys; i++ {
		if err := add(ana, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := add(ana, store.MaxPasskeys); !errors.Is(err, store.ErrLimit) {
		t.Errorf("passkey %d: %v, want ErrLimit", store.MaxPasskeys+1, err)
	}
	ps, err := s.Passkeys(ctx, ana.Key)
	if err != nil || len(ps) != store.MaxPasskeys || ps[0].ID != id(0) || ps[len(ps)-1].ID != id(store.MaxPasskeys-1) {
		t.Errorf("Passkeys: %d, %v", len(ps), err)
	}
	if err := s.RemovePasskey(ctx, bea.Key, id(1)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Bea removing Ana's: %v", err)
	}
	if err := s.RemovePasskey(ctx, ana.Key, id(1)); err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.Passkeys(ctx, ana.Key); len(ps) != store.MaxPasskeys-1 {
		t.Errorf("after one removed: %d", len(ps))
	}
	if err := s.AddPasskey(ctx, &store.Passkey{ID: id(50), Account: prefix + "pk-nobody", PublicKey: "k", Created: now}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a passkey of no account: %v", err)
	}
	// Challenges.
	c := &store.Challenge{Value: prefix + "ch1", Purpose: "register", Account: ana.Key, Expires: now.Add(5 * time.Minute)}
	if err := s.PutChallenge(ctx, c, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeChallenge(ctx, c.Value, "login", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("for another purpose: %v", err)
	}
	if a, err := s.TakeChallenge(ctx, c.Value, "register", now.Add(time.Minute)); err != nil || a != ana.Key {
		t.Errorf("TakeChallenge: %q, %v", a, err)
	}
	if _, err := s.TakeChallenge(ctx, c.Value, "register", now.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("taken twice: %v", err)
	}
	late := &store.Challenge{Value: prefix + "ch2", Purpose: "login", Expires: now.Add(time.Minute)}
	if err := s.PutChallenge(ctx, late, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeChallenge(ctx, late.Value, "login", now.Add(2*time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired: %v", err)
	}
	if err := s.CloseAccount(ctx, ana.Key, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.Passkeys(ctx, ana.Key); len(ps) != 0 {
		t.Errorf("a closed account's passkeys: %d", len(ps))
	}
	if _, err := s.PasskeyByID(ctx, id(0)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a closed account's passkey by id: %v", err)
	}
}

// recoveryCodes checks the recovery codes: set, each used once, by its
// account only, replaced whole, refused for no account, gone with a
// closed account.
func recoveryCodes(t *testing.T, s store.Store, prefix string) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 9, 10, 11, 0, time.UTC)
	ana := &store.Account{Key: prefix + "rc-ana", Name: "Ana", Password: "pbkdf2$b", Created: now}
	bea := &store.Account{Key: prefix + "rc-bea", Name: "Bea", Password: "pbkdf2$b", Created: now}
	for _, a := range []*store.Account{ana, bea} {
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	left := func(a *store.Account) int {
		t.Helper()
		n, err := s.RecoveryCodesLeft(ctx, a.Key)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := s.SetRecoveryCodes(ctx, ana.Key, []string{"h1", "h2", "h3"}, now); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRecoveryCodes(ctx, bea.Key, []string{"h1"}, now); err != nil {
		t.Fatal(err)
	}
	if n := left(ana); n != 3 {
		t.Errorf("Ana's codes: %d", n)
	}
	if err := s.UseRecoveryCode(ctx, ana.Key, "h2"); err != nil {
		t.Fatal(err)
	}
	if err := s.UseRecoveryCode(ctx, ana.Key, "h2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a code used twice: %v", err)
	}
	if err := s.UseRecoveryCode(ctx, bea.Key, "h3"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Ana's code used by Bea: %v", err)
	}
	if n := left(ana); n != 2 {
		t.Errorf("after one used: %d", n)
	}
	if err := s.SetRecoveryCodes(ctx, ana.Key, []string{"h9"}, now); err != nil {
		t.Fatal(err)
	}
	if err := s.UseRecoveryCode(ctx, ana.Key, "h1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a replaced code: %v", err)
	}
	if err := s.SetRecoveryCodes(ctx, prefix+"rc-nobody", []string{"x"}, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("codes of no account: %v", err)
	}
	if err := s.CloseAccount(ctx, ana.Key, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n := left(ana); n != 0 {
		t.Errorf("a closed account's codes: %d", n)
	}
	if n := left(bea); n != 1 {
		t.Errorf("Bea's codes after Ana closed: %d", n)
	}
}
