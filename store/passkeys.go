package store

import (
	"context"
	"fmt"
	"time"
)

// Passkeys: public-key credentials an account signs in with instead of
// its password (package webauthn checks them), and the challenges the
// server hands out for making and using them. A challenge is kept in the
// store, not in a process, so that a page may ask one process for it and
// answer another; it is used once.

// MaxPasskeys is how many passkeys one account may register.
const MaxPasskeys = 10

// Passkey is a registered credential.
type Passkey struct {
	// ID is the credential's id, unpadded base64url.
	ID      string
	Account string
	// PublicKey is the COSE key, unpadded base64url; Alg its algorithm.
	PublicKey string
	Alg       int
	SignCount uint32
	// Name is what the account calls it ("phone").
	Name string
	// Created and Used are when it was registered and last signed in
	// with (zero: never).
	Created, Used time.Time
}

// Challenge is a challenge handed out for a ceremony.
type Challenge struct {
	// Value is the challenge, unpadded base64url.
	Value string
	// Purpose is what it is for ("register", "login"); Account the
	// account it was given to ("" for a sign-in).
	Purpose, Account string
	Expires          time.Time
}

// passkeysSchema holds the passkeys and the challenges (prefix begins
// the tables' names; integer is the type of the times and counts).
func passkeysSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]spasskeys (
	id         TEXT PRIMARY KEY,
	account    TEXT NOT NULL,
	public_key TEXT NOT NULL,
	alg        %[2]s NOT NULL,
	sign_count %[2]s NOT NULL,
	name       TEXT NOT NULL,
	created    %[2]s NOT NULL,
	used       %[2]s NOT NULL
);
CREATE INDEX IF NOT EXISTS %[1]spasskeys_account ON %[1]spasskeys(account);
CREATE TABLE IF NOT EXISTS %[1]swebauthn_challenges (
	challenge TEXT PRIMARY KEY,
	purpose   TEXT NOT NULL,
	account   TEXT NOT NULL,
	expires   %[2]s NOT NULL
);
CREATE INDEX IF NOT EXISTS %[1]swebauthn_challenges_expires ON %[1]swebauthn_challenges(expires);
`, prefix, integer)
}

const passkeyCols = `id, account, public_key, alg, sign_count, name, created, used`

func scanPasskeys(rows rowScanner) ([]Passkey, error) {
	var out []Passkey
	for rows.Next() {
		var p Passkey
		var count, created, used int64
		if err := rows.Scan(&p.ID, &p.Account, &p.PublicKey, &p.Alg, &count, &p.Name, &created, &used); err != nil {
			return nil, err
		}
		p.SignCount = uint32(count)
		p.Created = time.Unix(0, created).UTC()
		if used != 0 {
			p.Used = time.Unix(0, used).UTC()
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// addPasskey runs AddPasskey with own.
func addPasskey(ctx context.Context, own ownTx, p *Passkey,
	prefix string, arg func(int) string) error {
	if p.ID == "" || p.Account == "" || p.PublicKey == "" {
		return fmt.Errorf("store: passkey of %q: id, account and key are needed", p.Account)
	}
	err := own(ctx, p.Account, nil, func(d dbFuncs) error {
		n, err := d.one(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM %spasskeys WHERE account = %s`, prefix, arg(1)), p.Account)
		if err != nil {
			return err
		}
		if n >= MaxPasskeys {
			return &LimitError{What: "passkeys", Have: n, Max: MaxPasskeys}
		}
		_, err = d.exec(ctx, fmt.Sprintf(`INSERT INTO %spasskeys(`+passkeyCols+`) VALUES (%s, %s, %s, %s, %s, %s, %s, 0)`,
			prefix, arg(1), arg(2), arg(3), arg(4), arg(5), arg(6), arg(7)),
			p.ID, p.Account, p.PublicKey, p.Alg, int64(p.SignCount), p.Name, p.Created.UnixNano())
		if err != nil && (isUniqueViolation(err) || isConstraint(err)) {
			return ErrConflict
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store: passkey of %q: %w", p.Account, err)
	}
	return nil
}

// passkeys runs Passkeys on d: the account's ("" with id: the one of id).
func passkeys(ctx context.Context, d dbFuncs, account, id, prefix string, arg func(int) string) ([]Passkey, error) {
	if account == "" {
		return queryAll(ctx, d, scanPasskeys, fmt.Sprintf("passkey %q", id),
			fmt.Sprintf(`SELECT `+passkeyCols+` FROM %spasskeys WHERE id = %s`, prefix, arg(1)), id)
	}
	return queryAll(ctx, d, scanPasskeys, fmt.Sprintf("passkeys of %q", account),
		fmt.Sprintf(`SELECT `+passkeyCols+` FROM %spasskeys WHERE account = %s ORDER BY created, id`, prefix, arg(1)), account)
}

// passkeyUsed runs PasskeyUsed on d.
func passkeyUsed(ctx context.Context, d dbFuncs, id string, count uint32, at time.Time, prefix string, arg func(int) string) error {
	n, err := d.exec(ctx, fmt.Sprintf(`UPDATE %spasskeys SET sign_count = %s, used = %s WHERE id = %s AND (sign_count < %s OR sign_count = 0)`,
		prefix, arg(1), arg(2), arg(3), arg(4)), int64(count), at.UnixNano(), id, int64(count))
	if err != nil {
		return fmt.Errorf("store: passkey %q used: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("store: passkey %q used with counter %d: %w", id, count, ErrConflict)
	}
	return nil
}

// removePasskey runs RemovePasskey on d.
func removePasskey(ctx context.Context, d dbFuncs, account, id, prefix string, arg func(int) string) error {
	n, err := d.exec(ctx, fmt.Sprintf(`DELETE FROM %spasskeys WHERE account = %s AND id = %s`, prefix, arg(1), arg(2)), account, id)
	if err != nil {
		return fmt.Errorf("store: remove passkey %q of %q: %w", id, account, err)
	}
	if n == 0 {
		return fmt.Errorf("store: remove passkey %q of %q: %w", id, account, ErrNotFound)
	}
	return nil
}

// putChallenge runs PutChallenge on d, after dropping expired ones.
func putChallenge(ctx context.Context, d dbFuncs, c *Challenge, now time.Time, prefix string, arg func(int) string) error {
	if _, err := d.exec(ctx, fmt.Sprintf(`DELETE FROM %swebauthn_challenges WHERE expires < %s`, prefix, arg(1)), now.UnixNano()); err != nil {
		return fmt.Errorf("store: challenges: %w", err)
	}
	if _, err := d.exec(ctx, fmt.Sprintf(`INSERT INTO %swebauthn_challenges(challenge, purpose, account, expires) VALUES (%s, %s, %s, %s)`,
		prefix, arg(1), arg(2), arg(3), arg(4)), c.Value, c.Purpose, c.Account, c.Expires.UnixNano()); err != nil {
		return fmt.Errorf("store: challenge: %w", err)
	}
	return nil
}

// takeChallenge runs TakeChallenge on d.
func takeChallenge(ctx context.Context, d dbFuncs, value, purpose string, now time.Time, prefix string, arg func(int) string) (string, error) {
	accounts, err := queryAll(ctx, d, scanIDs, "challenge", fmt.Sprintf(`SELECT account FROM %swebauthn_challenges
		WHERE challenge = %s AND purpose = %s AND expires >= %s`, prefix, arg(1), arg(2), arg(3)), value, purpose, now.UnixNano())
	if err != nil {
		return "", err
	}
	n, err := d.exec(ctx, fmt.Sprintf(`DELETE FROM %swebauthn_challenges WHERE challenge = %s AND purpose = %s`, prefix, arg(1), arg(2)), value, purpose)
	if err != nil {
		return "", fmt.Errorf("store: challenge: %w", err)
	}
	if len(accounts) != 1 || n != 1 {
		// Unknown, expired, or taken meanwhile by another request.
		return "", fmt.Errorf("store: challenge: %w", ErrNotFound)
	}
	return accounts[0], nil
}

// AddPasskey implements Accounts.
func (s *SQLite) AddPasskey(ctx context.Context, p *Passkey) error {
	return addPasskey(ctx, s.inOwnTx, p, "", sqliteArg)
}

// Passkeys implements Accounts.
func (s *SQLite) Passkeys(ctx context.Context, account string) ([]Passkey, error) {
	return passkeys(ctx, s.funcs(), account, "", "", sqliteArg)
}

// PasskeyByID implements Accounts.
func (s *SQLite) PasskeyByID(ctx context.Context, id string) (*Passkey, error) {
	return passkeyByID(ctx, s.funcs(), id, "", sqliteArg)
}

// PasskeyUsed implements Accounts.
func (s *SQLite) PasskeyUsed(ctx context.Context, id string, count uint32, at time.Time) error {
	return passkeyUsed(ctx, s.funcs(), id, count, at, "", sqliteArg)
}

// RemovePasskey implements Accounts.
func (s *SQLite) RemovePasskey(ctx context.Context, account, id string) error {
	return removePasskey(ctx, s.funcs(), account, id, "", sqliteArg)
}

// PutChallenge implements Accounts.
func (s *SQLite) PutChallenge(ctx context.Context, c *Challenge, now time.Time) error {
	return putChallenge(ctx, s.funcs(), c, now, "", sqliteArg)
}

// TakeChallenge implements Accounts.
func (s *SQLite) TakeChallenge(ctx context.Context, value, purpose string, now time.Time) (string, error) {
	return takeChallenge(ctx, s.funcs(), value, purpose, now, "", sqliteArg)
}

// AddPasskey implements Accounts.
func (s *Postgres) AddPasskey(ctx context.Context, p *Passkey) error {
	return addPasskey(ctx, s.inOwnTx, p, "atril_", pgArg)
}

// Passkeys implements Accounts.
func (s *Postgres) Passkeys(ctx context.Context, account string) ([]Passkey, error) {
	return passkeys(ctx, s.funcs(), account, "", "atril_", pgArg)
}

// PasskeyByID implements Accounts.
func (s *Postgres) PasskeyByID(ctx context.Context, id string) (*Passkey, error) {
	return passkeyByID(ctx, s.funcs(), id, "atril_", pgArg)
}

// PasskeyUsed implements Accounts.
func (s *Postgres) PasskeyUsed(ctx context.Context, id string, count uint32, at time.Time) error {
	return passkeyUsed(ctx, s.funcs(), id, count, at, "atril_", pgArg)
}

// RemovePasskey implements Accounts.
func (s *Postgres) RemovePasskey(ctx context.Context, account, id string) error {
	return removePasskey(ctx, s.funcs(), account, id, "atril_", pgArg)
}

// PutChallenge implements Accounts.
func (s *Postgres) PutChallenge(ctx context.Context, c *Challenge, now time.Time) error {
	return putChallenge(ctx, s.funcs(), c, now, "atril_", pgArg)
}

// TakeChallenge implements Accounts.
func (s *Postgres) TakeChallenge(ctx context.Context, value, purpose string, now time.Time) (string, error) {
	return takeChallenge(ctx, s.funcs(), value, purpose, now, "atril_", pgArg)
}

// passkeyByID is the passkey of id (ErrNotFound when none).
func passkeyByID(ctx context.Context, d dbFuncs, id, prefix string, arg func(int) string) (*Passkey, error) {
	ps, err := passkeys(ctx, d, "", id, prefix, arg)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("store: passkey %q: %w", id, ErrNotFound)
	}
	return &ps[0], nil
}
