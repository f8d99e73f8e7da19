package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"atril/store"
)

// Game clocks, of two kinds. As in tournament play, each person's seat
// of a timed game may have an allowance of time for all its moves. Past
// it the seat is in overtime, and at the end of the game it loses
// OvertimePenalty points for each minute or part of a minute of overtime
// it used; past the most overtime the game allows, it loses on time and
// the game ends. As in correspondence play, a seat may instead have a
// time for each move (up to MaxPerMoveSeconds, two weeks): the clock
// starts afresh at each of its turns, and a seat that lets it run out
// loses on time. A seat with an allowance may also gain an increment
// after each of its moves (Fischer's clock, as in online play): its
// allowance grows by that many seconds a move. A seat's clock runs from the event that put it on turn
// (the last seat taken, or the move before) to the event of its own
// move, both as logged, so a game rebuilt from its log has the same
// clocks. Computer seats have no clock.

// ClockRequest is the clock of a new game: each person's seat gets
// Seconds for all its moves and at most Overtime seconds past them, and
// Increment seconds more after each of its moves, or PerMove seconds for
// each move (correspondence play; then the others are 0).
type ClockRequest struct {
	Seconds   int `json:"seconds"`
	Overtime  int `json:"overtime"`
	Increment int `json:"increment,omitempty"`
	PerMove   int `json:"per_move,omitempty"`
}

// Bounds of a clock, and the penalty for overtime.
const (
	MaxClockSeconds    = 2 * 60 * 60
	MaxOvertimeSeconds = 10 * 60
	// MaxPerMoveSeconds bounds the time for each move: two weeks.
	MaxPerMoveSeconds = 14 * 24 * 60 * 60
	// MaxIncrementSeconds bounds the seconds a seat gains a move.
	MaxIncrementSeconds = 60
	// OvertimePenalty is the points a seat loses for each minute or part
	// of a minute of overtime.
	OvertimePenalty = 10
)

// clockOf is the clock a seat was created with (nil: none).
func clockOf(st store.Seat) *ClockRequest {
	switch {
	case st.PerMove > 0:
		return &ClockRequest{PerMove: st.PerMove}
	case st.Seconds > 0:
		return &ClockRequest{Seconds: st.Seconds, Overtime: st.Overtime, Increment: st.Increment}
	}
	return nil
}

// check refuses a clock outside the bounds.
func (c *ClockRequest) check() error {
	if c.PerMove != 0 {
		if c.PerMove < 1 || c.PerMove > MaxPerMoveSeconds {
			return &apiError{400, fmt.Sprintf("clock: %d seconds a move: give 1 to %d", c.PerMove, MaxPerMoveSeconds)}
		}
		if c.Seconds != 0 || c.Overtime != 0 || c.Increment != 0 {
			return &apiError{400, "clock: give either seconds for each move (per_move) or seconds for all of them (with overtime and increment), not both"}
		}
		return nil
	}
	if c.Seconds < 1 || c.Seconds > MaxClockSeconds {
		return &apiError{400, fmt.Sprintf("clock: %d seconds: give 1 to %d", c.Seconds, MaxClockSeconds)}
	}
	if c.Overtime < 0 || c.Overtime > MaxOvertimeSeconds {
		return &apiError{400, fmt.Sprintf("clock: overtime of %d seconds: give 0 to %d", c.Overtime, MaxOvertimeSeconds)}
	}
	if c.Increment < 0 || c.Increment > MaxIncrementSeconds {
		return &apiError{400, fmt.Sprintf("clock: increment of %d seconds: give 0 to %d", c.Increment, MaxIncrementSeconds)}
	}
	return nil
}

// ClockState is a game's clock as a state shows it.
type ClockState struct {
	// Seconds is each seat's allowance (0: the seat has no clock).
	Seconds []int `json:"seconds"`
	// Overtime is the most seconds a seat may use past its allowance.
	Overtime []int `json:"overtime"`
	// Increment is the seconds each seat gains after each of its moves
	// (absent: none gains any).
	Increment []int `json:"increment,omitempty"`
	// PerMove is each seat's time for each move (0: none), in a game of
	// correspondence play.
	PerMove []int `json:"per_move,omitempty"`
	// LeftMs is each seat's time left, in milliseconds, when the state
	// was made: negative in overtime. With a time for each move, what is
	// left of the running seat's turn, and the whole time for the others.
	LeftMs []int64 `json:"left_ms"`
	// Running is the seat whose clock runs, or -1.
	Running int `json:"running"`
}

// timeoutEvent is a loss on time, as logged.
type timeoutEvent struct {
	Seat int `json:"seat"`
}

// timed reports whether seat i has a clock.
func (l *live) timed(i int) bool { return l.hdr.Seats[i].Seconds > 0 || l.hdr.Seats[i].PerMove > 0 }

// correspondence reports whether the game is of correspondence play (a
// seat has a time for each move). Its header does not change: no lock
// is needed.
func (l *live) correspondence() bool {
	for _, st := range l.hdr.Seats {
		if st.PerMove > 0 {
			return true
		}
	}
	return false
}

// perMove is seat i's time for each move (0: it has none).
func (l *live) perMove(i int) time.Duration {
	return time.Duration(l.hdr.Seats[i].PerMove) * time.Second
}

// allowance is seat i's time for all its moves; limit adds the most
// overtime.
func (l *live) allowance(i int) time.Duration {
	return time.Duration(l.hdr.Seats[i].Seconds) * time.Second
}

func (l *live) limit(i int) time.Duration {
	return l.allowance(i) + time.Duration(l.hdr.Seats[i].Overtime)*time.Second
}

// running is the seat whose clock runs (-1: none). Caller holds mu.
func (l *live) running() int {
	if !l.started() || l.over() {
		return -1
	}
	if i := l.g.Current(); l.timed(i) {
		return i
	}
	return -1
}

// usedAt is the time seat i has used at now, its running turn included.
// Caller holds mu.
func (l *live) usedAt(i int, now time.Time) time.Duration {
	u := l.used[i]
	if l.running() == i {
		u += max(now.Sub(l.turnStart), 0)
	}
	return u
}

// charge ends the turn of seat i at t, the time of the event that ends
// it, adding the turn to the seat's time if it has a clock. A turn ended
// by the seat's own act (a move, a resignation) was judged in time when
// it was accepted, a moment before it was logged at t: it is charged at
// most the seat's limit (its time for a move, with one). Caller holds
// mu.
func (l *live) charge(i int, t time.Time) {
	if l.timed(i) && !l.turnStart.IsZero() {
		turn := max(t.Sub(l.turnStart), 0)
		if pm := l.perMove(i); pm > 0 {
			l.used[i] += min(turn, pm)
		} else {
			l.used[i] = min(l.used[i]+turn, l.limit(i))
		}
	}
	l.turnStart = t
}

// credit gives seat i its increment for the move it has just made (its
// allowance, already used or not, grows by it). Caller holds mu.
func (l *live) credit(i int) {
	if inc := l.hdr.Seats[i].Increment; inc > 0 && l.hdr.Seats[i].Seconds > 0 {
		l.used[i] -= time.Duration(inc) * time.Second
	}
}

// debit takes back the increment seat i gained for a move that is
// taken back. Caller holds mu.
func (l *live) debit(i int) {
	if inc := l.hdr.Seats[i].Increment; inc > 0 && l.hdr.Seats[i].Seconds > 0 {
		l.used[i] += time.Duration(inc) * time.Second
	}
}

// leftAt is the time seat i has at now before it loses on time: what is
// left of its allowance and overtime, or of its time for this move.
// Caller holds mu.
func (l *live) leftAt(i int, now time.Time) time.Duration {
	if pm := l.perMove(i); pm > 0 {
		if l.running() != i {
			return pm
		}
		return pm - max(now.Sub(l.turnStart), 0)
	}
	return l.limit(i) - l.usedAt(i, now)
}

// flagged reports whether seat i, on turn, has run out of time by now:
// used its allowance and all the overtime allowed, or its time for the
// move. Caller holds mu.
func (l *live) flagged(i int, now time.Time) bool {
	return l.running() == i && l.leftAt(i, now) < 0
}

// overtimePenalty is the points a seat loses for having used u against
// an allowance a.
func overtimePenalty(u, a time.Duration) int {
	if u <= a {
		return 0
	}
	minutes := (u - a + time.Minute - 1) / time.Minute
	return OvertimePenalty * int(minutes)
}

// penalize takes the overtime penalties off the scores of a game that
// has just ended. Caller holds mu.
func (l *live) penalize() error {
	for i := range l.seat {
		if l.hdr.Seats[i].Seconds == 0 {
			// (No allowance: no overtime.)
			continue
		}
		if p := overtimePenalty(l.used[i], l.allowance(i)); p > 0 {
			if err := l.g.PenalizeTime(i, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// clockState renders the clock at now (nil for a game without clocks).
// Caller holds mu.
func (l *live) clockState(now time.Time) *ClockState {
	var c *ClockState
	for i := range l.seat {
		if !l.timed(i) {
			continue
		}
		if c == nil {
			n := len(l.seat)
			c = &ClockState{Seconds: make([]int, n), Overtime: make([]int, n), LeftMs: make([]int64, n), Running: l.running()}
		}
		c.Seconds[i], c.Overtime[i] = l.hdr.Seats[i].Seconds, l.hdr.Seats[i].Overtime
		if inc := l.hdr.Seats[i].Increment; inc > 0 {
			if c.Increment == nil {
				c.Increment = make([]int, len(l.seat))
			}
			c.Increment[i] = inc
		}
		if pm := l.hdr.Seats[i].PerMove; pm > 0 {
			if c.PerMove == nil {
				c.PerMove = make([]int, len(l.seat))
			}
			c.PerMove[i] = pm
			c.LeftMs[i] = l.leftAt(i, now).Milliseconds()
			if l.g.TimedOut() == i {
				// It let its move's time run out.
				c.LeftMs[i] = 0
			}
			continue
		}
		c.LeftMs[i] = (l.allowance(i) - l.usedAt(i, now)).Milliseconds()
	}
	return c
}

// timeOut logs and applies the loss on time of seat i. Caller holds mu.
func (l *live) timeOut(ctx context.Context, i int) error {
	ev := timeoutEvent{Seat: i}
	if err := l.append(ctx, "timeout", ev); err != nil {
		return err
	}
	if err := l.applyTimeout(ev); err != nil {
		return fmt.Errorf("game %s: logged loss on time failed to apply: %w", l.hdr.ID, err)
	}
	l.afterChange()
	l.pushTurn(i)
	return nil
}

// applyTimeout ends the game by the loss on time of the seat on turn at
// the time of the event, and announces it. Caller holds mu.
func (l *live) applyTimeout(ev timeoutEvent) error {
	i := ev.Seat
	switch {
	case i < 0 || i >= len(l.seat) || !l.timed(i):
		return fmt.Errorf("loss on time of seat %d, which has no clock", i)
	case l.running() != i:
		return fmt.Errorf("loss on time of seat %d, whose clock is not running", i)
	}
	// However late the loss was noticed (a server down at the time), the
	// seat used its allowance and the overtime allowed (or its time for
	// the move, which charge caps), no more.
	l.charge(i, l.evTime)
	if l.perMove(i) == 0 {
		l.used[i] = l.limit(i)
	}
	before := len(l.g.History)
	if err := l.g.TimeOut(i); err != nil {
		return err
	}
	if err := l.penalize(); err != nil {
		return err
	}
	l.broadcast(Notification{Type: "timeout", Seat: intp(i)})
	l.announceOver(before)
	l.touch()
	return nil
}

// replayTimeout applies a logged loss on time.
func (l *live) replayTimeout(data string) error {
	var ev timeoutEvent
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return err
	}
	return l.applyTimeout(ev)
}

// armClock sets the timer that ends the game when the seat on turn runs
// out of time (and stops the one set before). Caller holds mu.
func (l *live) armClock() {
	if l.clockTimer != nil {
		l.clockTimer.Stop()
		l.clockTimer = nil
	}
	i := l.running()
	if i < 0 || l.srv.closing() || l.evicted {
		return
	}
	seq := l.seq
	wait := l.leftAt(i, time.Now()) + time.Millisecond
	l.clockTimer = time.AfterFunc(max(wait, 0), func() { l.flagFall(seq) })
}

// flagFall ends the game on time if the seat on turn ran out of it, and
// otherwise sets the timer again (events since it was set at event seq,
// a chat line for one, may not have).
func (l *live) flagFall(seq int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.srv.closing() || l.evicted {
		return
	}
	i := l.running()
	if i < 0 {
		return
	}
	if l.seq != seq || !l.flagged(i, time.Now()) {
		l.armClock()
		return
	}
	if err := l.timeOut(context.Background(), i); err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			// (A conflict means another process recorded it first.)
			// The store failed: the flag falls again a moment later,
			// or the game would wait for a move that need never come.
			l.srv.logf("game %s: record loss on time: %v", l.hdr.ID, err)
			l.clockTimer = time.AfterFunc(flagRetry, func() { l.flagFall(seq) })
		}
	}
}

// flagRetry is how long after a loss on time the store failed to record
// the server tries again.
const flagRetry = 2 * time.Second
