package server

import (
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"atril/game"
	"atril/move"
	"atril/player"
	"atril/player/leave"
	"atril/store"
	"atril/variant"
)

// Puzzles: positions of the computer's own games in which to find the
// highest-scoring play (none ahead of its day). Puzzle n of a word list is the same on every
// server and at every start: its game is played from a seed made of the
// list's name and n by the inhuman player on both seats, and the
// position is the first from a turn the seed picks (3 to 12) where the
// bag still holds a full rack and the best placement scores at least
// puzzleMinBest among at least puzzleMinMoves (another game when that
// one has none). Puzzle numbers count days: number 1 is 1 January 2026
// (UTC), so today's puzzle is the day's number.

// Bounds of puzzles.
const (
	puzzleMinBest  = 30
	puzzleMinMoves = 20
	puzzleCache    = 256       // puzzles kept in memory
	puzzleMax      = 1_000_000 // the highest number
	puzzleShown    = 5         // the best placements an answer shows
)

// puzzleEpoch is the day of puzzle 1.
var puzzleEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// PuzzleToday is the number of the puzzle of the day of t (UTC).
func PuzzleToday(t time.Time) int { return int(t.UTC().Sub(puzzleEpoch)/(24*time.Hour)) + 1 }

// puzzle is a puzzle made: the position (the game before the solver's
// move, read only once made), and every placement's score, best first.
type puzzle struct {
	once    sync.Once
	made    atomic.Bool // once has run
	err     error
	used    uint64 // when last asked for (puzzles.clock; guarded by puzzles.mu)
	v       *variant.Variant
	lexicon string
	number  int
	g       *game.Game
	scores  []int       // every placement's score, highest first
	best    []Candidate // the best placements (puzzleShown of them)
}

// PuzzleInfo is the answer of GET /api/puzzles/{lexicon}/{n}: the
// position as a game's state for the seat on turn (its rack and the
// tiles it has not seen), the puzzle's number and today's.
type PuzzleInfo struct {
	Lexicon string `json:"lexicon"`
	Number  int    `json:"number"`
	Today   int    `json:"today"`
	// Goal is what to find: "score", the highest-scoring play.
	Goal  string `json:"goal"`
	State *State `json:"state"`
	// Answered is the signed-in account's first answer to the puzzle.
	Answered *PuzzleResult `json:"answered,omitempty"`
}

// PuzzleResult is an account's first answer to a puzzle: whether it
// scored the most, its score, or that the solution was asked for first.
type PuzzleResult struct {
	Correct  bool `json:"correct"`
	Score    int  `json:"score,omitempty"`
	Revealed bool `json:"revealed,omitempty"`
}

// PuzzleStats is how an account did at the puzzles, from its first
// answers (the latest puzzleRecords of them): puzzles tried and solved,
// and the days in a row up to today (or yesterday, before today's is
// solved) with a puzzle solved.
type PuzzleStats struct {
	Tried  int `json:"tried"`
	Solved int `json:"solved"`
	Streak int `json:"streak"`
}

// puzzleRecords bounds the answers a profile's figures count.
const puzzleRecords = 1000

// puzzleStats works out the figures of an account's answers (by number,
// highest first) on day today.
func puzzleStats(rs []store.PuzzleRecord, today int) PuzzleStats {
	st := PuzzleStats{Tried: len(rs)}
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
	if r.Score < 0 {
		return &PuzzleResult{Revealed: true}
	}
	return &PuzzleResult{Correct: r.Correct, Score: r.Score}
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
	m     map[string]*puzzle
	clock uint64
}

// puzzleFor returns puzzle n of word list lexicon, made once.
func (s *Server) puzzleFor(r *http.Request) (*puzzle, error) {
	name := r.PathValue("lexicon")
	var v *variant.Variant
	for _, vn := range s.cfg.Variants {
		cand, err := s.loadVariant(vn)
		if err == nil && s.lexiconAllowed(cand, name) {
			v = cand
			break
		}
	}
	if v == nil {
		return nil, &apiError{404, fmt.Sprintf("no word list %q is offered", short(name, 40))}
	}
	today := PuzzleToday(time.Now())
	ns := r.PathValue("n")
	n, err := strconv.Atoi(ns)
	if ns == "today" {
		n, err = today, nil
	}
	if err != nil || n < 1 || n > puzzleMax {
		return nil, &apiError{404, fmt.Sprintf("puzzles are numbered 1 to %d (or today), not %q", puzzleMax, short(ns, 20))}
	}
	if n > today {
		return nil, &apiError{404, fmt.Sprintf("puzzle %d is not out yet: today's is %d", n, today)}
	}
	key := name + "\x00" + strconv.Itoa(n)
	s.puzzles.mu.Lock()
	if s.puzzles.m == nil {
		s.puzzles.m = map[string]*puzzle{}
	}
	p := s.puzzles.m[key]
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
		p = &puzzle{v: v, lexicon: name, number: n}
		s.puzzles.m[key] = p
	}
	s.puzzles.clock++
	p.used = s.puzzles.clock
	s.puzzles.mu.Unlock()
	if !p.made.Load() {
		// Making a puzzle plays games: it costs one of the client's
		// analyses (each client that waits for it pays its own).
		if err := s.analysisAllowance(r, 1); err != nil {
			return nil, err
		}
	}
	p.once.Do(func() {
		defer p.made.Store(true)
		// It waits for a thinking slot, for as long as the server runs:
		// other requests may be waiting for the same puzzle.
		if !s.slot(s.ctx) {
			p.err = &apiError{503, "the server is shutting down"}
			return
		}
		defer func() { <-s.sem }()
		p.err = s.makePuzzle(p)
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

// makePuzzle plays the games of puzzle p until one has a position fit
// for it.
func (s *Server) makePuzzle(p *puzzle) error {
	lr, err := s.lexiconFor(p.v, p.lexicon)
	if err != nil {
		return err
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "atril puzzle %s %d", p.lexicon, p.number)
	seed := h.Sum64()
	from := 3 + int(seed%10)
	gen := lr.getGen()
	defer lr.putGen(gen)
	table, err := leave.Load(p.v, "default", 0)
	if err != nil {
		table = nil
	}
	for attempt := range uint64(100) {
		gs := seed + attempt*0x9e3779b97f4a7c15
		g, err := game.New(p.v, lr.lex, []string{"1", "2"}, gs)
		if err != nil {
			return fmt.Errorf("puzzle %s %d: %w", p.lexicon, p.number, err)
		}
		var bots [2]player.Player
		for i := range bots {
			if bots[i], err = player.New("inhuman", player.Options{Variant: p.v, Lexicon: lr.lex, Generator: gen, Seed: gs + uint64(i)}); err != nil {
				return fmt.Errorf("puzzle %s %d: %w", p.lexicon, p.number, err)
			}
		}
		for !g.Over() && g.BagLen() >= p.v.RackSize {
			i := g.Current()
			if g.MovesPlayed() >= from && g.Seats[i].Rack.Len() == p.v.RackSize {
				var scores []int
				var best []move.Move
				gen.Generate(g.Board, &g.Seats[i].Rack, func(m *move.Move) {
					if m.Kind != move.Place {
						return
					}
					scores = append(scores, m.Score)
					if len(best) < puzzleShown || m.Score > best[len(best)-1].Score {
						c := *m
						c.Tiles = slices.Clone(m.Tiles)
						best = append(best, c)
						slices.SortStableFunc(best, func(a, b move.Move) int { return b.Score - a.Score })
						best = best[:min(len(best), puzzleShown)]
					}
				})
				if len(scores) >= puzzleMinMoves && len(best) > 0 && best[0].Score >= puzzleMinBest {
					slices.SortFunc(scores, func(a, b int) int { return b - a })
					p.g, p.scores = g, scores
					for k := range best {
						p.best = append(p.best, puzzleCandidate(p.v, g, &best[k], table))
					}
					return nil
				}
			}
			view := player.ViewOf(g, i)
			if err := g.Play(bots[i].Choose(view)); err != nil {
				return fmt.Errorf("puzzle %s %d: game %d: %w", p.lexicon, p.number, attempt, err)
			}
		}
	}
	return fmt.Errorf("puzzle %s %d: no position found in 100 games", p.lexicon, p.number)
}

// puzzleCandidate renders a placement of the puzzle's position, with
// its leave and static equity (score plus the computer's leave value).
func puzzleCandidate(v *variant.Variant, g *game.Game, m *move.Move, table leave.Evaluator) Candidate {
	kept := g.Seats[g.Current()].Rack
	sq, ts := m.Placed()
	for _, t := range ts {
		kept.Remove(t)
	}
	c := Candidate{Move: m.String(g.Board), Kind: kindNames[move.Place], Score: m.Score, Equity: float64(m.Score),
		Leave: v.Alphabet.Bracketed(kept.InWritingOrder())}
	if table != nil {
		c.Equity = float64(int((float64(m.Score)+table.Eval(&kept))*100+0.5)) / 100
	}
	l := &live{v: v}
	for k, t := range ts {
		x := l.tile(t)
		x.Row, x.Col = intp(sq[k][0]), intp(sq[k][1])
		c.Tiles = append(c.Tiles, x)
	}
	return c
}

// state renders the puzzle's position for the seat on turn, as a game's
// state.
func (p *puzzle) state() *State {
	l := &live{v: p.v, g: p.g, hdr: store.Game{ID: "", Lexicon: p.lexicon, Seats: make([]store.Seat, len(p.g.Seats))},
		log: &notifLog{}}
	for i := range p.g.Seats {
		l.seat = append(l.seat, &seat{name: strconv.Itoa(i + 1), taken: true})
	}
	return l.state(p.g.Current())
}

func (s *Server) handlePuzzle(w http.ResponseWriter, r *http.Request) {
	p, err := s.puzzleFor(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	info := PuzzleInfo{Lexicon: p.lexicon, Number: p.number, Today: PuzzleToday(time.Now()), Goal: "score", State: p.state()}
	a, err := s.signedIn(r)
	if err == nil && a != nil {
		var rec *store.PuzzleRecord
		rec, err = s.store.PuzzleRecord(r.Context(), a.Key, p.lexicon, p.number)
		if err == nil {
			info.Answered = resultOf(rec)
		} else if errors.Is(err, store.ErrNotFound) {
			err = nil
		}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, info)
}

// readPuzzleRequest reads the body of a puzzle's preview or answer and
// finds the puzzle; on failure it has answered.
func (s *Server) readPuzzleRequest(w http.ResponseWriter, r *http.Request) (*puzzleRequest, *puzzle, bool) {
	data, err := readBody(w, r)
	var req puzzleRequest
	if err == nil {
		err = decodeJSON(data, &req)
	}
	var p *puzzle
	if err == nil {
		p, err = s.puzzleFor(r)
	}
	if err != nil {
		s.fail(w, err)
		return nil, nil, false
	}
	return &req, p, true
}

// preview is what a placement would score in the puzzle.
func (p *puzzle) preview(tiles []PlacedTile) (Preview, error) {
	return previewOf(p.g.Board, p.g.Seats[p.g.Current()].Rack, p.g.BagLen(), true, tiles)
}

func (s *Server) handlePuzzlePreview(w http.ResponseWriter, r *http.Request) {
	req, p, ok := s.readPuzzleRequest(w, r)
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
	req, p, ok := s.readPuzzleRequest(w, r)
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
		// The rank: one more than the placements scoring more.
		k := slices.IndexFunc(p.scores, func(sc int) bool { return sc <= out.Score })
		if k < 0 {
			k = len(p.scores) // cannot be: a legal placement is one of the position's
		}
		out.Rank = k + 1
		out.Correct = out.Score == p.scores[0]
	}
	out.BestScore, out.Moves, out.Best = p.scores[0], len(p.scores), p.best
	// A signed-in account's first answer is kept (asking for the
	// solution first counts as not solving it).
	a, err := s.signedIn(r)
	if err == nil && a != nil {
		rec := store.PuzzleRecord{Lexicon: p.lexicon, Number: p.number, Correct: out.Correct, Score: out.Score, Answered: time.Now().UTC()}
		if req.Reveal {
			rec.Score = -1
		}
		var first bool
		if first, err = s.store.RecordPuzzle(r.Context(), a.Key, rec); err == nil {
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
	if err == nil {
		out.AnsweredBy, out.SolvedBy, err = s.store.PuzzleCounts(r.Context(), p.lexicon, p.number)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, out)
}
