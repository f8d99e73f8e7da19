package player

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"atril/alphabet"
	"atril/game"
	"atril/move"
	"atril/movegen"
	"atril/player/leave"
)

// Rack inference: what a placement tells the other players about the
// tiles its player kept. A player who plays by static value (score plus
// the value of the tiles kept) chooses the move of highest value for its
// rack, so the racks it could have held are those for which the move it
// played is within Tau points of the best, each as likely as drawing it.
// Weighing every leave the unseen tiles allow gives what the kept tiles
// probably are: the established engines offer the same analysis, as
// rack inference; this one enumerates the leaves exactly when they are
// few and samples them otherwise.

// InferOptions configure Infer; the zero value takes the defaults.
type InferOptions struct {
	// Tau is how many points below the best static value a move may be
	// and still be the player's choice (0: DefaultTau; negative: exactly
	// the best).
	Tau float64
	// MaxExact is the most distinct leaves weighed one by one (0:
	// DefaultInferExact); with more, Samples leaves are drawn at random.
	MaxExact int
	// Samples is how many leaves are drawn when they are too many to
	// weigh (0: DefaultInferSamples).
	Samples int
	// Seed seeds the draws.
	Seed uint64
	// Deadline, if not zero, ends the weighing early: the leaves weighed
	// by then make the answer.
	Deadline time.Time
}

// Defaults of InferOptions.
const (
	DefaultTau          = 2.0
	DefaultInferExact   = 3000
	DefaultInferSamples = 3000
	// inferLeaves is how many of the likeliest leaves an inference lists.
	inferLeaves = 10
)

// LetterOdds is the chance that the tiles kept hold at least one tile
// of a kind: given the move (Held), and by the draw alone (Prior).
type LetterOdds struct {
	Tile         alphabet.Tile
	Held, Prior  float64
	Mean, PriorN float64 // the expected number of them kept, given the move and by the draw alone
}

// LeaveOdds is a leave and its chance given the move.
type LeaveOdds struct {
	Leave alphabet.Rack
	Share float64
}

// Inference is what a placement tells about the tiles its player kept.
type Inference struct {
	// Kept is the number of tiles kept.
	Kept int
	// Exact is set when every possible leave was weighed (by its odds);
	// otherwise leaves were drawn at random, or the deadline left some
	// distinct leaves unweighed (a random part of them). Tried counts
	// the leaves weighed (distinct ones, or draws).
	Exact bool
	Tried int
	// Consistent is the chance, by the draw, of a rack for which the
	// move was the player's choice (0: none was, and the move tells
	// nothing by static value; Letters then hold the prior alone).
	Consistent float64
	// Letters has one entry for every kind of tile that may be kept, in
	// tile order (none when no tile was kept).
	Letters []LetterOdds
	// Leaves are the likeliest leaves given the move, most likely first
	// (ties in tile order), at most 10; All every leave weighed that is
	// consistent with the move, in the same order (their shares sum to
	// 1).
	Leaves []LeaveOdds
	All    []LeaveOdds
}

// Infer weighs the leaves of the player on turn in v, who played m (a
// placement, scored). v is that player's view before the move, its Rack
// holding only the tiles m played (what the others know); pool holds
// the tiles the rest of its rack may come from: those the one inferring
// cannot see, less the tiles m played. kept is how many tiles the player
// kept. The bag must hold tiles (with it empty, the others know the
// rack), and t values the tiles kept as the player is taken to value
// them.
func Infer(gen movegen.Generator, v *View, m move.Move, pool alphabet.Rack, kept int, t leave.Evaluator, o InferOptions) (*Inference, error) {
	switch {
	case m.Kind != move.Place:
		return nil, fmt.Errorf("infer: only a placement tells what was kept")
	case v.BagLen == 0:
		return nil, fmt.Errorf("infer: the bag is empty: the rack is known")
	case kept < 0 || kept > pool.Len():
		return nil, fmt.Errorf("infer: %d tiles kept, from %d unseen", kept, pool.Len())
	case t == nil:
		return nil, fmt.Errorf("infer: no leave table")
	}
	if o.Tau == 0 {
		o.Tau = DefaultTau
	}
	o.Tau = math.Max(o.Tau, 0)
	if o.MaxExact <= 0 {
		o.MaxExact = DefaultInferExact
	}
	if o.Samples <= 0 {
		o.Samples = DefaultInferSamples
	}
	w := &inferWeigher{gen: gen, v: *v, m: m, played: v.Rack, t: t, tau: o.Tau, res: &Inference{Kept: kept}, leaves: map[alphabet.Rack]float64{}}
	w.sl = newStaticLeave(&w.v, t)
	w.heldW, w.meanW = make([]float64, len(pool)), make([]float64, len(pool))
	rng := rand.New(rand.NewPCG(o.Seed, 0x1f3a9e7c))
	if n := countLeaves(&pool, kept, o.MaxExact+1); n <= o.MaxExact {
		// Every leave once, in a random order: a deadline that cuts the
		// weighing short leaves a random part of them, not those of the
		// first kinds of tile.
		var ls []weighted
		var l alphabet.Rack
		enumerateLeaves(&pool, &l, 0, kept, 1, func(l *alphabet.Rack, weight float64) { ls = append(ls, weighted{*l, weight}) })
		rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		w.res.Exact = true
		for i := range ls {
			if w.late(o.Deadline, i) {
				w.res.Exact = false
				break
			}
			w.weigh(&ls[i].leave, ls[i].weight)
		}
	} else {
		tiles := pool.Tiles()
		for i := 0; i < o.Samples && !w.late(o.Deadline, i); i++ {
			var l alphabet.Rack
			for j := 0; j < kept; j++ {
				r := j + rng.IntN(len(tiles)-j)
				tiles[j], tiles[r] = tiles[r], tiles[j]
				l.Add(tiles[j])
			}
			w.weigh(&l, 1)
		}
	}
	return w.result(&pool), nil
}

// inferWeigher weighs leaves for Infer.
type inferWeigher struct {
	gen    movegen.Generator
	v      View
	m      move.Move
	played alphabet.Rack
	t      leave.Evaluator
	tau    float64
	res    *Inference
	// The weights summed: of every leave, of those consistent with the
	// move, and by tile kind (held at least once; tiles held).
	total, consistent float64
	heldW, meanW      []float64
	leaves            map[alphabet.Rack]float64
	// sl values the tiles kept as the ranking does (it reads v's bag,
	// not its rack, so one serves every leave).
	sl *staticLeave
}

// weigh weighs leave l, as likely as weight w.
func (w *inferWeigher) weigh(l *alphabet.Rack, weight float64) {
	w.res.Tried++
	w.total += weight
	rack := w.played
	rack.AddRack(l)
	w.v.Rack = rack
	ranked, _, _ := rank(w.gen, &w.v, w.t, 1)
	value := float64(w.m.Score) + w.sl.Eval(l)
	if len(ranked) == 0 || value < ranked[0].value-w.tau-1e-9 {
		return
	}
	w.consistent += weight
	w.leaves[*l] += weight
	for c, n := range l {
		if n > 0 {
			w.heldW[c] += weight
			w.meanW[c] += weight * float64(n)
		}
	}
}

// weighted is a leave and the ways of drawing it.
type weighted struct {
	leave  alphabet.Rack
	weight float64
}

// late reports whether the deadline (if any) has passed, looking at the
// clock every 32 leaves.
func (w *inferWeigher) late(deadline time.Time, i int) bool {
	return !deadline.IsZero() && i%32 == 31 && time.Now().After(deadline)
}

// enumerateLeaves calls f with every leave of k more tiles from pool's
// kinds c onwards added to l, and the ways of drawing it (weight so far
// times the ways of the tiles to come).
func enumerateLeaves(pool, l *alphabet.Rack, c, k int, weight float64, f func(*alphabet.Rack, float64)) {
	if k == 0 {
		f(l, weight)
		return
	}
	if c >= len(pool) {
		return
	}
	for n := 0; n <= int(pool[c]) && n <= k; n++ {
		l[c] = uint8(n)
		enumerateLeaves(pool, l, c+1, k-n, weight*binomial(int(pool[c]), n), f)
	}
	l[c] = 0
}

// result turns the sums into the inference.
func (w *inferWeigher) result(pool *alphabet.Rack) *Inference {
	res := w.res
	if w.total > 0 {
		res.Consistent = w.consistent / w.total
	}
	for c, n := range pool {
		if n == 0 || res.Kept == 0 {
			continue
		}
		lo := LetterOdds{Tile: alphabet.Tile(c)}
		lo.Prior, lo.PriorN = drawOdds(pool, c, res.Kept)
		if w.consistent > 0 {
			lo.Held, lo.Mean = w.heldW[c]/w.consistent, w.meanW[c]/w.consistent
		} else {
			lo.Held, lo.Mean = lo.Prior, lo.PriorN
		}
		res.Letters = append(res.Letters, lo)
	}
	for l, x := range w.leaves {
		res.All = append(res.All, LeaveOdds{Leave: l, Share: x / w.consistent})
	}
	slices.SortFunc(res.All, func(a, b LeaveOdds) int {
		if a.Share != b.Share {
			if a.Share > b.Share {
				return -1
			}
			return 1
		}
		return slices.Compare(a.Leave[:], b.Leave[:])
	})
	res.Leaves = res.All[:min(len(res.All), inferLeaves)]
	return res
}

// drawOdds is the chance that k tiles drawn from pool hold tile c, and
// how many of it they hold on average: by the draw alone, exactly
// (hypergeometric), whether the leaves were enumerated or sampled.
func drawOdds(pool *alphabet.Rack, c, k int) (held, mean float64) {
	n := 0
	for _, x := range pool {
		n += int(x)
	}
	a := int(pool[c])
	if n == 0 || k <= 0 {
		return 0, 0
	}
	// The chance that none of the a tiles of c is drawn.
	none := 1.0
	for i := range k {
		none *= float64(n-a-i) / float64(n-i)
		if none <= 0 {
			none = 0
			break
		}
	}
	return 1 - none, float64(k) * float64(a) / float64(n)
}

// countLeaves counts the distinct leaves of k tiles from pool, stopping
// at limit.
func countLeaves(pool *alphabet.Rack, k, limit int) int {
	// ways[j]: the leaves of j tiles from the kinds seen so far.
	ways := make([]int, k+1)
	ways[0] = 1
	for _, n := range pool {
		if n == 0 {
			continue
		}
		next := make([]int, k+1)
		for j := 0; j <= k; j++ {
			for x := 0; x <= int(n) && x <= j; x++ {
				next[j] = min(next[j]+ways[j-x], limit)
			}
		}
		ways = next
	}
	return ways[k]
}

// binomial is n choose k.
func binomial(n, k int) float64 {
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// InferFrom infers what the player on turn in g keeps by playing m, as
// seat observer sees it: the rest of the rack may be any tiles observer
// cannot see but those m plays. Only the number of tiles on the
// player's rack is read from it. held, if not nil, is what observer
// really holds, when g's rack for it is not (a game replayed from a
// record that deals only the movers' racks).
func InferFrom(gen movegen.Generator, g *game.Game, m move.Move, observer int, held *alphabet.Rack, t leave.Evaluator, o InferOptions) (*Inference, error) {
	seat := g.Current()
	if observer == seat || observer < 0 || observer >= len(g.Seats) {
		return nil, fmt.Errorf("infer: seat %d cannot infer the rack of seat %d", observer, seat)
	}
	var played alphabet.Rack
	for _, tl := range m.Tiles {
		if tl != move.PlayThrough {
			played.Add(tl)
		}
	}
	pool := g.Unseen(observer)
	if held != nil {
		pool.AddRack(&g.Seats[observer].Rack)
		for _, tl := range held.Tiles() {
			if !pool.Remove(tl) {
				return nil, fmt.Errorf("infer: seat %d cannot hold %s: the tiles are elsewhere", observer, g.Variant.Alphabet.Bracketed(held.InWritingOrder()))
			}
		}
	}
	for _, tl := range played.Tiles() {
		if !pool.Remove(tl) {
			return nil, fmt.Errorf("infer: %s plays tiles seat %d can see", m.String(g.Board), observer)
		}
	}
	v := ViewOf(g, seat)
	v.Rack, v.Unseen = played, pool
	return Infer(gen, v, m, pool, g.Seats[seat].Rack.Len()-played.Len(), t, o)
}

// inferLast infers, for a simulation from view v in a game of two, what
// the opponent kept by its last placement, from v's unseen tiles (the
// other rack and the bag, which the leave came from); nil when there is
// nothing to infer from: no such placement, the bag empty before it, or
// no rack consistent with it.
func inferLast(gen movegen.Generator, v *View, t leave.Evaluator, leaves int, seed uint64, deadline time.Time) *Inference {
	last := v.Last
	if last == nil || len(v.Scores) != 2 || last.BagLen == 0 || t == nil {
		return nil
	}
	// The board before the move: without the tiles it placed.
	before := v.Board.Clone()
	var squares [][2]int
	var played alphabet.Rack
	for i, tl := range last.Move.Tiles {
		if tl != move.PlayThrough {
			r, c := last.Move.Square(i)
			squares = append(squares, [2]int{r, c})
			played.Add(tl)
		}
	}
	before.Remove(squares)
	mover := &View{Board: before, Rack: played, Scores: v.Scores, Me: last.Seat, Unseen: v.Unseen, BagLen: last.BagLen}
	kept := last.RackLen - played.Len()
	if kept <= 0 || kept > v.Unseen.Len() {
		return nil
	}
	inf, err := Infer(gen, mover, last.Move, v.Unseen, kept, t, InferOptions{MaxExact: leaves, Samples: leaves, Seed: seed, Deadline: deadline})
	if err != nil || inf.Consistent == 0 {
		return nil
	}
	return inf
}

// drawInferred orders the unseen tiles for one iteration of a simulation
// that infers: a leave drawn from dist by its share first, then the
// other unseen tiles in a random order. rng draws both.
func drawInferred(unseen []alphabet.Tile, dist []LeaveOdds, rng *rand.Rand) []alphabet.Tile {
	x, i := rng.Float64(), 0
	for ; i < len(dist)-1 && x >= dist[i].Share; i++ {
		x -= dist[i].Share
	}
	l := dist[i].Leave
	out := make([]alphabet.Tile, 0, len(unseen))
	rest := make([]alphabet.Tile, 0, len(unseen))
	for _, tl := range unseen {
		if l[tl] > 0 {
			l[tl]--
			out = append(out, tl)
		} else {
			rest = append(rest, tl)
		}
	}
	rng.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
	return append(out, rest...)
}
