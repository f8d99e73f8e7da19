package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Endgame puzzles: an account's first answer to each, which the puzzle's
// page shows it and its player's page counts, and the ratings those
// answers make: an account has an endgame rating per word list, and so
// has each endgame puzzle, kept as the puzzle ratings are (puzzles.go)
// in a table of their own (endgame_ratings).

// EndgameRecord is an account's first answer to an endgame puzzle: the
// puzzle (word list and number), whether its move gained the most
// (Correct), or the solution was asked for first (Revealed), what the
// move gained to the end (Value; 0 when revealed), when, and the
// account's endgame rating in the word list before and after the answer
// (both 0 for an answer that was not rated).
type EndgameRecord struct {
	Lexicon         string
	Number          int
	Correct         bool
	Revealed        bool
	Value           int
	Answered        time.Time
	RBefore, RAfter float64
}

// endgamesSchema holds the answers (prefix begins the table's name;
// integer is the type of the times, nanoseconds since 1970, and real
// that of the ratings).
func endgamesSchema(prefix, integer, real string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]sendgame_answers (
	account  TEXT NOT NULL,
	lexicon  TEXT NOT NULL,
	number   INTEGER NOT NULL,
	correct  INTEGER NOT NULL,
	revealed INTEGER NOT NULL,
	value    INTEGER NOT NULL,
	answered %[2]s NOT NULL,
	r_before %[3]s NOT NULL DEFAULT 0,
	r_after  %[3]s NOT NULL DEFAULT 0,
	PRIMARY KEY (account, lexicon, number)
);
CREATE INDEX IF NOT EXISTS %[1]sendgame_answers_puzzle ON %[1]sendgame_answers(lexicon, number);
`, prefix, integer, real)
}

// pgEndgamesNewer adds to a PostgreSQL database made before endgame
// puzzles were rated the columns of the ratings before and after an
// answer.
const pgEndgamesNewer = `
ALTER TABLE atril_endgame_answers ADD COLUMN IF NOT EXISTS r_before DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE atril_endgame_answers ADD COLUMN IF NOT EXISTS r_after DOUBLE PRECISION NOT NULL DEFAULT 0;
`

// endgameCols are the columns of an answer, in the order of
// scanEndgames.
const endgameCols = `lexicon, number, correct, revealed, value, answered, r_before, r_after`

// scanEndgames reads rows of endgameCols.
func scanEndgames(rows rowScanner) ([]EndgameRecord, error) {
	var out []EndgameRecord
	for rows.Next() {
		var r EndgameRecord
		var correct, revealed int
		var at int64
		if err := rows.Scan(&r.Lexicon, &r.Number, &correct, &revealed, &r.Value, &at, &r.RBefore, &r.RAfter); err != nil {
			return nil, err
		}
		r.Correct, r.Revealed, r.Answered = correct != 0, revealed != 0, time.Unix(0, at).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// endgameDB is what the endgame answers need of a database, whichever
// it is: its functions, the tables' prefix and the placeholders.
type endgameDB struct {
	dbFuncs
	prefix string
	arg    func(int) string
}

func (d endgameDB) sql(format string) string {
	return fmt.Sprintf(format, d.prefix, d.arg(1), d.arg(2), d.arg(3), d.arg(4), d.arg(5), d.arg(6), d.arg(7))
}

// endgameSQL holds the statements that record an answer to an endgame
// puzzle for one database, and those of the endgame ratings.
type endgameSQL struct {
	insert, rated string
	ratingSQL
}

func newEndgameSQL(prefix string, arg func(int) string, forUpdate string) endgameSQL {
	f := sqlFormatter(prefix, arg)
	return endgameSQL{
		insert: f(`INSERT INTO %[1]sendgame_answers(account, lexicon, number, correct, revealed, value, answered, r_before, r_after)
			VALUES (%[2]s, %[3]s, %[4]s, %[5]s, %[6]s, %[7]s, %[8]s, 0, 0) ON CONFLICT DO NOTHING`),
		rated:     f(`UPDATE %[1]sendgame_answers SET r_before = %[5]s, r_after = %[6]s WHERE account = %[2]s AND lexicon = %[3]s AND number = %[4]s`),
		ratingSQL: newRatingSQL(prefix+"endgame_ratings", prefix, arg, forUpdate),
	}
}

var (
	sqliteEndgameSQL = newEndgameSQL("", sqliteNumArg, "")
	pgEndgameSQL     = newEndgameSQL("atril_", pgArg, " FOR UPDATE")
)

// recordEndgame keeps r as the account's first answer, unless it has
// one, and with rate rates it, in one transaction (inTx's).
func recordEndgame(ctx context.Context, key string, r *EndgameRecord, rate PuzzleRateFunc, q *endgameSQL,
	account func(context.Context, string) (*Account, error), inTx func(context.Context, string, func(puzzleTx) (bool, error)) (bool, error)) (bool, error) {
	wrap := func(err error) error {
		return fmt.Errorf("store: %q's answer to endgame %s %d: %w", key, r.Lexicon, r.Number, err)
	}
	if r.Lexicon == "" || r.Number < 1 || r.Correct && r.Revealed {
		return false, wrap(errors.New("not an answer: a word list, a number from 1, and not both correct and revealed"))
	}
	if _, err := account(ctx, key); err != nil {
		return false, wrap(err)
	}
	first, err := inTx(ctx, key, func(tx puzzleTx) (bool, error) {
		n, err := tx.exec(q.insert, key, r.Lexicon, r.Number, boolInt(r.Correct), boolInt(r.Revealed), r.Value, r.Answered.UnixNano())
		if err != nil || n == 0 || rate == nil {
			return n == 1, err
		}
		if r.RBefore, r.RAfter, err = rateAnswer(tx, &q.ratingSQL, key, r.Lexicon, r.Number, r.Correct, r.Answered, rate); err != nil {
			return false, err
		}
		_, err = tx.exec(q.rated, key, r.Lexicon, r.Number, r.RBefore, r.RAfter)
		return err == nil, err
	})
	if err != nil {
		return false, wrap(err)
	}
	return first, nil
}

// first returns the account's first answer to an endgame puzzle.
func (d endgameDB) first(ctx context.Context, key, lexicon string, number int) (*EndgameRecord, error) {
	what := fmt.Sprintf("%q's answer to endgame %s %d", key, lexicon, number)
	rs, err := queryAll(ctx, d.dbFuncs, scanEndgames, what,
		d.sql(`SELECT `+endgameCols+` FROM %[1]sendgame_answers WHERE account = %[2]s AND lexicon = %[3]s AND number = %[4]s`), key, lexicon, number)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("store: %s: %w", what, ErrNotFound)
	}
	return &rs[0], nil
}

// all returns the account's n latest answers, by number.
func (d endgameDB) all(ctx context.Context, key string, n int) ([]EndgameRecord, error) {
	return queryAll(ctx, d.dbFuncs, scanEndgames, fmt.Sprintf("endgame answers of %q", key),
		d.sql(`SELECT `+endgameCols+` FROM %[1]sendgame_answers WHERE account = %[2]s ORDER BY number DESC, lexicon`+byBytes(d.prefix)+` LIMIT %[3]s`), key, n)
}

// numbers returns the numbers of the endgame puzzles of a word list an
// account answered, in order.
func (d endgameDB) numbers(ctx context.Context, key, lexicon string) ([]int, error) {
	rows, err := d.query(ctx, d.sql(`SELECT number FROM %[1]sendgame_answers WHERE account = %[2]s AND lexicon = %[3]s ORDER BY number`), key, lexicon)
	if err != nil {
		return nil, fmt.Errorf("store: endgames of %s answered by %q: %w", lexicon, key, err)
	}
	return puzzleNumbersOf(rows, key, lexicon)
}

// counts returns how many accounts answered an endgame puzzle and how
// many of them found a best move at their first answer.
func (d endgameDB) counts(ctx context.Context, lexicon string, number int) (int, int, error) {
	answered, err := d.count(ctx, `COUNT(*)`, lexicon, number)
	if err != nil {
		return 0, 0, err
	}
	solved, err := d.count(ctx, `COALESCE(SUM(correct), 0)`, lexicon, number)
	return answered, solved, err
}

// count runs a query of one number over an endgame puzzle's answers.
func (d endgameDB) count(ctx context.Context, expr, lexicon string, number int) (int, error) {
	n, err := d.one(ctx, d.sql(`SELECT `+expr+` FROM %[1]sendgame_answers WHERE lexicon = %[2]s AND number = %[3]s`), lexicon, number)
	if err != nil {
		return 0, fmt.Errorf("store: the answers to endgame %s %d: %w", lexicon, number, err)
	}
	return n, nil
}

func (s *SQLite) endgames() endgameDB   { return endgameDB{s.funcs(), "", sqliteArg} }
func (s *Postgres) endgames() endgameDB { return endgameDB{s.funcs(), "atril_", pgArg} }

// RecordEndgame implements Accounts.
func (s *SQLite) RecordEndgame(ctx context.Context, key string, r *EndgameRecord, rate PuzzleRateFunc) (bool, error) {
	return recordEndgame(ctx, key, r, rate, &sqliteEndgameSQL, s.Account, s.inPuzzleTx)
}

// EndgameRecord implements Accounts.
func (s *SQLite) EndgameRecord(ctx context.Context, key, lexicon string, number int) (*EndgameRecord, error) {
	return s.endgames().first(ctx, key, lexicon, number)
}

// EndgameRecords implements Accounts.
func (s *SQLite) EndgameRecords(ctx context.Context, key string, n int) ([]EndgameRecord, error) {
	return s.endgames().all(ctx, key, n)
}

// EndgameCounts implements Accounts.
func (s *SQLite) EndgameCounts(ctx context.Context, lexicon string, number int) (int, int, error) {
	return s.endgames().counts(ctx, lexicon, number)
}

// RecordEndgame implements Accounts.
func (s *Postgres) RecordEndgame(ctx context.Context, key string, r *EndgameRecord, rate PuzzleRateFunc) (bool, error) {
	return recordEndgame(ctx, key, r, rate, &pgEndgameSQL, s.Account, s.inPuzzleTx)
}

// EndgameRecord implements Accounts.
func (s *Postgres) EndgameRecord(ctx context.Context, key, lexicon string, number int) (*EndgameRecord, error) {
	return s.endgames().first(ctx, key, lexicon, number)
}

// EndgameRecords implements Accounts.
func (s *Postgres) EndgameRecords(ctx context.Context, key string, n int) ([]EndgameRecord, error) {
	return s.endgames().all(ctx, key, n)
}

// EndgameCounts implements Accounts.
func (s *Postgres) EndgameCounts(ctx context.Context, lexicon string, number int) (int, int, error) {
	return s.endgames().counts(ctx, lexicon, number)
}

// EndgameRatings implements Accounts.
func (s *SQLite) EndgameRatings(ctx context.Context, key string) ([]PuzzleRating, error) {
	return s.ratings(ctx, sqliteEndgameSQL.ratings, fmt.Sprintf("endgame ratings of %q", key), false, key)
}

// EndgameRatings implements Accounts.
func (s *Postgres) EndgameRatings(ctx context.Context, key string) ([]PuzzleRating, error) {
	return s.ratings(ctx, pgEndgameSQL.ratings, fmt.Sprintf("endgame ratings of %q", key), false, key)
}

// EndgameLeaderboard implements Accounts.
func (s *SQLite) EndgameLeaderboard(ctx context.Context, lexicon string, n int) ([]PuzzleRating, error) {
	return s.ratings(ctx, sqliteEndgameSQL.leaders, "endgame leaderboard of "+lexicon, true, lexicon, n)
}

// EndgameLeaderboard implements Accounts.
func (s *Postgres) EndgameLeaderboard(ctx context.Context, lexicon string, n int) ([]PuzzleRating, error) {
	return s.ratings(ctx, pgEndgameSQL.leaders, "endgame leaderboard of "+lexicon, true, lexicon, n)
}

// EndgameLevel implements Accounts.
func (s *SQLite) EndgameLevel(ctx context.Context, lexicon string, number int) (*PuzzleRating, error) {
	what := fmt.Sprintf("rating of endgame %s %d", lexicon, number)
	rs, err := s.ratings(ctx, sqliteEndgameSQL.level, what, false, lexicon, number)
	return onePuzzleLevel(what, rs, err)
}

// EndgameLevel implements Accounts.
func (s *Postgres) EndgameLevel(ctx context.Context, lexicon string, number int) (*PuzzleRating, error) {
	what := fmt.Sprintf("rating of endgame %s %d", lexicon, number)
	rs, err := s.ratings(ctx, pgEndgameSQL.level, what, false, lexicon, number)
	return onePuzzleLevel(what, rs, err)
}

// EndgameNumbers implements Accounts.
func (s *SQLite) EndgameNumbers(ctx context.Context, key, lexicon string) ([]int, error) {
	return s.endgames().numbers(ctx, key, lexicon)
}

// EndgameNumbers implements Accounts.
func (s *Postgres) EndgameNumbers(ctx context.Context, key, lexicon string) ([]int, error) {
	return s.endgames().numbers(ctx, key, lexicon)
}

// EndgameLevels implements Accounts.
func (s *SQLite) EndgameLevels(ctx context.Context, lexicon string) ([]PuzzleRating, error) {
	return s.ratings(ctx, sqliteEndgameSQL.levels, "ratings of the endgames of "+lexicon, false, lexicon)
}

// EndgameLevels implements Accounts.
func (s *Postgres) EndgameLevels(ctx context.Context, lexicon string) ([]PuzzleRating, error) {
	return s.ratings(ctx, pgEndgameSQL.levels, "ratings of the endgames of "+lexicon, false, lexicon)
}
