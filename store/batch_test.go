package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSQLiteGroupOfWrites commits one group of writes of every kind, as
// the writer does under load: appends written several by statement, some
// of them refused (a sequence number taken or skipped, an unknown game,
// two of one game in one statement), among new games and finished ones.
// Each write must get its own outcome, and exactly the accepted ones
// must be in the file after it is opened again. The same with a file
// whose events.seq may be NULL (which this store never made), where the
// appends go one by one.
func TestSQLiteGroupOfWrites(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		batched      bool
	}{
		{"store's schema", "", true},
		{"seq may be NULL", `CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, lexicon TEXT NOT NULL, seed INTEGER NOT NULL,
			seats TEXT NOT NULL, created INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
			CREATE TABLE events (game TEXT NOT NULL REFERENCES games(id), seq INTEGER, kind TEXT NOT NULL, data TEXT NOT NULL,
			time INTEGER NOT NULL, PRIMARY KEY (game, seq));`, false},
	} {
		t.Run(tc.name, func(t *testing.T) { groupOfWrites(t, tc.schema, tc.batched) })
	}
}

func groupOfWrites(t *testing.T, schema string, batched bool) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "atril.db")
	if schema != "" {
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.Exec(schema)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.insertEvents[1] != nil; got != batched {
		t.Errorf("several events by statement: %v, want %v", got, batched)
	}
	const games = 40
	id := func(i int) string { return fmt.Sprintf("g%02d", i) }
	newGame := func(id string) *Game {
		return &Game{ID: id, Variant: "english", Lexicon: "en-sowpods", Seats: []Seat{{Name: "a"}, {Name: "b"}}, Created: time.Unix(1, 0)}
	}
	for i := range games {
		if err := s.CreateGame(ctx, newGame(id(i))); err != nil {
			t.Fatal(err)
		}
	}
	ev := func(seq int) Event {
		return Event{Seq: seq, Kind: "move", Data: fmt.Sprintf(`{"n":%d}`, seq), Time: time.Unix(0, int64(seq+1)).UTC()}
	}
	type write struct {
		r    *appendReq
		want error // nil, ErrConflict or ErrNotFound
	}
	var ws []write
	add := func(r *appendReq, want error) {
		r.ctx = ctx
		ws = append(ws, write{r, want})
	}
	// Event 0 of every game: statements of 32 and 8 events.
	for i := range games {
		add(&appendReq{op: opAppend, id: id(i), e: ev(0)}, nil)
	}
	add(&appendReq{op: opCreate, id: "new", g: newGame("new"), s: `[{"name":"a"},{"name":"b"}]`}, nil)
	add(&appendReq{op: opCreate, id: id(7), g: newGame(id(7)), s: `[]`}, ErrConflict)
	// A statement of 8 with refusals in it: one by one then.
	add(&appendReq{op: opAppend, id: id(0), e: ev(0)}, ErrConflict) // taken
	add(&appendReq{op: opAppend, id: id(1), e: ev(1)}, nil)
	add(&appendReq{op: opAppend, id: "nowhere", e: ev(0)}, ErrNotFound)
	add(&appendReq{op: opAppend, id: id(2), e: ev(5)}, ErrConflict) // a gap
	add(&appendReq{op: opAppend, id: id(3), e: ev(1)}, nil)
	add(&appendReq{op: opAppend, id: id(5), e: ev(1)}, nil)
	add(&appendReq{op: opAppend, id: id(5), e: ev(2)}, nil) // two of one game
	add(&appendReq{op: opAppend, id: "new", e: ev(0)}, nil)
	add(&appendReq{op: opFinish, id: id(4)}, nil)
	add(&appendReq{op: opFinish, id: "nowhere"}, ErrNotFound)
	// A statement of 4, all accepted; one of 2 with a gap alone.
	for i := 10; i < 14; i++ {
		add(&appendReq{op: opAppend, id: id(i), e: ev(1)}, nil)
	}
	add(&appendReq{op: opAppend, id: id(20), e: ev(1)}, nil)
	add(&appendReq{op: opAppend, id: id(21), e: ev(7)}, ErrConflict)
	group := make([]*appendReq, len(ws))
	for i, w := range ws {
		group[i] = w.r
	}
	errs := s.commitGroup(group)
	for i, w := range ws {
		switch {
		case w.want == nil && errs[i] != nil:
			t.Errorf("write %d (%s, game %s): %v", i, w.r.wrap(errors.New("")), w.r.id, errs[i])
		case w.want != nil && !errors.Is(errs[i], w.want):
			t.Errorf("write %d (game %s): %v, want %v", i, w.r.id, errs[i], w.want)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = OpenSQLite(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wantLen := map[string]int{id(1): 2, id(3): 2, id(5): 3, "new": 1, id(10): 2, id(11): 2, id(12): 2, id(13): 2, id(20): 2}
	for i := -1; i < games; i++ {
		g := id(i)
		if i < 0 {
			g = "new"
		}
		n, ok := wantLen[g]
		if !ok {
			n = 1
		}
		_, evs, err := s.Load(ctx, g)
		if err != nil || len(evs) != n {
			t.Fatalf("game %s: %d events (%v), want %d", g, len(evs), err, n)
		}
		for k, e := range evs {
			if w := ev(k); e != w {
				t.Errorf("game %s event %d: %+v, want %+v", g, k, e, w)
			}
		}
	}
	open, err := s.Unfinished(ctx)
	if err != nil || len(open) != games || slices.Contains(open, id(4)) {
		t.Errorf("unfinished games %v (%v): want all %d but %s", open, err, games, id(4))
	}
}
