package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Settings: how an account likes the page to look and behave (colours,
// the order of its rack, sound, language), kept with the account so that
// every device it signs in on follows them, and gone when it is closed.
// The store keeps the settings as the server wrote them, a JSON object it
// does not read.

// MaxSettings bounds the JSON text of an account's settings, in bytes.
const MaxSettings = 2048

// settingsSchema holds the settings (prefix begins the table's name;
// integer is the type of the times, nanoseconds since 1970).
func settingsSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]ssettings (
	account TEXT PRIMARY KEY,
	prefs   TEXT NOT NULL,
	updated %[2]s NOT NULL
);
`, prefix, integer)
}

// setSettings runs SetSettings with exec, after checking the text and
// that the account exists with account.
func setSettings(ctx context.Context, key, prefs string, at time.Time, account func(context.Context, string) (*Account, error),
	exec func(ctx context.Context, q string, args ...any) error, prefix string, arg func(int) string) error {
	if len(prefs) > MaxSettings {
		return fmt.Errorf("store: settings of %q: %d bytes, over %d", key, len(prefs), MaxSettings)
	}
	if _, err := account(ctx, key); err != nil {
		return fmt.Errorf("store: settings of %q: %w", key, err)
	}
	var err error
	if prefs == "" {
		err = exec(ctx, fmt.Sprintf(`DELETE FROM %ssettings WHERE account = %s`, prefix, arg(1)), key)
	} else {
		err = exec(ctx, fmt.Sprintf(`INSERT INTO %[1]ssettings(account, prefs, updated) VALUES (%[2]s, %[3]s, %[4]s)
		ON CONFLICT(account) DO UPDATE SET prefs = excluded.prefs, updated = excluded.updated`, prefix, arg(1), arg(2), arg(3)),
			key, prefs, at.UnixNano())
	}
	if err != nil {
		return fmt.Errorf("store: settings of %q: %w", key, err)
	}
	return nil
}

// settingsSQL reads an account's settings.
func settingsSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT prefs FROM %ssettings WHERE account = %s`, prefix, arg(1))
}

// scanSettings reads the row of settingsSQL (none: "").
func scanSettings(row interface{ Scan(dest ...any) error }, noRows func(error) bool, key string) (string, error) {
	var prefs string
	switch err := row.Scan(&prefs); {
	case noRows(err):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("store: settings of %q: %w", key, err)
	}
	return prefs, nil
}

// SetSettings implements Accounts.
func (s *SQLite) SetSettings(ctx context.Context, key, prefs string, at time.Time) error {
	return setSettings(ctx, key, prefs, at, s.Account, func(ctx context.Context, q string, args ...any) error {
		_, err := s.db.ExecContext(ctx, q, args...)
		return err
	}, "", sqliteArg)
}

// Settings implements Accounts.
func (s *SQLite) Settings(ctx context.Context, key string) (string, error) {
	return scanSettings(s.db.QueryRowContext(ctx, settingsSQL("", sqliteArg), key), func(err error) bool { return errors.Is(err, sql.ErrNoRows) }, key)
}

// SetSettings implements Accounts.
func (s *Postgres) SetSettings(ctx context.Context, key, prefs string, at time.Time) error {
	return setSettings(ctx, key, prefs, at, s.Account, func(ctx context.Context, q string, args ...any) error {
		_, err := s.pool.Exec(ctx, q, args...)
		return err
	}, "atril_", pgArg)
}

// Settings implements Accounts.
func (s *Postgres) Settings(ctx context.Context, key string) (string, error) {
	return scanSettings(s.pool.QueryRow(ctx, settingsSQL("atril_", pgArg), key), func(err error) bool { return errors.Is(err, pgx.ErrNoRows) }, key)
}
