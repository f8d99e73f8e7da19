package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/puzzle"
	"atril/store"
	"atril/variant"
)

// Endgame puzzles (puzzle.MakeEndgame): positions of the computer's
// games with the bag empty, in which to find the move that ends the game
// best, both sides then playing their best. Numbered by day as the
// puzzles to score are, kept in the same cache, none ahead of its day.

// EndgameInfo is the answer of GET /api/endgames/{lexicon}/{n}: the
// puzzle as PuzzleInfo has it (Goal "endgame"), and the signed-in
// account's first answer to it.
type EndgameInfo struct {
	PuzzleInfo
	First *EndgameResult `json:"first,omitempty"`
}

// EndgameResult is an account's first answer to an endgame puzzle:
// whether its move gained the most, or the solution was asked for first
// (Revealed), what the move gained, and when.
type EndgameResult struct {
	Lexicon  string    `json:"lexicon,omitempty"`
	Number   int       `json:"number,omitempty"`
	Correct  bool      `json:"correct"`
	Revealed bool      `json:"revealed,omitempty"`
	Value    int       `json:"value"`
	Answered time.Time `json:"answered"`
	// RatingBefore and RatingAfter are the account's endgame rating in
	// the word list before and after the answer (absent for an answer
	// made before endgame puzzles were rated).
	RatingBefore int `json:"rating_before,omitempty"`
	RatingAfter  int `json:"rating_after,omitempty"`
}

func endgameResult(r *store.EndgameRecord) *EndgameResult {
	out := &EndgameResult{Lexicon: r.Lexicon, Number: r.Number, Correct: r.Correct, Revealed: r.Revealed, Value: r.Value, Answered: r.Answered}
	if r.RAfter != 0 {
		out.RatingBefore, out.RatingAfter = int(math.Round(r.RBefore)), int(math.Round(r.RAfter))
	}
	return out
}

// EndgameAnswer is the answer of POST /api/endgames/{lexicon}/{n}/answer:
// for a move, its preview (a placement's; Move "-" for a pass) and,
// when the rules accept it, the spread it gains to the end; and, for a
// move or a request of the solution, what the best move gains, the line
// of play that gains it and the highest-scoring play with what it gains.
type EndgameAnswer struct {
	Preview
	// Value is the spread the move gains from here to the end, both
	// sides then playing their best (absent for a request of the
	// solution); Exact is false when the search that valued it stopped
	// at its bound first (the value is then the best it saw).
	Value *int `json:"value,omitempty"`
	Exact bool `json:"exact,omitempty"`
	// Correct is set when the move gains as much as the best one.
	Correct bool `json:"correct"`
	// Best is what the best move gains, Line a line of play that gains
	// it (the best move first, then each side in turn).
	Best int           `json:"best"`
	Line []EndgameMove `json:"line"`
	// Top is the highest-scoring play, TopValue what it gains.
	Top      EndgameMove `json:"top"`
	TopValue int         `json:"top_value"`
	// First is the signed-in account's first answer (this one or an
	// earlier one, the one that counts; asking for the solution first
	// counts as not finding it). AnsweredBy and SolvedBy count the
	// accounts that answered the puzzle and those whose first answer
	// found a best move.
	First      *EndgameResult `json:"first,omitempty"`
	AnsweredBy int            `json:"answered_by"`
	SolvedBy   int            `json:"solved_by"`
	// Rating is the signed-in account's endgame rating in the word list
	// after the answer (absent for a guest), Level the puzzle's own
	// (absent while no account has answered it). A first answer is
	// rated as a puzzle's is: a game between the account and the
	// puzzle, won by finding a best move (asking for the solution first
	// loses it).
	Rating *PuzzleRatingInfo `json:"rating,omitempty"`
	Level  *PuzzleRatingInfo `json:"level,omitempty"`
}

// EndgameMove is a move of an endgame puzzle's line: whether it is the
// solver's (You) or the opponent's, its kind (place or pass), how it is
// written on the board it is played on, its score, and a placement's
// tiles.
type EndgameMove struct {
	You   bool   `json:"you"`
	Kind  string `json:"kind"`
	Move  string `json:"move"`
	Score int    `json:"score"`
	Tiles []Tile `json:"tiles,omitempty"`
}

// endgameRequest is the body of an endgame puzzle's answer: the tiles
// put on the board, a pass, or reveal to see the solution.
type endgameRequest struct {
	Tiles  []PlacedTile `json:"tiles"`
	Pass   bool         `json:"pass"`
	Reveal bool         `json:"reveal"`
}

// endgameFor returns endgame puzzle n of word list lexicon, made once.
func (s *Server) endgameFor(r *http.Request) (*puzzleEntry, error) {
	v, name, n, err := s.puzzleNumber(r)
	if err != nil {
		return nil, err
	}
	return s.cachedEntry(r, "endgame\x00"+name+"\x00"+strconv.Itoa(n), v, name, n, func(p *puzzleEntry, lex *lexicon.Lexicon, gen movegen.Generator) error {
		var err error
		p.endgame, err = puzzle.MakeEndgame(v, lex, name, n, gen)
		return err
	})
}

func (s *Server) handleEndgame(w http.ResponseWriter, r *http.Request) {
	p, err := s.endgameFor(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	g := p.game()
	info := EndgameInfo{PuzzleInfo: PuzzleInfo{Lexicon: p.lexicon, Number: p.number, Today: puzzle.Today(time.Now()), Goal: "endgame", State: p.state(),
		CGP: cgpOfView(p.v, player.ViewOf(g, g.Current()), p.lexicon)}}
	// Signed in: the account's first answer and endgame rating, and
	// once it has answered, the puzzle's own rating (as a puzzle to
	// score shows it).
	a, err := s.signedIn(r)
	if err == nil && a != nil {
		info.First, err = s.firstEndgame(r.Context(), a.Key, p)
		if err == nil && info.First != nil {
			info.Level, err = s.endgameLevel(r.Context(), p.lexicon, p.number)
		}
		if err == nil {
			info.Rating, err = s.endgameRating(r.Context(), a.Key, p.lexicon)
		}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, info)
}

// firstEndgame is account key's first answer to endgame puzzle p (nil
// before one).
func (s *Server) firstEndgame(ctx context.Context, key string, p *puzzleEntry) (*EndgameResult, error) {
	rec, err := s.store.EndgameRecord(ctx, key, p.lexicon, p.number)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return endgameResult(rec), nil
}

func (s *Server) handleEndgamePreview(w http.ResponseWriter, r *http.Request) {
	s.puzzlePreview(w, r, s.endgameFor)
}

// decodeEndgameRequest reads the body of an endgame puzzle's answer:
// exactly one of tiles, pass and reveal.
func decodeEndgameRequest(data []byte) (endgameRequest, error) {
	var req endgameRequest
	if err := decodeJSON(data, &req); err != nil {
		return req, err
	}
	if req.Pass && req.Tiles != nil {
		return req, &apiError{400, "a pass takes no tiles"}
	}
	if req.Reveal == (req.Pass || req.Tiles != nil) {
		return req, &apiError{400, "give the tiles of a placement, pass, or reveal to see the solution: one of them"}
	}
	return req, nil
}

func (s *Server) handleEndgameAnswer(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r)
	var req endgameRequest
	if err == nil {
		req, err = decodeEndgameRequest(data)
	}
	var p *puzzleEntry
	if err == nil {
		p, err = s.endgameFor(r)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	e, g := p.endgame, p.game()
	out := EndgameAnswer{Preview: Preview{Words: [][]string{}}, Best: e.Value, Line: endgameLine(p.v, g.Board, e.Line),
		Top: endgameMove(p.v, g.Board, &e.Top, true), TopValue: e.TopValue}
	var m *move.Move
	switch {
	case req.Pass:
		m = &move.Move{Kind: move.Pass}
		out.OK, out.Move = true, m.String(g.Board)
	case req.Tiles != nil:
		if out.Preview, err = p.preview(req.Tiles); err != nil {
			s.fail(w, err)
			return
		}
		if !out.OK {
			// A play the rules refuse shows nothing of the solution.
			writeJSON(w, 200, EndgameAnswer{Preview: out.Preview, Line: []EndgameMove{}})
			return
		}
		m, _ = placement(g.Board, req.Tiles) // (the preview read and checked them)
		m.Score = out.Score
	}
	if m != nil {
		value, exact, err := s.endgameValue(r, p, *m)
		if err != nil {
			s.fail(w, err)
			return
		}
		out.Value, out.Exact, out.Correct = &value, exact, value >= e.Value
	}
	if err := s.recordEndgame(r, p, &out, req.Reveal); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, out)
}

// recordEndgame keeps a signed-in account's first answer to endgame
// puzzle p (out, or the solution asked for), and fills in out's first
// answer and the puzzle's counts.
func (s *Server) recordEndgame(r *http.Request, p *puzzleEntry, out *EndgameAnswer, revealed bool) error {
	a, err := s.signedIn(r)
	if err == nil && a != nil {
		rec := store.EndgameRecord{Lexicon: p.lexicon, Number: p.number, Correct: out.Correct, Revealed: revealed, Answered: time.Now().UTC()}
		if out.Value != nil {
			rec.Value = *out.Value
		}
		if _, err = s.store.RecordEndgame(r.Context(), a.Key, &rec, ratePuzzle(out.Correct, rec.Answered)); err == nil {
			out.First, err = s.firstEndgame(r.Context(), a.Key, p)
		}
		if err == nil {
			out.Rating, err = s.endgameRating(r.Context(), a.Key, p.lexicon)
		}
	}
	if err == nil {
		out.Level, err = s.endgameLevel(r.Context(), p.lexicon, p.number)
	}
	if err == nil {
		out.AnsweredBy, out.SolvedBy, err = s.store.EndgameCounts(r.Context(), p.lexicon, p.number)
	}
	return err
}

// endgameValue is what move m gains in endgame puzzle p: a search, so
// one of the client's analyses, in one of the thinking slots.
func (s *Server) endgameValue(r *http.Request, p *puzzleEntry, m move.Move) (int, bool, error) {
	if err := s.analysisAllowance(r, 1); err != nil {
		return 0, false, err
	}
	lr, err := s.lexiconFor(p.v, p.lexicon)
	if err != nil {
		return 0, false, err
	}
	if !s.slot(r.Context()) {
		return 0, false, &apiError{503, "the request ended before a thinking slot came free"}
	}
	defer func() { <-s.sem }()
	gen := lr.getGen()
	defer lr.putGen(gen)
	value, exact := p.endgame.MoveValue(gen, m)
	return value, exact, nil
}

// endgameLine renders a line of play from the position on board b, each
// move on the board as the moves before it left it.
func endgameLine(v *variant.Variant, b *board.Board, line []move.Move) []EndgameMove {
	out := []EndgameMove{}
	b = b.Clone()
	for k := range line {
		m := &line[k]
		out = append(out, endgameMove(v, b, m, k%2 == 0))
		if m.Kind == move.Place {
			b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000+k) // (the stamp marks no turn of a game)
		}
	}
	return out
}

// endgameMove renders move m on board b, by the solver (you) or the
// opponent.
func endgameMove(v *variant.Variant, b *board.Board, m *move.Move, you bool) EndgameMove {
	e := EndgameMove{You: you, Kind: kindNames[m.Kind], Move: m.String(b), Score: m.Score}
	if m.Kind == move.Place {
		e.Tiles = placedTiles(v, m)
	}
	return e
}
