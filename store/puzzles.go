package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Puzzles: an account's first answer to each puzzle, and the puzzle
// ratings those answers make. An account has a puzzle rating per word
// list, and so has each puzzle: a first answer is a game between the two,
// won by the account when it solved the puzzle.

// PuzzleRecord is an account's first answer to a puzzle: the puzzle (a
// word list and a number), whether the play scored the most, the play's
// score (−1 when the solution was asked for instead), when, and the
// account's puzzle rating in the word list before and after the answer
// (both 0 for an answer that was not rated).
type PuzzleRecord struct {
	Lexicon         string
	Number          int
	Correct         bool
	Score           int
	Answered        time.Time
	RBefore, RAfter float64
}

// PuzzleRating is a puzzle rating: an account's in a word list (Number
// 0) or a puzzle's (Account ""), with the first answers it counts and
// how many of them solved the puzzle. Name is the account's name, which
// only PuzzleLeaderboard fills in.
type PuzzleRating struct {
	Account  string
	Name     string
	Lexicon  string
	Number   int
	R, RD    float64
	Vol      float64
	Answered int
	Solved   int
	Updated  time.Time
}

// PuzzleRateFunc works out the ratings after an account's first answer
// to a puzzle from those before it: the account's puzzle rating in the
// puzzle's word list and the puzzle's own. A rating that does not exist
// yet comes with R, RD and Vol 0: the function fills in a newcomer's
// there, which the record keeps as the rating before the answer. It
// returns the two new ratings; their R, RD and Vol are what the store
// keeps of them.
type PuzzleRateFunc func(account, puzzle *PuzzleRating) (PuzzleRating, PuzzleRating, error)

// puzzlesSchema holds the puzzle ratings, those of the puzzles to score
// (puzzle_ratings) and those of the endgame puzzles (endgame_ratings),
// kept apart as they measure different skills (prefix begins the
// tables' names; integer is the type of the times, nanoseconds since
// 1970, and real that of the ratings).
func puzzlesSchema(prefix, integer, real string) string {
	var b strings.Builder
	for _, table := range []string{"puzzle_ratings", "endgame_ratings"} {
		fmt.Fprintf(&b, `
CREATE TABLE IF NOT EXISTS %[1]s%[4]s (
	account  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	number   INTEGER NOT NULL,
	r        %[3]s NOT NULL,
	rd       %[3]s NOT NULL,
	vol      %[3]s NOT NULL,
	answered INTEGER NOT NULL,
	solved   INTEGER NOT NULL,
	updated  %[2]s NOT NULL,
	PRIMARY KEY (account, lexicon, number)
);
CREATE INDEX IF NOT EXISTS %[1]s%[4]s_puzzles ON %[1]s%[4]s(lexicon, account, number);
`, prefix, integer, real, table)
	}
	return b.String()
}

// puzzleRatingCols are the columns of a puzzle rating, in the order of
// scanPuzzleRatings.
const puzzleRatingCols = `account, lexicon, number, r, rd, vol, answered, solved, updated`

// puzzleRecordCols are the columns of an answer, in the order of
// scanPuzzleRecords.
const puzzleRecordCols = `lexicon, number, correct, score, answered, r_before, r_after`

// scanPuzzleRatings reads rows of puzzleRatingCols, followed by the
// account's name if named.
func scanPuzzleRatings(rows rowScanner, what string, named bool) ([]PuzzleRating, error) {
	var out []PuzzleRating
	for rows.Next() {
		var r PuzzleRating
		var updated int64
		dest := []any{&r.Account, &r.Lexicon, &r.Number, &r.R, &r.RD, &r.Vol, &r.Answered, &r.Solved, &updated}
		if named {
			dest = append(dest, &r.Name)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		r.Updated = time.Unix(0, updated).UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}

// onePuzzleRecord reads the one answer rows hold (ErrNotFound if none).
func onePuzzleRecord(rows rowScanner, key, lexicon string, number int) (*PuzzleRecord, error) {
	rs, err := scanPuzzleRecords(rows, key)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("store: %q's answer to puzzle %s %d: %w", key, lexicon, number, ErrNotFound)
	}
	return &rs[0], nil
}

// scanPuzzleRecords reads rows of puzzleRecordCols.
func scanPuzzleRecords(rows rowScanner, key string) ([]PuzzleRecord, error) {
	var out []PuzzleRecord
	for rows.Next() {
		var r PuzzleRecord
		var answered int64
		if err := rows.Scan(&r.Lexicon, &r.Number, &r.Correct, &r.Score, &answered, &r.RBefore, &r.RAfter); err != nil {
			return nil, fmt.Errorf("store: puzzles of %q: %w", key, err)
		}
		r.Answered = time.Unix(0, answered).UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: puzzles of %q: %w", key, err)
	}
	return out, nil
}

// puzzleSQL holds the statements of the puzzles to score for one
// database: their answers', and their ratings'.
type puzzleSQL struct {
	insert, rated, record, records, numbers, counts string
	ratingSQL
}

// ratingSQL holds the statements of one table of puzzle ratings.
type ratingSQL struct {
	placeholder, lock, update, ratings, levels, level, leaders string
}

// sqlFormatter returns a function that writes a statement for a database
// whose tables' names begin with prefix and whose placeholders arg
// writes: %[1]s in format is the prefix, %[2]s on the placeholders.
func sqlFormatter(prefix string, arg func(int) string) func(format string) string {
	a := make([]any, 10)
	for i := range a {
		a[i] = arg(i + 1)
	}
	return func(format string) string { return fmt.Sprintf(format, append([]any{prefix}, a...)...) }
}

// newPuzzleSQL writes the statements for a database whose tables'
// names begin with prefix, whose placeholders arg writes and whose
// read-for-update ends in forUpdate.
func newPuzzleSQL(prefix string, arg func(int) string, forUpdate string) puzzleSQL {
	f := sqlFormatter(prefix, arg)
	return puzzleSQL{
		insert: f(`INSERT INTO %[1]spuzzle_answers(account, lexicon, number, correct, score, answered, r_before, r_after)
			VALUES (%[2]s, %[3]s, %[4]s, %[5]s, %[6]s, %[7]s, 0, 0) ON CONFLICT DO NOTHING`),
		rated:   f(`UPDATE %[1]spuzzle_answers SET r_before = %[5]s, r_after = %[6]s WHERE account = %[2]s AND lexicon = %[3]s AND number = %[4]s`),
		record:  f(`SELECT ` + puzzleRecordCols + ` FROM %[1]spuzzle_answers WHERE account = %[2]s AND lexicon = %[3]s AND number = %[4]s`),
		records: f(`SELECT ` + puzzleRecordCols + ` FROM %[1]spuzzle_answers WHERE account = %[2]s ORDER BY number DESC, lexicon` + byBytes(prefix) + ` LIMIT %[3]s`),
		numbers: f(`SELECT number FROM %[1]spuzzle_answers WHERE account = %[2]s AND lexicon = %[3]s ORDER BY number`),
		counts: f(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN correct THEN 1 ELSE 0 END), 0) FROM %[1]spuzzle_answers
			WHERE lexicon = %[2]s AND number = %[3]s`),
		ratingSQL: newRatingSQL(prefix+"puzzle_ratings", prefix, arg, forUpdate),
	}
}

// newRatingSQL writes the statements of the ratings' table named table,
// in a database whose tables' names begin with prefix (the accounts').
func newRatingSQL(table, prefix string, arg func(int) string, forUpdate string) ratingSQL {
	f := sqlFormatter(prefix, arg)
	t := func(format string) string { return f(strings.ReplaceAll(format, "%[0]s", table)) }
	return ratingSQL{
		// A rating is created empty (0 answers) before it is read, so
		// that PostgreSQL can lock it for the transaction.
		placeholder: t(`INSERT INTO %[0]s(` + puzzleRatingCols + `) VALUES (%[2]s, %[3]s, %[4]s, 0, 0, 0, 0, 0, 0) ON CONFLICT DO NOTHING`),
		lock:        t(`SELECT ` + puzzleRatingCols + ` FROM %[0]s WHERE account = %[2]s AND lexicon = %[3]s AND number = %[4]s` + forUpdate),
		update: t(`UPDATE %[0]s SET r = %[5]s, rd = %[6]s, vol = %[7]s, answered = %[8]s, solved = %[9]s, updated = %[10]s
			WHERE account = %[2]s AND lexicon = %[3]s AND number = %[4]s`),
		ratings: t(`SELECT ` + puzzleRatingCols + ` FROM %[0]s WHERE account = %[2]s AND number = 0 AND answered > 0 ORDER BY lexicon` + byBytes(prefix)),
		levels:  t(`SELECT ` + puzzleRatingCols + ` FROM %[0]s WHERE lexicon = %[2]s AND account = '' AND answered > 0 ORDER BY number`),
		level:   t(`SELECT ` + puzzleRatingCols + ` FROM %[0]s WHERE account = '' AND lexicon = %[2]s AND number = %[3]s AND answered > 0`),
		// Ranked as the games' leaderboard is: by the rating less twice
		// its deviation, so that a few lucky answers do not top it.
		leaders: t(`SELECT p.account, p.lexicon, p.number, p.r, p.rd, p.vol, p.answered, p.solved, p.updated, a.name
			FROM %[0]s p JOIN %[1]saccounts a ON a.key = p.account
			WHERE p.lexicon = %[2]s AND p.number = 0 AND p.account <> '' AND p.answered > 0
				AND p.account NOT IN (SELECT account FROM %[1]ssuspensions)
			ORDER BY p.r - 2*p.rd DESC, p.r DESC, p.account` + byBytes(prefix) + ` LIMIT %[3]s`),
	}
}

var (
	sqlitePuzzleSQL = newPuzzleSQL("", sqliteNumArg, "")
	pgPuzzleSQL     = newPuzzleSQL("atril_", pgArg, " FOR UPDATE")
)

// puzzleTx is what recording an answer needs of a transaction,
// whichever the database: a statement run (with the rows it changed)
// and a query.
type puzzleTx struct {
	exec  func(q string, args ...any) (int64, error)
	query func(q string, args ...any) ([]PuzzleRating, error)
}

// recordPuzzle records an account's first answer to a puzzle in tx and,
// with rate, rates it (see Accounts.RecordPuzzle).
func recordPuzzle(tx puzzleTx, q *puzzleSQL, key string, r *PuzzleRecord, rate PuzzleRateFunc) (bool, error) {
	n, err := tx.exec(q.insert, key, r.Lexicon, r.Number, r.Correct, r.Score, r.Answered.UnixNano())
	if err != nil || n == 0 || rate == nil {
		return n == 1, err
	}
	if r.RBefore, r.RAfter, err = rateAnswer(tx, &q.ratingSQL, key, r.Lexicon, r.Number, r.Correct, r.Answered, rate); err != nil {
		return false, err
	}
	if _, err := tx.exec(q.rated, key, r.Lexicon, r.Number, r.RBefore, r.RAfter); err != nil {
		return false, err
	}
	return true, nil
}

// rateAnswer rates an account's first answer to puzzle number of a word
// list in tx, in the ratings' table of q: a game between the account's
// rating in the word list and the puzzle's, as rate works it out. It
// returns the account's rating before and after.
func rateAnswer(tx puzzleTx, q *ratingSQL, key, lexicon string, number int, correct bool, at time.Time, rate PuzzleRateFunc) (float64, float64, error) {
	// The account's rating first, then the puzzle's: every transaction
	// locks in the same order.
	var before [2]PuzzleRating
	for i, who := range []struct {
		account string
		number  int
	}{{key, 0}, {"", number}} {
		if _, err := tx.exec(q.placeholder, who.account, lexicon, who.number); err != nil {
			return 0, 0, err
		}
		got, err := tx.query(q.lock, who.account, lexicon, who.number)
		if err != nil {
			return 0, 0, err
		}
		if len(got) != 1 {
			return 0, 0, fmt.Errorf("the puzzle rating of %q in %s %d is missing", who.account, lexicon, who.number)
		}
		before[i] = got[0]
		if before[i].Answered == 0 {
			before[i].R, before[i].RD, before[i].Vol = 0, 0, 0
		}
	}
	a, p, err := rate(&before[0], &before[1])
	if err != nil {
		return 0, 0, err
	}
	solved := 0
	if correct {
		solved = 1
	}
	for i, after := range []PuzzleRating{a, p} {
		b := before[i]
		if _, err := tx.exec(q.update, b.Account, b.Lexicon, b.Number, after.R, after.RD, after.Vol,
			b.Answered+1, b.Solved+solved, at.UnixNano()); err != nil {
			return 0, 0, err
		}
	}
	return before[0].R, a.R, nil
}

// RecordPuzzle implements Accounts.
func (s *SQLite) RecordPuzzle(ctx context.Context, key string, r *PuzzleRecord, rate PuzzleRateFunc) (bool, error) {
	first, err := s.inPuzzleTx(ctx, key, func(tx puzzleTx) (bool, error) { return recordPuzzle(tx, &sqlitePuzzleSQL, key, r, rate) })
	if err != nil {
		return false, puzzleWrap(key, r, err)
	}
	return first, nil
}

// RecordPuzzle implements Accounts.
func (s *Postgres) RecordPuzzle(ctx context.Context, key string, r *PuzzleRecord, rate PuzzleRateFunc) (bool, error) {
	first, err := s.inPuzzleTx(ctx, key, func(tx puzzleTx) (bool, error) { return recordPuzzle(tx, &pgPuzzleSQL, key, r, rate) })
	if err != nil {
		return false, puzzleWrap(key, r, err)
	}
	return first, nil
}

// inPuzzleTx runs fn in a transaction, committed when fn reports that
// it recorded a first answer, once the account of key is found open
// (ErrNotFound otherwise).
func (s *SQLite) inPuzzleTx(ctx context.Context, key string, fn func(puzzleTx) (bool, error)) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if err := s.openInTx(ctx, tx, key); err != nil {
		return false, err
	}
	first, err := fn(puzzleTx{
		exec: func(q string, args ...any) (int64, error) {
			res, err := tx.ExecContext(ctx, q, args...)
			if err != nil {
				return 0, err
			}
			return res.RowsAffected()
		},
		query: func(q string, args ...any) ([]PuzzleRating, error) {
			rows, err := tx.QueryContext(ctx, q, args...)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			return scanPuzzleRatings(rows, "puzzle ratings", false)
		},
	})
	if err == nil && first {
		err = tx.Commit()
	}
	return first && err == nil, err
}

// inPuzzleTx runs fn in a transaction, committed when fn reports that
// it recorded a first answer, once the account of key is found open
// (ErrNotFound otherwise) and with its row held shared.
func (s *Postgres) inPuzzleTx(ctx context.Context, key string, fn func(puzzleTx) (bool, error)) (bool, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(ctx)
	if err := s.openInTx(ctx, tx, key); err != nil {
		return false, err
	}
	first, err := fn(puzzleTx{
		exec: func(q string, args ...any) (int64, error) {
			tag, err := tx.Exec(ctx, q, args...)
			return tag.RowsAffected(), err
		},
		query: func(q string, args ...any) ([]PuzzleRating, error) {
			rows, err := tx.Query(ctx, q, args...)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			return scanPuzzleRatings(rows, "puzzle ratings", false)
		},
	})
	if err == nil && first {
		err = tx.Commit(ctx)
	}
	return first && err == nil, err
}

// puzzleWrap says whose answer to which puzzle an error was about.
func puzzleWrap(key string, r *PuzzleRecord, err error) error {
	return fmt.Errorf("store: record %q's answer to puzzle %s %d: %w", key, r.Lexicon, r.Number, err)
}

// PuzzleRecord implements Accounts.
func (s *SQLite) PuzzleRecord(ctx context.Context, key, lexicon string, number int) (*PuzzleRecord, error) {
	rows, err := s.db.QueryContext(ctx, sqlitePuzzleSQL.record, key, lexicon, number)
	return puzzleRecordOf(sqlRows(rows, err), key, lexicon, number)
}

// PuzzleRecord implements Accounts.
func (s *Postgres) PuzzleRecord(ctx context.Context, key, lexicon string, number int) (*PuzzleRecord, error) {
	rows, err := s.pool.Query(ctx, pgPuzzleSQL.record, key, lexicon, number)
	return puzzleRecordOf(pgRows(rows, err), key, lexicon, number)
}

// puzzleRecordOf reads the answer of PuzzleRecord.
func puzzleRecordOf(rows closingRows, key, lexicon string, number int) (*PuzzleRecord, error) {
	if rows.err != nil {
		return nil, fmt.Errorf("store: %q's answer to puzzle %s %d: %w", key, lexicon, number, rows.err)
	}
	defer rows.close()
	return onePuzzleRecord(rows.rowScanner, key, lexicon, number)
}

// PuzzleRecords implements Accounts.
func (s *SQLite) PuzzleRecords(ctx context.Context, key string, n int) ([]PuzzleRecord, error) {
	rows, err := s.db.QueryContext(ctx, sqlitePuzzleSQL.records, key, n)
	return puzzleRecordsOf(sqlRows(rows, err), key)
}

// PuzzleRecords implements Accounts.
func (s *Postgres) PuzzleRecords(ctx context.Context, key string, n int) ([]PuzzleRecord, error) {
	rows, err := s.pool.Query(ctx, pgPuzzleSQL.records, key, n)
	return puzzleRecordsOf(pgRows(rows, err), key)
}

// puzzleRecordsOf reads the answers of PuzzleRecords.
func puzzleRecordsOf(rows closingRows, key string) ([]PuzzleRecord, error) {
	if rows.err != nil {
		return nil, fmt.Errorf("store: puzzles of %q: %w", key, rows.err)
	}
	defer rows.close()
	return scanPuzzleRecords(rows.rowScanner, key)
}

// PuzzleCounts implements Accounts.
func (s *SQLite) PuzzleCounts(ctx context.Context, lexicon string, number int) (answered, solved int, err error) {
	err = s.db.QueryRowContext(ctx, sqlitePuzzleSQL.counts, lexicon, number).Scan(&answered, &solved)
	return answered, solved, countsWrap(lexicon, number, err)
}

// PuzzleCounts implements Accounts.
func (s *Postgres) PuzzleCounts(ctx context.Context, lexicon string, number int) (answered, solved int, err error) {
	err = s.pool.QueryRow(ctx, pgPuzzleSQL.counts, lexicon, number).Scan(&answered, &solved)
	return answered, solved, countsWrap(lexicon, number, err)
}

// countsWrap says which puzzle's counts an error was about.
func countsWrap(lexicon string, number int, err error) error {
	if err != nil {
		err = fmt.Errorf("store: answers to puzzle %s %d: %w", lexicon, number, err)
	}
	return err
}

// PuzzleRatings implements Accounts.
func (s *SQLite) PuzzleRatings(ctx context.Context, key string) ([]PuzzleRating, error) {
	return s.ratings(ctx, sqlitePuzzleSQL.ratings, fmt.Sprintf("puzzle ratings of %q", key), false, key)
}

// PuzzleRatings implements Accounts.
func (s *Postgres) PuzzleRatings(ctx context.Context, key string) ([]PuzzleRating, error) {
	return s.ratings(ctx, pgPuzzleSQL.ratings, fmt.Sprintf("puzzle ratings of %q", key), false, key)
}

// PuzzleLeaderboard implements Accounts.
func (s *SQLite) PuzzleLeaderboard(ctx context.Context, lexicon string, n int) ([]PuzzleRating, error) {
	return s.ratings(ctx, sqlitePuzzleSQL.leaders, "puzzle leaderboard of "+lexicon, true, lexicon, n)
}

// PuzzleLeaderboard implements Accounts.
func (s *Postgres) PuzzleLeaderboard(ctx context.Context, lexicon string, n int) ([]PuzzleRating, error) {
	return s.ratings(ctx, pgPuzzleSQL.leaders, "puzzle leaderboard of "+lexicon, true, lexicon, n)
}

// PuzzleLevels implements Accounts.
func (s *SQLite) PuzzleLevels(ctx context.Context, lexicon string) ([]PuzzleRating, error) {
	return s.ratings(ctx, sqlitePuzzleSQL.levels, "ratings of the puzzles of "+lexicon, false, lexicon)
}

// PuzzleLevels implements Accounts.
func (s *Postgres) PuzzleLevels(ctx context.Context, lexicon string) ([]PuzzleRating, error) {
	return s.ratings(ctx, pgPuzzleSQL.levels, "ratings of the puzzles of "+lexicon, false, lexicon)
}

// PuzzleLevel implements Accounts.
func (s *SQLite) PuzzleLevel(ctx context.Context, lexicon string, number int) (*PuzzleRating, error) {
	what := fmt.Sprintf("rating of puzzle %s %d", lexicon, number)
	rs, err := s.ratings(ctx, sqlitePuzzleSQL.level, what, false, lexicon, number)
	return onePuzzleLevel(what, rs, err)
}

// PuzzleLevel implements Accounts.
func (s *Postgres) PuzzleLevel(ctx context.Context, lexicon string, number int) (*PuzzleRating, error) {
	what := fmt.Sprintf("rating of puzzle %s %d", lexicon, number)
	rs, err := s.ratings(ctx, pgPuzzleSQL.level, what, false, lexicon, number)
	return onePuzzleLevel(what, rs, err)
}

// ratings runs a query q about what of the ratings' columns (each
// followed by its account's name if named).
func (s *SQLite) ratings(ctx context.Context, q, what string, named bool, args ...any) ([]PuzzleRating, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	return puzzleRatingsOf(sqlRows(rows, err), what, named)
}

// ratings runs a query q about what of the ratings' columns (each
// followed by its account's name if named).
func (s *Postgres) ratings(ctx context.Context, q, what string, named bool, args ...any) ([]PuzzleRating, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	return puzzleRatingsOf(pgRows(rows, err), what, named)
}

// onePuzzleLevel returns the one rating of a PuzzleLevel query
// (ErrNotFound if none).
func onePuzzleLevel(what string, rs []PuzzleRating, err error) (*PuzzleRating, error) {
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("store: %s: %w", what, ErrNotFound)
	}
	return &rs[0], nil
}

// puzzleRatingsOf reads the ratings of a query about what, each
// followed by its account's name if named.
func puzzleRatingsOf(rows closingRows, what string, named bool) ([]PuzzleRating, error) {
	if rows.err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, rows.err)
	}
	defer rows.close()
	return scanPuzzleRatings(rows.rowScanner, what, named)
}

// closingRows is a query's rows, whichever the database, or the error
// that kept it from running.
type closingRows struct {
	rowScanner
	close func()
	err   error
}

// sqlRows wraps the result of a database/sql query.
func sqlRows(rows *sql.Rows, err error) closingRows {
	if err != nil {
		return closingRows{err: err}
	}
	return closingRows{rows, func() { rows.Close() }, nil}
}

// pgRows wraps the result of a pgx query.
func pgRows(rows pgx.Rows, err error) closingRows {
	if err != nil {
		return closingRows{err: err}
	}
	return closingRows{rows, rows.Close, nil}
}

// PuzzleNumbers implements Accounts.
func (s *SQLite) PuzzleNumbers(ctx context.Context, key, lexicon string) ([]int, error) {
	rows, err := s.db.QueryContext(ctx, sqlitePuzzleSQL.numbers, key, lexicon)
	return puzzleNumbersOf(sqlRows(rows, err), key, lexicon)
}

// PuzzleNumbers implements Accounts.
func (s *Postgres) PuzzleNumbers(ctx context.Context, key, lexicon string) ([]int, error) {
	rows, err := s.pool.Query(ctx, pgPuzzleSQL.numbers, key, lexicon)
	return puzzleNumbersOf(pgRows(rows, err), key, lexicon)
}

// puzzleNumbersOf reads the numbers of PuzzleNumbers.
func puzzleNumbersOf(rows closingRows, key, lexicon string) ([]int, error) {
	wrap := func(err error) error { return fmt.Errorf("store: puzzles of %s answered by %q: %w", lexicon, key, err) }
	if rows.err != nil {
		return nil, wrap(rows.err)
	}
	defer rows.close()
	var out []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return nil, wrap(err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(err)
	}
	return out, nil
}
