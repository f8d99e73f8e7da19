package store

import (
	"context"
	"fmt"
	"time"
)

// Follows: an account may follow others, to see at a glance whether they
// are about and what they play. Kept in the store so that every process
// sharing it, and every device of the account, lists the same players.

// Follow is an account that another one follows: its key, its name, since
// when, and when it was last seen with the lobby open (zero if never).
type Follow struct {
	Key   string
	Name  string
	Since time.Time
	Seen  time.Time
}

// followsSchema holds who follows whom (prefix begins the table's name;
// integer is the type of the times, nanoseconds since 1970).
func followsSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]sfollows (
	account  TEXT NOT NULL,
	followed TEXT NOT NULL,
	since    %[2]s NOT NULL,
	PRIMARY KEY (account, followed)
);
CREATE INDEX IF NOT EXISTS %[1]sfollows_followed ON %[1]sfollows(followed);
`, prefix, integer)
}

// followSQL records a follow; following again changes nothing.
func followSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`INSERT INTO %sfollows(account, followed, since) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING`,
		prefix, arg(1), arg(2), arg(3))
}

// unfollowSQL removes a follow.
func unfollowSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`DELETE FROM %sfollows WHERE account = %s AND followed = %s`, prefix, arg(1), arg(2))
}

// followsSQL lists the accounts one follows, by key, with their names and
// when they were last seen, leaving out suspended ones.
func followsSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT f.followed, a.name, f.since, COALESCE(p.seen, 0) FROM %[1]sfollows f
		JOIN %[1]saccounts a ON a.key = f.followed LEFT JOIN %[1]spresence p ON p.account = f.followed
		WHERE f.account = %[2]s AND NOT EXISTS (SELECT 1 FROM %[1]ssuspensions s WHERE s.account = f.followed)
		ORDER BY f.followed%[3]s`, prefix, arg(1), byBytes(prefix))
}

// followersSQL counts the accounts that follow one, suspended ones left
// out.
func followersSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT COUNT(*) FROM %[1]sfollows f WHERE f.followed = %[2]s
		AND NOT EXISTS (SELECT 1 FROM %[1]ssuspensions s WHERE s.account = f.account)`, prefix, arg(1))
}

// followBound bounds the accounts one follows, counted as followsSQL
// lists them (suspended ones left out).
func followBound(prefix string, arg func(int) string) listBound {
	return listBound{what: "follows",
		has: fmt.Sprintf(`SELECT COUNT(*) FROM %sfollows WHERE account = %s AND followed = %s`, prefix, arg(1), arg(2)),
		count: fmt.Sprintf(`SELECT COUNT(*) FROM %[1]sfollows f WHERE f.account = %[2]s
			AND NOT EXISTS (SELECT 1 FROM %[1]ssuspensions s WHERE s.account = f.followed)`, prefix, arg(1))}
}

// follow runs Follow in a transaction of in, with the statements of the
// tables named with prefix.
func follow(ctx context.Context, in ownTx, prefix string, arg func(int) string, key, other string, at time.Time, limit int) error {
	if err := in(ctx, key, []string{other}, func(d dbFuncs) error {
		if err := followBound(prefix, arg).check(ctx, d, key, other, limit); err != nil {
			return err
		}
		_, err := d.exec(ctx, followSQL(prefix, arg), key, other, at.UnixNano())
		return err
	}); err != nil {
		return fmt.Errorf("store: follow %q by %q: %w", other, key, err)
	}
	return nil
}

// scanFollows reads rows of followsSQL.
func scanFollows(rows rowScanner, key string) ([]Follow, error) {
	var out []Follow
	for rows.Next() {
		var f Follow
		var since, seen int64
		if err := rows.Scan(&f.Key, &f.Name, &since, &seen); err != nil {
			return nil, fmt.Errorf("store: follows of %q: %w", key, err)
		}
		f.Since = time.Unix(0, since).UTC()
		if seen != 0 {
			f.Seen = time.Unix(0, seen).UTC()
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: follows of %q: %w", key, err)
	}
	return out, nil
}

// Follow implements Accounts.
func (s *SQLite) Follow(ctx context.Context, key, other string, at time.Time, limit int) error {
	if err := checkPair(ctx, "follow", key, other, s.Account); err != nil {
		return err
	}
	return follow(ctx, s.inOwnTx, "", sqliteArg, key, other, at, limit)
}

// Unfollow implements Accounts.
func (s *SQLite) Unfollow(ctx context.Context, key, other string) error {
	if _, err := s.db.ExecContext(ctx, unfollowSQL("", sqliteArg), key, other); err != nil {
		return fmt.Errorf("store: unfollow %q by %q: %w", other, key, err)
	}
	return nil
}

// Follows implements Accounts.
func (s *SQLite) Follows(ctx context.Context, key string) ([]Follow, error) {
	rows, err := s.db.QueryContext(ctx, followsSQL("", sqliteArg), key)
	if err != nil {
		return nil, fmt.Errorf("store: follows of %q: %w", key, err)
	}
	defer rows.Close()
	return scanFollows(rows, key)
}

// Followers implements Accounts.
func (s *SQLite) Followers(ctx context.Context, key string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, followersSQL("", sqliteArg), key).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: followers of %q: %w", key, err)
	}
	return n, nil
}

// Follow implements Accounts.
func (s *Postgres) Follow(ctx context.Context, key, other string, at time.Time, limit int) error {
	if err := checkPair(ctx, "follow", key, other, s.Account); err != nil {
		return err
	}
	return follow(ctx, s.inOwnTx, "atril_", pgArg, key, other, at, limit)
}

// Unfollow implements Accounts.
func (s *Postgres) Unfollow(ctx context.Context, key, other string) error {
	if _, err := s.pool.Exec(ctx, unfollowSQL("atril_", pgArg), key, other); err != nil {
		return fmt.Errorf("store: unfollow %q by %q: %w", other, key, err)
	}
	return nil
}

// Follows implements Accounts.
func (s *Postgres) Follows(ctx context.Context, key string) ([]Follow, error) {
	rows, err := s.pool.Query(ctx, followsSQL("atril_", pgArg), key)
	if err != nil {
		return nil, fmt.Errorf("store: follows of %q: %w", key, err)
	}
	defer rows.Close()
	return scanFollows(rows, key)
}

// Followers implements Accounts.
func (s *Postgres) Followers(ctx context.Context, key string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, followersSQL("atril_", pgArg), key).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: followers of %q: %w", key, err)
	}
	return n, nil
}
