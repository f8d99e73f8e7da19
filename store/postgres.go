package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is the Store kept in a PostgreSQL database. It is a Shared
// store: several server processes may use one database at once.
type Postgres struct {
	pool *pgxpool.Pool
}

var _ Shared = (*Postgres)(nil)

const pgSchema = `
CREATE TABLE IF NOT EXISTS atril_games (
	id       TEXT PRIMARY KEY,
	variant  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	seed     BIGINT NOT NULL,
	seats    TEXT NOT NULL,
	created  BIGINT NOT NULL,
	finished BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE IF NOT EXISTS atril_events (
	game TEXT NOT NULL REFERENCES atril_games(id),
	seq  INTEGER NOT NULL,
	kind TEXT NOT NULL,
	data TEXT NOT NULL,
	time BIGINT NOT NULL,
	PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS atril_games_unfinished ON atril_games(finished, created);
CREATE TABLE IF NOT EXISTS atril_meta (
	name  TEXT PRIMARY KEY,
	value BIGINT NOT NULL
);
ALTER TABLE atril_games ADD COLUMN IF NOT EXISTS bot_due BIGINT;
ALTER TABLE atril_games ADD COLUMN IF NOT EXISTS updated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE atril_games ADD COLUMN IF NOT EXISTS challenge TEXT NOT NULL DEFAULT '';
ALTER TABLE atril_games ADD COLUMN IF NOT EXISTS rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE atril_games ADD COLUMN IF NOT EXISTS tournament TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS atril_games_bot_due ON atril_games(bot_due) WHERE bot_due IS NOT NULL AND NOT finished;
`

// OpenPostgres connects to the database named by dsn (a PostgreSQL
// connection string or URL) and creates the tables if needed.
func OpenPostgres(ctx context.Context, dsn string) (*Postgres, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("store: postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: postgres: connect: %w", err)
	}
	// Concurrent CREATE ... IF NOT EXISTS can race in PostgreSQL; an
	// advisory lock makes the schema set-up one at a time.
	conn, err := pool.Acquire(ctx)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: postgres: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(7270001)`); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: postgres: lock schema: %w", err)
	}
	_, err = conn.Exec(ctx, pgSchema+pgAccountsSchema+pgTournamentsSchema+cardsSchema("atril_", "BIGINT")+lobbyChatSchema("atril_", "BIGSERIAL PRIMARY KEY", "BIGINT")+followsSchema("atril_", "BIGINT")+biosSchema("atril_", "BIGINT")+settingsSchema("atril_", "BIGINT")+pushSchema("atril_", "BIGINT")+pgPushNewer+passkeysSchema("atril_", "BIGINT")+recoverySchema("atril_", "BIGINT")+endgamesSchema("atril_", "BIGINT", "DOUBLE PRECISION")+pgEndgamesNewer+puzzlesSchema("atril_", "BIGINT", "DOUBLE PRECISION")+rushSchema("atril_", "BIGINT")+messagesSchema("atril_", "BIGSERIAL PRIMARY KEY", "BIGINT")+watchersSchema("atril_", "BIGINT")+pgWatchersNewer)
	conn.Exec(ctx, `SELECT pg_advisory_unlock(7270001)`)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: postgres: create schema: %w", err)
	}
	return &Postgres{pool: pool}, nil
}

func pgUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// pgInsertGameSQL inserts a game's header.
const pgInsertGameSQL = `INSERT INTO atril_games(id, variant, lexicon, seed, seats, created, finished, updated, challenge, rated, tournament) VALUES ($1,$2,$3,$4,$5,$6,$7,$6,$8,$9,$10)`

// insertGame inserts the header of g with exec.
func insertGame(ctx context.Context, exec func(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error), g *Game) error {
	seats, err := json.Marshal(g.Seats)
	if err != nil {
		return fmt.Errorf("store: game %s: encode seats: %w", g.ID, err)
	}
	_, err = exec(ctx, pgInsertGameSQL, g.ID, g.Variant, g.Lexicon, int64(g.Seed), string(seats), g.Created.UnixNano(), g.Finished, g.Challenge, g.Rated, g.Tournament)
	if err != nil {
		if pgUnique(err) {
			return fmt.Errorf("store: create game %s: %w", g.ID, ErrConflict)
		}
		return fmt.Errorf("store: create game %s: %w", g.ID, err)
	}
	return nil
}

// CreateGame implements Store.
func (s *Postgres) CreateGame(ctx context.Context, g *Game) error {
	return insertGame(ctx, s.pool.Exec, g)
}

// CreateFinishedGame implements Store.
func (s *Postgres) CreateFinishedGame(ctx context.Context, g *Game, evs []Event) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: create finished game %s: %w", g.ID, err)
	}
	defer tx.Rollback(ctx)
	over := *g
	over.Finished = true
	if err := insertGame(ctx, tx.Exec, &over); err != nil {
		return err
	}
	for _, e := range evs {
		tag, err := tx.Exec(ctx, pgAppendSQL, g.ID, e.Seq, e.Kind, e.Data, e.Time.UnixNano())
		if err == nil && tag.RowsAffected() != 1 {
			err = ErrConflict // not the next seq
		}
		if pgUnique(err) {
			err = ErrConflict
		}
		if err != nil {
			return fmt.Errorf("store: create finished game %s: event %d: %w", g.ID, e.Seq, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: create finished game %s: commit: %w", g.ID, err)
	}
	g.Finished = true
	return nil
}

// pgAppendSQL appends an event to a game's log only if the game exists
// and the event's seq is the count of its events.
const pgAppendSQL = `
		INSERT INTO atril_events(game, seq, kind, data, time)
		SELECT $1::text, $2::integer, $3::text, $4::text, $5::bigint
		WHERE EXISTS (SELECT 1 FROM atril_games WHERE id = $1::text)
		  AND $2::integer = (SELECT COUNT(*) FROM atril_events WHERE game = $1::text)`

// Append implements Store. The insert itself checks the sequence: it
// writes only when seq is the count of the game's events, and the
// primary key refuses a duplicate from a concurrent writer.
func (s *Postgres) Append(ctx context.Context, id string, e Event) error {
	tag, err := s.pool.Exec(ctx, pgAppendSQL, id, e.Seq, e.Kind, e.Data, e.Time.UnixNano())
	if err != nil {
		if pgUnique(err) {
			return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, ErrConflict)
		}
		return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM atril_games WHERE id = $1)`, id).Scan(&exists); err != nil {
		return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, err)
	}
	if !exists {
		return fmt.Errorf("store: append to game %s: %w", id, ErrNotFound)
	}
	return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, ErrConflict)
}

// Finish implements Store.
func (s *Postgres) Finish(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE atril_games SET finished = TRUE, bot_due = NULL WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("store: finish game %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: finish game %s: %w", id, ErrNotFound)
	}
	return nil
}

// Load implements Store.
func (s *Postgres) Load(ctx context.Context, id string) (*Game, []Event, error) {
	g := &Game{ID: id}
	var seed, created int64
	var seats string
	err := s.pool.QueryRow(ctx, `SELECT variant, lexicon, seed, seats, created, finished, challenge, rated, tournament FROM atril_games WHERE id = $1`, id).
		Scan(&g.Variant, &g.Lexicon, &seed, &seats, &created, &g.Finished, &g.Challenge, &g.Rated, &g.Tournament)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, fmt.Errorf("store: load game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: load game %s: %w", id, err)
	}
	if err := decodeHeader(g, seed, created, seats); err != nil {
		return nil, nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT seq, kind, data, time FROM atril_events WHERE game = $1 ORDER BY seq`, id)
	if err != nil {
		return nil, nil, fmt.Errorf("store: load events of game %s: %w", id, err)
	}
	defer rows.Close()
	evs, err := scanEvents(rows)
	if err != nil {
		return nil, nil, fmt.Errorf("store: load events of game %s: %w", id, err)
	}
	return g, evs, nil
}

// Unfinished implements Store.
func (s *Postgres) Unfinished(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM atril_games WHERE NOT finished ORDER BY created, id COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("store: list unfinished games: %w", err)
	}
	defer rows.Close()
	ids, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: list unfinished games: %w", err)
	}
	return ids, nil
}

// Migrate implements Store. The data version is the row data_version of
// the table atril_meta; a transaction-scoped advisory lock keeps two
// servers from migrating at once.
func (s *Postgres) Migrate(ctx context.Context, version int, fn MigrateFunc) (int, error) {
	fail := func(err error) (int, error) {
		return 0, fmt.Errorf("store: postgres: migrate to data version %d: %w", version, err)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7270002)`); err != nil {
		return fail(err)
	}
	var have int64
	err = tx.QueryRow(ctx, `SELECT value FROM atril_meta WHERE name = 'data_version'`).Scan(&have)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fail(err)
	}
	if have >= int64(version) {
		return 0, nil
	}
	var games []*Game
	rows, err := tx.Query(ctx, `SELECT id, variant, lexicon, seed, seats, created, finished, challenge, rated, tournament FROM atril_games ORDER BY id COLLATE "C"`)
	if err != nil {
		return fail(err)
	}
	for rows.Next() {
		g := &Game{}
		var seed, created int64
		var seats string
		if err := rows.Scan(&g.ID, &g.Variant, &g.Lexicon, &seed, &seats, &created, &g.Finished, &g.Challenge, &g.Rated, &g.Tournament); err != nil {
			rows.Close()
			return fail(err)
		}
		if err := decodeHeader(g, seed, created, seats); err != nil {
			rows.Close()
			return fail(err)
		}
		games = append(games, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	n := 0
	for _, g := range games {
		rows, err := tx.Query(ctx, `SELECT seq, kind, data, time FROM atril_events WHERE game = $1 ORDER BY seq`, g.ID)
		if err != nil {
			return fail(err)
		}
		evs, err := scanEvents(rows)
		rows.Close()
		if err != nil {
			return fail(err)
		}
		changed, err := migrateGame(g, evs, fn)
		if err != nil {
			return fail(err)
		}
		for _, e := range changed {
			if _, err := tx.Exec(ctx, `UPDATE atril_events SET data = $1 WHERE game = $2 AND seq = $3`, e.Data, g.ID, e.Seq); err != nil {
				return fail(err)
			}
		}
		n += len(changed)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO atril_meta(name, value) VALUES ('data_version', $1)
		ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`, int64(version)); err != nil {
		return fail(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fail(err)
	}
	return n, nil
}

// DataVersion implements Store.
func (s *Postgres) DataVersion(ctx context.Context) (int, error) {
	var v int64
	err := s.pool.QueryRow(ctx, `SELECT value FROM atril_meta WHERE name = 'data_version'`).Scan(&v)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("store: postgres: data version: %w", err)
	}
	return int(v), nil
}

// Close implements Store.
func (s *Postgres) Close() error {
	s.pool.Close()
	return nil
}
