package server

import (
	"net/http"
	"sort"
	"time"
)

// maxLobby bounds the open games the lobby lists.
const maxLobby = 50

// LobbyGame is a game waiting in the lobby for people to join.
type LobbyGame struct {
	ID      string     `json:"id"`
	Variant string     `json:"variant"`
	Lexicon string     `json:"lexicon"`
	Seats   []SeatInfo `json:"seats"`
	Created time.Time  `json:"created"`
	// Clock is the clock of the people's seats (none: untimed).
	Clock *ClockRequest `json:"clock,omitempty"`
	// Challenge is the challenge rule (none: void).
	Challenge string `json:"challenge,omitempty"`
	// Rated is set for a rated game (only signed-in people may join).
	Rated bool `json:"rated,omitempty"`
	// Moves is the number of moves played (games being played).
	Moves int `json:"moves,omitempty"`
}

// Lobby is the answer of GET /api/lobby: the games offered that wait
// for people, and those being played that anyone may watch (offered in
// the lobby or rated), newest first.
type Lobby struct {
	Open    []LobbyGame `json:"open"`
	Playing []LobbyGame `json:"playing"`
}

// handleList offers the game in the lobby, so that anyone may join it.
// Only a seat of a game still waiting for players may ask.
func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	_, l, _, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	switch {
	case l.over():
		s.fail(w, &apiError{409, "the game is over"})
		return
	case l.started():
		s.fail(w, &apiError{409, "every seat is taken: there is nobody to wait for"})
		return
	case !l.freeForAnyone():
		s.fail(w, &apiError{409, "every free seat is kept for an invited player"})
		return
	}
	if !l.listed {
		if err := l.append(r.Context(), "list", struct{}{}); err != nil {
			s.fail(w, err)
			return
		}
		l.listed = true
		l.touch()
	}
	writeJSON(w, 200, map[string]bool{"listed": true})
}

// handleLobby lists the games offered in the lobby that still wait for a
// person, and the games being played that were offered or are rated
// (each process lists the games it holds in memory).
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	games := make([]*live, 0, len(s.games))
	for _, l := range s.games {
		games = append(games, l)
	}
	s.mu.Unlock()
	out := Lobby{Open: []LobbyGame{}, Playing: []LobbyGame{}}
	for _, l := range games {
		l.mu.Lock()
		if !l.over() && (l.listed && !l.started() || l.started() && (l.listed || l.hdr.Rated)) {
			lg := LobbyGame{ID: l.hdr.ID, Variant: l.v.Name, Lexicon: l.hdr.Lexicon, Created: l.hdr.Created, Challenge: l.hdr.Challenge, Rated: l.hdr.Rated}
			for i := range l.seat {
				if lg.Clock == nil {
					lg.Clock = clockOf(l.hdr.Seats[i])
				}
				lg.Seats = append(lg.Seats, l.seatInfo(i))
			}
			if l.started() {
				lg.Moves = l.g.MovesPlayed()
				out.Playing = append(out.Playing, lg)
			} else {
				out.Open = append(out.Open, lg)
			}
		}
		l.mu.Unlock()
	}
	for _, list := range []*[]LobbyGame{&out.Open, &out.Playing} {
		gs := *list
		sort.Slice(gs, func(i, j int) bool {
			if !gs[i].Created.Equal(gs[j].Created) {
				return gs[i].Created.After(gs[j].Created)
			}
			return gs[i].ID < gs[j].ID
		})
		if len(gs) > maxLobby {
			*list = gs[:maxLobby]
		}
	}
	writeJSON(w, 200, out)
}
