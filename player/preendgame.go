package player

import (
	"math"

	"atril/alphabet"
	"atril/endgame"
	"atril/move"
	"time"
)

// defaultPreEndgameCandidates is the number of placements the pre-endgame
// search solves when Options.PreEndgameCandidates is 0.
const defaultPreEndgameCandidates = 8

// PreEndgame is what the pre-endgame search found for one candidate.
type PreEndgame struct {
	Move move.Move
	// Static is the candidate's score plus leave.
	Static float64
	// Spread is the expected spread from here to the end (the
	// candidate's score minus the endgame value for the opponent),
	// weighted over the tiles the bag may hold; Wins the weighted share
	// of those in which we end ahead (ties count half).
	Spread, Wins float64
	// Exact is set when every endgame was solved to the end.
	Exact bool
}

// preEndgame chooses a move with one tile in the bag of a two-player
// game: for each of the best placements by static value and each tile
// the bag may hold (weighted by how many of it are unseen), the
// candidate is played, we draw that tile, and the endgame that follows
// (the opponent to move, holding the other unseen tiles) is solved. The
// candidate of highest expected spread is played, or with
// Options.PreEndgameWins the one that wins for the most tiles (of those,
// the one of highest expected spread). It
// reports false when the position is not a pre-endgame, or the search is
// off or finds no placement; the caller then chooses as usual.
func (p *Valued) preEndgame(v *View) (move.Move, bool) {
	k := p.opt.PreEndgameCandidates
	if !p.endgame || k < 0 || v.BagLen != 1 || len(v.Scores) != 2 || v.Unseen.Len() < 2 {
		return move.Move{}, false
	}
	if k == 0 {
		k = defaultPreEndgameCandidates
	}
	res := p.PreEndgameSearch(v, k)
	if len(res) == 0 {
		return move.Move{}, false
	}
	best := 0
	for i := range res {
		a, b := res[i].Spread, res[best].Spread
		if p.opt.PreEndgameWins && math.Abs(res[i].Wins-res[best].Wins) > 1e-9 {
			a, b = res[i].Wins, res[best].Wins
		}
		if a > b {
			best = i
		}
	}
	p.found = len(res)
	return res[best].Move, true
}

// PreEndgameSearch solves the pre-endgame for the best k placements by
// static value (see preEndgame), in static order. The search budget of
// one endgame (Options.EndgameTime or EndgameNodes, 2 s when neither is
// set) is shared equally by all the endgames solved.
func (p *Valued) PreEndgameSearch(v *View, k int) []PreEndgame {
	cands, _ := rank(p.gen, v, p.table, k)
	var places []candidate
	for _, c := range cands {
		if c.m.Kind == move.Place {
			places = append(places, c)
		}
	}
	if len(places) == 0 {
		return nil
	}
	var letters []alphabet.Tile
	for t, c := range v.Unseen {
		if c > 0 {
			letters = append(letters, alphabet.Tile(t))
		}
	}
	solves := len(places) * len(letters)
	// Many small searches: a smaller table is cheaper to clear.
	eo := endgame.Options{Width: p.opt.EndgameWidth, TableBits: 15, Playout: p.opt.EndgamePlayout}
	switch {
	case p.opt.EndgameNodes > 0:
		eo.NodeLimit = max(p.opt.EndgameNodes/int64(solves), 200)
	case p.opt.EndgameTime > 0:
		eo.TimeLimit = p.opt.EndgameTime / time.Duration(solves)
	default:
		eo.TimeLimit = endgameDefaultTime / time.Duration(solves)
	}
	lead := float64(v.Scores[v.Me] - maxOther(v))
	total := float64(v.Unseen.Len())
	b := v.Board.Clone()
	out := make([]PreEndgame, 0, len(places))
	for _, c := range places {
		pe := PreEndgame{Move: c.m, Static: c.value, Exact: true}
		b.PlaceLine(c.m.Dir, c.m.Row, c.m.Col, c.m.Tiles, 1000)
		for _, t := range letters {
			w := float64(v.Unseen[t]) / total
			mine := c.leave
			mine.Add(t)
			opp := v.Unseen
			opp.Remove(t)
			r := endgame.Solve(p.gen, b, opp, mine, false, eo)
			val := float64(c.m.Score - r.Value)
			pe.Spread += w * val
			switch {
			case lead+val > 0:
				pe.Wins += w
			case lead+val == 0:
				pe.Wins += w / 2
			}
			pe.Exact = pe.Exact && r.Exact
		}
		b.Undo()
		out = append(out, pe)
	}
	return out
}
