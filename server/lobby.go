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
}

// Lobby is the answer of GET /api/lobby.
type Lobby struct {
	Open []LobbyGame `json:"open"`
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
// person, newest first.
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	games := make([]*live, 0, len(s.games))
	for _, l := range s.games {
		games = append(games, l)
	}
	s.mu.Unlock()
	out := Lobby{Open: []LobbyGame{}}
	for _, l := range games {
		l.mu.Lock()
		if l.listed && !l.started() && !l.over() {
			lg := LobbyGame{ID: l.hdr.ID, Variant: l.v.Name, Lexicon: l.hdr.Lexicon, Created: l.hdr.Created, Challenge: l.hdr.Challenge, Rated: l.hdr.Rated}
			for i, st := range l.seat {
				if lg.Clock == nil && l.timed(i) {
					lg.Clock = &ClockRequest{Seconds: l.hdr.Seats[i].Seconds, Overtime: l.hdr.Seats[i].Overtime}
				}
				si := SeatInfo{Name: st.name, Kind: "human", Level: st.level, Taken: st.taken, Account: st.account != "", Rating: st.rating}
				if st.level != "" {
					si.Kind = "computer"
				}
				lg.Seats = append(lg.Seats, si)
			}
			out.Open = append(out.Open, lg)
		}
		l.mu.Unlock()
	}
	sort.Slice(out.Open, func(i, j int) bool {
		if !out.Open[i].Created.Equal(out.Open[j].Created) {
			return out.Open[i].Created.After(out.Open[j].Created)
		}
		return out.Open[i].ID < out.Open[j].ID
	})
	if len(out.Open) > maxLobby {
		out.Open = out.Open[:maxLobby]
	}
	writeJSON(w, 200, out)
}
