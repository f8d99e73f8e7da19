package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestWatchersNameAdded opens a file whose watchers' table was made
// before watchers had names: the column is added, the watchers there
// read as guests, and a signed-in watcher is named.
func TestWatchersNameAdded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, q := range []string{
		`CREATE TABLE game_watchers (game TEXT NOT NULL, watcher TEXT NOT NULL, seen INTEGER NOT NULL, PRIMARY KEY (game, watcher))`,
		`INSERT INTO game_watchers(game, watcher, seen) VALUES ('g', 'old', ` + strconv.FormatInt(now.UnixNano(), 10) + `)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.SawWatcher(ctx, "g", "new", "Ana", now); err != nil {
		t.Fatal(err)
	}
	m, err := s.Watchers(ctx, now.Add(-time.Second))
	if w := m["g"]; err != nil || w.Count != 2 || !slices.Equal(w.Names, []string{"Ana"}) {
		t.Errorf("the watchers of the old file: %+v, %v", w, err)
	}
}
