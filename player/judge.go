package player

import (
	"fmt"
	"time"

	"atril/endgame"
	"atril/move"
)

// Verdict compares the move played in a position with the best move the
// strongest analysis finds there, both valued to the same horizon.
type Verdict struct {
	// Phase is "simulation" (tiles in the bag: each move's Mean is the
	// simulation's mean spread to its horizon plus the leave there, Win
	// its chance of winning), "endgame" (the bag empty: Mean is the
	// spread the move gains to the end of the game with best play after
	// it), or "static" (the time ran out before the simulation played
	// one iteration: Mean is the static value, score plus leave).
	Phase        string
	Best, Played Estimate
	// Iterations is the number of candidate-iterations simulated.
	Iterations int
	// Exact is set for an endgame whose two searches both reached the
	// end of the game on every line.
	Exact   bool
	Elapsed time.Duration
	// Candidates are the simulation's estimates, ordered as Analyze
	// orders them (the live candidates by mean, then the eliminated);
	// Endgame is the solved endgame of the position, with its line.
	Candidates []Estimate
	Endgame    *endgame.Result
}

// Lost is the value the played move gave up against the best (0 when it
// was as good).
func (vd *Verdict) Lost() float64 { return max(0, vd.Best.Mean-vd.Played.Mean) }

// Judge values the move played in a two-player position against the best
// move there. With tiles in the bag the simulation player's search
// (o.Candidates by static value, the played move among them whatever its
// rank, each played out o.Plies moves on o.Iterations draws at most
// within o.Budget) picks the best; with the bag empty the endgame is
// solved before and after the played move (within o.EndgameTime or
// o.EndgameNodes each). A placement a challenge took back is judged as
// the pass it amounted to: give a pass.
func Judge(v *View, played move.Move, o Options) (*Verdict, error) {
	if o.Generator == nil {
		return nil, fmt.Errorf("judge: no move generator")
	}
	if len(v.Scores) != 2 {
		return nil, fmt.Errorf("judge: a game of %d players (the searches are for two)", len(v.Scores))
	}
	if v.Unseen.Len() == 0 {
		return nil, fmt.Errorf("judge: no tile unseen, nothing to search")
	}
	if o.Variant == nil {
		o.Variant = v.Board.Variant
	}
	p, err := newValued("godlike", o, true)
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	start := time.Now()
	var vd *Verdict
	if v.BagLen == 0 {
		vd = judgeEndgame(p, v, played)
	} else {
		vd = judgeSimulation(p, v, played)
	}
	vd.Elapsed = time.Since(start)
	return vd, nil
}

// judgeSimulation simulates the best candidates by static value and the
// played move.
func judgeSimulation(p *Valued, v *View, played move.Move) *Verdict {
	k := p.opt.Candidates
	if k <= 0 {
		k = defaultCandidates
	}
	s := &Simulation{Valued: p}
	cands, _ := s.candidates(v, k)
	key := played.Key()
	at := -1
	for i := range cands {
		listExchanged(&cands[i], &v.Rack)
		if cands[i].m.Key() == key {
			at = i
			break
		}
	}
	if at < 0 {
		c := candidate{m: played, leave: played.Kept(v.Rack)}
		c.value = float64(played.Score) + newStaticLeave(v, s.table).Eval(&c.leave)
		cands = append(cands, c)
		at = len(cands) - 1
	}
	vd := &Verdict{Phase: "simulation"}
	if len(cands) == 1 {
		// Nothing to compare with: the played move was the only one.
		e := Estimate{Move: played, Static: cands[0].value, Mean: cands[0].value, Alive: true}
		vd.Best, vd.Played = e, e
		return vd
	}
	best := s.simulate(v, cands)
	if s.Simulated == 0 {
		// Out of time before one whole iteration: the static values.
		vd.Phase, best = "static", 0
		for i := range s.Estimates {
			e := &s.Estimates[i]
			e.Mean, e.Half, e.Alive = e.Static, 0, true
			if e.Mean > s.Estimates[best].Mean {
				best = i
			}
		}
	}
	vd.Best, vd.Played, vd.Iterations = s.Estimates[best], s.Estimates[at], s.Simulated
	vd.Candidates = sortEstimates(s.Estimates)
	return vd
}

// judgeEndgame solves the endgame, and the position after the played
// move from the opponent's side.
func judgeEndgame(p *Valued, v *View, played move.Move) *Verdict {
	_, res, _ := solveEndgame(p.egen, v, p.opt)
	vd := &Verdict{Phase: "endgame", Exact: res.Exact, Endgame: res}
	vd.Best = Estimate{Move: res.Move, Mean: float64(res.Value), Alive: true}
	value, exact := endgame.MoveValue(p.egen, v.Board, v.Rack, v.Unseen, v.LastWasPass, played, endgameOptions(p.opt))
	vd.Exact = vd.Exact && exact
	vd.Played = Estimate{Move: played, Mean: float64(value), Alive: true}
	if !vd.Exact && played.Key() == res.Move.Key() {
		// Two searches cut short may value one move apart.
		vd.Played.Mean = vd.Best.Mean
	}
	return vd
}
