package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"atril/game"
)

// Takebacks: in a casual game against the computer alone, the person
// may take back their latest move, and with it whatever followed (the
// computer's reply, a challenge's answer), back to the position they
// made it from: the same board, rack, scores and bag. The bag keeps its
// order, so the same tiles come after the same play; the clocks are not
// given back the time used since (nor keep the increments of the moves
// taken back). A takeback is logged as an event, so a
// restart or another process sharing the store replays it, and the game
// counts them (State.Takebacks).

// maxTakebacks bounds the takebacks of one game: each is an event the
// game's log keeps and every rebuild replays, and without a bound a
// game's log would grow without end.
const maxTakebacks = 100

// takebackEvent is a takeback, as logged: seat Seat took back entry
// Entry of the history (its latest move) and all that followed it.
type takebackEvent struct {
	Seat  int `json:"seat"`
	Entry int `json:"entry"`
}

// handleTakeback takes back the latest move of the token's seat.
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	_, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	if err := l.takeBack(r.Context(), me); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, l.state(me))
}

// takeBack checks, logs and applies seat i's takeback of its latest
// move. Caller holds mu.
func (l *live) takeBack(ctx context.Context, i int) error {
	k, err := l.mayTakeBack(i)
	if err != nil {
		return err
	}
	ev := takebackEvent{Seat: i, Entry: k}
	if err := l.append(ctx, "takeback", ev); err != nil {
		return err
	}
	if err := l.applyTakeback(ev); err != nil {
		return fmt.Errorf("game %s: logged takeback failed to apply: %w", l.hdr.ID, err)
	}
	l.afterChange()
	return nil
}

// mayTakeBack returns the history entry seat i would take back (its
// latest move), or why it may not. Caller holds mu.
func (l *live) mayTakeBack(i int) (int, error) {
	switch {
	case l.over():
		return 0, &apiError{409, "the game is over"}
	case l.hdr.Rated:
		return 0, &apiError{409, "a rated game allows no takebacks"}
	case l.seat[i].level != "" || !l.againstComputerAlone(i):
		return 0, &apiError{409, "takebacks are for a casual game against the computer alone"}
	case l.takebacks >= maxTakebacks:
		return 0, &apiError{409, fmt.Sprintf("a game allows %d takebacks, and this one has had them all", maxTakebacks)}
	}
	k := lastMoveOf(l.g.History, i)
	if k < 0 {
		return 0, &apiError{409, "you have not moved yet: there is nothing to take back"}
	}
	return k, nil
}

// lastMoveOf is the index in hist of seat i's latest move (a placement,
// exchange or pass, withdrawn after a challenge or not), -1 for none.
func lastMoveOf(hist []game.Turn, i int) int {
	for k := len(hist) - 1; k >= 0; k-- {
		if hist[k].Kind == game.Played && hist[k].Player == i {
			return k
		}
	}
	return -1
}

// applyTakeback puts the game back as it was before entry ev.Entry of
// its history, followed again from the start on the same seed, and
// announces it. Caller holds mu.
func (l *live) applyTakeback(ev takebackEvent) error {
	if ev.Seat < 0 || ev.Seat >= len(l.seat) || ev.Entry < 0 || ev.Entry >= len(l.g.History) {
		return fmt.Errorf("takeback of entry %d by seat %d: the game has %d entries and %d seats", ev.Entry, ev.Seat, len(l.g.History), len(l.seat))
	}
	if l.over() {
		return fmt.Errorf("takeback of entry %d: the game is over", ev.Entry)
	}
	taken := l.g.History[ev.Entry]
	if taken.Kind != game.Played || taken.Player != ev.Seat {
		return fmt.Errorf("takeback of entry %d by seat %d: not a move of that seat", ev.Entry, ev.Seat)
	}
	g, err := l.fresh()
	if err != nil {
		return err
	}
	for k := range ev.Entry {
		if err := g.Follow(&l.g.History[k]); err != nil {
			return fmt.Errorf("takeback: follow entry %d again: %w", k, err)
		}
	}
	// The seat whose clock ran is charged up to now: time used is not
	// given back, and the moves taken back take their increments with
	// them. The seat on turn after it starts its turn now.
	l.charge(l.g.Current(), l.evTime)
	for _, h := range l.g.History[ev.Entry:] {
		if h.Kind == game.Played {
			l.debit(h.Player)
		}
	}
	l.g = g
	// A new slice: states already given out keep the old one.
	l.hist = slices.Clone(l.hist[:min(len(l.hist), len(g.History))])
	l.takebacks++
	l.broadcast(Notification{Type: "takeback", Seat: intp(ev.Seat), Move: taken.Notation})
	l.broadcast(Notification{Type: "turn", Seat: intp(g.Current())})
	l.touch()
	return nil
}

// replayTakeback applies a logged takeback.
func (l *live) replayTakeback(data string) error {
	var ev takebackEvent
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return err
	}
	return l.applyTakeback(ev)
}
