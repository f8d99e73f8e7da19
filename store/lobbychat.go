package store

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// The lobby's chat: lines written by signed-in accounts, read by everyone
// in the lobby; kept in the store so that every process sharing it shows
// the same lines.

// LobbyLine is a line of the lobby's chat: its number, the account that
// wrote it (its key, and its name as read), the text and when.
type LobbyLine struct {
	ID      int64
	Account string
	Name    string
	Text    string
	At      time.Time
}

// lobbyChatSchema holds the lobby's chat (prefix begins the table's name;
// serial is the type of its numbering key, integer that of the times,
// nanoseconds since 1970).
func lobbyChatSchema(prefix, serial, integer string) string {
	return fmt.Sprintf(`
CREATE TABLE IF NOT EXISTS %[1]slobby_chat (
	id      %[2]s,
	account TEXT NOT NULL,
	text    TEXT NOT NULL,
	at      %[3]s NOT NULL
);
`, prefix, serial, integer)
}

// pruneLobbySQL removes every line but the latest keep.
func pruneLobbySQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`DELETE FROM %[1]slobby_chat WHERE id <= (SELECT id FROM %[1]slobby_chat ORDER BY id DESC LIMIT 1 OFFSET %[2]s)`, prefix, arg(1))
}

// lobbyLinesSQL lists the latest lines, newest first, with their
// writers' names, leaving out those of suspended accounts.
func lobbyLinesSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT c.id, c.account, a.name, c.text, c.at FROM %[1]slobby_chat c JOIN %[1]saccounts a ON a.key = c.account
		WHERE NOT EXISTS (SELECT 1 FROM %[1]ssuspensions s WHERE s.account = c.account) ORDER BY c.id DESC LIMIT %[2]s`, prefix, arg(1))
}

// deleteLobbySQL removes a line.
func deleteLobbySQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`DELETE FROM %slobby_chat WHERE id = %s`, prefix, arg(1))
}

// checkLobbyLine refuses a line the store must not keep.
func checkLobbyLine(l *LobbyLine, keep int) error {
	if l.Account == "" || l.Text == "" || keep < 1 {
		return fmt.Errorf("store: lobby chat line %q by %q (keeping %d): incomplete", l.Text, l.Account, keep)
	}
	return nil
}

// scanLobbyLines reads rows of lobbyLinesSQL and returns them oldest
// first.
func scanLobbyLines(rows rowScanner) ([]LobbyLine, error) {
	var out []LobbyLine
	for rows.Next() {
		var l LobbyLine
		var at int64
		if err := rows.Scan(&l.ID, &l.Account, &l.Name, &l.Text, &at); err != nil {
			return nil, err
		}
		l.At = time.Unix(0, at).UTC()
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Reverse(out)
	return out, nil
}

// AddLobbyLine implements Accounts.
func (s *SQLite) AddLobbyLine(ctx context.Context, l *LobbyLine, keep int) error {
	if err := checkLobbyLine(l, keep); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	defer tx.Rollback()
	if err := s.openInTx(ctx, tx, l.Account); err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO lobby_chat(account, text, at) SELECT key, ?, ? FROM accounts WHERE key = ?`, l.Text, l.At.UnixNano(), l.Account)
	if err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, ErrNotFound)
	}
	if l.ID, err = res.LastInsertId(); err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	if _, err := tx.ExecContext(ctx, pruneLobbySQL("", sqliteArg), keep); err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	return nil
}

// LobbyLines implements Accounts.
func (s *SQLite) LobbyLines(ctx context.Context, n int) ([]LobbyLine, error) {
	rows, err := s.db.QueryContext(ctx, lobbyLinesSQL("", sqliteArg), n)
	if err != nil {
		return nil, fmt.Errorf("store: lobby chat: %w", err)
	}
	defer rows.Close()
	out, err := scanLobbyLines(rows)
	if err != nil {
		return nil, fmt.Errorf("store: lobby chat: %w", err)
	}
	return out, nil
}

// DeleteLobbyLine implements Accounts.
func (s *SQLite) DeleteLobbyLine(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, deleteLobbySQL("", sqliteArg), id)
	if err != nil {
		return fmt.Errorf("store: delete lobby chat line %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("store: delete lobby chat line %d: %w", id, ErrNotFound)
	}
	return nil
}

// AddLobbyLine implements Accounts.
func (s *Postgres) AddLobbyLine(ctx context.Context, l *LobbyLine, keep int) error {
	if err := checkLobbyLine(l, keep); err != nil {
		return err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	defer tx.Rollback(ctx)
	if err := s.openInTx(ctx, tx, l.Account); err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	if err := tx.QueryRow(ctx, `INSERT INTO atril_lobby_chat(account, text, at) SELECT key, $1, $2 FROM atril_accounts WHERE key = $3 RETURNING id`,
		l.Text, l.At.UnixNano(), l.Account).Scan(&l.ID); err != nil {
		if isPgNoRows(err) {
			err = ErrNotFound
		}
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	if _, err := tx.Exec(ctx, pruneLobbySQL("atril_", pgArg), keep); err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: lobby chat line by %q: %w", l.Account, err)
	}
	return nil
}

// LobbyLines implements Accounts.
func (s *Postgres) LobbyLines(ctx context.Context, n int) ([]LobbyLine, error) {
	rows, err := s.pool.Query(ctx, lobbyLinesSQL("atril_", pgArg), n)
	if err != nil {
		return nil, fmt.Errorf("store: lobby chat: %w", err)
	}
	defer rows.Close()
	out, err := scanLobbyLines(rows)
	if err != nil {
		return nil, fmt.Errorf("store: lobby chat: %w", err)
	}
	return out, nil
}

// DeleteLobbyLine implements Accounts.
func (s *Postgres) DeleteLobbyLine(ctx context.Context, id int64) error {
	tag, err := s.pool.Exec(ctx, deleteLobbySQL("atril_", pgArg), id)
	if err != nil {
		return fmt.Errorf("store: delete lobby chat line %d: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: delete lobby chat line %d: %w", id, ErrNotFound)
	}
	return nil
}
