package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// sqliteAccountsSchema holds the accounts, their sessions, their ratings
// and the rated games' results.
const sqliteAccountsSchema = `
CREATE TABLE IF NOT EXISTS accounts (
	key      TEXT PRIMARY KEY,
	name     TEXT NOT NULL,
	password TEXT NOT NULL,
	created  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
	hash    TEXT PRIMARY KEY,
	account TEXT NOT NULL,
	expires INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account);
CREATE TABLE IF NOT EXISTS suspensions (
	account TEXT PRIMARY KEY,
	reason  TEXT NOT NULL,
	since   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS blocks (
	account TEXT NOT NULL,
	blocked TEXT NOT NULL,
	since   INTEGER NOT NULL,
	PRIMARY KEY (account, blocked)
);
CREATE INDEX IF NOT EXISTS blocks_blocked ON blocks(blocked);
CREATE TABLE IF NOT EXISTS reports (
	id       INTEGER PRIMARY KEY AUTOINCREMENT,
	account  TEXT NOT NULL,
	reported TEXT NOT NULL,
	game     TEXT NOT NULL,
	reason   TEXT NOT NULL,
	created  INTEGER NOT NULL,
	closed   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS reports_account ON reports(account, closed);
CREATE INDEX IF NOT EXISTS reports_reported ON reports(reported, created);
CREATE TABLE IF NOT EXISTS ratings (
	account  TEXT NOT NULL,
	category TEXT NOT NULL,
	name     TEXT NOT NULL,
	r        REAL NOT NULL,
	rd       REAL NOT NULL,
	vol      REAL NOT NULL,
	games    INTEGER NOT NULL,
	wins     INTEGER NOT NULL,
	losses   INTEGER NOT NULL,
	draws    INTEGER NOT NULL,
	updated  INTEGER NOT NULL,
	PRIMARY KEY (account, category)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(category, r);
CREATE TABLE IF NOT EXISTS rated_games (
	game     TEXT PRIMARY KEY,
	category TEXT NOT NULL,
	finished INTEGER NOT NULL,
	rated    INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS rated_seats (
	game      TEXT NOT NULL,
	seat      INTEGER NOT NULL,
	account   TEXT NOT NULL,
	name      TEXT NOT NULL,
	score     INTEGER NOT NULL,
	result    REAL NOT NULL,
	r_before  REAL NOT NULL,
	rd_before REAL NOT NULL,
	r_after   REAL NOT NULL,
	rd_after  REAL NOT NULL,
	finished  INTEGER NOT NULL,
	level     TEXT NOT NULL DEFAULT '',
	turns     INTEGER NOT NULL DEFAULT 0,
	bingos    INTEGER NOT NULL DEFAULT 0,
	best_move INTEGER NOT NULL DEFAULT 0,
	analysed  INTEGER NOT NULL DEFAULT 0,
	top_moves INTEGER NOT NULL DEFAULT 0,
	lost      REAL NOT NULL DEFAULT 0,
	PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS rated_seats_account ON rated_seats(account, finished);
CREATE TABLE IF NOT EXISTS account_games (
	account TEXT NOT NULL,
	game    TEXT NOT NULL,
	seat    INTEGER NOT NULL,
	joined  INTEGER NOT NULL,
	PRIMARY KEY (account, game, seat)
);
CREATE INDEX IF NOT EXISTS account_games_joined ON account_games(account, joined);
CREATE TABLE IF NOT EXISTS puzzle_answers (
	account  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	number   INTEGER NOT NULL,
	correct  INTEGER NOT NULL,
	score    INTEGER NOT NULL,
	answered INTEGER NOT NULL,
	PRIMARY KEY (account, lexicon, number)
);
CREATE INDEX IF NOT EXISTS puzzle_answers_number ON puzzle_answers(account, number);
CREATE INDEX IF NOT EXISTS puzzle_answers_puzzle ON puzzle_answers(lexicon, number);
CREATE TABLE IF NOT EXISTS presence (
	account TEXT PRIMARY KEY,
	seen    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS presence_seen ON presence(seen);
`

// accountTables lists the tables of sqliteAccountsSchema with their
// columns, for RepairSQLite.
var accountTables = []struct{ name, cols string }{
	{"accounts", "key, name, password, created"},
	{"sessions", "hash, account, expires"},
	{"suspensions", "account, reason, since"},
	{"blocks", "account, blocked, since"},
	{"reports", "id, account, reported, game, reason, created, closed"},
	{"ratings", "account, category, name, r, rd, vol, games, wins, losses, draws, updated"},
	{"rated_games", "game, category, finished, rated"},
	{"rated_seats", "game, seat, account, name, score, result, r_before, rd_before, r_after, rd_after, finished, level, turns, bingos, best_move, analysed, top_moves, lost"},
	{"account_games", "account, game, seat, joined"},
	{"puzzle_answers", "account, lexicon, number, correct, score, answered, r_before, r_after"},
	{"puzzle_ratings", "account, lexicon, number, r, rd, vol, answered, solved, updated"},
	{"endgame_ratings", "account, lexicon, number, r, rd, vol, answered, solved, updated"},
	{"presence", "account, seen"},
	{"cards", "account, lexicon, letters, box, due, filed"},
	{"lobby_chat", "id, account, text, at"},
	{"follows", "account, followed, since"},
	{"rush_runs", "id, account, lexicon, mode, seed, started, deadline, puzzle, solved, misses, ended"},
	{"messages", "id, sender, recipient, text, at, read_at"},
	{"bios", "account, about, country, updated"},
	{"settings", "account, prefs, updated"},
	{"push_subscriptions", "endpoint, account, p256dh, auth, created, session"},
	{"push_keys", "name, private"},
	{"passkeys", "id, account, public_key, alg, sign_count, name, created, used"},
	{"recovery_codes", "account, hash, created"},
	{"endgame_answers", "account, " + endgameCols},
}

// CreateAccount implements Accounts.
func (s *SQLite) CreateAccount(ctx context.Context, a *Account) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO accounts(key, name, password, created) VALUES (?,?,?,?)`,
		a.Key, a.Name, a.Password, a.Created.UnixNano())
	if err != nil {
		if isUniqueViolation(err) || isConstraint(err) {
			return fmt.Errorf("store: create account %q: %w", a.Key, ErrConflict)
		}
		return fmt.Errorf("store: create account %q: %w", a.Key, err)
	}
	return nil
}

// Account implements Accounts.
func (s *SQLite) Account(ctx context.Context, key string) (*Account, error) {
	return scanAccount(s.db.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts a LEFT JOIN suspensions u ON u.account = a.key WHERE a.key = ?`, key), fmt.Sprintf("account %q", key))
}

// accountCols are the columns scanAccount reads, from accounts a and
// suspensions u (the same names in both stores' schemas, prefixed or
// not).
const accountCols = `a.key, a.name, a.password, a.created, COALESCE(u.reason, ''), COALESCE(u.since, 0)`

// scanAccount reads a row of accountCols; what names the account sought
// in errors.
func scanAccount(row interface{ Scan(...any) error }, what string) (*Account, error) {
	var a Account
	var created, since int64
	if err := row.Scan(&a.Key, &a.Name, &a.Password, &created, &a.Suspended, &since); err != nil {
		if errors.Is(err, sql.ErrNoRows) || isPgNoRows(err) {
			return nil, fmt.Errorf("store: %s: %w", what, ErrNotFound)
		}
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	a.Created = time.Unix(0, created).UTC()
	if a.Suspended != "" {
		a.SuspendedAt = time.Unix(0, since).UTC()
	}
	return &a, nil
}

// Suspend implements Accounts.
func (s *SQLite) Suspend(ctx context.Context, key, reason string, at time.Time) error {
	if reason == "" {
		return fmt.Errorf("store: suspend %q: no reason given", key)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO suspensions(account, reason, since) SELECT key, ?, ? FROM accounts WHERE key = ?
		ON CONFLICT(account) DO UPDATE SET reason = excluded.reason`, reason, at.UnixNano(), key)
	if err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("store: suspend %q: %w", key, ErrNotFound)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account = ?`, key); err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: suspend %q: %w", key, err)
	}
	return nil
}

// Unsuspend implements Accounts.
func (s *SQLite) Unsuspend(ctx context.Context, key string) error {
	if _, err := s.Account(ctx, key); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM suspensions WHERE account = ?`, key); err != nil {
		return fmt.Errorf("store: lift the suspension of %q: %w", key, err)
	}
	return nil
}

// Block implements Accounts.
func (s *SQLite) Block(ctx context.Context, key, other string, at time.Time, limit int) error {
	if err := checkPair(ctx, "block", key, other, s.Account); err != nil {
		return err
	}
	return block(ctx, s.inOwnTx, "", sqliteArg, key, other, at, limit)
}

// Unblock implements Accounts.
func (s *SQLite) Unblock(ctx context.Context, key, other string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM blocks WHERE account = ? AND blocked = ?`, key, other); err != nil {
		return fmt.Errorf("store: unblock %q by %q: %w", other, key, err)
	}
	return nil
}

// Blocks implements Accounts.
func (s *SQLite) Blocks(ctx context.Context, key string) ([]Block, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT b.blocked, a.name, b.since FROM blocks b JOIN accounts a ON a.key = b.blocked WHERE b.account = ? ORDER BY a.key`, key)
	if err != nil {
		return nil, fmt.Errorf("store: blocks of %q: %w", key, err)
	}
	defer rows.Close()
	return scanBlocks(rows, key)
}

// SetSeen implements Accounts.
func (s *SQLite) SetSeen(ctx context.Context, key string, at time.Time) error {
	err := s.inOpenTx(ctx, []string{key}, func(d dbFuncs) error {
		_, err := d.exec(ctx, `INSERT INTO presence(account, seen) VALUES (?,?)
		ON CONFLICT(account) DO UPDATE SET seen = max(seen, excluded.seen)`, key, at.UnixNano())
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("store: %q seen: %w", key, err)
	}
	return nil
}

// SeenSince implements Accounts.
func (s *SQLite) SeenSince(ctx context.Context, since time.Time, n int) ([]Seen, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.account, a.name, p.seen FROM presence p JOIN accounts a ON a.key = p.account
		WHERE p.seen >= ? AND p.account NOT IN (SELECT account FROM suspensions) ORDER BY p.seen DESC, p.account LIMIT ?`, since.UnixNano(), n)
	if err != nil {
		return nil, fmt.Errorf("store: accounts seen: %w", err)
	}
	defer rows.Close()
	return scanSeen(rows)
}

// Blocking implements Accounts.
func (s *SQLite) Blocking(ctx context.Context, key string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT blocked FROM blocks WHERE account = ? UNION SELECT account FROM blocks WHERE blocked = ?`, key, key)
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
func (s *SQLite) AddReport(ctx context.Context, r *Report, limit int) error {
	if err := checkReport(ctx, r, s.Account); err != nil {
		return err
	}
	return addReport(ctx, s.inOwnTx, "", sqliteArg, r, limit)
}

// Reports implements Accounts.
func (s *SQLite) Reports(ctx context.Context, key string, all bool, n int) ([]Report, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+reportCols+` FROM reports r JOIN accounts a ON a.key = r.account JOIN accounts o ON o.key = r.reported
		WHERE (? OR r.closed = 0) AND (? = '' OR r.reported = ?) ORDER BY r.id DESC LIMIT ?`, all, key, key, n)
	if err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	defer rows.Close()
	return scanReports(rows)
}

// OpenReportsBy implements Accounts.
func (s *SQLite) OpenReportsBy(ctx context.Context, key string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM reports WHERE account = ? AND closed = 0`, key).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: reports by %q: %w", key, err)
	}
	return n, nil
}

// CloseReport implements Accounts.
func (s *SQLite) CloseReport(ctx context.Context, id int64, at time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE reports SET closed = CASE WHEN closed = 0 THEN ? ELSE closed END WHERE id = ?`, at.UnixNano(), id)
	if err != nil {
		return fmt.Errorf("store: close report %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("store: close report %d: %w", id, ErrNotFound)
	}
	return nil
}

// CreateSession implements Accounts. Expired sessions are cleared on
// the way.
func (s *SQLite) CreateSession(ctx context.Context, hash, key, password string, expires time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires < ?`, time.Now().UnixNano()); err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO sessions(hash, account, expires) SELECT ?, key, ? FROM accounts WHERE key = ? AND password = ?`,
		hash, expires.UnixNano(), key, password)
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = s.passwordChanged(ctx, tx, key)
		}
		return fmt.Errorf("store: create session for %q: %w", key, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// Session implements Accounts.
func (s *SQLite) Session(ctx context.Context, hash string, now time.Time) (*Account, error) {
	return scanAccount(s.db.QueryRowContext(ctx, `SELECT `+accountCols+` FROM sessions s JOIN accounts a ON a.key = s.account
		LEFT JOIN suspensions u ON u.account = a.key WHERE s.hash = ? AND s.expires > ? AND u.account IS NULL`, hash, now.UnixNano()), "session")
}

// DeleteSession implements Accounts.
func (s *SQLite) DeleteSession(ctx context.Context, hash string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE hash = ?`, hash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// passwordChanged says why a write conditional on an account's password
// hash changed nothing: ErrNotFound if there is no such account,
// ErrConflict if its password is another.
func (s *SQLite) passwordChanged(ctx context.Context, tx *sql.Tx, key string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts WHERE key = ?`, key).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return ErrConflict
}

// DeleteSessions implements Accounts.
func (s *SQLite) DeleteSessions(ctx context.Context, key, keep string) (int, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE account = ? AND hash <> ?`, key, keep)
	if err != nil {
		return 0, fmt.Errorf("store: end the sessions of %q: %w", key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: end the sessions of %q: %w", key, err)
	}
	return int(n), nil
}

// SetPassword implements Accounts.
func (s *SQLite) SetPassword(ctx context.Context, key, old, hash, keep string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE accounts SET password = ? WHERE key = ? AND password = ?`, hash, key, old)
	if err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = s.passwordChanged(ctx, tx, key)
		}
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account = ? AND hash <> ?`, key, keep); err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: set the password of %q: %w", key, err)
	}
	return nil
}

// ratingCols are the columns of a rating as scanRatings reads them.
const ratingCols = `account, name, category, r, rd, vol, games, wins, losses, draws, updated`

// scanRatings reads rows of ratingCols.
func scanRatings(rows rowScanner) ([]Rating, error) {
	var out []Rating
	for rows.Next() {
		var r Rating
		var updated int64
		if err := rows.Scan(&r.Account, &r.Name, &r.Category, &r.R, &r.RD, &r.Vol, &r.Games, &r.Wins, &r.Losses, &r.Draws, &updated); err != nil {
			return nil, err
		}
		r.Updated = time.Unix(0, updated).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// Ratings implements Accounts.
func (s *SQLite) Ratings(ctx context.Context, key string) ([]Rating, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE account = ? ORDER BY category`, key)
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
func (s *SQLite) Leaderboard(ctx context.Context, category string, n int) ([]Rating, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE category = ? AND account NOT IN (SELECT account FROM suspensions) ORDER BY r - 2*rd DESC, r DESC, account LIMIT ?`, category, n)
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

// RateGame implements Accounts. The store's one connection makes the
// transaction the only writer while it runs.
func (s *SQLite) RateGame(ctx context.Context, g *RatedGame, rate RateFunc) (bool, error) {
	wrap := func(err error) error { return fmt.Errorf("store: rate game %s: %w", g.Game, err) }
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, wrap(err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO rated_games(game, category, finished, rated) VALUES (?,?,?,1)`,
		g.Game, g.Category, g.Finished.UnixNano())
	if err != nil {
		return false, wrap(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	before := make([]Rating, len(g.Seats))
	for i, st := range g.Seats {
		before[i] = Rating{Account: st.Account, Name: st.Name, Category: g.Category}
		if st.Account == "" {
			continue // the computer's seat: no rating kept
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE account = ? AND category = ?`, st.Account, g.Category)
		if err != nil {
			return false, wrap(err)
		}
		got, err := scanRatings(rows)
		rows.Close()
		if err != nil {
			return false, wrap(err)
		}
		if len(got) == 1 {
			before[i] = got[0]
		}
	}
	after, err := applyRatings(g, before, rate)
	if err != nil {
		return false, wrap(err)
	}
	for _, r := range accountRatings(after) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings(`+ratingCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(account, category) DO UPDATE SET name = excluded.name, r = excluded.r, rd = excluded.rd, vol = excluded.vol,
			games = excluded.games, wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, updated = excluded.updated`,
			r.Account, r.Name, r.Category, r.R, r.RD, r.Vol, r.Games, r.Wins, r.Losses, r.Draws, r.Updated.UnixNano()); err != nil {
			return false, wrap(err)
		}
	}
	if err := insertSeatsSQLite(ctx, tx, g); err != nil {
		return false, wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return false, wrap(err)
	}
	return true, nil
}

// RecordGame implements Accounts.
func (s *SQLite) RecordGame(ctx context.Context, g *RatedGame) (bool, error) {
	wrap := func(err error) error { return fmt.Errorf("store: record game %s: %w", g.Game, err) }
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, wrap(err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO rated_games(game, category, finished, rated) VALUES (?,?,?,0)`,
		g.Game, g.Category, g.Finished.UnixNano())
	if err != nil {
		return false, wrap(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if err := insertSeatsSQLite(ctx, tx, g); err != nil {
		return false, wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return false, wrap(err)
	}
	return true, nil
}

// insertSeatsSQLite writes the seats of a recorded game in tx.
func insertSeatsSQLite(ctx context.Context, tx *sql.Tx, g *RatedGame) error {
	for _, st := range g.Seats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rated_seats(game, seat, account, name, score, result, r_before, rd_before, r_after, rd_after, finished, level,
			turns, bingos, best_move, analysed, top_moves, lost) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, g.Game, st.Seat, st.Account, st.Name, st.Score, st.Result,
			st.RBefore, st.RDBefore, st.RAfter, st.RDAfter, g.Finished.UnixNano(), st.Level, st.Turns, st.Bingos, st.Best,
			st.Analysed, st.TopMoves, st.Lost); err != nil {
			return err
		}
	}
	return nil
}

// AddAccountGame implements Accounts.
func (s *SQLite) AddAccountGame(ctx context.Context, key string, g AccountGame) error {
	if _, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO account_games(account, game, seat, joined) VALUES (?,?,?,?)`,
		key, g.Game, g.Seat, g.Joined.UnixNano()); err != nil {
		return fmt.Errorf("store: record %q's seat %d of game %s: %w", key, g.Seat, g.Game, err)
	}
	return nil
}

// AccountGames implements Accounts.
func (s *SQLite) AccountGames(ctx context.Context, key string, n int) ([]AccountGame, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT game, seat, joined FROM account_games WHERE account = ? ORDER BY joined DESC, game, seat LIMIT ?`, key, n)
	if err != nil {
		return nil, fmt.Errorf("store: games of %q: %w", key, err)
	}
	defer rows.Close()
	return scanAccountGames(rows, key)
}

// scanAccountGames reads rows of (game, seat, joined).
func scanAccountGames(rows rowScanner, key string) ([]AccountGame, error) {
	var out []AccountGame
	for rows.Next() {
		var g AccountGame
		var joined int64
		if err := rows.Scan(&g.Game, &g.Seat, &joined); err != nil {
			return nil, fmt.Errorf("store: games of %q: %w", key, err)
		}
		g.Joined = time.Unix(0, joined).UTC()
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: games of %q: %w", key, err)
	}
	return out, nil
}

// RatedGame implements Accounts.
func (s *SQLite) RatedGame(ctx context.Context, game string) (*RatedGame, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+ratedGameCols+`
		FROM rated_games g JOIN rated_seats s ON s.game = g.game WHERE g.game = ? ORDER BY s.seat`, game)
	if err != nil {
		return nil, fmt.Errorf("store: rated game %s: %w", game, err)
	}
	defer rows.Close()
	return oneRatedGame(rows, game)
}

// oneRatedGame reads the rows of one rated game's seats.
func oneRatedGame(rows rowScanner, game string) (*RatedGame, error) {
	gs, err := scanRatedGames(rows)
	if err != nil {
		return nil, fmt.Errorf("store: rated game %s: %w", game, err)
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("store: rated game %s: %w", game, ErrNotFound)
	}
	return &gs[0], nil
}

// RatedGames implements Accounts.
func (s *SQLite) RatedGames(ctx context.Context, key string, f RatedFilter, n int) ([]RatedGame, error) {
	q, args := ratedListQuery("", f, key, n, sqliteArg)
	rows, err := s.db.QueryContext(ctx, q, args...)
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
func (s *SQLite) RatedTotals(ctx context.Context, key string, f RatedFilter) (RatedTotals, error) {
	q, args := ratedTotalsQueries("", f, key, sqliteArg)
	one := func(ctx context.Context, query string, args ...any) interface{ Scan(dest ...any) error } {
		return s.db.QueryRowContext(ctx, query, args...)
	}
	t, err := scanRatedTotals(ctx, one, q, args)
	if err != nil {
		return t, fmt.Errorf("store: rated totals of %q: %w", key, err)
	}
	return t, nil
}

// scanRatedGames reads rows of one seat of a rated game each, the seats
// of a game together.
func scanRatedGames(rows rowScanner) ([]RatedGame, error) {
	var out []RatedGame
	for rows.Next() {
		var g RatedGame
		var st RatedSeat
		var finished int64
		if err := rows.Scan(&g.Game, &g.Category, &finished, &g.Rated, &st.Seat, &st.Account, &st.Name, &st.Score, &st.Result,
			&st.RBefore, &st.RDBefore, &st.RAfter, &st.RDAfter, &st.Level, &st.Turns, &st.Bingos, &st.Best,
			&st.Analysed, &st.TopMoves, &st.Lost); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].Game != g.Game {
			g.Finished = time.Unix(0, finished).UTC()
			out = append(out, g)
		}
		last := &out[len(out)-1]
		last.Seats = append(last.Seats, st)
	}
	return out, rows.Err()
}
