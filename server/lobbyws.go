package server

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// The lobby's WebSocket (GET /api/lobby/ws): a page with the lobby open
// is told, with {"type":"changed"}, when what every lobby shows changes
// (a game offered, taken or started, a game to watch begun or ended, a
// line of the lobby chat, a player come or gone, a tournament's
// registrations, rounds or results), and reads the lobby
// again, instead of learning of it at its next reading. One goroutine
// of the process looks at the lobby every lobbyLookEvery while any such
// socket is open, whatever their number, and a socket passes at most one
// message every lobbyGap: a busy lobby costs each page at most one
// reading a lobbyGap. What only one account sees (its messages, its
// follows' games) and the scores of the games being played still come
// with the page's regular readings.

// Periods of the lobby's sockets (variables for the tests).
var (
	lobbyLookEvery = time.Second
	lobbyGap       = 2 * time.Second
)

// lobbySocketsMost bounds the lobby's WebSockets one process holds; past
// it a page is answered 503 and reads the lobby on its own.
const lobbySocketsMost = 5000

// lobbyWatch is the state of the lobby's sockets, guarded by mu.
type lobbyWatch struct {
	mu sync.Mutex
	// changed is closed (and replaced) when the lobby changes.
	changed chan struct{}
	sockets int
	// looking is set while the goroutine that looks at the lobby runs;
	// digest is what it saw last.
	looking bool
	digest  uint64
}

func (s *Server) handleLobbyWS(w http.ResponseWriter, r *http.Request) {
	key, ok := s.takeClientSocket(w, r)
	if !ok {
		return
	}
	defer s.clientSockets.give(key)
	lw := &s.lobbyWatch
	lw.mu.Lock()
	if s.ctx.Err() != nil {
		lw.mu.Unlock()
		s.fail(w, &apiError{503, "the server is shutting down"})
		return
	}
	if lw.sockets >= lobbySocketsMost {
		lw.mu.Unlock()
		s.fail(w, &apiError{503, fmt.Sprintf("the lobby has %d pages connected already; read it instead", lobbySocketsMost)})
		return
	}
	lw.sockets++
	if lw.changed == nil {
		lw.changed = make(chan struct{})
	}
	if !lw.looking {
		lw.looking = true
		s.wg.Add(1)
		go s.lookAtLobby()
	}
	changed := lw.changed
	lw.mu.Unlock()
	s.count.lobbySockets.Add(1)
	defer func() {
		s.count.lobbySockets.Add(-1)
		lw.mu.Lock()
		lw.sockets--
		lw.mu.Unlock()
	}()
	c, ctx, ok := acceptSocket(w, r, "the lobby's WebSocket only sends")
	if !ok {
		return
	}
	defer c.CloseNow()
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case <-changed:
			select {
			case <-time.After(lobbyGap):
			case <-ctx.Done():
				return
			}
			lw.mu.Lock()
			changed = lw.changed
			lw.mu.Unlock()
			if sendText(ctx, c, changedMessage) != nil {
				return
			}
		case <-ping.C:
			if pingSocket(ctx, c) != nil {
				return
			}
		case <-ctx.Done():
			return
		case <-s.ctx.Done():
			c.Close(websocket.StatusGoingAway, "server shutting down")
			return
		}
	}
}

// lookAtLobby looks at the lobby every lobbyLookEvery while a socket of
// it is open, and tells the sockets when it changed.
func (s *Server) lookAtLobby() {
	defer s.wg.Done()
	lw := &s.lobbyWatch
	t := time.NewTicker(lobbyLookEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			lw.mu.Lock()
			lw.looking = false
			lw.mu.Unlock()
			return
		case <-t.C:
		}
		d, err := s.lobbyDigest(s.ctx, time.Now())
		if err != nil && s.ctx.Err() == nil {
			s.logf("server: look at the lobby: %v", err)
		}
		lw.mu.Lock()
		if lw.sockets == 0 {
			lw.looking = false
			lw.mu.Unlock()
			return
		}
		if err == nil && d != lw.digest {
			lw.digest = d
			close(lw.changed)
			lw.changed = make(chan struct{})
		}
		lw.mu.Unlock()
	}
}

// lobbyDigest sums up what every lobby shows, as a guest sees it: the
// games offered (with their seats), the games being played (which ones,
// not their scores), the chat's lines, the players in the lobby and the
// tournaments not over.
func (s *Server) lobbyDigest(ctx context.Context, now time.Time) (uint64, error) {
	h := fnv.New64a()
	open, playing := s.lobbyGames(now)
	for _, e := range open {
		data, _ := json.Marshal(e.game)
		h.Write(data)
	}
	h.Write([]byte{0})
	for _, e := range playing {
		h.Write([]byte(e.game.ID))
	}
	h.Write([]byte{0})
	lines, err := s.lobbyChat(ctx, nil, now)
	if err != nil {
		return 0, err
	}
	for _, l := range lines {
		fmt.Fprintf(h, "%d,", l.ID)
	}
	h.Write([]byte{0})
	players, err := s.lobbyPlayers(ctx, "", nil, now)
	if err != nil {
		return 0, err
	}
	// Who is there, not in which order (the latest seen first, which
	// changes as each page reads the lobby).
	slices.Sort(players)
	for _, p := range players {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	h.Write([]byte{0})
	// The tournaments not over, each at its version (which every
	// change of it moves on).
	ts, _, err := s.store.ListTournaments(ctx, 30)
	if err != nil {
		return 0, err
	}
	for _, t := range ts {
		fmt.Fprintf(h, "%s/%d,", t.ID, t.Version)
	}
	return h.Sum64(), nil
}
