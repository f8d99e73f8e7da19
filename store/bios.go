package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Bios: what players say about themselves on their pages, a few lines
// and a country, kept with the account and gone when it is closed.

// Bio is what an account says about itself: a text, the country it
// plays from (an ISO 3166 code, "" for none) and when it last changed
// (zero for an account that never wrote one).
type Bio struct {
	About   string
	Country string
	Updated time.Time
}

// biosSchema holds the bios (prefix begins the table's name; integer is
// the type of the times, nanoseconds since 1970).
func biosSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]sbios (
	account TEXT PRIMARY KEY,
	about   TEXT NOT NULL,
	country TEXT NOT NULL,
	updated %[2]s NOT NULL
);
`, prefix, integer)
}

// setBioSQL writes an account's bio over the one before.
func setBioSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`INSERT INTO %[1]sbios(account, about, country, updated) VALUES (%[2]s, %[3]s, %[4]s, %[5]s)
		ON CONFLICT(account) DO UPDATE SET about = excluded.about, country = excluded.country, updated = excluded.updated`,
		prefix, arg(1), arg(2), arg(3), arg(4))
}

// clearBioSQL takes an account's bio away.
func clearBioSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`DELETE FROM %sbios WHERE account = %s`, prefix, arg(1))
}

// bioSQL reads an account's bio.
func bioSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT about, country, updated FROM %sbios WHERE account = %s`, prefix, arg(1))
}

// setBio runs SetBio with inOpen, which runs its write in a
// transaction once the account is found open.
func setBio(ctx context.Context, key string, b Bio, inOpen func(context.Context, []string, func(dbFuncs) error) error, prefix string, arg func(int) string) error {
	err := inOpen(ctx, []string{key}, func(d dbFuncs) error {
		var err error
		if b.About == "" && b.Country == "" {
			_, err = d.exec(ctx, clearBioSQL(prefix, arg), key)
		} else {
			_, err = d.exec(ctx, setBioSQL(prefix, arg), key, b.About, b.Country, b.Updated.UnixNano())
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: bio of %q: %w", key, err)
	}
	return nil
}

// scanBio reads the row of bioSQL (none: the zero Bio).
func scanBio(row interface{ Scan(dest ...any) error }, noRows func(error) bool, key string) (Bio, error) {
	var b Bio
	var at int64
	switch err := row.Scan(&b.About, &b.Country, &at); {
	case noRows(err):
		return Bio{}, nil
	case err != nil:
		return Bio{}, fmt.Errorf("store: bio of %q: %w", key, err)
	}
	b.Updated = time.Unix(0, at).UTC()
	return b, nil
}

// SetBio implements Accounts.
func (s *SQLite) SetBio(ctx context.Context, key string, b Bio) error {
	return setBio(ctx, key, b, s.inOpenTx, "", sqliteArg)
}

// Bio implements Accounts.
func (s *SQLite) Bio(ctx context.Context, key string) (Bio, error) {
	return scanBio(s.db.QueryRowContext(ctx, bioSQL("", sqliteArg), key), func(err error) bool { return errors.Is(err, sql.ErrNoRows) }, key)
}

// SetBio implements Accounts.
func (s *Postgres) SetBio(ctx context.Context, key string, b Bio) error {
	return setBio(ctx, key, b, s.inOpenTx, "atril_", pgArg)
}

// Bio implements Accounts.
func (s *Postgres) Bio(ctx context.Context, key string) (Bio, error) {
	return scanBio(s.pool.QueryRow(ctx, bioSQL("atril_", pgArg), key), func(err error) bool { return errors.Is(err, pgx.ErrNoRows) }, key)
}
