package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"atril/store"
	"atril/store/storetest"
)

func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := store.OpenSQLite(filepath.Join(t.TempDir(), "atril.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, "")
}

// TestSQLiteReopen checks that what was written is there after closing
// and opening the file again.
func TestSQLiteReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "atril.db")
	s, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, &store.Game{ID: "g", Variant: "english", Lexicon: "en-sowpods", Seats: []store.Seat{{Name: "a"}, {Name: "b"}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "g", store.Event{Seq: 0, Kind: "join", Data: "{}"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, evs, err := s.Load(ctx, "g")
	if err != nil || len(evs) != 1 {
		t.Fatalf("after reopen: %d events, %v", len(evs), err)
	}
}

// TestSQLiteWaitsForBusyFile checks that a write waits while another
// connection holds the file's write lock (up to the busy timeout)
// instead of failing at once.
func TestSQLiteWaitsForBusyFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "atril.db")
	s, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateGame(ctx, &store.Game{ID: "g", Variant: "english", Lexicon: "en-sowpods", Seats: []store.Seat{{Name: "a"}, {Name: "b"}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "g", store.Event{Seq: 0, Kind: "join", Data: "{}"}); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "UPDATE games SET lexicon = lexicon WHERE id = 'g'"); err != nil {
		t.Fatal(err)
	}
	results := make(chan error, 2)
	go func() { results <- s.Append(ctx, "g", store.Event{Seq: 1, Kind: "move", Data: "{}"}) }()
	go func() {
		results <- s.CreateGame(ctx, &store.Game{ID: "h", Variant: "english", Lexicon: "en-sowpods", Seats: []store.Seat{{Name: "a"}, {Name: "b"}}})
	}()
	// Give the writes time to meet the lock (if they come later, they
	// find it free and the test passes trivially).
	time.Sleep(300 * time.Millisecond)
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-results; err != nil {
			t.Errorf("write after the lock was released: %v", err)
		}
	}
	if err := s.Finish(ctx, "g"); err != nil {
		t.Error(err)
	}
}

// TestSQLiteDamagedFile checks that a damaged file is refused at open
// with a clear error, and that RepairSQLite keeps every game it can read
// whole, exactly as it was.
func TestSQLiteDamagedFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "atril.db")
	s, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		g   store.Game
		evs []store.Event
	}
	want := map[string]rec{}
	const games = 100
	for i := range games {
		id := fmt.Sprintf("g%03d", i)
		g := store.Game{ID: id, Variant: "english", Lexicon: "en-sowpods", Seed: uint64(i), Created: time.Unix(int64(i), 0).UTC(),
			Seats: []store.Seat{{Name: "a"}, {Name: "b"}}}
		if err := s.CreateGame(ctx, &g); err != nil {
			t.Fatal(err)
		}
		r := rec{g: g}
		for j := range 8 {
			e := store.Event{Seq: j, Kind: "move", Data: fmt.Sprintf(`{"game":%d,"n":%d,"pad":%q}`, i, j, strings.Repeat("x", 100)), Time: time.Unix(int64(j), 0).UTC()}
			if err := s.Append(ctx, id, e); err != nil {
				t.Fatal(err)
			}
			r.evs = append(r.evs, e)
		}
		want[id] = r
	}
	if _, err := s.Migrate(ctx, 3, func(g *store.Game, e store.Event) (string, error) { return e.Data, nil }); err != nil {
		t.Fatal(err)
	}
	// Accounts, a session and a rated game, which the repair copies too.
	for _, name := range []string{"ana", "bo", "cy"} {
		if err := s.CreateAccount(ctx, &store.Account{Key: name, Name: name, Password: "h", Created: time.Unix(1, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	a, err := s.Account(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, "sess", "ana", a.Password, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordPuzzle(ctx, "ana", &store.PuzzleRecord{Lexicon: "en-sowpods", Number: 3, Correct: true, Score: 40, Answered: time.Unix(5, 0)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Block(ctx, "ana", "bo", time.Unix(6, 0), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.AddReport(ctx, &store.Report{By: "bo", Of: "cy", Reason: "rude", Created: time.Unix(7, 0)}, 0); err != nil {
		t.Fatal(err)
	}
	rg := &store.RatedGame{Game: "g000", Category: "en-sowpods", Finished: time.Unix(9, 0).UTC(),
		Seats: []store.RatedSeat{{Seat: 0, Account: "ana", Name: "ana", Result: 1}, {Seat: 1, Account: "bo", Name: "bo"}}}
	if _, err := s.RateGame(ctx, rg, func(b []store.Rating) ([]store.Rating, error) {
		for i := range b {
			b[i].R, b[i].RD, b[i].Vol, b[i].Games = 1500+float64(i), 300, 0.06, 1
		}
		return b, nil
	}); err != nil {
		t.Fatal(err)
	}
	// Tournaments, which the repair copies too, one at version 2.
	tour := &store.Tournament{ID: "cup", Data: `{"name":"Cup"}`, Created: time.Unix(10, 0).UTC(), Updated: time.Unix(10, 0).UTC()}
	for _, tr := range []*store.Tournament{tour, {ID: "shield", Data: "{}", Created: time.Unix(11, 0).UTC(), Updated: time.Unix(11, 0).UTC()}} {
		if err := s.CreateTournament(ctx, tr, store.TournamentLimit{}); err != nil {
			t.Fatal(err)
		}
	}
	if tour.Version, err = s.UpdateTournament(ctx, tour.ID, 1, `{"name":"Cup","done":true}`, true, time.Unix(12, 0).UTC()); err != nil {
		t.Fatal(err)
	}
	tour.Data, tour.Finished, tour.Updated = `{"name":"Cup","done":true}`, true, time.Unix(12, 0).UTC()
	s.Close()
	// Overwrite with garbage two pages of the events table: the one
	// holding the middle game's first event, and the next (the tables the
	// schema holds move where the middle of the file falls).
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	at := bytes.Index(data, []byte(fmt.Sprintf(`{"game":%d,"n":0,`, games/2)))
	if at < 0 || at/page+2 > len(data)/page {
		t.Fatalf("the middle game's first event at %d of a file of %d bytes", at, len(data))
	}
	for p := at / page; p < at/page+2; p++ {
		for k := range page {
			data[p*page+k] = byte(k*7 + 13)
		}
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenSQLite(path); !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "--repair") {
		t.Fatalf("opening the damaged file: %v; want ErrCorrupt with the way out", err)
	}
	rep, err := store.RepairSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Kept)+len(rep.Damaged) != games || len(rep.Kept) < games/2 || len(rep.Damaged) == 0 {
		t.Errorf("repair kept %d and found %d damaged of %d games", len(rep.Kept), len(rep.Damaged), games)
	}
	if _, err := os.Stat(rep.Aside); err != nil {
		t.Errorf("damaged file not kept aside: %v", err)
	}
	s, err = store.OpenSQLite(path)
	if err != nil {
		t.Fatalf("repaired file: %v", err)
	}
	defer s.Close()
	if v, err := s.DataVersion(ctx); v != 3 || err != nil {
		t.Errorf("repaired file's data version: %d %v, want 3", v, err)
	}
	if r := rep.Rows; r["accounts"] != 3 || r["sessions"] != 1 || r["ratings"] != 2 || r["rated_games"] != 1 || r["rated_seats"] != 2 || r["puzzle_answers"] != 1 ||
		r["blocks"] != 1 || r["reports"] != 1 {
		t.Errorf("repair copied of the accounts' tables %v", r)
	}
	if n := rep.Rows["tournaments"]; n != 2 {
		t.Errorf("repair copied %d tournaments, want 2", n)
	}
	if tr, err := s.Tournament(ctx, tour.ID); err != nil || fmt.Sprint(*tr) != fmt.Sprint(*tour) {
		t.Errorf("repaired file: tournament: %+v, %v; want %+v", tr, err, tour)
	}
	if a, err := s.Session(ctx, "sess", time.Now()); err != nil || a.Key != "ana" {
		t.Errorf("repaired file: session: %+v, %v", a, err)
	}
	if rs, err := s.Ratings(ctx, "bo"); err != nil || len(rs) != 1 || rs[0].R != 1501 {
		t.Errorf("repaired file: ratings: %+v, %v", rs, err)
	}
	if pr, err := s.PuzzleRecord(ctx, "ana", "en-sowpods", 3); err != nil || !pr.Correct || pr.Score != 40 {
		t.Errorf("repaired file: puzzle answer: %+v, %v", pr, err)
	}
	if bs, err := s.Blocking(ctx, "bo"); err != nil || len(bs) != 1 || bs[0] != "ana" {
		t.Errorf("repaired file: blocks: %v, %v", bs, err)
	}
	if rs, err := s.Reports(ctx, "cy", false, 5); err != nil || len(rs) != 1 || rs[0].Reason != "rude" {
		t.Errorf("repaired file: reports: %+v, %v", rs, err)
	}
	for _, id := range rep.Kept {
		g, evs, err := s.Load(ctx, id)
		if err != nil {
			t.Errorf("kept game %s: %v", id, err)
			continue
		}
		w := want[id]
		if fmt.Sprint(*g) != fmt.Sprint(w.g) || fmt.Sprint(evs) != fmt.Sprint(w.evs) {
			t.Errorf("kept game %s differs:\n%v %v\n%v %v", id, *g, evs, w.g, w.evs)
		}
	}
	t.Logf("repair kept %d games whole; %d damaged stay in %s", len(rep.Kept), len(rep.Damaged), filepath.Base(rep.Aside))
}

// TestSQLiteBeforeChallengeColumn opens and repairs a file made before
// games had a challenge rule or could be rated, and before casual games'
// results were recorded: its games read with the void rule, unrated,
// its recorded results as rated games between people, and new games
// and results keep their rule, rating and kind.
func TestSQLiteBeforeChallengeColumn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, lexicon TEXT NOT NULL, seed INTEGER NOT NULL,
			seats TEXT NOT NULL, created INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0)`,
		`CREATE TABLE events (game TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
			data TEXT NOT NULL, time INTEGER NOT NULL, PRIMARY KEY (game, seq))`,
		`INSERT INTO games VALUES ('old1', 'english', 'en-sowpods', 7, '[{"name":"Ana"},{"name":"Bo"}]', 1, 0)`,
		`INSERT INTO events VALUES ('old1', 0, 'join', '{"seat":0}', 2)`,
		`CREATE TABLE rated_games (game TEXT PRIMARY KEY, category TEXT NOT NULL, finished INTEGER NOT NULL)`,
		`CREATE TABLE rated_seats (game TEXT NOT NULL, seat INTEGER NOT NULL, account TEXT NOT NULL, name TEXT NOT NULL,
			score INTEGER NOT NULL, result REAL NOT NULL, r_before REAL NOT NULL, rd_before REAL NOT NULL, r_after REAL NOT NULL,
			rd_after REAL NOT NULL, finished INTEGER NOT NULL, PRIMARY KEY (game, seat))`,
		`INSERT INTO rated_games VALUES ('r0', 'en-sowpods', 5)`,
		`INSERT INTO rated_seats VALUES ('r0', 0, 'ana', 'Ana', 400, 1, 1500, 350, 1560, 300, 5), ('r0', 1, 'bo', 'Bo', 300, 0, 1500, 350, 1440, 300, 5)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	// Repair reads the old layout.
	rep, err := store.RepairSQLite(path)
	if err != nil {
		t.Fatalf("repair: %v", err)
	}
	if len(rep.Kept) != 1 {
		t.Errorf("repair kept %v, want old1", rep.Kept)
	}
	for _, p := range []string{path, rep.Aside} {
		s, err := store.OpenSQLite(p)
		if err != nil {
			t.Fatalf("open %s: %v", p, err)
		}
		g, evs, err := s.Load(context.Background(), "old1")
		if err != nil || g.Challenge != "" || g.Rated || len(evs) != 1 {
			t.Errorf("%s: old game: %+v, %d events, %v", p, g, len(evs), err)
		}
		ng := &store.Game{ID: "new1", Variant: "english", Lexicon: "en-sowpods", Seats: g.Seats, Challenge: "5pt", Rated: true, Created: time.Now()}
		if err := s.CreateGame(context.Background(), ng); err != nil {
			t.Fatal(err)
		}
		if g, _, err := s.Load(context.Background(), "new1"); err != nil || g.Challenge != "5pt" || !g.Rated {
			t.Errorf("%s: new game: %+v, %v", p, g, err)
		}
		if rg, err := s.RatedGame(context.Background(), "r0"); err != nil || !rg.Rated || len(rg.Seats) != 2 || rg.Seats[1].Level != "" || rg.Seats[0].RAfter != 1560 {
			t.Errorf("%s: old result: %+v, %v", p, rg, err)
		}
		cg := &store.RatedGame{Game: "c1", Category: "en-sowpods", Finished: time.Unix(6, 0),
			Seats: []store.RatedSeat{{Seat: 0, Account: "ana", Name: "Ana", Score: 300, Result: 1}, {Seat: 1, Name: "Computer", Level: "adept", Score: 200}}}
		if ok, err := s.RecordGame(context.Background(), cg); err != nil || !ok {
			t.Errorf("%s: RecordGame: %v, %v", p, ok, err)
		}
		if rg, err := s.RatedGame(context.Background(), "c1"); err != nil || rg.Rated || rg.Seats[1].Level != "adept" {
			t.Errorf("%s: new result: %+v, %v", p, rg, err)
		}
		s.Close()
	}
}

// TestSQLitePushBeforeSession opens a file whose push subscriptions
// were kept before they named their session: they read with none, and
// new ones keep theirs.
func TestSQLitePushBeforeSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.CreateAccount(ctx, &store.Account{Key: "ana", Name: "Ana", Password: "pbkdf2$b", Created: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`DROP TABLE push_subscriptions`,
		`CREATE TABLE push_subscriptions (endpoint TEXT PRIMARY KEY, account TEXT NOT NULL, p256dh TEXT NOT NULL, auth TEXT NOT NULL, created INTEGER NOT NULL)`,
		`INSERT INTO push_subscriptions VALUES ('https://push.example/old', 'ana', 'k', 'a', 5)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s, err = store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.AddPushSubscription(ctx, store.PushSubscription{Account: "ana", Endpoint: "https://push.example/new", P256dh: "k", Auth: "a",
		Session: "s1", Created: time.Unix(6, 0)}); err != nil {
		t.Fatal(err)
	}
	ps, err := s.PushSubscriptions(ctx, "ana")
	if err != nil || len(ps) != 2 || ps[0].Session != "s1" || ps[1].Endpoint != "https://push.example/old" || ps[1].Session != "" {
		t.Errorf("subscriptions: %+v, %v", ps, err)
	}
}
