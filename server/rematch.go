package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"atril/store"
)

// A rematch is a new game for the seats of a finished one: same game,
// word list, computer levels and clock, with the seats in reverse order
// (so another player starts), each person's seat kept for the person
// who held it. The first seat to ask creates it and records its id in
// the finished game's log; the others are told (a "rematch"
// notification, and the rematch field of their state) and take their
// seats by asking in turn.

// rematchEvent is a finished game's rematch, as logged.
type rematchEvent struct {
	Game string `json:"game"`
}

// RematchResponse is the answer of POST /api/games/{id}/rematch: the new
// game and the asking person's seat in it. The token is shown once.
type RematchResponse struct {
	ID string `json:"id"`
	JoinResponse
}

func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request) {
	_, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	if !l.over() {
		l.mu.Unlock()
		s.fail(w, &apiError{409, "the game is not over"})
		return
	}
	// A seat held by an account takes its place in the rematch only
	// signed in as the account: a token of a finished game, which a
	// sign-out everywhere does not take back, cannot play as it.
	// Nor is there a rematch between accounts of which one blocks the
	// other.
	if key := l.seat[me].account; key != "" {
		a, err := s.signedIn(r)
		if err == nil && (a == nil || a.Key != key) {
			err = &apiError{403, "sign in to your account to play its rematch"}
		}
		if err == nil {
			err = l.blockedWith(r.Context(), key)
		}
		if err != nil {
			l.mu.Unlock()
			s.fail(w, err)
			return
		}
	}
	if l.rematch == "" {
		if ok, retry := s.createLim.take(s.clientKey(r), time.Now()); !ok {
			l.mu.Unlock()
			s.fail(w, tooMany("new games", retry))
			return
		}
		ev := rematchEvent{Game: randomHex(8)}
		if err := l.append(r.Context(), "rematch", ev); err != nil {
			l.mu.Unlock()
			s.fail(w, err)
			return
		}
		l.applyRematch(ev)
	}
	id, req, name, key := l.rematch, l.rematchRequest(), l.seat[me].name, l.seat[me].account
	seatNo := len(l.seat) - 1 - me
	l.mu.Unlock()
	// Made by the client asking, if it makes it: counted against its
	// unfinished games as the games it creates are.
	req.creator = s.clientKey(r)
	nl, err := s.rematchGame(r.Context(), id, req)
	if err != nil {
		s.fail(w, err)
		return
	}
	// The seat's account keeps the rematch's seat, with its rating now.
	var acct *seatAccount
	if key != "" {
		a, err := s.store.Account(r.Context(), key)
		if err == nil {
			acct, err = s.seatAccountFor(r.Context(), a, nl.ratingCategory())
		}
		if err != nil {
			s.fail(w, err)
			return
		}
	}
	tok := randomHex(24)
	nl.mu.Lock()
	_, err = nl.join(r.Context(), seatNo, name, acct, tok)
	if err == nil {
		nl.afterChange()
	}
	nl.mu.Unlock()
	var ae *apiError
	if errors.As(err, &ae) && ae.code == 409 {
		s.fail(w, &apiError{409, "your seat in the rematch is taken already (from another page or device?)"})
		return
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, RematchResponse{ID: id, JoinResponse: JoinResponse{Seat: seatNo, Token: tok}})
}

// rematchGame returns the rematch id, creating it from req if nobody has
// yet (the id is logged before the game is made, so whoever finds it
// missing makes it).
func (s *Server) rematchGame(ctx context.Context, id string, req *createRequest) (*live, error) {
	nl, err := s.game(ctx, id)
	var ae *apiError
	if !errors.As(err, &ae) || ae.code != 404 {
		return nl, err
	}
	if slices.ContainsFunc(req.Seats, func(st SeatRequest) bool { return st.Invite != "" }) {
		// Invited again as a new game's players are: counted among the
		// invitations waiting, and not between accounts of which one
		// blocks the other (held until the game is in memory, where
		// the next count finds it).
		s.inviteMu.Lock()
		defer s.inviteMu.Unlock()
		if nl, err := s.game(ctx, id); !errors.As(err, &ae) || ae.code != 404 {
			// Made meanwhile: its invitation is counted already.
			return nl, err
		}
		if err := s.reinvite(ctx, req); err != nil {
			return nil, err
		}
	}
	nl, err = s.createAs(ctx, req, id)
	if errors.Is(err, store.ErrConflict) {
		// Made meanwhile by another request or process.
		return s.game(ctx, id)
	}
	return nl, err
}

// reinvite checks the invitations of a rematch as those of a new game
// made by the account that invited to the finished one.
func (s *Server) reinvite(ctx context.Context, req *createRequest) error {
	by := ""
	for _, st := range req.Seats {
		by = cmp.Or(by, st.invitedBy)
	}
	inviter, err := s.store.Account(ctx, AccountKey(by))
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && inviter.Closed():
		return &apiError{409, fmt.Sprintf("%s invited players to this game and has no account now: its rematch cannot invite them again", by)}
	case err != nil:
		return err
	}
	return s.invitations(ctx, req, inviter)
}

// rematchRequest is the creation of l's rematch. Caller holds mu.
func (l *live) rematchRequest() *createRequest {
	req := &createRequest{Variant: l.hdr.Variant, Lexicon: l.hdr.Lexicon, Challenge: l.hdr.Challenge, Rated: l.hdr.Rated}
	for i := len(l.hdr.Seats) - 1; i >= 0; i-- {
		st := l.hdr.Seats[i]
		sr := SeatRequest{Kind: "human", Name: l.seat[i].name}
		if st.Level != "" {
			sr = SeatRequest{Kind: "computer", Level: st.Level, Name: st.Name}
		}
		if req.Clock == nil {
			req.Clock = clockOf(st)
		}
		if st.Invited != "" && !l.seat[i].taken {
			// Invited and never come: invited again.
			sr.Invite, sr.inviteKey, sr.invitedBy = st.Name, st.Invited, st.InvitedBy
		}
		req.Seats = append(req.Seats, sr)
	}
	return req
}

// applyRematch records the rematch and tells each person's seat.
// Caller holds mu.
func (l *live) applyRematch(ev rematchEvent) {
	l.rematch = ev.Game
	for i, st := range l.seat {
		if st.level == "" {
			l.log.push(i, Notification{Type: "rematch", Game: ev.Game})
		}
	}
	l.touch()
}

// replayRematch applies a logged rematch.
func (l *live) replayRematch(data string) error {
	var ev rematchEvent
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return err
	}
	if !validID(ev.Game) {
		return errors.New("rematch: not a game id")
	}
	l.applyRematch(ev)
	return nil
}
