package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cardboxes: the alphagrams an account drilled in word study, per word
// list, each in a box of Leitner's scheme with the time it is due again,
// so that study goes on from any device signed in as the account.

// Card is an alphagram in an account's cardbox for a word list: its
// letters as the word list's alphabet spells them, its box (0 the
// first), when it is due again and when it was filed there.
type Card struct {
	Letters string
	Box     int
	Due     time.Time
	Filed   time.Time
}

// ErrFull is returned when a cardbox would hold more cards than allowed.
var ErrFull = errors.New("store: the cardbox is full")

// cardsSchema holds the cards of every cardbox (prefix begins the
// table's name; integer is the type of the times, nanoseconds since
// 1970).
func cardsSchema(prefix, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]scards (
	account TEXT NOT NULL,
	lexicon TEXT NOT NULL,
	letters TEXT NOT NULL,
	box     INTEGER NOT NULL,
	due     %[2]s NOT NULL,
	filed   %[2]s NOT NULL,
	PRIMARY KEY (account, lexicon, letters)
);
`, prefix, integer)
}

// putCardSQL files a card unless the stored card of its letters was
// filed at the same time or later.
func putCardSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`INSERT INTO %[1]scards(account, lexicon, letters, box, due, filed) VALUES (%[2]s,%[3]s,%[4]s,%[5]s,%[6]s,%[7]s)
		ON CONFLICT (account, lexicon, letters) DO UPDATE SET box = excluded.box, due = excluded.due, filed = excluded.filed
		WHERE excluded.filed > %[1]scards.filed`, prefix, arg(1), arg(2), arg(3), arg(4), arg(5), arg(6))
}

// cardsSQL lists a cardbox, the earliest due first.
func cardsSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT letters, box, due, filed FROM %scards WHERE account = %s AND lexicon = %s ORDER BY due, letters%s`, prefix, arg(1), arg(2), byBytes(prefix))
}

// countCardsSQL counts a cardbox's cards.
func countCardsSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT COUNT(*) FROM %scards WHERE account = %s AND lexicon = %s`, prefix, arg(1), arg(2))
}

// clearCardsSQL empties a cardbox.
func clearCardsSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`DELETE FROM %scards WHERE account = %s AND lexicon = %s`, prefix, arg(1), arg(2))
}

// sqliteArg and pgArg write the placeholder of argument i (1-based), as
// the statements shared by both stores take them.
func sqliteArg(int) string { return "?" }
func pgArg(i int) string   { return fmt.Sprintf("$%d", i) }

// byBytes follows a text column in an ORDER BY, or in a comparison
// with a cursor, in the statements of the database whose tables' names
// begin with prefix, so that text goes by the bytes of its UTF-8 as Go's
// strings do: SQLite's text always does (its BINARY collation; nothing
// to add), PostgreSQL's by the database's collation, which may weigh
// case, accents and punctuation as a language does, unless told
// COLLATE "C" (as its own statements say).
func byBytes(prefix string) string {
	if prefix == "" {
		return ""
	}
	return ` COLLATE "C"`
}

// sqliteNumArg numbers SQLite's placeholders, for a statement that uses
// an argument twice.
func sqliteNumArg(i int) string { return fmt.Sprintf("?%d", i) }

// cardWrap says which cardbox an error of op was about.
func cardWrap(op, key, lexicon string, err error) error {
	return fmt.Errorf("store: %s %q's cardbox of %s: %w", op, key, lexicon, err)
}

// scanCards reads rows of (letters, box, due, filed).
func scanCards(rows rowScanner) ([]Card, error) {
	var out []Card
	for rows.Next() {
		var c Card
		var due, filed int64
		if err := rows.Scan(&c.Letters, &c.Box, &due, &filed); err != nil {
			return nil, err
		}
		c.Due, c.Filed = time.Unix(0, due).UTC(), time.Unix(0, filed).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// PutCards implements Accounts.
func (s *SQLite) PutCards(ctx context.Context, key, lexicon string, cards []Card, limit int) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	defer tx.Rollback()
	if err := s.openInTx(ctx, tx, key); err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	for _, c := range cards {
		if _, err := tx.ExecContext(ctx, putCardSQL("", sqliteArg), key, lexicon, c.Letters, c.Box, c.Due.UnixNano(), c.Filed.UnixNano()); err != nil {
			return 0, cardWrap("file cards in", key, lexicon, err)
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, countCardsSQL("", sqliteArg), key, lexicon).Scan(&n); err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	if n > limit {
		return 0, cardWrap("file cards in", key, lexicon, ErrFull)
	}
	if err := tx.Commit(); err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	return n, nil
}

// Cards implements Accounts.
func (s *SQLite) Cards(ctx context.Context, key, lexicon string) ([]Card, error) {
	rows, err := s.db.QueryContext(ctx, cardsSQL("", sqliteArg), key, lexicon)
	if err != nil {
		return nil, cardWrap("read", key, lexicon, err)
	}
	defer rows.Close()
	out, err := scanCards(rows)
	if err != nil {
		return nil, cardWrap("read", key, lexicon, err)
	}
	return out, nil
}

// ClearCards implements Accounts.
func (s *SQLite) ClearCards(ctx context.Context, key, lexicon string) (int, error) {
	res, err := s.db.ExecContext(ctx, clearCardsSQL("", sqliteArg), key, lexicon)
	if err != nil {
		return 0, cardWrap("empty", key, lexicon, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, cardWrap("empty", key, lexicon, err)
	}
	return int(n), nil
}

// PutCards implements Accounts. The account's row is held exclusively
// (lockOpen): of two requests filing new cards at once, the second
// counts the first one's cards.
func (s *Postgres) PutCards(ctx context.Context, key, lexicon string, cards []Card, limit int) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	defer tx.Rollback(ctx)
	if err := s.lockOpen(ctx, tx, key); err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	var b pgx.Batch
	for _, c := range cards {
		b.Queue(putCardSQL("atril_", pgArg), key, lexicon, c.Letters, c.Box, c.Due.UnixNano(), c.Filed.UnixNano())
	}
	if err := tx.SendBatch(ctx, &b).Close(); err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	var n int
	if err := tx.QueryRow(ctx, countCardsSQL("atril_", pgArg), key, lexicon).Scan(&n); err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	if n > limit {
		return 0, cardWrap("file cards in", key, lexicon, ErrFull)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, cardWrap("file cards in", key, lexicon, err)
	}
	return n, nil
}

// Cards implements Accounts.
func (s *Postgres) Cards(ctx context.Context, key, lexicon string) ([]Card, error) {
	rows, err := s.pool.Query(ctx, cardsSQL("atril_", pgArg), key, lexicon)
	if err != nil {
		return nil, cardWrap("read", key, lexicon, err)
	}
	defer rows.Close()
	out, err := scanCards(rows)
	if err != nil {
		return nil, cardWrap("read", key, lexicon, err)
	}
	return out, nil
}

// ClearCards implements Accounts.
func (s *Postgres) ClearCards(ctx context.Context, key, lexicon string) (int, error) {
	tag, err := s.pool.Exec(ctx, clearCardsSQL("atril_", pgArg), key, lexicon)
	if err != nil {
		return 0, cardWrap("empty", key, lexicon, err)
	}
	return int(tag.RowsAffected()), nil
}
