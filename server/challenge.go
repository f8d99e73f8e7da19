package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"atril/game"
)

// Challenges, in a game created with a challenge rule other than void
// ("challenge": "single", "double", "5pt" or "10pt"): a placement is
// accepted whatever its words, and the next seat may challenge it (POST
// /api/games/{id}/challenge) before moving. A play that went out waits
// for the next seat to challenge it or accept it (POST .../accept). The
// computer challenges every phony and nothing else. Both are logged as
// events, "challenge" and "accept".

// challengeEvent is a challenge or an acceptance, as logged. Phony is
// the outcome, known when it was logged and checked on replay.
type challengeEvent struct {
	Seat  int  `json:"seat"`
	Phony bool `json:"phony,omitempty"`
}

// handleChallenge is the challenge of the last placement by the seat on
// turn.
func (s *Server) handleChallenge(w http.ResponseWriter, r *http.Request) {
	s.handleAnswer(w, r, "challenge")
}

// handleAccept is the acceptance of a play that went out by the seat on
// turn: the game ends.
func (s *Server) handleAccept(w http.ResponseWriter, r *http.Request) { s.handleAnswer(w, r, "accept") }

func (s *Server) handleAnswer(w http.ResponseWriter, r *http.Request, kind string) {
	_, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	if err := l.answer(r.Context(), me, kind); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, l.state(me))
}

// answer checks, logs and applies seat i's challenge or acceptance.
// Caller holds mu.
func (l *live) answer(ctx context.Context, i int, kind string) error {
	if err := l.mayMove(i); err != nil {
		return err
	}
	if l.flagged(i, time.Now()) {
		if err := l.timeOut(ctx, i); err != nil {
			return err
		}
		return &apiError{409, "your time ran out: the game is over"}
	}
	k, open := l.g.Challengeable()
	switch {
	case l.g.ChallengeRule() == game.Void:
		return l.reject(i, &apiError{409, "this game has no challenges: every word is checked when it is played"})
	case !open:
		return l.reject(i, &apiError{409, fmt.Sprintf("nothing to %s: the last move is not a placement, or it has been answered", kind)})
	case kind == "accept" && !l.g.AwaitingChallenge():
		return l.reject(i, &apiError{409, "nothing to accept: the last play did not go out (play your move, or challenge it)"})
	}
	ev := challengeEvent{Seat: i, Phony: kind == "challenge" && len(l.g.History[k].Phonies) > 0}
	if err := l.append(ctx, kind, ev); err != nil {
		return err
	}
	if err := l.applyAnswer(kind, ev); err != nil {
		return fmt.Errorf("game %s: logged %s failed to apply: %w", l.hdr.ID, kind, err)
	}
	l.afterChange()
	l.pushTurn(i)
	return nil
}

// applyAnswer applies a challenge or an acceptance and announces it.
// Caller holds mu.
func (l *live) applyAnswer(kind string, ev challengeEvent) error {
	if ev.Seat != l.g.Current() {
		return fmt.Errorf("%s by seat %d, but seat %d is on turn", kind, ev.Seat, l.g.Current())
	}
	k, _ := l.g.Challengeable()
	before := len(l.g.History)
	if kind == "accept" {
		if err := l.g.Accept(ev.Seat); err != nil {
			return err
		}
		l.broadcast(Notification{Type: "accepted", Seat: intp(ev.Seat)})
	} else {
		phony, err := l.g.Challenge(ev.Seat)
		if err != nil {
			return err
		}
		if phony != ev.Phony {
			return fmt.Errorf("the challenged play is phony: %v on replay, %v when challenged", phony, ev.Phony)
		}
		t := l.g.History[k]
		n := Notification{Type: "challenged", Seat: intp(ev.Seat), Move: t.Notation, Valid: !phony}
		if phony {
			n.Words = t.Phonies
		}
		l.broadcast(n)
		for _, h := range l.g.History[before:] {
			switch h.Kind {
			case game.Withdrawn:
				l.broadcast(Notification{Type: "withdrawn", Seat: intp(h.Player), Move: h.Notation, Points: intp(h.Points), Total: intp(h.Total)})
				l.log.push(h.Player, Notification{Type: "rack", Seat: intp(h.Player), Tiles: l.rackTiles(&l.g.Seats[h.Player].Rack)})
			case game.ChallengeBonus:
				l.broadcast(Notification{Type: "points", Seat: intp(h.Player), Points: intp(h.Points), Total: intp(h.Total)})
			case game.LostTurn:
				l.broadcast(Notification{Type: "lost_turn", Seat: intp(h.Player)})
			}
		}
	}
	// The answer's time is the challenger's: its clock runs on if it
	// stays on turn.
	if l.g.Over() || l.g.Current() != ev.Seat {
		l.charge(ev.Seat, l.evTime)
	}
	if l.g.Over() {
		if err := l.penalize(); err != nil {
			return err
		}
		l.announceOver(before)
	} else {
		l.broadcast(Notification{Type: "turn", Seat: intp(l.g.Current())})
	}
	l.touch()
	return nil
}

// replayAnswer applies a logged challenge or acceptance.
func (l *live) replayAnswer(kind, data string) error {
	var ev challengeEvent
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return err
	}
	return l.applyAnswer(kind, ev)
}

// computerAnswer is what computer seat i, on turn, says to the last
// placement: "challenge" for a phony, "accept" for a valid play that went
// out, "" to let it stand by moving. Caller holds mu.
func (l *live) computerAnswer() string {
	k, open := l.g.Challengeable()
	switch {
	case !open:
		return ""
	case len(l.g.History[k].Phonies) > 0:
		return "challenge"
	case l.g.AwaitingChallenge():
		return "accept"
	}
	return ""
}
