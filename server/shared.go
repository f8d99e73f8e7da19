package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"atril/game"
	"atril/store"
)

// Several server processes may share one store (store.Shared: the
// PostgreSQL store), any of them serving any game. Each holds the games
// it serves in memory, as one process does, and the database keeps them
// in step:
//
//   - before a request uses a game, the process reads the events other
//     processes appended since (one indexed query) and replays them, so a
//     client that moved through one process and reads through another sees
//     its move;
//   - an event is appended under the game's row lock, only if its number
//     is the next one (a process whose copy was behind gets 409 and
//     catches up), and PostgreSQL announces it (NOTIFY); every process
//     listening replays it at once for the WebSocket and long-poll readers
//     it holds;
//   - an event that leaves a computer seat on turn records when the move is
//     due; the process that wrote it makes the move, and if that process
//     dies any other claims the game once the move is overdue (an atomic
//     UPDATE that skips rows another process holds) and makes it.
//
// Notifications are numbered from the log (see notifLog), so a reader
// that moves from one process to another continues with the same seq.
// A "rejected" notification stays in the process that refused the request.

// DefaultBotGrace is how long past its expected time a computer's move
// may be before another process takes it over.
const DefaultBotGrace = 10 * time.Second

// botDeadline is when a computer seat that goes on turn now should have
// moved.
func (s *Server) botDeadline(now time.Time) time.Time {
	return now.Add(s.cfg.ThinkTime + 2*s.cfg.MoveBudget + s.cfg.BotGrace)
}

// computerNext reports whether a computer seat will be on turn once the
// event (kind, v) is applied. Caller holds mu.
func (l *live) computerNext(kind string, v any) bool {
	n := len(l.seat)
	switch ev := v.(type) {
	case moveEvent:
		return l.seat[(ev.Seat+1)%n].level != ""
	case challengeEvent:
		// Who is on turn after the answer: the challenger, unless the
		// game ends or a valid play cost it the turn.
		next := ev.Seat
		if kind == "accept" || !ev.Phony && l.g.AwaitingChallenge() {
			return false
		}
		if !ev.Phony && l.g.ChallengeRule() == game.Double {
			next = (ev.Seat + 1) % n
		}
		return l.seat[next].level != ""
	case joinEvent:
		free := 0
		for _, st := range l.seat {
			if !st.taken {
				free++
			}
		}
		return free == 1 && l.seat[l.g.Current()].level != ""
	}
	return false
}

// refresh replays the events other processes appended to the game since
// this copy was last in step. Caller holds mu.
func (l *live) refresh(ctx context.Context) error {
	sh := l.srv.shared
	if sh == nil {
		return nil
	}
	evs, err := sh.EventsFrom(ctx, l.hdr.ID, l.seq)
	if err != nil {
		return fmt.Errorf("game %s: %w", l.hdr.ID, err)
	}
	if len(evs) == 0 {
		return nil
	}
	moved := false
	for _, e := range evs {
		if e.Seq != l.seq {
			l.srv.evict(l)
			return fmt.Errorf("game %s: event %d read where %d was due", l.hdr.ID, e.Seq, l.seq)
		}
		l.atEvent(e.Seq)
		if err := l.replay(e); err != nil {
			// The copy is half-way through an event: drop it, the next
			// request loads the game afresh.
			l.srv.evict(l)
			return fmt.Errorf("game %s: replay event %d (%s) of another process: %w", l.hdr.ID, e.Seq, e.Kind, err)
		}
		l.seq++
		if activity(e.Kind) {
			l.active = e.Time
			moved = true
		}
	}
	if moved {
		// Another process wrote the last event of the game's play: its
		// computer seat's move is its own (a chat line changes nothing).
		l.botMine = false
	}
	l.touch()
	l.afterChange()
	return nil
}

// evict drops a game from memory (it is loaded again when next used).
func (s *Server) evict(l *live) {
	s.mu.Lock()
	if s.games[l.hdr.ID] == l {
		delete(s.games, l.hdr.ID)
		s.uncount(l)
	}
	s.mu.Unlock()
	l.evicted = true
	l.touch()
	l.log.wakeAll()
}

// appendShared writes an event to a shared store. An event that is no
// move of the game (a chat line) leaves the computer's move as it was:
// due when it was, and to be made by the process that was to make it.
// Caller holds mu.
func (l *live) appendShared(ctx context.Context, kind string, v any, e store.Event) error {
	var due time.Time
	keep := !activity(kind)
	mine := !keep && l.computerNext(kind, v)
	if mine {
		due = l.srv.botDeadline(time.Now())
	}
	err := l.srv.shared.AppendShared(ctx, l.hdr.ID, e, due, keep)
	if errors.Is(err, store.ErrConflict) {
		// Another process wrote first; the request was checked against
		// an older state of the game.
		if rerr := l.refresh(ctx); rerr != nil {
			l.srv.logf("server: %v", rerr)
		}
		return &apiError{409, "the game changed meanwhile (another process wrote first); read it again"}
	}
	if err == nil && !keep {
		l.botMine = mine
	}
	return err
}

// onEvent follows an event appended by any process (LISTEN): a game in
// memory that is behind catches up, so its readers here are told.
func (s *Server) onEvent(id string, seq int, kind string) {
	if id == "" {
		// (Re)connected: anything may have been missed.
		s.mu.Lock()
		ls := make([]*live, 0, len(s.games))
		for _, l := range s.games {
			ls = append(ls, l)
		}
		s.mu.Unlock()
		for _, l := range ls {
			s.catchUp(l, -1)
		}
		return
	}
	s.mu.Lock()
	l := s.games[id]
	s.mu.Unlock()
	if l == nil {
		if kind == "list" {
			// A game offered in the lobby: every process lists it.
			s.refreshers <- struct{}{}
			go func() {
				defer func() { <-s.refreshers }()
				if _, err := s.game(s.ctx, id); err != nil {
					s.logf("server: load listed game %s: %v", id, err)
				}
			}()
		}
		return
	}
	s.catchUp(l, seq)
}

// catchUp refreshes l in the background if it has not seen event seq.
func (s *Server) catchUp(l *live, seq int) {
	l.mu.Lock()
	behind := l.seq <= seq || seq < 0
	l.mu.Unlock()
	if !behind {
		return
	}
	s.refreshers <- struct{}{}
	go func() {
		defer func() { <-s.refreshers }()
		l.mu.Lock()
		if err := l.refresh(s.ctx); err != nil && s.ctx.Err() == nil {
			s.logf("server: %v", err)
		}
		l.mu.Unlock()
	}()
}

// listen follows the events of every process until the server closes.
func (s *Server) listen() {
	defer s.wg.Done()
	if err := s.shared.Listen(s.ctx, s.onEvent); err != nil && s.ctx.Err() == nil {
		s.logf("server: listen for other processes' events: %v", err)
	}
}

// rescue claims the games whose computer seat is overdue (its process
// died, or is too slow) and makes their moves here.
func (s *Server) rescue(now time.Time) {
	ids, err := s.shared.ClaimDue(s.ctx, now, s.botDeadline(now), 32)
	if err != nil {
		if s.ctx.Err() == nil {
			s.logf("server: %v", err)
		}
		return
	}
	for _, id := range ids {
		l, err := s.game(s.ctx, id)
		if err != nil {
			s.logf("server: take over game %s: %v", id, err)
			continue
		}
		l.mu.Lock()
		if l.started() && !l.over() && l.seat[l.g.Current()].level != "" {
			s.logf("server: game %s: taking over its computer seat's move", id)
			l.botMine = true
			l.schedule()
		} else if err := s.shared.SetDue(s.ctx, id, time.Time{}); err != nil {
			s.logf("server: %v", err)
		}
		l.mu.Unlock()
	}
}

// expireStale loads games of the store that may have expired and are
// not in memory, a page at a time, so that the sweeper can end them.
func (s *Server) expireStale(now time.Time) {
	d := time.Duration(0)
	for _, e := range []time.Duration{s.cfg.ExpireUnstarted, s.cfg.ExpireIdle} {
		if e > 0 && (d == 0 || e < d) {
			d = e
		}
	}
	if d == 0 {
		return
	}
	const page = 100
	ids, err := s.shared.Stale(s.ctx, now.Add(-d), s.staleAfter, page)
	if err != nil {
		if s.ctx.Err() == nil {
			s.logf("server: %v", err)
		}
		return
	}
	s.staleAfter = ""
	if len(ids) == page {
		s.staleAfter = ids[len(ids)-1]
	}
	for _, id := range ids {
		s.mu.Lock()
		_, in := s.games[id]
		s.mu.Unlock()
		if !in {
			if _, err := s.game(s.ctx, id); err != nil {
				s.logf("server: load stale game %s: %v", id, err)
			}
		}
	}
}
