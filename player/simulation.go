package player

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/move"
	"atril/movegen"
	"atril/winprob"
)

// endgameDefaultTime bounds an endgame search when no budget is given.
const endgameDefaultTime = 2 * time.Second

// Defaults of the simulation player.
const (
	defaultCandidates = 40
	defaultIterations = 400
	defaultPlies      = 2
	defaultConfidence = 0.8
	// simRound is the number of iterations every live candidate plays
	// between two elimination checks.
	simRound = 8
	// minEliminate is the number of iterations a candidate plays before
	// it can be eliminated: the checks use Student's t, not the normal,
	// so a few iterations suffice.
	minEliminate = 8
	// defaultInferLeaves is the most leaves an inferring simulation
	// weighs.
	defaultInferLeaves = 600
)

// Simulation is the Monte Carlo player (Heuri's in Anagram 2018 and Pícek 2008,
// 6.1.4, extended to several plies as championship engines simulate).
//
// It ranks the placements by static equity (score plus leave, as
// inhuman), keeps the best Candidates and the best exchange, and plays
// each forward in many iterations. In iteration i the unseen tiles are
// shuffled once: the opponent's rack is the first tiles of the shuffle
// and the bag's order the rest, so every candidate meets the same racks
// and the same draws (common random numbers). After the candidate, the
// players move in turn for Plies plies (the opponent first), each playing
// its best placement by equity (score plus leave; with the bag empty,
// minus the tiles kept, and going out earns the other rack twice) and
// drawing from the bag. A candidate's value in an iteration is the spread
// change (its score, plus ours, minus the opponent's) plus the leave
// value of our last leave at the horizon, or the end adjustment when
// someone goes out inside the horizon.
//
// Stopping is a best-arm identification by successive elimination: the
// candidates play rounds of iterations; after each round, a candidate
// whose paired difference to the leader has an upper confidence bound
// below zero is dropped. The bound is Student's t with n−1 degrees of
// freedom after n iterations (a mean over few iterations divided by its
// estimated standard error is not normal), at a level that splits
// δ = 1 − Confidence over the K candidates and over the checks (check r
// gets δ/(K·r(r+1)), a union bound valid for any number of checks, so for
// any budget), so the best candidate survives every check with
// probability at least Confidence when the iterations' values are close
// enough to normal. The search stops
// when one candidate is left, the iterations are spent, or the time
// budget runs out, and plays the live candidate of highest mean.
//
// Every (candidate, iteration) result depends only on the seed and the
// position, and the checks run between rounds, so the choice is the same
// with any number of threads (without a time budget). With the bag empty
// it solves the endgame as godlike does, and with one tile in the bag it
// solves the pre-endgame.
type Simulation struct {
	*Valued
	// Stats of the last choice.
	Simulated  int // candidate-iterations played
	Considered int // candidates simulated
	// Estimates of the last choice, in candidate order (static rank).
	Estimates []Estimate
	// forks are the generators of the simulating goroutines.
	forks []movegen.Generator
}

// Estimate is what a simulation learnt about one candidate.
type Estimate struct {
	Move move.Move
	// Static is the candidate's score plus leave.
	Static float64
	// Mean is the mean value over the iterations it played (spread
	// change to the horizon plus the leave there); Half is the half-width
	// of its 95% confidence interval.
	Mean, Half float64
	// Win is the estimated chance of winning from the horizon (package
	// winprob's model of the variant, with the player to move there on
	// turn).
	Win float64
	// Iterations it played; Alive is false once eliminated.
	Iterations int
	Alive      bool
}

func newSimulation(o Options) (Player, error) {
	v, err := newValued("simulation", o, true)
	if err != nil {
		return nil, err
	}
	return &Simulation{Valued: v}, nil
}

// Name implements Player.
func (s *Simulation) Name() string { return "simulation" }

// Choose implements Player.
func (s *Simulation) Choose(v *View) move.Move {
	if s.bound != v.Board.Variant {
		if err := s.bind(v.Board.Variant); err != nil {
			s.table = nil
		}
	}
	s.Estimates = nil
	if v.BagLen == 0 && len(v.Scores) == 2 && v.Unseen.Len() > 0 {
		m, res, n := solveEndgame(s.egen, v, s.opt)
		s.found, s.Last = n, res
		return m
	}
	if m, ok := s.preEndgame(v); ok {
		return m
	}
	k := s.opt.Candidates
	if k <= 0 {
		k = defaultCandidates
	}
	cands, n := s.candidates(v, k)
	s.found = n
	if len(cands) == 0 {
		return move.Move{Kind: move.Pass}
	}
	if len(cands) == 1 || v.Unseen.Len() == 0 {
		return cands[0].m
	}
	return cands[s.simulate(v, cands)].m
}

// candidates are the best k moves by static equity, and the best
// exchange when none of them is one and the bag allows it.
func (s *Simulation) candidates(v *View, k int) ([]candidate, int) {
	cands, n, exch := rank(s.gen, v, s.table, k)
	if exch == nil {
		return cands, n
	}
	for i := range cands {
		if cands[i].m.Kind == move.Exchange {
			return cands, n
		}
	}
	return append(cands, *exch), n
}

// simParams are the settings of one simulation, defaults filled in.
type simParams struct {
	iters, plies, threads int
	confidence            float64
	budget                time.Duration
	noStop                bool
}

func (s *Simulation) params() simParams {
	p := simParams{iters: s.opt.Iterations, plies: s.opt.Plies, threads: max(s.opt.Threads, 1),
		confidence: s.opt.Confidence, budget: s.opt.Budget, noStop: s.opt.NoEarlyStop}
	if p.iters <= 0 {
		p.iters = defaultIterations
	}
	if p.plies <= 0 {
		p.plies = defaultPlies
	}
	if p.confidence <= 0 || p.confidence >= 1 {
		p.confidence = defaultConfidence
	}
	return p
}

// simulate plays the candidates and returns the index of the chosen one;
// s.Estimates holds what it learnt.
func (s *Simulation) simulate(v *View, cands []candidate) int {
	p := s.params()
	start := time.Now()
	// The iterations' shuffles come from a stream seeded by the player's
	// seed and the position.
	salt := uint64(v.Board.Tiles())<<32 ^ uint64(v.BagLen)<<16 ^ uint64(v.Rack.Len())
	for i, c := range v.Rack {
		salt = mix(salt ^ uint64(i)<<8 ^ uint64(c))
	}
	for i, c := range v.Unseen {
		salt = mix(salt ^ uint64(i)<<16 ^ uint64(c)<<3)
	}
	seed := mix(s.opt.Seed ^ salt)
	unseen := v.Unseen.Tiles()
	var inferred []LeaveOdds
	if s.opt.Infer {
		// A tenth of the time budget, if any, goes to the inference.
		var deadline time.Time
		if p.budget > 0 {
			deadline = start.Add(p.budget / 10)
		}
		leaves := s.opt.InferLeaves
		if leaves <= 0 {
			leaves = defaultInferLeaves
		}
		if inf := inferLast(s.gen, v, s.table, leaves, seed, deadline); inf != nil {
			inferred = inf.All
		}
	}
	shuffles := make([][]alphabet.Tile, 0, min(p.iters, 1024))
	replies := make([]*replyRanking, 0, min(p.iters, 1024))

	vals := make([][]float64, len(cands))
	wins := make([][]float64, len(cands))
	alive := make([]int, len(cands))
	for i := range alive {
		alive[i] = i
	}
	for len(s.forks) < p.threads {
		f := s.gen.Fork()
		if bc, ok := f.(movegen.BoardCacher); ok {
			// The replies search the position's board and each
			// candidate's board once an iteration.
			bc.CacheBoards(true)
		}
		s.forks = append(s.forks, f)
	}
	workers := make([]*simWorker, p.threads)
	for w := range workers {
		workers[w] = newSimWorker(v, s.forks[w], s.table, p.plies)
	}
	delta := (1 - p.confidence) / float64(len(cands))
	checks := 0
	s.Simulated, s.Considered = 0, len(cands)
	done := 0
	for done < p.iters && len(alive) > 1 {
		hi := min(done+simRound, p.iters)
		for it := done; it < hi; it++ {
			rng := rand.New(rand.NewPCG(seed, uint64(it)))
			var sh []alphabet.Tile
			if inferred != nil {
				// The opponent's rack starts with a leave its last move
				// was consistent with.
				sh = drawInferred(unseen, inferred, rng)
			} else {
				sh = append([]alphabet.Tile(nil), unseen...)
				rng.Shuffle(len(sh), func(a, b int) { sh[a], sh[b] = sh[b], sh[a] })
			}
			shuffles = append(shuffles, sh)
			replies = append(replies, &replyRanking{})
		}
		n := hi - done
		for _, c := range alive {
			vals[c] = append(vals[c], make([]float64, n)...)
			wins[c] = append(wins[c], make([]float64, n)...)
		}
		// Jobs go iteration by iteration, every live candidate in each,
		// so that when the time budget runs out mid-round the jobs done
		// (always a prefix: a worker finishes the job it took) make
		// whole iterations for all of them.
		var next atomic.Int64
		a := int64(len(alive))
		total := a * int64(n)
		var wg sync.WaitGroup
		for _, w := range workers {
			wg.Add(1)
			go func(w *simWorker) {
				defer wg.Done()
				for {
					if p.budget > 0 && time.Since(start) > p.budget {
						return
					}
					j := next.Add(1) - 1
					if j >= total {
						return
					}
					c, it := alive[j%a], done+int(j/a)
					vals[c][it], wins[c][it] = w.play(&cands[c], shuffles[it], replies[it], seed^uint64(it))
				}
			}(w)
		}
		wg.Wait()
		if taken := next.Load(); taken < total {
			// Out of time: keep the whole iterations.
			whole := int(taken / a)
			for _, c := range alive {
				vals[c], wins[c] = vals[c][:done+whole], wins[c][:done+whole]
			}
			s.Simulated += len(alive) * whole
			break
		}
		s.Simulated += len(alive) * n
		done = hi
		if p.budget > 0 && time.Since(start) > p.budget {
			break
		}
		if !p.noStop && done >= minEliminate && done < p.iters {
			// Check r spends δ/(K·r(r+1)) of the error, which sums to
			// δ/K over any number of checks.
			checks++
			z := normalQuantile(1 - delta/float64(checks*(checks+1)))
			alive = eliminate(vals, alive, done, studentQuantile(z, done-1))
		}
	}
	best := alive[0]
	for _, c := range alive[1:] {
		if s.opt.RankByWin && mean(wins[c]) != mean(wins[best]) {
			if mean(wins[c]) > mean(wins[best]) {
				best = c
			}
		} else if mean(vals[c]) > mean(vals[best]) {
			best = c
		}
	}
	s.Estimates = make([]Estimate, len(cands))
	isAlive := make([]bool, len(cands))
	for _, c := range alive {
		isAlive[c] = true
	}
	for i := range cands {
		m, half := meanHalf(vals[i])
		s.Estimates[i] = Estimate{Move: cands[i].m, Static: cands[i].value, Mean: m, Half: half,
			Win: mean(wins[i]), Iterations: len(vals[i]), Alive: isAlive[i]}
	}
	return best
}

// eliminate drops the candidates whose paired difference to the leader
// (over the first n iterations, which every live candidate has played)
// has an upper bound mean + z·(standard error) below zero.
func eliminate(vals [][]float64, alive []int, n int, z float64) []int {
	if math.IsInf(z, 1) {
		return alive // no bound yet (too few iterations)
	}
	lead := alive[0]
	for _, c := range alive[1:] {
		if mean(vals[c][:n]) > mean(vals[lead][:n]) {
			lead = c
		}
	}
	out := alive[:0:0]
	for _, c := range alive {
		if c == lead {
			out = append(out, c)
			continue
		}
		var sum, sq float64
		for i := 0; i < n; i++ {
			d := vals[c][i] - vals[lead][i]
			sum += d
			sq += d * d
		}
		m := sum / float64(n)
		sd := math.Sqrt(math.Max(sq/float64(n)-m*m, 0) * float64(n) / float64(n-1))
		if m+z*sd/math.Sqrt(float64(n)) >= 0 {
			out = append(out, c)
		}
	}
	return out
}

// simWorker is one simulating goroutine's state: its own board and
// generator, and buffers reused from iteration to iteration.
type simWorker struct {
	v     *View
	b     *board.Board
	gen   movegen.Generator
	table movegen.Leave
	plies int
	out   []movegen.Scored
	one   move.Move
	bag   []alphabet.Tile
	scr   []int
	ch    board.Changes // the squares the candidate changed
	// win is the variant's model of the winning chances (winprob).
	win winprob.Model
}

func newSimWorker(v *View, gen movegen.Generator, table movegen.Leave, plies int) *simWorker {
	return &simWorker{v: v, b: v.Board.Clone(), gen: gen, table: table, plies: plies, scr: v.Board.Variant.Scores,
		win: winprob.Rough(v.Board.Variant)}
}

// plyLeave is the leave of a player's choice inside a simulation: the
// table while the bag has tiles; with the bag empty, minus the tiles
// kept, and going out earns the other rack twice.
type plyLeave struct {
	t        movegen.Leave
	bagEmpty bool
	other    float64
	scores   []int
}

var _ movegen.SubRackLeave = (*plyLeave)(nil)

// EvalSubRacks implements movegen.SubRackLeave while the bag has tiles
// and the table does.
func (l *plyLeave) EvalSubRacks(rack *alphabet.Rack, out []float64) bool {
	if sl, ok := l.t.(movegen.SubRackLeave); ok && !l.bagEmpty {
		return sl.EvalSubRacks(rack, out)
	}
	return false
}

// Eval implements movegen.Leave.
func (l *plyLeave) Eval(kept *alphabet.Rack) float64 {
	if l.bagEmpty {
		if kept.Len() == 0 {
			return 2 * l.other
		}
		return -float64(kept.Value(l.scores))
	}
	if l.t == nil {
		return 0
	}
	return l.t.Eval(kept)
}

// best returns the best placement of rack by equity under l, or false.
func (w *simWorker) best(rack *alphabet.Rack, l movegen.Leave) (*move.Move, bool) {
	if sr, ok := w.gen.(movegen.Searcher); ok {
		w.out = sr.TopN(w.b, rack, l, 1, w.out[:0])
	} else {
		w.out = append(w.out[:0], movegen.Search(w.gen, w.b, rack, l, 1)...)
	}
	if len(w.out) == 0 {
		return nil, false
	}
	return &w.out[0].Move, true
}

// replyRanking is what the candidates of one iteration share: the
// opponent's rack is the same for all of them, so its best placements by
// equity on the board before our move are ranked once, and each
// candidate's reply needs a search near the squares its move changed
// only (movegen.BestAfter).
type replyRanking struct {
	once sync.Once
	top  []movegen.Scored // cloned; nil when the generator cannot search lines
}

// replyRankingSize is how many placements replyRanking keeps: enough that
// one touches no square a candidate changed almost always, few enough
// that the ranking is cheap. On the mid-game positions of
// BenchmarkSimulation40x100, ms a move through the GADDAG and through
// the anagram tables: 43.3 and 38.9 keeping 1, 38.9 and 34.9 keeping 2,
// 37.2–37.7 and 33.2–33.8 keeping 3, 36.8 and 32.1–32.3 keeping 5, 37.5–37.9
// and 34.3–34.7 keeping 10 (the moves chosen are the same).
const replyRankingSize = 5

// rank fills rr from the worker's board, which must be the position
// before our move, valuing the opponent's leave as it is while the bag
// has tiles: by the table alone.
func (w *simWorker) rank(rr *replyRanking, opp *alphabet.Rack) {
	rr.once.Do(func() {
		ls, ok := w.gen.(movegen.LineSearcher)
		if !ok {
			return
		}
		top := ls.TopN(w.b, opp, w.table, replyRankingSize, nil)
		for i := range top {
			top[i].Move = movegen.Clone(&top[i].Move)
		}
		rr.top = top
	})
}

// reply is the opponent's best placement after candidate c (on the
// worker's board), found from the iteration's ranking and a search near
// the squares c changed: the same move best would return.
func (w *simWorker) reply(c *candidate, r *alphabet.Rack, l movegen.Leave, rr *replyRanking) (*move.Move, bool) {
	w.ch = board.Changes{} // an exchange changes no square
	if c.m.Kind == move.Place {
		w.b.ChangedSquares(&w.ch)
	}
	sc, ok := movegen.BestAfter(w.gen.(movegen.LineSearcher), w.b, r, l, rr.top, false, &w.ch, w.out[:0])
	if !ok {
		return nil, false
	}
	w.one = sc.Move
	return &w.one, true
}

// play plays candidate c in the iteration whose shuffle of the unseen
// tiles is sh, and returns its value and our chance of winning from the
// horizon. The board is restored afterwards.
func (w *simWorker) play(c *candidate, sh []alphabet.Tile, rr *replyRanking, exSeed uint64) (float64, float64) {
	v := w.v
	size := v.Board.Variant.RackSize
	var racks [2]alphabet.Rack // 0: us, 1: the opponent
	racks[0] = v.Rack
	nOpp := min(size, len(sh))
	for _, t := range sh[:nOpp] {
		racks[1].Add(t)
	}
	// The opponent's ranking while the bag still has tiles after our
	// move: then its leave is the table's, whatever we play.
	w.rank(rr, &racks[1])
	w.bag = append(w.bag[:0], sh[nOpp:]...)
	bag := w.bag
	draw := func(r *alphabet.Rack) {
		for r.Len() < size && len(bag) > 0 {
			r.Add(bag[0])
			bag = bag[1:]
		}
	}
	placed := 0
	spread := 0.0
	var myLeave float64
	ended := false
	l := plyLeave{t: w.table, scores: w.scr}
	racks[0] = c.m.Kept(racks[0])
	if c.m.Kind == move.Place {
		spread += float64(c.m.Score)
		w.b.PlaceLine(c.m.Dir, c.m.Row, c.m.Col, c.m.Tiles, 1000)
		placed++
	}
	l.bagEmpty, l.other = len(bag) == 0, float64(racks[1].Value(w.scr))
	myLeave = l.Eval(&racks[0])
	if c.m.Kind == move.Place && racks[0].Len() == 0 && len(bag) == 0 {
		spread += 2 * l.other
		ended = true
	}
	draw(&racks[0])
	if c.m.Kind == move.Exchange {
		// The exchanged tiles go back into the bag at random places.
		bag = append(bag, c.m.Exchanged...)
		rng := rand.New(rand.NewPCG(exSeed, 0xe8c4))
		rng.Shuffle(len(bag), func(a, b int) { bag[a], bag[b] = bag[b], bag[a] })
	}
	side := 1
	for ply := 0; ply < w.plies && !ended; ply++ {
		r := &racks[side]
		l.bagEmpty, l.other = len(bag) == 0, float64(racks[1-side].Value(w.scr))
		sign := 1.0
		if side == 1 {
			sign = -1
		}
		var m *move.Move
		var ok bool
		if ply == 0 && side == 1 && !l.bagEmpty && rr.top != nil {
			// With the bag not empty the ply's leave is the table's,
			// which the searches of this rack on the other candidates'
			// boards share (movegen.FixedLeave).
			m, ok = w.reply(c, r, w.table, rr)
		} else {
			m, ok = w.best(r, &l)
		}
		if ok {
			spread += sign * float64(m.Score)
			*r = m.Kept(*r)
			if ply+1 < w.plies {
				// The horizon's move needs no board after it.
				w.b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000)
				placed++
			}
			if r.Len() == 0 && len(bag) == 0 {
				spread += sign * 2 * l.other
				ended = true
				break
			}
		}
		if side == 0 {
			myLeave = l.Eval(r)
		}
		draw(r)
		side = 1 - side
	}
	for ; placed > 0; placed-- {
		w.b.Undo()
	}
	val := spread
	if !ended {
		val += myLeave
	}
	lead := float64(v.Scores[v.Me]-maxOther(v)) + val
	if ended {
		switch {
		case lead > 0:
			return val, 1
		case lead < 0:
			return val, 0
		}
		return val, 0.5
	}
	// The chance from the horizon, with the player to move there on turn.
	left := len(bag) + racks[0].Len() + racks[1].Len()
	if side == 0 {
		return val, w.win.Win(lead, left)
	}
	return val, 1 - w.win.Win(-lead, left)
}

// maxOther is the highest score among the other players.
func maxOther(v *View) int {
	best := math.MinInt
	for i, s := range v.Scores {
		if i != v.Me && s > best {
			best = s
		}
	}
	if best == math.MinInt {
		return 0
	}
	return best
}

// normalQuantile is the standard normal quantile of p (0 < p < 1), by
// bisection on the complementary error function.
func normalQuantile(p float64) float64 {
	lo, hi := -40.0, 40.0
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if 0.5*math.Erfc(-mid/math.Sqrt2) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// studentQuantile is the quantile of Student's t distribution with df
// degrees of freedom at the probability where the standard normal's
// quantile is z: the Cornish–Fisher expansion in 1/df (Abramowitz and
// Stegun 26.7.5), within 0.01 of the exact value for df ≥ 7 up to
// z = 3.3 and more accurate as df grows. A mean of few iterations
// divided by its estimated standard error follows it, not the normal,
// so the elimination's early checks need the wider bound.
func studentQuantile(z float64, df int) float64 {
	if df < 1 {
		return math.Inf(1)
	}
	v := float64(df)
	z2 := z * z
	g1 := (z2 + 1) * z / 4
	g2 := ((5*z2+16)*z2 + 3) * z / 96
	g3 := (((3*z2+19)*z2+17)*z2 - 15) * z / 384
	g4 := ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) * z / 92160
	return z + (g1+(g2+(g3+g4/v)/v)/v)/v
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.Inf(-1)
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// meanHalf is the mean of xs and the half-width of its normal 95%
// confidence interval.
func meanHalf(xs []float64) (float64, float64) {
	n := float64(len(xs))
	if n < 2 {
		return mean(xs), math.Inf(1)
	}
	m := mean(xs)
	sq := 0.0
	for _, x := range xs {
		sq += (x - m) * (x - m)
	}
	return m, 1.959963984540054 * math.Sqrt(sq/(n-1)/n)
}
