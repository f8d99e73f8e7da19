package store

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Messages: what one account writes to another, kept in the store so
// that every process sharing it shows the same conversations; gone with
// either account when it is closed.

// Message is a message from one account to another: its number (which
// orders a conversation), the sender's and recipient's keys, the text,
// when it was written and when the recipient read it (zero while
// unread).
type Message struct {
	ID   int64
	From string
	To   string
	Text string
	At   time.Time
	Read time.Time
}

// Conversation is an account's conversation with another: the other's
// key and name, the latest message either way and how many of the
// other's messages are unread.
type Conversation struct {
	Other  string
	Name   string
	Last   Message
	Unread int
}

// messagesSchema holds the messages (prefix begins the table's name;
// serial is the type of its numbering key, integer that of the times,
// nanoseconds since 1970).
func messagesSchema(prefix, serial, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]smessages (
	id        %[2]s,
	sender    TEXT NOT NULL,
	recipient TEXT NOT NULL,
	text      TEXT NOT NULL,
	at        %[3]s NOT NULL,
	read_at   %[3]s NOT NULL
);
CREATE INDEX IF NOT EXISTS %[1]smessages_recipient ON %[1]smessages(recipient, sender, id);
CREATE INDEX IF NOT EXISTS %[1]smessages_sender ON %[1]smessages(sender, recipient, id);
`, prefix, serial, integer)
}

// messageCols are the columns of a message, in the order of
// scanMessages.
const messageCols = `id, sender, recipient, text, at, read_at`

// messageSQL holds the statements of the messages for one database.
type messageSQL struct {
	insert, prune, between, conversations, read, unread, newContacts, written string
}

// newMessageSQL writes the statements for a database whose tables'
// names begin with prefix, whose placeholders arg writes (each may be
// used more than once) and whose insert ends in returning.
func newMessageSQL(prefix string, arg func(int) string, returning string) messageSQL {
	a := make([]any, 5)
	for i := range a {
		a[i] = arg(i + 1)
	}
	f := func(format string) string { return fmt.Sprintf(format, append([]any{prefix}, a...)...) }
	pair := `((sender = %[2]s AND recipient = %[3]s) OR (sender = %[3]s AND recipient = %[2]s))`
	return messageSQL{
		// Only between accounts that exist.
		insert: f(`INSERT INTO %[1]smessages(sender, recipient, text, at, read_at)
			SELECT s.key, r.key, CAST(%[4]s AS TEXT), CAST(%[5]s AS BIGINT), 0 FROM %[1]saccounts s JOIN %[1]saccounts r ON r.key = %[3]s WHERE s.key = %[2]s` + returning),
		// A conversation keeps its latest lines only.
		prune:   f(`DELETE FROM %[1]smessages WHERE ` + pair + ` AND id <= (SELECT id FROM %[1]smessages WHERE ` + pair + ` ORDER BY id DESC LIMIT 1 OFFSET %[4]s)`),
		between: f(`SELECT ` + messageCols + ` FROM %[1]smessages WHERE ` + pair + ` AND id < %[4]s ORDER BY id DESC LIMIT %[5]s`),
		conversations: f(`SELECT c.other, a.name, m.id, m.sender, m.recipient, m.text, m.at, m.read_at,
				(SELECT COUNT(*) FROM %[1]smessages u WHERE u.recipient = %[2]s AND u.sender = c.other AND u.read_at = 0)
			FROM (SELECT CASE WHEN sender = %[2]s THEN recipient ELSE sender END AS other, MAX(id) AS last
				FROM %[1]smessages WHERE sender = %[2]s OR recipient = %[2]s GROUP BY 1) c
			JOIN %[1]smessages m ON m.id = c.last JOIN %[1]saccounts a ON a.key = c.other
			ORDER BY c.last DESC LIMIT %[3]s`),
		read: f(`UPDATE %[1]smessages SET read_at = %[3]s WHERE recipient = %[2]s AND sender = %[4]s AND read_at = 0`),
		// Those of accounts blocked either way are out of sight.
		unread: f(`SELECT COUNT(*) FROM %[1]smessages m WHERE m.recipient = %[2]s AND m.read_at = 0 AND NOT EXISTS (SELECT 1 FROM %[1]sblocks b
			WHERE (b.account = m.recipient AND b.blocked = m.sender) OR (b.account = m.sender AND b.blocked = m.recipient))`),
		// The accounts written to since a time that never wrote back.
		newContacts: f(`SELECT COUNT(DISTINCT m.recipient) FROM %[1]smessages m WHERE m.sender = %[2]s AND m.at >= %[3]s
			AND NOT EXISTS (SELECT 1 FROM %[1]smessages r WHERE r.sender = m.recipient AND r.recipient = %[2]s)`),
		// Whether two accounts wrote to each other, either way (1) or not (0).
		written: f(`SELECT COUNT(*) FROM (SELECT 1 FROM %[1]smessages WHERE ` + pair + ` LIMIT 1) w`),
	}
}

var (
	sqliteMessageSQL = newMessageSQL("", sqliteNumArg, "")
	pgMessageSQL     = newMessageSQL("atril_", pgArg, " RETURNING id")
)

// checkMessage refuses a message the store must not keep.
func checkMessage(m *Message, keep int) error {
	if m.From == "" || m.To == "" || m.From == m.To || m.Text == "" || keep < 1 {
		return fmt.Errorf("store: message from %q to %q (keeping %d): incomplete", m.From, m.To, keep)
	}
	return nil
}

// scanMessages reads rows of messageCols.
func scanMessages(rows rowScanner) ([]Message, error) {
	var out []Message
	for rows.Next() {
		var m Message
		var at, read int64
		if err := rows.Scan(&m.ID, &m.From, &m.To, &m.Text, &at, &read); err != nil {
			return nil, err
		}
		m.At, m.Read = timeOf(at), timeOf(read)
		out = append(out, m)
	}
	return out, rows.Err()
}

// scanConversations reads rows of the conversations' statement.
func scanConversations(rows rowScanner) ([]Conversation, error) {
	var out []Conversation
	for rows.Next() {
		var c Conversation
		var at, read int64
		if err := rows.Scan(&c.Other, &c.Name, &c.Last.ID, &c.Last.From, &c.Last.To, &c.Last.Text, &at, &read, &c.Unread); err != nil {
			return nil, err
		}
		c.Last.At, c.Last.Read = timeOf(at), timeOf(read)
		out = append(out, c)
	}
	return out, rows.Err()
}

// messageDB is what the messages need of a database, whichever it is.
type messageDB struct {
	dbFuncs
	q *messageSQL
	// add inserts a message in a transaction, sets its ID and prunes its
	// conversation to keep lines; it reports ErrNotFound when an
	// account is missing, and a LimitError when contacts refuses it.
	add func(ctx context.Context, m *Message, keep int, contacts ContactLimit) error
}

// checkContacts refuses, in d, a first message between the accounts of m
// when its writer has as many new contacts as lim allows.
func (q *messageSQL) checkContacts(ctx context.Context, d dbFuncs, m *Message, lim ContactLimit) error {
	if lim.Max <= 0 {
		return nil
	}
	if n, err := d.one(ctx, q.written, m.From, m.To); err != nil || n > 0 {
		return err
	}
	n, err := d.one(ctx, q.newContacts, m.From, lim.Since.UnixNano())
	if err != nil {
		return err
	}
	if n >= lim.Max {
		return &LimitError{What: "new contacts", Have: n, Max: lim.Max}
	}
	return nil
}

func (d messageDB) between(ctx context.Context, a, b string, before int64, n int) ([]Message, error) {
	if before <= 0 {
		before = 1 << 62
	}
	out, err := queryAll(ctx, d.dbFuncs, scanMessages, fmt.Sprintf("messages between %q and %q", a, b), d.q.between, a, b, before, n)
	slices.Reverse(out)
	return out, err
}

func (d messageDB) conversations(ctx context.Context, key string, n int) ([]Conversation, error) {
	return queryAll(ctx, d.dbFuncs, scanConversations, fmt.Sprintf("conversations of %q", key), d.q.conversations, key, n)
}

// messages is the SQLite database's messageDB.
func (s *SQLite) messages() messageDB {
	return messageDB{dbFuncs: s.funcs(), q: &sqliteMessageSQL,
		add: func(ctx context.Context, m *Message, keep int, contacts ContactLimit) error {
			tx, err := s.db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if err := s.openInTx(ctx, tx, m.From, m.To); err != nil {
				return err
			}
			if err := sqliteMessageSQL.checkContacts(ctx, txFuncs(tx), m, contacts); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, sqliteMessageSQL.insert, m.From, m.To, m.Text, m.At.UnixNano())
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return ErrNotFound
			}
			if m.ID, err = res.LastInsertId(); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, sqliteMessageSQL.prune, m.From, m.To, keep); err != nil {
				return err
			}
			return tx.Commit()
		},
	}
}

// messages is the PostgreSQL database's messageDB.
func (s *Postgres) messages() messageDB {
	return messageDB{dbFuncs: s.funcs(), q: &pgMessageSQL,
		add: func(ctx context.Context, m *Message, keep int, contacts ContactLimit) error {
			tx, err := s.pool.Begin(ctx)
			if err != nil {
				return err
			}
			defer tx.Rollback(ctx)
			// The writer's row held exclusively: its messages are
			// written one at a time, each counting the new contacts
			// of the others.
			if err := s.lockOpen(ctx, tx, m.From, m.To); err != nil {
				return err
			}
			if err := pgMessageSQL.checkContacts(ctx, pgTxFuncs(tx), m, contacts); err != nil {
				return err
			}
			rows, err := tx.Query(ctx, pgMessageSQL.insert, m.From, m.To, m.Text, m.At.UnixNano())
			if err != nil {
				return err
			}
			found := rows.Next()
			if found {
				err = rows.Scan(&m.ID)
			}
			rows.Close()
			if err == nil {
				err = rows.Err()
			}
			if err != nil {
				return err
			}
			if !found {
				return ErrNotFound
			}
			if _, err := tx.Exec(ctx, pgMessageSQL.prune, m.From, m.To, keep); err != nil {
				return err
			}
			return tx.Commit(ctx)
		},
	}
}

// addMessage runs AddMessage on d.
func (d messageDB) addMessage(ctx context.Context, m *Message, keep int, contacts ContactLimit) error {
	if err := checkMessage(m, keep); err != nil {
		return err
	}
	if err := d.add(ctx, m, keep, contacts); err != nil {
		return fmt.Errorf("store: message from %q to %q: %w", m.From, m.To, err)
	}
	return nil
}

// markRead runs MarkRead on d.
func (d messageDB) markRead(ctx context.Context, key, other string, at time.Time) (int, error) {
	n, err := d.exec(ctx, d.q.read, key, at.UnixNano(), other)
	if err != nil {
		return 0, fmt.Errorf("store: mark %q's messages to %q read: %w", other, key, err)
	}
	return int(n), nil
}

// count runs a statement answering a number about what.
func (d messageDB) count(ctx context.Context, what, q string, args ...any) (int, error) {
	n, err := d.one(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", what, err)
	}
	return n, nil
}

// AddMessage implements Accounts.
func (s *SQLite) AddMessage(ctx context.Context, m *Message, keep int, contacts ContactLimit) error {
	return s.messages().addMessage(ctx, m, keep, contacts)
}

// Messages implements Accounts.
func (s *SQLite) Messages(ctx context.Context, a, b string, before int64, n int) ([]Message, error) {
	return s.messages().between(ctx, a, b, before, n)
}

// Conversations implements Accounts.
func (s *SQLite) Conversations(ctx context.Context, key string, n int) ([]Conversation, error) {
	return s.messages().conversations(ctx, key, n)
}

// MarkRead implements Accounts.
func (s *SQLite) MarkRead(ctx context.Context, key, other string, at time.Time) (int, error) {
	return s.messages().markRead(ctx, key, other, at)
}

// UnreadMessages implements Accounts.
func (s *SQLite) UnreadMessages(ctx context.Context, key string) (int, error) {
	return s.messages().count(ctx, fmt.Sprintf("unread messages of %q", key), sqliteMessageSQL.unread, key)
}

// NewContacts implements Accounts.
func (s *SQLite) NewContacts(ctx context.Context, key string, since time.Time) (int, error) {
	return s.messages().count(ctx, fmt.Sprintf("accounts %q wrote to", key), sqliteMessageSQL.newContacts, key, since.UnixNano())
}

// AddMessage implements Accounts.
func (s *Postgres) AddMessage(ctx context.Context, m *Message, keep int, contacts ContactLimit) error {
	return s.messages().addMessage(ctx, m, keep, contacts)
}

// Messages implements Accounts.
func (s *Postgres) Messages(ctx context.Context, a, b string, before int64, n int) ([]Message, error) {
	return s.messages().between(ctx, a, b, before, n)
}

// Conversations implements Accounts.
func (s *Postgres) Conversations(ctx context.Context, key string, n int) ([]Conversation, error) {
	return s.messages().conversations(ctx, key, n)
}

// MarkRead implements Accounts.
func (s *Postgres) MarkRead(ctx context.Context, key, other string, at time.Time) (int, error) {
	return s.messages().markRead(ctx, key, other, at)
}

// UnreadMessages implements Accounts.
func (s *Postgres) UnreadMessages(ctx context.Context, key string) (int, error) {
	return s.messages().count(ctx, fmt.Sprintf("unread messages of %q", key), pgMessageSQL.unread, key)
}

// NewContacts implements Accounts.
func (s *Postgres) NewContacts(ctx context.Context, key string, since time.Time) (int, error) {
	return s.messages().count(ctx, fmt.Sprintf("accounts %q wrote to", key), pgMessageSQL.newContacts, key, since.UnixNano())
}
