package store

import (
	"context"
	"fmt"
	"time"
)

// Recovery codes: one-time codes an account makes (its password asked
// for) and keeps somewhere safe, each of which sets a new password once
// when the password is lost; the site has no e-mail to send a reset to.
// The store keeps each code's SHA-256 only.

// recoverySchema holds the codes (prefix begins the table's name;
// integer is the type of the times).
func recoverySchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]srecovery_codes (
	account TEXT NOT NULL,
	hash    TEXT NOT NULL,
	created %[2]s NOT NULL,
	PRIMARY KEY (account, hash)
);
`, prefix, integer)
}

// setRecoveryCodes runs SetRecoveryCodes with inOpen.
func setRecoveryCodes(ctx context.Context, inOpen func(context.Context, []string, func(dbFuncs) error) error, account string, hashes []string,
	at time.Time, prefix string, arg func(int) string) error {
	err := inOpen(ctx, []string{account}, func(d dbFuncs) error {
		if _, err := d.exec(ctx, fmt.Sprintf(`DELETE FROM %srecovery_codes WHERE account = %s`, prefix, arg(1)), account); err != nil {
			return err
		}
		for _, h := range hashes {
			if _, err := d.exec(ctx, fmt.Sprintf(`INSERT INTO %srecovery_codes(account, hash, created) VALUES (%s, %s, %s)`,
				prefix, arg(1), arg(2), arg(3)), account, h, at.UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: recovery codes of %q: %w", account, err)
	}
	return nil
}

// useRecoveryCode runs UseRecoveryCode on d.
func useRecoveryCode(ctx context.Context, d dbFuncs, account, hash, prefix string, arg func(int) string) error {
	n, err := d.exec(ctx, fmt.Sprintf(`DELETE FROM %srecovery_codes WHERE account = %s AND hash = %s`, prefix, arg(1), arg(2)), account, hash)
	if err != nil {
		return fmt.Errorf("store: recovery code of %q: %w", account, err)
	}
	if n == 0 {
		return fmt.Errorf("store: recovery code of %q: %w", account, ErrNotFound)
	}
	return nil
}

// recoveryCodesLeft runs RecoveryCodesLeft on d.
func recoveryCodesLeft(ctx context.Context, d dbFuncs, account, prefix string, arg func(int) string) (int, error) {
	n, err := d.one(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM %srecovery_codes WHERE account = %s`, prefix, arg(1)), account)
	if err != nil {
		return 0, fmt.Errorf("store: recovery codes of %q: %w", account, err)
	}
	return n, nil
}

// SetRecoveryCodes implements Accounts.
func (s *SQLite) SetRecoveryCodes(ctx context.Context, account string, hashes []string, at time.Time) error {
	return setRecoveryCodes(ctx, s.inOpenTx, account, hashes, at, "", sqliteArg)
}

// UseRecoveryCode implements Accounts.
func (s *SQLite) UseRecoveryCode(ctx context.Context, account, hash string) error {
	return useRecoveryCode(ctx, s.funcs(), account, hash, "", sqliteArg)
}

// RecoveryCodesLeft implements Accounts.
func (s *SQLite) RecoveryCodesLeft(ctx context.Context, account string) (int, error) {
	return recoveryCodesLeft(ctx, s.funcs(), account, "", sqliteArg)
}

// SetRecoveryCodes implements Accounts.
func (s *Postgres) SetRecoveryCodes(ctx context.Context, account string, hashes []string, at time.Time) error {
	return setRecoveryCodes(ctx, s.inOpenTx, account, hashes, at, "atril_", pgArg)
}

// UseRecoveryCode implements Accounts.
func (s *Postgres) UseRecoveryCode(ctx context.Context, account, hash string) error {
	return useRecoveryCode(ctx, s.funcs(), account, hash, "atril_", pgArg)
}

// RecoveryCodesLeft implements Accounts.
func (s *Postgres) RecoveryCodesLeft(ctx context.Context, account string) (int, error) {
	return recoveryCodesLeft(ctx, s.funcs(), account, "atril_", pgArg)
}
