package player

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"atril/endgame"
	"atril/move"
)

// Analysis is what Analyze found about a position.
type Analysis struct {
	// Phase is "static" (candidates by score plus leave), "simulation",
	// "preendgame" (one tile in the bag, or two with
	// Options.PreEndgameBag 2) or "endgame" (bag empty).
	Phase string
	// Candidates of the static and simulation phases, best first: the
	// live candidates by mean, then the eliminated ones by mean (by
	// static value in the static phase).
	Candidates []Estimate
	// PreEndgame holds the pre-endgame candidates in the order the
	// player chooses: best expected spread first, or with
	// Options.PreEndgameWins largest share of draws won first, ties by
	// expected spread.
	PreEndgame []PreEndgame
	// Endgame is the solved endgame, with its line of play.
	Endgame *endgame.Result
	// Iterations is the number of candidate-iterations simulated.
	Iterations int
	Elapsed    time.Duration
}

// Analyze ranks the moves of the player on turn in v: with the bag empty
// (two players) by solving the endgame, with one tile in it by the
// pre-endgame search, otherwise by static value or, with simulate set,
// by the simulation player's search. o configures the search as it does
// the players (Budget bounds the simulation; EndgameTime or EndgameNodes
// the endgame searches); top limits the static list (0: Candidates).
func Analyze(v *View, o Options, simulate bool, top int) (*Analysis, error) {
	if o.Generator == nil {
		return nil, fmt.Errorf("analyze: no move generator")
	}
	if o.Variant == nil {
		o.Variant = v.Board.Variant
	}
	p, err := newValued("godlike", o, true)
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	start := time.Now()
	a := &Analysis{}
	two := len(v.Scores) == 2
	switch {
	case v.BagLen == 0 && two && v.Unseen.Len() > 0:
		a.Phase = "endgame"
		_, res, _ := solveEndgame(p.gen, v, p.opt)
		a.Endgame = res
	case (v.BagLen == 1 || v.BagLen == 2 && o.PreEndgameBag == 2) && two && v.Unseen.Len() > v.BagLen:
		a.Phase = "preendgame"
		k := o.PreEndgameCandidates
		if k <= 0 {
			k = defaultPreEndgameCandidates
		}
		a.PreEndgame = p.PreEndgameSearch(v, k)
		// The order in which preEndgame chooses.
		sort.SliceStable(a.PreEndgame, func(i, j int) bool {
			x, y := &a.PreEndgame[i], &a.PreEndgame[j]
			if o.PreEndgameWins && math.Abs(x.Wins-y.Wins) > 1e-9 {
				return x.Wins > y.Wins
			}
			return x.Spread > y.Spread
		})
	default:
		k := o.Candidates
		if k <= 0 {
			k = defaultCandidates
		}
		if !simulate && top > 0 {
			k = top
		}
		s := &Simulation{Valued: p}
		cands, _ := s.candidates(v, k)
		if !simulate || len(cands) < 2 || v.Unseen.Len() == 0 {
			a.Phase = "static"
			for _, c := range cands {
				a.Candidates = append(a.Candidates, Estimate{Move: c.m, Static: c.value, Mean: c.value, Alive: true})
			}
			break
		}
		a.Phase = "simulation"
		s.simulate(v, cands)
		a.Candidates = sortEstimates(s.Estimates)
		a.Iterations = s.Simulated
	}
	a.Elapsed = time.Since(start)
	return a, nil
}

// sortEstimates orders a simulation's estimates as an analysis lists
// them: the live candidates by mean, then the eliminated ones by mean.
// It returns a sorted copy.
func sortEstimates(es []Estimate) []Estimate {
	out := slices.Clone(es)
	sort.SliceStable(out, func(i, j int) bool {
		x, y := &out[i], &out[j]
		if x.Alive != y.Alive {
			return x.Alive
		}
		return x.Mean > y.Mean
	})
	return out
}

// Best is the move the analysis recommends (a pass when it has none).
func (a *Analysis) Best() move.Move {
	switch {
	case a.Endgame != nil:
		return a.Endgame.Move
	case len(a.PreEndgame) > 0:
		return a.PreEndgame[0].Move
	case len(a.Candidates) > 0:
		return a.Candidates[0].Move
	}
	return move.Move{Kind: move.Pass}
}
