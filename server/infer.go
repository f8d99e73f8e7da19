package server

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"atril/alphabet"
	"atril/move"
	"atril/player"
	"atril/player/leave"
)

// What a placement told the other player: rack inference (see
// player.Infer) on a finished game, from the seat after the mover.

// inferBudget bounds the time an inference weighs leaves; inferCost is
// the analyses of the client's allowance one costs.
const (
	inferBudget = 2 * time.Second
	inferCost   = 5
	maxTau      = 50
)

// InferLetter is a kind of tile and its chances of being among the
// tiles kept: given the move (Held) and by the draw alone (Prior).
type InferLetter struct {
	Tile  Tile    `json:"tile"`
	Held  float64 `json:"held"`
	Prior float64 `json:"prior"`
}

// InferLeave is a leave and its chance given the move.
type InferLeave struct {
	Leave string  `json:"leave"`
	Share float64 `json:"share"`
}

// Inference is the answer of GET /api/games/{id}/infer?move=K.
type Inference struct {
	Move     int     `json:"move"`
	Seat     int     `json:"seat"`
	Observer int     `json:"observer"`
	Tau      float64 `json:"tau"`
	// Kept is the number of tiles kept, Truth the tiles the player
	// really kept (the game is over: its racks are known).
	Kept       int           `json:"kept"`
	Truth      string        `json:"truth"`
	Exact      bool          `json:"exact"`
	Tried      int           `json:"tried"`
	Consistent float64       `json:"consistent"`
	Letters    []InferLetter `json:"letters"`
	Leaves     []InferLeave  `json:"leaves"`
	Millis     int64         `json:"ms"`
}

// handleInfer answers what move K of a finished game, a placement made
// with tiles in the bag, told the seat after its player about the tiles
// that player kept, by the computer players' static values (tau: the
// points below the best a move may be and still be chosen, default 2).
// In a game imported from a file, which records only the movers' racks,
// the next player's rack is the one its own next move records.
func (s *Server) handleInfer(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	k, err := moveParam(q)
	if err != nil {
		s.fail(w, err)
		return
	}
	tau := player.DefaultTau
	if ts := q.Get("tau"); ts != "" {
		if tau, err = strconv.ParseFloat(ts, 64); err != nil || !(tau >= 0 && tau <= maxTau) {
			s.fail(w, &apiError{400, fmt.Sprintf("tau: want points from 0 to %d", maxTau)})
			return
		}
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	rec, g, err := l.replayTo(k)
	if err != nil {
		s.fail(w, err)
		return
	}
	m := rec.Moves[k]
	switch {
	case m.Move.Kind != move.Place || m.Withdrawn:
		s.fail(w, &apiError{400, fmt.Sprintf("move %d is not a placement that stood: only one tells what was kept", k)})
		return
	case g.BagLen() == 0:
		s.fail(w, &apiError{400, fmt.Sprintf("move %d was played with the bag empty: the rack was known", k)})
		return
	}
	table, err := leave.Load(l.v, "default", 0)
	if err != nil {
		s.fail(w, &apiError{409, "this game's variant has no leave values to infer by"})
		return
	}
	seat := g.Current()
	observer := (seat + 1) % len(g.Seats)
	var held *alphabet.Rack
	if l.imported {
		// A file's replay deals the movers' racks only: what the next
		// player held is the rack its own next move records.
		h, ok := rec.HeldAt(observer, k)
		if !ok {
			s.fail(w, &apiError{409, fmt.Sprintf("the file records no move of seat %d after move %d: what it held is not known", observer, k)})
			return
		}
		held = &h
	}
	if !s.takeAnalysis(w, r, inferCost) {
		return
	}
	if !s.slot(r.Context()) {
		return
	}
	truth := m.Move.Kept(g.Seats[seat].Rack)
	start := time.Now()
	gen := l.lr.getGen()
	inf, err := player.InferFrom(gen, g, m.Move, observer, held, table, player.InferOptions{Tau: tau, Seed: l.hdr.Seed ^ uint64(k), Deadline: start.Add(inferBudget)})
	l.lr.putGen(gen)
	<-s.sem
	if err != nil && l.imported {
		// The file's racks do not add up.
		s.fail(w, &apiError{409, short(err.Error(), 200)})
		return
	}
	if err != nil {
		s.fail(w, fmt.Errorf("game %s: %w", l.hdr.ID, err))
		return
	}
	out := Inference{Move: k, Seat: seat, Observer: observer, Tau: tau, Kept: inf.Kept, Truth: l.v.Alphabet.Bracketed(truth.InWritingOrder()),
		Exact: inf.Exact, Tried: inf.Tried, Consistent: round4(inf.Consistent), Letters: []InferLetter{}, Leaves: []InferLeave{}, Millis: time.Since(start).Milliseconds()}
	for _, lo := range inf.Letters {
		out.Letters = append(out.Letters, InferLetter{Tile: l.tile(lo.Tile), Held: round4(lo.Held), Prior: round4(lo.Prior)})
	}
	for _, lv := range inf.Leaves {
		out.Leaves = append(out.Leaves, InferLeave{Leave: l.v.Alphabet.Bracketed(lv.Leave.InWritingOrder()), Share: round4(lv.Share)})
	}
	writeJSON(w, 200, out)
}

// round4 rounds a chance to four places.
func round4(x float64) float64 { return float64(int(x*10000+0.5)) / 10000 }
