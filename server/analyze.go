package server

import (
	"fmt"
	"math"
	"net/http"
	"time"

	"atril/game"
	"atril/move"
	"atril/player"
	"atril/review"
	"atril/variant"
)

// analyzeCap is the longest an analysis may search (a variable for the
// tests).
var analyzeCap = 5 * time.Second

// Limits of POST /api/analyze.
const (
	// analyzeDefault is the search time when the request gives none.
	analyzeDefault = 2 * time.Second
	// analyzePerMinute is how many analyses a client may ask a minute.
	analyzePerMinute = 6
)

// AnalyzeRequest asks for the analysis of a position of a game: of a
// finished game before any of its turns, or of an unfinished one the
// current position of the token's seat.
type AnalyzeRequest struct {
	Game string `json:"game,omitempty"`
	// CGP, instead of Game, is a position of the analysis board, its
	// player on turn analysed; Lexicon its word list when the line names
	// none (see PositionRequest).
	CGP     string `json:"cgp,omitempty"`
	Lexicon string `json:"lexicon,omitempty"`
	// Turn is the number of turns played before the position (finished
	// games only; omitted: the final position of a finished game is
	// not analysable, so it means the current one of the seat).
	Turn *int `json:"turn,omitempty"`
	// Sim asks for a simulation instead of the static ranking; Millis
	// bounds the search (at most 5000, default 2000).
	Sim    bool `json:"sim,omitempty"`
	Millis int  `json:"ms,omitempty"`
	Top    int  `json:"top,omitempty"`
	// Judge (a finished game's turn) searches as Sim does, the move
	// played at the turn among the candidates whatever its static rank,
	// and answers how it compares with the best (Judged). With the bag
	// empty the endgame is solved before and after it.
	Judge bool `json:"judge,omitempty"`
}

// AnalyzeCandidate is one ranked move of an analysis.
type AnalyzeCandidate struct {
	Move string `json:"move"`
	// Kind is place, exchange or pass; Score the move's points; Leave
	// the tiles it keeps; Tiles, for a placement, its new tiles.
	Kind       string   `json:"kind"`
	Score      int      `json:"score"`
	Leave      string   `json:"leave"`
	Tiles      []Tile   `json:"tiles,omitempty"`
	Static     float64  `json:"static"`
	Mean       *float64 `json:"mean,omitempty"`
	Low        *float64 `json:"low,omitempty"`
	High       *float64 `json:"high,omitempty"`
	Win        *float64 `json:"win,omitempty"`
	Iterations int      `json:"iterations,omitempty"`
	Eliminated bool     `json:"eliminated,omitempty"`
}

// AnalyzeResponse is the analysis of the position for the seat on turn.
type AnalyzeResponse struct {
	Turn       int                `json:"turn"`
	Seat       int                `json:"seat"`
	Phase      string             `json:"phase"`
	Best       string             `json:"best"`
	Candidates []AnalyzeCandidate `json:"candidates,omitempty"`
	Spread     *int               `json:"spread,omitempty"`
	Exact      *bool              `json:"exact,omitempty"`
	Line       []string           `json:"line,omitempty"`
	Millis     int64              `json:"ms"`
	Judged     *review.Judgement  `json:"judged,omitempty"`
}

func (s *Server) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	var req AnalyzeRequest
	if err := decodeJSON(data, &req); err != nil {
		s.fail(w, err)
		return
	}
	if ok, retry := s.analyzeLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, &tooManyError{msg: fmt.Sprintf("at most %d analyses a minute", analyzePerMinute), retry: int(math.Ceil(retry.Seconds()))})
		return
	}
	budget := analyzeDefault
	if req.Millis != 0 {
		if req.Millis < 0 {
			s.fail(w, &apiError{400, "ms must be positive"})
			return
		}
		// Bounded in milliseconds first: a larger number would overflow
		// a Duration, and a negative budget bounds no search at all.
		budget = time.Duration(min(int64(req.Millis), analyzeCap.Milliseconds())) * time.Millisecond
	}
	view, turn, lr, v, err := s.analyzed(r, req)
	if err != nil {
		s.fail(w, err)
		return
	}
	var played move.Move
	if req.Judge {
		if played, err = s.playedAt(r, req, turn); err != nil {
			s.fail(w, err)
			return
		}
	}
	// Analyses share the computer seats' thinking slots.
	if !s.slot(r.Context()) {
		return
	}
	defer func() { <-s.sem }()
	gen := lr.getGen()
	defer lr.putGen(gen)
	o := player.Options{Variant: v, Lexicon: lr.lex, Generator: gen, Seed: 1, Budget: budget,
		EndgameTime: budget, Iterations: math.MaxInt32, Threads: 1}
	if req.Judge {
		resp, err := judgeTurn(view, played, o, turn, req.Top)
		if err != nil {
			s.fail(w, err)
			return
		}
		writeJSON(w, 200, resp)
		return
	}
	a, err := player.Analyze(view, o, req.Sim, req.Top)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, analyzeResponse(a, view, turn, req.Top))
}

// analyzed finds the position an analysis asks for: a game's (see
// analysisView) or a CGP line's, whose player on turn is analysed as
// turn 0. It returns the view of the seat on turn, the turn, and the word
// list and variant.
func (s *Server) analyzed(r *http.Request, req AnalyzeRequest) (*player.View, int, *lexRes, *variant.Variant, error) {
	if req.CGP != "" {
		if req.Game != "" || req.Turn != nil {
			return nil, 0, nil, nil, &apiError{400, "give either a game (and turn) or a CGP line, not both"}
		}
		pos, err := s.positionOf(&PositionRequest{CGP: req.CGP, Lexicon: req.Lexicon, Seed: 1})
		if err != nil {
			return nil, 0, nil, nil, err
		}
		return player.ViewOf(pos.g, 0), 0, pos.lr, pos.v, nil
	}
	if req.Lexicon != "" {
		return nil, 0, nil, nil, &apiError{400, "a game's analysis uses the game's word list: give \"lexicon\" with \"cgp\" only"}
	}
	l, err := s.game(r.Context(), req.Game)
	if err != nil {
		return nil, 0, nil, nil, err
	}
	view, turn, err := s.analysisView(l, req, token(r))
	return view, turn, l.lr, l.v, err
}

// analysisView replays the game to the position asked for and returns
// the view of the seat on turn there (for a finished game), or the
// current view of the token's seat (for an unfinished one; against the
// computer alone, also the seat's own earlier turns).
func (s *Server) analysisView(l *live, req AnalyzeRequest, tok string) (*player.View, int, error) {
	l.mu.Lock()
	if !l.over() {
		if l.hdr.Rated {
			l.mu.Unlock()
			return nil, 0, &apiError{403, "a rated game's position is analysed once the game is over"}
		}
		me := l.seatOf(tok)
		if me < 0 {
			l.mu.Unlock()
			return nil, 0, &apiError{403, "the game is not over: only a seat's own position can be analysed, with its token"}
		}
		played := l.playedTurns()
		if req.Turn == nil || *req.Turn == played {
			defer l.mu.Unlock()
			return player.ViewOf(l.g, me), played, nil
		}
		k := *req.Turn
		if k < 0 || k > played || !l.againstComputerAlone(me) {
			l.mu.Unlock()
			return nil, 0, &apiError{409, "the game is not over: only its current position can be analysed (and, against the computer alone, the seat's own earlier turns)"}
		}
		rec, g, err := l.recordSoFar()
		l.mu.Unlock()
		if err == nil {
			err = l.advance(rec, g, k)
		}
		if err != nil {
			return nil, 0, err
		}
		if g.Current() != me {
			return nil, 0, &apiError{403, fmt.Sprintf("turn %d is not the seat's own: only its own earlier turns are analysed before the end", k)}
		}
		return player.ViewOf(g, me), k, nil
	}
	played := l.playedTurns()
	l.mu.Unlock()
	turn := played - 1
	if req.Turn != nil {
		turn = *req.Turn
	}
	if turn < 0 || turn >= played {
		return nil, 0, &apiError{422, fmt.Sprintf("turn must be from 0 to %d (turns played before the position)", played-1)}
	}
	_, g, err := l.replayTo(turn)
	if err != nil {
		return nil, 0, err
	}
	return player.ViewOf(g, g.Current()), turn, nil
}

// playedTurns counts the moves of the game's history.
func (l *live) playedTurns() int {
	n := 0
	for _, t := range l.g.History {
		if t.Kind == game.Played {
			n++
		}
	}
	return n
}

func analyzeResponse(a *player.Analysis, v *player.View, turn, top int) AnalyzeResponse {
	b := v.Board
	best := a.Best()
	out := AnalyzeResponse{Turn: turn, Seat: v.Me, Phase: a.Phase, Best: best.String(b), Millis: a.Elapsed.Milliseconds()}
	if top <= 0 {
		top = 10
	}
	f := review.Hundredths
	for i, c := range a.Candidates {
		if i >= top {
			break
		}
		ac := candidateOf(v, &c.Move, *f(c.Static))
		if a.Phase == "simulation" {
			ac.Mean, ac.Low, ac.High, ac.Win = f(c.Mean), f(c.Mean-c.Half), f(c.Mean+c.Half), f(100*c.Win)
			ac.Iterations, ac.Eliminated = c.Iterations, !c.Alive
		}
		out.Candidates = append(out.Candidates, ac)
	}
	for i, c := range a.PreEndgame {
		if i >= top {
			break
		}
		ac := candidateOf(v, &c.Move, *f(c.Static))
		ac.Mean, ac.Win = f(c.Spread), f(100*c.Wins)
		out.Candidates = append(out.Candidates, ac)
	}
	if e := a.Endgame; e != nil {
		v, ex := e.Value, e.Exact
		out.Spread, out.Exact = &v, &ex
		c := b.Clone()
		for i := range e.PV {
			m := &e.PV[i]
			out.Line = append(out.Line, m.String(c))
			if m.Kind == move.Place {
				c.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000)
			}
		}
	}
	return out
}

// playedAt is the move played at a finished game's turn, a placement a
// challenge took back as the pass it amounted to.
func (s *Server) playedAt(r *http.Request, req AnalyzeRequest, turn int) (move.Move, error) {
	if req.Game == "" {
		return move.Move{}, &apiError{400, "judge: a finished game's turn is judged, not a CGP line"}
	}
	l, err := s.game(r.Context(), req.Game)
	if err != nil {
		return move.Move{}, err
	}
	l.mu.Lock()
	over := l.over()
	rec, _, err := l.recordSoFar()
	l.mu.Unlock()
	if err != nil {
		return move.Move{}, err
	}
	if !over && turn >= len(rec.Moves) {
		return move.Move{}, &apiError{409, "the game is not over: the move of this turn is not played yet"}
	}
	if turn < 0 || turn >= len(rec.Moves) {
		return move.Move{}, &apiError{422, fmt.Sprintf("turn %d: the game has moves 0 to %d", turn, len(rec.Moves)-1)}
	}
	m := rec.Moves[turn]
	if m.Withdrawn {
		return move.Move{Kind: move.Pass}, nil
	}
	return m.Move, nil
}

// judgeTurn judges the move played in view (player.Judge) and answers
// the search's candidates or endgame line as a simulation's analysis
// does, with the judgement.
func judgeTurn(view *player.View, played move.Move, o player.Options, turn, top int) (*AnalyzeResponse, error) {
	if len(view.Scores) != 2 || view.Unseen.Len() == 0 {
		return nil, &apiError{422, "judge: only a turn of a two-player game with tiles unseen can be judged"}
	}
	vd, err := player.Judge(view, played, o)
	if err != nil {
		return nil, err
	}
	a := &player.Analysis{Phase: vd.Phase, Candidates: vd.Candidates, Endgame: vd.Endgame, Iterations: vd.Iterations, Elapsed: vd.Elapsed}
	resp := analyzeResponse(a, view, turn, top)
	if vd.Endgame != nil {
		resp.Best = vd.Best.Move.String(view.Board)
	}
	resp.Judged = review.Judged(view.Board, vd)
	return &resp, nil
}

// candidateOf renders a move of the view's player as a candidate of its
// analysis, of static value static.
func candidateOf(v *player.View, m *move.Move, static float64) AnalyzeCandidate {
	vr := v.Board.Variant
	kept := m.Kept(v.Rack)
	c := AnalyzeCandidate{Move: m.String(v.Board), Kind: kindNames[m.Kind], Score: m.Score, Static: static,
		Leave: vr.Alphabet.Bracketed(kept.InWritingOrder())}
	if m.Kind == move.Place {
		c.Tiles = placedTiles(vr, m)
	}
	return c
}
