package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// handleWS pushes a seat's notifications over a WebSocket as they are
// queued, each as one JSON text message; what it sends is drained from
// the queue. The client sends nothing (moves go through the HTTP API);
// the server pings to keep the connection alive.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	l, me, err := s.authed(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the client
	}
	defer c.CloseNow()
	c.SetReadLimit(1024)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		// Reading is needed to see pings, pongs and the close; anything
		// else the client sends ends the connection.
		for {
			if _, _, err := c.Read(ctx); err != nil {
				cancel()
				return
			}
			c.Close(websocket.StatusPolicyViolation, "the WebSocket only sends; use the HTTP API to act")
			cancel()
			return
		}
	}()
	ping := time.NewTicker(30 * time.Second)
	defer ping.Stop()
	for {
		l.mu.Lock()
		q := l.seat[me].q
		out := q.drain()
		wake := q.wake
		l.mu.Unlock()
		for _, n := range out {
			data, err := json.Marshal(n)
			if err != nil {
				return
			}
			wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
			err = c.Write(wctx, websocket.MessageText, data)
			wcancel()
			if err != nil {
				// Not delivered: put the rest back for the next reader.
				l.mu.Lock()
				l.seat[me].q.items = append(append([]Notification(nil), out[indexOf(out, n):]...), l.seat[me].q.items...)
				l.mu.Unlock()
				return
			}
		}
		select {
		case <-wake:
		case <-ping.C:
			pctx, pcancel := context.WithTimeout(ctx, 10*time.Second)
			err := c.Ping(pctx)
			pcancel()
			if err != nil {
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

func indexOf(ns []Notification, n Notification) int {
	for i := range ns {
		if ns[i].Seq == n.Seq {
			return i
		}
	}
	return 0
}
