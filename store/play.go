package store

import (
	"context"
	"fmt"
)

// The seats' play of recorded games (RatedSeat's Turns, Bingos and
// Best), for the games finished before the server counted it: the
// server replays them once and fills it in.

// uncountedSQL lists the finished games an account held a seat of whose
// seats' play is not recorded (no seat with a turn, or no result at
// all), after a game ID, in ID order.
func uncountedSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT DISTINCT ag.game%[4]s AS game FROM %[1]saccount_games ag JOIN %[1]sgames g ON g.id = ag.game
		WHERE g.finished AND ag.game%[4]s > %[2]s
			AND NOT EXISTS (SELECT 1 FROM %[1]srated_seats s WHERE s.game = ag.game AND s.turns > 0)
		ORDER BY game LIMIT %[3]s`, prefix, arg(1), arg(2), byBytes(prefix))
}

// setPlaySQL records a seat's play.
func setPlaySQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`UPDATE %srated_seats SET turns = %s, bingos = %s, best_move = %s WHERE game = %s AND seat = %s`,
		prefix, arg(1), arg(2), arg(3), arg(4), arg(5))
}

// playWrap says which game an error of SetPlay was about.
func playWrap(game string, err error) error {
	return fmt.Errorf("store: record the play of game %s: %w", game, err)
}

// UncountedGames implements Accounts.
func (s *SQLite) UncountedGames(ctx context.Context, after string, n int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, uncountedSQL("", sqliteArg), after, n)
	if err != nil {
		return nil, fmt.Errorf("store: games without their play: %w", err)
	}
	defer rows.Close()
	return scanIDs(rows)
}

// SetPlay implements Accounts.
func (s *SQLite) SetPlay(ctx context.Context, g *RatedGame) error {
	return s.updateSeats(ctx, g, setPlaySQL("", sqliteArg), playArgs, playWrap)
}

// UncountedGames implements Accounts.
func (s *Postgres) UncountedGames(ctx context.Context, after string, n int) ([]string, error) {
	rows, err := s.pool.Query(ctx, uncountedSQL("atril_", pgArg), after, n)
	if err != nil {
		return nil, fmt.Errorf("store: games without their play: %w", err)
	}
	defer rows.Close()
	return scanIDs(rows)
}

// SetPlay implements Accounts.
func (s *Postgres) SetPlay(ctx context.Context, g *RatedGame) error {
	return s.updateSeats(ctx, g, setPlaySQL("atril_", pgArg), playArgs, playWrap)
}

// playArgs are the arguments of setPlaySQL for seat st of game.
func playArgs(game string, st *RatedSeat) []any {
	return []any{st.Turns, st.Bingos, st.Best, game, st.Seat}
}

// updateSeats runs q, an update of one seat of game g.Game, with the
// arguments args makes for each seat of g, in one transaction; a seat
// with no record fails it with ErrNotFound. wrap says what failed.
func (s *SQLite) updateSeats(ctx context.Context, g *RatedGame, q string, args func(string, *RatedSeat) []any, wrap func(string, error) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return wrap(g.Game, err)
	}
	defer tx.Rollback()
	for i := range g.Seats {
		st := &g.Seats[i]
		res, err := tx.ExecContext(ctx, q, args(g.Game, st)...)
		if err != nil {
			return wrap(g.Game, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return wrap(g.Game, missingSeat(st.Seat, err))
		}
	}
	if err := tx.Commit(); err != nil {
		return wrap(g.Game, err)
	}
	return nil
}

// updateSeats is SQLite.updateSeats on PostgreSQL.
func (s *Postgres) updateSeats(ctx context.Context, g *RatedGame, q string, args func(string, *RatedSeat) []any, wrap func(string, error) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return wrap(g.Game, err)
	}
	defer tx.Rollback(ctx)
	for i := range g.Seats {
		st := &g.Seats[i]
		tag, err := tx.Exec(ctx, q, args(g.Game, st)...)
		if err != nil {
			return wrap(g.Game, err)
		}
		if tag.RowsAffected() == 0 {
			return wrap(g.Game, missingSeat(st.Seat, nil))
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return wrap(g.Game, err)
	}
	return nil
}

// missingSeat is the error of a seat updateSeats found no record of (err
// when the count of rows could not be read).
func missingSeat(seat int, err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("seat %d: %w", seat, ErrNotFound)
}
