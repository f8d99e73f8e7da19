package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Closing an account: its owner ends it for good. The name stays taken
// (nobody may pass for the player afterwards) and the games played stay
// in the other players' histories, with the ratings they moved; what the
// account kept for itself goes: its password, sessions, bio, cardboxes,
// puzzle answers and ratings, rushes, the messages written and received, the players it blocked or followed and those following
// or blocking it, its sighting in the lobby and its lines in the lobby's
// chat. A closed account is suspended with the reason ClosedReason: it
// cannot sign in, and is left off the leaderboards and the lists of
// players.

// ClosedReason is the suspension of an account its owner closed.
const ClosedReason = "closed by its owner"

// closedPassword is the password hash of a closed account: no password
// checks against it.
const closedPassword = "closed"

// Closed reports whether the account was closed by its owner.
func (a *Account) Closed() bool { return a.Suspended == ClosedReason }

// closeStatement is one statement of closeAccountSQL with its arguments
// (the account's key and the time of the closing).
type closeStatement struct {
	query string
	args  func(key string, at time.Time) []any
}

// closeAccountSQL are the statements that close an account, in the
// order they run in one transaction; the first one finds the account.
func closeAccountSQL(prefix string, arg func(int) string) []closeStatement {
	key := func(k string, _ time.Time) []any { return []any{k} }
	del := func(table, where string) closeStatement {
		return closeStatement{fmt.Sprintf(`DELETE FROM %s%s WHERE %s`, prefix, table, fmt.Sprintf(where, arg(1))), key}
	}
	return []closeStatement{
		{fmt.Sprintf(`UPDATE %saccounts SET password = %s WHERE key = %s`, prefix, arg(1), arg(2)),
			func(k string, _ time.Time) []any { return []any{closedPassword, k} }},
		{fmt.Sprintf(`INSERT INTO %ssuspensions(account, reason, since) VALUES (%s, %s, %s)
			ON CONFLICT(account) DO UPDATE SET reason = excluded.reason, since = excluded.since`, prefix, arg(1), arg(2), arg(3)),
			func(k string, at time.Time) []any { return []any{k, ClosedReason, at.UnixNano()} }},
		del("sessions", "account = %s"),
		del("blocks", "account = %[1]s OR blocked = %[1]s"),
		del("follows", "account = %[1]s OR followed = %[1]s"),
		del("cards", "account = %s"),
		del("bios", "account = %s"),
		del("settings", "account = %s"),
		del("push_subscriptions", "account = %s"),
		del("passkeys", "account = %s"),
		del("recovery_codes", "account = %s"),
		del("presence", "account = %s"),
		del("puzzle_answers", "account = %s"),
		del("endgame_answers", "account = %s"),
		del("puzzle_ratings", "account = %s"),
		del("endgame_ratings", "account = %s"),
		del("lobby_chat", "account = %s"),
		del("rush_runs", "account = %s"),
		del("messages", "sender = %[1]s OR recipient = %[1]s"),
	}
}

// unfinishedGamesSQL lists the unfinished games in which an account
// took a seat.
func unfinishedGamesSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT DISTINCT ag.game%[3]s AS game FROM %[1]saccount_games ag JOIN %[1]sgames g ON g.id = ag.game
		WHERE ag.account = %[2]s AND NOT g.finished ORDER BY game`, prefix, arg(1), byBytes(prefix))
}

// CloseAccount implements Accounts.
func (s *SQLite) CloseAccount(ctx context.Context, key string, at time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: close account %q: %w", key, err)
	}
	defer tx.Rollback()
	for i, st := range closeAccountSQL("", sqliteNumArg) {
		res, err := tx.ExecContext(ctx, st.query, st.args(key, at)...)
		if err != nil {
			return fmt.Errorf("store: close account %q: %w", key, err)
		}
		if i == 0 {
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return fmt.Errorf("store: close account %q: %w", key, ErrNotFound)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: close account %q: %w", key, err)
	}
	return nil
}

// UnfinishedGames implements Accounts.
func (s *SQLite) UnfinishedGames(ctx context.Context, key string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, unfinishedGamesSQL("", sqliteArg), key)
	if err != nil {
		return nil, fmt.Errorf("store: unfinished games of %q: %w", key, err)
	}
	defer rows.Close()
	ids, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: unfinished games of %q: %w", key, err)
	}
	return ids, nil
}

// CloseAccount implements Accounts.
func (s *Postgres) CloseAccount(ctx context.Context, key string, at time.Time) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: close account %q: %w", key, err)
	}
	defer tx.Rollback(ctx)
	for i, st := range closeAccountSQL("atril_", pgArg) {
		tag, err := tx.Exec(ctx, st.query, st.args(key, at)...)
		if err != nil {
			return fmt.Errorf("store: close account %q: %w", key, err)
		}
		if i == 0 && tag.RowsAffected() == 0 {
			return fmt.Errorf("store: close account %q: %w", key, ErrNotFound)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: close account %q: %w", key, err)
	}
	return nil
}

// UnfinishedGames implements Accounts.
func (s *Postgres) UnfinishedGames(ctx context.Context, key string) ([]string, error) {
	rows, err := s.pool.Query(ctx, unfinishedGamesSQL("atril_", pgArg), key)
	if err != nil {
		return nil, fmt.Errorf("store: unfinished games of %q: %w", key, err)
	}
	defer rows.Close()
	ids, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: unfinished games of %q: %w", key, err)
	}
	return ids, nil
}

// A write for an account (a bio, a follow, a card, a line...) that
// reaches the store after the account was closed, from a request that
// passed its session check before, would keep what the closing took away.
// Such writes check, in their transaction, that their accounts are open,
// and on PostgreSQL hold the accounts' rows shared until they commit: a
// closing that comes meanwhile waits for them and then deletes what they
// wrote, and one that came first is seen.

// openAccountsSQL selects those of the n accounts whose keys are the
// placeholders arg(1) to arg(n) that are open (not closed by their
// owners), in the tables named with prefix; lock ends the statement.
func openAccountsSQL(prefix string, n int, arg func(int) string, lock string) string {
	ph := make([]string, n)
	for i := range ph {
		ph[i] = arg(i + 1)
	}
	return fmt.Sprintf(`SELECT key FROM %saccounts WHERE key IN (%s) AND password <> '%s'%s`, prefix, strings.Join(ph, ", "), closedPassword, lock)
}

// checkOpen runs the query of openAccountsSQL through query and returns
// an error wrapping ErrNotFound unless every account of keys is open.
func checkOpen(ctx context.Context, query func(ctx context.Context, q string, args ...any) (closingRows, error), prefix string, arg func(int) string, lock string, keys []string) error {
	keys = slices.Compact(slices.Sorted(slices.Values(keys)))
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rows, err := query(ctx, openAccountsSQL(prefix, len(keys), arg, lock), args...)
	if err != nil {
		return err
	}
	open, err := scanIDs(rows.rowScanner)
	rows.close()
	if err != nil {
		return err
	}
	for _, k := range keys {
		if !slices.Contains(open, k) {
			return fmt.Errorf("account %q: none open: %w", k, ErrNotFound)
		}
	}
	return nil
}

// txFuncs are the dbFuncs of a transaction of database/sql.
func txFuncs(tx *sql.Tx) dbFuncs {
	return dbFuncs{
		exec: func(ctx context.Context, q string, args ...any) (int64, error) {
			res, err := tx.ExecContext(ctx, q, args...)
			if err != nil {
				return 0, err
			}
			return res.RowsAffected()
		},
		query: func(ctx context.Context, q string, args ...any) (closingRows, error) {
			rows, err := tx.QueryContext(ctx, q, args...)
			c := sqlRows(rows, err)
			return c, c.err
		},
		one: func(ctx context.Context, q string, args ...any) (int, error) {
			var n int
			err := tx.QueryRowContext(ctx, q, args...).Scan(&n)
			return n, err
		},
	}
}

// pgTxFuncs are the dbFuncs of a transaction of pgx.
func pgTxFuncs(tx pgx.Tx) dbFuncs {
	return dbFuncs{
		exec: func(ctx context.Context, q string, args ...any) (int64, error) {
			tag, err := tx.Exec(ctx, q, args...)
			return tag.RowsAffected(), err
		},
		query: func(ctx context.Context, q string, args ...any) (closingRows, error) {
			rows, err := tx.Query(ctx, q, args...)
			c := pgRows(rows, err)
			return c, c.err
		},
		one: func(ctx context.Context, q string, args ...any) (int, error) {
			var n int
			err := tx.QueryRow(ctx, q, args...).Scan(&n)
			return n, err
		},
	}
}

// openInTx checks, in tx, that the accounts of keys are open (see
// checkOpen).
func (s *SQLite) openInTx(ctx context.Context, tx *sql.Tx, keys ...string) error {
	return checkOpen(ctx, txFuncs(tx).query, "", sqliteArg, "", keys)
}

// openInTx checks, in tx, that the accounts of keys are open, and holds
// their rows shared until tx ends (see checkOpen).
func (s *Postgres) openInTx(ctx context.Context, tx pgx.Tx, keys ...string) error {
	return checkOpen(ctx, pgTxFuncs(tx).query, "atril_", pgArg, " FOR SHARE", keys)
}

// inOpenTx runs fn in a transaction, committed when fn succeeds, after
// checking in it that the accounts of keys are open (ErrNotFound
// otherwise).
func (s *SQLite) inOpenTx(ctx context.Context, keys []string, fn func(d dbFuncs) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.openInTx(ctx, tx, keys...); err != nil {
		return err
	}
	if err := fn(txFuncs(tx)); err != nil {
		return err
	}
	return tx.Commit()
}

// inOpenTx runs fn in a transaction, committed when fn succeeds, after
// checking in it that the accounts of keys are open (ErrNotFound
// otherwise) and with their rows held shared.
func (s *Postgres) inOpenTx(ctx context.Context, keys []string, fn func(d dbFuncs) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := s.openInTx(ctx, tx, keys...); err != nil {
		return err
	}
	if err := fn(pgTxFuncs(tx)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
