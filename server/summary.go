package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"

	"atril/alphabet"
	"atril/review"
	"atril/variant"
	"atril/winprob"
)

// A finished game's summary by static equity: for each seat, how many
// of its moves were the best the computer's static valuation finds
// (score plus the leave table's value of the tiles kept, as the per-move
// analysis ranks them), how much equity it gave up against the best move
// in all, and its costliest move.

// Summary is the answer of GET /api/games/{id}/summary.
type Summary struct {
	Seats []SeatSummary `json:"seats"`
	// Win is seat 0's chance of winning before the first move and after
	// each entry of the game's history (package winprob: two-player
	// games of a variant with a fitted model), the last its result.
	Win []float64 `json:"win,omitempty"`
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
	// Mistakes are the moves that gave up at least 5 points of equity
	// (review.MistakeLoss), in the order of the game, the 12 costliest
	// when there are more: the positions to practise again (GET
	// .../practice/{k}).
	Mistakes []Miss `json:"mistakes"`
	// MissedBingos are the seat's moves that played no bingo where one
	// could be played, in the order of the game.
	MissedBingos []MissedBingo `json:"missed_bingos"`
}

// MissedBingo is a move that played no bingo where one could be played:
// the rack, the move played and the best bingos by equity.
type MissedBingo struct {
	// Move is the move's 0-based number in the game.
	Move   int     `json:"move"`
	Rack   string  `json:"rack"`
	Played string  `json:"played"`
	Bingos []Bingo `json:"bingos"`
}

// Bingo is a placement that plays the whole rack: as written, its score
// and equity, its main word, and the main word's alphagram as the word
// study writes it (a cardbox's card; a blank as the letter it stands
// for).
type Bingo struct {
	Move      string  `json:"move"`
	Score     int     `json:"score"`
	Equity    float64 `json:"equity"`
	Word      string  `json:"word"`
	Alphagram string  `json:"alphagram"`
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
	n := l.g.MovesPlayed()
	l.mu.Unlock()
	if sum == nil {
		// Worked out once a game (a finished game does not change),
		// at the cost of an analysis a move.
		if !s.takeAnalysis(w, r, max(n, 1)) {
			return
		}
		if sum, err = s.summaryOf(r.Context(), l); err != nil {
			if r.Context().Err() == nil {
				s.fail(w, err)
			}
			return
		}
	}
	writeJSON(w, 200, sum)
}

// summaryOf returns the summary of the finished game l, working it out
// in one of the thinking slots the first time and keeping it.
func (s *Server) summaryOf(ctx context.Context, l *live) (*Summary, error) {
	l.mu.Lock()
	sum := l.summary
	l.mu.Unlock()
	if sum != nil {
		return sum, nil
	}
	if !s.slot(ctx) {
		return nil, ctx.Err()
	}
	sum, err := summarize(l)
	<-s.sem
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.summary == nil {
		l.summary = sum
	}
	sum = l.summary
	l.mu.Unlock()
	return sum, nil
}

// summarize analyses every move of a finished game.
func summarize(l *live) (*Summary, error) {
	rec, g, err := l.record()
	if err != nil {
		return nil, err
	}
	rk, done := l.ranker()
	rs, err := rk.Summarize(rec, g, 1, nil)
	done()
	if err != nil {
		return nil, fmt.Errorf("game %s: summary: %w", l.hdr.ID, err)
	}
	sum := &Summary{Seats: make([]SeatSummary, len(rs.Seats))}
	for i, s := range rs.Seats {
		ss := SeatSummary{Seat: i, Moves: s.Moves, Best: s.Best, Lost: s.Lost}
		if w := s.Worst; w != nil {
			ss.Worst = &Miss{Move: w.Move, Played: w.Played.Text, Best: w.Best.Text, Lost: w.Lost}
		}
		ss.Mistakes = []Miss{}
		for _, m := range s.Mistakes {
			ss.Mistakes = append(ss.Mistakes, Miss{Move: m.Move, Played: m.Played.Text, Best: m.Best.Text, Lost: m.Lost})
		}
		ss.MissedBingos = []MissedBingo{}
		for _, m := range s.MissedBingos {
			mb := MissedBingo{Move: m.Move, Rack: g.Variant.Alphabet.Bracketed(m.Rack.InWritingOrder()), Played: m.Played.Text}
			for _, b := range m.Bingos {
				mb.Bingos = append(mb.Bingos, bingoOf(g.Variant, &b))
			}
			ss.MissedBingos = append(ss.MissedBingos, mb)
		}
		sum.Seats[i] = ss
	}
	if m, ok := winprob.For(g.Variant, len(g.Seats)); ok {
		l.mu.Lock()
		winners := l.g.Winners()
		l.mu.Unlock()
		for _, w := range m.Series(rec.History, g.Variant.TotalTiles(), winners) {
			sum.Win = append(sum.Win, math.Round(w*1000)/1000)
		}
	}
	return sum, nil
}

// bingoOf renders a bingo of variant v.
func bingoOf(v *variant.Variant, c *review.Candidate) Bingo {
	a := v.Alphabet
	letters := make([]alphabet.Tile, len(c.Word))
	for i, t := range c.Word {
		letters[i] = t.Letter()
	}
	slices.Sort(letters)
	return Bingo{Move: c.Text, Score: c.Move.Score, Equity: c.Equity, Word: a.Word(c.Word), Alphagram: a.Spell(letters)}
}
