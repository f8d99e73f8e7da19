package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Bounds on what one account holds (the players it follows or blocks,
// its open reports, its new contacts, the tournaments it directs) are
// checked by the write that adds one, in its transaction, and writes
// bounded by one account run one at a time: a count made before the
// write, in another call, would let requests sent at once all pass it.

// ErrLimit is wrapped by the error of a write refused because its
// account holds as many of something as it may (see LimitError).
var ErrLimit = errors.New("store: as many as allowed")

// LimitError is the error of a write refused because its account holds
// Have of What (Have ≥ Max) and may hold at most Max. It wraps ErrLimit.
type LimitError struct {
	What      string // what is bounded: "follows", "blocks", "open reports"...
	Have, Max int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("store: %d %s, as many as allowed (%d)", e.Have, e.What, e.Max)
}

// Unwrap makes a LimitError an ErrLimit for errors.Is.
func (e *LimitError) Unwrap() error { return ErrLimit }

// ContactLimit bounds, for AddMessage, the accounts an account writes to
// that never wrote back: a first message between two accounts (none
// stored either way) is refused when its writer wrote, at Since or
// later, to Max accounts or more that never wrote to it. The zero
// ContactLimit bounds nothing.
type ContactLimit struct {
	Since time.Time
	Max   int
}

// TournamentLimit bounds, for CreateTournament, the unfinished
// tournaments of one account to Max: the store does not read a
// tournament's data, so Holds tells whether an unfinished tournament is
// Account's (nil: every one counts). Holds is called inside the store's
// transaction: it must not use the store. The zero TournamentLimit
// bounds nothing.
type TournamentLimit struct {
	Account string
	Max     int
	Holds   func(t *Tournament) bool
}

// ownTx runs fn in a transaction as inOpenTx does (the accounts of keys
// and owner open), one at a time among the transactions of the same
// owner: see inOwnTx.
type ownTx func(ctx context.Context, owner string, keys []string, fn func(d dbFuncs) error) error

// inOwnTx is inOpenTx for a write bounded by what the account of owner
// holds: such writes of one owner run one at a time, so that the count
// each makes in fn sees what the others wrote. SQLite runs one write
// transaction at a time anyway.
func (s *SQLite) inOwnTx(ctx context.Context, owner string, keys []string, fn func(d dbFuncs) error) error {
	return s.inOpenTx(ctx, append([]string{owner}, keys...), fn)
}

// inOwnTx is inOpenTx for a write bounded by what the account of owner
// holds: it holds owner's row exclusively (see lockOpen), so that such
// writes of one owner run one at a time and the count each makes in fn
// sees what the others wrote.
func (s *Postgres) inOwnTx(ctx context.Context, owner string, keys []string, fn func(d dbFuncs) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := s.lockOpen(ctx, tx, owner, keys...); err != nil {
		return err
	}
	if err := fn(pgTxFuncs(tx)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// lockOpen checks, in tx, that the accounts of owner and keys are open
// (ErrNotFound otherwise), and holds owner's row exclusively (FOR NO
// KEY UPDATE, which a closing of the account waits for too) and the
// others' shared until tx ends. The rows are locked one at a time in the
// order of their keys, so that two transactions locking the same rows
// never each wait for the other.
func (s *Postgres) lockOpen(ctx context.Context, tx pgx.Tx, owner string, keys ...string) error {
	for _, k := range slices.Compact(slices.Sorted(slices.Values(append([]string{owner}, keys...)))) {
		lock := " FOR SHARE"
		if k == owner {
			lock = " FOR NO KEY UPDATE"
		}
		if err := checkOpen(ctx, pgTxFuncs(tx).query, "atril_", pgArg, lock, []string{k}); err != nil {
			return err
		}
	}
	return nil
}

// listBound is the bound of a list of other accounts that an account
// keeps (those it follows, those it blocks), with the statements that
// find a row of it (the owner and the other account the arguments) and
// count the owner's rows.
type listBound struct {
	what       string
	has, count string
}

// check refuses, in d, to add other to owner's list when the list holds
// limit accounts or more and other is not one of them (limit ≤ 0: no
// bound).
func (b listBound) check(ctx context.Context, d dbFuncs, owner, other string, limit int) error {
	if limit <= 0 {
		return nil
	}
	if n, err := d.one(ctx, b.has, owner, other); err != nil || n > 0 {
		return err
	}
	n, err := d.one(ctx, b.count, owner)
	if err != nil {
		return err
	}
	if n >= limit {
		return &LimitError{What: b.what, Have: n, Max: limit}
	}
	return nil
}
