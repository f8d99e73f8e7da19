package server

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"time"
)

// Quick pairing: a player asks for a game by its settings alone (word
// list, clock, challenge rule, rated or not) and is seated at once in a
// game of the lobby that waits for an opponent with the same settings,
// or, when none does, gets a new game of those settings offered in the
// lobby, where the next player asking for the same is seated. Like the
// lobby, it pairs the games this process holds.

// quickRequest is the body of POST /api/quick.
type quickRequest struct {
	Variant   string        `json:"variant"`
	Lexicon   string        `json:"lexicon,omitempty"`
	Name      string        `json:"name,omitempty"`
	Clock     *ClockRequest `json:"clock,omitempty"`
	Challenge string        `json:"challenge,omitempty"`
	Rated     bool          `json:"rated,omitempty"`
}

// QuickResponse is the answer of POST /api/quick: the game and the seat
// the player holds in it. Matched tells whether an opponent was waiting
// (the game has started) or the game waits for one in the lobby. Token
// is the seat's token, shown once; it is empty when the answer is a game
// the player already waits in with the same settings (its token was
// given when it was made).
type QuickResponse struct {
	ID      string `json:"id"`
	Seat    int    `json:"seat"`
	Token   string `json:"token,omitempty"`
	Matched bool   `json:"matched"`
}

// quickWaiter is a game of the lobby that a quick pairing may seat the
// player in: its one taken seat's holder waits for an opponent.
type quickWaiter struct {
	l       *live
	created time.Time
	host    int  // the waiting player's seat
	rating  int  // the waiting player's rating (a newcomer's for none)
	mine    bool // the one asking waits in it
}

func (s *Server) handleQuick(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.createLim, "new games")
	if !ok {
		return
	}
	req, err := s.decodeQuick(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	req.creator = s.clientKey(r)
	a, err := s.signedIn(r)
	switch {
	case err != nil:
	case a == nil && req.Rated:
		err = &apiError{401, "sign in to play a rated game"}
	case a == nil && req.Clock != nil && req.Clock.PerMove > 0:
		err = &apiError{401, "sign in to play a game of correspondence play"}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	acct, err := s.seatAccountFor(r.Context(), a, category(req.Lexicon, clockPace(req.Clock)))
	if err != nil {
		s.fail(w, err)
		return
	}
	name := req.Seats[0].Name
	// One pairing at a time: two players asking at once for the same game
	// are seated together, not each in a game of its own.
	s.quickMu.Lock()
	defer s.quickMu.Unlock()
	ws := s.quickWaiters(req, acct, name)
	if i := slices.IndexFunc(ws, func(x quickWaiter) bool { return x.mine }); i >= 0 {
		writeJSON(w, 200, QuickResponse{ID: ws[i].l.hdr.ID, Seat: ws[i].host})
		return
	}
	for _, x := range ws {
		tok := randomHex(24)
		x.l.mu.Lock()
		seat, err := x.l.join(r.Context(), -1, name, acct, tok)
		if err == nil {
			x.l.afterChange()
		}
		x.l.mu.Unlock()
		var ae *apiError
		switch {
		case err == nil:
			writeJSON(w, 200, QuickResponse{ID: x.l.hdr.ID, Seat: seat, Token: tok, Matched: true})
			return
		case errors.As(err, &ae) && ae.code < 500:
			// Taken meanwhile, or kept from this player: the next.
			continue
		}
		s.fail(w, err)
		return
	}
	resp, err := s.quickOffer(r.Context(), req, acct, name)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 201, resp)
}

// decodeQuick reads and checks a quick pairing's request, as the
// request for the game it may make: the player's seat and a free
// person's seat.
func (s *Server) decodeQuick(data []byte) (*createRequest, error) {
	var q quickRequest
	if err := decodeJSON(data, &q); err != nil {
		return nil, err
	}
	req := &createRequest{Variant: q.Variant, Lexicon: q.Lexicon, Clock: q.Clock, Challenge: q.Challenge, Rated: q.Rated,
		Seats: []SeatRequest{{Kind: "human", Name: q.Name}, {Kind: "human"}}}
	if err := s.checkCreate(req); err != nil {
		return nil, err
	}
	return req, nil
}

// quickOffer makes a new game of req's settings, seats the player asking
// in its first seat and offers it in the lobby. A game that cannot be
// offered (the player has as many games waiting as one may) is called
// off again. Caller holds s.quickMu.
func (s *Server) quickOffer(ctx context.Context, req *createRequest, acct *seatAccount, name string) (QuickResponse, error) {
	l, err := s.create(ctx, req)
	if err != nil {
		return QuickResponse{}, err
	}
	tok := randomHex(24)
	l.mu.Lock()
	defer l.mu.Unlock()
	seat, err := l.join(ctx, 0, name, acct, tok)
	if err == nil {
		l.afterChange()
		account := ""
		if acct != nil {
			account = acct.key
		}
		if err = s.offer(ctx, l, req.creator, account); err != nil {
			if e := l.end(ctx, "abort", seat); e != nil {
				err = errors.Join(err, e)
			}
		}
	}
	if err != nil {
		return QuickResponse{}, err
	}
	return QuickResponse{ID: l.hdr.ID, Seat: seat, Token: tok}, nil
}

// quickWaiters lists the games of the lobby with req's settings, between
// two people, in which one player waits for an opponent: those the
// player asking (acct, or a person not signed in named name asking from
// req.creator) could take a seat in, the best first (in a rated game the
// nearest rating, then the longest waiting), and those it waits in
// itself. Caller holds s.quickMu and no game's mu.
func (s *Server) quickWaiters(req *createRequest, acct *seatAccount, name string) []quickWaiter {
	var out []quickWaiter
	for _, l := range s.shownGames() {
		l.mu.Lock()
		if x, ok := l.quickWaiter(req, acct, name); ok {
			out = append(out, x)
		}
		l.mu.Unlock()
	}
	me := 0
	if acct != nil {
		me = acct.ratingOrNew()
	}
	slices.SortFunc(out, func(a, b quickWaiter) int {
		if req.Rated {
			if c := cmp.Compare(distance(a.rating, me), distance(b.rating, me)); c != 0 {
				return c
			}
		}
		if c := a.created.Compare(b.created); c != 0 {
			return c
		}
		return cmp.Compare(a.l.hdr.ID, b.l.hdr.ID)
	})
	return out
}

// quickWaiter says whether l is a game a quick pairing with req's
// settings may seat the player in (or one it waits in). Caller holds mu.
func (l *live) quickWaiter(req *createRequest, acct *seatAccount, name string) (quickWaiter, bool) {
	h := &l.hdr
	if !l.listed || l.started() || l.over() || !l.freeForAnyone() || len(l.seat) != 2 || h.Tournament != "" ||
		h.Variant != req.Variant || h.Lexicon != req.Lexicon || h.Challenge != req.Challenge || h.Rated != req.Rated ||
		!sameClock(clockOf(h.Seats[0]), req.Clock) {
		return quickWaiter{}, false
	}
	host := l.quickHost()
	if host < 0 || l.seat[1-host].level != "" {
		return quickWaiter{}, false
	}
	st := l.seat[host]
	x := quickWaiter{l: l, created: h.Created, host: host, rating: ratingOrNew(st.rating)}
	switch {
	case acct != nil:
		x.mine = st.account == acct.key
	default:
		// One who gave no name holds the seat under the name of a seat
		// made without one ("Player 1").
		x.mine = st.account == "" && st.name == cmp.Or(name, personName(host)) && l.offeredBy.client == req.creator
	}
	return x, true
}

// quickHost is the seat of a waiting game that a person holds (−1:
// none). Caller holds mu.
func (l *live) quickHost() int {
	return slices.IndexFunc(l.seat, func(st *seat) bool { return st.taken && st.level == "" })
}

// sameClock reports whether two clocks of people's seats are the same
// (nil: none).
func sameClock(a, b *ClockRequest) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// distance is |a − b|.
func distance(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}
