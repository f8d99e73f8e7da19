package player

import (
	"fmt"
	"math"

	"atril/alphabet"
	"atril/endgame"
	"atril/move"
	"atril/movegen"
	"atril/player/leave"
	"atril/variant"
)

// Valued plays the move of highest score plus rack-leave value, and
// considers exchanges (the inhuman of Pícek 2008, 7.4). With the endgame switched on
// it solves the game once the bag is empty (its godlike).
type Valued struct {
	name    string
	gen     movegen.Generator
	egen    movegen.Generator // of the endgame and pre-endgame searches
	opt     Options
	table   leave.Evaluator
	bound   *variant.Variant
	endgame bool
	found   int
	// Last is the endgame result of the last choice made by search.
	Last *endgame.Result
}

func newValued(name string, o Options, eg bool) (*Valued, error) {
	p := &Valued{name: name, gen: o.Generator, egen: o.EndgameGenerator, opt: o, endgame: eg}
	if p.egen == nil {
		p.egen = o.Generator
	}
	if o.Variant != nil {
		if err := p.bind(o.Variant); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// bind picks the leave table for the variant.
func (p *Valued) bind(v *variant.Variant) error {
	p.bound = v
	if p.opt.LeaveTable != nil {
		p.table = p.opt.LeaveTable
		return nil
	}
	t, err := leave.Load(v, p.opt.Leave, p.opt.Balance)
	if err != nil {
		return fmt.Errorf("player %s: %w", p.name, err)
	}
	p.table = t
	return nil
}

// Name implements Player.
func (p *Valued) Name() string { return p.name }

// MovesFound implements Counter.
func (p *Valued) MovesFound() int { return p.found }

// Choose implements Player.
func (p *Valued) Choose(v *View) move.Move {
	if p.bound != v.Board.Variant {
		if err := p.bind(v.Board.Variant); err != nil {
			p.table = nil // unknown variant: play on score alone
		}
	}
	if p.endgame && v.BagLen == 0 && len(v.Scores) == 2 && v.Unseen.Len() > 0 {
		m, res, n := solveEndgame(p.egen, v, p.opt)
		p.found, p.Last = n, res
		return m
	}
	if m, ok := p.preEndgame(v); ok {
		return m
	}
	ranked, n, _ := rank(p.gen, v, p.table, 1)
	p.found = n
	if len(ranked) == 0 {
		return move.Move{Kind: move.Pass}
	}
	return ranked[0].m
}

// candidate is a move with its static value.
type candidate struct {
	m     move.Move
	value float64
	leave alphabet.Rack
}

// staticLeave is the value of the tiles kept after a placement, as
// inhuman counts it: the leave table's value while the bag has tiles;
// with the bag empty, minus the tiles kept, and going out earns the
// unseen tiles twice. It is the leave of best-by-equity generation, so
// a placement's static value is its score plus staticLeave.
type staticLeave struct {
	v      *View
	t      leave.Evaluator // nil: no leave term
	unseen float64         // twice the score of the unseen tiles
	// The last EvalSubRacks answer (rank values the exchanges, and
	// the search's leave bounds the same sub-racks again).
	last     alphabet.Rack
	lastVals []float64
}

func newStaticLeave(v *View, t leave.Evaluator) *staticLeave {
	return &staticLeave{v: v, t: t, unseen: 2 * float64(v.Unseen.Value(v.Board.Variant.Scores))}
}

var _ movegen.SubRackLeave = (*staticLeave)(nil)

// The tables never change: searches may keep their values.
var (
	_ movegen.FixedLeave = (*leave.Table)(nil)
	_ movegen.FixedLeave = (*leave.Exhaustive)(nil)
)

// EvalSubRacks implements movegen.SubRackLeave: with the bag empty
// itself, while it has tiles when the table does.
func (s *staticLeave) EvalSubRacks(rack *alphabet.Rack, out []float64) bool {
	if s.v.BagLen == 0 {
		return s.endSubRacks(rack, out)
	}
	sl, ok := s.t.(movegen.SubRackLeave)
	if !ok {
		return false
	}
	if s.lastVals != nil && *rack == s.last && len(out) == len(s.lastVals) {
		copy(out, s.lastVals)
		return true
	}
	if !sl.EvalSubRacks(rack, out) {
		return false
	}
	s.last, s.lastVals = *rack, append(s.lastVals[:0], out...)
	return true
}

// endSubRacks is EvalSubRacks with the bag empty: minus the points of
// the tiles kept, and the unseen tiles' for keeping none (going out).
// An odometer over the counts kept (the first tile's fastest) keeps the
// points kept as it goes.
func (s *staticLeave) endSubRacks(rack *alphabet.Rack, out []float64) bool {
	scores := s.v.Board.Variant.Scores
	var counts, pts, kept [8]int
	n, size := 0, 1
	for t, c := range rack {
		if c == 0 {
			continue
		}
		if n == len(counts) {
			return false
		}
		counts[n] = int(c)
		if t < len(scores) {
			pts[n] = scores[t]
		}
		size *= int(c) + 1
		n++
	}
	if len(out) < size {
		return false
	}
	out[0] = s.unseen
	sum := 0
	for i := 1; i < size; i++ {
		for j := 0; j < n; j++ {
			if kept[j] < counts[j] {
				kept[j]++
				sum += pts[j]
				break
			}
			sum -= kept[j] * pts[j]
			kept[j] = 0
		}
		out[i] = -float64(sum)
	}
	return true
}

// Eval implements movegen.Leave.
func (s *staticLeave) Eval(kept *alphabet.Rack) float64 {
	if s.v.BagLen == 0 {
		if kept.Len() == 0 {
			return s.unseen
		}
		return -float64(kept.Value(s.v.Board.Variant.Scores))
	}
	if s.t == nil {
		return 0
	}
	return s.t.Eval(kept)
}

// rank values the best placements by best-by-equity generation and, when
// the bag allows, every exchange, and returns the best keep of them (all
// when keep ≤ 0), best first, with the number of placements the
// generator ranked and the best exchange (nil when none is allowed).
func rank(gen movegen.Generator, v *View, t leave.Evaluator, keep int) ([]candidate, int, *candidate) {
	var out []candidate
	var bestExchange *candidate
	floor := math.Inf(-1)
	sl := newStaticLeave(v, t)
	if v.BagLen >= v.Board.Variant.ExchangeMinBag && v.BagLen > 0 && t != nil && !exchangeLoop(v) {
		// The exchanges first: the keep-th best of them is the floor of
		// the placements worth ranking. With tiles in the bag sl values
		// them as t does, and keeps the values for the search.
		// EachSubRack visits the sub-racks in SubIndex order; keeping
		// the whole rack (the last) exchanges nothing.
		whole, i := v.Rack.SubIndex(&v.Rack), -1
		movegen.EachSubRack(&v.Rack, sl, func(kept *alphabet.Rack, val float64) {
			if i++; i == whole || v.Rack.Len()-kept.Len() > v.BagLen {
				// (An exchange draws as many tiles as it puts back.)
				return
			}
			if keep > 0 && len(out) >= keep && val < out[len(out)-1].value {
				// Below the list: most exchanges stop here.
				return
			}
			// An exchange's tiles are listed only when a tie needs them
			// (exchanges of equal value are ordered by the tiles they
			// put back) and for those kept at the end.
			c := candidate{m: move.Move{Kind: move.Exchange}, value: val, leave: *kept}
			for j := range out {
				if out[j].value == val {
					listExchanged(&out[j], &v.Rack)
					listExchanged(&c, &v.Rack)
				}
			}
			if keep > 0 && len(out) >= keep && !better(val, &c.m, &out[len(out)-1]) {
				return
			}
			out = insert(out, c, keep)
		})
		for j := range out {
			listExchanged(&out[j], &v.Rack)
		}
		if len(out) > 0 {
			e := out[0]
			bestExchange = &e
		}
		if keep > 0 && len(out) >= keep {
			floor = out[keep-1].value
		}
	}
	placements := movegen.SearchFrom(gen, v.Board, &v.Rack, sl, keep, floor)
	for i := range placements {
		p := &placements[i]
		if keep > 0 && len(out) >= keep && !better(p.Equity, &p.Move, &out[len(out)-1]) {
			break
		}
		out = insert(out, candidate{m: p.Move, value: p.Equity, leave: p.Move.Kept(v.Rack)}, keep)
	}
	return out, len(placements), bestExchange
}

// exchangeLoop reports whether the game has gone two whole rounds
// without a score under rules that no run of scoreless turns ends (the
// Czech and Spanish rules end a game on passes alone). Players who keep
// exchanging, each holding a leave its table values above every
// placement, would then never end the game, so the static players only
// place or pass until someone scores: a run of placements ends, as the
// board fills, and under those rules passes end the game.
func exchangeLoop(v *View) bool {
	return v.Board.Variant.ScorelessTurns == 0 && v.ScorelessTurns >= 2*len(v.Scores)
}

// listExchanged sets the tiles an exchange candidate puts back, from the
// rack and the tiles it keeps, unless they are set.
func listExchanged(c *candidate, rack *alphabet.Rack) {
	if c.m.Kind == move.Exchange && c.m.Exchanged == nil {
		c.m.Exchanged = exchanged(rack, &c.leave)
	}
}

// exchanged lists the tiles of rack that kept does not hold, in code
// order: what an exchange keeping kept puts back.
func exchanged(rack, kept *alphabet.Rack) []alphabet.Tile {
	ex := make([]alphabet.Tile, 0, 8)
	for i, c := range rack {
		for j := int(kept[i]); j < int(c); j++ {
			ex = append(ex, alphabet.Tile(i))
		}
	}
	return ex
}

// better orders candidates: higher value, then placements before
// exchanges, then the fixed tie-break.
func better(val float64, m *move.Move, c *candidate) bool {
	if val != c.value {
		return val > c.value
	}
	if m.Kind != c.m.Kind {
		return m.Kind < c.m.Kind
	}
	if m.Kind == move.Exchange {
		return len(m.Exchanged) < len(c.m.Exchanged) ||
			(len(m.Exchanged) == len(c.m.Exchanged) && string(m.Exchanged) < string(c.m.Exchanged))
	}
	return movegen.Less(m, &c.m)
}

// insert puts c in its place in the sorted list, keeping at most keep.
func insert(out []candidate, c candidate, keep int) []candidate {
	i := len(out)
	for i > 0 && better(c.value, &c.m, &out[i-1]) {
		i--
	}
	out = append(out, candidate{})
	copy(out[i+1:], out[i:])
	out[i] = c
	if keep > 0 && len(out) > keep {
		out = out[:keep]
	}
	return out
}

// endgameOptions is the endgame search o asks for: its limits, or the
// default time when it gives none.
func endgameOptions(o Options) endgame.Options {
	eo := endgame.Options{Width: o.EndgameWidth, TimeLimit: o.EndgameTime, NodeLimit: o.EndgameNodes, Playout: o.EndgamePlayout,
		Threads: o.EndgameThreads}
	if eo.TimeLimit == 0 && eo.NodeLimit == 0 {
		eo.TimeLimit = endgameDefaultTime
	}
	return eo
}

// solveEndgame runs the endgame search; with the bag empty the unseen
// tiles are exactly the opponent's rack, so this reads nothing hidden.
func solveEndgame(gen movegen.Generator, v *View, o Options) (move.Move, *endgame.Result, int) {
	res := endgame.Solve(gen, v.Board, v.Rack, v.Unseen, v.LastWasPass, endgameOptions(o))
	if res.Move.Kind == move.Place {
		// Belt and braces: never hand the game an illegal move.
		m := res.Move
		if err := move.Validate(v.Board, &v.Rack, &m, v.BagLen); err != nil {
			res.Move = move.Move{Kind: move.Pass}
			if best, ok := movegen.Best(gen, v.Board, &v.Rack); ok {
				res.Move = best
			}
		}
	}
	n := 0
	gen.Generate(v.Board, &v.Rack, func(*move.Move) { n++ })
	return res.Move, &res, n
}
