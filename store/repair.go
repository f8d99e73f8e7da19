package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// RepairReport says what RepairSQLite kept.
type RepairReport struct {
	// Kept lists the games copied whole: header and every event.
	Kept []string
	// Damaged lists the games found in part only (a missing header, or a
	// gap in the log); they stay in the damaged file.
	Damaged []string
	// Aside is where the damaged file was moved.
	Aside string
	// Rows counts the rows copied of the accounts' tables (accounts,
	// sessions, ratings, rated games) and of the tournaments' table, by
	// table.
	Rows map[string]int
}

// RepairSQLite salvages a damaged SQLite store: it reads every game header
// and event that can still be read, row by row, copies each game whose
// header and log (events 0 to n−1 with no gap) are all there into a new
// file, with the rows it can read of the accounts' and tournaments'
// tables, moves the damaged file aside (to path.damaged-TIME, with its
// -wal and -shm files) and puts the new file in its place.
func RepairSQLite(path string) (*RepairReport, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("store: repair %s: %w", path, err)
	}
	old, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, fmt.Errorf("store: repair %s: %w", path, err)
	}
	old.SetMaxOpenConns(1)
	defer old.Close()
	// The data version says how the events are written: the new file
	// keeps it, or the server would migrate them again.
	var version int
	if err := old.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return nil, fmt.Errorf("store: repair %s: read the data version: %w", path, err)
	}
	games := map[string]*Game{}
	var order []string
	// A file made by an earlier version may lack the newer columns: its
	// games keep the void rule, are not rated and belong to no
	// tournament.
	cols := "id, variant, lexicon, seed, seats, created, finished"
	var has [3]bool
	for i, c := range newerGameColumns {
		if ok, err := hasColumn(old, "games", c.name); err == nil && ok {
			cols, has[i] = cols+", "+c.name, true
		}
	}
	salvage(old, "games", cols, func(rows *sql.Rows) error {
		g := &Game{}
		var seed, created, finished, rated int64
		var seats string
		dest := []any{&g.ID, &g.Variant, &g.Lexicon, &seed, &seats, &created, &finished}
		if has[0] {
			dest = append(dest, &g.Challenge)
		}
		if has[1] {
			dest = append(dest, &rated)
		}
		if has[2] {
			dest = append(dest, &g.Tournament)
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if err := decodeHeader(g, seed, created, seats); err != nil {
			return err
		}
		g.Finished, g.Rated = finished != 0, rated != 0
		if _, dup := games[g.ID]; !dup {
			order = append(order, g.ID)
		}
		games[g.ID] = g
		return nil
	})
	events := map[string]map[int]Event{}
	complete := salvage(old, "events", "game, seq, kind, data, time", func(rows *sql.Rows) error {
		var id string
		var e Event
		var t int64
		if err := rows.Scan(&id, &e.Seq, &e.Kind, &e.Data, &t); err != nil {
			return err
		}
		e.Time = time.Unix(0, t).UTC()
		if events[id] == nil {
			events[id] = map[int]Event{}
		}
		events[id][e.Seq] = e
		return nil
	})

	rep := &RepairReport{}
	tmp := path + ".repairing"
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(tmp + suffix)
	}
	nw, err := OpenSQLite(tmp)
	if err != nil {
		return nil, fmt.Errorf("store: repair %s: %w", path, err)
	}
	ctx := context.Background()
	for id := range events {
		if games[id] == nil {
			rep.Damaged = append(rep.Damaged, id)
		}
	}
	for _, id := range order {
		g := games[id]
		var evs []Event
		for _, e := range events[id] {
			evs = append(evs, e)
		}
		slices.SortFunc(evs, func(a, b Event) int { return a.Seq - b.Seq })
		intact := true
		for i, e := range evs {
			intact = intact && e.Seq == i
		}
		if intact && !complete {
			// Some events could not be read: the game is whole only if
			// the primary key's index lists no event beyond those read.
			var n int
			err := old.QueryRow("SELECT COUNT(*) FROM events INDEXED BY sqlite_autoindex_events_1 WHERE game = ?", id).Scan(&n)
			intact = err == nil && n == len(evs)
		}
		if !intact {
			rep.Damaged = append(rep.Damaged, id)
			continue
		}
		if err := nw.CreateGame(ctx, g); err != nil {
			nw.Close()
			return nil, fmt.Errorf("store: repair %s: copy game %s: %w", path, id, err)
		}
		for _, e := range evs {
			if err := nw.Append(ctx, id, e); err != nil {
				nw.Close()
				return nil, fmt.Errorf("store: repair %s: copy game %s: %w", path, id, err)
			}
		}
		rep.Kept = append(rep.Kept, id)
	}
	slices.Sort(rep.Damaged)
	if rep.Rows, err = copyTables(old, nw.db); err != nil {
		nw.Close()
		return nil, fmt.Errorf("store: repair %s: %w", path, err)
	}
	if _, err := nw.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		nw.Close()
		return nil, fmt.Errorf("store: repair %s: set the data version: %w", path, err)
	}
	if err := nw.Close(); err != nil {
		return nil, fmt.Errorf("store: repair %s: %w", path, err)
	}
	rep.Aside = fmt.Sprintf("%s.damaged-%s", path, time.Now().UTC().Format("20060102T150405Z"))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(path+suffix, rep.Aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("store: repair %s: move the damaged file aside: %w", path, err)
		}
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(tmp + suffix)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("store: repair %s: put the new file in place: %w", path, err)
	}
	return rep, nil
}

// salvage reads every readable row of table in rowid order, stepping over
// rows it cannot read: it reads ranges of rows, and where a range fails
// it reads the rows of that range one by one. It reports whether every
// row from the first to the last was read (the tables are append-only,
// so their rowids have no gaps of their own).
func salvage(db *sql.DB, table, cols string, scan func(*sql.Rows) error) (complete bool) {
	var maxID int64
	complete = true
	if err := db.QueryRow("SELECT COALESCE(MAX(rowid), 0) FROM " + table).Scan(&maxID); err != nil {
		// The b-tree's right edge is unreadable: probe far enough.
		maxID, complete = 1<<22, false
	}
	seen := int64(0)
	const step = 256
	read := func(lo, hi int64) error {
		rows, err := db.Query("SELECT "+cols+" FROM "+table+" WHERE rowid BETWEEN ? AND ? ORDER BY rowid", lo, hi)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	count := func(lo, hi int64) int64 {
		var n int64
		db.QueryRow("SELECT COUNT(*) FROM "+table+" WHERE rowid BETWEEN ? AND ?", lo, hi).Scan(&n)
		return n
	}
	for lo := int64(1); lo <= maxID; lo += step {
		hi := lo + step - 1
		// A failure half-way through a range reads some rows twice;
		// the callers keep one copy of each.
		if rangeReadable(db, table, lo, hi) && read(lo, hi) == nil {
			seen += count(lo, hi)
			continue
		}
		for id := lo; id <= hi; id++ {
			if read(id, id) == nil {
				seen += count(id, id)
			}
		}
	}
	return complete && seen == maxID
}

// rangeReadable reports whether every row of a rowid range can be read.
func rangeReadable(db *sql.DB, table string, lo, hi int64) bool {
	rows, err := db.Query("SELECT * FROM "+table+" WHERE rowid BETWEEN ? AND ?", lo, hi)
	if err != nil {
		return false
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return false
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if rows.Scan(ptrs...) != nil {
			return false
		}
	}
	return rows.Err() == nil
}

// copyTables copies every readable row of the accounts' and the
// tournaments' tables from old to nw (a row already there is kept) and
// returns how many rows of each table were read. A file made before
// accounts or tournaments has none of their tables.
func copyTables(old, nw *sql.DB) (map[string]int, error) {
	copied := map[string]int{}
	for _, t := range slices.Concat(accountTables, tournamentTables) {
		var n int
		if err := old.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, t.name).Scan(&n); err != nil || n == 0 {
			continue
		}
		// A file made by an earlier version may lack the newer columns:
		// the copies take their defaults.
		var keep []string
		for _, c := range strings.Split(t.cols, ",") {
			c = strings.TrimSpace(c)
			if ok, err := hasColumn(old, t.name, c); err == nil && ok {
				keep = append(keep, c)
			}
		}
		cols := strings.Join(keep, ", ")
		ncols := len(keep)
		var rows [][]any
		salvage(old, t.name, cols, func(r *sql.Rows) error {
			vals := make([]any, ncols)
			ptrs := make([]any, ncols)
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				return err
			}
			rows = append(rows, vals)
			return nil
		})
		ins := "INSERT OR IGNORE INTO " + t.name + "(" + cols + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?,", ncols), ",") + ")"
		for _, vals := range rows {
			if _, err := nw.Exec(ins, vals...); err != nil {
				return nil, fmt.Errorf("copy a row of %s: %w", t.name, err)
			}
		}
		copied[t.name] = len(rows)
	}
	return copied, nil
}
