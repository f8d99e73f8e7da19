// Package match plays computer players against each other (Pícek 2008,
// chapter 8): many games in parallel, the first player alternating, and
// its statistics table for both sides, with the spread and a
// confidence interval for the win rate. Every random choice comes from
// the seed, so the same configuration gives the same games whatever the
// number of threads (only the times differ).
package match

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/player/leave"
	"atril/review"
	"atril/variant"
)

// Config describes a match.
type Config struct {
	Variant *variant.Variant
	Lexicon *lexicon.Lexicon
	// Generator is forked once per thread (see movegen.Generator), so
	// every game's players search with a generator of their own.
	Generator movegen.Generator
	// EndgameGenerator, when set, is forked once per thread too, for
	// the players' endgame and pre-endgame searches
	// (player.Options.EndgameGenerator; nil: Generator).
	EndgameGenerator movegen.Generator
	// Players are the two levels; Options their settings (Variant,
	// Lexicon, the generators and Seed are filled in per game).
	Players [2]string
	Options [2]player.Options
	Games   int
	Seed    uint64
	// Threads is the number of games played at once (0: GOMAXPROCS).
	Threads int
	// Progress, when set, is called after each game.
	Progress func(done, total int)
	// Leaves collects the rack-leave samples for learning.
	Leaves bool
	// Paired plays the games in pairs on the same bag with the seats
	// swapped: games 2k and 2k+1 share their seed, and player 0 moves
	// first in the even one, player 1 in the odd one. Luck of the draw
	// then largely cancels within a pair (see PairedWinRate).
	Paired bool
	// Observe, when set, is called with each finished game (from the
	// goroutine that played it; i is the game's index).
	Observe func(i int, g *game.Game)
	// Judge, when set, values every move of each finished game by
	// static equity with this leave table (review.Ranker: score plus
	// the table's value of the tiles kept, each move against the best
	// in its place), and the report counts each player's moves that
	// were the top choice and the equity given up (Game.Judged). A
	// player that ranks moves by the same valuation plays the top
	// choice every time.
	Judge leave.Evaluator
}

// Game is the record of one game. Per-player arrays are indexed by the
// player's place in Config.Players, not by seat.
type Game struct {
	Index int
	Seed  uint64
	// First is the player who moved first (0 or 1).
	First  int
	Score  [2]int
	Turns  [2]int
	Bingos [2]int
	// Moves is the number of legal moves the player found, summed over
	// its turns.
	Moves [2]int
	Time  [2]time.Duration
	// With Config.Judge: the moves judged, those that were the top
	// choice, and the equity given up against the best moves.
	Judged, Top [2]int
	Lost        [2]float64
}

// Winner is 0 or 1, or −1 for a tie.
func (g *Game) Winner() int {
	switch {
	case g.Score[0] > g.Score[1]:
		return 0
	case g.Score[1] > g.Score[0]:
		return 1
	}
	return -1
}

// Report is the outcome of a match.
type Report struct {
	Config Config
	Games  []Game
	// Samples are the leave samples (when Config.Leaves is set).
	Samples []leave.Sample
	Elapsed time.Duration
}

// mix is SplitMix64's finaliser, used to derive per-game seeds.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// GameSeed is the seed of game i of a match with seed s.
func GameSeed(s uint64, i int) uint64 { return mix(s ^ mix(uint64(i)+1)) }

// Run plays the match.
func Run(cfg Config) (*Report, error) {
	if cfg.Games <= 0 {
		return nil, fmt.Errorf("sim: %d games", cfg.Games)
	}
	if cfg.Generator == nil || cfg.Variant == nil || cfg.Lexicon == nil {
		return nil, fmt.Errorf("sim: variant, lexicon and generator are required")
	}
	for k, name := range cfg.Players {
		if _, err := player.New(name, withGame(cfg, gens{cfg.Generator, cfg.EndgameGenerator}, k, 0)); err != nil {
			return nil, fmt.Errorf("sim: player %d: %w", k+1, err)
		}
	}
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	rep := &Report{Config: cfg, Games: make([]Game, cfg.Games)}
	samples := make([][]leave.Sample, cfg.Games)
	errs := make([]error, cfg.Games)
	// Each worker takes the next game's index from a shared counter (a
	// channel fed by this goroutine cost a handoff between threads a
	// game); a game's seed comes from its index, so which worker plays
	// it does not matter.
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < threads; w++ {
		wg.Add(1)
		gen := gens{main: cfg.Generator.Fork()}
		if cfg.EndgameGenerator != nil {
			gen.endgame = cfg.EndgameGenerator.Fork()
		}
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= cfg.Games {
					return
				}
				rec, smp, err := playGame(cfg, gen, i)
				rep.Games[i], samples[i], errs[i] = rec, smp, err
				mu.Lock()
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, cfg.Games)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, s := range samples {
		rep.Samples = append(rep.Samples, s...)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// gens are one thread's generators: the players' main one and that of
// their endgame searches (nil: the main one).
type gens struct {
	main, endgame movegen.Generator
}

// withGame fills in the per-game fields of player k's options.
func withGame(cfg Config, gen gens, k int, seed uint64) player.Options {
	o := cfg.Options[k]
	o.Variant, o.Lexicon, o.Generator, o.EndgameGenerator = cfg.Variant, cfg.Lexicon, gen.main, gen.endgame
	o.Seed = mix(seed ^ uint64(k+1)*0x51ed2701)
	return o
}

// playGame plays game i with the thread's generator: player 0 starts the
// even games, player 1 the odd ones.
func playGame(cfg Config, gen gens, i int) (Game, []leave.Sample, error) {
	seed := GameSeed(cfg.Seed, i)
	if cfg.Paired {
		seed = GameSeed(cfg.Seed, i/2)
	}
	rec := Game{Index: i, Seed: seed, First: i % 2}
	seats := [2]int{rec.First, 1 - rec.First} // seats[s] = player index in seat s
	var ps [2]player.Player
	names := make([]string, 2)
	for s, k := range seats {
		p, err := player.New(cfg.Players[k], withGame(cfg, gen, k, seed))
		if err != nil {
			return rec, nil, err
		}
		ps[s] = p
		names[s] = cfg.Players[k]
	}
	g, err := game.New(cfg.Variant, cfg.Lexicon, names, seed)
	if err != nil {
		return rec, nil, fmt.Errorf("game %d: %w", i, err)
	}
	// One view serves every turn: no player keeps it past its Choose.
	var v *player.View
	for turn := 0; !g.Over(); turn++ {
		if turn > 1000 {
			return rec, nil, fmt.Errorf("game %d (seed %d): no end after 1000 turns", i, seed)
		}
		s := g.Current()
		k := seats[s]
		v = player.ViewInto(v, g, s)
		t0 := time.Now()
		m := ps[s].Choose(v)
		rec.Time[k] += time.Since(t0)
		if c, ok := ps[s].(player.Counter); ok {
			rec.Moves[k] += c.MovesFound()
		}
		if err := g.Play(m); err != nil {
			return rec, nil, fmt.Errorf("game %d (seed %d), turn %d: %s played %s: %w", i, seed, turn+1, cfg.Players[k], m.String(g.Board), err)
		}
		rec.Turns[k]++
		if m.Kind == move.Place && m.NewTiles() == cfg.Variant.RackSize {
			rec.Bingos[k]++
		}
	}
	for s, k := range seats {
		rec.Score[k] = g.Seats[s].Score
	}
	if cfg.Judge != nil {
		if err := judge(cfg, gen.main, g, names, seed, seats, &rec); err != nil {
			return rec, nil, fmt.Errorf("game %d (seed %d): %w", i, seed, err)
		}
	}
	if cfg.Observe != nil {
		cfg.Observe(i, g)
	}
	var smp []leave.Sample
	if cfg.Leaves {
		smp = leaveSamples(g)
	}
	return rec, smp, nil
}

// judge values every move of the finished game g (played from seed by
// names, seats[s] the player in seat s) by static equity with
// cfg.Judge, and counts each player's moves, top choices and equity
// given up in rec.
func judge(cfg Config, gen movegen.Generator, g *game.Game, names []string, seed uint64, seats [2]int, rec *Game) error {
	start, err := game.New(cfg.Variant, cfg.Lexicon, names, seed)
	if err != nil {
		return err
	}
	rk := review.Ranker{Gen: gen, Leave: cfg.Judge}
	sum, err := rk.Summarize(review.NewRecord(g.History, true), start, 1, nil)
	if err != nil {
		return fmt.Errorf("judge: %w", err)
	}
	for s, k := range seats {
		rec.Judged[k], rec.Top[k], rec.Lost[k] = sum.Seats[s].Moves, sum.Seats[s].Best, sum.Seats[s].Lost
	}
	return nil
}

// leaveSamples turns a finished game into leave samples: for each
// placement or exchange after which the player drew a full rack again
// (so the leave was kept into a normal turn), the leave and the points
// the same player scored on its next turn.
func leaveSamples(g *game.Game) []leave.Sample {
	var out []leave.Sample
	h := g.History
	for i := range h {
		t := &h[i]
		left, ok := t.Kept()
		if !ok { // a pass, or the bag ran out: the leave is an endgame rack
			continue
		}
		for j := i + 1; j < len(h); j++ {
			if h[j].Kind == game.Played && h[j].Player == t.Player {
				out = append(out, leave.Sample{Leave: left, Y: float64(h[j].Points)})
				break
			}
		}
	}
	return out
}

// Summary is one player's line of the statistics table of Pícek 2008, chapter 8.
type Summary struct {
	Name         string
	Wins, Ties   int
	WinPct       float64
	PointsGame   float64
	PointsTurn   float64
	MsTurn       float64
	MovesTurn    float64
	BingosGame   float64
	Games, Turns int
	// With Config.Judge: the moves judged, the share of them that were
	// the top choice (in percent) and the equity given up a move.
	Judged              int
	TopPct, LostPerMove float64
}

// Summaries computes both players' lines.
func (r *Report) Summaries() [2]Summary {
	var s [2]Summary
	for k := range s {
		s[k].Name = r.Config.Players[k]
		var pts, moves, bingos, top int
		var lost float64
		var tm time.Duration
		for i := range r.Games {
			g := &r.Games[i]
			switch g.Winner() {
			case k:
				s[k].Wins++
			case -1:
				s[k].Ties++
			}
			pts += g.Score[k]
			s[k].Turns += g.Turns[k]
			moves += g.Moves[k]
			bingos += g.Bingos[k]
			tm += g.Time[k]
			s[k].Judged += g.Judged[k]
			top += g.Top[k]
			lost += g.Lost[k]
		}
		if s[k].Judged > 0 {
			s[k].TopPct = 100 * float64(top) / float64(s[k].Judged)
			s[k].LostPerMove = lost / float64(s[k].Judged)
		}
		n := float64(len(r.Games))
		s[k].Games = len(r.Games)
		s[k].WinPct = 100 * float64(s[k].Wins) / n
		s[k].PointsGame = float64(pts) / n
		s[k].BingosGame = float64(bingos) / n
		if s[k].Turns > 0 {
			t := float64(s[k].Turns)
			s[k].PointsTurn = float64(pts) / t
			s[k].MsTurn = float64(tm.Microseconds()) / 1000 / t
			s[k].MovesTurn = float64(moves) / t
		}
	}
	return s
}

// WinRate is player 0's score (wins plus half the ties, over the games)
// and its 95% Wilson interval.
func (r *Report) WinRate() (rate, lo, hi float64) {
	n := float64(len(r.Games))
	w := 0.0
	for i := range r.Games {
		switch r.Games[i].Winner() {
		case 0:
			w++
		case -1:
			w += 0.5
		}
	}
	return Wilson(w, n)
}

// Wilson returns the proportion w/n and its 95% Wilson score interval.
func Wilson(w, n float64) (p, lo, hi float64) {
	if n == 0 {
		return 0, 0, 1
	}
	const z = 1.959963984540054
	p = w / n
	den := 1 + z*z/n
	c := (p + z*z/(2*n)) / den
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return p, math.Max(0, c-h), math.Min(1, c+h)
}

// PairedWinRate is player 0's score over pairs of games played on the
// same bag with the seats swapped (Config.Paired): each pair counts as
// one observation, the mean of its two results (win 1, tie ½, loss 0),
// so the interval reflects the pairing (a normal interval on the pair
// means; with unpaired games it is wider than Wilson's, never
// narrower). An odd last game is left out. pairs is the number used.
func (r *Report) PairedWinRate() (rate, lo, hi float64, pairs int) {
	pairs = len(r.Games) / 2
	if pairs < 2 {
		p, l, h := r.WinRate()
		return p, l, h, pairs
	}
	score := func(g *Game) float64 {
		switch g.Winner() {
		case 0:
			return 1
		case -1:
			return 0.5
		}
		return 0
	}
	var s, sq float64
	for k := 0; k < pairs; k++ {
		x := (score(&r.Games[2*k]) + score(&r.Games[2*k+1])) / 2
		s += x
		sq += x * x
	}
	n := float64(pairs)
	rate = s / n
	sd := math.Sqrt(math.Max(sq/n-rate*rate, 0) * n / (n - 1))
	half := 1.959963984540054 * sd / math.Sqrt(n)
	return rate, math.Max(0, rate-half), math.Min(1, rate+half), pairs
}

// Spread is the mean of player 0's score minus player 1's, and the
// half-width of its 95% confidence interval.
func (r *Report) Spread() (mean, half float64) {
	n := float64(len(r.Games))
	var s, sq float64
	for i := range r.Games {
		d := float64(r.Games[i].Score[0] - r.Games[i].Score[1])
		s += d
		sq += d * d
	}
	mean = s / n
	if n > 1 {
		sd := math.Sqrt(math.Max(sq/n-mean*mean, 0) * n / (n - 1))
		half = 1.959963984540054 * sd / math.Sqrt(n)
	}
	return mean, half
}
