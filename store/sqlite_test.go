package store_test

import (
	"context"
	"path/filepath"
	"testing"

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
