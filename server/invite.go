package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"atril/store"
)

// Invitations: a person's seat of a new game may be kept for a player
// account named by the game's creator, who must be signed in
// (SeatRequest.Invite). Only that account may take the seat; while the
// game waits for it, the account's list of games (GET /api/me/games)
// shows it among its invitations, and it may decline
// (POST /api/games/{id}/decline), which calls the game off. A game
// waiting for an invited player expires as any game whose seats are not
// all taken. Pending invitations are bounded: maxInvitesTo per invited
// account, maxInvitesFrom of them from one account, and as many from one
// client (address), so that accounts made for the purpose do not let
// one client fill an account's invitations.
const (
	maxInvitesTo   = 20
	maxInvitesFrom = 3
)

// inviteRef is a seat of game kept for an account, invited by the
// account named by, as the server's index of invitations holds it;
// pendingInvitations fills in client, the client that made the game (""
// if not known: a game made before the server started).
type inviteRef struct {
	game    string
	seat    int
	by      string
	created time.Time
	client  string
}

// invitations checks the invitations of a create request made by the
// signed-in account me: each invited name is another existing account,
// at most one seat each, with room for one more invitation (from me
// too). It sets each seat's name to the account's and keeps its key and
// me's name.
func (s *Server) invitations(ctx context.Context, req *createRequest, me *store.Account) error {
	seen := map[string]bool{}
	var blocks blocking
	for i := range req.Seats {
		st := &req.Seats[i]
		if st.Invite == "" {
			continue
		}
		_, key, err := accountName(st.Invite)
		if err != nil {
			return &apiError{400, fmt.Sprintf("seat %d: invite: %v", i, err)}
		}
		a, err := s.store.Account(ctx, key)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return &apiError{400, fmt.Sprintf("seat %d: no player is named %q", i, short(st.Invite, 40))}
		case err != nil:
			return err
		case a.Key == me.Key:
			return &apiError{400, fmt.Sprintf("seat %d: you cannot invite yourself", i)}
		case a.Closed():
			return &apiError{400, fmt.Sprintf("seat %d: %s closed their account", i, a.Name)}
		case seen[a.Key]:
			return &apiError{400, fmt.Sprintf("seat %d: %s is invited to another seat already", i, a.Name)}
		}
		if blocks == nil {
			if blocks, err = s.blockingOf(ctx, me.Key); err != nil {
				return err
			}
		}
		if blocks[a.Key] {
			return errBlocked(a.Name)
		}
		pending := s.pendingInvitations(a.Key)
		from, fromClient := 0, 0
		for _, p := range pending {
			if p.by == me.Name {
				from++
			}
			if req.creator != "" && p.client == req.creator {
				fromClient++
			}
		}
		switch {
		case len(pending) >= maxInvitesTo:
			return &apiError{409, fmt.Sprintf("%s has %d invitations waiting for an answer; try later", a.Name, len(pending))}
		case from >= maxInvitesFrom:
			return &apiError{409, fmt.Sprintf("%s has %d of your invitations waiting for an answer already", a.Name, from)}
		case fromClient >= maxInvitesFrom:
			return &apiError{409, fmt.Sprintf("%s has %d invitations from your address waiting for an answer already", a.Name, fromClient)}
		}
		seen[a.Key] = true
		st.Invite, st.inviteKey, st.invitedBy = a.Name, a.Key, me.Name
	}
	return nil
}

// noteInvitations adds the seats an unfinished game keeps for invited
// accounts to the server's index.
func (s *Server) noteInvitations(hdr *store.Game) {
	if hdr.Finished {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, st := range hdr.Seats {
		if st.Invited == "" || slices.ContainsFunc(s.invites[st.Invited], func(r inviteRef) bool { return r.game == hdr.ID }) {
			continue
		}
		s.invites[st.Invited] = append(s.invites[st.Invited], inviteRef{game: hdr.ID, seat: i, by: st.InvitedBy, created: hdr.Created})
	}
}

// pendingInvitations lists the invitations of the account of key that
// still wait for its answer, newest first, and drops from the index
// those that no longer do (the seat taken, the game over or gone).
func (s *Server) pendingInvitations(key string) []inviteRef {
	s.mu.Lock()
	refs := slices.Clone(s.invites[key])
	s.mu.Unlock()
	var out []inviteRef
	gone := map[string]bool{}
	for _, ref := range refs {
		s.mu.Lock()
		l, ok := s.games[ref.game]
		s.mu.Unlock()
		if !ok {
			// Not in memory (yet: a game being made is added to the
			// index a moment before the server holds it).
			gone[ref.game] = time.Since(ref.created) > time.Minute
			continue
		}
		l.mu.Lock()
		pending := !l.over() && !l.seat[ref.seat].taken
		ref.client = l.creator
		l.mu.Unlock()
		if pending {
			out = append(out, ref)
		} else {
			gone[ref.game] = true
		}
	}
	s.mu.Lock()
	s.invites[key] = slices.DeleteFunc(s.invites[key], func(r inviteRef) bool { return gone[r.game] })
	if len(s.invites[key]) == 0 {
		delete(s.invites, key)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b inviteRef) int { return b.created.Compare(a.created) })
	return out
}

// mayTake refuses seat i to anyone but the account it is kept for.
// Caller holds mu.
func (l *live) mayTake(i int, acct *seatAccount) error {
	kept := l.hdr.Seats[i].Invited
	if kept == "" && !l.fits(i, acct) {
		st := l.hdr.Seats[i]
		if acct == nil {
			return &apiError{401, fmt.Sprintf("seat %d is for players rated %s: sign in to take it", i, ratingRange(st.RatingMin, st.RatingMax))}
		}
		return &apiError{403, fmt.Sprintf("seat %d is for players rated %s in this word list and pace, and yours is %d", i, ratingRange(st.RatingMin, st.RatingMax), acct.ratingOrNew())}
	}
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
// for nobody (−1: none); other is the first free person's seat kept for
// another account (−1: none), which tells why there is none. Caller
// holds mu.
func (l *live) freeSeat(acct *seatAccount) (seat, other int) {
	seat, other = -1, -1
	for j, s := range l.seat {
		if s.taken || s.level != "" {
			continue
		}
		// (A seat with a rating range is free for no account in
		// particular: the lobby lists it.)
		fits := acct == nil || l.fits(j, acct)
		switch kept := l.hdr.Seats[j].Invited; {
		case kept != "" && acct != nil && acct.key == kept:
			return j, other
		case kept == "" && fits && seat < 0:
			seat = j
		case (kept != "" || !fits) && other < 0:
			other = j
		}
	}
	return seat, other
}

// freeForAnyone reports whether a person's seat is free and kept for
// nobody. Caller holds mu.
func (l *live) freeForAnyone() bool {
	seat, _ := l.freeSeat(nil)
	return seat >= 0
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
	if err := l.end(r.Context(), "abort", i); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, l.state(-1))
}

// fits reports whether the account may take seat i as far as the seat's
// rating range goes (a seat without one: anyone; with one: an account
// rated within it). Caller holds mu.
func (l *live) fits(i int, acct *seatAccount) bool {
	st := l.hdr.Seats[i]
	if st.RatingMin == 0 && st.RatingMax == 0 {
		return true
	}
	if acct == nil {
		return false
	}
	r := acct.ratingOrNew()
	return r >= st.RatingMin && (st.RatingMax == 0 || r <= st.RatingMax)
}

// ratingRange writes a seat's rating range: "1600 to 1800", "1600 or
// more", "up to 1800".
func ratingRange(lo, hi int) string {
	switch {
	case hi == 0:
		return fmt.Sprintf("%d or more", lo)
	case lo == 0:
		return fmt.Sprintf("up to %d", hi)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}
