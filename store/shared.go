package store

import (
	"context"
	"time"
)

// Shared is a Store that several server processes use at once (the
// PostgreSQL store). The database coordinates them: a game's row lock
// lets one process at a time write to the game, every appended event is
// announced to every process (LISTEN/NOTIFY), and a game whose computer
// seat is due to move is recorded, so that any process can take over the
// move of one that died.
type Shared interface {
	Store
	// EventsFrom returns the events of game id numbered from on, in order.
	EventsFrom(ctx context.Context, id string, from int) ([]Event, error)
	// AppendShared is Append holding the game's row lock; it also records
	// when a computer seat of the game is due to have moved (botDue; the
	// zero time when none is on turn after this event), unless keepDue
	// (an event that puts no one on turn, a chat line: the time recorded
	// stays), and announces the event to every Listen.
	AppendShared(ctx context.Context, id string, e Event, botDue time.Time, keepDue bool) error
	// Listen calls fn(id, seq, kind) for each event any process appends,
	// from one goroutine, until ctx ends. When it (re)connects it calls
	// fn("", -1, ""): events may have been missed meanwhile.
	Listen(ctx context.Context, fn func(id string, seq int, kind string)) error
	// ClaimDue takes up to n unfinished games whose computer seat was due
	// to have moved before now and moves their due time to until, so that
	// no other process takes them meanwhile; it returns their ids.
	ClaimDue(ctx context.Context, now, until time.Time, n int) ([]string, error)
	// SetDue sets when game id's computer seat is due to have moved (the
	// zero time: none is on turn).
	SetDue(ctx context.Context, id string, due time.Time) error
	// Stale lists up to n unfinished games with no event (nor creation)
	// since before and an id above after, in order of id: candidates for
	// expiry, read page by page.
	Stale(ctx context.Context, before time.Time, after string, n int) ([]string, error)
}
