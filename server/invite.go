package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"atril/store"
)

// Invitations: a person's seat of a new game may be kept for a player
// account named by the game's creator (SeatRequest.Invite). Only that
// account may take the seat; the game is listed among its games (GET
// /api/me/games) from the start, so its page shows the invitation, and
// it may decline (POST /api/games/{id}/decline), which calls the game
// off. A game waiting for an invited player expires as any game whose
// seats are not all taken.

// invitations checks the invitations of a create request: its creator
// is signed in, and each invited name is another existing account, at
// most one seat each. It sets each seat's name to the account's and
// keeps its key.
func (s *Server) invitations(r *http.Request, req *createRequest) error {
	var me *store.Account
	seen := map[string]bool{}
	for i := range req.Seats {
		st := &req.Seats[i]
		if st.Invite == "" {
			continue
		}
		if me == nil {
			a, err := s.requireSignIn(r, "sign in to invite a player")
			if err != nil {
				return err
			}
			me = a
		}
		_, key, err := accountName(st.Invite)
		if err != nil {
			return &apiError{400, fmt.Sprintf("seat %d: invite: %v", i, err)}
		}
		a, err := s.store.Account(r.Context(), key)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return &apiError{400, fmt.Sprintf("seat %d: no player is named %q", i, short(st.Invite, 40))}
		case err != nil:
			return err
		case a.Key == me.Key:
			return &apiError{400, fmt.Sprintf("seat %d: you cannot invite yourself", i)}
		case seen[a.Key]:
			return &apiError{400, fmt.Sprintf("seat %d: %s is invited to another seat already", i, a.Name)}
		}
		seen[a.Key] = true
		st.Invite, st.inviteKey = a.Name, a.Key
	}
	return nil
}

// listInvitations lists a new game among the games of each account it
// invites. The seat is kept whether or not the list records it.
func (s *Server) listInvitations(ctx context.Context, hdr *store.Game) {
	for i, st := range hdr.Seats {
		if st.Invited == "" {
			continue
		}
		g := store.AccountGame{Game: hdr.ID, Seat: i, Joined: hdr.Created}
		if err := s.store.AddAccountGame(ctx, st.Invited, g); err != nil {
			s.logf("game %s: list the invitation of seat %d: %v", hdr.ID, i, err)
		}
	}
}

// mayTake refuses seat i to anyone but the account it is kept for.
// Caller holds mu.
func (l *live) mayTake(i int, acct *seatAccount) error {
	kept := l.hdr.Seats[i].Invited
	switch {
	case kept == "" || acct != nil && acct.key == kept:
		return nil
	case acct == nil:
		return &apiError{401, fmt.Sprintf("seat %d is kept for %s: sign in as %s to take it", i, l.hdr.Seats[i].Name, l.hdr.Seats[i].Name)}
	}
	return &apiError{403, fmt.Sprintf("seat %d is kept for %s", i, l.hdr.Seats[i].Name)}
}

// freeSeat is the seat a person joining without naming one takes: the
// one kept for its account, or else the first free person's seat kept
// for nobody (−1: none). Caller holds mu.
func (l *live) freeSeat(acct *seatAccount) int {
	free := -1
	for j, s := range l.seat {
		if s.taken || s.level != "" {
			continue
		}
		kept := l.hdr.Seats[j].Invited
		if kept != "" && acct != nil && acct.key == kept {
			return j
		}
		if kept == "" && free < 0 {
			free = j
		}
	}
	return free
}

// invitedSeat is the seat of game l kept for the account of key and not
// yet taken (−1: none). Caller holds mu.
func (l *live) invitedSeat(key string) int {
	for j, s := range l.seat {
		if !s.taken && l.hdr.Seats[j].Invited == key {
			return j
		}
	}
	return -1
}

// handleDecline: the invited account declines the invitation, which
// calls the game off before it starts (as its seat would).
func (s *Server) handleDecline(w http.ResponseWriter, r *http.Request) {
	if _, err := readBody(w, r); err != nil {
		s.fail(w, err)
		return
	}
	a, err := s.requireSignIn(r, "sign in to decline an invitation")
	if err != nil {
		s.fail(w, err)
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	i := l.invitedSeat(a.Key)
	switch {
	case l.over():
		s.fail(w, &apiError{409, "the game is over"})
		return
	case i < 0:
		s.fail(w, &apiError{403, "this game keeps no free seat for you"})
		return
	}
	ev := endEvent{Seat: i}
	if err := l.append(r.Context(), "abort", ev); err != nil {
		s.fail(w, err)
		return
	}
	if err := l.applyEnd("abort", ev); err != nil {
		s.fail(w, fmt.Errorf("game %s: logged abort failed to apply: %w", l.hdr.ID, err))
		return
	}
	l.afterChange()
	writeJSON(w, 200, l.state(-1))
}
