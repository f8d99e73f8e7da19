package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"atril/store"
)

// Closing one's account (POST /api/me/close, with the password): the
// account ends for good. Its name stays taken and its finished games stay
// in the other players' histories; its password, sessions, seats'
// tokens, cardboxes, puzzle answers, follows and blocks (both ways), its
// sighting in the lobby and its lobby chat lines go (store.ClosedReason).
// The invitations waiting for it are declined. An account with a seat in
// an unfinished game, or in a tournament not over, is asked to finish
// (or resign, or withdraw) first, so that nobody is left waiting.

// closeRequest is the body of POST /api/me/close.
type closeRequest struct {
	Password string `json:"password"`
}

func (s *Server) handleCloseAccount(w http.ResponseWriter, r *http.Request) {
	var req closeRequest
	a, ok := s.confirmed(w, r, "sign in to close your account", &req, &req.Password, nil)
	if !ok {
		return
	}
	if err := s.closable(r, a); err != nil {
		s.fail(w, err)
		return
	}
	// The invitations waiting for the account are declined: nobody may
	// take those seats now.
	for _, ref := range s.pendingInvitations(a.Key) {
		if l, err := s.game(r.Context(), ref.game); err == nil {
			l.mu.Lock()
			if !l.over() && l.invitedSeat(a.Key) >= 0 {
				err = l.end(r.Context(), "abort", ref.seat)
			}
			l.mu.Unlock()
			if err != nil {
				s.fail(w, err)
				return
			}
		}
	}
	if _, err := s.revokeSeats(r.Context(), a.Key); err != nil {
		s.fail(w, err)
		return
	}
	if err := s.store.CloseAccount(r.Context(), a.Key, time.Now()); err != nil {
		s.fail(w, err)
		return
	}
	s.logf("account %s closed by its owner", a.Name)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	writeJSON(w, 200, Me{})
}

// closable refuses to close an account that holds a seat in an
// unfinished game or is in a tournament not over (as a player still in
// it, or its director), naming them.
func (s *Server) closable(r *http.Request, a *store.Account) error {
	games, err := s.store.UnfinishedGames(r.Context(), a.Key)
	if err != nil {
		return err
	}
	if len(games) > 0 {
		links := make([]string, 0, 3)
		for _, id := range games[:min(3, len(games))] {
			links = append(links, "/g/"+id)
		}
		return &apiError{409, fmt.Sprintf("you have %d unfinished games (%s): finish or resign them first", len(games), strings.Join(links, ", "))}
	}
	var in []string
	if err := s.eachOpenTournament(r.Context(), func(_ string, d *tournamentDoc) {
		if d.State == "over" || d.State == "cancelled" {
			return
		}
		if d.DirectorKey == a.Key || slices.ContainsFunc(d.Players, func(p tPlayer) bool { return p.Key == a.Key && p.Left == 0 }) {
			in = append(in, d.Name)
		}
	}); err != nil {
		return err
	}
	if len(in) > 0 {
		return &apiError{409, fmt.Sprintf("you are in %d tournaments not over (%s): withdraw from them, or cancel those you direct, first", len(in), strings.Join(in, ", "))}
	}
	return nil
}
