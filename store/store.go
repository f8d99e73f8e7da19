// Package store keeps games safe: each game is a header (variant, lexicon,
// seed, seats) and an append-only log of events (seats taken, moves
// played). A game is rebuilt by replaying its log, so an event is written
// before it is announced and nothing acknowledged is ever lost.
//
// Two implementations share one test suite (see storetest): SQLite, a
// single file and pure Go, for one machine; PostgreSQL for when one
// machine is outgrown.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned for a game that is not in the store.
var ErrNotFound = errors.New("store: no such game")

// ErrConflict is returned when an event's sequence number is not the next
// one of its game (another writer got there first, or a gap would open),
// or when a game id is already taken.
var ErrConflict = errors.New("store: conflicting write")

// Seat is one seat of a game as created: a person's seat has an empty
// Level; a computer seat names its player level. A seat with a clock has
// Seconds for all its moves and at most Overtime seconds past them, with
// Increment seconds more after each of its moves, or PerMove seconds for
// each move. A seat kept for an invited player
// account holds its key in Invited, and the inviting account's name in
// InvitedBy.
type Seat struct {
	Name      string `json:"name"`
	Level     string `json:"level,omitempty"`
	Seconds   int    `json:"seconds,omitempty"`
	Overtime  int    `json:"overtime,omitempty"`
	Increment int    `json:"increment,omitempty"`
	PerMove   int    `json:"per_move,omitempty"`
	Invited   string `json:"invited,omitempty"`
	InvitedBy string `json:"invited_by,omitempty"`
	// RatingMin and RatingMax keep a free person's seat for the accounts
	// rated from RatingMin to RatingMax (0: no bound), as the server
	// reads ratings.
	RatingMin int `json:"rating_min,omitempty"`
	RatingMax int `json:"rating_max,omitempty"`
}

// Game is a game's header.
type Game struct {
	ID      string
	Variant string
	Lexicon string
	Seed    uint64
	Seats   []Seat
	// Challenge is the game's challenge rule by name ("" for the void
	// rule: a word missing from the list is refused when played).
	Challenge string
	// Rated is set for a game whose result changes its players' ratings.
	Rated bool
	// Tournament is the game's place in a tournament, as the server
	// writes it ("" for none; opaque to the store).
	Tournament string
	Created    time.Time
	// Finished is set once the game is over; finished games are not
	// rebuilt at start-up.
	Finished bool
}

// Event is one entry of a game's log. Seq counts from 0 without gaps.
// Kind names the event ("join", "move"); Data is its JSON body, which
// the store keeps as opaque text.
type Event struct {
	Seq  int
	Kind string
	Data string
	Time time.Time
}

// Store keeps game headers and their event logs, accounts and
// tournaments. Implementations are safe for concurrent use. Every write
// is durable when it returns.
type Store interface {
	Accounts
	Tournaments
	// SawWatcher records that watcher (an opaque key) watched a game at
	// at, signed in as the account name ("" a guest), and forgets the
	// watchers not seen for WatcherKept.
	SawWatcher(ctx context.Context, game, watcher, name string, at time.Time) error
	// Watchers tells who watched each game since a time: how many, and
	// the names of the accounts among them (the games with none left
	// out).
	Watchers(ctx context.Context, since time.Time) (map[string]Watching, error)
	// CreateGame stores a new game's header (ErrConflict if the id exists).
	CreateGame(ctx context.Context, g *Game) error
	// Append adds the event e to the log of game id; e.Seq must be the
	// number of events already logged (ErrConflict otherwise).
	Append(ctx context.Context, id string, e Event) error
	// Finish marks a game as over.
	Finish(ctx context.Context, id string) error
	// CreateFinishedGame stores a game that is over as a whole, in one
	// transaction: its header, marked finished (g.Finished is set), and
	// its log evs, whose Seq count from 0. On any failure nothing of it
	// is stored (ErrConflict if the id exists or a Seq is out of order).
	CreateFinishedGame(ctx context.Context, g *Game, evs []Event) error
	// Load returns a game's header and its whole log in order.
	Load(ctx context.Context, id string) (*Game, []Event, error)
	// Unfinished lists the ids of games not yet over, oldest first.
	Unfinished(ctx context.Context) ([]string, error)
	// Migrate brings the data of logged events up to a format version:
	// if the store's data version is below version, fn is called with
	// every event of every game, in order of game id and sequence, and
	// returns the data to keep; then the store's data version becomes
	// version. It runs in one transaction, so a failed migration changes
	// nothing, and at most one migration runs at a time. It returns how
	// many events changed (none when the store was already at version).
	Migrate(ctx context.Context, version int, fn MigrateFunc) (int, error)
	// DataVersion returns the store's data version: the last version
	// Migrate brought it to, 0 for a store never migrated.
	DataVersion(ctx context.Context) (int, error)
	// Close releases the store.
	Close() error
}

// MigrateFunc returns the new data of event e of game g, for Migrate.
type MigrateFunc func(g *Game, e Event) (string, error)

// migrateGame applies fn to the events of one game and returns the
// events whose data changed.
func migrateGame(g *Game, evs []Event, fn MigrateFunc) ([]Event, error) {
	var changed []Event
	for _, e := range evs {
		data, err := fn(g, e)
		if err != nil {
			return nil, fmt.Errorf("game %s event %d (%s): %w", g.ID, e.Seq, e.Kind, err)
		}
		if data != e.Data {
			e.Data = data
			changed = append(changed, e)
		}
	}
	return changed, nil
}

// decodeHeader fills the fields of a game header read as columns.
func decodeHeader(g *Game, seed, created int64, seats string) error {
	g.Seed, g.Created = uint64(seed), time.Unix(0, created).UTC()
	if err := json.Unmarshal([]byte(seats), &g.Seats); err != nil {
		return fmt.Errorf("store: game %s: seats: %w", g.ID, err)
	}
	return nil
}

// rowScanner is what both database/sql and pgx rows offer.
type rowScanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// scanEvents reads (seq, kind, data, time in Unix nanoseconds) rows.
func scanEvents(rows rowScanner) ([]Event, error) {
	var evs []Event
	for rows.Next() {
		var e Event
		var t int64
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Data, &t); err != nil {
			return nil, err
		}
		e.Time = time.Unix(0, t).UTC()
		evs = append(evs, e)
	}
	return evs, rows.Err()
}

// scanIDs reads rows of one text column.
func scanIDs(rows rowScanner) ([]string, error) {
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
