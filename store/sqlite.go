package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"net/url"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// SQLite is the Store kept in one SQLite file.
//
// Writes (new games, appended events, finished games) are committed in
// groups: one writer goroutine takes every write waiting at the time,
// makes them in one transaction and syncs the file once, then answers
// each caller. Each caller still returns only after its own write is
// durable, but many games share one sync.
type SQLite struct {
	db   *sql.DB
	path string
	// The statements of the writes, prepared once; insertEvents[k]
	// appends 2^k events (k ≥ 1).
	insertEvent, insertGame, finishGame *sql.Stmt
	insertEvents                        [maxBatchLog + 1]*sql.Stmt

	reqs chan *appendReq
	quit chan struct{}
	done chan struct{}
	once sync.Once

	// ckpt is a second connection on which checkpointer copies the WAL
	// into the database file, so that the writer never does it inside a
	// commit; kick tells it that a commit happened.
	ckpt     *sql.DB
	kick     chan struct{}
	ckptDone chan struct{}
	walMax   int // walMaxFrames, but for tests
}

// appendReq is one write waiting for the writer: an Append, or with op
// set a CreateGame or a Finish.
type appendReq struct {
	ctx context.Context
	op  writeOp
	id  string
	e   Event
	g   *Game  // opCreate
	s   string // opCreate: the seats as JSON
	err chan error
}

// writeOp is the kind of a write.
type writeOp uint8

const (
	opAppend writeOp = iota
	opCreate
	opFinish
)

// maxGroup bounds the writes committed in one transaction.
const maxGroup = 512

const sqliteSchema = `
CREATE TABLE IF NOT EXISTS games (
	id       TEXT PRIMARY KEY,
	variant  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	seed     INTEGER NOT NULL,
	seats    TEXT NOT NULL,
	created  INTEGER NOT NULL,
	finished INTEGER NOT NULL DEFAULT 0,
	challenge TEXT NOT NULL DEFAULT '',
	rated    INTEGER NOT NULL DEFAULT 0,
	tournament TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS events (
	game TEXT NOT NULL REFERENCES games(id),
	seq  INTEGER NOT NULL,
	kind TEXT NOT NULL,
	data TEXT NOT NULL,
	time INTEGER NOT NULL,
	PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games(finished, created);
`

// OpenSQLite opens (creating if needed) the SQLite store in the file at
// path. Writes are synchronous (journal in WAL mode, synchronous=FULL), so
// an acknowledged write survives a crash of the process or the machine.
// An existing file is checked first (PRAGMA quick_check): a damaged one
// is refused with an error wrapping ErrCorrupt, and RepairSQLite copies
// its intact games into a new file.
func OpenSQLite(path string) (*SQLite, error) {
	db, err := openSQLiteDB(path, "wal_autocheckpoint(0)")
	if err != nil {
		return nil, err
	}
	if err := quickCheck(db, path); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := db.Exec(sqliteSchema); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create sqlite schema in %s: %w", path, err))
	}
	// Files made before games had a challenge rule or could be rated
	// get the columns.
	if err := addColumns(db, "games", newerGameColumns); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: add the newer columns of games in %s: %w", path, err))
	}
	if _, err := db.Exec(sqliteAccountsSchema); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the accounts' tables in %s: %w", path, err))
	}
	for _, t := range newerAccountColumns {
		if err := addColumns(db, t.table, t.cols); err != nil {
			db.Close()
			return nil, corruptOr(path, fmt.Errorf("store: add the newer columns of %s in %s: %w", t.table, path, err))
		}
	}
	if _, err := db.Exec(cardsSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the cardboxes' table in %s: %w", path, err))
	}
	if _, err := db.Exec(lobbyChatSchema("", "INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the lobby chat's table in %s: %w", path, err))
	}
	if _, err := db.Exec(followsSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the follows' table in %s: %w", path, err))
	}
	if _, err := db.Exec(biosSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the bios' table in %s: %w", path, err))
	}
	if _, err := db.Exec(settingsSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the settings' table in %s: %w", path, err))
	}
	if _, err := db.Exec(pushSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the push subscriptions' tables in %s: %w", path, err))
	}
	if err := addColumns(db, "push_subscriptions", []newerColumn{pushNewerColumn}); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: add the newer columns of push_subscriptions in %s: %w", path, err))
	}
	if _, err := db.Exec(passkeysSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the passkeys' tables in %s: %w", path, err))
	}
	if _, err := db.Exec(recoverySchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the recovery codes' table in %s: %w", path, err))
	}
	if _, err := db.Exec(endgamesSchema("", "INTEGER", "REAL")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the endgame answers' table in %s: %w", path, err))
	}
	// Files made before endgame puzzles were rated get the columns of
	// the ratings before and after an answer.
	if err := addColumns(db, "endgame_answers", newerEndgameColumns); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: add the newer columns of endgame_answers in %s: %w", path, err))
	}
	if _, err := db.Exec(puzzlesSchema("", "INTEGER", "REAL")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the puzzle ratings' table in %s: %w", path, err))
	}
	if _, err := db.Exec(watchersSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the watchers' table in %s: %w", path, err))
	}
	if err := addColumns(db, "game_watchers", newerWatcherColumns); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: add the newer columns of game_watchers in %s: %w", path, err))
	}
	if _, err := db.Exec(messagesSchema("", "INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the messages' table in %s: %w", path, err))
	}
	if _, err := db.Exec(rushSchema("", "INTEGER")); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the rushes' table in %s: %w", path, err))
	}
	if _, err := db.Exec(sqliteTournamentsSchema); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: create the tournaments' table in %s: %w", path, err))
	}
	// Appends several by statement rely on the NOT NULL of events.seq,
	// which every file made by this store has; a file without it gets
	// one event per statement.
	var seqNotNull bool
	if err := db.QueryRow(`SELECT "notnull" FROM pragma_table_info('events') WHERE name = 'seq'`).Scan(&seqNotNull); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: read the schema of %s: %w", path, err))
	}
	s := &SQLite{db: db, path: path, reqs: make(chan *appendReq), quit: make(chan struct{}), done: make(chan struct{}),
		kick: make(chan struct{}, 1), ckptDone: make(chan struct{}), walMax: walMaxFrames}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{{&s.insertEvent, insertEventSQL}, {&s.insertGame, insertGameSQL}, {&s.finishGame, finishGameSQL},
		{&s.insertEvents[1], insertEventsSQL(2)}, {&s.insertEvents[2], insertEventsSQL(4)}, {&s.insertEvents[3], insertEventsSQL(8)},
		{&s.insertEvents[4], insertEventsSQL(16)}, {&s.insertEvents[5], insertEventsSQL(32)}} {
		if p.stmt != &s.insertEvent && p.stmt != &s.insertGame && p.stmt != &s.finishGame && !seqNotNull {
			continue // one event per statement (see appendBatch)
		}
		if *p.stmt, err = db.Prepare(p.sql); err != nil {
			s.closeStmts()
			db.Close()
			return nil, corruptOr(path, fmt.Errorf("store: prepare sqlite statements in %s: %w", path, err))
		}
	}
	if s.ckpt, err = openSQLiteDB(path, "wal_autocheckpoint(0)"); err != nil {
		s.closeStmts()
		db.Close()
		return nil, err
	}
	go s.writer()
	go s.checkpointer()
	return s, nil
}

// closeStmts closes the prepared statements.
func (s *SQLite) closeStmts() {
	for _, st := range append([]*sql.Stmt{s.insertEvent, s.insertGame, s.finishGame}, s.insertEvents[:]...) {
		if st != nil {
			st.Close()
		}
	}
}

// openSQLiteDB opens the file at path with the store's settings and
// the extra pragmas given.
func openSQLiteDB(path string, pragmas ...string) (*sql.DB, error) {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	// A page cache of 64 MiB (SQLite's default is 2 MiB) keeps the
	// indexes that every append reads in memory as the file grows.
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(10000)", "foreign_keys(1)", "cache_size(-65536)"} {
		q.Add("_pragma", p)
	}
	// Transactions begin with BEGIN IMMEDIATE: a write takes the file's
	// write lock first, waiting for it up to the busy timeout, instead of
	// starting as a read and failing when it cannot be upgraded.
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	// One connection: SQLite has a single writer anyway, and this keeps
	// every write strictly ordered without busy retries.
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, corruptOr(path, fmt.Errorf("store: open sqlite %s: %w", path, err))
	}
	return db, nil
}

// ErrCorrupt is returned when a database file is damaged.
var ErrCorrupt = errors.New("store: the database file is damaged")

// corruptOr turns SQLite's "malformed" and "not a database" errors into
// a clear refusal that wraps ErrCorrupt; other errors pass unchanged.
func corruptOr(path string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "malformed") || strings.Contains(msg, "SQLITE_CORRUPT") ||
		strings.Contains(msg, "not a database") || strings.Contains(msg, "SQLITE_NOTADB") {
		return fmt.Errorf("%w: %s (%v); repair it (atril serve --repair) to copy every intact game into a new file and keep the damaged one aside", ErrCorrupt, path, err)
	}
	return err
}

// quickCheck runs PRAGMA quick_check and refuses a damaged file.
func quickCheck(db *sql.DB, path string) error {
	rows, err := db.Query("PRAGMA quick_check(5)")
	if err != nil {
		return corruptOr(path, fmt.Errorf("store: check sqlite %s: %w", path, err))
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return corruptOr(path, fmt.Errorf("store: check sqlite %s: %w", path, err))
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return corruptOr(path, fmt.Errorf("store: check sqlite %s: %w", path, err))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s fails its integrity check (%s); repair it (atril serve --repair) to copy every intact game into a new file and keep the damaged one aside",
			ErrCorrupt, path, strings.Join(problems, "; "))
	}
	return nil
}

// commitGap is the least time between the starts of two commits: under
// load, appends that arrive within it share one commit (and one sync of
// the file). An append that finds the writer idle for longer is
// committed at once.
const commitGap = 3 * time.Millisecond

// writer commits appends in groups until the store is closed.
func (s *SQLite) writer() {
	defer close(s.done)
	var last time.Time
	for {
		var group []*appendReq
		select {
		case r := <-s.reqs:
			group = append(group, r)
		case <-s.quit:
			return
		}
		// Gather what waits, and, when the last commit was recent, what
		// comes until commitGap has passed since it.
		var timeout <-chan time.Time
		if wait := time.Until(last.Add(commitGap)); wait > 0 {
			timeout = time.After(wait)
		}
	more:
		for len(group) < maxGroup {
			select {
			case r := <-s.reqs:
				group = append(group, r)
				continue
			default:
			}
			if timeout == nil {
				break
			}
			select {
			case r := <-s.reqs:
				group = append(group, r)
			case <-timeout:
				break more
			}
		}
		last = time.Now()
		errs := s.commitGroup(group)
		for i, r := range group {
			r.err <- errs[i]
		}
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
}

// Checkpoints: SQLite's automatic checkpoint runs inside the commit that
// fills the WAL past 1,000 pages, and that commit (with every append
// waiting behind it) then also waits for the pages to be copied into the
// database file and for that file's sync, every second or so under load.
// Here a second connection checkpoints after commits instead, at most
// every ckptEvery, without blocking the writer (PASSIVE). Under steady
// load the writer keeps adding to the WAL while it is copied, so the WAL
// seldom finds itself all copied and starts again from its beginning:
// once it holds walMaxFrames pages, a checkpoint that blocks the writer
// for the few pages not yet copied (RESTART) makes it start again.
const (
	ckptEvery    = 200 * time.Millisecond
	walMaxFrames = 4096 // 16 MiB of 4 KiB pages
)

// checkpoint copies what it can of the WAL into the database file
// without waiting, and, when the WAL holds more than s.walMax pages,
// waits for the writer to copy the rest so that the next commit starts
// the WAL again from its beginning. An error leaves the work to the next
// checkpoint (or to the close of the store).
func (s *SQLite) checkpoint() {
	var busy, frames, copied int
	err := s.ckpt.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
	if err == nil && frames > s.walMax {
		s.ckpt.Exec("PRAGMA wal_checkpoint(RESTART)")
	}
}

// checkpointer copies the WAL into the database file until the store is
// closed.
func (s *SQLite) checkpointer() {
	defer close(s.ckptDone)
	for {
		select {
		case <-s.kick:
		case <-s.quit:
			return
		}
		s.checkpoint()
		select {
		case <-time.After(ckptEvery):
		case <-s.quit:
			return
		}
	}
}

// commitGroup makes a group of writes in one transaction. A write that
// breaks a rule (unknown game, wrong sequence number, a game id taken)
// fails alone; a failure of the transaction fails them all.
func (s *SQLite) commitGroup(group []*appendReq) []error {
	errs := make([]error, len(group))
	fail := func(err error) []error {
		for i, r := range group {
			if errs[i] == nil {
				errs[i] = r.wrap(err)
			}
		}
		return errs
	}
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	var ins, create, finish *sql.Stmt
	// Appends wait in batch (the indexes of group) to be written several
	// by statement; a batch is written before any other write.
	var batch []int
	for i := 0; i <= len(group); i++ {
		if i < len(group) && group[i].op == opAppend {
			if err := group[i].ctx.Err(); err != nil {
				errs[i] = group[i].wrap(err)
			} else {
				batch = append(batch, i)
			}
			continue
		}
		if len(batch) > 0 {
			if ins == nil {
				ins = tx.StmtContext(ctx, s.insertEvent)
				defer ins.Close()
			}
			if err := s.appendBatch(ctx, tx, ins, group, batch, errs); err != nil {
				return fail(err)
			}
			batch = batch[:0]
		}
		if i == len(group) {
			break
		}
		r := group[i]
		if err := r.ctx.Err(); err != nil {
			errs[i] = r.wrap(err)
			continue
		}
		switch r.op {
		case opCreate:
			if create == nil {
				create = tx.StmtContext(ctx, s.insertGame)
				defer create.Close()
			}
			errs[i] = createTx(ctx, create, r.g, r.s)
		case opFinish:
			if finish == nil {
				finish = tx.StmtContext(ctx, s.finishGame)
				defer finish.Close()
			}
			errs[i] = finishTx(ctx, finish, r.id)
		}
		if errs[i] != nil && !errors.Is(errs[i], ErrConflict) && !errors.Is(errs[i], ErrNotFound) {
			return fail(errs[i])
		}
	}
	if err := tx.Commit(); err != nil {
		for i := range errs {
			errs[i] = nil
		}
		return fail(fmt.Errorf("commit: %w", err))
	}
	return errs
}

// wrap says which write failed with err.
func (r *appendReq) wrap(err error) error {
	switch r.op {
	case opCreate:
		return fmt.Errorf("store: create game %s: %w", r.id, err)
	case opFinish:
		return fmt.Errorf("store: finish game %s: %w", r.id, err)
	}
	return fmt.Errorf("store: append event %d to game %s: %w", r.e.Seq, r.id, err)
}

// write hands r to the writer and returns once it is durable (or failed).
func (s *SQLite) write(ctx context.Context, r *appendReq) error {
	r.ctx, r.err = ctx, make(chan error, 1)
	select {
	case s.reqs <- r:
	case <-s.quit:
		return r.wrap(errors.New("store closed"))
	case <-ctx.Done():
		return r.wrap(ctx.Err())
	}
	// Once handed over, the outcome is waited for even if ctx ends, so
	// the caller never mistakes a durable write for a lost one.
	return <-r.err
}

// maxBatchLog bounds the events appended by one statement: 2^maxBatchLog.
const maxBatchLog = 5

// appendBatch appends the events of group[batch[...]] in statements of
// 2^k events each (fewer statements than events: SQLite's cost per
// statement, and the driver's, is most of an append's). A statement
// writes all its events or none: a sequence number that is not the next
// one of its game is written as NULL, which the NOT NULL constraint
// refuses, as the primary key refuses one taken and the foreign key an
// unknown game. Then the events of that statement are appended one by
// one (appendTx), which tells which of them failed and why. It sets the
// errors of the appends in errs, and returns an error that fails the
// whole transaction.
func (s *SQLite) appendBatch(ctx context.Context, tx *sql.Tx, ins *sql.Stmt, group []*appendReq, batch []int, errs []error) error {
	one := func(i int) error {
		r := group[i]
		errs[i] = appendTx(ctx, tx, ins, r.id, r.e)
		if errs[i] != nil && !errors.Is(errs[i], ErrConflict) && !errors.Is(errs[i], ErrNotFound) {
			return errs[i]
		}
		return nil
	}
	for len(batch) > 0 {
		k := min(bits.Len(uint(len(batch)))-1, maxBatchLog)
		if s.insertEvents[1] == nil {
			k = 0
		}
		n := 1 << k
		chunk := batch[:n]
		batch = batch[n:]
		if n == 1 {
			if err := one(chunk[0]); err != nil {
				return err
			}
			continue
		}
		args := make([]any, 0, 5*n)
		for _, i := range chunk {
			r := group[i]
			args = append(args, r.id, r.e.Seq, r.e.Kind, r.e.Data, r.e.Time.UnixNano())
		}
		st := tx.StmtContext(ctx, s.insertEvents[k])
		res, err := st.ExecContext(ctx, args...)
		st.Close()
		if err == nil {
			if got, err := res.RowsAffected(); err != nil || got != int64(n) {
				return fmt.Errorf("append %d events: %d written (%v)", n, got, err)
			}
			continue
		}
		if !isConstraint(err) {
			return fmt.Errorf("append %d events: %w", n, err)
		}
		for _, i := range chunk {
			if err := one(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// insertEventsSQL appends n events in one statement, each only if its
// seq is the next of its game (else its seq is NULL and the statement
// fails on the NOT NULL constraint, writing none).
func insertEventsSQL(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO events(game, seq, kind, data, time)
	SELECT column1, CASE WHEN column2 = (SELECT COALESCE(MAX(seq)+1, 0) FROM events WHERE game = column1) THEN column2 END, column3, column4, column5
	FROM (VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?,?)")
	}
	b.WriteByte(')')
	return b.String()
}

// isConstraint recognises SQLite's constraint failures.
func isConstraint(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "constraint failed") || strings.Contains(msg, "SQLITE_CONSTRAINT")
}

// CreateGame implements Store. It returns once the game is durable.
func (s *SQLite) CreateGame(ctx context.Context, g *Game) error {
	seats, err := json.Marshal(g.Seats)
	if err != nil {
		return fmt.Errorf("store: game %s: encode seats: %w", g.ID, err)
	}
	return s.write(ctx, &appendReq{op: opCreate, id: g.ID, g: g, s: string(seats)})
}

const insertGameSQL = `INSERT INTO games(id, variant, lexicon, seed, seats, created, finished, challenge, rated, tournament) VALUES (?,?,?,?,?,?,?,?,?,?)`

// newerColumn is a column that files made by earlier versions lack,
// with its declaration (its default is what the rows already stored
// take).
type newerColumn struct{ name, decl string }

// newerGameColumns are the newer columns of games: the games already
// stored keep the void challenge rule, are not rated and belong to no
// tournament.
var newerGameColumns = []newerColumn{
	{"challenge", "TEXT NOT NULL DEFAULT ''"},
	{"rated", "INTEGER NOT NULL DEFAULT 0"},
	{"tournament", "TEXT NOT NULL DEFAULT ''"},
}

// newerAccountColumns are the newer columns of the accounts' tables, by
// table: the results recorded before every finished game was were all
// of rated games, between people, and the results recorded before the
// seats' play was kept say nothing of it (0 turns), nor do those
// recorded before their moves were analysed (0 analysed).
var newerAccountColumns = []struct {
	table string
	cols  []newerColumn
}{
	{"rated_games", []newerColumn{{"rated", "INTEGER NOT NULL DEFAULT 1"}}},
	{"rated_seats", []newerColumn{{"level", "TEXT NOT NULL DEFAULT ''"},
		{"turns", "INTEGER NOT NULL DEFAULT 0"}, {"bingos", "INTEGER NOT NULL DEFAULT 0"}, {"best_move", "INTEGER NOT NULL DEFAULT 0"},
		{"analysed", "INTEGER NOT NULL DEFAULT 0"}, {"top_moves", "INTEGER NOT NULL DEFAULT 0"}, {"lost", "REAL NOT NULL DEFAULT 0"}}},
	{"puzzle_answers", []newerColumn{{"r_before", "REAL NOT NULL DEFAULT 0"}, {"r_after", "REAL NOT NULL DEFAULT 0"}}},
}

// newerEndgameColumns are the newer columns of the endgame answers: an
// answer recorded before endgame puzzles were rated was not rated.
var newerEndgameColumns = []newerColumn{{"r_before", "REAL NOT NULL DEFAULT 0"}, {"r_after", "REAL NOT NULL DEFAULT 0"}}

// hasColumn reports whether table of db has a column.
func hasColumn(db *sql.DB, table, name string) (bool, error) {
	var n int
	err := db.QueryRow(`SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?`, table, name).Scan(&n)
	return n > 0, err
}

// addColumns adds to table the columns of cols it lacks.
func addColumns(db *sql.DB, table string, cols []newerColumn) error {
	for _, c := range cols {
		has, err := hasColumn(db, table, c.name)
		if err != nil {
			return err
		}
		if !has {
			if _, err := db.Exec(`ALTER TABLE ` + table + ` ADD COLUMN ` + c.name + ` ` + c.decl); err != nil {
				return err
			}
		}
	}
	return nil
}

// createTx inserts a game header inside a transaction, with ins
// (insertGameSQL prepared in it).
func createTx(ctx context.Context, ins *sql.Stmt, g *Game, seats string) error {
	_, err := ins.ExecContext(ctx, g.ID, g.Variant, g.Lexicon, int64(g.Seed), seats, g.Created.UnixNano(), boolInt(g.Finished), g.Challenge, boolInt(g.Rated), g.Tournament)
	if err != nil {
		if isUniqueViolation(err) {
			return fmt.Errorf("store: create game %s: %w", g.ID, ErrConflict)
		}
		return fmt.Errorf("store: create game %s: %w", g.ID, err)
	}
	return nil
}

// Append implements Store. It returns once the event is durable.
func (s *SQLite) Append(ctx context.Context, id string, e Event) error {
	return s.write(ctx, &appendReq{op: opAppend, id: id, e: e})
}

// insertEventSQL inserts an event only if its seq is the next of its
// game: one statement, prepared once. The foreign key refuses an unknown
// game.
const insertEventSQL = `INSERT INTO events(game, seq, kind, data, time)
	SELECT ?1, ?2, ?3, ?4, ?5 WHERE ?2 = (SELECT COALESCE(MAX(seq)+1, 0) FROM events WHERE game = ?1)`

// appendTx checks and inserts one event inside a transaction, with ins
// (insertEventSQL prepared in it).
func appendTx(ctx context.Context, tx *sql.Tx, ins *sql.Stmt, id string, e Event) error {
	res, err := ins.ExecContext(ctx, id, e.Seq, e.Kind, e.Data, e.Time.UnixNano())
	if err != nil {
		switch {
		case isUniqueViolation(err):
			return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, ErrConflict)
		case strings.Contains(err.Error(), "FOREIGN KEY"):
			return fmt.Errorf("store: append to game %s: %w", id, ErrNotFound)
		}
		return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 1 {
		return nil
	}
	// Not written: an unknown game or a seq that is not the next one.
	var exists, next int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE id = ?`, id).Scan(&exists); err != nil {
		return fmt.Errorf("store: append to game %s: %w", id, err)
	}
	if exists == 0 {
		return fmt.Errorf("store: append to game %s: %w", id, ErrNotFound)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq)+1, 0) FROM events WHERE game = ?`, id).Scan(&next); err != nil {
		return fmt.Errorf("store: append to game %s: %w", id, err)
	}
	return fmt.Errorf("store: append event %d to game %s (next is %d): %w", e.Seq, id, next, ErrConflict)
}

// Finish implements Store. It returns once the mark is durable.
func (s *SQLite) Finish(ctx context.Context, id string) error {
	return s.write(ctx, &appendReq{op: opFinish, id: id})
}

const finishGameSQL = `UPDATE games SET finished = 1 WHERE id = ?`

// finishTx marks a game finished inside a transaction, with upd
// (finishGameSQL prepared in it).
func finishTx(ctx context.Context, upd *sql.Stmt, id string) error {
	res, err := upd.ExecContext(ctx, id)
	if err != nil {
		return fmt.Errorf("store: finish game %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: finish game %s: %w", id, ErrNotFound)
	}
	return nil
}

// CreateFinishedGame implements Store, in a transaction of its own (the
// writer's groups commit each write apart). It returns once the game is
// durable.
func (s *SQLite) CreateFinishedGame(ctx context.Context, g *Game, evs []Event) error {
	seats, err := json.Marshal(g.Seats)
	if err != nil {
		return fmt.Errorf("store: game %s: encode seats: %w", g.ID, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: create finished game %s: %w", g.ID, err)
	}
	defer tx.Rollback()
	create := tx.StmtContext(ctx, s.insertGame)
	defer create.Close()
	over := *g
	over.Finished = true
	if err := createTx(ctx, create, &over, string(seats)); err != nil {
		return err
	}
	ins := tx.StmtContext(ctx, s.insertEvent)
	defer ins.Close()
	for _, e := range evs {
		if err := appendTx(ctx, tx, ins, g.ID, e); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: create finished game %s: commit: %w", g.ID, err)
	}
	g.Finished = true
	return nil
}

// Load implements Store.
func (s *SQLite) Load(ctx context.Context, id string) (*Game, []Event, error) {
	g := &Game{ID: id}
	var seed, created, finished, rated int64
	var seats string
	err := s.db.QueryRowContext(ctx, `SELECT variant, lexicon, seed, seats, created, finished, challenge, rated, tournament FROM games WHERE id = ?`, id).
		Scan(&g.Variant, &g.Lexicon, &seed, &seats, &created, &finished, &g.Challenge, &rated, &g.Tournament)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("store: load game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: load game %s: %w", id, err)
	}
	g.Finished, g.Rated = finished != 0, rated != 0
	if err := decodeHeader(g, seed, created, seats); err != nil {
		return nil, nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, data, time FROM events WHERE game = ? ORDER BY seq`, id)
	if err != nil {
		return nil, nil, fmt.Errorf("store: load events of game %s: %w", id, err)
	}
	defer rows.Close()
	evs, err := scanEvents(rows)
	if err != nil {
		return nil, nil, fmt.Errorf("store: load events of game %s: %w", id, err)
	}
	return g, evs, nil
}

// Unfinished implements Store.
func (s *SQLite) Unfinished(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM games WHERE finished = 0 ORDER BY created, id`)
	if err != nil {
		return nil, fmt.Errorf("store: list unfinished games: %w", err)
	}
	defer rows.Close()
	ids, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: list unfinished games: %w", err)
	}
	return ids, nil
}

// Migrate implements Store. The data version is SQLite's user_version.
func (s *SQLite) Migrate(ctx context.Context, version int, fn MigrateFunc) (int, error) {
	fail := func(err error) (int, error) {
		return 0, fmt.Errorf("store: migrate %s to data version %d: %w", s.path, version, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	var have int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&have); err != nil {
		return fail(err)
	}
	if have >= version {
		return 0, nil
	}
	var games []*Game
	rows, err := tx.QueryContext(ctx, `SELECT id, variant, lexicon, seed, seats, created, finished, challenge, rated, tournament FROM games ORDER BY id`)
	if err != nil {
		return fail(err)
	}
	for rows.Next() {
		g := &Game{}
		var seed, created, finished, rated int64
		var seats string
		if err := rows.Scan(&g.ID, &g.Variant, &g.Lexicon, &seed, &seats, &created, &finished, &g.Challenge, &rated, &g.Tournament); err != nil {
			rows.Close()
			return fail(err)
		}
		g.Finished, g.Rated = finished != 0, rated != 0
		if err := decodeHeader(g, seed, created, seats); err != nil {
			rows.Close()
			return fail(err)
		}
		games = append(games, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	n := 0
	for _, g := range games {
		rows, err := tx.QueryContext(ctx, `SELECT seq, kind, data, time FROM events WHERE game = ? ORDER BY seq`, g.ID)
		if err != nil {
			return fail(err)
		}
		evs, err := scanEvents(rows)
		rows.Close()
		if err != nil {
			return fail(err)
		}
		changed, err := migrateGame(g, evs, fn)
		if err != nil {
			return fail(err)
		}
		for _, e := range changed {
			if _, err := tx.ExecContext(ctx, `UPDATE events SET data = ? WHERE game = ? AND seq = ?`, e.Data, g.ID, e.Seq); err != nil {
				return fail(err)
			}
		}
		n += len(changed)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, version)); err != nil {
		return fail(err)
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return n, nil
}

// DataVersion implements Store.
func (s *SQLite) DataVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("store: data version of %s: %w", s.path, err)
	}
	return v, nil
}

// Close implements Store.
func (s *SQLite) Close() error {
	s.once.Do(func() { close(s.quit) })
	<-s.done
	<-s.ckptDone
	s.ckpt.Close()
	s.closeStmts()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close sqlite %s: %w", s.path, err)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isUniqueViolation recognises a primary-key or unique violation from
// either driver's error text.
func isUniqueViolation(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "constraint failed: UNIQUE") ||
		strings.Contains(msg, "SQLSTATE 23505") || strings.Contains(msg, "duplicate key")
}
