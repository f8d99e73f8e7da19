package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// MaxSocketsPerSeat bounds the WebSockets open at once for one seat (its
// tabs and devices).
const MaxSocketsPerSeat = 16

// handleWS pushes a seat's notifications over a WebSocket, each as one
// JSON text message: those after the cursor after=SEQ, or, without one,
// those not yet taken from the seat's queue (and what it sends counts as
// taken). Each connection follows the game on its own, so every
// connection of a seat gets every notification. The client sends nothing
// (moves go through the HTTP API); the server pings to keep the
// connection alive.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	l, me, err := s.authed(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	after, cursor, err := parseAfter(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	if l.sockets[me] >= MaxSocketsPerSeat {
		l.mu.Unlock()
		s.fail(w, &apiError{429, fmt.Sprintf("this seat has %d WebSockets open already; close a tab or device that follows the game", MaxSocketsPerSeat)})
		return
	}
	if l.sockets == nil {
		l.sockets = map[int]int{}
	}
	l.sockets[me]++
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.sockets[me]--
		l.mu.Unlock()
	}()
	c, ctx, ok := acceptSocket(w, r, "the WebSocket only sends; use the HTTP API to act")
	if !ok {
		return
	}
	defer c.CloseNow()
	if !cursor {
		l.mu.Lock()
		after = l.log.drained[me]
		l.mu.Unlock()
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	tok := token(r)
	for {
		l.mu.Lock()
		if l.seatOf(tok) != me {
			// The seat's tokens were taken back (its account signed out
			// everywhere).
			l.mu.Unlock()
			c.Close(websocket.StatusPolicyViolation, "this seat's token was taken back; sign in again")
			return
		}
		out, last := l.log.since(me, after)
		if !cursor && len(out) > 0 {
			// Taken from the seat's queue as they are handed out, as a
			// read over HTTP takes them before its answer is written: a
			// client that reads them here and then polls does not get
			// them twice.
			l.log.drained[me] = max(l.log.drained[me], last)
		}
		wake, evicted := l.log.wake, l.evicted
		l.mu.Unlock()
		for _, data := range out {
			if sendText(ctx, c, data) != nil {
				return
			}
		}
		after = last
		if evicted {
			// This copy of the game was dropped; a new connection
			// follows the one loaded in its place.
			c.Close(websocket.StatusTryAgainLater, "the game was reloaded; connect again")
			return
		}
		select {
		case <-wake:
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

// socketTimeout bounds a write or a ping on a WebSocket; pingEvery is
// how often the server pings a socket's peer to find one that has gone.
const (
	socketTimeout = 10 * time.Second
	pingEvery     = 30 * time.Second
)

// acceptSocket makes the request a WebSocket that only the server writes
// to. The connection outlives the request, so the server's deadlines are
// lifted (the pings find a peer that has gone). A goroutine reads, to see
// pings, pongs and the close (Read answers those itself); a message from
// the client ends the connection with refusal. The context returned ends
// with the connection. ok is false when the upgrade failed (Accept has
// answered the client); otherwise the caller closes c.
func acceptSocket(w http.ResponseWriter, r *http.Request, refusal string) (c *websocket.Conn, ctx context.Context, ok bool) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil, nil, false
	}
	c.SetReadLimit(1024)
	ctx, cancel := context.WithCancel(r.Context())
	go func() {
		defer cancel()
		if _, _, err := c.Read(ctx); err == nil {
			c.Close(websocket.StatusPolicyViolation, refusal)
		}
	}()
	return c, ctx, true
}

// sendText writes one text message on a WebSocket, within socketTimeout.
func sendText(ctx context.Context, c *websocket.Conn, data []byte) error {
	wctx, cancel := context.WithTimeout(ctx, socketTimeout)
	defer cancel()
	return c.Write(wctx, websocket.MessageText, data)
}

// pingSocket pings a WebSocket's peer and waits for the pong, within
// socketTimeout.
func pingSocket(ctx context.Context, c *websocket.Conn) error {
	pctx, cancel := context.WithTimeout(ctx, socketTimeout)
	defer cancel()
	return c.Ping(pctx)
}

// clientSocketsMost bounds the watchers' and the lobby's WebSockets one
// client (an address, as the limits per client count them) holds at
// once in a process: its tabs and devices, not a flood that would take
// the sockets of a game or of the lobby from everyone else (with
// --real-ip-header the connections' own bound counts only the proxy).
const clientSocketsMost = 16

// socketCounts counts the open sockets of each client.
type socketCounts struct {
	mu sync.Mutex
	m  map[string]int
}

// take counts one more socket of client key, unless it has most open.
func (c *socketCounts) take(key string, most int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[key] >= most {
		return false
	}
	if c.m == nil {
		c.m = map[string]int{}
	}
	c.m[key]++
	return true
}

// give counts one socket of client key less.
func (c *socketCounts) give(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[key]--; c.m[key] <= 0 {
		delete(c.m, key)
	}
}

// takeClientSocket counts one more watchers' or lobby socket of the
// request's client, or answers 429 and returns "" when it has as many
// as it may. The caller gives the key back when the socket closes.
func (s *Server) takeClientSocket(w http.ResponseWriter, r *http.Request) (string, bool) {
	key := s.clientKey(r)
	if !s.clientSockets.take(key, clientSocketsMost) {
		s.fail(w, &apiError{429, fmt.Sprintf("you have %d of these WebSockets open already; close a tab", clientSocketsMost)})
		return "", false
	}
	return key, true
}
