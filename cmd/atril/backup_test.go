package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// TestBackupCommand: atril backup copies a database into a new file that
// opens as a store with the same games, and refuses to write over it or
// to run without --out.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	db, out := filepath.Join(dir, "atril.db"), filepath.Join(dir, "copy.db")
	s, err := store.OpenSQLite(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.CreateGame(ctx, &store.Game{ID: "g1", Variant: "english", Lexicon: "en-sowpods", Seats: []store.Seat{{Name: "a"}, {Name: "b"}}, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "g1", store.Event{Seq: 0, Kind: "join", Data: "{}", Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := runBackup([]string{"--db", db, "--out", out}); err != nil {
		t.Fatal(err)
	}
	c, err := store.OpenSQLite(out)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if g, es, err := c.Load(ctx, "g1"); err != nil || g.Variant != "english" || len(es) != 1 {
		t.Errorf("the game in the copy: %+v, %d events, %v", g, len(es), err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", db, "--out", out}, "exists"},
		{[]string{"--db", db}, "--out"},
		{[]string{"--db", filepath.Join(dir, "none.db"), "--out", filepath.Join(dir, "x.db")}, "no database"},
	} {
		if err := runBackup(tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("backup %q: %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
}
