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

// Follows: a signed-in player may follow other players (GET, POST
// /api/me/follows; DELETE /api/me/follows/{name}), to see in the lobby
// which of them have it open and the games they offer or play there
// (those anyone may watch). A player's page counts its followers. The
// account followed is not told who follows it. Between accounts that
// block one another (either way) a follow shows the name only: neither
// when the other was about nor its games.

// maxFollows is the most accounts one account may follow.
const maxFollows = 500

// FollowInfo is an account one follows: its name, since when, and when
// it was last seen with the lobby open (none if never, or if either
// account blocks the other); Online when that was within the lobby's
// window; in the lobby's answer only, the games it offers there (Offers)
// and those it plays that anyone may watch (Playing).
type FollowInfo struct {
	Name    string      `json:"name"`
	Since   time.Time   `json:"since"`
	Seen    *time.Time  `json:"seen,omitempty"`
	Online  bool        `json:"online,omitempty"`
	Offers  []LobbyGame `json:"offers,omitempty"`
	Playing []LobbyGame `json:"playing,omitempty"`
}

// FollowList is the answer of GET, POST and DELETE /api/me/follows: the
// accounts the signed-in player follows, by name.
type FollowList struct {
	Follows []FollowInfo `json:"follows"`
}

// follows returns what the account of key is shown of the accounts it
// follows, b being those it blocks or that block it, with each one's
// games among the lobby's lists open and playing (nil outside the
// lobby).
func (s *Server) follows(ctx context.Context, key string, b blocking, now time.Time, open, playing []lobbyEntry) ([]FollowInfo, error) {
	fs, err := s.store.Follows(ctx, key)
	if err != nil {
		return nil, err
	}
	out := make([]FollowInfo, 0, len(fs))
	for _, f := range fs {
		fi := FollowInfo{Name: f.Name, Since: f.Since}
		if !b[f.Key] {
			fi.Seen, fi.Online = seenInfo(f.Seen, now)
			fi.Offers, fi.Playing = gamesOf(open, f.Key, b), gamesOf(playing, f.Key, b)
		}
		out = append(out, fi)
	}
	return out, nil
}

// gamesOf is the games of es in which the account of key holds a seat
// and no account of b does.
func gamesOf(es []lobbyEntry, key string, b blocking) []LobbyGame {
	var out []LobbyGame
	for _, e := range es {
		if slices.Contains(e.accounts, key) && !slices.ContainsFunc(e.accounts, func(k string) bool { return b[k] }) {
			out = append(out, e.game)
		}
	}
	return out
}

func (s *Server) handleFollows(w http.ResponseWriter, r *http.Request) {
	a, err := s.requireSignIn(r, "sign in to see the players you follow")
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writeFollows(w, r, a.Key)
}

// writeFollows answers the follows of the account of key.
func (s *Server) writeFollows(w http.ResponseWriter, r *http.Request, key string) {
	b, err := s.blockingOf(r.Context(), key)
	if err != nil {
		s.fail(w, err)
		return
	}
	fs, err := s.follows(r.Context(), key, b, time.Now(), nil, nil)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, FollowList{Follows: fs})
}

// followLists is the list of the players one follows, for accountList.
func (s *Server) followLists() *accountList {
	return &accountList{verb: "follow", max: maxFollows, add: s.store.Follow, remove: s.store.Unfollow, write: s.writeFollows}
}

func (s *Server) handleFollow(w http.ResponseWriter, r *http.Request) {
	s.changeList(w, r, s.followLists(), true)
}

func (s *Server) handleUnfollow(w http.ResponseWriter, r *http.Request) {
	s.changeList(w, r, s.followLists(), false)
}

// accountList is a list of other accounts that an account keeps (the
// players it blocks, those it follows): what it is called, its bound and
// how it is changed (add checks the bound in the store's write, and
// refuses with a store.LimitError) and answered.
type accountList struct {
	verb   string // block, follow
	max    int
	add    func(ctx context.Context, key, other string, at time.Time, limit int) error
	remove func(ctx context.Context, key, other string) error
	write  func(w http.ResponseWriter, r *http.Request, key string)
}

// changeList adds the account named in the body (on) or in the path (not
// on) to the signed-in player's list l, or takes it off, and answers the
// list.
func (s *Server) changeList(w http.ResponseWriter, r *http.Request, l *accountList, on bool) {
	data, ok := s.limitedBody(w, r, s.joinLim, "changes to the players you "+l.verb)
	if !ok {
		return
	}
	verb := l.verb
	if !on {
		verb = "un" + verb
	}
	a, err := s.requireSignIn(r, "sign in to "+verb+" a player")
	if err != nil {
		s.fail(w, err)
		return
	}
	name := r.PathValue("name")
	if on {
		var req blockRequest
		if err := decodeJSON(data, &req); err != nil {
			s.fail(w, err)
			return
		}
		name = req.Name
	}
	other, err := s.accountNamed(r.Context(), name)
	if err != nil {
		s.fail(w, err)
		return
	}
	if !on {
		if err := l.remove(r.Context(), a.Key, other.Key); err != nil {
			s.fail(w, err)
			return
		}
		l.write(w, r, a.Key)
		return
	}
	if other.Key == a.Key {
		s.fail(w, &apiError{400, "you cannot " + l.verb + " yourself"})
		return
	}
	if other.Closed() {
		s.fail(w, &apiError{400, other.Name + " closed their account"})
		return
	}
	if err := l.add(r.Context(), a.Key, other.Key, time.Now(), l.max); err != nil {
		var le *store.LimitError
		if errors.As(err, &le) {
			err = &apiError{409, fmt.Sprintf("you %s %d players, as many as you may: un%s one first", l.verb, le.Have, l.verb)}
		}
		s.fail(w, err)
		return
	}
	l.write(w, r, a.Key)
}
