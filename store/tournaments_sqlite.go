package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// sqliteTournamentsSchema holds the tournaments.
const sqliteTournamentsSchema = `
CREATE TABLE IF NOT EXISTS tournaments (
	id       TEXT PRIMARY KEY,
	data     TEXT NOT NULL,
	version  INTEGER NOT NULL,
	finished INTEGER NOT NULL DEFAULT 0,
	created  INTEGER NOT NULL,
	updated  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments(finished, created);
CREATE INDEX IF NOT EXISTS tournaments_updated ON tournaments(finished, updated);
`

// tournamentTables lists the tables of sqliteTournamentsSchema with
// their columns, for RepairSQLite.
var tournamentTables = []struct{ name, cols string }{
	{"tournaments", tournamentCols},
}

// CreateTournament implements Tournaments.
func (s *SQLite) CreateTournament(ctx context.Context, t *Tournament, lim TournamentLimit) error {
	err := createTournament(ctx, s.funcs(), s.inOwnTx, `SELECT `+tournamentCols+` FROM tournaments WHERE finished = 0`, lim, func(d dbFuncs) error {
		_, err := d.exec(ctx, `INSERT INTO tournaments(`+tournamentCols+`) VALUES (?,?,1,?,?,?)`,
			t.ID, t.Data, boolInt(t.Finished), t.Created.UnixNano(), t.Updated.UnixNano())
		if err != nil && (isUniqueViolation(err) || isConstraint(err)) {
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
func (s *SQLite) Tournament(ctx context.Context, id string) (*Tournament, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("store: tournament %s: %w", id, err)
	}
	defer rows.Close()
	return oneTournament(rows, id)
}

// UpdateTournament implements Tournaments. The version is checked by
// the update itself; when it changes nothing, a second query tells an
// unknown tournament from a changed version (tournaments are never
// deleted, so one found then was there at the update).
func (s *SQLite) UpdateTournament(ctx context.Context, id string, version int, data string, finished bool, now time.Time) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE tournaments SET data = ?, finished = ?, updated = ?, version = version + 1 WHERE id = ? AND version = ?`,
		data, boolInt(finished), now.UnixNano(), id, version)
	if err != nil {
		return 0, fmt.Errorf("store: update tournament %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: update tournament %s: %w", id, err)
	}
	if n == 1 {
		return version + 1, nil
	}
	var have int
	err = s.db.QueryRowContext(ctx, `SELECT version FROM tournaments WHERE id = ?`, id).Scan(&have)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, fmt.Errorf("store: update tournament %s: %w", id, ErrNotFound)
	case err != nil:
		return 0, fmt.Errorf("store: update tournament %s: %w", id, err)
	}
	return 0, fmt.Errorf("store: update tournament %s at version %d (it is at %d): %w", id, version, have, ErrConflict)
}

// ListTournaments implements Tournaments.
func (s *SQLite) ListTournaments(ctx context.Context, n int) (open, finished []Tournament, err error) {
	for _, l := range []struct {
		out   *[]Tournament
		query string
	}{
		{&open, `SELECT ` + tournamentCols + ` FROM tournaments WHERE finished = 0 ORDER BY created DESC, id DESC LIMIT ?`},
		{&finished, `SELECT ` + tournamentCols + ` FROM tournaments WHERE finished = 1 ORDER BY updated DESC, id DESC LIMIT ?`},
	} {
		rows, err := s.db.QueryContext(ctx, l.query, n)
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
func (s *SQLite) OpenTournaments(ctx context.Context, after TournamentCursor, n int) ([]Tournament, error) {
	rows, err := s.db.QueryContext(ctx, openTournamentsSQL("", "finished = 0", sqliteNumArg), after.cursorTime(), after.ID, n)
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
