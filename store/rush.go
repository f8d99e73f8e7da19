package store

import (
	"context"
	"fmt"
	"time"
)

// Puzzle rushes: runs of puzzles against the clock or until three
// misses, kept so that any process sharing the store can go on with a
// run, and so that an account's best runs make leaderboards. A guest's
// runs (no account) are kept a day.

// RushRun is a puzzle rush: its secret id, the account playing it ("" for
// a guest), the word list, the mode (the server's name for its rules),
// the seed its puzzles are dealt from, when it started, when its clock
// runs out (zero for none), the puzzle on turn (from 0: the puzzles
// answered so far), the puzzles solved and missed, and when it ended
// (zero while it goes on).
type RushRun struct {
	ID       string
	Account  string
	Lexicon  string
	Mode     string
	Seed     uint64
	Started  time.Time
	Deadline time.Time
	Puzzle   int
	Solved   int
	Misses   int
	Ended    time.Time
}

// RushBest is an account's best rush in a word list and mode: the most
// puzzles solved in one run, when that run started, and how many runs
// it played there. Name is the account's name (RushLeaders fills it in).
type RushBest struct {
	Account string
	Name    string
	Lexicon string
	Mode    string
	Solved  int
	At      time.Time
	Runs    int
}

// RushGuestKept is how long a guest's run is kept.
const RushGuestKept = 24 * time.Hour

// rushSchema holds the rushes (prefix begins the table's name; integer
// is the type of the times, nanoseconds since 1970, and of the seed).
func rushSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]srush_runs (
	id       TEXT PRIMARY KEY,
	account  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	mode     TEXT NOT NULL,
	seed     %[2]s NOT NULL,
	started  %[2]s NOT NULL,
	deadline %[2]s NOT NULL,
	puzzle   INTEGER NOT NULL,
	solved   INTEGER NOT NULL,
	misses   INTEGER NOT NULL,
	ended    %[2]s NOT NULL
);
CREATE INDEX IF NOT EXISTS %[1]srush_runs_account ON %[1]srush_runs(account, started);
CREATE INDEX IF NOT EXISTS %[1]srush_runs_best ON %[1]srush_runs(lexicon, mode, solved);
CREATE UNIQUE INDEX IF NOT EXISTS %[1]srush_runs_once ON %[1]srush_runs(account, lexicon, mode, seed) WHERE mode = '%[3]s' AND account <> '';
`, prefix, integer, RushOnce)
}

// RushOnce is the mode of rush an account plays once per seed (the
// daily rush: one seed a day): StartRush refuses a second run of it.
const RushOnce = "daily"

// rushCols are the columns of a run, in the order of scanRushRuns.
const rushCols = `id, account, lexicon, mode, seed, started, deadline, puzzle, solved, misses, ended`

// rushSQL holds the statements of the rushes for one database.
type rushSQL struct {
	insert, prune, get, find, advance, end, runs, bests, leaders, seedLeaders string
}

// newRushSQL writes the statements for a database whose tables' names
// begin with prefix and whose placeholders arg writes.
func newRushSQL(prefix string, arg func(int) string) rushSQL {
	a := make([]any, 12)
	for i := range a {
		a[i] = arg(i + 1)
	}
	f := func(format string) string { return fmt.Sprintf(format, append([]any{prefix}, a...)...) }
	bests := func(where, same, name, join, order string) string {
		return f(rushBestsSQL(where, same, name, join, order))
	}
	return rushSQL{
		insert: f(`INSERT INTO %[1]srush_runs(` + rushCols + `) VALUES (%[2]s, %[3]s, %[4]s, %[5]s, %[6]s, %[7]s, %[8]s, %[9]s, %[10]s, %[11]s, %[12]s)`),
		prune:  f(`DELETE FROM %[1]srush_runs WHERE account = '' AND started < %[2]s`),
		get:    f(`SELECT ` + rushCols + ` FROM %[1]srush_runs WHERE id = %[2]s`),
		find:   f(`SELECT ` + rushCols + ` FROM %[1]srush_runs WHERE account = %[2]s AND lexicon = %[3]s AND mode = %[4]s AND seed = %[5]s ORDER BY started, id` + byBytes(prefix)),
		// An answer moves the run on from the puzzle it answered, and
		// only from it: of two answers to one puzzle, one counts.
		advance: f(`UPDATE %[1]srush_runs SET puzzle = puzzle + 1, solved = solved + %[4]s, misses = misses + %[5]s, ended = %[6]s
			WHERE id = %[2]s AND puzzle = %[3]s AND ended = 0`),
		end:   f(`UPDATE %[1]srush_runs SET ended = %[3]s WHERE id = %[2]s AND ended = 0`),
		runs:  f(`SELECT ` + rushCols + ` FROM %[1]srush_runs WHERE account = %[2]s ORDER BY started DESC, id` + byBytes(prefix) + ` LIMIT %[3]s`),
		bests: bests(`r.account = %[2]s`, ``, `'' AS name`, ``, `b.lexicon`+byBytes(prefix)+`, b.mode`+byBytes(prefix)),
		leaders: bests(`r.lexicon = %[2]s AND r.mode = %[3]s AND r.account <> ''`, ``, `a.name`,
			`JOIN %[1]saccounts a ON a.key = b.account WHERE b.best > 0 AND b.account NOT IN (SELECT account FROM %[1]ssuspensions)`,
			`b.best DESC, first_at, a.name`+byBytes(prefix)+` LIMIT %[4]s`),
		seedLeaders: bests(`r.lexicon = %[2]s AND r.mode = %[3]s AND r.seed = %[5]s AND r.account <> ''`, ` AND o.seed = %[5]s`, `a.name`,
			`JOIN %[1]saccounts a ON a.key = b.account WHERE b.best > 0 AND b.account NOT IN (SELECT account FROM %[1]ssuspensions)`,
			`b.best DESC, first_at, a.name`+byBytes(prefix)+` LIMIT %[4]s`),
	}
}

// rushBestsSQL writes a query of the best runs of the accounts whose
// runs match where, one a word list and mode, with the name column
// name, joined and filtered by join, in order: the most solved and
// when the first run that solved them started (runs level rank by
// who got there first), and the runs played. same narrows the runs
// (o) among which that first run is sought as where narrows those
// counted (r), beyond the account, word list and mode: the first run
// must be one of those counted.
func rushBestsSQL(where, same, name, join, order string) string {
	return `SELECT b.account, ` + name + `, b.lexicon, b.mode, b.best,
		(SELECT MIN(o.started) FROM %[1]srush_runs o WHERE o.account = b.account AND o.lexicon = b.lexicon AND o.mode = b.mode AND o.solved = b.best` + same + `) AS first_at,
		b.runs
		FROM (SELECT r.account, r.lexicon, r.mode, MAX(r.solved) AS best, COUNT(*) AS runs FROM %[1]srush_runs r
			WHERE ` + where + ` GROUP BY r.account, r.lexicon, r.mode) b ` + join + ` ORDER BY ` + order
}

var (
	sqliteRushSQL = newRushSQL("", sqliteNumArg)
	pgRushSQL     = newRushSQL("atril_", pgArg)
)

// checkRush refuses a run the store must not keep.
func checkRush(r *RushRun) error {
	if r.ID == "" || r.Lexicon == "" || r.Mode == "" || r.Started.IsZero() || r.Puzzle != 0 || r.Solved != 0 || r.Misses != 0 || !r.Ended.IsZero() {
		return fmt.Errorf("store: rush %q: not a new run", r.ID)
	}
	return nil
}

// rushArgs are the values of rushCols for r.
func rushArgs(r *RushRun) []any {
	return []any{r.ID, r.Account, r.Lexicon, r.Mode, int64(r.Seed), r.Started.UnixNano(), nanos(r.Deadline), r.Puzzle, r.Solved, r.Misses, nanos(r.Ended)}
}

// nanos is t in nanoseconds since 1970, 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// timeOf is the time of nanoseconds since 1970, the zero time for 0.
func timeOf(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}

// scanRushRuns reads rows of rushCols.
func scanRushRuns(rows rowScanner) ([]RushRun, error) {
	var out []RushRun
	for rows.Next() {
		var r RushRun
		var seed, started, deadline, ended int64
		if err := rows.Scan(&r.ID, &r.Account, &r.Lexicon, &r.Mode, &seed, &started, &deadline, &r.Puzzle, &r.Solved, &r.Misses, &ended); err != nil {
			return nil, err
		}
		r.Seed, r.Started, r.Deadline, r.Ended = uint64(seed), timeOf(started), timeOf(deadline), timeOf(ended)
		out = append(out, r)
	}
	return out, rows.Err()
}

// scanRushBests reads rows of the bests' and leaders' statements.
func scanRushBests(rows rowScanner) ([]RushBest, error) {
	var out []RushBest
	for rows.Next() {
		var b RushBest
		var at int64
		if err := rows.Scan(&b.Account, &b.Name, &b.Lexicon, &b.Mode, &b.Solved, &at, &b.Runs); err != nil {
			return nil, err
		}
		b.At = timeOf(at)
		out = append(out, b)
	}
	return out, rows.Err()
}

// dbFuncs are a database's statements run and queried, whichever the
// database: what the rushes and the messages need of it.
type dbFuncs struct {
	// exec runs a statement and returns the rows it changed.
	exec  func(ctx context.Context, q string, args ...any) (int64, error)
	query func(ctx context.Context, q string, args ...any) (closingRows, error)
	// one runs a query answering one number.
	one func(ctx context.Context, q string, args ...any) (int, error)
}

// funcs are the SQLite database's dbFuncs.
func (s *SQLite) funcs() dbFuncs {
	return dbFuncs{
		exec: func(ctx context.Context, q string, args ...any) (int64, error) {
			res, err := s.db.ExecContext(ctx, q, args...)
			if err != nil {
				return 0, err
			}
			return res.RowsAffected()
		},
		query: func(ctx context.Context, q string, args ...any) (closingRows, error) {
			rows, err := s.db.QueryContext(ctx, q, args...)
			c := sqlRows(rows, err)
			return c, c.err
		},
		one: func(ctx context.Context, q string, args ...any) (int, error) {
			var n int
			err := s.db.QueryRowContext(ctx, q, args...).Scan(&n)
			return n, err
		},
	}
}

// funcs are the PostgreSQL database's dbFuncs.
func (s *Postgres) funcs() dbFuncs {
	return dbFuncs{
		exec: func(ctx context.Context, q string, args ...any) (int64, error) {
			tag, err := s.pool.Exec(ctx, q, args...)
			return tag.RowsAffected(), err
		},
		query: func(ctx context.Context, q string, args ...any) (closingRows, error) {
			rows, err := s.pool.Query(ctx, q, args...)
			c := pgRows(rows, err)
			return c, c.err
		},
		one: func(ctx context.Context, q string, args ...any) (int, error) {
			var n int
			err := s.pool.QueryRow(ctx, q, args...).Scan(&n)
			return n, err
		},
	}
}

// queryAll runs query q through d and reads its rows with scan; an
// error says what was read.
func queryAll[T any](ctx context.Context, d dbFuncs, scan func(rowScanner) ([]T, error), what, q string, args ...any) ([]T, error) {
	rows, err := d.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.close()
	out, err := scan(rows.rowScanner)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}

// rushDB is what the rushes need of a database, whichever it is.
type rushDB struct {
	dbFuncs
	q *rushSQL
	// inOpen runs a write in a transaction once accounts are found open.
	inOpen func(ctx context.Context, keys []string, fn func(dbFuncs) error) error
}

func (d rushDB) start(ctx context.Context, r *RushRun) error {
	wrap := func(err error) error { return fmt.Errorf("store: start rush %q: %w", r.ID, err) }
	if err := checkRush(r); err != nil {
		return err
	}
	if _, err := d.exec(ctx, d.q.prune, r.Started.Add(-RushGuestKept).UnixNano()); err != nil {
		return wrap(err)
	}
	insert := func(db dbFuncs) error {
		_, err := db.exec(ctx, d.q.insert, rushArgs(r)...)
		return err
	}
	var err error
	if r.Account == "" {
		err = insert(d.dbFuncs) // a guest's
	} else {
		err = d.inOpen(ctx, []string{r.Account}, insert)
	}
	if err != nil {
		if isUniqueViolation(err) || isConstraint(err) {
			err = ErrConflict
		}
		return wrap(err)
	}
	return nil
}

func (d rushDB) run(ctx context.Context, id string) (*RushRun, error) {
	rs, err := queryAll(ctx, d.dbFuncs, scanRushRuns, fmt.Sprintf("rush %q", id), d.q.get, id)
	if err == nil && len(rs) == 0 {
		err = fmt.Errorf("store: rush %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &rs[0], nil
}

func (d rushDB) find(ctx context.Context, key, lexicon, mode string, seed uint64) ([]RushRun, error) {
	return queryAll(ctx, d.dbFuncs, scanRushRuns, fmt.Sprintf("rushes of %q in %s %s %d", key, lexicon, mode, seed), d.q.find, key, lexicon, mode, int64(seed))
}

func (d rushDB) advance(ctx context.Context, id string, puzzle int, solved bool, end time.Time) (*RushRun, error) {
	s, m := 0, 1
	if solved {
		s, m = 1, 0
	}
	n, err := d.exec(ctx, d.q.advance, id, puzzle, s, m, nanos(end))
	if err != nil {
		return nil, fmt.Errorf("store: rush %q, puzzle %d: %w", id, puzzle, err)
	}
	r, err := d.run(ctx, id)
	if err == nil && n == 0 {
		err = fmt.Errorf("store: rush %q, puzzle %d: answered already or over: %w", id, puzzle, ErrConflict)
	}
	return r, err
}

func (d rushDB) end(ctx context.Context, id string, at time.Time) (*RushRun, error) {
	if _, err := d.exec(ctx, d.q.end, id, at.UnixNano()); err != nil {
		return nil, fmt.Errorf("store: end rush %q: %w", id, err)
	}
	return d.run(ctx, id)
}

func (d rushDB) runs(ctx context.Context, key string, n int) ([]RushRun, error) {
	return queryAll(ctx, d.dbFuncs, scanRushRuns, fmt.Sprintf("rushes of %q", key), d.q.runs, key, n)
}

func (d rushDB) bests(ctx context.Context, what, q string, args ...any) ([]RushBest, error) {
	return queryAll(ctx, d.dbFuncs, scanRushBests, what, q, args...)
}

// rushes is the SQLite database's rushDB.
func (s *SQLite) rushes() rushDB { return rushDB{s.funcs(), &sqliteRushSQL, s.inOpenTx} }

// rushes is the PostgreSQL database's rushDB.
func (s *Postgres) rushes() rushDB { return rushDB{s.funcs(), &pgRushSQL, s.inOpenTx} }

// StartRush implements Accounts.
func (s *SQLite) StartRush(ctx context.Context, r *RushRun) error { return s.rushes().start(ctx, r) }

// Rush implements Accounts.
func (s *SQLite) Rush(ctx context.Context, id string) (*RushRun, error) {
	return s.rushes().run(ctx, id)
}

// AdvanceRush implements Accounts.
func (s *SQLite) AdvanceRush(ctx context.Context, id string, puzzle int, solved bool, end time.Time) (*RushRun, error) {
	return s.rushes().advance(ctx, id, puzzle, solved, end)
}

// EndRush implements Accounts.
func (s *SQLite) EndRush(ctx context.Context, id string, at time.Time) (*RushRun, error) {
	return s.rushes().end(ctx, id, at)
}

// RushRuns implements Accounts.
func (s *SQLite) RushRuns(ctx context.Context, key string, n int) ([]RushRun, error) {
	return s.rushes().runs(ctx, key, n)
}

// RushBests implements Accounts.
func (s *SQLite) RushBests(ctx context.Context, key string) ([]RushBest, error) {
	return s.rushes().bests(ctx, fmt.Sprintf("best rushes of %q", key), sqliteRushSQL.bests, key)
}

// RushLeaders implements Accounts.
func (s *SQLite) RushLeaders(ctx context.Context, lexicon, mode string, seed uint64, n int) ([]RushBest, error) {
	if seed != 0 {
		return s.rushes().bests(ctx, fmt.Sprintf("rush leaders of %s %s %d", lexicon, mode, seed), sqliteRushSQL.seedLeaders, lexicon, mode, n, int64(seed))
	}
	return s.rushes().bests(ctx, fmt.Sprintf("rush leaders of %s %s", lexicon, mode), sqliteRushSQL.leaders, lexicon, mode, n)
}

// RushFind implements Accounts.
func (s *SQLite) RushFind(ctx context.Context, key, lexicon, mode string, seed uint64) ([]RushRun, error) {
	return s.rushes().find(ctx, key, lexicon, mode, seed)
}

// StartRush implements Accounts.
func (s *Postgres) StartRush(ctx context.Context, r *RushRun) error { return s.rushes().start(ctx, r) }

// Rush implements Accounts.
func (s *Postgres) Rush(ctx context.Context, id string) (*RushRun, error) {
	return s.rushes().run(ctx, id)
}

// AdvanceRush implements Accounts.
func (s *Postgres) AdvanceRush(ctx context.Context, id string, puzzle int, solved bool, end time.Time) (*RushRun, error) {
	return s.rushes().advance(ctx, id, puzzle, solved, end)
}

// EndRush implements Accounts.
func (s *Postgres) EndRush(ctx context.Context, id string, at time.Time) (*RushRun, error) {
	return s.rushes().end(ctx, id, at)
}

// RushRuns implements Accounts.
func (s *Postgres) RushRuns(ctx context.Context, key string, n int) ([]RushRun, error) {
	return s.rushes().runs(ctx, key, n)
}

// RushBests implements Accounts.
func (s *Postgres) RushBests(ctx context.Context, key string) ([]RushBest, error) {
	return s.rushes().bests(ctx, fmt.Sprintf("best rushes of %q", key), pgRushSQL.bests, key)
}

// RushLeaders implements Accounts.
func (s *Postgres) RushLeaders(ctx context.Context, lexicon, mode string, seed uint64, n int) ([]RushBest, error) {
	if seed != 0 {
		return s.rushes().bests(ctx, fmt.Sprintf("rush leaders of %s %s %d", lexicon, mode, seed), pgRushSQL.seedLeaders, lexicon, mode, n, int64(seed))
	}
	return s.rushes().bests(ctx, fmt.Sprintf("rush leaders of %s %s", lexicon, mode), pgRushSQL.leaders, lexicon, mode, n)
}

// RushFind implements Accounts.
func (s *Postgres) RushFind(ctx context.Context, key, lexicon, mode string, seed uint64) ([]RushRun, error) {
	return s.rushes().find(ctx, key, lexicon, mode, seed)
}
