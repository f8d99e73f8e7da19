package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"atril/game"
	"atril/move"
	"atril/player"
	"atril/review"
)

// Practice: a finished game's positions solved again. The summary lists
// each player's mistakes (moves that gave up at least review.MistakeLoss
// of static equity); GET /api/games/{id}/practice/{k} gives the position
// before move k as a puzzle for the player who made it (the board, the
// rack held then, the tiles unseen by them), and POST .../answer values a
// placement there by static equity against the best, as the review's
// analysis ranks moves, and against the move played in the game. Nothing
// is recorded: it is training on one's own games, not a rated puzzle.

// practiceSlack is how far below the best move's equity an answer may
// fall and still count as finding it (static equity ranks moves a point
// apart about equally).
const practiceSlack = 1.0

// PracticeInfo is the answer of GET /api/games/{id}/practice/{k}.
type PracticeInfo struct {
	Game  string `json:"game"`
	Move  int    `json:"move"`
	Moves int    `json:"moves"`
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	// Names are the game's seats' names, in the order of State's seats.
	Names   []string `json:"names"`
	Lexicon string   `json:"lexicon"`
	// State is the position for the player on turn: the board, the rack
	// held before move k and the tiles that player had not seen.
	State *State `json:"state"`
	// CGP is the position as a CGP line, for the analysis board.
	CGP string `json:"cgp"`
	// Played is the move made there in the game.
	Played string `json:"played"`
}

// PracticeAnswer is the answer of POST /api/games/{id}/practice/{k}/answer:
// the placement's preview and, when the rules accept it (or the solution
// was asked for), its equity and rank among every move of the position,
// the best moves, and the move played in the game with what it gave up.
type PracticeAnswer struct {
	Preview
	// Correct is set when the placement's equity is within a point of
	// the best move's.
	Correct bool    `json:"correct"`
	Equity  float64 `json:"equity"`
	// Rank is the placement's place among all moves by equity (1: the
	// best).
	Rank   int         `json:"rank,omitempty"`
	Moves  int         `json:"moves"`
	Lost   float64     `json:"lost"`
	Best   []Candidate `json:"best"`
	Played Candidate   `json:"played"`
	// PlayedLost is what the game's move gave up against the best.
	PlayedLost float64 `json:"played_lost"`
}

// practice returns the finished game of the request, its record, a game
// at the position before its move k (from the path) and k; a move a
// challenge took back is refused (409), for the position and its
// answers alike.
func (s *Server) practice(r *http.Request) (*live, *review.Record, *game.Game, int, error) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, nil, nil, 0, err
	}
	ks := r.PathValue("k")
	k, err := strconv.Atoi(ks)
	if err != nil || k < 0 {
		return nil, nil, nil, 0, &apiError{400, fmt.Sprintf("move %q: want the 0-based number of a move of the game", short(ks, 20))}
	}
	rec, g, err := l.replayTo(k)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	if rec.Moves[k].Withdrawn {
		return nil, nil, nil, 0, &apiError{409, fmt.Sprintf("move %d was taken back by a challenge: there is nothing to practise", k)}
	}
	return l, rec, g, k, nil
}

func (s *Server) handlePractice(w http.ResponseWriter, r *http.Request) {
	l, rec, g, k, err := s.practice(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	seat := g.Current()
	var names []string
	l.mu.Lock()
	for _, st := range l.seat {
		names = append(names, st.name)
	}
	l.mu.Unlock()
	info := PracticeInfo{Game: l.hdr.ID, Move: k, Moves: len(rec.Moves), Seat: seat, Name: names[seat], Names: names, Lexicon: l.hdr.Lexicon,
		State: stateOfPosition(l.v, l.hdr.Lexicon, g), CGP: cgpOfView(l.v, player.ViewOf(g, seat), l.hdr.Lexicon),
		Played: review.Text(g.Board, &rec.Moves[k].Move)}
	writeJSON(w, 200, info)
}

func (s *Server) handlePracticePreview(w http.ResponseWriter, r *http.Request) {
	req, _, _, g, _, ok := s.readPracticeRequest(w, r)
	if !ok {
		return
	}
	out, err := previewOf(g.Board, g.Seats[g.Current()].Rack, g.BagLen(), true, req.Tiles)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, out)
}

// practiceRequest is the body of a practice preview (tiles) or answer: a
// move as POST .../move takes it (tiles alone are a placement), or
// reveal to see the solution.
type practiceRequest struct {
	moveRequest
	Reveal bool `json:"reveal,omitempty"`
}

// readPracticeRequest reads the body of a practice preview or answer and
// sets up its position (as practice), or answers the error.
func (s *Server) readPracticeRequest(w http.ResponseWriter, r *http.Request) (*practiceRequest, *live, *review.Record, *game.Game, int, bool) {
	data, err := readBody(w, r)
	var req practiceRequest
	if err == nil {
		err = decodeJSON(data, &req)
	}
	var l *live
	var rec *review.Record
	var g *game.Game
	var k int
	if err == nil {
		l, rec, g, k, err = s.practice(r)
	}
	if err != nil {
		s.fail(w, err)
		return nil, nil, nil, nil, 0, false
	}
	return &req, l, rec, g, k, true
}

func (s *Server) handlePracticeAnswer(w http.ResponseWriter, r *http.Request) {
	req, l, rec, g, k, ok := s.readPracticeRequest(w, r)
	if !ok {
		return
	}
	out := PracticeAnswer{Preview: Preview{Words: [][]string{}}, Best: []Candidate{}}
	var tried *move.Move
	if !req.Reveal {
		if req.Notation != "" {
			s.fail(w, &apiError{400, "practice takes kind (place, exchange, pass) with tiles or exchange, not notation"})
			return
		}
		if req.Kind == "" {
			req.Kind = "place"
		}
		m, err := req.toMove(g.Board)
		var ae *apiError
		switch {
		case err != nil && errors.As(err, &ae) && ae.code == 422:
			// Tiles the geometry refuses.
			out.Reason = ae.msg
		case err != nil:
			s.fail(w, err)
			return
		case m.Kind == move.Place:
			if out.Preview, err = previewOf(g.Board, g.Seats[g.Current()].Rack, g.BagLen(), true, req.Tiles); err != nil {
				s.fail(w, err)
				return
			}
		default:
			// An exchange or a pass: the rules' word on it.
			out.Move = review.Text(g.Board, m)
			if err := g.Check(m); err != nil {
				out.Reason = err.Error()
			} else {
				out.OK = true
			}
		}
		if !out.OK {
			// A move the rules refuse shows nothing of the solution.
			writeJSON(w, 200, out)
			return
		}
		tried = m
	}
	// Two rankings of the position: the game's move, and the answer.
	if !s.takeAnalysis(w, r, 2) || !s.slot(r.Context()) {
		return
	}
	rk, done := l.ranker()
	played, err := rk.Rank(g, rec.Moves[k], 5)
	var answer *review.Ranking
	if err == nil && tried != nil {
		answer, err = rk.Rank(g, review.Move{Move: *tried}, 1)
	}
	done()
	<-s.sem
	if err != nil {
		s.fail(w, fmt.Errorf("game %s: practice move %d: %w", l.hdr.ID, k, err))
		return
	}
	for i := range played.Best {
		out.Best = append(out.Best, l.candidate(&played.Best[i]))
	}
	out.Played, out.PlayedLost, out.Moves = l.candidate(&played.Played), played.Lost(), played.Moves
	if answer != nil {
		out.Equity, out.Rank, out.Lost = answer.Played.Equity, answer.Rank, answer.Lost()
		out.Correct = out.Lost <= practiceSlack
	}
	writeJSON(w, 200, out)
}
