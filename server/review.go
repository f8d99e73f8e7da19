package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"atril/game"
	"atril/move"
	"atril/player/leave"
	"atril/review"
)

// ReviewTurn is one entry of a finished game's record: a move with the
// rack it was played from, or an end-of-game adjustment.
type ReviewTurn struct {
	Seat int `json:"seat"`
	// place, exchange, pass, out_bonus, rack_penalty, time_penalty,
	// withdrawn (a placement taken back by a challenge: Tiles come off
	// the board), challenge_bonus, lost_turn
	Kind string `json:"kind"`
	// Rack is the player's rack before the move (for an adjustment: the
	// rack counted).
	Rack []Tile `json:"rack"`
	// Move is the notation of a placement, or "-TILES" for an exchange.
	Move string `json:"move,omitempty"`
	// Tiles are the tiles a placement put on the board, with squares.
	Tiles []Tile `json:"tiles,omitempty"`
	// Exchanged are the tiles an exchange returned to the bag.
	Exchanged []Tile `json:"exchanged,omitempty"`
	Points    int    `json:"points"`
	Total     int    `json:"total"`
	// Phonies are the words of a placement missing from the word list
	// (under a challenge rule), whether or not it was challenged.
	Phonies []string `json:"phonies,omitempty"`
}

// Review is the answer of GET /api/games/{id}/review: the whole record of
// a finished game, racks included.
type Review struct {
	ID       string       `json:"id"`
	Turns    []ReviewTurn `json:"turns"`
	Resigned *int         `json:"resigned,omitempty"`
	TimedOut *int         `json:"timed_out,omitempty"`
	Aborted  bool         `json:"aborted,omitempty"`
	// Abandoned is set for a game ended because nobody played it.
	Abandoned bool  `json:"abandoned,omitempty"`
	Winners   []int `json:"winners"`
}

// handleReview gives a finished game's record. An unfinished game is
// refused: the record shows every rack.
func (s *Server) handleReview(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.over() {
		s.fail(w, &apiError{409, "the game is not over: its record shows racks, so it is given only at the end"})
		return
	}
	a := l.v.Alphabet
	rv := Review{ID: l.hdr.ID, Turns: []ReviewTurn{}, Aborted: l.g.Aborted(), Abandoned: l.abandoned, Winners: l.g.Winners()}
	if rs := l.g.Resigned(); rs >= 0 {
		rv.Resigned = intp(rs)
	}
	if to := l.g.TimedOut(); to >= 0 {
		rv.TimedOut = intp(to)
	}
	for _, h := range l.g.History {
		t := ReviewTurn{Seat: h.Player, Rack: l.rackTiles(&h.Rack), Points: h.Points, Total: h.Total}
		switch h.Kind {
		case game.Played, game.Withdrawn:
			t.Kind = kindNames[h.Move.Kind]
			if h.Kind == game.Withdrawn {
				t.Kind = "withdrawn"
			}
			t.Phonies = h.Phonies
			switch h.Move.Kind {
			case move.Place:
				t.Move = h.Notation
				t.Tiles = placedTiles(l.v, &h.Move)
			case move.Exchange:
				t.Move = "-" + a.Bracketed(h.Move.Exchanged)
				for _, tl := range h.Move.Exchanged {
					t.Exchanged = append(t.Exchanged, l.tile(tl))
				}
			}
		case game.OutBonus:
			t.Kind = "out_bonus"
		case game.RackPenalty:
			t.Kind = "rack_penalty"
		case game.TimePenalty:
			t.Kind = "time_penalty"
		case game.ChallengeBonus:
			t.Kind = "challenge_bonus"
		case game.LostTurn:
			t.Kind = "lost_turn"
		}
		rv.Turns = append(rv.Turns, t)
	}
	writeJSON(w, 200, rv)
}

// Candidate is a move of an analysed position with its static equity:
// its score plus the value of the tiles it keeps, by the leave table the
// computer players use (with the bag empty: minus the tiles kept, or
// twice the opponents' tiles for going out).
type Candidate struct {
	Move  string `json:"move"`
	Kind  string `json:"kind"`
	Score int    `json:"score"`
	// Leave is the tiles kept, blanks last, a multi-letter tile in
	// brackets ("A[CH]E?").
	Leave  string  `json:"leave"`
	Equity float64 `json:"equity"`
	Tiles  []Tile  `json:"tiles,omitempty"`
	// Withdrawn marks a played placement that a challenge took back: it
	// scored nothing and kept the rack, as a pass.
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// Analysis is the answer of GET /api/games/{id}/analysis?move=K: the
// best moves by static equity for the player on turn before the K-th
// move (0-based) of a finished game, and the move that was played.
type Analysis struct {
	Move   int         `json:"move"`
	Seat   int         `json:"seat"`
	Rack   []Tile      `json:"rack"`
	Bag    int         `json:"bag"`
	Best   []Candidate `json:"best"`
	Played *Candidate  `json:"played"`
	// Rank is the played move's place among all moves by equity (1 is
	// the best), 0 when it was not found among them.
	Rank int `json:"rank"`
	// Moves is the number of legal placements and exchanges valued.
	Moves int `json:"moves"`
	// Bingos are the best placements of the whole rack by equity, at
	// most five.
	Bingos []Candidate `json:"bingos"`
}

// maxAnalysis bounds the number of best moves an analysis lists.
const maxAnalysis = 20

// analysesPerMinute bounds the analyses a client may ask a minute: enough
// to step through a review quickly, not to keep the move generators busy.
const analysesPerMinute = 240

func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request) {
	if !s.takeAnalysis(w, r, 1) {
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	q := r.URL.Query()
	k, err := moveParam(q)
	if err != nil {
		s.fail(w, err)
		return
	}
	n, err := queryInt(q, "n", 10, 1, maxAnalysis)
	if err != nil {
		s.fail(w, err)
		return
	}
	rec, g, err := l.replayTo(k)
	if err != nil {
		s.fail(w, err)
		return
	}
	if !s.slot(r.Context()) {
		return
	}
	an, err := analyse(l, g, rec.Moves[k], n)
	<-s.sem
	if err != nil {
		s.fail(w, err)
		return
	}
	an.Move = k
	writeJSON(w, 200, an)
}

// moveParam reads the move= parameter: the 0-based number of a move of
// a finished game (its range is checked by replayTo).
func moveParam(q url.Values) (int, error) {
	k, err := strconv.Atoi(q.Get("move"))
	if err != nil || k < 0 {
		return 0, &apiError{400, "move: want the 0-based number of a move of the game"}
	}
	return k, nil
}

// slot takes one of the computer seats' thinking slots (given back by
// receiving from s.sem), or reports false when ctx ends first.
func (s *Server) slot(ctx context.Context) bool {
	select {
	case s.sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// takeAnalysis spends n of the client's analyses (one a position
// analysed), or answers 429.
func (s *Server) takeAnalysis(w http.ResponseWriter, r *http.Request, n int) bool {
	if err := s.analysisAllowance(r, n); err != nil {
		s.fail(w, err)
		return false
	}
	return true
}

// analysisAllowance spends n of the client's analyses, or says how long
// to wait.
func (s *Server) analysisAllowance(r *http.Request, n int) error {
	if ok, retry := s.analysisLim.takeN(s.clientKey(r), time.Now(), float64(n)); !ok {
		return &tooManyError{msg: fmt.Sprintf("at most %d analyses a minute", analysesPerMinute), retry: int(math.Ceil(retry.Seconds()))}
	}
	return nil
}

// record returns the record of a finished game and a new game at its
// start (with the same rules), in which to step through it.
func (l *live) record() (*review.Record, *game.Game, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.over() {
		return nil, nil, &apiError{409, "the game is not over: analysis shows racks, so it is given only at the end"}
	}
	return l.recordSoFar()
}

// recordSoFar returns the record of the game's moves so far and a new
// game at its start. Caller holds mu.
func (l *live) recordSoFar() (*review.Record, *game.Game, error) {
	rec := review.NewRecord(slices.Clone(l.g.History), l.imported)
	g, err := l.fresh()
	return rec, g, err
}

// fresh returns a new game as l's started: the same seats, seed and
// challenge rule, in which to follow l's history (game.Follow). Caller
// holds mu.
func (l *live) fresh() (*game.Game, error) {
	names := make([]string, len(l.g.Seats))
	for i, p := range l.g.Seats {
		names[i] = p.Name
	}
	g, err := game.New(l.v, l.lex, names, l.hdr.Seed)
	if err == nil {
		err = g.SetChallengeRule(l.g.ChallengeRule())
	}
	if err == nil {
		err = g.SetEndRule(l.g.EndRule())
	}
	if err != nil {
		return nil, fmt.Errorf("game %s: replay: %w", l.hdr.ID, err)
	}
	return g, nil
}

// replayTo rebuilds the position before move k (0-based) of a finished
// game from its record, in a game of its own (the live one is not held
// while moves are valued), and returns the game's record.
func (l *live) replayTo(k int) (*review.Record, *game.Game, error) {
	rec, g, err := l.record()
	if err != nil {
		return nil, nil, err
	}
	return rec, g, l.advance(rec, g, k)
}

// advance follows rec in g, a game at its start, to the position before
// move k.
func (l *live) advance(rec *review.Record, g *game.Game, k int) error {
	if k >= len(rec.Moves) {
		return &apiError{400, fmt.Sprintf("move %d: the game has moves 0 to %d", k, len(rec.Moves)-1)}
	}
	if _, err := rec.Advance(g, 0, k); err != nil {
		return fmt.Errorf("game %s: %w", l.hdr.ID, err)
	}
	return nil
}

// ranker is a review.Ranker with one of the word list's generators
// (given back by done) and the leave values the computer players use by
// default (none for a variant without a table: equity is the score).
func (l *live) ranker() (rk *review.Ranker, done func()) {
	table, err := leave.Load(l.v, "default", 0)
	if err != nil {
		table = nil
	}
	gen := l.lr.getGen()
	return &review.Ranker{Gen: gen, Leave: table}, func() { l.lr.putGen(gen) }
}

// analyse values every placement and exchange of the player on turn in g
// and returns the best n, and the played move's value and rank. A
// placement a challenge took back is valued as the pass it amounted to.
func analyse(l *live, g *game.Game, m review.Move, n int) (*Analysis, error) {
	rk, done := l.ranker()
	r, err := rk.Rank(g, m, n)
	done()
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", l.hdr.ID, err)
	}
	an := &Analysis{Seat: r.Seat, Rack: l.rackTiles(&r.Rack), Bag: r.Bag, Best: []Candidate{}, Rank: r.Rank, Moves: r.Moves}
	for i := range r.Best {
		an.Best = append(an.Best, l.candidate(&r.Best[i]))
	}
	p := l.candidate(&r.Played)
	an.Played = &p
	an.Bingos = []Candidate{}
	for i := range r.Bingos {
		an.Bingos = append(an.Bingos, l.candidate(&r.Bingos[i]))
	}
	return an, nil
}

// candidate is the answer's form of a ranked move.
func (l *live) candidate(c *review.Candidate) Candidate {
	out := Candidate{Move: c.Text, Kind: kindNames[c.Move.Kind], Score: c.Move.Score, Equity: c.Equity,
		Leave: l.v.Alphabet.Bracketed(c.Kept.InWritingOrder()), Withdrawn: c.Withdrawn}
	if c.Move.Kind == move.Place {
		out.Tiles = placedTiles(l.v, &c.Move)
	}
	return out
}
