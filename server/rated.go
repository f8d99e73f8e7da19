package server

import (
	"context"
	"fmt"

	"atril/rating"
	"atril/store"
)

// Rated games: two people's seats, each taken by a signed-in account; at
// the end (by play, resignation or time) both accounts' ratings in the
// game's word list change by the Glicko-2 system (package rating), the
// game being a rating period of its own. A game called off or abandoned
// changes nothing.

// seatAccount is the account taking a seat: its key, its name and its
// rating in the game's word list (0 for none yet).
type seatAccount struct {
	key, name string
	rating    int
}

// seatAccountFor returns the seat account of a in word list lex.
func (s *Server) seatAccountFor(ctx context.Context, a *store.Account, lex string) (*seatAccount, error) {
	if a == nil {
		return nil, nil
	}
	sa := &seatAccount{key: a.Key, name: a.Name}
	rs, err := s.store.Ratings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if r.Category == lex {
			sa.rating = roundInt(r.R)
		}
	}
	return sa, nil
}

// RatingChange is a seat's rating before and after a rated game.
type RatingChange struct {
	Seat   int `json:"seat"`
	Before int `json:"before"`
	After  int `json:"after"`
}

// rate records the result of a finished rated game, once (a second call,
// here or in another process sharing the store, changes nothing), and
// keeps the seats' rating changes for the state. Caller holds mu.
func (l *live) rate() error {
	if !l.hdr.Rated || l.abandoned || l.g.Aborted() || !l.g.Over() {
		return nil
	}
	rg := &store.RatedGame{Game: l.hdr.ID, Category: l.hdr.Lexicon, Finished: l.evTime}
	winners := l.g.Winners()
	for i, s := range l.seat {
		if s.account == "" {
			return fmt.Errorf("seat %d of a rated game is held by no account", i)
		}
		res := 0.0
		for _, w := range winners {
			if w == i {
				res = 1 / float64(len(winners))
			}
		}
		rg.Seats = append(rg.Seats, store.RatedSeat{Seat: i, Account: s.account, Name: s.name, Score: l.g.Seats[i].Score, Result: res})
	}
	if len(rg.Seats) != 2 {
		return fmt.Errorf("a rated game of %d seats", len(rg.Seats))
	}
	ok, err := l.srv.store.RateGame(context.Background(), rg, func(before []store.Rating) ([]store.Rating, error) {
		var r [2]rating.Rating
		for i := range before {
			b := &before[i]
			if b.Games == 0 {
				n := rating.New()
				b.R, b.RD, b.Vol = n.R, n.RD, n.Vol
			}
			r[i] = rating.Rating{R: b.R, RD: b.RD, Vol: b.Vol}
		}
		a, b, err := rating.Game(r[0], r[1], rg.Seats[0].Result)
		if err != nil {
			return nil, err
		}
		after := []store.Rating{before[0], before[1]}
		for i, nr := range []rating.Rating{a, b} {
			p := &after[i]
			p.R, p.RD, p.Vol = nr.R, nr.RD, nr.Vol
			p.Games++
			switch rg.Seats[i].Result {
			case 1:
				p.Wins++
			case 0:
				p.Losses++
			default:
				p.Draws++
			}
		}
		return after, nil
	})
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

// keepRatingChanges keeps the seats' rating changes of rg for the state.
func (l *live) keepRatingChanges(rg *store.RatedGame) {
	l.ratingChanges = nil
	for _, st := range rg.Seats {
		l.ratingChanges = append(l.ratingChanges, RatingChange{Seat: st.Seat, Before: roundInt(st.RBefore), After: roundInt(st.RAfter)})
	}
}
