package store

import (
	"context"
	"fmt"
	"time"
)

// Push subscriptions: the browsers (one an installed page, a phone, a
// computer) where an account asked to be told, with the page closed,
// that it is its move in a correspondence game, that someone invites it
// or writes to it. Each is the push service's address for the browser
// and the browser's keys, as the browser gave them; an address belongs
// to one account at a time, and an account keeps its latest
// MaxPushSubscriptions. The server's own key pair, which signs what it
// sends, is kept here too, so that every process sharing the database
// signs with the same one.

// MaxPushSubscriptions is how many browsers one account may have
// subscribed: a new one beyond them replaces the oldest.
const MaxPushSubscriptions = 10

// PushSubscription is one browser's subscription.
type PushSubscription struct {
	Account  string
	Endpoint string
	// P256dh and Auth are the browser's keys as it wrote them
	// (base64url).
	P256dh, Auth string
	// Session is the hash of the session the browser subscribed in
	// (as CreateSession keeps it; "" for none): when that session
	// ends, so do the browser's messages.
	Session string
	Created time.Time
}

// pushSchema holds the subscriptions and the server's keys (prefix
// begins the tables' names; integer is the type of the times,
// nanoseconds since 1970).
func pushSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]spush_subscriptions (
	endpoint TEXT PRIMARY KEY,
	account  TEXT NOT NULL,
	p256dh   TEXT NOT NULL,
	auth     TEXT NOT NULL,
	created  %[2]s NOT NULL,
	session  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS %[1]spush_subscriptions_account ON %[1]spush_subscriptions(account, created);
CREATE TABLE IF NOT EXISTS %[1]spush_keys (
	name    TEXT PRIMARY KEY,
	private TEXT NOT NULL
);
`, prefix, integer)
}

// pushNewerColumn is the column of push_subscriptions that tables made
// before it lack: their subscriptions belong to no session.
var pushNewerColumn = newerColumn{"session", "TEXT NOT NULL DEFAULT ''"}

// pgPushNewer adds it in PostgreSQL.
const pgPushNewer = `ALTER TABLE atril_push_subscriptions ADD COLUMN IF NOT EXISTS session TEXT NOT NULL DEFAULT '';
`

// addPushSubscription runs AddPushSubscription with inOpen.
func addPushSubscription(ctx context.Context, inOpen func(context.Context, []string, func(dbFuncs) error) error, p PushSubscription,
	prefix string, arg func(int) string) error {
	if p.Account == "" || p.Endpoint == "" || p.P256dh == "" || p.Auth == "" {
		return fmt.Errorf("store: push subscription of %q: account, endpoint and keys are needed", p.Account)
	}
	err := inOpen(ctx, []string{p.Account}, func(d dbFuncs) error {
		if _, err := d.exec(ctx, fmt.Sprintf(`INSERT INTO %[1]spush_subscriptions(endpoint, account, p256dh, auth, created, session)
			VALUES (%[2]s, %[3]s, %[4]s, %[5]s, %[6]s, %[7]s)
			ON CONFLICT(endpoint) DO UPDATE SET account = excluded.account, p256dh = excluded.p256dh,
				auth = excluded.auth, created = excluded.created, session = excluded.session`, prefix, arg(1), arg(2), arg(3), arg(4), arg(5), arg(6)),
			p.Endpoint, p.Account, p.P256dh, p.Auth, p.Created.UnixNano(), p.Session); err != nil {
			return err
		}
		_, err := d.exec(ctx, fmt.Sprintf(`DELETE FROM %[1]spush_subscriptions WHERE account = %[2]s AND endpoint NOT IN
			(SELECT endpoint FROM %[1]spush_subscriptions WHERE account = %[3]s ORDER BY created DESC, endpoint DESC LIMIT %[4]d)`,
			prefix, arg(1), arg(2), MaxPushSubscriptions), p.Account, p.Account)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: push subscription of %q: %w", p.Account, err)
	}
	return nil
}

// removePushSubscription runs RemovePushSubscription on d.
func removePushSubscription(ctx context.Context, d dbFuncs, account, endpoint, prefix string, arg func(int) string) error {
	var err error
	if account == "" {
		_, err = d.exec(ctx, fmt.Sprintf(`DELETE FROM %spush_subscriptions WHERE endpoint = %s`, prefix, arg(1)), endpoint)
	} else {
		_, err = d.exec(ctx, fmt.Sprintf(`DELETE FROM %spush_subscriptions WHERE endpoint = %s AND account = %s`, prefix, arg(1), arg(2)), endpoint, account)
	}
	if err != nil {
		return fmt.Errorf("store: remove a push subscription of %q: %w", account, err)
	}
	return nil
}

// pushSubscriptions runs PushSubscriptions on d.
func pushSubscriptions(ctx context.Context, d dbFuncs, account, prefix string, arg func(int) string) ([]PushSubscription, error) {
	return queryAll(ctx, d, func(rows rowScanner) ([]PushSubscription, error) {
		var out []PushSubscription
		for rows.Next() {
			p := PushSubscription{Account: account}
			var created int64
			if err := rows.Scan(&p.Endpoint, &p.P256dh, &p.Auth, &created, &p.Session); err != nil {
				return nil, err
			}
			p.Created = time.Unix(0, created).UTC()
			out = append(out, p)
		}
		return out, rows.Err()
	}, fmt.Sprintf("push subscriptions of %q", account),
		fmt.Sprintf(`SELECT endpoint, p256dh, auth, created, session FROM %spush_subscriptions WHERE account = %s ORDER BY created DESC, endpoint DESC`, prefix, arg(1)),
		account)
}

// pushKey runs PushKey on d.
func pushKey(ctx context.Context, d dbFuncs, name, private, prefix string, arg func(int) string) (string, error) {
	if _, err := d.exec(ctx, fmt.Sprintf(`INSERT INTO %spush_keys(name, private) VALUES (%s, %s) ON CONFLICT(name) DO NOTHING`,
		prefix, arg(1), arg(2)), name, private); err != nil {
		return "", fmt.Errorf("store: push key %q: %w", name, err)
	}
	keys, err := queryAll(ctx, d, scanIDs, fmt.Sprintf("push key %q", name),
		fmt.Sprintf(`SELECT private FROM %spush_keys WHERE name = %s`, prefix, arg(1)), name)
	if err != nil {
		return "", err
	}
	if len(keys) != 1 {
		return "", fmt.Errorf("store: push key %q: %d rows", name, len(keys))
	}
	return keys[0], nil
}

// AddPushSubscription implements Accounts.
func (s *SQLite) AddPushSubscription(ctx context.Context, p PushSubscription) error {
	return addPushSubscription(ctx, s.inOpenTx, p, "", sqliteArg)
}

// RemovePushSubscription implements Accounts.
func (s *SQLite) RemovePushSubscription(ctx context.Context, account, endpoint string) error {
	return removePushSubscription(ctx, s.funcs(), account, endpoint, "", sqliteArg)
}

// PushSubscriptions implements Accounts.
func (s *SQLite) PushSubscriptions(ctx context.Context, account string) ([]PushSubscription, error) {
	return pushSubscriptions(ctx, s.funcs(), account, "", sqliteArg)
}

// PushKey implements Accounts.
func (s *SQLite) PushKey(ctx context.Context, name, private string) (string, error) {
	return pushKey(ctx, s.funcs(), name, private, "", sqliteArg)
}

// AddPushSubscription implements Accounts.
func (s *Postgres) AddPushSubscription(ctx context.Context, p PushSubscription) error {
	return addPushSubscription(ctx, s.inOpenTx, p, "atril_", pgArg)
}

// RemovePushSubscription implements Accounts.
func (s *Postgres) RemovePushSubscription(ctx context.Context, account, endpoint string) error {
	return removePushSubscription(ctx, s.funcs(), account, endpoint, "atril_", pgArg)
}

// PushSubscriptions implements Accounts.
func (s *Postgres) PushSubscriptions(ctx context.Context, account string) ([]PushSubscription, error) {
	return pushSubscriptions(ctx, s.funcs(), account, "atril_", pgArg)
}

// PushKey implements Accounts.
func (s *Postgres) PushKey(ctx context.Context, name, private string) (string, error) {
	return pushKey(ctx, s.funcs(), name, private, "atril_", pgArg)
}
