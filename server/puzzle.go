package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/player/leave"
	"atril/puzzle"
	"atril/rating"
	"atril/store"
	"atril/variant"
)

// Puzzles (package puzzle): positions of the computer's own games in
// which to find the highest-scoring play, none ahead of its day.

// Bounds of the server's puzzles.
const (
	puzzleCache = 512 // puzzles kept in memory (the rushes' among them)
)

// puzzleEntry is a puzzle as the server keeps it: made once (package
// puzzle; read only once made): a puzzle to score, with its best
// placements rendered, or an endgame puzzle (endgame.go).
type puzzleEntry struct {
	once    sync.Once
	made    atomic.Bool // once has run
	err     error
	used    uint64 // when last asked for (puzzles.clock; guarded by puzzles.mu)
	v       *variant.Variant
	lexicon string
	number  int
	*puzzle.Puzzle
	best []Candidate
	// endgame is set for an endgame puzzle (Puzzle is nil).
	endgame *puzzle.Endgame
}

// game is the puzzle's position: the player on turn solves it.
func (p *puzzleEntry) game() *game.Game {
	if p.endgame != nil {
		return p.endgame.Game
	}
	return p.Game
}

// PuzzleInfo is the answer of GET /api/puzzles/{lexicon}/{n}: the
// position as a game's state for the seat on turn (its rack and the
// tiles it has not seen), the puzzle's number and today's.
type PuzzleInfo struct {
	Lexicon string `json:"lexicon"`
	Number  int    `json:"number"`
	Today   int    `json:"today"`
	// Goal is what to find: "score", the highest-scoring play, or
	// "endgame", the move that ends the game best (GET
	// /api/endgames/{lexicon}/{n}).
	Goal  string `json:"goal"`
	State *State `json:"state"`
	// CGP is the position as a CGP line, for the analysis board.
	CGP string `json:"cgp"`
	// Answered is the signed-in account's first answer to the puzzle.
	Answered *PuzzleResult `json:"answered,omitempty"`
	// Rating is the signed-in account's puzzle rating in the word list
	// (absent before its first answer there).
	Rating *PuzzleRatingInfo `json:"rating,omitempty"`
	// Level is the puzzle's own rating, once the signed-in account has
	// answered it (absent while nobody has).
	Level *PuzzleRatingInfo `json:"level,omitempty"`
}

// PuzzleRatingInfo is a puzzle rating as the API shows it: an account's
// in a word list, or a puzzle's (Number set), with the first answers it
// counts and how many of them solved the puzzle.
type PuzzleRatingInfo struct {
	Name      string `json:"name,omitempty"`
	Lexicon   string `json:"lexicon"`
	Number    int    `json:"number,omitempty"`
	Rating    int    `json:"rating"`
	Deviation int    `json:"deviation"`
	// Provisional is set while the deviation is above
	// rating.ProvisionalRD.
	Provisional bool `json:"provisional,omitempty"`
	Answered    int  `json:"answered"`
	Solved      int  `json:"solved"`
}

// ratingInfos are stored puzzle ratings as the API shows them.
func ratingInfos(rs []store.PuzzleRating) []PuzzleRatingInfo {
	out := make([]PuzzleRatingInfo, len(rs))
	for i := range rs {
		out[i] = *puzzleRatingInfo(&rs[i])
	}
	return out
}

// puzzleRatingInfo is a stored puzzle rating as the API shows it.
func puzzleRatingInfo(r *store.PuzzleRating) *PuzzleRatingInfo {
	return &PuzzleRatingInfo{Name: r.Name, Lexicon: r.Lexicon, Number: r.Number, Rating: int(math.Round(r.R)), Deviation: int(math.Round(r.RD)), Provisional: provisional(r.RD),
		Answered: r.Answered, Solved: r.Solved}
}

// ratePuzzle is the rule of puzzle ratings: a first answer is a game
// between the account and the puzzle, which the account wins when it
// solved the puzzle, rated by Glicko-2 as a rated game is; the account's
// rating deviation grows with the weeks since its last answer in the
// word list (a puzzle's does not: it stays as hard as it was).
func ratePuzzle(solved bool, at time.Time) store.PuzzleRateFunc {
	return func(a, p *store.PuzzleRating) (store.PuzzleRating, store.PuzzleRating, error) {
		for _, r := range []*store.PuzzleRating{a, p} {
			var idle time.Duration // a puzzle's rating does not age
			if r.Number == 0 {
				idle = at.Sub(r.Updated)
			}
			n := startRating(r.Answered > 0, rating.Rating{R: r.R, RD: r.RD, Vol: r.Vol}, idle)
			r.R, r.RD, r.Vol = n.R, n.RD, n.Vol
		}
		score := 0.0
		if solved {
			score = 1
		}
		na, np, err := rating.Game(rating.Rating{R: a.R, RD: a.RD, Vol: a.Vol}, rating.Rating{R: p.R, RD: p.RD, Vol: p.Vol}, score)
		if err != nil {
			return store.PuzzleRating{}, store.PuzzleRating{}, err
		}
		ra, rp := *a, *p
		ra.R, ra.RD, ra.Vol = na.R, na.RD, na.Vol
		rp.R, rp.RD, rp.Vol = np.R, np.RD, np.Vol
		return ra, rp, nil
	}
}

// PuzzleResult is an account's first answer to a puzzle: whether it
// scored the most, its score, or that the solution was asked for first.
type PuzzleResult struct {
	Correct  bool `json:"correct"`
	Score    int  `json:"score,omitempty"`
	Revealed bool `json:"revealed,omitempty"`
	// RatingBefore and RatingAfter are the account's puzzle rating in
	// the word list before and after the answer (absent for an answer
	// made before puzzles were rated).
	RatingBefore int `json:"rating_before,omitempty"`
	RatingAfter  int `json:"rating_after,omitempty"`
}

// PuzzleStats is how an account did at the puzzles, from its first
// answers (the latest puzzleRecords of them): puzzles tried and solved,
// and the days in a row up to today (or yesterday, before today's is
// solved) with a puzzle solved.
type PuzzleStats struct {
	Tried  int `json:"tried"`
	Solved int `json:"solved"`
	Streak int `json:"streak"`
	// Ratings are the account's puzzle ratings, one per word list it
	// answered a puzzle of since puzzles are rated.
	Ratings []PuzzleRatingInfo `json:"ratings"`
	// Rush holds the account's best puzzle rush in each word list and
	// mode it played.
	Rush []RushBestInfo `json:"rush"`
	// EndgamesTried counts the endgame puzzles the account answered,
	// EndgamesSolved those whose first answer found a best move;
	// EndgameRatings are its endgame ratings, one per word list it
	// answered an endgame puzzle of since they are rated.
	EndgamesTried  int                `json:"endgames_tried"`
	EndgamesSolved int                `json:"endgames_solved"`
	EndgameRatings []PuzzleRatingInfo `json:"endgame_ratings"`
}

// puzzleRecords bounds the answers a profile's figures count.
const puzzleRecords = 1000

// puzzleStats works out the figures of an account's answers (by number,
// highest first) and puzzle ratings on day today.
func puzzleStats(rs []store.PuzzleRecord, ratings []store.PuzzleRating, today int) PuzzleStats {
	st := PuzzleStats{Tried: len(rs), Ratings: ratingInfos(ratings), EndgameRatings: []PuzzleRatingInfo{}}
	solved := map[int]bool{}
	for _, r := range rs {
		if r.Correct {
			st.Solved++
			solved[r.Number] = true
		}
	}
	day := today
	if !solved[day] {
		day--
	}
	for solved[day] {
		st.Streak++
		day--
	}
	return st
}

// resultOf is a stored answer as the API shows it.
func resultOf(r *store.PuzzleRecord) *PuzzleResult {
	out := &PuzzleResult{Correct: r.Correct, Score: r.Score}
	if r.Score < 0 {
		out = &PuzzleResult{Revealed: true}
	}
	if r.RAfter != 0 {
		out.RatingBefore, out.RatingAfter = int(math.Round(r.RBefore)), int(math.Round(r.RAfter))
	}
	return out
}

// PuzzleAnswer is the answer of POST /api/puzzles/{lexicon}/{n}/answer:
// the play's preview, and when the rules accept it (or the solution was
// asked for), whether it scores the most, its rank among the position's
// placements by score (1 for the best; ties share a rank), the best
// score, the number of placements and the best of them.
type PuzzleAnswer struct {
	Preview
	Correct   bool        `json:"correct"`
	Rank      int         `json:"rank,omitempty"`
	BestScore int         `json:"best_score,omitempty"`
	Moves     int         `json:"moves,omitempty"`
	Best      []Candidate `json:"best,omitempty"`
	// First is the signed-in account's first answer to the puzzle (this
	// one, or an earlier one, which is the one that counts).
	First *PuzzleResult `json:"first,omitempty"`
	// AnsweredBy and SolvedBy count the accounts that answered the
	// puzzle and those that solved it at their first answer.
	AnsweredBy int `json:"answered_by"`
	SolvedBy   int `json:"solved_by"`
	// Rating is the signed-in account's puzzle rating in the word list
	// after the answer (absent for a guest).
	Rating *PuzzleRatingInfo `json:"rating,omitempty"`
	// Level is the puzzle's own rating (absent while no account has
	// answered it).
	Level *PuzzleRatingInfo `json:"level,omitempty"`
}

// puzzleRequest is the body of POST .../answer and .../preview: the
// tiles put on the board, or (answer only) reveal to see the solution.
type puzzleRequest struct {
	Tiles  []PlacedTile `json:"tiles"`
	Reveal bool         `json:"reveal"`
}

// puzzles holds the puzzles made, by word list and number; past
// puzzleCache of them the one asked for least recently goes.
type puzzles struct {
	mu    sync.Mutex
	m     map[string]*puzzleEntry
	clock uint64
}

// puzzleFor returns puzzle n of word list lexicon, made once.
func (s *Server) puzzleFor(r *http.Request) (*puzzleEntry, error) {
	v, name, n, err := s.puzzleNumber(r)
	if err != nil {
		return nil, err
	}
	return s.cachedPuzzle(r, name+"\x00"+strconv.Itoa(n), v, name, n, func(lex *lexicon.Lexicon, gen movegen.Generator) (*puzzle.Puzzle, error) {
		return puzzle.Make(v, lex, name, n, gen)
	})
}

// puzzleNumber reads the word list and the puzzle's number (or today)
// of a puzzle's address: none is out before its day.
func (s *Server) puzzleNumber(r *http.Request) (*variant.Variant, string, int, error) {
	name := r.PathValue("lexicon")
	v := s.variantOfLexicon(name)
	if v == nil {
		return nil, "", 0, &apiError{404, fmt.Sprintf("no word list %q is offered", short(name, 40))}
	}
	today := puzzle.Today(time.Now())
	ns := r.PathValue("n")
	n, err := strconv.Atoi(ns)
	if ns == "today" {
		n, err = today, nil
	}
	if err != nil || n < 1 || n > puzzle.Max {
		return nil, "", 0, &apiError{404, fmt.Sprintf("puzzles are numbered 1 to %d (or today), not %q", puzzle.Max, short(ns, 20))}
	}
	if n > today {
		return nil, "", 0, &apiError{404, fmt.Sprintf("puzzle %d is not out yet: today's is %d", n, today)}
	}
	return v, name, n, nil
}

// cachedPuzzle returns the puzzle to score of key, made once by mk with
// one of word list name's generators: puzzle number n of variant v's
// list.
func (s *Server) cachedPuzzle(r *http.Request, key string, v *variant.Variant, name string, n int,
	mk func(*lexicon.Lexicon, movegen.Generator) (*puzzle.Puzzle, error)) (*puzzleEntry, error) {
	return s.cachedEntry(r, key, v, name, n, func(p *puzzleEntry, lex *lexicon.Lexicon, gen movegen.Generator) error {
		return p.fillScore(mk, lex, gen)
	})
}

// cachedEntry returns the puzzle of key, made once by fill with one of
// word list name's generators: puzzle number n of variant v's list.
func (s *Server) cachedEntry(r *http.Request, key string, v *variant.Variant, name string, n int,
	fill func(*puzzleEntry, *lexicon.Lexicon, movegen.Generator) error) (*puzzleEntry, error) {
	s.puzzles.mu.Lock()
	p := s.puzzles.m[key]
	s.puzzles.mu.Unlock()
	if p == nil || !p.made.Load() {
		// Making a puzzle plays games: it costs one of the client's
		// analyses (each client that waits for it pays its own), paid
		// before the puzzle takes a place in the cache, so that a
		// request refused evicts no puzzle made.
		if err := s.analysisAllowance(r, 1); err != nil {
			return nil, err
		}
	}
	s.puzzles.mu.Lock()
	if s.puzzles.m == nil {
		s.puzzles.m = map[string]*puzzleEntry{}
	}
	p = s.puzzles.m[key]
	if p == nil {
		if len(s.puzzles.m) >= puzzleCache {
			// The one asked for least recently goes.
			var old string
			for k, q := range s.puzzles.m {
				if old == "" || q.used < s.puzzles.m[old].used {
					old = k
				}
			}
			delete(s.puzzles.m, old)
		}
		p = &puzzleEntry{v: v, lexicon: name, number: n}
		s.puzzles.m[key] = p
	}
	s.puzzles.clock++
	p.used = s.puzzles.clock
	s.puzzles.mu.Unlock()
	p.once.Do(func() {
		defer p.made.Store(true)
		// It waits for a thinking slot, for as long as the server runs:
		// other requests may be waiting for the same puzzle.
		if !s.slot(s.ctx) {
			p.err = &apiError{503, "the server is shutting down"}
			return
		}
		defer func() { <-s.sem }()
		p.err = s.makePuzzle(p, fill)
	})
	if p.err != nil {
		// A failure is not kept: the next request tries again.
		s.puzzles.mu.Lock()
		if s.puzzles.m[key] == p {
			delete(s.puzzles.m, key)
		}
		s.puzzles.mu.Unlock()
		return nil, p.err
	}
	return p, nil
}

// makePuzzle makes puzzle p by fill with one of its word list's
// generators.
func (s *Server) makePuzzle(p *puzzleEntry, fill func(*puzzleEntry, *lexicon.Lexicon, movegen.Generator) error) error {
	lr, err := s.lexiconFor(p.v, p.lexicon)
	if err != nil {
		return err
	}
	gen := lr.getGen()
	defer lr.putGen(gen)
	return fill(p, lr.lex, gen)
}

// fillScore makes p a puzzle to score, made by mk, with its best
// placements rendered.
func (p *puzzleEntry) fillScore(mk func(*lexicon.Lexicon, movegen.Generator) (*puzzle.Puzzle, error), lex *lexicon.Lexicon, gen movegen.Generator) error {
	var err error
	if p.Puzzle, err = mk(lex, gen); err != nil {
		return err
	}
	table, err := leave.Load(p.v, "default", 0)
	if err != nil {
		table = nil
	}
	for k := range p.Best {
		p.best = append(p.best, puzzleCandidate(p.v, p.Game, &p.Best[k], table))
	}
	return nil
}

// puzzleCandidate renders a placement of the puzzle's position, with
// its leave and static equity (score plus the computer's leave value).
func puzzleCandidate(v *variant.Variant, g *game.Game, m *move.Move, table leave.Evaluator) Candidate {
	kept := m.Kept(g.Seats[g.Current()].Rack)
	c := Candidate{Move: m.String(g.Board), Kind: kindNames[move.Place], Score: m.Score, Equity: float64(m.Score),
		Leave: v.Alphabet.Bracketed(kept.InWritingOrder()), Tiles: placedTiles(v, m)}
	if table != nil {
		c.Equity = float64(int((float64(m.Score)+table.Eval(&kept))*100+0.5)) / 100
	}
	return c
}

// state renders the puzzle's position for the seat on turn, as a game's
// state.
func (p *puzzleEntry) state() *State { return stateOfPosition(p.v, p.lexicon, p.game()) }

func (s *Server) handlePuzzle(w http.ResponseWriter, r *http.Request) {
	p, err := s.puzzleFor(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	g := p.Game
	info := PuzzleInfo{Lexicon: p.lexicon, Number: p.number, Today: puzzle.Today(time.Now()), Goal: "score", State: p.state(),
		CGP: cgpOfView(p.v, player.ViewOf(g, g.Current()), p.lexicon)}
	a, err := s.signedIn(r)
	if err == nil && a != nil {
		var rec *store.PuzzleRecord
		rec, err = s.store.PuzzleRecord(r.Context(), a.Key, p.lexicon, p.number)
		if err == nil {
			info.Answered = resultOf(rec)
			info.Level, err = s.puzzleLevel(r.Context(), p.lexicon, p.number)
		} else if errors.Is(err, store.ErrNotFound) {
			err = nil
		}
		if err == nil {
			info.Rating, err = s.puzzleRating(r.Context(), a.Key, p.lexicon)
		}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, info)
}

// readPuzzleRequest reads the body of a puzzle's preview or answer and
// finds the puzzle by find (puzzleFor or endgameFor); on failure it has
// answered.
func (s *Server) readPuzzleRequest(w http.ResponseWriter, r *http.Request, find func(*http.Request) (*puzzleEntry, error)) (*puzzleRequest, *puzzleEntry, bool) {
	data, err := readBody(w, r)
	var req puzzleRequest
	if err == nil {
		err = decodeJSON(data, &req)
	}
	var p *puzzleEntry
	if err == nil {
		p, err = find(r)
	}
	if err != nil {
		s.fail(w, err)
		return nil, nil, false
	}
	return &req, p, true
}

// preview is what a placement would score in the puzzle.
func (p *puzzleEntry) preview(tiles []PlacedTile) (Preview, error) {
	g := p.game()
	return previewOf(g.Board, g.Seats[g.Current()].Rack, g.BagLen(), true, tiles)
}

func (s *Server) handlePuzzlePreview(w http.ResponseWriter, r *http.Request) {
	s.puzzlePreview(w, r, s.puzzleFor)
}

// puzzlePreview answers a preview of the puzzle find finds.
func (s *Server) puzzlePreview(w http.ResponseWriter, r *http.Request, find func(*http.Request) (*puzzleEntry, error)) {
	req, p, ok := s.readPuzzleRequest(w, r, find)
	if !ok {
		return
	}
	out, err := p.preview(req.Tiles)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, out)
}

func (s *Server) handlePuzzleAnswer(w http.ResponseWriter, r *http.Request) {
	req, p, ok := s.readPuzzleRequest(w, r, s.puzzleFor)
	if !ok {
		return
	}
	var err error
	out := PuzzleAnswer{Preview: Preview{Words: [][]string{}}}
	if !req.Reveal {
		if out.Preview, err = p.preview(req.Tiles); err != nil {
			s.fail(w, err)
			return
		}
		if !out.OK {
			// A play the rules refuse shows nothing of the solution.
			writeJSON(w, 200, out)
			return
		}
		out.Rank = p.Rank(out.Score)
		out.Correct = out.Score == p.Scores[0]
	}
	out.BestScore, out.Moves, out.Best = p.Scores[0], len(p.Scores), p.best
	// A signed-in account's first answer is kept (asking for the
	// solution first counts as not solving it).
	a, err := s.signedIn(r)
	if err == nil && a != nil {
		rec := store.PuzzleRecord{Lexicon: p.lexicon, Number: p.number, Correct: out.Correct, Score: out.Score, Answered: time.Now().UTC()}
		if req.Reveal {
			rec.Score = -1
		}
		var first bool
		if first, err = s.store.RecordPuzzle(r.Context(), a.Key, &rec, ratePuzzle(out.Correct, rec.Answered)); err == nil {
			if first {
				out.First = resultOf(&rec)
			} else {
				var old *store.PuzzleRecord
				if old, err = s.store.PuzzleRecord(r.Context(), a.Key, p.lexicon, p.number); err == nil {
					out.First = resultOf(old)
				}
			}
		}
	}
	if err == nil && a != nil {
		out.Rating, err = s.puzzleRating(r.Context(), a.Key, p.lexicon)
	}
	if err == nil {
		out.Level, err = s.puzzleLevel(r.Context(), p.lexicon, p.number)
	}
	if err == nil {
		out.AnsweredBy, out.SolvedBy, err = s.store.PuzzleCounts(r.Context(), p.lexicon, p.number)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, out)
}

// puzzleRating returns an account's puzzle rating in a word list (nil
// before its first rated answer there).
func (s *Server) puzzleRating(ctx context.Context, key, lexicon string) (*PuzzleRatingInfo, error) {
	return ratingIn(lexicon)(s.store.PuzzleRatings(ctx, key))
}

// endgameRating returns an account's endgame rating in a word list (nil
// before its first rated answer to an endgame puzzle there).
func (s *Server) endgameRating(ctx context.Context, key, lexicon string) (*PuzzleRatingInfo, error) {
	return ratingIn(lexicon)(s.store.EndgameRatings(ctx, key))
}

// ratingIn returns a function that picks an account's rating in a word
// list out of its ratings (nil if it has none there).
func ratingIn(lexicon string) func([]store.PuzzleRating, error) (*PuzzleRatingInfo, error) {
	return func(rs []store.PuzzleRating, err error) (*PuzzleRatingInfo, error) {
		if err != nil {
			return nil, err
		}
		for i := range rs {
			if rs[i].Lexicon == lexicon {
				return puzzleRatingInfo(&rs[i]), nil
			}
		}
		return nil, nil
	}
}

// puzzleLevel returns a puzzle's rating (nil while no account has
// answered it).
func (s *Server) puzzleLevel(ctx context.Context, lexicon string, number int) (*PuzzleRatingInfo, error) {
	return levelInfo(s.store.PuzzleLevel(ctx, lexicon, number))
}

// endgameLevel returns an endgame puzzle's rating (nil while no account
// has answered it).
func (s *Server) endgameLevel(ctx context.Context, lexicon string, number int) (*PuzzleRatingInfo, error) {
	return levelInfo(s.store.EndgameLevel(ctx, lexicon, number))
}

// levelInfo is a puzzle's rating as the API shows it (nil for none).
func levelInfo(l *store.PuzzleRating, err error) (*PuzzleRatingInfo, error) {
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return puzzleRatingInfo(l), nil
}

// PuzzleNext is the answer of GET /api/puzzles/{lexicon}/next: a puzzle
// of the word list out by today that the signed-in account has not
// answered, rated nearest its own puzzle rating, with that rating (a
// newcomer's, 1500, for a puzzle nobody has answered); with
// ?kind=endgame, an endgame puzzle by the endgame ratings.
type PuzzleNext struct {
	Lexicon string `json:"lexicon"`
	Number  int    `json:"number"`
	Level   int    `json:"level"`
}

// nextPuzzle picks, among puzzles 1 to today, one not in answered (in
// order), whose rating (levels, by number; a newcomer's for one not
// there) is nearest mine, the latest of those as near; ok is false when
// every one was answered.
func nextPuzzle(today int, mine float64, answered []int, levels []store.PuzzleRating) (n int, level float64, ok bool) {
	rated := make(map[int]float64, len(levels))
	for _, l := range levels {
		rated[l.Number] = l.R
	}
	best := math.Inf(1)
	for k, i := today, len(answered)-1; k >= 1; k-- {
		for i >= 0 && answered[i] > k {
			i--
		}
		if i >= 0 && answered[i] == k {
			continue
		}
		r, has := rated[k]
		if !has {
			r = rating.DefaultR
		}
		if d := math.Abs(r - mine); d < best {
			n, level, ok, best = k, r, true, d
		}
	}
	return n, level, ok
}

// PuzzleLeaderboard is the answer of GET /api/puzzles/{lexicon}/leaders:
// the best puzzle ratings of a word list (with ?kind=endgame the
// endgame ratings), ranked as the games' leaderboard is (by rating less
// twice its deviation).
type PuzzleLeaderboard struct {
	Lexicon string              `json:"lexicon"`
	Kind    string              `json:"kind"`
	Players []*PuzzleRatingInfo `json:"players"`
}

func (s *Server) handlePuzzleLeaders(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("lexicon")
	if s.variantOfLexicon(name) == nil {
		s.fail(w, &apiError{404, fmt.Sprintf("no word list %q is offered", short(name, 40))})
		return
	}
	n, err := queryInt(r.URL.Query(), "n", defaultBoard, 1, maxBoard)
	if err != nil {
		s.fail(w, err)
		return
	}
	kind, err := puzzleKind(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	leaders := s.store.PuzzleLeaderboard
	if kind == "endgame" {
		leaders = s.store.EndgameLeaderboard
	}
	rs, err := leaders(r.Context(), name, n)
	if err != nil {
		s.fail(w, err)
		return
	}
	b := PuzzleLeaderboard{Lexicon: name, Kind: kind, Players: []*PuzzleRatingInfo{}}
	for i := range rs {
		b.Players = append(b.Players, puzzleRatingInfo(&rs[i]))
	}
	writeJSON(w, 200, b)
}

// puzzleKind reads the request's kind= of puzzle: "score" (the default:
// the puzzles to score) or "endgame", with a 400 error for another.
func puzzleKind(r *http.Request) (string, error) {
	switch kind := r.URL.Query().Get("kind"); kind {
	case "", "score":
		return "score", nil
	case "endgame":
		return kind, nil
	default:
		return "", &apiError{400, fmt.Sprintf("kind=%s: want score or endgame", short(kind, 20))}
	}
}

func (s *Server) handlePuzzleNext(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.lookLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("requests", retry))
		return
	}
	name := r.PathValue("lexicon")
	if s.variantOfLexicon(name) == nil {
		s.fail(w, &apiError{404, fmt.Sprintf("no word list %q is offered", short(name, 40))})
		return
	}
	a, err := s.requireSignIn(r, "sign in to be given puzzles at your level")
	if err != nil {
		s.fail(w, err)
		return
	}
	ctx := r.Context()
	kind, err := puzzleKind(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	// The puzzles to score by the puzzle rating, or the endgame puzzles
	// by the endgame rating.
	numbers, levels, own, what := s.store.PuzzleNumbers, s.store.PuzzleLevels, s.puzzleRating, "puzzle"
	if kind == "endgame" {
		numbers, levels, own, what = s.store.EndgameNumbers, s.store.EndgameLevels, s.endgameRating, "endgame puzzle"
	}
	mine := float64(rating.DefaultR)
	answered, err := numbers(ctx, a.Key, name)
	var rated []store.PuzzleRating
	var mr *PuzzleRatingInfo
	if err == nil {
		rated, err = levels(ctx, name)
	}
	if err == nil {
		mr, err = own(ctx, a.Key, name)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	if mr != nil {
		mine = float64(mr.Rating)
	}
	n, level, ok := nextPuzzle(puzzle.Today(time.Now()), mine, answered, rated)
	if !ok {
		s.fail(w, &apiError{404, fmt.Sprintf("you have answered every %s of %s out so far: the next one comes out tomorrow", what, name)})
		return
	}
	writeJSON(w, 200, PuzzleNext{Lexicon: name, Number: n, Level: int(math.Round(level))})
}
