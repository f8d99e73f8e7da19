package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestCheckpointRestartsWAL checks that commits never copy the WAL into
// the database file themselves (that is the checkpointer's work, off the
// commit path), and that after a checkpoint the next commits write the
// WAL again from its beginning instead of making it longer.
func TestCheckpointRestartsWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "atril.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The checkpointer is stopped (and the writer started again): only
	// this test checkpoints.
	s.once.Do(func() { close(s.quit) })
	<-s.ckptDone
	<-s.done
	s.quit, s.done = make(chan struct{}), make(chan struct{})
	s.once = sync.Once{}
	go s.writer()
	var auto int
	if err := s.db.QueryRow("PRAGMA wal_autocheckpoint").Scan(&auto); err != nil || auto != 0 {
		t.Errorf("the writer's connection checkpoints every %d pages (%v), want never (0)", auto, err)
	}
	const games = 30
	walSize := func() int64 {
		t.Helper()
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	appendAll := func(seq int) {
		t.Helper()
		for i := range games {
			if err := s.Append(ctx, fmt.Sprintf("g%d", i), Event{Seq: seq, Kind: "move", Data: "{}"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range games {
		if err := s.CreateGame(ctx, &Game{ID: fmt.Sprintf("g%d", i), Variant: "english", Lexicon: "en-sowpods", Seats: []Seat{{Name: "a"}, {Name: "b"}}}); err != nil {
			t.Fatal(err)
		}
	}
	appendAll(0)
	// From an empty WAL file (its size is the most it ever held).
	if _, err := s.ckpt.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	appendAll(1)
	first := walSize()
	appendAll(2) // no checkpoint: the WAL grows
	second := walSize()
	if second < first+first/2 {
		t.Fatalf("WAL of %d bytes after %d commits, %d after %d more with no checkpoint: was it copied by a commit?", first, games, second, games)
	}
	s.checkpoint()
	appendAll(3)
	if third := walSize(); third != second {
		t.Errorf("WAL of %d bytes after a checkpoint and %d commits, %d before: not started again", third, games, second)
	}
	for i := range games {
		if _, evs, err := s.Load(ctx, fmt.Sprintf("g%d", i)); err != nil || len(evs) != 4 {
			t.Errorf("game %d: %d events, %v", i, len(evs), err)
		}
	}
}
