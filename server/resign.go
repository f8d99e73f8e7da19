package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"atril/store"
)

// endEvent is a resignation or a game called off, as logged.
type endEvent struct {
	Seat int `json:"seat"`
}

// handleResign ends the game by the resignation of the token's seat: the
// opponent wins (with more seats, the best score among the others).
func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) { s.handleEnd(w, r, "resign") }

// handleAbort calls the game off before its first move; it ends with no
// winner.
func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request) { s.handleEnd(w, r, "abort") }

func (s *Server) handleEnd(w http.ResponseWriter, r *http.Request, kind string) {
	_, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	switch {
	case l.over():
		s.fail(w, &apiError{409, "the game is over"})
		return
	case kind == "resign" && !l.started():
		s.fail(w, &apiError{409, "the game has not started: call it off instead of resigning"})
		return
	case kind == "abort" && l.g.MovesPlayed() > 0:
		s.fail(w, &apiError{409, fmt.Sprintf("%d moves have been made: a game can be called off only before the first; resign instead", l.g.MovesPlayed())})
		return
	}
	if err := l.end(r.Context(), kind, me); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, l.state(me))
}

// end logs and applies a resignation or a calling off ("resign" or
// "abort") by seat i. Caller holds mu.
func (l *live) end(ctx context.Context, kind string, i int) error {
	ev := endEvent{Seat: i}
	if err := l.append(ctx, kind, ev); err != nil {
		return err
	}
	if err := l.applyEnd(kind, ev); err != nil {
		return fmt.Errorf("game %s: logged %s failed to apply: %w", l.hdr.ID, kind, err)
	}
	l.afterChange()
	if kind == "resign" {
		l.pushTurn(i)
	}
	return nil
}

// applyEnd ends the game by a resignation or by calling it off, and
// announces it. Caller holds mu.
func (l *live) applyEnd(kind string, ev endEvent) error {
	if ev.Seat < 0 || ev.Seat >= len(l.seat) {
		return fmt.Errorf("%s by seat %d of %d", kind, ev.Seat, len(l.seat))
	}
	var err error
	before := len(l.g.History)
	if kind == "resign" {
		// The clock on turn stops at the resignation, and overtime
		// already used is paid (which may decide among the others).
		if i := l.running(); i >= 0 {
			l.charge(i, l.evTime)
		}
		if err = l.g.Resign(ev.Seat); err == nil {
			err = l.penalize()
		}
	} else if err = l.g.Abort(); err == nil {
		l.calledOffBy = ev.Seat + 1
	}
	if err != nil {
		return err
	}
	typ := "resigned"
	if kind == "abort" {
		typ = "aborted"
	}
	l.broadcast(Notification{Type: typ, Seat: intp(ev.Seat)})
	l.announceOver(before)
	l.touch()
	return nil
}

// replayExtra applies a logged event of the kinds added beside the
// core's seats and moves: "resign" and "abort" (this file), "list" (the
// lobby), "timeout" (clock.go), "rematch" (rematch.go), "chat"
// (chat.go), "kibitz" (kibitz.go), "note" (notes.go), "challenge" and "accept" (challenge.go), "takeback" (takeback.go), "key" and "revoke"
// (seatkey.go).
func (l *live) replayExtra(e store.Event) error {
	switch e.Kind {
	case "resign", "abort":
		var ev endEvent
		if err := json.Unmarshal([]byte(e.Data), &ev); err != nil {
			return err
		}
		return l.applyEnd(e.Kind, ev)
	case "list":
		l.listed = true
		if l.srv != nil {
			// Offered through another process: the lobby lists it here too.
			l.srv.show(l)
		}
		return nil
	case "timeout":
		return l.replayTimeout(e.Data)
	case "rematch":
		return l.replayRematch(e.Data)
	case "chat":
		return l.replayChat(e.Data)
	case "kibitz":
		return l.replayKibitz(e.Data)
	case "note":
		return l.replayNote(e.Data)
	case "challenge", "accept":
		return l.replayAnswer(e.Kind, e.Data)
	case "takeback":
		return l.replayTakeback(e.Data)
	case "key":
		return l.replayKey(e.Data)
	case "revoke":
		return l.replayRevoke(e.Data)
	}
	return fmt.Errorf("unknown event kind %q", e.Kind)
}
