package store

import (
	"context"
	"fmt"
	"time"
)

// Watchers: who watches a game being played, seen by whichever process
// served them, so that every process counts the same watchers. A watcher
// is an opaque key the server makes (not an address); a row goes once it
// has not been seen for WatcherKept.

// WatcherKept is how long a watcher not seen again is kept.
const WatcherKept = time.Minute

// watchersSchema holds the watchers (prefix begins the table's name;
// integer is the type of the times, nanoseconds since 1970).
func watchersSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]sgame_watchers (
	game    TEXT NOT NULL,
	watcher TEXT NOT NULL,
	seen    %[2]s NOT NULL,
	PRIMARY KEY (game, watcher)
);
CREATE INDEX IF NOT EXISTS %[1]sgame_watchers_seen ON %[1]sgame_watchers(seen);
`, prefix, integer)
}

// watcherSQL holds the statements of the watchers for one database.
type watcherSQL struct{ saw, prune, counts string }

func newWatcherSQL(prefix string, arg func(int) string) watcherSQL {
	return watcherSQL{
		saw: fmt.Sprintf(`INSERT INTO %[1]sgame_watchers(game, watcher, seen) VALUES (%[2]s, %[3]s, %[4]s)
			ON CONFLICT(game, watcher) DO UPDATE SET seen = excluded.seen`, prefix, arg(1), arg(2), arg(3)),
		prune:  fmt.Sprintf(`DELETE FROM %sgame_watchers WHERE seen < %s`, prefix, arg(1)),
		counts: fmt.Sprintf(`SELECT game, COUNT(*) FROM %sgame_watchers WHERE seen >= %s GROUP BY game`, prefix, arg(1)),
	}
}

var (
	sqliteWatcherSQL = newWatcherSQL("", sqliteArg)
	pgWatcherSQL     = newWatcherSQL("atril_", pgArg)
)

// sawWatcher runs SawWatcher on d.
func sawWatcher(ctx context.Context, d dbFuncs, q *watcherSQL, game, watcher string, at time.Time) error {
	if game == "" || watcher == "" {
		return fmt.Errorf("store: watcher %q of game %q: incomplete", watcher, game)
	}
	if _, err := d.exec(ctx, q.saw, game, watcher, at.UnixNano()); err != nil {
		return fmt.Errorf("store: watcher of game %s: %w", game, err)
	}
	if _, err := d.exec(ctx, q.prune, at.Add(-WatcherKept).UnixNano()); err != nil {
		return fmt.Errorf("store: watchers not seen since %v: %w", at.Add(-WatcherKept), err)
	}
	return nil
}

// watcherCounts runs WatcherCounts on d.
func watcherCounts(ctx context.Context, d dbFuncs, q *watcherSQL, since time.Time) (map[string]int, error) {
	type count struct {
		game string
		n    int
	}
	cs, err := queryAll(ctx, d, func(rows rowScanner) ([]count, error) {
		var out []count
		for rows.Next() {
			var c count
			if err := rows.Scan(&c.game, &c.n); err != nil {
				return nil, err
			}
			out = append(out, c)
		}
		return out, rows.Err()
	}, fmt.Sprintf("watchers since %v", since), q.counts, since.UnixNano())
	if err != nil {
		return nil, err
	}
	m := make(map[string]int, len(cs))
	for _, c := range cs {
		m[c.game] = c.n
	}
	return m, nil
}

// SawWatcher implements Store.
func (s *SQLite) SawWatcher(ctx context.Context, game, watcher string, at time.Time) error {
	return sawWatcher(ctx, s.funcs(), &sqliteWatcherSQL, game, watcher, at)
}

// WatcherCounts implements Store.
func (s *SQLite) WatcherCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	return watcherCounts(ctx, s.funcs(), &sqliteWatcherSQL, since)
}

// SawWatcher implements Store.
func (s *Postgres) SawWatcher(ctx context.Context, game, watcher string, at time.Time) error {
	return sawWatcher(ctx, s.funcs(), &pgWatcherSQL, game, watcher, at)
}

// WatcherCounts implements Store.
func (s *Postgres) WatcherCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	return watcherCounts(ctx, s.funcs(), &pgWatcherSQL, since)
}
