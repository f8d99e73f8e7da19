package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgTournamentsSchema is sqliteTournamentsSchema for PostgreSQL.
const pgTournamentsSchema = `
CREATE TABLE IF NOT EXISTS atril_tournaments (
	id       TEXT PRIMARY KEY,
	data     TEXT NOT NULL,
	version  INTEGER NOT NULL,
	finished BOOLEAN NOT NULL DEFAULT FALSE,
	created  BIGINT NOT NULL,
	updated  BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS atril_tournaments_created ON atril_tournaments(finished, created);
CREATE INDEX IF NOT EXISTS atril_tournaments_updated ON atril_tournaments(finished, updated);
`

// CreateTournament implements Tournaments.
func (s *Postgres) CreateTournament(ctx context.Context, t *Tournament, lim TournamentLimit) error {
	err := createTournament(ctx, s.funcs(), s.inOwnTx, `SELECT `+tournamentCols+` FROM atril_tournaments WHERE NOT finished`, lim, func(d dbFuncs) error {
		_, err := d.exec(ctx, `INSERT INTO atril_tournaments(`+tournamentCols+`) VALUES ($1,$2,1,$3,$4,$5)`,
			t.ID, t.Data, t.Finished, t.Created.UnixNano(), t.Updated.UnixNano())
		if pgUnique(err) {
			return ErrConflict
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: create tournament %s: %w", t.ID, err)
	}
	t.Version = 1
	return nil
}

// Tournament implements Tournaments.
func (s *Postgres) Tournament(ctx context.Context, id string) (*Tournament, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+tournamentCols+` FROM atril_tournaments WHERE id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("store: tournament %s: %w", id, err)
	}
	defer rows.Close()
	return oneTournament(rows, id)
}

// UpdateTournament implements Tournaments. The version is checked by
// the update itself: of concurrent updates at one version, the first to
// lock the row writes, and the others find the version changed when the
// lock is released. When it changes nothing, a second query tells an
// unknown tournament from a changed version (tournaments are never
// deleted, so one found then was there at the update).
func (s *Postgres) UpdateTournament(ctx context.Context, id string, version int, data string, finished bool, now time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE atril_tournaments SET data = $1, finished = $2, updated = $3, version = version + 1 WHERE id = $4 AND version = $5`,
		data, finished, now.UnixNano(), id, version)
	if err != nil {
		return 0, fmt.Errorf("store: update tournament %s: %w", id, err)
	}
	if tag.RowsAffected() == 1 {
		return version + 1, nil
	}
	var have int
	err = s.pool.QueryRow(ctx, `SELECT version FROM atril_tournaments WHERE id = $1`, id).Scan(&have)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, fmt.Errorf("store: update tournament %s: %w", id, ErrNotFound)
	case err != nil:
		return 0, fmt.Errorf("store: update tournament %s: %w", id, err)
	}
	return 0, fmt.Errorf("store: update tournament %s at version %d (it is at %d): %w", id, version, have, ErrConflict)
}

// ListTournaments implements Tournaments.
func (s *Postgres) ListTournaments(ctx context.Context, n int) (open, finished []Tournament, err error) {
	for _, l := range []struct {
		out   *[]Tournament
		query string
	}{
		{&open, `SELECT ` + tournamentCols + ` FROM atril_tournaments WHERE NOT finished ORDER BY created DESC, id COLLATE "C" DESC LIMIT $1`},
		{&finished, `SELECT ` + tournamentCols + ` FROM atril_tournaments WHERE finished ORDER BY updated DESC, id COLLATE "C" DESC LIMIT $1`},
	} {
		rows, err := s.pool.Query(ctx, l.query, n)
		if err != nil {
			return nil, nil, fmt.Errorf("store: list tournaments: %w", err)
		}
		*l.out, err = scanTournaments(rows)
		rows.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("store: list tournaments: %w", err)
		}
	}
	return open, finished, nil
}

// OpenTournaments implements Tournaments.
func (s *Postgres) OpenTournaments(ctx context.Context, after TournamentCursor, n int) ([]Tournament, error) {
	rows, err := s.pool.Query(ctx, openTournamentsSQL("atril_", "NOT finished", pgArg), after.cursorTime(), after.ID, n)
	if err != nil {
		return nil, fmt.Errorf("store: list open tournaments: %w", err)
	}
	defer rows.Close()
	out, err := scanTournaments(rows)
	if err != nil {
		return nil, fmt.Errorf("store: list open tournaments: %w", err)
	}
	return out, nil
}
