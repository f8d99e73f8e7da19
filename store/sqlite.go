package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// SQLite is the Store kept in one SQLite file.
type SQLite struct {
	db   *sql.DB
	path string
}

const sqliteSchema = `
CREATE TABLE IF NOT EXISTS games (
	id       TEXT PRIMARY KEY,
	variant  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	seed     INTEGER NOT NULL,
	seats    TEXT NOT NULL,
	created  INTEGER NOT NULL,
	finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
	game TEXT NOT NULL REFERENCES games(id),
	seq  INTEGER NOT NULL,
	kind TEXT NOT NULL,
	data TEXT NOT NULL,
	time INTEGER NOT NULL,
	PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games(finished, created);
`

// OpenSQLite opens (creating if needed) the SQLite store in the file at
// path. Writes are synchronous (journal in WAL mode, synchronous=FULL), so
// an acknowledged write survives a crash of the process or the machine.
func OpenSQLite(path string) (*SQLite, error) {
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(10000)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	// One connection: SQLite has a single writer anyway, and this keeps
	// every write strictly ordered without busy retries.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(sqliteSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: create sqlite schema in %s: %w", path, err)
	}
	return &SQLite{db: db, path: path}, nil
}

// CreateGame implements Store.
func (s *SQLite) CreateGame(ctx context.Context, g *Game) error {
	seats, err := json.Marshal(g.Seats)
	if err != nil {
		return fmt.Errorf("store: game %s: encode seats: %w", g.ID, err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO games(id, variant, lexicon, seed, seats, created, finished) VALUES (?,?,?,?,?,?,?)`,
		g.ID, g.Variant, g.Lexicon, int64(g.Seed), string(seats), g.Created.UnixNano(), boolInt(g.Finished))
	if err != nil {
		if isUniqueViolation(err) {
			return fmt.Errorf("store: create game %s: %w", g.ID, ErrConflict)
		}
		return fmt.Errorf("store: create game %s: %w", g.ID, err)
	}
	return nil
}

// Append implements Store.
func (s *SQLite) Append(ctx context.Context, id string, e Event) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: append to game %s: %w", id, err)
	}
	defer tx.Rollback()
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE id = ?`, id).Scan(&exists); err != nil {
		return fmt.Errorf("store: append to game %s: %w", id, err)
	}
	if exists == 0 {
		return fmt.Errorf("store: append to game %s: %w", id, ErrNotFound)
	}
	var next int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq)+1, 0) FROM events WHERE game = ?`, id).Scan(&next); err != nil {
		return fmt.Errorf("store: append to game %s: %w", id, err)
	}
	if e.Seq != next {
		return fmt.Errorf("store: append event %d to game %s (next is %d): %w", e.Seq, id, next, ErrConflict)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO events(game, seq, kind, data, time) VALUES (?,?,?,?,?)`,
		id, e.Seq, e.Kind, e.Data, e.Time.UnixNano()); err != nil {
		if isUniqueViolation(err) {
			return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, ErrConflict)
		}
		return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: append event %d to game %s: commit: %w", e.Seq, id, err)
	}
	return nil
}

// Finish implements Store.
func (s *SQLite) Finish(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE games SET finished = 1 WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("store: finish game %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: finish game %s: %w", id, ErrNotFound)
	}
	return nil
}

// Load implements Store.
func (s *SQLite) Load(ctx context.Context, id string) (*Game, []Event, error) {
	g := &Game{ID: id}
	var seed, created, finished int64
	var seats string
	err := s.db.QueryRowContext(ctx, `SELECT variant, lexicon, seed, seats, created, finished FROM games WHERE id = ?`, id).
		Scan(&g.Variant, &g.Lexicon, &seed, &seats, &created, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("store: load game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: load game %s: %w", id, err)
	}
	g.Seed, g.Created, g.Finished = uint64(seed), time.Unix(0, created).UTC(), finished != 0
	if err := json.Unmarshal([]byte(seats), &g.Seats); err != nil {
		return nil, nil, fmt.Errorf("store: load game %s: seats: %w", id, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, data, time FROM events WHERE game = ? ORDER BY seq`, id)
	if err != nil {
		return nil, nil, fmt.Errorf("store: load events of game %s: %w", id, err)
	}
	defer rows.Close()
	var evs []Event
	for rows.Next() {
		var e Event
		var t int64
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Data, &t); err != nil {
			return nil, nil, fmt.Errorf("store: load events of game %s: %w", id, err)
		}
		e.Time = time.Unix(0, t).UTC()
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("store: load events of game %s: %w", id, err)
	}
	return g, evs, nil
}

// Unfinished implements Store.
func (s *SQLite) Unfinished(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM games WHERE finished = 0 ORDER BY created, id`)
	if err != nil {
		return nil, fmt.Errorf("store: list unfinished games: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: list unfinished games: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Close implements Store.
func (s *SQLite) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close sqlite %s: %w", s.path, err)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isUniqueViolation recognises a primary-key or unique violation from
// either driver's error text.
func isUniqueViolation(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "constraint failed: UNIQUE") ||
		strings.Contains(msg, "SQLSTATE 23505") || strings.Contains(msg, "duplicate key")
}
