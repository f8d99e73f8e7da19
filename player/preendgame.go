package player

import (
	"math"

	"atril/alphabet"
	"atril/board"
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

// preEndgame chooses a move in a two-player game with one tile in the bag
// (or, with Options.PreEndgameBag 2, two): the best placements by static
// value are each played against every draw the bag may hold and the
// endgames that follow are solved (see PreEndgameSearch). The candidate
// of highest expected spread is played, or with Options.PreEndgameWins
// the one that wins for the largest share of draws (of those, the one of
// highest expected spread). It reports false when the position is not a
// pre-endgame, or the search is off or finds no placement; the caller
// then chooses as usual.
func (p *Valued) preEndgame(v *View) (move.Move, bool) {
	k := p.opt.PreEndgameCandidates
	if !p.endgame || k < 0 || v.BagLen < 1 || v.BagLen > max(p.opt.PreEndgameBag, 1) || len(v.Scores) != 2 || v.Unseen.Len() < 2 {
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
// static value (see preEndgame), in static order, with one tile in the
// bag or two. The search budget of one endgame (Options.EndgameTime or
// EndgameNodes, 2 s when neither is set) is shared equally by all the
// endgames solved.
//
// A placement that empties the bag is played, and for every draw the bag
// may hold (weighted by its chance among the unseen tiles) the endgame
// that follows, the opponent to move with the other unseen tiles, is
// solved. A placement of one tile with two in the bag draws one of them
// and leaves the other for the opponent: for each tile we draw and each
// tile left, the opponent answers with its best move by score plus leave
// (drawing the last tile), and the endgame that follows, us to move, is
// solved.
func (p *Valued) PreEndgameSearch(v *View, k int) []PreEndgame {
	bag := v.BagLen
	if bag < 1 || bag > 2 {
		return nil
	}
	cands, _, _ := rank(p.gen, v, p.table, k)
	var places []candidate
	for _, c := range cands {
		if c.m.Kind == move.Place {
			places = append(places, c)
		}
	}
	if len(places) == 0 {
		return nil
	}
	draws := drawsOf(v.Unseen, bag)
	// After a one-tile placement with two in the bag: the tile we draw
	// and the one left for the opponent, with the chance of the pair.
	type split struct {
		ours, left alphabet.Tile
		w          float64
	}
	var splits []split
	if bag == 2 {
		for _, d := range drawsOf(v.Unseen, 1) {
			rest := v.Unseen
			rest.Remove(d.tiles[0])
			for _, u := range drawsOf(rest, 1) {
				splits = append(splits, split{d.tiles[0], u.tiles[0], d.w * u.w})
			}
		}
	}
	solves := 0
	for _, c := range places {
		if c.m.NewTiles() >= bag {
			solves += len(draws)
		} else {
			solves += len(splits)
		}
	}
	// Many small searches: a smaller table is cheaper to clear.
	eo := endgame.Options{Width: p.opt.EndgameWidth, TableBits: 15, Playout: p.opt.EndgamePlayout}
	t0 := time.Now()
	if eo.Width == 0 {
		// One word list cut down to our tiles and the unseen ones
		// serves every endgame below: their boards follow this one by
		// placements of those tiles. (The restricted minimax of a
		// width searches too few nodes to gain from it.)
		pool := v.Rack
		pool.AddRack(&v.Unseen)
		eo.Words, _ = endgame.NewWords(p.egen, v.Board, pool)
	}
	// A time budget pays for the cut too.
	budget := p.opt.EndgameTime
	if budget <= 0 {
		budget = endgameDefaultTime
	}
	budget = max(budget-time.Since(t0), budget/2)
	switch {
	case p.opt.EndgameNodes > 0:
		eo.NodeLimit = max(p.opt.EndgameNodes/int64(solves), 200)
	default:
		eo.TimeLimit = budget / time.Duration(solves)
	}
	lead := float64(v.Scores[v.Me] - maxOther(v))
	b := v.Board.Clone()
	out := make([]PreEndgame, 0, len(places))
	for _, c := range places {
		pe := PreEndgame{Move: c.m, Static: c.value, Exact: true}
		add := func(w float64, val float64, exact bool) {
			pe.Spread += w * val
			switch {
			case lead+val > 0:
				pe.Wins += w
			case lead+val == 0:
				pe.Wins += w / 2
			}
			pe.Exact = pe.Exact && exact
		}
		b.PlaceLine(c.m.Dir, c.m.Row, c.m.Col, c.m.Tiles, 1000)
		if c.m.NewTiles() >= bag {
			for _, d := range draws {
				mine := c.leave
				opp := v.Unseen
				for _, t := range d.tiles {
					mine.Add(t)
					opp.Remove(t)
				}
				r := endgame.Solve(p.egen, b, opp, mine, false, eo)
				add(d.w, float64(c.m.Score-r.Value), r.Exact)
			}
		} else {
			for _, sp := range splits {
				mine := c.leave
				mine.Add(sp.ours)
				opp := v.Unseen
				opp.Remove(sp.ours)
				opp.Remove(sp.left)
				val, exact := p.replyThenSolve(b, v, mine, opp, sp.left, eo)
				add(sp.w, float64(c.m.Score)+val, exact)
			}
			pe.Exact = false // the opponent's reply is a static choice
		}
		b.Undo()
		out = append(out, pe)
	}
	return out
}

// replyThenSolve plays the opponent's answer to a one-tile placement with
// one tile (last) left in the bag: its best move by score plus leave,
// after which it draws last, and returns our spread from there (minus the
// reply's score plus the solved endgame, us to move). An opponent with
// no placement passes, and the endgame is solved with last left out.
func (p *Valued) replyThenSolve(b *board.Board, v *View, mine, opp alphabet.Rack, last alphabet.Tile, eo endgame.Options) (float64, bool) {
	ov := View{Board: b, Rack: opp, Me: 1 - v.Me, Unseen: mine, BagLen: 1, Scores: v.Scores}
	ov.Unseen.Add(last)
	cs, _, _ := rank(p.gen, &ov, p.table, 1)
	if len(cs) == 0 || cs[0].m.Kind != move.Place {
		r := endgame.Solve(p.egen, b, mine, opp, true, eo)
		return float64(r.Value), r.Exact
	}
	m := cs[0].m
	left := cs[0].leave
	left.Add(last)
	b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000)
	r := endgame.Solve(p.egen, b, mine, left, false, eo)
	b.Undo()
	return float64(r.Value - m.Score), r.Exact
}

// draw is one way the bag may hold its tiles, with its chance.
type draw struct {
	tiles []alphabet.Tile
	w     float64
}

// drawsOf lists the multisets of n tiles (1 or 2) that can be drawn from
// unseen, each with its chance when every tile is equally likely.
func drawsOf(unseen alphabet.Rack, n int) []draw {
	total := float64(unseen.Len())
	var out []draw
	for a, ca := range unseen {
		if ca == 0 {
			continue
		}
		if n == 1 {
			out = append(out, draw{[]alphabet.Tile{alphabet.Tile(a)}, float64(ca) / total})
			continue
		}
		pairs := total * (total - 1) / 2
		if ca >= 2 {
			out = append(out, draw{[]alphabet.Tile{alphabet.Tile(a), alphabet.Tile(a)}, float64(ca) * float64(ca-1) / 2 / pairs})
		}
		for b := a + 1; b < len(unseen); b++ {
			if cb := unseen[b]; cb > 0 {
				out = append(out, draw{[]alphabet.Tile{alphabet.Tile(a), alphabet.Tile(b)}, float64(ca) * float64(cb) / pairs})
			}
		}
	}
	return out
}
