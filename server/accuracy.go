package server

import (
	"context"
	"fmt"
	"slices"
	"time"

	"atril/store"
)

// The moves of every finished game whose result is recorded (an account
// held a seat) are judged by static equity once, in the background, as
// the game's end judges them (its summary: each move against the best
// by score plus the leave table's value of the tiles kept), and the
// store keeps, by seat, the moves judged, those that were the best and
// the equity given up (store.Accounts.SetAccuracy). The players' pages
// sum them up, and the operators' fair-play report compares the accounts
// by them over rated games between people (atril accounts fairplay).
// Games finished before the server analysed them are analysed by
// CountPlay (atril serve --count-play).

// analyseFinished starts the analysis of the finished game l, whose
// result was just recorded, unless no account held a seat (nothing is
// recorded then) or it was called off or abandoned. The server's Close
// waits for it. Caller holds mu.
func (l *live) analyseFinished() {
	if !l.recordable() || !slices.ContainsFunc(l.seat, func(st *seat) bool { return st.account != "" }) {
		return
	}
	s := l.srv
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := s.analyseGame(s.ctx, l); err != nil && !s.closing() {
			s.logf("game %s: %v", l.hdr.ID, err)
		}
	}()
}

// analyseGame judges every move of the finished game l (its summary,
// kept for the game's end) and records each seat's analysis, counting
// it in the server's metrics.
func (s *Server) analyseGame(ctx context.Context, l *live) error {
	t0 := time.Now()
	err := s.analyse(ctx, l)
	if err != nil {
		if ctx.Err() == nil {
			s.count.analysisFailed.Add(1)
		}
		return err
	}
	s.count.analysisNanos.Add(int64(time.Since(t0)))
	s.count.analysed.Add(1)
	return nil
}

// analyse is analyseGame's work.
func (s *Server) analyse(ctx context.Context, l *live) error {
	sum, err := s.summaryOf(ctx, l)
	if err != nil {
		return fmt.Errorf("analyse the moves: %w", err)
	}
	rg := &store.RatedGame{Game: l.hdr.ID}
	for _, ss := range sum.Seats {
		rg.Seats = append(rg.Seats, store.RatedSeat{Seat: ss.Seat, Analysed: ss.Moves, TopMoves: ss.Best, Lost: ss.Lost})
	}
	return s.store.SetAccuracy(ctx, rg)
}
