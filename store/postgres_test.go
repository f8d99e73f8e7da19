package store_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"atril/store"
	"atril/store/storetest"
)

// PostgresEnv names the environment variable holding the connection
// string of a PostgreSQL database for the tests (.ci/install-postgres.sh
// sets it).
const PostgresEnv = "ATRIL_PG_DSN"

// TestPostgres runs the suite on a database whose text order is a
// language's (see linguisticDSN), as the store must not depend on it.
func TestPostgres(t *testing.T) {
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		t.Skip("PostgreSQL store NOT tested: set " + PostgresEnv + " to a database's connection string (source .ci/install-postgres.sh)")
	}
	dsn = linguisticDSN(t, dsn)
	// Each run uses fresh game ids, so a database shared between runs
	// needs no cleaning.
	prefix := fmt.Sprintf("t%d-", time.Now().UnixNano())
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := store.OpenPostgres(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, prefix)
}

// collationDB is the database, beside the one of PostgresEnv, that
// linguisticDSN makes when that one orders text by its bytes.
const collationDB = "atril_test_collation"

// linguisticDSN returns the connection string of a database of the
// server of dsn whose text order is a language's (English as ICU orders
// it: case, accents and punctuation weighed apart from the letters), not
// the order of the bytes, so that a statement of the store ordering by
// the database's collation where SQLite orders by bytes lists things
// otherwise. That is dsn's database when its order is such, else
// collationDB, made once (ICU_LOCALE 'en'). When neither can be had (a
// server without ICU, no right to make a database), it says so and
// returns dsn.
func linguisticDSN(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	// 'a' sorts after 'B' by bytes, before it in English.
	linguistic := func(dsn string) (bool, error) {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return false, err
		}
		defer conn.Close(ctx)
		var ok bool
		err = conn.QueryRow(ctx, `SELECT 'a' < 'B'`).Scan(&ok)
		return ok, err
	}
	ok, err := linguistic(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		t.Logf("the order of text NOT tested apart from bytes: %s is not a URL to name another database in", PostgresEnv)
		return dsn
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, `CREATE DATABASE `+collationDB+` TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en'`)
	conn.Close(ctx)
	// Made already, perhaps by another package's tests meanwhile.
	var pe *pgconn.PgError
	if err != nil && !(errors.As(err, &pe) && (pe.Code == "42P04" || pe.Code == "23505")) {
		t.Logf("the order of text NOT tested apart from bytes: make database %s: %v", collationDB, err)
		return dsn
	}
	u.Path = "/" + collationDB
	if ok, err := linguistic(u.String()); err != nil || !ok {
		t.Fatalf("database %s: orders by bytes (%v)", collationDB, err)
	}
	return u.String()
}

// TestPostgresShared checks what several server processes rely on: one
// writer per event number, the announcements of appended events, and
// claims of overdue computer moves that no two processes share.
func TestPostgresShared(t *testing.T) {
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		t.Skip("PostgreSQL shared store NOT tested: set " + PostgresEnv + " (source .ci/install-postgres.sh)")
	}
	ctx := context.Background()
	open := func() *store.Postgres {
		s, err := store.OpenPostgres(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open() // two processes
	prefix := fmt.Sprintf("s%d-", time.Now().UnixNano())
	ids := []string{prefix + "g0", prefix + "g1", prefix + "g2"}
	for _, id := range ids {
		if err := a.CreateGame(ctx, &store.Game{ID: id, Variant: "english", Lexicon: "en-sowpods", Seats: []store.Seat{{Name: "a"}, {Name: "b"}},
			Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Finish(ctx, id) })
	}
	heard := make(chan string, 16)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	go b.Listen(lctx, func(id string, seq int, kind string) {
		if strings.HasPrefix(id, prefix) || id == "" {
			heard <- fmt.Sprintf("%s %d %s", strings.TrimPrefix(id, prefix), seq, kind)
		}
	})
	if got := <-heard; got != " -1 " {
		t.Fatalf("first call of Listen: %q, want the (re)connection", got)
	}
	past := time.Now().Add(-time.Second)
	if err := a.AppendShared(ctx, ids[0], store.Event{Seq: 0, Kind: "join", Data: "{}", Time: time.Now()}, past, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seq  int
		want error
		id   string
	}{{0, store.ErrConflict, ids[0]}, {2, store.ErrConflict, ids[0]}, {0, store.ErrNotFound, prefix + "none"}} {
		if err := b.AppendShared(ctx, c.id, store.Event{Seq: c.seq, Kind: "move", Data: "{}", Time: time.Now()}, time.Time{}, false); !errors.Is(err, c.want) {
			t.Errorf("append %d to %s: %v, want %v", c.seq, c.id, err, c.want)
		}
	}
	if got := <-heard; got != "g0 0 join" {
		t.Errorf("heard %q, want the join", got)
	}
	if evs, err := b.EventsFrom(ctx, ids[0], 0); err != nil || len(evs) != 1 || evs[0].Kind != "join" {
		t.Errorf("events from 0: %v %v", evs, err)
	}
	if evs, err := b.EventsFrom(ctx, ids[0], 1); err != nil || len(evs) != 0 {
		t.Errorf("events from 1: %v %v", evs, err)
	}
	// An event that keeps the due time (a chat line) leaves g0 due.
	if err := a.AppendShared(ctx, ids[0], store.Event{Seq: 1, Kind: "chat", Data: "{}", Time: time.Now()}, time.Time{}, true); err != nil {
		t.Fatal(err)
	}
	if got := <-heard; got != "g0 1 chat" {
		t.Errorf("heard %q, want the chat line", got)
	}
	// Overdue computer moves: g0 (from the append) and g1; g2 is not due.
	if err := a.SetDue(ctx, ids[1], past); err != nil {
		t.Fatal(err)
	}
	if err := a.SetDue(ctx, ids[2], time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	claims := make(chan []string, 2)
	for _, s := range []*store.Postgres{a, b} {
		go func() {
			got, err := s.ClaimDue(ctx, time.Now(), time.Now().Add(time.Hour), 10)
			if err != nil {
				t.Error(err)
			}
			claims <- got
		}()
	}
	all := map[string]int{}
	for range 2 {
		for _, id := range <-claims {
			if strings.HasPrefix(id, prefix) {
				all[strings.TrimPrefix(id, prefix)]++
			}
		}
	}
	if fmt.Sprint(all) != "map[g0:1 g1:1]" {
		t.Errorf("claims: %v, want g0 and g1 once each", all)
	}
	if got, _ := a.ClaimDue(ctx, time.Now(), time.Now(), 10); len(got) != 0 {
		for _, id := range got {
			if strings.HasPrefix(id, prefix) {
				t.Errorf("claimed again before the claim ran out: %s", id)
			}
		}
	}
	// Stale: games with no event since a time, page by page.
	var pages []string
	after := ""
	for {
		got, err := a.Stale(ctx, time.Now().Add(time.Minute), after, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			break
		}
		if strings.HasPrefix(got[0], prefix) {
			pages = append(pages, strings.TrimPrefix(got[0], prefix))
		}
		after = got[0]
	}
	if fmt.Sprint(pages) != "[g0 g1 g2]" {
		t.Errorf("stale games: %v", pages)
	}
}

// TestPostgresClosingRacesWrites checks that a write for an account made
// while another process closes it waits for the closing and then keeps
// nothing, instead of leaving behind it what the closing took away.
func TestPostgresClosingRacesWrites(t *testing.T) {
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		t.Skip("PostgreSQL store NOT tested: set " + PostgresEnv + " (source .ci/install-postgres.sh)")
	}
	ctx := context.Background()
	s, err := store.OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	key := fmt.Sprintf("c%d-eve", time.Now().UnixNano())
	if err := s.CreateAccount(ctx, &store.Account{Key: key, Name: "Eve", Password: "pbkdf2$e", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// A closing under way in another process: the account's row changed,
	// its bio not yet deleted, nothing committed.
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `UPDATE atril_accounts SET password = 'closed' WHERE key = $1`, key); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.SetBio(ctx, key, store.Bio{About: "still here", Updated: time.Now()}) }()
	var early error
	waited := false
	select {
	case early = <-done:
		t.Errorf("SetBio during a closing did not wait for it: %v", early)
	case <-time.After(300 * time.Millisecond):
		waited = true
	}
	if _, err := tx.Exec(ctx, `DELETE FROM atril_bios WHERE account = $1`, key); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if waited {
		early = <-done
	}
	if err := early; !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetBio of an account closed meanwhile: %v, want ErrNotFound", err)
	}
	if b, err := s.Bio(ctx, key); err != nil || b.About != "" {
		t.Errorf("the bio of an account closed meanwhile: %+v, %v; want none", b, err)
	}
}
