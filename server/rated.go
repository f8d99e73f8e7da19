package server

import (
	"context"
	"fmt"
	"slices"
	"time"

	"atril/rating"
	"atril/store"
)

// Rated games: two seats, each taken by a signed-in account, or one by
// an account and one by the computer; at the end (by play, resignation
// or time) the accounts' ratings in the game's word list and pace change
// by the Glicko-2 system (package rating), the game being a rating period
// of its own, and each week without a rated game a period without games
// (the rating deviation grows). A computer level plays at a fixed rating
// (levelRatings), and a player's rating against the computer is kept
// apart from its ratings against people (pace "computer"). A game called
// off or abandoned changes nothing.

// levelRatings are the ratings the computer levels play rated games at,
// placed by the paired self-play ladder of match/results (the current
// players, 1000 games a rung; 4,000 between godlike and inhuman, 300 for
// the simulation at its defaults): each level at 400·log10(p/(1−p))
// points (the scale of Elo's and Glicko's expected score) above the
// level it beat with share p, from the professional (greedy) player put
// at 1700. Professional beat experienced 91.7%, experienced adept 79.2%,
// inhuman professional 62.2%, godlike inhuman 52.4%, and the simulation
// inhuman 62.8%; the amateur never beat the adept (0 of 1000), so it
// sits a capped 600 points below it.
var levelRatings = map[string]float64{
	"amateur":      451,
	"adept":        1051,
	"experienced":  1283,
	"professional": 1700,
	"inhuman":      1787,
	"godlike":      1803,
	"simulation":   1878,
}

// levelRD is the rating deviation of a computer level: its strength is
// fixed and measured, not guessed.
const levelRD = 30

// seatAccount is the account taking a seat: its key, its name, its
// rating in the game's category (word list and pace; 0 for none yet), and the accounts it
// blocks or that block it, who may not hold another seat of the game.
type seatAccount struct {
	key, name   string
	rating      int
	provisional bool
	blocking    blocking
}

// ratingOrNew is the account's rating, a newcomer's when it has none.
func (a *seatAccount) ratingOrNew() int { return ratingOrNew(a.rating) }

// ratingOrNew is r, or a newcomer's rating for 0 (none yet).
func ratingOrNew(r int) int {
	if r == 0 {
		return roundInt(rating.DefaultR)
	}
	return r
}

// seatAccountFor returns the seat account of a in the rating category
// cat.
func (s *Server) seatAccountFor(ctx context.Context, a *store.Account, cat string) (*seatAccount, error) {
	if a == nil {
		return nil, nil
	}
	sa := &seatAccount{key: a.Key, name: a.Name}
	rs, err := s.store.Ratings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	if sa.blocking, err = s.blockingOf(ctx, a.Key); err != nil {
		return nil, err
	}
	for _, r := range rs {
		if r.Category == cat {
			sa.rating, sa.provisional = roundInt(r.R), provisional(r.RD)
		}
	}
	return sa, nil
}

// idlePeriod is the time without rated games that counts as a rating
// period without games; rateTimeout bounds the recording of a result.
const (
	idlePeriod  = 7 * 24 * time.Hour
	rateTimeout = 10 * time.Second
)

// RatingChange is a seat's rating before and after a rated game.
type RatingChange struct {
	Seat   int `json:"seat"`
	Before int `json:"before"`
	After  int `json:"after"`
}

// recordGame records the result of a finished game in which an account held
// a seat, once (a second call, here or in another process sharing the
// store, changes nothing): a rated game changes its seats' ratings
// (rate); a casual one, against people or the computer, is only listed
// on its players' pages. A game called off or abandoned is not
// recorded. Caller holds mu.
func (l *live) recordGame() error {
	if !l.recordable() {
		return nil
	}
	if l.hdr.Rated {
		return l.rate()
	}
	rg := l.result()
	if !slices.ContainsFunc(rg.Seats, func(st store.RatedSeat) bool { return st.Account != "" }) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), rateTimeout)
	defer cancel()
	_, err := l.srv.store.RecordGame(ctx, rg)
	return err
}

// recordable reports whether the game ended with a result to record:
// over by play, resignation or time, not called off or abandoned.
// Caller holds mu.
func (l *live) recordable() bool { return !l.abandoned && !l.g.Aborted() && l.g.Over() }

// result is the finished game's result as the store records it: each
// seat's account, name, computer level, score, share of the win and
// play (turns, bingos, best placement). Caller holds mu.
func (l *live) result() *store.RatedGame {
	rg := &store.RatedGame{Game: l.hdr.ID, Category: l.ratingCategory(), Finished: l.evTime, Rated: l.hdr.Rated}
	winners := l.g.Winners()
	tallies := l.g.Tallies()
	for i, s := range l.seat {
		res := 0.0
		for _, w := range winners {
			if w == i {
				res = 1 / float64(len(winners))
			}
		}
		tl := tallies[i]
		rg.Seats = append(rg.Seats, store.RatedSeat{Seat: i, Account: s.account, Name: s.name, Level: s.level,
			Score: l.g.Seats[i].Score, Result: res, Turns: tl.Turns, Bingos: tl.Bingos, Best: tl.Best})
	}
	return rg
}

// ratingCategory is the category of the ratings the game moves, and
// of its record: its word list and pace.
func (l *live) ratingCategory() string {
	return ratingCategory(l.hdr.Lexicon, l.hdr.Seats, l.hdr.Rated)
}

// rate records the result of a finished rated game and keeps the seats'
// rating changes for the state. Caller holds mu.
func (l *live) rate() error {
	rg := l.result()
	for i, s := range l.seat {
		if s.account == "" && s.level == "" {
			return fmt.Errorf("seat %d of a rated game is held by no account", i)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), rateTimeout)
	defer cancel()
	ok, err := l.srv.store.RateGame(ctx, rg, rateRecorded(rg))
	if err != nil {
		return err
	}
	if ok {
		l.keepRatingChanges(rg)
		return nil
	}
	// Rated before (by another process, or before a restart): the
	// record says what changed.
	return l.loadRatingChanges()
}

// rateRecorded is the rating function of the rated game g as recorded:
// rateTwo of its two seats' results and levels, at its end.
func rateRecorded(g *store.RatedGame) store.RateFunc {
	return func(before []store.Rating) ([]store.Rating, error) {
		if len(g.Seats) != 2 {
			return nil, fmt.Errorf("a rated game of %d seats", len(g.Seats))
		}
		return rateTwo(before, [2]float64{g.Seats[0].Result, g.Seats[1].Result}, [2]string{g.Seats[0].Level, g.Seats[1].Level}, g.Finished)
	}
}

// rateTwo works out the ratings after a game between two seats played
// at time at, from their ratings before it (filled in place with the
// ratings the game starts from: an account's last one with its deviation
// grown by the weeks without rated games, or a newcomer's; a computer
// level's fixed one) and their results. A computer level's rating stays
// as it is.
func rateTwo(before []store.Rating, results [2]float64, levels [2]string, at time.Time) ([]store.Rating, error) {
	var r [2]rating.Rating
	for i := range before {
		b := &before[i]
		var n rating.Rating
		if levels[i] != "" {
			lr, ok := levelRatings[levels[i]]
			if !ok {
				return nil, fmt.Errorf("seat %d: no rating for the computer level %q", i, levels[i])
			}
			n = rating.Rating{R: lr, RD: levelRD, Vol: rating.New().Vol}
		} else {
			n = startRating(b.Games > 0, rating.Rating{R: b.R, RD: b.RD, Vol: b.Vol}, at.Sub(b.Updated))
		}
		b.R, b.RD, b.Vol = n.R, n.RD, n.Vol
		r[i] = n
	}
	a, b, err := rating.Game(r[0], r[1], results[0])
	if err != nil {
		return nil, err
	}
	after := []store.Rating{before[0], before[1]}
	for i, nr := range []rating.Rating{a, b} {
		if levels[i] != "" {
			continue
		}
		p := &after[i]
		p.R, p.RD, p.Vol = nr.R, nr.RD, nr.Vol
		p.Games++
		switch results[i] {
		case 1:
			p.Wins++
		case 0:
			p.Losses++
		default:
			p.Draws++
		}
	}
	return after, nil
}

// startRating is the rating a game (or an answer to a puzzle) starts
// from: a newcomer's when none is known yet, else the last one, its
// deviation grown by the rating periods of idle, the time since it last
// changed (none for a rating that does not age).
func startRating(known bool, last rating.Rating, idle time.Duration) rating.Rating {
	if !known {
		return rating.New()
	}
	return rating.Idle(last, float64(idle)/float64(idlePeriod))
}

// loadRatingChanges reads a finished rated game's rating changes from the
// store. Caller holds mu.
func (l *live) loadRatingChanges() error {
	rg, err := l.srv.store.RatedGame(context.Background(), l.hdr.ID)
	if err != nil {
		return err
	}
	l.keepRatingChanges(rg)
	return nil
}

// keepRatingChanges keeps the accounts' rating changes of rg for the
// state (a computer level's rating does not change).
func (l *live) keepRatingChanges(rg *store.RatedGame) {
	l.ratingChanges = nil
	for _, st := range rg.Seats {
		if st.Level != "" {
			continue
		}
		l.ratingChanges = append(l.ratingChanges, RatingChange{Seat: st.Seat, Before: roundInt(st.RBefore), After: roundInt(st.RAfter)})
	}
}
