package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"atril/lexicon"
	"atril/movegen"
	"atril/puzzle"
	"atril/store"
)

// Puzzle rushes: puzzles one after another, each asking for a play of at
// least a score it names (one of the better plays of the position at
// first, the top play from the ninth on), until the clock runs out (the
// timed mode) or the third miss. A run is kept in the store, so that any
// process sharing it goes on with it; its puzzles are dealt from its seed
// (package puzzle), made as they come up.

// Rules of the rushes.
const (
	rushMisses  = 3               // misses that end a run
	rushTimed   = 5 * time.Minute // the timed mode's clock
	rushGrace   = 2 * time.Second // an answer this late still counts: its way to the server
	rushLeaders = 20              // accounts a leaderboard shows
	rushExport  = exportMost      // runs an account's data holds
	rushIDBytes = 16              // a run's id: its secret
	rushKept    = store.RushGuestKept
)

// rushModes are the modes of a rush, with their clocks (0: none). The
// daily rush (store.RushOnce) is timed and deals the same puzzles to
// everyone on a day (its seed is the day's puzzle number), and an account
// plays it once a day and word list.
var rushModes = map[string]time.Duration{"timed": rushTimed, "survival": 0, store.RushOnce: rushTimed}

// rushModeNames lists the modes for the errors that name them.
const rushModeNames = "timed, survival or daily"

// RushInfo is a puzzle rush as the API shows it: its id (which lets the
// holder answer, so it is kept like a seat's token), the word list and
// mode, the puzzle on turn (from 1) and the score a play must reach
// there, whether that is the position's top score, the puzzles solved and
// missed so far, the misses that end the run, the timed mode's length and
// time left, whether it is over, and while it goes on the puzzle's
// position as a game's state.
type RushInfo struct {
	ID        string `json:"id"`
	Lexicon   string `json:"lexicon"`
	Mode      string `json:"mode"`
	Number    int    `json:"number"`
	Target    int    `json:"target,omitempty"`
	Top       bool   `json:"top,omitempty"`
	Solved    int    `json:"solved"`
	Misses    int    `json:"misses"`
	MaxMisses int    `json:"max_misses"`
	Seconds   int    `json:"seconds,omitempty"`
	LeftMS    int64  `json:"left_ms,omitempty"`
	Over      bool   `json:"over"`
	// Day is a daily rush's day (its puzzle number: 1 January 2026 is 1).
	Day   int    `json:"day,omitempty"`
	State *State `json:"state,omitempty"`
	// Best is the signed-in holder's best run in the word list and mode
	// (this one included; absent for a guest).
	Best *RushBestInfo `json:"best,omitempty"`
}

// RushBestInfo is an account's best run in a word list and mode: the
// puzzles it solved, when it started, and the runs played there.
type RushBestInfo struct {
	Name    string    `json:"name,omitempty"`
	Lexicon string    `json:"lexicon"`
	Mode    string    `json:"mode"`
	Solved  int       `json:"solved"`
	At      time.Time `json:"at"`
	Runs    int       `json:"runs"`
}

// RushRunInfo is a run as an account's data holds it: the word list
// and mode, when it started and ended (zero while it goes on), and the
// puzzles solved and missed.
type RushRunInfo struct {
	Lexicon string    `json:"lexicon"`
	Mode    string    `json:"mode"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitzero"`
	Solved  int       `json:"solved"`
	Misses  int       `json:"misses"`
}

// RushAnswer is the answer of POST /api/rush/{id}/answer: the play's
// preview (a play the rules refuse counts for nothing and shows nothing
// more), or that the puzzle was skipped; then whether the play solved
// it, the score it had to reach, the top score and the best plays, and
// the run after the answer (the next puzzle, or the end).
type RushAnswer struct {
	Preview
	Skipped   bool        `json:"skipped,omitempty"`
	Correct   bool        `json:"correct"`
	Target    int         `json:"target,omitempty"`
	BestScore int         `json:"best_score,omitempty"`
	Best      []Candidate `json:"best,omitempty"`
	Run       *RushInfo   `json:"run,omitempty"`
}

// RushLeaderboard is the answer of GET /api/rush/leaders: the accounts'
// best runs in a word list and mode (the daily rush's: of a day), best
// first.
type RushLeaderboard struct {
	Lexicon string          `json:"lexicon"`
	Mode    string          `json:"mode"`
	Day     int             `json:"day,omitempty"`
	Players []*RushBestInfo `json:"players"`
}

// rushStart is the body of POST /api/rush.
type rushStart struct {
	Lexicon string `json:"lexicon"`
	Mode    string `json:"mode"`
}

// rushRequest is the body of POST /api/rush/{id}/answer and .../preview:
// the puzzle answered (from 1: an answer meant for another puzzle is
// refused) and the tiles put on the board, or skip.
type rushRequest struct {
	Number int          `json:"number"`
	Tiles  []PlacedTile `json:"tiles"`
	Skip   bool         `json:"skip"`
}

// decodeRushStart reads and checks the body of POST /api/rush.
func (s *Server) decodeRushStart(data []byte) (*rushStart, error) {
	var req rushStart
	if err := decodeJSON(data, &req); err != nil {
		return nil, err
	}
	if s.variantOfLexicon(req.Lexicon) == nil {
		return nil, &apiError{400, fmt.Sprintf("lexicon: no word list %q is offered", short(req.Lexicon, 40))}
	}
	if _, ok := rushModes[req.Mode]; !ok {
		return nil, &apiError{400, fmt.Sprintf("mode: %q is not a rush's mode (%s)", short(req.Mode, 20), rushModeNames)}
	}
	return &req, nil
}

// rushBestInfo is a stored best run as the API shows it.
func rushBestInfo(b *store.RushBest) *RushBestInfo {
	return &RushBestInfo{Name: b.Name, Lexicon: b.Lexicon, Mode: b.Mode, Solved: b.Solved, At: b.At, Runs: b.Runs}
}

// rushPuzzle returns puzzle k (from 0) of run.
func (s *Server) rushPuzzle(r *http.Request, run *store.RushRun) (*puzzleEntry, error) {
	v := s.variantOfLexicon(run.Lexicon)
	if v == nil {
		return nil, &apiError{410, fmt.Sprintf("the word list %q of this run is no longer offered", run.Lexicon)}
	}
	k := run.Puzzle
	key := fmt.Sprintf("rush\x00%s\x00%d\x00%d", run.Lexicon, run.Seed, k)
	return s.cachedPuzzle(r, key, v, run.Lexicon, k+1, func(lex *lexicon.Lexicon, gen movegen.Generator) (*puzzle.Puzzle, error) {
		return puzzle.Rush(v, lex, run.Lexicon, run.Seed, k, gen)
	})
}

// rushRun returns the run of the request's id, held by the signed-in
// account or, a guest's run, by whoever has its id; a timed run whose
// clock has run out is ended first. The account is nil for a guest.
func (s *Server) rushRun(r *http.Request, now time.Time) (*store.RushRun, *store.Account, error) {
	id := r.PathValue("id")
	if len(id) != 2*rushIDBytes {
		return nil, nil, &apiError{404, fmt.Sprintf("no rush %q", short(id, 40))}
	}
	run, err := s.store.Rush(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, &apiError{404, fmt.Sprintf("no rush %q (a guest's run is kept %v)", short(id, 40), rushKept)}
	}
	if err != nil {
		return nil, nil, err
	}
	a, err := s.signedIn(r)
	if err != nil {
		return nil, nil, err
	}
	if run.Account != "" && (a == nil || a.Key != run.Account) {
		return nil, nil, &apiError{403, "this rush is another account's: sign in as it to go on"}
	}
	if run.Ended.IsZero() && !run.Deadline.IsZero() && now.After(run.Deadline.Add(rushGrace)) {
		if run, err = s.store.EndRush(r.Context(), id, run.Deadline); err != nil {
			return nil, nil, err
		}
	}
	return run, a, nil
}

// rushInfo renders run as the API shows it at now, with the puzzle on
// turn while it goes on, and the best run of the account a (nil for a
// guest).
func (s *Server) rushInfo(r *http.Request, run *store.RushRun, a *store.Account, now time.Time) (*RushInfo, error) {
	info := &RushInfo{ID: run.ID, Lexicon: run.Lexicon, Mode: run.Mode, Number: run.Puzzle + 1, Solved: run.Solved, Misses: run.Misses,
		MaxMisses: rushMisses, Seconds: int(rushModes[run.Mode] / time.Second), Over: !run.Ended.IsZero()}
	if run.Mode == store.RushOnce {
		info.Day = int(run.Seed)
	}
	if !info.Over {
		if !run.Deadline.IsZero() {
			info.LeftMS = max(run.Deadline.Sub(now).Milliseconds(), 1)
		}
		p, err := s.rushPuzzle(r, run)
		if err != nil {
			return nil, err
		}
		info.State = p.state()
		info.Target = p.RushTarget(run.Puzzle)
		info.Top = info.Target == p.Scores[0]
	}
	if a != nil {
		best, err := s.rushBest(r.Context(), a.Key, run.Lexicon, run.Mode)
		if err != nil {
			return nil, err
		}
		info.Best = best
	}
	return info, nil
}

// rushBest returns an account's best run in a word list and mode (nil
// before its first).
func (s *Server) rushBest(ctx context.Context, key, lexicon, mode string) (*RushBestInfo, error) {
	bs, err := s.store.RushBests(ctx, key)
	if err != nil {
		return nil, err
	}
	for i := range bs {
		if bs[i].Lexicon == lexicon && bs[i].Mode == mode {
			return rushBestInfo(&bs[i]), nil
		}
	}
	return nil, nil
}

func (s *Server) handleRushStart(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r)
	var req *rushStart
	if err == nil {
		req, err = s.decodeRushStart(data)
	}
	var a *store.Account
	if err == nil {
		a, err = s.signedIn(r)
	}
	if err == nil && a == nil && req.Mode == store.RushOnce {
		// The day's puzzles are the same for everyone, and a run ends
		// by listing their answers: a guest's run, which anyone may
		// start again, would give them away before the account's.
		err = &apiError{401, "sign in to play the daily rush: everyone plays the day's puzzles once"}
	}
	if err == nil {
		// A run is stored, a guest's for a day, an account's for good:
		// it counts as a game created.
		if ok, retry := s.createLim.take(s.clientKey(r), time.Now()); !ok {
			err = tooMany("games and rushes started", retry)
		}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	now := time.Now().UTC()
	run := &store.RushRun{ID: randomHex(rushIDBytes), Lexicon: req.Lexicon, Mode: req.Mode, Seed: randomSeed(), Started: now}
	if req.Mode == store.RushOnce {
		run.Seed = uint64(puzzle.Today(now))
	}
	if a != nil {
		run.Account = a.Key
	}
	if d := rushModes[req.Mode]; d > 0 {
		run.Deadline = now.Add(d)
	}
	code := 201
	err = s.store.StartRush(r.Context(), run)
	if errors.Is(err, store.ErrConflict) && a != nil && req.Mode == store.RushOnce {
		// Today's daily rush, started already: on, it goes on.
		run, code, err = s.dailyStarted(r, a, run)
	}
	var info *RushInfo
	if err == nil {
		info, err = s.rushInfo(r, run, a, now)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, code, info)
}

// dailyStarted answers a second start of a daily rush by account a: the
// run started first, if it goes on (200), or a refusal.
func (s *Server) dailyStarted(r *http.Request, a *store.Account, want *store.RushRun) (*store.RushRun, int, error) {
	runs, err := s.store.RushFind(r.Context(), a.Key, want.Lexicon, want.Mode, want.Seed)
	if err != nil {
		return nil, 0, err
	}
	if len(runs) == 0 {
		return nil, 0, fmt.Errorf("daily rush %d of %s: refused as started, but not found", want.Seed, a.Key)
	}
	run := &runs[0]
	if run.Ended.IsZero() && (run.Deadline.IsZero() || time.Now().Before(run.Deadline.Add(rushGrace))) {
		return run, 200, nil
	}
	return nil, 0, &apiError{409, fmt.Sprintf("you played today's daily rush in this word list: %d solved; the next one opens at 00:00 UTC", run.Solved)}
}

func (s *Server) handleRush(w http.ResponseWriter, r *http.Request) {
	now := time.Now().UTC()
	run, a, err := s.rushRun(r, now)
	s.writeRush(w, r, run, a, now, err)
}

// writeRush answers run as it is at now for account a (nil: a guest), or
// err if not nil.
func (s *Server) writeRush(w http.ResponseWriter, r *http.Request, run *store.RushRun, a *store.Account, now time.Time, err error) {
	var info *RushInfo
	if err == nil {
		info, err = s.rushInfo(r, run, a, now)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, info)
}

// readRushRequest reads the body of a rush's answer or preview and finds
// the run and its puzzle on turn; on failure it has answered.
func (s *Server) readRushRequest(w http.ResponseWriter, r *http.Request, now time.Time) (*rushRequest, *store.RushRun, *store.Account, *puzzleEntry, bool) {
	data, err := readBody(w, r)
	var req rushRequest
	if err == nil {
		err = decodeJSON(data, &req)
	}
	var run *store.RushRun
	var a *store.Account
	if err == nil {
		run, a, err = s.rushRun(r, now)
	}
	switch {
	case err != nil:
	case !run.Ended.IsZero():
		err = &apiError{409, fmt.Sprintf("the rush is over: %d solved", run.Solved)}
	case req.Number != run.Puzzle+1:
		err = &apiError{409, fmt.Sprintf("puzzle %d of the rush is not on: puzzle %d is", req.Number, run.Puzzle+1)}
	}
	var p *puzzleEntry
	if err == nil {
		p, err = s.rushPuzzle(r, run)
	}
	if err != nil {
		s.fail(w, err)
		return nil, nil, nil, nil, false
	}
	return &req, run, a, p, true
}

func (s *Server) handleRushPreview(w http.ResponseWriter, r *http.Request) {
	req, _, _, p, ok := s.readRushRequest(w, r, time.Now().UTC())
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

func (s *Server) handleRushAnswer(w http.ResponseWriter, r *http.Request) {
	now := time.Now().UTC()
	req, run, a, p, ok := s.readRushRequest(w, r, now)
	if !ok {
		return
	}
	out := RushAnswer{Preview: Preview{Words: [][]string{}}, Skipped: req.Skip, Target: p.RushTarget(run.Puzzle)}
	if !req.Skip {
		var err error
		if out.Preview, err = p.preview(req.Tiles); err != nil {
			s.fail(w, err)
			return
		}
		if !out.OK {
			// A play the rules refuse is not an answer.
			writeJSON(w, 200, out)
			return
		}
		out.Correct = out.Score >= out.Target
	}
	out.BestScore, out.Best = p.Scores[0], p.best
	var end time.Time
	if !out.Correct && run.Misses+1 >= rushMisses {
		end = now
	}
	run, err := s.store.AdvanceRush(r.Context(), run.ID, run.Puzzle, out.Correct, end)
	if errors.Is(err, store.ErrConflict) {
		err = &apiError{409, fmt.Sprintf("puzzle %d of the rush was answered already", req.Number)}
	}
	if err == nil {
		out.Run, err = s.rushInfo(r, run, a, now)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, out)
}

func (s *Server) handleRushEnd(w http.ResponseWriter, r *http.Request) {
	now := time.Now().UTC()
	run, a, err := s.rushRun(r, now)
	if err == nil && run.Ended.IsZero() {
		run, err = s.store.EndRush(r.Context(), run.ID, now)
	}
	s.writeRush(w, r, run, a, now, err)
}

func (s *Server) handleRushLeaders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name, mode := q.Get("lexicon"), q.Get("mode")
	if s.variantOfLexicon(name) == nil {
		s.fail(w, &apiError{404, fmt.Sprintf("no word list %q is offered", short(name, 40))})
		return
	}
	if _, ok := rushModes[mode]; !ok {
		s.fail(w, &apiError{400, fmt.Sprintf("mode: %q is not a rush's mode (%s)", short(mode, 20), rushModeNames)})
		return
	}
	n, err := queryInt(q, "n", rushLeaders, 1, maxBoard)
	var day int
	if err == nil && mode == store.RushOnce {
		// The daily rush's leaderboard is a day's: today's unless asked.
		today := puzzle.Today(time.Now())
		day, err = queryInt(q, "day", today, 1, today)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	bs, err := s.store.RushLeaders(r.Context(), name, mode, uint64(day), n)
	if err != nil {
		s.fail(w, err)
		return
	}
	b := RushLeaderboard{Lexicon: name, Mode: mode, Day: day, Players: []*RushBestInfo{}}
	for i := range bs {
		b.Players = append(b.Players, rushBestInfo(&bs[i]))
	}
	writeJSON(w, 200, b)
}

// rushBests is an account's best runs as the API shows them.
func rushBests(bs []store.RushBest) []RushBestInfo {
	out := []RushBestInfo{}
	for i := range bs {
		out = append(out, *rushBestInfo(&bs[i]))
	}
	return out
}
