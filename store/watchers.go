package store

import (
	"context"
	"fmt"
	"time"
)

// Watchers: who watches a game being played, seen by whichever process
// served them, so that every process counts the same watchers. A watcher
// is an opaque key the server makes (not an address), with the name of
// its account when signed in; a row goes once it has not been seen for
// WatcherKept.

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
	name    TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game, watcher)
);
CREATE INDEX IF NOT EXISTS %[1]sgame_watchers_seen ON %[1]sgame_watchers(seen);
`, prefix, integer)
}

// newerWatcherColumns are the columns the watchers' table got after it
// was first made: the watchers already seen are guests.
var newerWatcherColumns = []newerColumn{{"name", "TEXT NOT NULL DEFAULT ''"}}

// pgWatchersNewer adds them to a Postgres table made before.
const pgWatchersNewer = `
ALTER TABLE atril_game_watchers ADD COLUMN IF NOT EXISTS name TEXT NOT NULL DEFAULT '';
`

// Watching is who watched a game lately: how many watchers, and the
// names of those signed in (each once, in order).
type Watching struct {
	Count int
	Names []string
}

// watcherSQL holds the statements of the watchers for one database.
type watcherSQL struct{ saw, prune, watchers string }

func newWatcherSQL(prefix string, arg func(int) string) watcherSQL {
	return watcherSQL{
		saw: fmt.Sprintf(`INSERT INTO %[1]sgame_watchers(game, watcher, seen, name) VALUES (%[2]s, %[3]s, %[4]s, %[5]s)
			ON CONFLICT(game, watcher) DO UPDATE SET seen = excluded.seen, name = excluded.name`, prefix, arg(1), arg(2), arg(3), arg(4)),
		prune:    fmt.Sprintf(`DELETE FROM %sgame_watchers WHERE seen < %s`, prefix, arg(1)),
		watchers: fmt.Sprintf(`SELECT game, name FROM %[1]sgame_watchers WHERE seen >= %[2]s ORDER BY game%[3]s, name%[3]s`, prefix, arg(1), byBytes(prefix)),
	}
}

var (
	sqliteWatcherSQL = newWatcherSQL("", sqliteArg)
	pgWatcherSQL     = newWatcherSQL("atril_", pgArg)
)

// sawWatcher runs SawWatcher on d.
func sawWatcher(ctx context.Context, d dbFuncs, q *watcherSQL, game, watcher, name string, at time.Time) error {
	if game == "" || watcher == "" {
		return fmt.Errorf("store: watcher %q of game %q: incomplete", watcher, game)
	}
	if _, err := d.exec(ctx, q.saw, game, watcher, at.UnixNano(), name); err != nil {
		return fmt.Errorf("store: watcher of game %s: %w", game, err)
	}
	if _, err := d.exec(ctx, q.prune, at.Add(-WatcherKept).UnixNano()); err != nil {
		return fmt.Errorf("store: watchers not seen since %v: %w", at.Add(-WatcherKept), err)
	}
	return nil
}

// watchers runs Watchers on d.
func watchers(ctx context.Context, d dbFuncs, q *watcherSQL, since time.Time) (map[string]Watching, error) {
	type row struct{ game, name string }
	rs, err := queryAll(ctx, d, func(rows rowScanner) ([]row, error) {
		var out []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.game, &r.name); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, rows.Err()
	}, fmt.Sprintf("watchers since %v", since), q.watchers, since.UnixNano())
	if err != nil {
		return nil, err
	}
	m := map[string]Watching{}
	for _, r := range rs {
		w := m[r.game]
		w.Count++
		// In name order: one account on two devices is named once.
		if r.name != "" && (len(w.Names) == 0 || w.Names[len(w.Names)-1] != r.name) {
			w.Names = append(w.Names, r.name)
		}
		m[r.game] = w
	}
	return m, nil
}

// SawWatcher implements Store.
func (s *SQLite) SawWatcher(ctx context.Context, game, watcher, name string, at time.Time) error {
	return sawWatcher(ctx, s.funcs(), &sqliteWatcherSQL, game, watcher, name, at)
}

// Watchers implements Store.
func (s *SQLite) Watchers(ctx context.Context, since time.Time) (map[string]Watching, error) {
	return watchers(ctx, s.funcs(), &sqliteWatcherSQL, since)
}

// SawWatcher implements Store.
func (s *Postgres) SawWatcher(ctx context.Context, game, watcher, name string, at time.Time) error {
	return sawWatcher(ctx, s.funcs(), &pgWatcherSQL, game, watcher, name, at)
}

// Watchers implements Store.
func (s *Postgres) Watchers(ctx context.Context, since time.Time) (map[string]Watching, error) {
	return watchers(ctx, s.funcs(), &pgWatcherSQL, since)
}
