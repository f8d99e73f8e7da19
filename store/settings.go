package store

import (
	"context"
	"fmt"
	"time"
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

// setSettings runs SetSettings, after checking the text, with inOpen,
// which runs its write in a transaction once the account is found open.
func setSettings(ctx context.Context, inOpen func(context.Context, []string, func(dbFuncs) error) error, key, prefs string, at time.Time,
	prefix string, arg func(int) string) error {
	if len(prefs) > MaxSettings {
		return fmt.Errorf("store: settings of %q: %d bytes, over %d", key, len(prefs), MaxSettings)
	}
	err := inOpen(ctx, []string{key}, func(d dbFuncs) error {
		var err error
		if prefs == "" {
			_, err = d.exec(ctx, fmt.Sprintf(`DELETE FROM %ssettings WHERE account = %s`, prefix, arg(1)), key)
		} else {
			_, err = d.exec(ctx, fmt.Sprintf(`INSERT INTO %[1]ssettings(account, prefs, updated) VALUES (%[2]s, %[3]s, %[4]s)
		ON CONFLICT(account) DO UPDATE SET prefs = excluded.prefs, updated = excluded.updated`, prefix, arg(1), arg(2), arg(3)),
				key, prefs, at.UnixNano())
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: settings of %q: %w", key, err)
	}
	return nil
}

// settings runs Settings on d: the account's text, "" for none.
func settings(ctx context.Context, d dbFuncs, key, prefix string, arg func(int) string) (string, error) {
	texts, err := queryAll(ctx, d, scanIDs, fmt.Sprintf("settings of %q", key), fmt.Sprintf(`SELECT prefs FROM %ssettings WHERE account = %s`, prefix, arg(1)), key)
	if err != nil || len(texts) == 0 {
		return "", err
	}
	return texts[0], nil
}

// SetSettings implements Accounts.
func (s *SQLite) SetSettings(ctx context.Context, key, prefs string, at time.Time) error {
	return setSettings(ctx, s.inOpenTx, key, prefs, at, "", sqliteArg)
}

// Settings implements Accounts.
func (s *SQLite) Settings(ctx context.Context, key string) (string, error) {
	return settings(ctx, s.funcs(), key, "", sqliteArg)
}

// SetSettings implements Accounts.
func (s *Postgres) SetSettings(ctx context.Context, key, prefs string, at time.Time) error {
	return setSettings(ctx, s.inOpenTx, key, prefs, at, "atril_", pgArg)
}

// Settings implements Accounts.
func (s *Postgres) Settings(ctx context.Context, key string) (string, error) {
	return settings(ctx, s.funcs(), key, "atril_", pgArg)
}
