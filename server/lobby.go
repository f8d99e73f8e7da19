package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
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
	// Rated is set for a rated game (only signed-in people may join),
	// Pace its pace (the ratings it moves).
	Rated bool   `json:"rated,omitempty"`
	Pace  string `json:"pace,omitempty"`
	// Moves is the number of moves played (games being played).
	Moves int `json:"moves,omitempty"`
	// ClockState is a timed game's clock as the list was read (games
	// being played): the time left of each seat and whose runs.
	ClockState *ClockState `json:"clock_state,omitempty"`
}

// Lobby is the answer of GET /api/lobby: the games offered that wait
// for people, and those being played that anyone may watch (offered in
// the lobby or rated), newest first.
type Lobby struct {
	Open    []LobbyGame `json:"open"`
	Playing []LobbyGame `json:"playing"`
	// Players are the names of the signed-in players with the lobby
	// open (within the last minute and a half), the latest seen first,
	// at most MaxOnline: not the one asking, nor accounts blocked
	// either way.
	Players []string `json:"players"`
	// Chat is the lobby chat's latest lines (at most LobbyChatShown),
	// oldest first, without those of accounts blocked either way.
	Chat []LobbyChatLine `json:"chat"`
	// Follows are the players the one asking follows (signed in), with
	// whether each has the lobby open and its games among those the lists
	// above take from (before their cut to maxLobby).
	Follows []FollowInfo `json:"follows,omitempty"`
	// UnreadMessages counts the messages to the one asking (signed in)
	// not read yet, so that a lobby left open says when one comes.
	UnreadMessages int `json:"unread_messages,omitempty"`
}

// DefaultMaxOffers is how many games one client or account may have
// waiting in the lobby at once.
const DefaultMaxOffers = 3

// handleList offers the game in the lobby, so that anyone may join it.
// Only a seat of a game still waiting for players may ask, and only
// while its client and its account have fewer than cfg.MaxOffers other
// games waiting there (409).
func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	_, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	if err := s.offer(r.Context(), l, s.clientKey(r), l.seat[me].account); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, map[string]bool{"listed": true})
}

// offer offers game l in the lobby for the client and the account (""
// for none) of the seat that asks, unless it is offered already: only a
// game still waiting for players, and only while the client and the
// account have fewer than cfg.MaxOffers other games waiting there (409).
// Caller holds l.mu (let go meanwhile: counting reads the other offered
// games, each under its own lock) and no other game's.
func (s *Server) offer(ctx context.Context, l *live, client, account string) error {
	if err := l.listable(); err != nil || l.listed {
		return err
	}
	l.mu.Unlock()
	s.offerMu.Lock()
	defer s.offerMu.Unlock()
	n := 0
	if s.cfg.MaxOffers > 0 {
		n = s.offersBy(client, account)
	}
	l.mu.Lock()
	if err := l.listable(); err != nil || l.listed {
		return err
	}
	if s.cfg.MaxOffers > 0 && n >= s.cfg.MaxOffers {
		return &apiError{409, fmt.Sprintf("%d of your games wait in the lobby already; wait for players to join them, or call one off", n)}
	}
	if err := l.append(ctx, "list", struct{}{}); err != nil {
		return err
	}
	l.listed = true
	l.offeredBy = offerer{client: client, account: account}
	s.show(l)
	l.touch()
	return nil
}

// listable says why the game cannot be offered in the lobby (nil: it
// can). Caller holds mu.
func (l *live) listable() error {
	switch {
	case l.over():
		return &apiError{409, "the game is over"}
	case l.started():
		return &apiError{409, "every seat is taken: there is nobody to wait for"}
	case !l.freeForAnyone():
		return &apiError{409, "every free seat is kept for an invited player"}
	}
	return nil
}

// offerer is who offered a game in the lobby through this process: the
// client's address key and the account of the seat that offered it ("":
// none).
type offerer struct {
	client, account string
}

// offersBy counts the games in the lobby that wait for players and were
// offered through this process by the client or by the account (if not
// ""). Caller holds offerMu and no game's mu.
func (s *Server) offersBy(client, account string) int {
	games := s.shownGames()
	n := 0
	for _, l := range games {
		l.mu.Lock()
		if by := l.offeredBy; l.listed && !l.over() && !l.started() &&
			(by.client == client || account != "" && by.account == account) {
			n++
		}
		l.mu.Unlock()
	}
	return n
}

// shownGames is a copy of s.shown, to read each game under its own lock
// without holding s.mu.
func (s *Server) shownGames() []*live {
	s.mu.Lock()
	defer s.mu.Unlock()
	games := make([]*live, 0, len(s.shown))
	for l := range s.shown {
		games = append(games, l)
	}
	return games
}

// handleLobby lists the games offered in the lobby that still wait for a
// person, and the games being played that were offered or are rated
// (each process lists the games it holds in memory). It reads only the
// games of s.shown.
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	// A signed-in player does not see the games of the accounts it
	// blocks or that block it.
	var b blocking
	me := ""
	now := time.Now()
	a, err := s.signedIn(r)
	if err == nil && a != nil {
		me = a.Key
		if b, err = s.blockingOf(r.Context(), a.Key); err == nil {
			err = s.seen(r.Context(), a.Key, now)
		}
	}
	var players []string
	var chat []LobbyChatLine
	if err == nil {
		players, err = s.lobbyPlayers(r.Context(), me, b, now)
	}
	if err == nil {
		chat, err = s.lobbyChat(r.Context(), b, now)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	open, playing := s.lobbyGames(now)
	out := Lobby{Open: unblocked(open, b), Playing: unblocked(playing, b), Players: players, Chat: chat}
	if me != "" {
		out.Follows, err = s.follows(r.Context(), me, b, now, open, playing)
		if err == nil {
			out.UnreadMessages, err = s.store.UnreadMessages(r.Context(), me)
		}
		if err != nil {
			s.fail(w, err)
			return
		}
	}
	writeJSON(w, 200, out)
}

// lobbyEntry is a game the lobby may list, with the accounts holding its
// seats (to leave out those of accounts blocked either way).
type lobbyEntry struct {
	game     LobbyGame
	accounts []string
	// computer marks a game with a computer's seat (a rated game against
	// the computer), listed after the games between people.
	computer bool
}

// lobbyLists are the games the lobby may list: those offered that wait
// for people and those being played, newest first (being played, those
// between people first).
type lobbyLists struct{ open, playing []lobbyEntry }

// lobbyGames returns the games offered that wait for people and those
// being played that were offered or are rated, newest first, each list
// shared read-only: read from s.shown, each game under its lock, at most
// once every cfg.LobbyEvery, so that many readers of the lobby cost one
// reading of its games.
func (s *Server) lobbyGames(now time.Time) (open, playing []lobbyEntry) {
	ls, _ := s.lobbyCache.get(now, s.cfg.LobbyEvery, func() (lobbyLists, error) { return s.readLobbyGames(), nil })
	return ls.open, ls.playing
}

// readLobbyGames reads the games the lobby may list from s.shown.
func (s *Server) readLobbyGames() lobbyLists {
	var ls lobbyLists
	for _, l := range s.shownGames() {
		l.mu.Lock()
		if !l.over() && (l.listed && !l.started() || l.started() && (l.listed || l.hdr.Rated)) {
			e := lobbyEntry{game: LobbyGame{ID: l.hdr.ID, Variant: l.v.Name, Lexicon: l.hdr.Lexicon, Created: l.hdr.Created, Challenge: l.hdr.Challenge, Rated: l.hdr.Rated},
				computer: hasComputer(l.hdr.Seats)}
			if l.hdr.Rated {
				e.game.Pace = gamePace(l.hdr.Seats, true)
			}
			for i, st := range l.seat {
				if e.game.Clock == nil {
					e.game.Clock = clockOf(l.hdr.Seats[i])
				}
				e.game.Seats = append(e.game.Seats, l.seatInfo(i))
				if st.account != "" {
					e.accounts = append(e.accounts, st.account)
				}
			}
			if l.started() {
				e.game.Moves = l.g.MovesPlayed()
				e.game.ClockState = l.clockState(time.Now())
				ls.playing = append(ls.playing, e)
			} else {
				ls.open = append(ls.open, e)
			}
		}
		l.mu.Unlock()
	}
	for _, es := range [][]lobbyEntry{ls.open, ls.playing} {
		sort.Slice(es, func(i, j int) bool {
			if es[i].computer != es[j].computer {
				return !es[i].computer
			}
			if gi, gj := es[i].game, es[j].game; !gi.Created.Equal(gj.Created) {
				return gi.Created.After(gj.Created)
			}
			return es[i].game.ID < es[j].game.ID
		})
	}
	return ls
}

// unblocked is the first maxLobby games of es with no seat held by an
// account of b.
func unblocked(es []lobbyEntry, b blocking) []LobbyGame {
	out := []LobbyGame{}
	for _, e := range es {
		if len(out) == maxLobby {
			break
		}
		if !slices.ContainsFunc(e.accounts, func(k string) bool { return b[k] }) {
			out = append(out, e.game)
		}
	}
	return out
}
