package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgAccountsSchema is sqliteAccountsSchema for PostgreSQL.
const pgAccountsSchema = `
CREATE TABLE IF NOT EXISTS atril_accounts (
	key      TEXT PRIMARY KEY,
	name     TEXT NOT NULL,
	password TEXT NOT NULL,
	created  BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS atril_sessions (
	hash    TEXT PRIMARY KEY,
	account TEXT NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS atril_sessions_account ON atril_sessions(account);
CREATE TABLE IF NOT EXISTS atril_suspensions (
	account TEXT PRIMARY KEY,
	reason  TEXT NOT NULL,
	since   BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS atril_blocks (
	account TEXT NOT NULL,
	blocked TEXT NOT NULL,
	since   BIGINT NOT NULL,
	PRIMARY KEY (account, blocked)
);
CREATE INDEX IF NOT EXISTS atril_blocks_blocked ON atril_blocks(blocked);
CREATE TABLE IF NOT EXISTS atril_reports (
	id       BIGSERIAL PRIMARY KEY,
	account  TEXT NOT NULL,
	reported TEXT NOT NULL,
	game     TEXT NOT NULL,
	reason   TEXT NOT NULL,
	created  BIGINT NOT NULL,
	closed   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS atril_reports_account ON atril_reports(account, closed);
CREATE INDEX IF NOT EXISTS atril_reports_reported ON atril_reports(reported, created);
CREATE TABLE IF NOT EXISTS atril_ratings (
	account  TEXT NOT NULL,
	category TEXT NOT NULL,
	name     TEXT NOT NULL,
	r        DOUBLE PRECISION NOT NULL,
	rd       DOUBLE PRECISION NOT NULL,
	vol      DOUBLE PRECISION NOT NULL,
	games    INTEGER NOT NULL,
	wins     INTEGER NOT NULL,
	losses   INTEGER NOT NULL,
	draws    INTEGER NOT NULL,
	updated  BIGINT NOT NULL,
	PRIMARY KEY (account, category)
);
CREATE INDEX IF NOT EXISTS atril_ratings_board ON atril_ratings(category, r);
CREATE TABLE IF NOT EXISTS atril_rated_games (
	game     TEXT PRIMARY KEY,
	category TEXT NOT NULL,
	finished BIGINT NOT NULL
);
ALTER TABLE atril_rated_games ADD COLUMN IF NOT EXISTS rated BOOLEAN NOT NULL DEFAULT TRUE;
CREATE TABLE IF NOT EXISTS atril_rated_seats (
	game      TEXT NOT NULL,
	seat      INTEGER NOT NULL,
	account   TEXT NOT NULL,
	name      TEXT NOT NULL,
	score     INTEGER NOT NULL,
	result    DOUBLE PRECISION NOT NULL,
	r_before  DOUBLE PRECISION NOT NULL,
	rd_before DOUBLE PRECISION NOT NULL,
	r_after   DOUBLE PRECISION NOT NULL,
	rd_after  DOUBLE PRECISION NOT NULL,
	finished  BIGINT NOT NULL,
	PRIMARY KEY (game, seat)
);
ALTER TABLE atril_rated_seats ADD COLUMN IF NOT EXISTS level TEXT NOT NULL DEFAULT '';
ALTER TABLE atril_rated_seats ADD COLUMN IF NOT EXISTS turns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE atril_rated_seats ADD COLUMN IF NOT EXISTS bingos INTEGER NOT NULL DEFAULT 0;
ALTER TABLE atril_rated_seats ADD COLUMN IF NOT EXISTS best_move INTEGER NOT NULL DEFAULT 0;
ALTER TABLE atril_rated_seats ADD COLUMN IF NOT EXISTS analysed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE atril_rated_seats ADD COLUMN IF NOT EXISTS top_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE atril_rated_seats ADD COLUMN IF NOT EXISTS lost DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS atril_rated_seats_account ON atril_rated_seats(account, finished);
CREATE TABLE IF NOT EXISTS atril_account_games (
	account TEXT NOT NULL,
	game    TEXT NOT NULL,
	seat    INTEGER NOT NULL,
	joined  BIGINT NOT NULL,
	PRIMARY KEY (account, game, seat)
);
CREATE INDEX IF NOT EXISTS atril_account_games_joined ON atril_account_games(account, joined);
CREATE TABLE IF NOT EXISTS atril_puzzle_answers (
	account  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	number   INTEGER NOT NULL,
	correct  BOOLEAN NOT NULL,
	score    INTEGER NOT NULL,
	answered BIGINT NOT NULL,
	PRIMARY KEY (account, lexicon, number)
);
ALTER TABLE atril_puzzle_answers ADD COLUMN IF NOT EXISTS r_before DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE atril_puzzle_answers ADD COLUMN IF NOT EXISTS r_after DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS atril_puzzle_answers_number ON atril_puzzle_answers(account, number);
CREATE INDEX IF NOT EXISTS atril_puzzle_answers_puzzle ON atril_puzzle_answers(lexicon, number);
CREATE TABLE IF NOT EXISTS atril_presence (
	account TEXT PRIMARY KEY,
	seen    BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS atril_presence_seen ON atril_presence(seen);
`

func isPgNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// CreateAccount implements Accounts.
func (s *Postgres) CreateAccount(ctx context.Context, a *Account) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO atril_accounts(key, name, password, created) VALUES ($1,$2,$3,$4)`,
		a.Key, a.Name, a.Password, a.Created.UnixNano())
	if err != nil {
		if pgUnique(err) {
			return fmt.Errorf("store: create account %q: %w", a.Key, ErrConflict)
		}
		return fmt.Errorf("store: create account %q: %w", a.Key, err)
	}
	return nil
}

// Account implements Accounts.
func (s *Postgres) Account(ctx context.Context, key string) (*Account, error) {
	return scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountCols+` FROM atril_accounts a LEFT JOIN atril_suspensions u ON u.account = a.key WHERE a.key = $1`, key), fmt.Sprintf("account %q", key))
}

// Suspend implements Accounts.
func (s *Postgres) Suspend(ctx context.Context, key, reason string, at time.Time) error {
	if reason == "" {
		return fmt.Errorf("store: suspend %q: no reason given", key)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `INSERT INTO atril_suspensions(account, reason, since) SELECT key, $1, $2 FROM atril_accounts WHERE key = $3
		ON CONFLICT(account) DO UPDATE SET reason = excluded.reason`, reason, at.UnixNano(), key)
	if err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: suspend %q: %w", key, ErrNotFound)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM atril_sessions WHERE account = $1`, key); err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	return nil
}

// Unsuspend implements Accounts.
func (s *Postgres) Unsuspend(ctx context.Context, key string) error {
	if _, err := s.Account(ctx, key); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM atril_suspensions WHERE account = $1`, key); err != nil {
		return fmt.Errorf("store: lift the suspension of %q: %w", key, err)
	}
	return nil
}

// Block implements Accounts.
func (s *Postgres) Block(ctx context.Context, key, other string, at time.Time, limit int) error {
	if err := checkPair(ctx, "block", key, other, s.Account); err != nil {
		return err
	}
	return block(ctx, s.inOwnTx, "atril_", pgArg, key, other, at, limit)
}

// Unblock implements Accounts.
func (s *Postgres) Unblock(ctx context.Context, key, other string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM atril_blocks WHERE account = $1 AND blocked = $2`, key, other); err != nil {
		return fmt.Errorf("store: unblock %q by %q: %w", other, key, err)
	}
	return nil
}

// Blocks implements Accounts.
func (s *Postgres) Blocks(ctx context.Context, key string) ([]Block, error) {
	rows, err := s.pool.Query(ctx, `SELECT b.blocked, a.name, b.since FROM atril_blocks b JOIN atril_accounts a ON a.key = b.blocked WHERE b.account = $1 ORDER BY a.key COLLATE "C"`, key)
	if err != nil {
		return nil, fmt.Errorf("store: blocks of %q: %w", key, err)
	}
	defer rows.Close()
	return scanBlocks(rows, key)
}

// SetSeen implements Accounts.
func (s *Postgres) SetSeen(ctx context.Context, key string, at time.Time) error {
	err := s.inOpenTx(ctx, []string{key}, func(d dbFuncs) error {
		_, err := d.exec(ctx, `INSERT INTO atril_presence(account, seen) VALUES ($1,$2)
		ON CONFLICT (account) DO UPDATE SET seen = GREATEST(atril_presence.seen, EXCLUDED.seen)`, key, at.UnixNano())
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("store: %q seen: %w", key, err)
	}
	return nil
}

// SeenSince implements Accounts.
func (s *Postgres) SeenSince(ctx context.Context, since time.Time, n int) ([]Seen, error) {
	rows, err := s.pool.Query(ctx, `SELECT p.account, a.name, p.seen FROM atril_presence p JOIN atril_accounts a ON a.key = p.account
		WHERE p.seen >= $1 AND p.account NOT IN (SELECT account FROM atril_suspensions) ORDER BY p.seen DESC, p.account COLLATE "C" LIMIT $2`, since.UnixNano(), n)
	if err != nil {
		return nil, fmt.Errorf("store: accounts seen: %w", err)
	}
	defer rows.Close()
	return scanSeen(rows)
}

// Blocking implements Accounts.
func (s *Postgres) Blocking(ctx context.Context, key string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT blocked FROM atril_blocks WHERE account = $1 UNION SELECT account FROM atril_blocks WHERE blocked = $1`, key)
	if err != nil {
		return nil, fmt.Errorf("store: blocks with %q: %w", key, err)
	}
	defer rows.Close()
	keys, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: blocks with %q: %w", key, err)
	}
	return keys, nil
}

// AddReport implements Accounts.
func (s *Postgres) AddReport(ctx context.Context, r *Report, limit int) error {
	if err := checkReport(ctx, r, s.Account); err != nil {
		return err
	}
	return addReport(ctx, s.inOwnTx, "atril_", pgArg, r, limit)
}

// Reports implements Accounts.
func (s *Postgres) Reports(ctx context.Context, key string, all bool, n int) ([]Report, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+reportCols+` FROM atril_reports r JOIN atril_accounts a ON a.key = r.account JOIN atril_accounts o ON o.key = r.reported
		WHERE ($1 OR r.closed = 0) AND ($2 = '' OR r.reported = $2) ORDER BY r.id DESC LIMIT $3`, all, key, n)
	if err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	defer rows.Close()
	return scanReports(rows)
}

// OpenReportsBy implements Accounts.
func (s *Postgres) OpenReportsBy(ctx context.Context, key string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM atril_reports WHERE account = $1 AND closed = 0`, key).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: reports by %q: %w", key, err)
	}
	return n, nil
}

// CloseReport implements Accounts.
func (s *Postgres) CloseReport(ctx context.Context, id int64, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE atril_reports SET closed = CASE WHEN closed = 0 THEN $1 ELSE closed END WHERE id = $2`, at.UnixNano(), id)
	if err != nil {
		return fmt.Errorf("store: close report %d: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: close report %d: %w", id, ErrNotFound)
	}
	return nil
}

// CreateSession implements Accounts. Expired sessions are cleared on
// the way.
func (s *Postgres) CreateSession(ctx context.Context, hash, key, password string, expires time.Time) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM atril_sessions WHERE expires < $1`, time.Now().UnixNano()); err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO atril_sessions(hash, account, expires) SELECT $1, key, $2 FROM atril_accounts WHERE key = $3 AND password = $4`,
		hash, expires.UnixNano(), key, password)
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: create session for %q: %w", key, s.passwordChanged(ctx, s.pool, key))
	}
	return nil
}

// passwordChanged says why a write conditional on an account's password
// hash changed nothing: ErrNotFound if there is no such account,
// ErrConflict if its password is another.
func (s *Postgres) passwordChanged(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, key string) error {
	var n int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM atril_accounts WHERE key = $1`, key).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return ErrConflict
}

// Session implements Accounts.
func (s *Postgres) Session(ctx context.Context, hash string, now time.Time) (*Account, error) {
	return scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountCols+` FROM atril_sessions s JOIN atril_accounts a ON a.key = s.account
		LEFT JOIN atril_suspensions u ON u.account = a.key WHERE s.hash = $1 AND s.expires > $2 AND u.account IS NULL`, hash, now.UnixNano()), "session")
}

// DeleteSession implements Accounts.
func (s *Postgres) DeleteSession(ctx context.Context, hash string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM atril_sessions WHERE hash = $1`, hash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// DeleteSessions implements Accounts.
func (s *Postgres) DeleteSessions(ctx context.Context, key, keep string) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM atril_sessions WHERE account = $1 AND hash <> $2`, key, keep)
	if err != nil {
		return 0, fmt.Errorf("store: end the sessions of %q: %w", key, err)
	}
	return int(tag.RowsAffected()), nil
}

// SetPassword implements Accounts.
func (s *Postgres) SetPassword(ctx context.Context, key, old, hash, keep string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `UPDATE atril_accounts SET password = $1 WHERE key = $2 AND password = $3`, hash, key, old)
	if err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: set the password of %q: %w", key, s.passwordChanged(ctx, tx, key))
	}
	if _, err := tx.Exec(ctx, `DELETE FROM atril_sessions WHERE account = $1 AND hash <> $2`, key, keep); err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	return nil
}

// Ratings implements Accounts.
func (s *Postgres) Ratings(ctx context.Context, key string) ([]Rating, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+ratingCols+` FROM atril_ratings WHERE account = $1 ORDER BY category COLLATE "C"`, key)
	if err != nil {
		return nil, fmt.Errorf("store: ratings of %q: %w", key, err)
	}
	defer rows.Close()
	out, err := scanRatings(rows)
	if err != nil {
		return nil, fmt.Errorf("store: ratings of %q: %w", key, err)
	}
	return out, nil
}

// Leaderboard implements Accounts.
func (s *Postgres) Leaderboard(ctx context.Context, category string, n int) ([]Rating, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+ratingCols+` FROM atril_ratings WHERE category = $1 AND account NOT IN (SELECT account FROM atril_suspensions) ORDER BY r - 2*rd DESC, r DESC, account COLLATE "C" LIMIT $2`, category, n)
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard of %q: %w", category, err)
	}
	defer rows.Close()
	out, err := scanRatings(rows)
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard of %q: %w", category, err)
	}
	return out, nil
}

// RateGame implements Accounts. The game's row is inserted first: a
// second process rating the same game waits on it and then finds it;
// the seats' rating rows are locked (created first if new) in the order
// of their keys, so two games of one player are rated one after the
// other without a deadlock.
func (s *Postgres) RateGame(ctx context.Context, g *RatedGame, rate RateFunc) (bool, error) {
	wrap := func(err error) error { return fmt.Errorf("store: rate game %s: %w", g.Game, err) }
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, wrap(err)
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `INSERT INTO atril_rated_games(game, category, finished, rated) VALUES ($1,$2,$3,TRUE) ON CONFLICT (game) DO NOTHING`,
		g.Game, g.Category, g.Finished.UnixNano())
	if err != nil {
		return false, wrap(err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	keys := make([]string, 0, len(g.Seats))
	for _, st := range g.Seats {
		if st.Account != "" { // not the computer's seat
			keys = append(keys, st.Account)
		}
	}
	// Lock (and first create, as placeholders with no games) the rows in
	// key order.
	if _, err := tx.Exec(ctx, `INSERT INTO atril_ratings(account, category, name, r, rd, vol, games, wins, losses, draws, updated)
		SELECT k, $2, '', 0, 0, 0, 0, 0, 0, 0, 0 FROM unnest($1::text[]) AS k ORDER BY k COLLATE "C" ON CONFLICT DO NOTHING`, keys, g.Category); err != nil {
		return false, wrap(err)
	}
	rows, err := tx.Query(ctx, `SELECT `+ratingCols+` FROM atril_ratings WHERE category = $1 AND account = ANY($2::text[]) ORDER BY account COLLATE "C" FOR UPDATE`,
		g.Category, keys)
	if err != nil {
		return false, wrap(err)
	}
	got, err := scanRatings(rows)
	rows.Close()
	if err != nil {
		return false, wrap(err)
	}
	before := make([]Rating, len(g.Seats))
	for i, st := range g.Seats {
		before[i] = Rating{Account: st.Account, Name: st.Name, Category: g.Category}
		for _, r := range got {
			if r.Account == st.Account && r.Games > 0 {
				before[i] = r
			}
		}
	}
	after, err := applyRatings(g, before, rate)
	if err != nil {
		return false, wrap(err)
	}
	for _, r := range accountRatings(after) {
		if _, err := tx.Exec(ctx, `UPDATE atril_ratings SET name = $3, r = $4, rd = $5, vol = $6, games = $7, wins = $8, losses = $9, draws = $10, updated = $11
			WHERE account = $1 AND category = $2`,
			r.Account, r.Category, r.Name, r.R, r.RD, r.Vol, r.Games, r.Wins, r.Losses, r.Draws, r.Updated.UnixNano()); err != nil {
			return false, wrap(err)
		}
	}
	if err := insertSeatsPG(ctx, tx, g); err != nil {
		return false, wrap(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, wrap(err)
	}
	return true, nil
}

// RecordGame implements Accounts.
func (s *Postgres) RecordGame(ctx context.Context, g *RatedGame) (bool, error) {
	wrap := func(err error) error { return fmt.Errorf("store: record game %s: %w", g.Game, err) }
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, wrap(err)
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `INSERT INTO atril_rated_games(game, category, finished, rated) VALUES ($1,$2,$3,FALSE) ON CONFLICT (game) DO NOTHING`,
		g.Game, g.Category, g.Finished.UnixNano())
	if err != nil {
		return false, wrap(err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	if err := insertSeatsPG(ctx, tx, g); err != nil {
		return false, wrap(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, wrap(err)
	}
	return true, nil
}

// insertSeatsPG writes the seats of a recorded game in tx.
func insertSeatsPG(ctx context.Context, tx pgx.Tx, g *RatedGame) error {
	for _, st := range g.Seats {
		if _, err := tx.Exec(ctx, `INSERT INTO atril_rated_seats(game, seat, account, name, score, result, r_before, rd_before, r_after, rd_after, finished, level,
			turns, bingos, best_move, analysed, top_moves, lost) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18)`,
			g.Game, st.Seat, st.Account, st.Name, st.Score, st.Result,
			st.RBefore, st.RDBefore, st.RAfter, st.RDAfter, g.Finished.UnixNano(), st.Level, st.Turns, st.Bingos, st.Best,
			st.Analysed, st.TopMoves, st.Lost); err != nil {
			return err
		}
	}
	return nil
}

// AddAccountGame implements Accounts.
func (s *Postgres) AddAccountGame(ctx context.Context, key string, g AccountGame) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO atril_account_games(account, game, seat, joined) VALUES ($1,$2,$3,$4) ON CONFLICT DO NOTHING`,
		key, g.Game, g.Seat, g.Joined.UnixNano()); err != nil {
		return fmt.Errorf("store: record %q's seat %d of game %s: %w", key, g.Seat, g.Game, err)
	}
	return nil
}

// AccountGames implements Accounts.
func (s *Postgres) AccountGames(ctx context.Context, key string, n int) ([]AccountGame, error) {
	rows, err := s.pool.Query(ctx, `SELECT game, seat, joined FROM atril_account_games WHERE account = $1 ORDER BY joined DESC, game COLLATE "C", seat LIMIT $2`, key, n)
	if err != nil {
		return nil, fmt.Errorf("store: games of %q: %w", key, err)
	}
	defer rows.Close()
	return scanAccountGames(rows, key)
}

// RatedGame implements Accounts.
func (s *Postgres) RatedGame(ctx context.Context, game string) (*RatedGame, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+ratedGameCols+`
		FROM atril_rated_games g JOIN atril_rated_seats s ON s.game = g.game WHERE g.game = $1 ORDER BY s.seat`, game)
	if err != nil {
		return nil, fmt.Errorf("store: rated game %s: %w", game, err)
	}
	defer rows.Close()
	return oneRatedGame(rows, game)
}

// RatedGames implements Accounts.
func (s *Postgres) RatedGames(ctx context.Context, key string, f RatedFilter, n int) ([]RatedGame, error) {
	q, args := ratedListQuery("atril_", f, key, n, pgArg)
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: rated games of %q: %w", key, err)
	}
	defer rows.Close()
	out, err := scanRatedGames(rows)
	if err != nil {
		return nil, fmt.Errorf("store: rated games of %q: %w", key, err)
	}
	return out, nil
}

// RatedTotals implements Accounts.
func (s *Postgres) RatedTotals(ctx context.Context, key string, f RatedFilter) (RatedTotals, error) {
	q, args := ratedTotalsQueries("atril_", f, key, pgArg)
	one := func(ctx context.Context, query string, args ...any) interface{ Scan(dest ...any) error } {
		return s.pool.QueryRow(ctx, query, args...)
	}
	t, err := scanRatedTotals(ctx, one, q, args)
	if err != nil {
		return t, fmt.Errorf("store: rated totals of %q: %w", key, err)
	}
	return t, nil
}
