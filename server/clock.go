package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Game clocks, as in tournament play. Each person's seat of a timed game
// has an allowance of time for all its moves. Past it the seat is in
// overtime, and at the end of the game it loses OvertimePenalty points
// for each minute or part of a minute of overtime it used; past the most
// overtime the game allows, it loses on time and the game ends. A seat's
// clock runs from the event that put it on turn (the last seat taken, or
// the move before) to the event of its own move, both as logged, so a
// game rebuilt from its log has the same clocks. Computer seats have no
// clock.

// ClockRequest is the clock of a new game: each person's seat gets
// Seconds for all its moves and at most Overtime seconds past them.
type ClockRequest struct {
	Seconds  int `json:"seconds"`
	Overtime int `json:"overtime"`
}

// Bounds of a clock, and the penalty for overtime.
const (
	MaxClockSeconds    = 2 * 60 * 60
	MaxOvertimeSeconds = 10 * 60
	// OvertimePenalty is the points a seat loses for each minute or part
	// of a minute of overtime.
	OvertimePenalty = 10
)

// check refuses a clock outside the bounds.
func (c *ClockRequest) check() error {
	if c.Seconds < 1 || c.Seconds > MaxClockSeconds {
		return &apiError{400, fmt.Sprintf("clock: %d seconds: give 1 to %d", c.Seconds, MaxClockSeconds)}
	}
	if c.Overtime < 0 || c.Overtime > MaxOvertimeSeconds {
		return &apiError{400, fmt.Sprintf("clock: overtime of %d seconds: give 0 to %d", c.Overtime, MaxOvertimeSeconds)}
	}
	return nil
}

// ClockState is a game's clock as a state shows it.
type ClockState struct {
	// Seconds is each seat's allowance (0: the seat has no clock).
	Seconds []int `json:"seconds"`
	// Overtime is the most seconds a seat may use past its allowance.
	Overtime []int `json:"overtime"`
	// LeftMs is each seat's time left, in milliseconds, when the state
	// was made: negative in overtime.
	LeftMs []int64 `json:"left_ms"`
	// Running is the seat whose clock runs, or -1.
	Running int `json:"running"`
}

// timeoutEvent is a loss on time, as logged.
type timeoutEvent struct {
	Seat int `json:"seat"`
}

// timed reports whether seat i has a clock.
func (l *live) timed(i int) bool { return l.hdr.Seats[i].Seconds > 0 }

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
// most the seat's limit. Caller holds mu.
func (l *live) charge(i int, t time.Time) {
	if l.timed(i) && !l.turnStart.IsZero() {
		l.used[i] = min(l.used[i]+max(t.Sub(l.turnStart), 0), l.limit(i))
	}
	l.turnStart = t
}

// flagged reports whether seat i, on turn, has used its allowance and
// all the overtime allowed by now. Caller holds mu.
func (l *live) flagged(i int, now time.Time) bool {
	return l.running() == i && l.usedAt(i, now) > l.limit(i)
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
		if !l.timed(i) {
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
	// seat used its allowance and the overtime allowed, no more.
	l.charge(i, l.evTime)
	l.used[i] = l.limit(i)
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
	wait := l.limit(i) - l.usedAt(i, time.Now()) + time.Millisecond
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
			l.srv.logf("game %s: record loss on time: %v", l.hdr.ID, err)
		}
	}
}
