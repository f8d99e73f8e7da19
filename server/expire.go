package server

import (
	"context"
	"fmt"
	"time"
)

// abandonEvent is a game ended because nobody played it, as logged.
type abandonEvent struct {
	Reason string `json:"reason"`
}

// applyAbandon ends the game as abandoned and announces it. Caller holds mu.
func (l *live) applyAbandon(ev abandonEvent) {
	l.abandoned, l.abandonReason = true, ev.Reason
	l.broadcast(Notification{Type: "abandoned", Reason: ev.Reason})
	n := Notification{Type: "over"}
	for _, p := range l.g.Seats {
		n.Scores = append(n.Scores, p.Score)
	}
	l.broadcast(n)
	l.touch()
}

// expire ends l as abandoned if it has waited too long: for its seats to
// be taken, or for a move. A game whose seat on turn has a clock running
// is not abandoned: its clock ends it (a game of correspondence play may
// wait days for a move). A game of correspondence play waits for its
// seats to be taken as long as one move's time, if that is longer than
// the server's wait, up to maxUnstartedWait. Caller holds l.mu.
func (s *Server) expire(l *live, now time.Time) {
	if l.over() {
		return
	}
	var reason string
	unstarted := s.cfg.ExpireUnstarted
	for i := range l.seat {
		unstarted = max(unstarted, min(l.perMove(i), maxUnstartedWait))
	}
	switch {
	case !l.started() && s.cfg.ExpireUnstarted > 0 && now.Sub(l.hdr.Created) >= unstarted:
		reason = fmt.Sprintf("its seats were not all taken within %v", unstarted)
	case l.started() && s.cfg.ExpireIdle > 0 && now.Sub(l.active) >= s.cfg.ExpireIdle && l.running() < 0:
		reason = fmt.Sprintf("no move for %v", s.cfg.ExpireIdle)
	default:
		return
	}
	ev := abandonEvent{Reason: reason}
	if err := l.append(context.Background(), "abandon", ev); err != nil {
		s.logf("game %s: record as abandoned: %v", l.hdr.ID, err)
		return
	}
	l.applyAbandon(ev)
	l.afterChange()
}

// maxUnstartedWait bounds how long a game of correspondence play waits
// for its seats to be taken.
const maxUnstartedWait = 3 * 24 * time.Hour

// sweepEvery is how often the sweeper looks for games to expire and
// clients to forget: a quarter of the shorter expiry, within [10 ms, 1 min].
func (s *Server) sweepEvery() time.Duration {
	d := time.Minute
	for _, e := range []time.Duration{s.cfg.ExpireUnstarted, s.cfg.ExpireIdle} {
		if e > 0 {
			d = min(d, e/4)
		}
	}
	return max(d, 10*time.Millisecond)
}

// limiters are the server's limits per client (or per account), each of
// which the sweeper clears of the clients whose allowance is full again.
func (s *Server) limiters() []*limiter {
	lims := []*limiter{s.createLim, s.joinLim, s.badLim, s.lookLim, s.chatLim, s.loginLim, s.failLim, s.failAll,
		s.analyzeLim, s.analysisLim, s.importLim, s.archiveLim, s.imageLim}
	if s.push != nil {
		lims = append(lims, s.push.testLim)
	}
	return lims
}

// sweeper expires games and forgets idle clients of the limits until the
// server closes.
func (s *Server) sweeper() {
	defer s.wg.Done()
	t := time.NewTicker(s.sweepEvery())
	defer t.Stop()
	// With a shared store, overdue computer moves are looked for often.
	var rescue <-chan time.Time
	if s.shared != nil {
		r := time.NewTicker(min(max(s.cfg.BotGrace/4, 50*time.Millisecond), 5*time.Second))
		defer r.Stop()
		rescue = r.C
	}
	tourn := time.NewTicker(s.cfg.TournamentSweep)
	defer tourn.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-rescue:
			s.rescue(now)
		case <-tourn.C:
			s.sweepTournaments()
		case now := <-t.C:
			if s.shared != nil {
				s.expireStale(now)
			}
			s.mu.Lock()
			ls := make([]*live, 0, s.nlive)
			for _, l := range s.games {
				if l.counted {
					ls = append(ls, l)
				}
			}
			s.mu.Unlock()
			for _, l := range ls {
				l.mu.Lock()
				s.expire(l, now)
				l.mu.Unlock()
			}
			for _, lim := range s.limiters() {
				lim.sweep(now)
			}
		}
	}
}
