package server

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Finding players by the first letters of their names, and when a player
// was last seen: in the lobby (presence.go) or making a move.

// Bounds of a search for players.
const (
	defaultFound = 10
	maxFound     = 20
	// maxFindPrefix bounds the letters a search gives, as a name is
	// bounded.
	maxFindPrefix = 40
)

// FoundPlayer is a player a search finds: its name, when it was last
// seen (absent: never), and whether that is now (within the lobby's
// window of presence).
type FoundPlayer struct {
	Name   string     `json:"name"`
	Seen   *time.Time `json:"seen,omitempty"`
	Online bool       `json:"online,omitempty"`
}

// FoundPlayers is the answer of GET /api/players?prefix=P.
type FoundPlayers struct {
	Players []FoundPlayer `json:"players"`
}

// seenInfo is when an account was last seen as the API gives it (nil:
// never) and whether it is online at now.
func seenInfo(at, now time.Time) (*time.Time, bool) {
	if at.IsZero() {
		return nil, false
	}
	return &at, now.Sub(at) < lobbyWindow
}

// handleFindPlayers lists the players whose names start with the letters
// of prefix, as a sign-in matches names (case, accents and look-alike
// letters aside), in the order of their folded names: at most n (1 to
// 20, default 10), suspended and closed accounts left out, and for a
// signed-in player those blocked either way. Counted with the lookups a
// client may make a minute.
func (s *Server) handleFindPlayers(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.lookLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("lookups", retry))
		return
	}
	q := r.URL.Query()
	n, err := queryInt(q, "n", defaultFound, 1, maxFound)
	if err != nil {
		s.fail(w, err)
		return
	}
	raw := q.Get("prefix")
	if utf8.RuneCountInString(raw) > maxFindPrefix {
		s.fail(w, &apiError{400, fmt.Sprintf("prefix: at most %d letters", maxFindPrefix)})
		return
	}
	prefix := AccountKey(strings.TrimSpace(raw))
	if prefix == "" {
		s.fail(w, &apiError{400, "prefix: give the first letters of a player's name"})
		return
	}
	var b blocking
	if a, err := s.signedIn(r); err != nil {
		s.fail(w, err)
		return
	} else if a != nil {
		if b, err = s.blockingOf(r.Context(), a.Key); err != nil {
			s.fail(w, err)
			return
		}
	}
	// Enough to fill n after the accounts blocked either way are left out.
	found, err := s.store.FindAccounts(r.Context(), prefix, n+len(b))
	if err != nil {
		s.fail(w, err)
		return
	}
	now := time.Now()
	out := FoundPlayers{Players: []FoundPlayer{}}
	for _, a := range found {
		if b[a.Key] || len(out.Players) == n {
			continue
		}
		p := FoundPlayer{Name: a.Name}
		p.Seen, p.Online = seenInfo(a.At, now)
		out.Players = append(out.Players, p)
	}
	writeJSON(w, 200, out)
}

// profileLive fills in what a player's page says of the account of key
// now: when it was last seen, whether it is online, and the games of the
// lobby it offers or plays; nothing for a player asking r who blocks the
// account or is blocked by it (nor games with a seat held by an account
// blocked either way with the one asking).
func (s *Server) profileLive(r *http.Request, key string, p *Profile) error {
	var b blocking
	if me, err := s.signedIn(r); err != nil {
		return err
	} else if me != nil && me.Key != key {
		if b, err = s.blockingOf(r.Context(), me.Key); err != nil || b[key] {
			return err
		}
	}
	at, err := s.store.SeenAt(r.Context(), key)
	if err != nil {
		return err
	}
	now := time.Now()
	p.Seen, p.Online = seenInfo(at, now)
	open, playing := s.lobbyGames(now)
	p.Offers, p.Playing = gamesOf(open, key, b), gamesOf(playing, key, b)
	return nil
}
