package store

import (
	"context"
	"fmt"
	"time"
)

// The analysis of recorded games' moves by static equity (RatedSeat's
// Analysed, TopMoves and Lost): the server judges every move of a game
// once it is over and records how each seat played, which the players'
// pages sum up and the operators' fair-play report compares.

// FairPlayRow is one account's analysed seats in rated games between
// people: the account, its name, the games, the moves judged, those
// that were the computer's best, and the equity given up.
type FairPlayRow struct {
	Account, Name             string
	Games, Analysed, TopMoves int
	Lost                      float64
}

// unanalysedSQL lists the recorded games with an account's seat that
// took a turn and was not analysed, after a game ID, in ID order.
func unanalysedSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT DISTINCT game%[4]s AS game FROM %[1]srated_seats
		WHERE game%[4]s > %[2]s AND account <> '' AND turns > 0 AND analysed = 0
		ORDER BY game LIMIT %[3]s`, prefix, arg(1), arg(2), byBytes(prefix))
}

// setAccuracySQL records a seat's analysis.
func setAccuracySQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`UPDATE %srated_seats SET analysed = %s, top_moves = %s, lost = %s WHERE game = %s AND seat = %s`,
		prefix, arg(1), arg(2), arg(3), arg(4), arg(5))
}

// fairPlaySQL sums up the analysed seats of the accounts in rated games
// where no seat was the computer's, finished at or after a time (its
// first argument), of one account or, when the second argument is "",
// of every account (arg numbers its placeholders: the second is used
// twice).
func fairPlaySQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT me.account, a.name, COUNT(*), SUM(me.analysed), SUM(me.top_moves), SUM(me.lost)
		FROM %[1]srated_seats me JOIN %[1]srated_games gg ON gg.game = me.game JOIN %[1]saccounts a ON a.key = me.account
		WHERE gg.rated AND me.account <> '' AND me.analysed > 0 AND me.finished >= %[2]s
			AND (%[3]s = '' OR me.account = %[3]s)
			AND NOT EXISTS (SELECT 1 FROM %[1]srated_seats o WHERE o.game = me.game AND o.level <> '')
		GROUP BY me.account, a.name ORDER BY me.account%[4]s`, prefix, arg(1), arg(2), byBytes(prefix))
}

// accuracyWrap says which game an error of SetAccuracy was about.
func accuracyWrap(game string, err error) error {
	return fmt.Errorf("store: record the analysis of game %s: %w", game, err)
}

// accuracyArgs are the arguments of setAccuracySQL for seat st of game.
func accuracyArgs(game string, st *RatedSeat) []any {
	return []any{st.Analysed, st.TopMoves, st.Lost, game, st.Seat}
}

// scanFairPlay reads the rows of fairPlaySQL.
func scanFairPlay(rows rowScanner) ([]FairPlayRow, error) {
	var out []FairPlayRow
	for rows.Next() {
		var r FairPlayRow
		if err := rows.Scan(&r.Account, &r.Name, &r.Games, &r.Analysed, &r.TopMoves, &r.Lost); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// UnanalysedGames implements Accounts.
func (s *SQLite) UnanalysedGames(ctx context.Context, after string, n int) ([]string, error) {
	return queryAll(ctx, s.funcs(), scanIDs, "games not analysed", unanalysedSQL("", sqliteArg), after, n)
}

// UnanalysedGames implements Accounts.
func (s *Postgres) UnanalysedGames(ctx context.Context, after string, n int) ([]string, error) {
	return queryAll(ctx, s.funcs(), scanIDs, "games not analysed", unanalysedSQL("atril_", pgArg), after, n)
}

// SetAccuracy implements Accounts.
func (s *SQLite) SetAccuracy(ctx context.Context, g *RatedGame) error {
	return s.updateSeats(ctx, g, setAccuracySQL("", sqliteArg), accuracyArgs, accuracyWrap)
}

// SetAccuracy implements Accounts.
func (s *Postgres) SetAccuracy(ctx context.Context, g *RatedGame) error {
	return s.updateSeats(ctx, g, setAccuracySQL("atril_", pgArg), accuracyArgs, accuracyWrap)
}

// FairPlay implements Accounts.
func (s *SQLite) FairPlay(ctx context.Context, since time.Time, account string) ([]FairPlayRow, error) {
	return queryAll(ctx, s.funcs(), scanFairPlay, "fair-play report", fairPlaySQL("", sqliteNumArg), since.UnixNano(), account)
}

// FairPlay implements Accounts.
func (s *Postgres) FairPlay(ctx context.Context, since time.Time, account string) ([]FairPlayRow, error) {
	return queryAll(ctx, s.funcs(), scanFairPlay, "fair-play report", fairPlaySQL("atril_", pgArg), since.UnixNano(), account)
}
