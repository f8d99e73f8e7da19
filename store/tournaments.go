package store

import (
	"context"
	"fmt"
	"time"
)

// Tournament is a tournament's record. The server keeps a tournament's
// whole state as one JSON document (Data), rewritten whole under a
// version check, so that processes sharing a store never lose each
// other's writes.
type Tournament struct {
	ID       string
	Data     string // JSON text, opaque to the store
	Version  int    // 1 when created; each update adds 1
	Finished bool
	Created  time.Time
	Updated  time.Time
}

// Tournaments keeps tournaments.
type Tournaments interface {
	// CreateTournament stores a new tournament at version 1 (and sets
	// t.Version to 1); ErrConflict if its id exists. When lim bounds
	// them, an account that holds lim.Max unfinished tournaments or more
	// makes no more: a LimitError, counted in the transaction of the
	// write (see ErrLimit), ErrNotFound if the account does not exist
	// or is closed.
	CreateTournament(ctx context.Context, t *Tournament, lim TournamentLimit) error
	// Tournament returns a tournament by id (ErrNotFound if none).
	Tournament(ctx context.Context, id string) (*Tournament, error)
	// UpdateTournament replaces the tournament's data and finished flag
	// if its version is still version, sets Updated to now, and returns
	// the new version (version+1): ErrConflict if the version has
	// changed meanwhile, ErrNotFound if there is no such tournament.
	UpdateTournament(ctx context.Context, id string, version int, data string, finished bool, now time.Time) (int, error)
	// ListTournaments returns up to n unfinished tournaments, newest
	// (by Created) first, and up to n finished ones, most recently
	// updated first.
	ListTournaments(ctx context.Context, n int) (open, finished []Tournament, err error)
	// OpenTournaments returns up to n unfinished tournaments that come
	// after the one after names (the zero TournamentCursor: from the
	// first), oldest (by Created, then ID) first: paged this way, every
	// unfinished tournament is read however many there are.
	OpenTournaments(ctx context.Context, after TournamentCursor, n int) ([]Tournament, error)
}

// TournamentCursor is where a page of OpenTournaments ends: the last
// tournament's creation time and id.
type TournamentCursor struct {
	Created time.Time
	ID      string
}

// Next is the cursor after the last tournament of a page (after itself
// when the page is empty).
func (c TournamentCursor) Next(page []Tournament) TournamentCursor {
	if len(page) == 0 {
		return c
	}
	t := page[len(page)-1]
	return TournamentCursor{Created: t.Created, ID: t.ID}
}

// openTournamentsSQL lists a page of unfinished tournaments after a
// cursor (creation time, then id), oldest first, from the table named
// with prefix, in which notFinished is the condition of an unfinished
// one.
func openTournamentsSQL(prefix, notFinished string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT %[1]s FROM %[2]stournaments WHERE %[3]s AND (created > %[4]s OR (created = %[4]s AND id%[7]s > %[5]s)) ORDER BY created, id%[7]s LIMIT %[6]s`,
		tournamentCols, prefix, notFinished, arg(1), arg(2), arg(3), byBytes(prefix))
}

// cursorTime is a cursor's creation time as the stores keep it (before
// every tournament for the zero cursor).
func (c TournamentCursor) cursorTime() int64 {
	if c.Created.IsZero() {
		return -1 << 63
	}
	return c.Created.UnixNano()
}

// tournamentCols are the columns of a tournament as scanTournaments
// reads them.
const tournamentCols = `id, data, version, finished, created, updated`

// scanTournaments reads rows of tournamentCols.
func scanTournaments(rows rowScanner) ([]Tournament, error) {
	var out []Tournament
	for rows.Next() {
		var t Tournament
		var created, updated int64
		if err := rows.Scan(&t.ID, &t.Data, &t.Version, &t.Finished, &created, &updated); err != nil {
			return nil, err
		}
		t.Created, t.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
		out = append(out, t)
	}
	return out, rows.Err()
}

// createTournament runs insert, the insert of a new tournament, on d
// when lim bounds nothing, else in a transaction of in (lim.Account's)
// after counting in it, among the unfinished tournaments that the
// statement open lists, those that lim.Account holds.
func createTournament(ctx context.Context, d dbFuncs, in ownTx, open string, lim TournamentLimit, insert func(d dbFuncs) error) error {
	if lim.Max <= 0 {
		return insert(d)
	}
	return in(ctx, lim.Account, nil, func(d dbFuncs) error {
		rows, err := d.query(ctx, open)
		if err != nil {
			return err
		}
		ts, err := scanTournaments(rows.rowScanner)
		rows.close()
		if err != nil {
			return err
		}
		n := 0
		for i := range ts {
			if lim.Holds == nil || lim.Holds(&ts[i]) {
				n++
			}
		}
		if n >= lim.Max {
			return &LimitError{What: "unfinished tournaments", Have: n, Max: lim.Max}
		}
		return insert(d)
	})
}

// oneTournament reads the one tournament rows hold (ErrNotFound if none).
func oneTournament(rows rowScanner, id string) (*Tournament, error) {
	ts, err := scanTournaments(rows)
	if err != nil {
		return nil, fmt.Errorf("store: tournament %s: %w", id, err)
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("store: tournament %s: %w", id, ErrNotFound)
	}
	return &ts[0], nil
}
