package store

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Rerating: when the rule that gives a recorded game its category
// changes (a word list alone, then a word list and the game's pace), the
// games are put in their new categories and the ratings worked out again
// from their results, as if the rule had always been the new one.

// CategoryFunc gives a recorded game its category, from its record and
// the seats of its header (nil when the store no longer holds the
// header).
type CategoryFunc func(g *RatedGame, seats []Seat) string

// rerateTx is what Rerate needs of a transaction of either driver: a
// query whose rows the caller closes, and a statement.
type rerateTx struct {
	query func(ctx context.Context, q string, args ...any) (rowScanner, func(), error)
	exec  func(ctx context.Context, q string, args ...any) error
}

// inList is the condition that column is one of vals, with arg's
// placeholders numbered after the n arguments before it, and its
// arguments.
func inList(column string, vals []string, n int, arg func(int) string) (string, []any) {
	ph := make([]string, len(vals))
	args := make([]any, len(vals))
	for i, v := range vals {
		ph[i], args[i] = arg(n+i+1), v
	}
	return column + " IN (" + strings.Join(ph, ", ") + ")", args
}

// recordedIn reads, in tx, the recorded games of the categories cats
// (in the order they finished) and the seats of their headers.
func recordedIn(ctx context.Context, tx rerateTx, prefix string, arg func(int) string, cats []string) ([]RatedGame, map[string][]Seat, error) {
	seats := map[string][]Seat{}
	if len(cats) == 0 {
		return nil, seats, nil
	}
	w, args := inList("g.category", cats, 0, arg)
	rows, done, err := tx.query(ctx, fmt.Sprintf(`SELECT `+ratedGameCols+` FROM %[1]srated_games g JOIN %[1]srated_seats s ON s.game = g.game
		WHERE %[2]s ORDER BY g.finished, g.game%[3]s, s.seat`, prefix, w, byBytes(prefix)), args...)
	if err != nil {
		return nil, nil, err
	}
	games, err := scanRatedGames(rows)
	done()
	if err != nil {
		return nil, nil, err
	}
	rows, done, err = tx.query(ctx, fmt.Sprintf(`SELECT h.id, h.seats FROM %[1]sgames h JOIN %[1]srated_games g ON g.game = h.id WHERE %[2]s`, prefix, w), args...)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	for rows.Next() {
		var id, js string
		if err := rows.Scan(&id, &js); err != nil {
			return nil, nil, err
		}
		var ss []Seat
		if err := json.Unmarshal([]byte(js), &ss); err != nil {
			return nil, nil, fmt.Errorf("game %s: seats: %w", id, err)
		}
		seats[id] = ss
	}
	return games, seats, rows.Err()
}

// rerate runs Rerate in tx over the tables named with prefix, with arg's
// placeholders.
func rerate(ctx context.Context, tx rerateTx, prefix string, arg func(int) string, from []string, cat CategoryFunc, rate func(g *RatedGame) RateFunc) (int, error) {
	games, seats, err := recordedIn(ctx, tx, prefix, arg, from)
	if err != nil {
		return 0, err
	}
	// The categories the games go to, and the games already there.
	all := slices.Clone(from)
	var to []string
	for i := range games {
		c := cat(&games[i], seats[games[i].Game])
		if !slices.Contains(all, c) {
			all = append(all, c)
			to = append(to, c)
		}
	}
	more, moreSeats, err := recordedIn(ctx, tx, prefix, arg, to)
	if err != nil {
		return 0, err
	}
	if len(more) > 0 {
		maps.Copy(seats, moreSeats)
		games = append(games, more...)
		slices.SortStableFunc(games, func(a, b RatedGame) int {
			return cmp.Or(a.Finished.Compare(b.Finished), cmp.Compare(a.Game, b.Game))
		})
	}
	old := make([]RatedGame, len(games))
	for i, g := range games {
		old[i] = g
		old[i].Seats = slices.Clone(g.Seats)
	}
	ratings, n, err := rerateGames(games, seats, cat, rate)
	if err != nil {
		return 0, err
	}
	for i := range games {
		g, o := &games[i], &old[i]
		if g.Category != o.Category {
			if err := tx.exec(ctx, fmt.Sprintf(`UPDATE %srated_games SET category = %s WHERE game = %s`, prefix, arg(1), arg(2)), g.Category, g.Game); err != nil {
				return 0, err
			}
		}
		for j, s := range g.Seats {
			os := o.Seats[j]
			if s.RBefore == os.RBefore && s.RDBefore == os.RDBefore && s.RAfter == os.RAfter && s.RDAfter == os.RDAfter {
				continue
			}
			if err := tx.exec(ctx, fmt.Sprintf(`UPDATE %srated_seats SET r_before = %s, rd_before = %s, r_after = %s, rd_after = %s WHERE game = %s AND seat = %s`,
				prefix, arg(1), arg(2), arg(3), arg(4), arg(5), arg(6)), s.RBefore, s.RDBefore, s.RAfter, s.RDAfter, g.Game, s.Seat); err != nil {
				return 0, err
			}
		}
	}
	w, args := inList("category", all, 0, arg)
	if err := tx.exec(ctx, fmt.Sprintf(`DELETE FROM %sratings WHERE %s`, prefix, w), args...); err != nil {
		return 0, err
	}
	for _, r := range ratings {
		if err := tx.exec(ctx, fmt.Sprintf(`INSERT INTO %sratings(`+ratingCols+`) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)`, prefix,
			arg(1), arg(2), arg(3), arg(4), arg(5), arg(6), arg(7), arg(8), arg(9), arg(10), arg(11)),
			r.Account, r.Name, r.Category, r.R, r.RD, r.Vol, r.Games, r.Wins, r.Losses, r.Draws, r.Updated.UnixNano()); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// rerateGames puts games (in the order they finished) in the categories
// cat gives them and rates the rated ones again in that order, filling in
// their seats' ratings before and after; it returns the ratings the games
// leave, by account and category, and the number of rated games.
func rerateGames(games []RatedGame, seats map[string][]Seat, cat CategoryFunc, rate func(g *RatedGame) RateFunc) ([]Rating, int, error) {
	type key struct{ account, category string }
	now := map[key]Rating{}
	n := 0
	for i := range games {
		g := &games[i]
		g.Category = cat(g, seats[g.Game])
		if !g.Rated {
			continue
		}
		n++
		before := make([]Rating, len(g.Seats))
		for j, s := range g.Seats {
			before[j] = Rating{Account: s.Account, Name: s.Name, Category: g.Category}
			if r, ok := now[key{s.Account, g.Category}]; ok {
				before[j] = r
			}
		}
		after, err := applyRatings(g, before, rate(g))
		if err != nil {
			return nil, 0, fmt.Errorf("game %s: %w", g.Game, err)
		}
		for _, r := range accountRatings(after) {
			now[key{r.Account, r.Category}] = r
		}
	}
	out := make([]Rating, 0, len(now))
	for _, r := range now {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Rating) int {
		return cmp.Or(cmp.Compare(a.Account, b.Account), cmp.Compare(a.Category, b.Category))
	})
	return out, n, nil
}

// Rerate implements Accounts. The store's one connection makes the
// transaction the only writer while it runs.
func (s *SQLite) Rerate(ctx context.Context, from []string, cat CategoryFunc, rate func(g *RatedGame) RateFunc) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: rerate: %w", err)
	}
	defer tx.Rollback()
	n, err := rerate(ctx, rerateTx{
		query: func(ctx context.Context, q string, args ...any) (rowScanner, func(), error) {
			rows, err := tx.QueryContext(ctx, q, args...)
			if err != nil {
				return nil, nil, err
			}
			return rows, func() { rows.Close() }, nil
		},
		exec: func(ctx context.Context, q string, args ...any) error {
			_, err := tx.ExecContext(ctx, q, args...)
			return err
		},
	}, "", sqliteNumArg, from, cat, rate)
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return 0, fmt.Errorf("store: rerate: %w", err)
	}
	return n, nil
}

// Rerate implements Accounts. The tables of results and ratings are
// locked against other writers (readers go on) until it commits.
func (s *Postgres) Rerate(ctx context.Context, from []string, cat CategoryFunc, rate func(g *RatedGame) RateFunc) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: rerate: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `LOCK TABLE atril_rated_games, atril_rated_seats, atril_ratings IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return 0, fmt.Errorf("store: rerate: %w", err)
	}
	n, err := rerate(ctx, rerateTx{
		query: func(ctx context.Context, q string, args ...any) (rowScanner, func(), error) {
			rows, err := tx.Query(ctx, q, args...)
			if err != nil {
				return nil, nil, err
			}
			return rows, rows.Close, nil
		},
		exec: func(ctx context.Context, q string, args ...any) error {
			_, err := tx.Exec(ctx, q, args...)
			return err
		},
	}, "atril_", pgArg, from, cat, rate)
	if err == nil {
		err = tx.Commit(ctx)
	}
	if err != nil {
		return 0, fmt.Errorf("store: rerate: %w", err)
	}
	return n, nil
}

// recordedCategoriesSQL lists the categories of the recorded games.
func recordedCategoriesSQL(prefix string) string {
	return fmt.Sprintf(`SELECT DISTINCT category%[2]s AS category FROM %[1]srated_games ORDER BY category`, prefix, byBytes(prefix))
}

// RecordedCategories implements Accounts.
func (s *SQLite) RecordedCategories(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, recordedCategoriesSQL(""))
	if err != nil {
		return nil, fmt.Errorf("store: categories: %w", err)
	}
	defer rows.Close()
	out, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: categories: %w", err)
	}
	return out, nil
}

// RecordedCategories implements Accounts.
func (s *Postgres) RecordedCategories(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, recordedCategoriesSQL("atril_"))
	if err != nil {
		return nil, fmt.Errorf("store: categories: %w", err)
	}
	defer rows.Close()
	out, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: categories: %w", err)
	}
	return out, nil
}
