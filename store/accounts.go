package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Account is a player's account: the name as the player wrote it, the
// key it is found by (the name folded, unique), the password's encoded
// hash and when it was made; and, if an operator suspended it, why and
// since when (Suspended is "" otherwise).
type Account struct {
	Key         string
	Name        string
	Password    string
	Created     time.Time
	Suspended   string
	SuspendedAt time.Time
}

// Rating is an account's rating in one category (a word list): the
// Glicko-2 figures and the account's rated games in it.
type Rating struct {
	Account  string // the account's key
	Name     string // the account's name
	Category string
	R, RD    float64
	Vol      float64
	Games    int
	Wins     int
	Losses   int
	Draws    int
	Updated  time.Time
}

// Block is an account that another one blocks: its key, its name and
// since when.
type Block struct {
	Key   string
	Name  string
	Since time.Time
}

// Report is a player's report of another account to the operators: who
// wrote it about whom (keys, and names as they are now), the game it
// concerns ("" for none), what happened, when, and when an operator
// closed it (zero while open).
type Report struct {
	ID             int64
	By, Of         string
	ByName, OfName string
	Game           string
	Reason         string
	Created        time.Time
	Closed         time.Time
}

// RatedSeat is one seat of a rated game: the account that held it, its
// final score and result (1 a win, ½ a draw, 0 a loss), and its rating
// before and after the game.
type RatedSeat struct {
	Seat     int
	Account  string
	Name     string
	Score    int
	Result   float64
	RBefore  float64
	RDBefore float64
	RAfter   float64
	RDAfter  float64
	// Level is the computer level that held the seat ("" a person;
	// Account is "" for a computer and for a person not signed in).
	Level string
	// Turns, Bingos and Best are how the seat played (game.Tally):
	// turns taken, placements of a whole rack, the points of the best
	// placement. Turns is 0 in results recorded before the store kept
	// them.
	Turns, Bingos, Best int
	// Analysed is the number of the seat's moves judged by static
	// equity (the computer's valuation of score and leave, each move
	// against the best one in its place; 0 until the game is analysed);
	// TopMoves, those that were the best; Lost, the equity given up
	// against the best moves in all. SetAccuracy records them.
	Analysed, TopMoves int
	Lost               float64
}

// RatedGame is a finished game's result as recorded: of a rated game
// (Rated; its seats' ratings before and after), or of a casual game
// with an account in a seat (RecordGame; the ratings are zero).
type RatedGame struct {
	Game     string
	Category string
	Finished time.Time
	Rated    bool
	Seats    []RatedSeat
}

// Kind picks games by whether they were rated.
type Kind string

// The kinds of games a RatedFilter picks.
const (
	KindAny    Kind = ""
	KindRated  Kind = "rated"
	KindCasual Kind = "casual"
)

// RatedFilter picks some of an account's recorded games: those of a
// kind (rated, casual or any), those of some categories (none: any), those
// against one other account (its key; "" any), those against a computer
// level (Level; "" any), and, when Before is set,
// those listed after it, newest first (finished earlier, or at the same
// time with a greater game ID): the cursor of a list's next page is its
// last game.
type RatedFilter struct {
	Kind       Kind
	Categories []string
	Opponent   string
	Level      string
	Before     *RatedCursor
}

// RatedCursor is a place in an account's rated games, newest first: a
// game and when it finished.
type RatedCursor struct {
	Finished time.Time
	Game     string
}

// RatedTotals sums up some of an account's rated games: how many, won,
// lost and drawn; the points it scored in them; the other seats of those
// games and their points (the opponents' average is OpponentPoints /
// OpponentSeats); and its highest score with the game (zero values when
// there is no game).
type RatedTotals struct {
	Games, Wins, Losses, Draws int
	Points                     int64
	OpponentSeats              int
	OpponentPoints             int64
	High                       int
	HighGame                   string
	HighFinished               time.Time
	// Of the games whose seats' play was recorded (RatedSeat.Turns > 0):
	// their number, the player's points, turns and bingos, and the best
	// placement.
	PlayGames, PlayPoints, Turns, Bingos int
	Best                                 int
	BestGame                             string
	BestFinished                         time.Time
	// Of the games analysed (RatedSeat.Analysed > 0): their number, the
	// moves judged, those that were the best, and the equity given up.
	AnalysedGames, Analysed, TopMoves int
	Lost                              float64
}

// ratedWhere is the condition on an account's seat (me, of the game gg
// of rated_games; prefix begins the tables' names) that f picks, with
// its arguments, the account's key first; arg writes the placeholder of argument i
// (1-based), ? or $i. With before unset f.Before is ignored.
func ratedWhere(prefix string, f RatedFilter, key string, before bool, arg func(int) string) (string, []any) {
	args := []any{key}
	w := "me.account = " + arg(1)
	switch f.Kind {
	case KindRated:
		w += " AND gg.rated"
	case KindCasual:
		w += " AND NOT gg.rated"
	}
	if len(f.Categories) > 0 {
		ph := make([]string, len(f.Categories))
		for i, c := range f.Categories {
			args = append(args, c)
			ph[i] = arg(len(args))
		}
		w += " AND gg.category IN (" + strings.Join(ph, ", ") + ")"
	}
	if f.Opponent != "" {
		args = append(args, f.Opponent)
		w += " AND me.game IN (SELECT o.game FROM " + prefix + "rated_seats o WHERE o.account = " + arg(len(args)) + " AND o.account <> me.account)"
	}
	if f.Level != "" {
		args = append(args, f.Level)
		w += " AND me.game IN (SELECT o.game FROM " + prefix + "rated_seats o WHERE o.level = " + arg(len(args)) + ")"
	}
	if before && f.Before != nil {
		at := f.Before.Finished.UnixNano()
		args = append(args, at, at, f.Before.Game)
		w += fmt.Sprintf(" AND (me.finished < %s OR (me.finished = %s AND me.game%s > %s))", arg(len(args)-2), arg(len(args)-1), byBytes(prefix), arg(len(args)))
	}
	return w, args
}

// ratedListQuery is the statement of RatedGames over the tables named
// with prefix, with arg's placeholders, and its arguments (n last).
func ratedListQuery(prefix string, f RatedFilter, key string, n int, arg func(int) string) (string, []any) {
	w, args := ratedWhere(prefix, f, key, true, arg)
	args = append(args, n)
	return fmt.Sprintf(`SELECT `+ratedGameCols+`
		FROM (SELECT me.game, me.finished FROM %[1]srated_seats me JOIN %[1]srated_games gg ON gg.game = me.game
			WHERE %[2]s ORDER BY me.finished DESC, me.game%[4]s LIMIT %[3]s) m
		JOIN %[1]srated_games g ON g.game = m.game JOIN %[1]srated_seats s ON s.game = m.game
		ORDER BY m.finished DESC, m.game%[4]s, s.seat`, prefix, w, arg(len(args)), byBytes(prefix)), args
}

// ratedGameCols are the columns of a seat of a recorded game (g of
// rated_games, s of rated_seats) that scanRatedGames reads.
const ratedGameCols = `g.game, g.category, g.finished, g.rated, s.seat, s.account, s.name, s.score, s.result,
	s.r_before, s.rd_before, s.r_after, s.rd_after, s.level, s.turns, s.bingos, s.best_move, s.analysed, s.top_moves, s.lost`

// ratedTotalsQueries are the statements of RatedTotals (the counts and
// the play, the opponents' points, the highest score, the best
// placement) and their arguments, as ratedListQuery's.
func ratedTotalsQueries(prefix string, f RatedFilter, key string, arg func(int) string) ([4]string, []any) {
	w, args := ratedWhere(prefix, f, key, false, arg)
	from := fmt.Sprintf("FROM %[1]srated_seats me JOIN %[1]srated_games gg ON gg.game = me.game", prefix)
	return [4]string{
		fmt.Sprintf(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN me.result = 1 THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN me.result = 0 THEN 1 ELSE 0 END), 0), COALESCE(SUM(me.score), 0),
		COALESCE(SUM(CASE WHEN me.turns > 0 THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN me.turns > 0 THEN me.score ELSE 0 END), 0),
		COALESCE(SUM(me.turns), 0), COALESCE(SUM(me.bingos), 0),
		COALESCE(SUM(CASE WHEN me.analysed > 0 THEN 1 ELSE 0 END), 0), COALESCE(SUM(me.analysed), 0),
		COALESCE(SUM(me.top_moves), 0), COALESCE(SUM(me.lost), 0) %s WHERE %s`, from, w),
		fmt.Sprintf(`SELECT COUNT(*), COALESCE(SUM(o.score), 0) %s
		JOIN %srated_seats o ON o.game = me.game AND o.seat <> me.seat WHERE %s`, from, prefix, w),
		fmt.Sprintf(`SELECT me.game, me.score, me.finished %s WHERE %s ORDER BY me.score DESC, me.finished DESC, me.game%s LIMIT 1`, from, w, byBytes(prefix)),
		fmt.Sprintf(`SELECT me.game, me.best_move, me.finished %s WHERE %s AND me.turns > 0 ORDER BY me.best_move DESC, me.finished DESC, me.game%s LIMIT 1`, from, w, byBytes(prefix)),
	}, args
}

// LevelTotal sums up an account's recorded games against one computer
// level: how many, won, lost and drawn, its points and the computer's.
type LevelTotal struct {
	Level                      string
	Games, Wins, Losses, Draws int
	Points, LevelPoints        int64
}

// levelTotalsSQL is the statement of LevelTotals over the tables named
// with prefix: by level, the account's seats in games with a computer's
// seat, and the computer's points there.
func levelTotalsSQL(prefix string, arg func(int) string) string {
	return fmt.Sprintf(`SELECT o.level, COUNT(*), COALESCE(SUM(CASE WHEN me.result = 1 THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN me.result = 0 THEN 1 ELSE 0 END), 0), COALESCE(SUM(me.score), 0), COALESCE(SUM(o.score), 0)
		FROM %[1]srated_seats me JOIN %[1]srated_seats o ON o.game = me.game AND o.seat <> me.seat AND o.level <> ''
		WHERE me.account = %[2]s GROUP BY o.level ORDER BY o.level%[3]s`, prefix, arg(1), byBytes(prefix))
}

// levelTotals runs LevelTotals on d.
func levelTotals(ctx context.Context, d dbFuncs, q, key string) ([]LevelTotal, error) {
	return queryAll(ctx, d, func(rows rowScanner) ([]LevelTotal, error) {
		var out []LevelTotal
		for rows.Next() {
			var t LevelTotal
			if err := rows.Scan(&t.Level, &t.Games, &t.Wins, &t.Losses, &t.Points, &t.LevelPoints); err != nil {
				return nil, err
			}
			t.Draws = t.Games - t.Wins - t.Losses
			out = append(out, t)
		}
		return out, rows.Err()
	}, fmt.Sprintf("games of %q against the computer", key), q, key)
}

// LevelTotals implements Accounts.
func (s *SQLite) LevelTotals(ctx context.Context, key string) ([]LevelTotal, error) {
	return levelTotals(ctx, s.funcs(), levelTotalsSQL("", sqliteArg), key)
}

// LevelTotals implements Accounts.
func (s *Postgres) LevelTotals(ctx context.Context, key string) ([]LevelTotal, error) {
	return levelTotals(ctx, s.funcs(), levelTotalsSQL("atril_", pgArg), key)
}

// rowQuerier runs a query of one row.
type rowQuerier func(ctx context.Context, query string, args ...any) interface{ Scan(dest ...any) error }

// scanRatedTotals runs the statements of ratedTotalsQueries.
func scanRatedTotals(ctx context.Context, one rowQuerier, q [4]string, args []any) (RatedTotals, error) {
	var t RatedTotals
	if err := one(ctx, q[0], args...).Scan(&t.Games, &t.Wins, &t.Losses, &t.Points, &t.PlayGames, &t.PlayPoints, &t.Turns, &t.Bingos,
		&t.AnalysedGames, &t.Analysed, &t.TopMoves, &t.Lost); err != nil {
		return t, err
	}
	t.Draws = t.Games - t.Wins - t.Losses
	if t.Games == 0 {
		return t, nil
	}
	if err := one(ctx, q[1], args...).Scan(&t.OpponentSeats, &t.OpponentPoints); err != nil {
		return t, err
	}
	var finished int64
	if err := one(ctx, q[2], args...).Scan(&t.HighGame, &t.High, &finished); err != nil {
		return t, err
	}
	t.HighFinished = time.Unix(0, finished).UTC()
	if t.PlayGames == 0 {
		return t, nil
	}
	if err := one(ctx, q[3], args...).Scan(&t.BestGame, &t.Best, &finished); err != nil {
		return t, err
	}
	t.BestFinished = time.Unix(0, finished).UTC()
	return t, nil
}

// AccountGame is a seat of a game taken by an account.
type AccountGame struct {
	Game   string
	Seat   int
	Joined time.Time
}

// Seen is an account and when it was last seen.
type Seen struct {
	Key, Name string
	At        time.Time
}

// scanSeen reads rows of (key, name, seen) as Seen.
func scanSeen(rows rowScanner) ([]Seen, error) {
	var out []Seen
	err := scanKeyNameTime(rows, "accounts seen", func(key, name string, at time.Time) { out = append(out, Seen{key, name, at}) })
	return out, err
}

// RateFunc works out the ratings after a game from those before it, in
// the order of the game's seats. An account without a rating in the
// category comes with Games 0 and R, RD and Vol 0: the function fills in
// a newcomer's rating there, which the record keeps as the rating before
// the game. A seat held by no account (the computer's, in a rated game
// against it) comes with Account "", its rating the function's to fill
// in and never written. It returns the new ratings (with the counts of
// games, wins, losses and draws updated) in the same order.
type RateFunc func(before []Rating) ([]Rating, error)

// Accounts keeps player accounts, their sessions and their ratings.
type Accounts interface {
	// CreateAccount stores a new account (ErrConflict if its key exists).
	CreateAccount(ctx context.Context, a *Account) error
	// Account returns the account of a key (ErrNotFound if none).
	Account(ctx context.Context, key string) (*Account, error)
	// CreateSession stores a signed-in session by its token's hash, for
	// the account of key, until expires, if the account's password hash
	// is still password (the one the sign-in checked; ErrConflict if it
	// changed meanwhile, ErrNotFound if there is no such account).
	CreateSession(ctx context.Context, hash, key, password string, expires time.Time) error
	// Session returns the account of a session that has not expired at
	// now (ErrNotFound otherwise).
	Session(ctx context.Context, hash string, now time.Time) (*Account, error)
	// DeleteSession ends a session (no error if there is none).
	DeleteSession(ctx context.Context, hash string) error
	// DeleteSessions ends every session of the account of key but the
	// one whose hash is keep ("" keeps none), and reports how many ended.
	DeleteSessions(ctx context.Context, key, keep string) (int, error)
	// Suspend keeps the account of key from signing in, for reason (not
	// empty), and ends its sessions, in one transaction (ErrNotFound if
	// there is no such account). A suspended account's sessions are not
	// found and it is left off the leaderboards; suspending it again
	// replaces the reason.
	Suspend(ctx context.Context, key, reason string, at time.Time) error
	// Unsuspend lifts the account's suspension (ErrNotFound if there is
	// no such account; nothing to do if it was not suspended).
	Unsuspend(ctx context.Context, key string) error
	// Block records that the account of key blocks the account of other
	// (ErrNotFound if either account does not exist or is closed; blocking again
	// changes nothing). An account cannot block itself. With limit > 0,
	// an account that blocks limit accounts or more (other not among
	// them) blocks no more: a LimitError, counted in the transaction of
	// the write (see ErrLimit).
	Block(ctx context.Context, key, other string, at time.Time, limit int) error
	// Unblock lifts the block of other by key (nothing to do if there
	// is none).
	Unblock(ctx context.Context, key, other string) error
	// Blocks returns the accounts that key blocks, by name.
	Blocks(ctx context.Context, key string) ([]Block, error)
	// Blocking returns the keys of the accounts that key blocks or that
	// block key, each once, in no particular order.
	Blocking(ctx context.Context, key string) ([]string, error)
	// CloseAccount closes the account of key for its owner, in one
	// transaction (ErrNotFound if there is no such account): see
	// ClosedReason for what goes and what stays.
	CloseAccount(ctx context.Context, key string, at time.Time) error
	// UnfinishedGames returns the unfinished games in which the account
	// of key took a seat, by id.
	UnfinishedGames(ctx context.Context, key string) ([]string, error)
	// Follow records that the account of key follows the account of
	// other (ErrNotFound if either account does not exist or is closed; following
	// again changes nothing). An account cannot follow itself. With
	// limit > 0, an account that follows limit accounts or more (as
	// Follows lists them; other not among them) follows no more: a
	// LimitError, counted in the transaction of the write (see
	// ErrLimit).
	Follow(ctx context.Context, key, other string, at time.Time, limit int) error
	// Unfollow ends key's following of other (nothing to do if there is
	// none).
	Unfollow(ctx context.Context, key, other string) error
	// Follows returns the accounts that key follows, by key, with when
	// each was last seen; suspended accounts are left out.
	Follows(ctx context.Context, key string) ([]Follow, error)
	// SetBio writes what the account of key says about itself over what
	// it said before (a Bio with no text and no country takes it away);
	// ErrNotFound when there is no such account or it is closed.
	SetBio(ctx context.Context, key string, b Bio) error
	// Bio returns what the account of key says about itself (the zero
	// Bio when nothing).
	Bio(ctx context.Context, key string) (Bio, error)
	// SetSettings writes the account of key's settings (a JSON object of
	// at most MaxSettings bytes, which the store does not read) over
	// those before, at; "" takes them away. ErrNotFound when there is
	// no such account or it is closed.
	SetSettings(ctx context.Context, key, prefs string, at time.Time) error
	// Settings returns the settings of the account of key as SetSettings
	// wrote them ("" when none).
	Settings(ctx context.Context, key string) (string, error)
	// AddPushSubscription records a browser's push subscription for
	// p.Account (ErrNotFound when there is no such account or it is
	// closed): an endpoint held by another account moves to this one,
	// and beyond MaxPushSubscriptions the oldest of the account's go.
	AddPushSubscription(ctx context.Context, p PushSubscription) error
	// RemovePushSubscription forgets the subscription of endpoint, when
	// it is account's (any account's for account "").
	RemovePushSubscription(ctx context.Context, account, endpoint string) error
	// PushSubscriptions returns the subscriptions of account, newest
	// first.
	PushSubscriptions(ctx context.Context, account string) ([]PushSubscription, error)
	// PushKey returns the server's push key of name: the one stored, or,
	// when there is none, private, which it stores (so that every
	// process asking with its own new key gets the same one).
	PushKey(ctx context.Context, name, private string) (string, error)
	// AddPasskey registers a passkey for p.Account (ErrNotFound when there
	// is no such account or it is closed; a LimitError past
	// MaxPasskeys; ErrConflict for an id registered already).
	AddPasskey(ctx context.Context, p *Passkey) error
	// Passkeys returns the passkeys of account, oldest first.
	Passkeys(ctx context.Context, account string) ([]Passkey, error)
	// PasskeyByID returns the passkey of id (ErrNotFound when none).
	PasskeyByID(ctx context.Context, id string) (*Passkey, error)
	// PasskeyUsed records a sign-in with the passkey of id at, its
	// authenticator's counter now count: ErrConflict when the counter
	// did not go up (another sign-in took it first), unless it is 0.
	PasskeyUsed(ctx context.Context, id string, count uint32, at time.Time) error
	// RemovePasskey removes account's passkey of id (ErrNotFound when it
	// has none of that id).
	RemovePasskey(ctx context.Context, account, id string) error
	// PutChallenge keeps a challenge handed out (dropping those expired
	// at now).
	PutChallenge(ctx context.Context, c *Challenge, now time.Time) error
	// TakeChallenge removes the challenge of value and purpose and
	// returns its account, once (ErrNotFound when it is unknown, expired
	// at now, or taken already).
	TakeChallenge(ctx context.Context, value, purpose string, now time.Time) (string, error)
	// SetRecoveryCodes replaces the recovery codes of account by the
	// codes of hashes (their SHA-256), made at (ErrNotFound when there is
	// no such account or it is closed).
	SetRecoveryCodes(ctx context.Context, account string, hashes []string, at time.Time) error
	// UseRecoveryCode removes account's code of hash, once (ErrNotFound
	// when it has none such).
	UseRecoveryCode(ctx context.Context, account, hash string) error
	// RecoveryCodesLeft counts account's codes not used.
	RecoveryCodesLeft(ctx context.Context, account string) (int, error)
	// Followers counts the accounts that follow key, suspended ones left
	// out.
	Followers(ctx context.Context, key string) (int, error)
	// SetSeen records that the account of key was seen at (an earlier
	// time than the one recorded changes nothing; nothing is recorded
	// of an account that does not exist or is closed).
	SetSeen(ctx context.Context, key string, at time.Time) error
	// SeenAt returns when the account of key was last seen (the zero
	// Time: never).
	SeenAt(ctx context.Context, key string) (time.Time, error)
	// FindAccounts returns the accounts whose key starts with prefix, in
	// the order of their keys, at most n, with when each was last seen
	// (the zero Time: never); suspended and closed accounts are left out.
	FindAccounts(ctx context.Context, prefix string, n int) ([]Seen, error)
	// SeenSince returns the accounts seen at since or later, the latest
	// seen first (ties by key), at most n; suspended accounts are left
	// out.
	SeenSince(ctx context.Context, since time.Time, n int) ([]Seen, error)
	// AddReport stores a new report, open, and sets its ID (ErrNotFound
	// if either account does not exist, or the writer's is closed). With
	// limit > 0, an account with limit open reports or more writes no
	// more: a LimitError, counted in the transaction of the write (see
	// ErrLimit).
	AddReport(ctx context.Context, r *Report, limit int) error
	// Reports returns the n latest reports, newest first: the open ones
	// only unless all, about the account of key only unless key is "".
	Reports(ctx context.Context, key string, all bool, n int) ([]Report, error)
	// OpenReportsBy counts the open reports the account of key wrote.
	OpenReportsBy(ctx context.Context, key string) (int, error)
	// AddLobbyLine stores a line of the lobby's chat by the account
	// l.Account (ErrNotFound if there is no such account or it is
	// closed) and sets its
	// ID; only the latest keep lines are kept.
	AddLobbyLine(ctx context.Context, l *LobbyLine, keep int) error
	// LobbyLines returns the n latest lines of the lobby's chat, oldest
	// first, with their writers' names; those of suspended accounts are
	// left out.
	LobbyLines(ctx context.Context, n int) ([]LobbyLine, error)
	// DeleteLobbyLine removes a line of the lobby's chat (ErrNotFound if
	// there is no such line).
	DeleteLobbyLine(ctx context.Context, id int64) error
	// CloseReport closes a report at (ErrNotFound if there is no such
	// report; closing it again changes nothing).
	CloseReport(ctx context.Context, id int64, at time.Time) error
	// SetPassword replaces the password hash of the account of key, if it
	// is still old, and in the same transaction ends its sessions but
	// keep's (ErrConflict if the hash is no longer old, ErrNotFound if
	// there is no such account).
	SetPassword(ctx context.Context, key, old, hash, keep string) error
	// Ratings returns an account's ratings, one per category it has
	// played rated games in, by category.
	Ratings(ctx context.Context, key string) ([]Rating, error)
	// Leaderboard returns the n highest ratings of a category, ranked by
	// R − 2·RD (a rating known from few games ranks lower).
	Leaderboard(ctx context.Context, category string, n int) ([]Rating, error)
	// RateGame records the result of a finished rated game once: in one
	// transaction it reads the seats' ratings in g.Category, calls rate,
	// and writes the new ratings and the game's record (g.Seats with
	// their ratings before and after filled in). It reports false, and
	// changes nothing, when the game was recorded before (by this process
	// or another sharing the store).
	RateGame(ctx context.Context, g *RatedGame, rate RateFunc) (bool, error)
	// Rerate moves the recorded games of the categories from to the
	// categories cat gives them, and rates again, in the order they
	// finished (ties by game ID), the rated games of from and of the
	// categories they go to, from no ratings at all: each game's seats
	// start from their ratings in its category after the games before
	// it, rate(g) works out the ratings after it, and the seats' ratings
	// before and after are written again; the ratings in those categories
	// become those the games leave. It runs in one transaction (other
	// writers wait; a failure changes nothing) and returns the number of
	// rated games rated again.
	Rerate(ctx context.Context, from []string, cat CategoryFunc, rate func(g *RatedGame) RateFunc) (int, error)
	// RecordedCategories returns the categories of the recorded games,
	// in order.
	RecordedCategories(ctx context.Context) ([]string, error)
	// RecordGame records the result of a finished casual game once (its
	// seats' ratings are not read, changed or kept; g.Rated is ignored).
	// It reports false, and changes nothing, when the game was recorded
	// before.
	RecordGame(ctx context.Context, g *RatedGame) (bool, error)
	// UncountedGames lists up to n finished games that an account held
	// a seat of (AddAccountGame) whose seats' play is not recorded: no
	// result recorded, or none of its seats with a turn. They come in
	// the order of their IDs, from the first after the ID after.
	UncountedGames(ctx context.Context, after string, n int) ([]string, error)
	// SetPlay records the play (Turns, Bingos, Best) of the seats of g,
	// a recorded game, by their Seat; ErrNotFound when a seat of g has
	// no record.
	SetPlay(ctx context.Context, g *RatedGame) error
	// UnanalysedGames lists up to n recorded games in which an account
	// held a seat that took a turn and whose moves are not analysed
	// (RatedSeat.Analysed 0), in the order of their IDs, from the first
	// after the ID after.
	UnanalysedGames(ctx context.Context, after string, n int) ([]string, error)
	// SetAccuracy records the analysis (Analysed, TopMoves, Lost) of the
	// seats of g, a recorded game, by their Seat; ErrNotFound when a
	// seat of g has no record.
	SetAccuracy(ctx context.Context, g *RatedGame) error
	// FairPlay sums up, account by account, the analysed seats of the
	// rated games between people (no computer in any seat) finished at
	// since or later: the basis of the operators' fair-play report. With
	// account set, only that account's row (none when it has no such
	// seat).
	FairPlay(ctx context.Context, since time.Time, account string) ([]FairPlayRow, error)
	// RatedGame returns the record of a finished game (ErrNotFound if
	// its result was not recorded).
	RatedGame(ctx context.Context, game string) (*RatedGame, error)
	// AddAccountGame records that an account took a seat of a game (a
	// second record of the same seat changes nothing).
	AddAccountGame(ctx context.Context, key string, g AccountGame) error
	// AccountGames returns the n latest seats an account took, newest
	// first.
	AccountGames(ctx context.Context, key string, n int) ([]AccountGame, error)
	// RatedGames returns the n latest recorded games of an account that
	// f picks, newest first (ties in time by game ID).
	RatedGames(ctx context.Context, key string, f RatedFilter, n int) ([]RatedGame, error)
	// RatedTotals sums up the account's recorded games that f picks
	// (f.Before aside: all of them).
	RatedTotals(ctx context.Context, key string, f RatedFilter) (RatedTotals, error)
	// LevelTotals sums up the account's recorded games against the
	// computer, rated or not, by level (in the levels' order by name;
	// the levels it never played left out). A game of more seats counts
	// once for each computer's seat.
	LevelTotals(ctx context.Context, key string) ([]LevelTotal, error)
	// PutCards files cards in an account's cardbox for a word list (each
	// replaces the stored card of its letters unless that was filed at
	// the same time or later) and returns how many cards it holds then;
	// it changes nothing and returns an error wrapping ErrFull when that
	// would be more than limit (counted in the transaction of the
	// write), or ErrNotFound when the account does not exist or is
	// closed.
	PutCards(ctx context.Context, key, lexicon string, cards []Card, limit int) (int, error)
	// Cards returns an account's cardbox for a word list, the earliest
	// due first.
	Cards(ctx context.Context, key, lexicon string) ([]Card, error)
	// ClearCards empties an account's cardbox for a word list and returns
	// how many cards it held.
	ClearCards(ctx context.Context, key, lexicon string) (int, error)
	// RecordPuzzle keeps an account's first answer to a puzzle and
	// reports whether it was the first (a later one changes nothing).
	// With rate, in the same transaction, it reads the account's puzzle
	// rating in the word list and the puzzle's, calls rate, writes the
	// new ratings with their counts of answers, and fills in r's ratings
	// before and after, which the record keeps. ErrNotFound when the
	// account does not exist or is closed.
	RecordPuzzle(ctx context.Context, key string, r *PuzzleRecord, rate PuzzleRateFunc) (bool, error)
	// PuzzleRecord returns an account's answer to a puzzle (ErrNotFound
	// if it has none).
	PuzzleRecord(ctx context.Context, key, lexicon string, number int) (*PuzzleRecord, error)
	// PuzzleRecords returns the n latest answers of an account, by
	// puzzle number, highest first.
	PuzzleRecords(ctx context.Context, key string, n int) ([]PuzzleRecord, error)
	// PuzzleCounts returns how many accounts answered a puzzle and how
	// many of them solved it at that first answer.
	PuzzleCounts(ctx context.Context, lexicon string, number int) (answered, solved int, err error)
	// RecordEndgame keeps an account's first answer to an endgame puzzle
	// and reports whether it was the first (a later one changes
	// nothing). With rate it rates the answer as RecordPuzzle does, in
	// the endgame ratings. ErrNotFound when the account does not exist
	// or is closed.
	RecordEndgame(ctx context.Context, key string, r *EndgameRecord, rate PuzzleRateFunc) (bool, error)
	// EndgameRecord returns an account's answer to an endgame puzzle
	// (ErrNotFound if it has none).
	EndgameRecord(ctx context.Context, key, lexicon string, number int) (*EndgameRecord, error)
	// EndgameRecords returns the n latest answers of an account to
	// endgame puzzles, by number, highest first.
	EndgameRecords(ctx context.Context, key string, n int) ([]EndgameRecord, error)
	// EndgameCounts returns how many accounts answered an endgame puzzle
	// and how many of them found a best move at that first answer.
	EndgameCounts(ctx context.Context, lexicon string, number int) (answered, solved int, err error)
	// PuzzleNumbers returns the numbers of the puzzles of a word list an
	// account answered, in order.
	PuzzleNumbers(ctx context.Context, key, lexicon string) ([]int, error)
	// PuzzleRatings returns an account's puzzle ratings, one per word
	// list it answered a puzzle of, by word list.
	PuzzleRatings(ctx context.Context, key string) ([]PuzzleRating, error)
	// PuzzleLeaderboard returns the n best puzzle ratings of accounts in
	// a word list, with the accounts' names, by rating less twice its
	// deviation (suspended accounts left out).
	PuzzleLeaderboard(ctx context.Context, lexicon string, n int) ([]PuzzleRating, error)
	// PuzzleLevels returns the ratings of the puzzles of a word list that
	// were answered, by number.
	PuzzleLevels(ctx context.Context, lexicon string) ([]PuzzleRating, error)
	// PuzzleLevel returns the rating of a puzzle (ErrNotFound if nobody
	// answered it since puzzles are rated).
	PuzzleLevel(ctx context.Context, lexicon string, number int) (*PuzzleRating, error)
	// EndgameRatings returns an account's endgame ratings, one per word
	// list it answered an endgame puzzle of since they are rated, by
	// word list.
	EndgameRatings(ctx context.Context, key string) ([]PuzzleRating, error)
	// EndgameLeaderboard returns the n best endgame ratings of accounts
	// in a word list, as PuzzleLeaderboard does the puzzle ratings.
	EndgameLeaderboard(ctx context.Context, lexicon string, n int) ([]PuzzleRating, error)
	// EndgameLevel returns the rating of an endgame puzzle (ErrNotFound
	// if nobody answered it since they are rated).
	EndgameLevel(ctx context.Context, lexicon string, number int) (*PuzzleRating, error)
	// EndgameLevels returns the ratings of the endgame puzzles of a word
	// list that were answered, by number.
	EndgameLevels(ctx context.Context, lexicon string) ([]PuzzleRating, error)
	// EndgameNumbers returns the numbers of the endgame puzzles of a
	// word list an account answered, in order.
	EndgameNumbers(ctx context.Context, key, lexicon string) ([]int, error)
	// AddMessage stores a message (ErrNotFound if either account does
	// not exist or is closed) and sets its ID; a conversation keeps its
	// latest keep messages. A first message between the two accounts
	// beyond what contacts allows is refused with a LimitError, counted
	// in the transaction of the write (see ErrLimit).
	AddMessage(ctx context.Context, m *Message, keep int, contacts ContactLimit) error
	// Messages returns the n latest messages between accounts a and b
	// numbered below before (any, for 0), oldest first.
	Messages(ctx context.Context, a, b string, before int64, n int) ([]Message, error)
	// Conversations returns the n latest conversations of an account,
	// the latest first.
	Conversations(ctx context.Context, key string, n int) ([]Conversation, error)
	// MarkRead marks read, at, the messages that other wrote to key, and
	// returns how many were unread.
	MarkRead(ctx context.Context, key, other string, at time.Time) (int, error)
	// UnreadMessages counts the unread messages to an account, leaving
	// out those of accounts blocked either way.
	UnreadMessages(ctx context.Context, key string) (int, error)
	// NewContacts counts the accounts an account wrote to since a time
	// that never wrote to it.
	NewContacts(ctx context.Context, key string, since time.Time) (int, error)
	// StartRush stores a new puzzle rush (ErrConflict if its id exists,
	// or if it is the account's second of mode RushOnce and the same
	// word list and seed; ErrNotFound if its account does not exist or
	// is closed), and forgets the guests' runs started more than
	// RushGuestKept before it.
	StartRush(ctx context.Context, r *RushRun) error
	// Rush returns a rush (ErrNotFound if there is no such run).
	Rush(ctx context.Context, id string) (*RushRun, error)
	// AdvanceRush records the answer to puzzle puzzle of a rush, solved
	// or missed, and ends the run at end unless end is zero; it returns
	// the run as it is then, with ErrConflict if the run was no longer on
	// that puzzle (answered already, or over).
	AdvanceRush(ctx context.Context, id string, puzzle int, solved bool, end time.Time) (*RushRun, error)
	// EndRush ends a rush at, unless it has ended, and returns it.
	EndRush(ctx context.Context, id string, at time.Time) (*RushRun, error)
	// RushRuns returns the n latest rushes of an account, newest first.
	RushRuns(ctx context.Context, key string, n int) ([]RushRun, error)
	// RushBests returns an account's best rush in each word list and
	// mode it played, by word list and mode.
	RushBests(ctx context.Context, key string) ([]RushBest, error)
	// RushLeaders returns the n best accounts at the rushes of a word
	// list and mode (of one seed, unless seed is 0), each with its best
	// run, leaving out suspended accounts and runs that solved nothing.
	RushLeaders(ctx context.Context, lexicon, mode string, seed uint64, n int) ([]RushBest, error)
	// RushFind returns an account's rushes of a word list, mode and
	// seed, the first started first.
	RushFind(ctx context.Context, key, lexicon, mode string, seed uint64) ([]RushRun, error)
}

// checkPair checks that key and other are two existing accounts before
// key does what verb says to other (block, follow), with account to
// read one.
func checkPair(ctx context.Context, verb, key, other string, account func(context.Context, string) (*Account, error)) error {
	if key == other {
		return fmt.Errorf("store: %s: %q cannot %s itself", verb, key, verb)
	}
	for _, k := range []string{key, other} {
		if _, err := account(ctx, k); err != nil {
			return fmt.Errorf("store: %s %q by %q: %w", verb, other, key, err)
		}
	}
	return nil
}

// blockBound bounds the accounts one blocks, counted as Blocks lists
// them.
func blockBound(prefix string, arg func(int) string) listBound {
	return listBound{what: "blocks",
		has:   fmt.Sprintf(`SELECT COUNT(*) FROM %sblocks WHERE account = %s AND blocked = %s`, prefix, arg(1), arg(2)),
		count: fmt.Sprintf(`SELECT COUNT(*) FROM %sblocks WHERE account = %s`, prefix, arg(1))}
}

// block runs Block in a transaction of in, with the statements of the
// tables named with prefix.
func block(ctx context.Context, in ownTx, prefix string, arg func(int) string, key, other string, at time.Time, limit int) error {
	if err := in(ctx, key, []string{other}, func(d dbFuncs) error {
		if err := blockBound(prefix, arg).check(ctx, d, key, other, limit); err != nil {
			return err
		}
		_, err := d.exec(ctx, fmt.Sprintf(`INSERT INTO %sblocks(account, blocked, since) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING`,
			prefix, arg(1), arg(2), arg(3)), key, other, at.UnixNano())
		return err
	}); err != nil {
		return fmt.Errorf("store: block %q by %q: %w", other, key, err)
	}
	return nil
}

// scanBlocks reads rows of (key, name, since).
func scanBlocks(rows rowScanner, key string) ([]Block, error) {
	var out []Block
	err := scanKeyNameTime(rows, fmt.Sprintf("blocks of %q", key), func(k, name string, at time.Time) { out = append(out, Block{k, name, at}) })
	return out, err
}

// scanKeyNameTime reads rows of (account key, name, time in Unix
// nanoseconds), calling add for each.
func scanKeyNameTime(rows rowScanner, what string, add func(key, name string, at time.Time)) error {
	for rows.Next() {
		var key, name string
		var at int64
		if err := rows.Scan(&key, &name, &at); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		add(key, name, time.Unix(0, at).UTC())
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

// reportCols are the columns scanReports reads, from reports r and
// accounts a (the writer) and o (the account reported), as both stores
// name them, prefixed or not.
const reportCols = `r.id, r.account, r.reported, a.name, o.name, r.game, r.reason, r.created, r.closed`

// scanReports reads rows of reportCols.
func scanReports(rows rowScanner) ([]Report, error) {
	var out []Report
	for rows.Next() {
		var r Report
		var created, closed int64
		if err := rows.Scan(&r.ID, &r.By, &r.Of, &r.ByName, &r.OfName, &r.Game, &r.Reason, &created, &closed); err != nil {
			return nil, fmt.Errorf("store: reports: %w", err)
		}
		r.Created = time.Unix(0, created).UTC()
		if closed != 0 {
			r.Closed = time.Unix(0, closed).UTC()
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reports: %w", err)
	}
	return out, nil
}

// checkReport checks a report to add: a reason, and two existing
// accounts, read with account.
func checkReport(ctx context.Context, r *Report, account func(context.Context, string) (*Account, error)) error {
	if r.Reason == "" {
		return fmt.Errorf("store: report of %q by %q: no reason given", r.Of, r.By)
	}
	for _, k := range []string{r.By, r.Of} {
		if _, err := account(ctx, k); err != nil {
			return fmt.Errorf("store: report of %q by %q: %w", r.Of, r.By, err)
		}
	}
	return nil
}

// addReport runs AddReport in a transaction of in (its writer's
// account open), with the statements of the tables named with prefix.
func addReport(ctx context.Context, in ownTx, prefix string, arg func(int) string, r *Report, limit int) error {
	if err := in(ctx, r.By, nil, func(d dbFuncs) error {
		if limit > 0 {
			n, err := d.one(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM %sreports WHERE account = %s AND closed = 0`, prefix, arg(1)), r.By)
			if err != nil {
				return err
			}
			if n >= limit {
				return &LimitError{What: "open reports", Have: n, Max: limit}
			}
		}
		rows, err := d.query(ctx, fmt.Sprintf(`INSERT INTO %sreports(account, reported, game, reason, created) VALUES (%s, %s, %s, %s, %s) RETURNING id`,
			prefix, arg(1), arg(2), arg(3), arg(4), arg(5)), r.By, r.Of, r.Game, r.Reason, r.Created.UnixNano())
		if err != nil {
			return err
		}
		ids, err := scanInt64s(rows.rowScanner)
		rows.close()
		if err == nil && len(ids) != 1 {
			err = fmt.Errorf("the insert returned %d ids", len(ids))
		}
		if err != nil {
			return err
		}
		r.ID = ids[0]
		return nil
	}); err != nil {
		return fmt.Errorf("store: report of %q by %q: %w", r.Of, r.By, err)
	}
	return nil
}

// scanInt64s reads rows of one integer column.
func scanInt64s(rows rowScanner) ([]int64, error) {
	var out []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// applyRatings fills the seats of g from the ratings before and after a
// game and returns the ratings to write, checking that rate kept their
// number and order.
func applyRatings(g *RatedGame, before []Rating, rate RateFunc) ([]Rating, error) {
	after, err := rate(before)
	if err != nil {
		return nil, err
	}
	if len(after) != len(before) {
		return nil, errRateCount
	}
	for i := range g.Seats {
		if after[i].Account != before[i].Account {
			return nil, errRateCount
		}
		s := &g.Seats[i]
		s.RBefore, s.RDBefore, s.RAfter, s.RDAfter = before[i].R, before[i].RD, after[i].R, after[i].RD
		after[i].Category, after[i].Updated = g.Category, g.Finished
	}
	return after, nil
}

// accountRatings are the ratings of rs held by accounts: those to write
// (a computer's seat keeps none).
func accountRatings(rs []Rating) []Rating {
	return slices.DeleteFunc(slices.Clone(rs), func(r Rating) bool { return r.Account == "" })
}

type rateError string

func (e rateError) Error() string { return string(e) }

// errRateCount is returned when a RateFunc changes the seats it was given.
const errRateCount = rateError("store: the rating function returned other seats than it was given")
