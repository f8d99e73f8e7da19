package server

import (
	"fmt"
	"math"
	"net/http"
)

// A finished game's summary by static equity: for each seat, how many
// of its moves were the best the computer's static valuation finds
// (score plus the leave table's value of the tiles kept, as the per-move
// analysis ranks them), how much equity it gave up against the best move
// in all, and its costliest move.

// Summary is the answer of GET /api/games/{id}/summary.
type Summary struct {
	Seats []SeatSummary `json:"seats"`
}

// SeatSummary is how one seat played.
type SeatSummary struct {
	Seat int `json:"seat"`
	// Moves is the seat's moves; Best, those of the highest equity.
	Moves int `json:"moves"`
	Best  int `json:"best"`
	// Lost is the equity given up against the best move, over all moves.
	Lost float64 `json:"lost"`
	// Worst is the move that gave up the most (none when none did).
	Worst *Miss `json:"worst,omitempty"`
}

// Miss is one move and the best one in its place.
type Miss struct {
	// Move is the move's 0-based number in the game.
	Move   int     `json:"move"`
	Played string  `json:"played"`
	Best   string  `json:"best"`
	Lost   float64 `json:"lost"`
}

func (s *Server) handleSummary(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	sum := l.summary
	l.mu.Unlock()
	if sum == nil {
		// Worked out once a game (a finished game does not change),
		// at the cost of an analysis a move.
		l.mu.Lock()
		n := l.g.MovesPlayed()
		l.mu.Unlock()
		if !s.takeAnalysis(w, r, max(n, 1)) {
			return
		}
		if !s.slot(r.Context()) {
			return
		}
		sum, err = summarize(l)
		<-s.sem
		if err != nil {
			s.fail(w, err)
			return
		}
		l.mu.Lock()
		l.summary = sum
		l.mu.Unlock()
	}
	writeJSON(w, 200, sum)
}

// summarize analyses every move of a finished game.
func summarize(l *live) (*Summary, error) {
	moves, hist, g, err := l.record()
	if err != nil {
		return nil, err
	}
	at := 0 // the history entries followed
	sum := &Summary{Seats: make([]SeatSummary, len(g.Seats))}
	for i := range sum.Seats {
		sum.Seats[i].Seat = i
	}
	for k, m := range moves {
		for ; at < m.at; at++ {
			if err := l.follow(g, &hist[at]); err != nil {
				return nil, fmt.Errorf("game %s: replay entry %d for the summary: %w", l.hdr.ID, at, err)
			}
		}
		if err := l.deal(g, &hist[m.at]); err != nil {
			return nil, fmt.Errorf("game %s: deal move %d for the summary: %w", l.hdr.ID, k, err)
		}
		an, err := analyse(l, g, m, 1)
		if err != nil {
			return nil, err
		}
		ss := &sum.Seats[an.Seat]
		ss.Moves++
		lost := max(0, an.Best[0].Equity-an.Played.Equity)
		lost = math.Round(lost*100) / 100
		if lost == 0 {
			ss.Best++
		}
		ss.Lost = math.Round((ss.Lost+lost)*100) / 100
		if lost > 0 && (ss.Worst == nil || lost > ss.Worst.Lost) {
			ss.Worst = &Miss{Move: k, Played: an.Played.Move, Best: an.Best[0].Move, Lost: lost}
		}
	}
	return sum, nil
}
