package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/coder/websocket"
)

// The watchers' WebSocket: a reader of a game being played who holds
// none of its seats (GET /api/games/{id}/watch, no token) is told of each
// change of its public state as it happens, instead of reading the state
// again every few seconds. It gets two kinds of message, each a JSON
// text message:
//
//	{"type":"changed"}   the state changed (a move, a seat taken, a
//	                     watchers' chat line, the end): read it again
//	{"type":"watching","watching":N,"watching_names":[...]}
//	                     how many watch now, and the signed-in ones
//
// While the socket is open the server counts its client among the
// game's watchers (as a read of the state would), so a page that only
// listens stays counted. What a seat alone may see (its rack, its
// notifications, the players' chat) never goes through it: the message
// says only that something changed, and the state read without a token
// shows what a watcher may see. Messages are at least watchGap apart, so
// a burst of changes costs each watcher one read.

// Bounds of the watchers' WebSockets (variables for the tests).
var (
	// watchSocketsMost bounds the watchers' WebSockets one process holds
	// for one game; past it a watcher is answered 503 and reads the
	// state as before.
	watchSocketsMost = 1000
	// watchGap is the least time between two messages to a watcher.
	watchGap = 250 * time.Millisecond
)

// watchMessage is a message of the watchers' WebSocket.
type watchMessage struct {
	Type          string   `json:"type"`
	Watching      *int     `json:"watching,omitempty"`
	WatchingNames []string `json:"watching_names,omitempty"`
}

// changedMessage tells a watcher, or a page with the lobby open, to read
// again what it shows.
var changedMessage = []byte(`{"type":"changed"}`)

func (s *Server) handleWatch(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	key, ok := s.takeClientSocket(w, r)
	if !ok {
		return
	}
	defer s.clientSockets.give(key)
	l.mu.Lock()
	switch {
	case l.over():
		l.mu.Unlock()
		s.fail(w, &apiError{409, "the game is over: read its state"})
		return
	case l.evicted:
		// This copy was dropped just now: the next request loads the
		// game afresh.
		l.mu.Unlock()
		s.fail(w, &apiError{503, "the game is being reloaded; connect again"})
		return
	case l.watchSockets >= watchSocketsMost:
		l.mu.Unlock()
		s.fail(w, &apiError{503, fmt.Sprintf("this game has %d watchers connected already; read its state instead", watchSocketsMost)})
		return
	}
	l.watchSockets++
	// The changes from now on: one made while the socket opens is told
	// as soon as it is open.
	changed := l.changed
	l.mu.Unlock()
	s.count.watchSockets.Add(1)
	defer func() {
		s.count.watchSockets.Add(-1)
		l.mu.Lock()
		l.watchSockets--
		l.mu.Unlock()
	}()
	c, ctx, ok := acceptSocket(w, r, "the watchers' WebSocket only sends")
	if !ok {
		return
	}
	defer c.CloseNow()
	send := func(data []byte) bool { return sendText(ctx, c, data) == nil }
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	// (A test may set watcherEvery to 0: every read recorded.)
	count := time.NewTicker(max(watcherEvery, 10*time.Millisecond))
	defer count.Stop()
	// The count as the client last heard it (-1: not yet).
	told := -1
	var toldNames []string
	tell := func() bool {
		wt := s.watched(r, l, -1, time.Now())
		if wt.Count == told && slices.Equal(wt.Names, toldNames) {
			return true
		}
		told, toldNames = wt.Count, wt.Names
		data, _ := json.Marshal(watchMessage{Type: "watching", Watching: &wt.Count, WatchingNames: wt.Names})
		return send(data)
	}
	if !tell() {
		return
	}
	for {
		select {
		case <-changed:
			// Let a burst of changes settle into one message.
			select {
			case <-time.After(watchGap):
			case <-ctx.Done():
				return
			}
			l.mu.Lock()
			changed = l.changed
			over, evicted := l.over(), l.evicted
			l.mu.Unlock()
			if !send(changedMessage) {
				return
			}
			switch {
			case over:
				c.Close(websocket.StatusNormalClosure, "the game is over")
				return
			case evicted:
				// This copy of the game was dropped; a new connection
				// follows the one loaded in its place.
				c.Close(websocket.StatusTryAgainLater, "the game was reloaded; connect again")
				return
			}
		case <-count.C:
			if !tell() {
				return
			}
		case <-ping.C:
			if pingSocket(ctx, c) != nil {
				return
			}
		case <-ctx.Done():
			c.Close(websocket.StatusNormalClosure, "")
			return
		case <-s.ctx.Done():
			c.Close(websocket.StatusGoingAway, "server shutting down")
			return
		}
	}
}
