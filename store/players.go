package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Finding players by the start of their names, and when an account was
// last seen.

// findAccountsSQL selects the accounts whose key starts with a prefix
// (the first and second arguments), suspended and closed ones left out,
// with when each was last seen (0: never), in the order of their keys, at
// most the third argument of them.
func findAccountsSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT a.key, a.name, COALESCE(p.seen, 0) FROM %[1]saccounts a LEFT JOIN %[1]spresence p ON p.account = a.key
		WHERE substr(a.key, 1, length(%[2]s)) = %[3]s AND a.key NOT IN (SELECT account FROM %[1]ssuspensions)
		ORDER BY a.key%[5]s LIMIT %[4]s`, prefix, arg(1), arg(2), arg(3), byBytes(prefix))
}

// seenAtSQL selects when the account of the first argument was last seen.
func seenAtSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT seen FROM %spresence WHERE account = %s`, prefix, arg(1))
}

// scanFound reads the rows of findAccountsSQL; a time of 0 is the zero
// Time.
func scanFound(rows rowScanner) ([]Seen, error) {
	var out []Seen
	err := scanKeyNameTime(rows, "accounts found", func(key, name string, at time.Time) {
		if at.UnixNano() == 0 {
			at = time.Time{}
		}
		out = append(out, Seen{key, name, at})
	})
	return out, err
}

// FindAccounts implements Accounts.
func (s *SQLite) FindAccounts(ctx context.Context, prefix string, n int) ([]Seen, error) {
	rows, err := s.db.QueryContext(ctx, findAccountsSQL("", sqliteArg), prefix, prefix, n)
	if err != nil {
		return nil, fmt.Errorf("store: accounts found by %q: %w", prefix, err)
	}
	defer rows.Close()
	return scanFound(rows)
}

// SeenAt implements Accounts.
func (s *SQLite) SeenAt(ctx context.Context, key string) (time.Time, error) {
	var at int64
	err := s.db.QueryRowContext(ctx, seenAtSQL("", sqliteArg), key).Scan(&at)
	return seenAt(key, at, errors.Is(err, sql.ErrNoRows), err)
}

// FindAccounts implements Accounts.
func (s *Postgres) FindAccounts(ctx context.Context, prefix string, n int) ([]Seen, error) {
	rows, err := s.pool.Query(ctx, findAccountsSQL("atril_", pgArg), prefix, prefix, n)
	if err != nil {
		return nil, fmt.Errorf("store: accounts found by %q: %w", prefix, err)
	}
	defer rows.Close()
	return scanFound(rows)
}

// SeenAt implements Accounts.
func (s *Postgres) SeenAt(ctx context.Context, key string) (time.Time, error) {
	var at int64
	err := s.pool.QueryRow(ctx, seenAtSQL("atril_", pgArg), key).Scan(&at)
	return seenAt(key, at, errors.Is(err, pgx.ErrNoRows), err)
}

// seenAt is the answer of SeenAt for a row read as at with err.
// (none is no row: never seen).
func seenAt(key string, at int64, none bool, err error) (time.Time, error) {
	switch {
	case none:
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("store: when %q was seen: %w", key, err)
	}
	return time.Unix(0, at).UTC(), nil
}
