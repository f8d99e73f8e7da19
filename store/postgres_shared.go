package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// notifyChannel is the channel on which appended events are announced,
// as "GAME SEQ KIND".
const notifyChannel = "atril_events"

// EventsFrom implements Shared.
func (s *Postgres) EventsFrom(ctx context.Context, id string, from int) ([]Event, error) {
	rows, err := s.pool.Query(ctx, `SELECT seq, kind, data, time FROM atril_events WHERE game = $1 AND seq >= $2 ORDER BY seq`, id, from)
	if err != nil {
		return nil, fmt.Errorf("store: events of game %s from %d: %w", id, from, err)
	}
	defer rows.Close()
	evs, err := scanEvents(rows)
	if err != nil {
		return nil, fmt.Errorf("store: events of game %s from %d: %w", id, from, err)
	}
	return evs, nil
}

// appendSharedSQL is one statement, so one round trip and its own
// transaction: it locks the game's row (one writer per game at a time),
// inserts the event if its seq is the next one, records the computer's
// due time (or keeps it, $7) and the time of the event, and announces the
// event (PostgreSQL delivers the notification when the statement
// commits).
const appendSharedSQL = `
WITH g AS (SELECT id FROM atril_games WHERE id = $1::text FOR UPDATE),
n AS (SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM atril_events WHERE game = $1::text),
ins AS (
	INSERT INTO atril_events(game, seq, kind, data, time)
	SELECT $1::text, $2::integer, $3::text, $4::text, $5::bigint FROM g, n WHERE n.next = $2::integer
	RETURNING seq),
up AS (
	UPDATE atril_games SET bot_due = CASE WHEN $7::boolean THEN bot_due ELSE $6::bigint END, updated = $5::bigint
	WHERE id = $1::text AND EXISTS (SELECT 1 FROM ins)
	RETURNING id),
note AS (SELECT pg_notify('` + notifyChannel + `', $1::text || ' ' || $2::integer::text || ' ' || $3::text) FROM ins)
SELECT (SELECT COUNT(*) FROM g), (SELECT next FROM n), (SELECT COUNT(*) FROM ins), (SELECT COUNT(*) FROM up), (SELECT COUNT(*) FROM note)`

// AppendShared implements Shared.
func (s *Postgres) AppendShared(ctx context.Context, id string, e Event, botDue time.Time, keepDue bool) error {
	var due *int64
	if !botDue.IsZero() {
		d := botDue.UnixNano()
		due = &d
	}
	var found, next, inserted, updated, noted int64
	err := s.pool.QueryRow(ctx, appendSharedSQL, id, e.Seq, e.Kind, e.Data, e.Time.UnixNano(), due, keepDue).
		Scan(&found, &next, &inserted, &updated, &noted)
	switch {
	case pgUnique(err):
		return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, ErrConflict)
	case err != nil:
		return fmt.Errorf("store: append event %d to game %s: %w", e.Seq, id, err)
	case found == 0:
		return fmt.Errorf("store: append to game %s: %w", id, ErrNotFound)
	case inserted == 0:
		return fmt.Errorf("store: append event %d to game %s (next is %d): %w", e.Seq, id, next, ErrConflict)
	}
	return nil
}

// Listen implements Shared, on a connection of its own.
func (s *Postgres) Listen(ctx context.Context, fn func(id string, seq int, kind string)) error {
	cfg := s.pool.Config().ConnConfig.Copy()
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+notifyChannel); err == nil {
				backoff = 100 * time.Millisecond
				fn("", -1, "")
				err = listenLoop(ctx, conn, fn)
			}
			conn.Close(context.Background())
		}
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			backoff = min(2*backoff, 5*time.Second)
		}
	}
	return ctx.Err()
}

func listenLoop(ctx context.Context, conn *pgx.Conn, fn func(id string, seq int, kind string)) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		f := strings.Fields(n.Payload)
		if len(f) != 3 {
			continue
		}
		k, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		fn(f[0], k, f[2])
	}
}

// ClaimDue implements Shared. Rows being written or claimed by another
// process are skipped, not waited for.
func (s *Postgres) ClaimDue(ctx context.Context, now, until time.Time, n int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `
		UPDATE atril_games SET bot_due = $2 WHERE id IN (
			SELECT id FROM atril_games WHERE bot_due IS NOT NULL AND NOT finished AND bot_due < $1
			ORDER BY bot_due LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING id`, now.UnixNano(), until.UnixNano(), n)
	if err != nil {
		return nil, fmt.Errorf("store: claim games whose computer is due: %w", err)
	}
	defer rows.Close()
	ids, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: claim games whose computer is due: %w", err)
	}
	return ids, nil
}

// SetDue implements Shared.
func (s *Postgres) SetDue(ctx context.Context, id string, due time.Time) error {
	var d *int64
	if !due.IsZero() {
		x := due.UnixNano()
		d = &x
	}
	if _, err := s.pool.Exec(ctx, `UPDATE atril_games SET bot_due = $2 WHERE id = $1`, id, d); err != nil {
		return fmt.Errorf("store: set the computer's due time of game %s: %w", id, err)
	}
	return nil
}

// Stale implements Shared.
func (s *Postgres) Stale(ctx context.Context, before time.Time, after string, n int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM atril_games WHERE NOT finished AND updated < $1 AND id COLLATE "C" > $2 ORDER BY id COLLATE "C" LIMIT $3`,
		before.UnixNano(), after, n)
	if err != nil {
		return nil, fmt.Errorf("store: list stale games: %w", err)
	}
	defer rows.Close()
	ids, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: list stale games: %w", err)
	}
	return ids, nil
}
