package server

import (
	"context"
	"errors"
	"slices"

	"atril/store"
)

// PlayCount says what CountPlay did: the games it replayed, the casual
// results it recorded, the recorded results whose seats' play it filled
// in, the games it left as they were (called off, abandoned, rated
// without a recorded result, or not replayable: each logged), and the
// recorded games whose moves it analysed.
type PlayCount struct {
	Replayed, Recorded, Filled, Left, Analysed int
}

// countPage is how many games CountPlay asks the store for at a time.
const countPage = 100

// CountPlay replays the finished games that an account held a seat of
// whose record lacks the seats' play (turns, bingos, best placement):
// those finished before the server recorded every such game, whose
// casual result it records now, and those whose result was recorded
// before the server counted the play, which it fills in. A rated game
// whose result was never recorded is left alone: rating it now would
// move ratings by a game of long ago. An operator runs it once after
// upgrading (atril serve --count-play); a second run finds little to do
// (the games left alone come up again). Then it analyses the moves of
// the recorded games that lack their analysis (analyseGame).
func (s *Server) CountPlay(ctx context.Context) (PlayCount, error) {
	var pc PlayCount
	after := ""
	for {
		ids, err := s.store.UncountedGames(ctx, after, countPage)
		if err != nil {
			return pc, err
		}
		for _, id := range ids {
			if err := s.countGame(ctx, id, &pc); err != nil {
				if ctx.Err() != nil {
					return pc, ctx.Err()
				}
				pc.Left++
				s.logf("server: game %s: its play not counted: %v", id, err)
			}
		}
		if len(ids) < countPage {
			break
		}
		after = ids[len(ids)-1]
	}
	return pc, s.analyseRecorded(ctx, &pc)
}

// analyseRecorded analyses the moves of the recorded games that lack
// their analysis, counting them in pc (a game that cannot be replayed is
// logged and left).
func (s *Server) analyseRecorded(ctx context.Context, pc *PlayCount) error {
	after := ""
	for {
		ids, err := s.store.UnanalysedGames(ctx, after, countPage)
		if err != nil {
			return err
		}
		for _, id := range ids {
			l, err := s.rebuild(ctx, id)
			if err == nil {
				err = s.analyseGame(ctx, l)
			}
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				s.logf("server: game %s: its moves not analysed: %v", id, err)
				continue
			}
			pc.Analysed++
		}
		if len(ids) < countPage {
			return nil
		}
		after = ids[len(ids)-1]
	}
}

// countGame replays game id and records its result or its seats' play,
// counting what it did in pc.
func (s *Server) countGame(ctx context.Context, id string, pc *PlayCount) error {
	l, err := s.rebuild(ctx, id)
	if err != nil {
		return err
	}
	pc.Replayed++
	l.mu.Lock()
	defer l.mu.Unlock()
	rg, err := s.store.RatedGame(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		if l.hdr.Rated || !l.recordable() {
			pc.Left++
			return nil
		}
		if err := l.recordGame(); err != nil {
			return err
		}
		pc.Recorded++
		return nil
	case err != nil:
		return err
	}
	if slices.ContainsFunc(rg.Seats, func(st store.RatedSeat) bool { return st.Turns > 0 }) || !l.recordable() {
		pc.Left++
		return nil
	}
	if err := s.store.SetPlay(ctx, l.result()); err != nil {
		return err
	}
	pc.Filled++
	return nil
}
