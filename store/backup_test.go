package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"atril/store"
)

// TestBackupSQLite backs a store up while a writer goes on appending to
// its games: the copy opens as a store, holds every game and account,
// and each game's log as a prefix of what was written, never cut inside
// a write; a backup refuses to overwrite a file or to copy a file that is
// not there.
func TestBackupSQLite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "atril.db")
	s, err := store.OpenSQLite(src)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const games = 8
	for i := range games {
		if err := s.CreateGame(ctx, &store.Game{ID: fmt.Sprintf("g%d", i), Variant: "english", Lexicon: "en-sowpods",
			Seats: []store.Seat{{Name: "a"}, {Name: "b"}}, Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateAccount(ctx, &store.Account{Key: "ana", Name: "Ana", Password: "pbkdf2$x", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// The writer appends to every game in turn until told to stop.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var written int
	go func() {
		defer wg.Done()
		for n := 0; ; n++ {
			select {
			case <-stop:
				written = n
				return
			default:
			}
			id := fmt.Sprintf("g%d", n%games)
			e := store.Event{Seq: n / games, Kind: "move", Data: fmt.Sprintf(`{"n":%d,"pad":%q}`, n, strings.Repeat("x", 200)), Time: time.Now()}
			if err := s.Append(ctx, id, e); err != nil {
				t.Error(err)
				written = n
				return
			}
		}
	}()
	time.Sleep(50 * time.Millisecond)
	dst := filepath.Join(dir, "copy.db")
	rep, err := store.BackupSQLite(ctx, src, dst)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != games || rep.Accounts != 1 || rep.Bytes <= 0 {
		t.Errorf("backup report %+v, want %d games and 1 account", rep, games)
	}
	if st, err := os.Stat(dst); err != nil || st.Size() != rep.Bytes {
		t.Errorf("the copy: %v, %v; want %d bytes", st, err, rep.Bytes)
	}
	c, err := store.OpenSQLite(dst)
	if err != nil {
		t.Fatalf("the copy does not open as a store: %v", err)
	}
	defer c.Close()
	if a, err := c.Account(ctx, "ana"); err != nil || a.Name != "Ana" {
		t.Errorf("the account in the copy: %+v, %v", a, err)
	}
	copied, lens := 0, make([]int, games)
	for i := range games {
		_, es, err := c.Load(ctx, fmt.Sprintf("g%d", i))
		if err != nil {
			t.Fatal(err)
		}
		for j, e := range es {
			if want := fmt.Sprintf(`{"n":%d,`, j*games+i); e.Seq != j || !strings.HasPrefix(e.Data, want) {
				t.Fatalf("game g%d, event %d in the copy: %d %q, want %s...", i, j, e.Seq, e.Data, want)
			}
		}
		lens[i] = len(es)
		copied += len(es)
	}
	// The copy is a snapshot: it holds the first events written, in the
	// writer's order, and nothing after them.
	for i := range games {
		if want := (copied - i + games - 1) / games; lens[i] != want {
			t.Errorf("game g%d has %d events in the copy, want %d of the first %d written", i, lens[i], want, copied)
		}
	}
	if copied == 0 || copied > written {
		t.Errorf("%d events in the copy, %d written", copied, written)
	}
	t.Logf("%d of %d events written were in the copy", copied, written)

	if _, err := store.BackupSQLite(ctx, src, dst); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a backup over an existing file: %v, want a refusal", err)
	}
	if _, err := store.BackupSQLite(ctx, filepath.Join(dir, "none.db"), filepath.Join(dir, "x.db")); err == nil {
		t.Error("a backup of no file: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); err == nil {
		t.Error("a failed backup left a file")
	}
}
