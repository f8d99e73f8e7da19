package player

import (
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/move"
	"atril/movegen"
)

// endgameDefaultTime bounds an endgame search when no budget is given.
const endgameDefaultTime = 2 * time.Second

// Simulation is the Monte Carlo player of seed 001 (Heuri) and seed 004
// 6.1.4. It ranks every move by score plus leave (as inhuman does),
// keeps the best Candidates, and plays each against Iterations opponent
// racks drawn from the unseen tiles: the opponent answers with its
// highest-scoring reply, and the candidate is worth
// score + leave − reply, averaged. Every candidate meets the same sampled
// racks (common random numbers), so differences between candidates are
// measured with less noise. Iterations run in rounds; after each round a
// candidate whose mean difference to the leader is more than three
// standard errors below zero is dropped, and the search stops when one
// candidate is left, the iterations are spent, or the time budget runs
// out. Work is spread over Threads goroutines, each with its own board,
// and results do not depend on the number of threads. With the bag empty
// it solves the endgame as godlike does.
type Simulation struct {
	*Valued
	// Stats of the last choice.
	Simulated  int // candidate-iterations played
	Considered int // candidates simulated
	// forks are the generators of the simulating goroutines.
	forks []movegen.Generator
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
	if s.bound != v.Board.V {
		if err := s.bind(v.Board.V); err != nil {
			s.table = nil
		}
	}
	if v.BagLen == 0 && len(v.Scores) == 2 && v.Unseen.Len() > 0 {
		m, res, n := solveEndgame(s.gen, v, s.opt)
		s.found, s.Last = n, res
		return m
	}
	k := s.opt.Candidates
	if k <= 0 {
		k = 40
	}
	cands, n := rank(s.gen, v, s.table, k)
	s.found = n
	if len(cands) == 0 {
		return move.Move{Kind: move.Pass}
	}
	if len(cands) == 1 || v.Unseen.Len() == 0 {
		return cands[0].m
	}
	return cands[s.simulate(v, cands)].m
}

// simulate returns the index of the candidate with the best mean.
func (s *Simulation) simulate(v *View, cands []candidate) int {
	iters := s.opt.Iterations
	if iters <= 0 {
		iters = 100
	}
	threads := max(s.opt.Threads, 1)
	start := time.Now()
	// The opponent racks, drawn once for all candidates from a stream
	// seeded by the player's seed and the position.
	salt := uint64(v.Board.Tiles())<<32 ^ uint64(v.BagLen)<<16 ^ uint64(v.Rack.Len())
	for i, c := range v.Rack {
		salt = mix(salt ^ uint64(i)<<8 ^ uint64(c))
	}
	rng := rand.New(rand.NewPCG(s.opt.Seed, salt))
	pool := v.Unseen.Tiles()
	size := min(v.Board.V.RackSize, len(pool))
	racks := make([]alphabet.Rack, iters)
	for i := range racks {
		for j := 0; j < size; j++ {
			k := j + rng.IntN(len(pool)-j)
			pool[j], pool[k] = pool[k], pool[j]
			racks[i].Add(pool[j])
		}
	}
	vals := make([][]float64, len(cands))
	for i := range vals {
		vals[i] = make([]float64, 0, iters)
	}
	alive := make([]int, len(cands))
	for i := range alive {
		alive[i] = i
	}
	boards := make([]*board.Board, threads)
	for i := range boards {
		boards[i] = v.Board.Clone()
	}
	for len(s.forks) < threads {
		s.forks = append(s.forks, s.gen.Fork())
	}
	const round = 10
	s.Simulated, s.Considered = 0, len(cands)
	done := 0
	for done < iters && len(alive) > 1 {
		hi := min(done+round, iters)
		type job struct{ c, it int }
		jobs := make(chan job)
		res := make([][]float64, len(cands))
		for _, c := range alive {
			res[c] = make([]float64, hi-done)
		}
		var wg sync.WaitGroup
		for w := 0; w < threads; w++ {
			wg.Add(1)
			go func(b *board.Board, gen movegen.Generator) {
				defer wg.Done()
				for j := range jobs {
					res[j.c][j.it-done] = s.play(b, gen, &cands[j.c], &racks[j.it])
				}
			}(boards[w], s.forks[w])
		}
		for _, c := range alive {
			for it := done; it < hi; it++ {
				jobs <- job{c, it}
			}
		}
		close(jobs)
		wg.Wait()
		for _, c := range alive {
			vals[c] = append(vals[c], res[c]...)
		}
		s.Simulated += len(alive) * (hi - done)
		done = hi
		if s.opt.Budget > 0 && time.Since(start) > s.opt.Budget {
			break
		}
		if !s.opt.NoEarlyStop && done >= 2*round {
			alive = prune(vals, alive)
		}
	}
	best := alive[0]
	for _, c := range alive[1:] {
		if mean(vals[c]) > mean(vals[best]) {
			best = c
		}
	}
	return best
}

// play simulates one candidate against one opponent rack on board b
// (restored afterwards), with the goroutine's own generator.
func (s *Simulation) play(b *board.Board, gen movegen.Generator, c *candidate, opp *alphabet.Rack) float64 {
	val := c.value
	if c.m.Kind != move.Place {
		if r, ok := movegen.Best(gen, b, opp); ok {
			val -= float64(r.Score)
		}
		return val
	}
	b.PlaceLine(c.m.Dir, c.m.Row, c.m.Col, c.m.Tiles, 1000)
	if r, ok := movegen.Best(gen, b, opp); ok {
		val -= float64(r.Score)
	}
	b.Undo()
	return val
}

// prune drops candidates clearly behind the leader: those whose paired
// difference to it has a mean more than three standard errors below 0.
func prune(vals [][]float64, alive []int) []int {
	lead := alive[0]
	for _, c := range alive[1:] {
		if mean(vals[c]) > mean(vals[lead]) {
			lead = c
		}
	}
	out := alive[:0:0]
	for _, c := range alive {
		if c == lead {
			out = append(out, c)
			continue
		}
		n := len(vals[c])
		var sum, sq float64
		for i := 0; i < n; i++ {
			d := vals[c][i] - vals[lead][i]
			sum += d
			sq += d * d
		}
		m := sum / float64(n)
		sd := math.Sqrt(math.Max(sq/float64(n)-m*m, 0) * float64(n) / float64(n-1))
		if m+3*sd/math.Sqrt(float64(n)) >= 0 {
			out = append(out, c)
		}
	}
	return out
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
