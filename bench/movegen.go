package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"atril/cgp"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/movegen/interval"
	"atril/variant"
)

// MovegenConfig describes a self-play timing run (Anagram 2018 section 4,
// Sánchez Bello 2025 chapter 6).
type MovegenConfig struct {
	V     *variant.Variant
	Lex   *lexicon.Lexicon
	Algos []Algo
	// Games greedy games are played, game i from seed Seed+i.
	Games int
	Seed  uint64
	// Reps timed generations per position and algorithm (median kept),
	// after one untimed generation that counts the moves.
	Reps int
	// Player picks the greedy move (the highest score, ties broken by
	// movegen.SortMoves order, so every correct generator plays the same
	// game); nil: the first algorithm.
	Player movegen.Generator
	// OnPosition, if set, is called after each position is measured.
	OnPosition func(p *PositionResult)
	// Best times best-by-equity generation (Searcher.Best with Leave,
	// nil: score alone) instead of listing every move; every algorithm
	// must be a movegen.Searcher and find the same equity. Moves are
	// still counted, by one untimed listing of the first algorithm.
	Best      bool
	Leave     movegen.Leave
	LeaveName string // how the report names Leave
	// AsPlayed (with Best) times each search as a game's turn runs it:
	// once, with no untimed search of the position before it
	// (MeasureBestOnce), the algorithms taking turns to go first. The
	// games are then played by the first algorithm's best move by equity
	// (a pass when there is none), and no listing of every move runs
	// between positions: legal moves are not counted.
	AsPlayed bool
}

// PositionResult is the measurement of one position.
type PositionResult struct {
	Game int // 0-based game number
	Seed uint64
	Turn int // 1-based turn number within the game
	// Times, Stats and Counted are indexed like MovegenConfig.Algos.
	Times   []time.Duration
	Stats   []interval.Stats
	Counted []bool
	Moves   int
}

// TurnRow sums the measurements of every position at one turn number.
type TurnRow struct {
	Turn      int
	Positions int
	Time      []time.Duration // per algorithm, sum of medians
	Moves     int64
	Intervals int64 // intervals on the board (from an interval generator)
	// Per algorithm (zero for generators without counters).
	Instances, Lookups, Candidates []int64
}

// MovegenResult is the outcome of a run.
type MovegenResult struct {
	Variant, Lexicon string
	Algos            []string
	Counted          []bool // the algorithm keeps interval counters
	Games            int
	Seed             uint64
	Reps             int
	Turns            []TurnRow // Turns[t-1] is turn t
	GameTurns        []int     // turns of each game
	GameMoves        []int64   // legal moves summed over each game's turns
	Elapsed          time.Duration
	Clock            string // what the times measure and in which order (Timing)
	// Best: the times are of best-by-equity generation (Leave names the
	// leave values: "none" for score alone), not of listing every move.
	Best  bool
	Leave string
	// AsPlayed: each search timed once, as a game's turn runs it
	// (MovegenConfig.AsPlayed); Reps is then 1 and legal moves are not
	// counted.
	AsPlayed bool
	seen     map[uint64]int // game index by seed (ReadCSV)
}

// RunMovegen plays the games and times every algorithm on every position.
// It fails when two algorithms find a different number of moves.
func RunMovegen(cfg MovegenConfig) (*MovegenResult, error) {
	if len(cfg.Algos) == 0 {
		return nil, fmt.Errorf("bench movegen: no algorithm")
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("bench movegen: %d games", cfg.Games)
	}
	if cfg.AsPlayed && !cfg.Best {
		return nil, fmt.Errorf("bench movegen: timing as played is for best-by-equity generation")
	}
	if cfg.Best {
		for _, a := range cfg.Algos {
			if _, ok := a.Gen.(movegen.Searcher); !ok {
				return nil, fmt.Errorf("bench movegen: %s has no best-by-equity generation", a.Name)
			}
		}
	}
	t0 := time.Now()
	na := len(cfg.Algos)
	player := cfg.Player
	if player == nil {
		player = cfg.Algos[0].Gen
	}
	res := &MovegenResult{Variant: cfg.V.Name, Lexicon: cfg.Lex.Name, Games: cfg.Games, Seed: cfg.Seed, Reps: cfg.Reps, Clock: Timing(), Best: cfg.Best, AsPlayed: cfg.AsPlayed}
	if cfg.AsPlayed {
		res.Reps, res.Clock = 1, TimeWith.String()+", each search as a game's turn runs it, the algorithms taking turns to go first"
	}
	if cfg.Best {
		res.Leave = "none"
		if cfg.Leave != nil {
			res.Leave = cfg.LeaveName
		}
	}
	for i := range cfg.Algos {
		res.Algos = append(res.Algos, cfg.Algos[i].Name)
		_, ok := cfg.Algos[i].Stats()
		res.Counted = append(res.Counted, ok)
	}
	ms := make([]Measurement, na)
	positions := 0
	pr := &PositionResult{Times: make([]time.Duration, na), Stats: make([]interval.Stats, na), Counted: res.Counted}
	for gi := 0; gi < cfg.Games; gi++ {
		seed := cfg.Seed + uint64(gi)
		g, err := game.New(cfg.V, cfg.Lex, []string{"a", "b"}, seed)
		if err != nil {
			return nil, fmt.Errorf("bench movegen: game %d: %w", gi, err)
		}
		turn := 0
		var gameMoves int64
		for !g.Over() {
			turn++
			rack := g.Seats[g.Current()].Rack
			pr.Game, pr.Seed, pr.Turn = gi, seed, turn
			var played movegen.Scored
			var found bool
			if cfg.AsPlayed {
				if positions == 0 {
					// What a generator builds on first use (its filters,
					// tables read lazily) is not a turn's work: one
					// untimed search of another rack first.
					others := otherRacks(&rack)
					for _, a := range cfg.Algos {
						a.Gen.(movegen.Searcher).Best(g.Board, &others[0], cfg.Leave)
					}
				}
				played, found = MeasureBestOnce(cfg.Algos, g.Board, &rack, cfg.Leave, positions%na, ms)
				positions++
			} else if cfg.Best {
				MeasureBest(cfg.Algos, g.Board, &rack, cfg.Leave, cfg.Reps, ms)
			}
			if cfg.Best {
				for ai := range cfg.Algos {
					if ms[ai].Moves != ms[0].Moves || ms[ai].Equity != ms[0].Equity {
						return nil, fmt.Errorf("bench movegen: game %d (seed %d), turn %d: %s's best has equity %v (found: %v) but %s's %v (found: %v); position %s",
							gi, seed, turn, cfg.Algos[0].Name, ms[0].Equity, ms[0].Moves > 0, cfg.Algos[ai].Name, ms[ai].Equity, ms[ai].Moves > 0, cgp.FromGame(g).String())
					}
				}
				if !cfg.AsPlayed {
					n := 0
					cfg.Algos[0].Gen.Generate(g.Board, &rack, func(*move.Move) { n++ })
					for ai := range ms {
						ms[ai].Moves = n
					}
				}
			} else {
				MeasureAll(cfg.Algos, g.Board, &rack, cfg.Reps, ms)
			}
			pr.Moves = ms[0].Moves
			for ai := range cfg.Algos {
				if ms[ai].Moves != pr.Moves {
					return nil, fmt.Errorf("bench movegen: game %d (seed %d), turn %d: %s finds %d moves but %s finds %d; position %s",
						gi, seed, turn, cfg.Algos[0].Name, pr.Moves, cfg.Algos[ai].Name, ms[ai].Moves, cgp.FromGame(g).String())
				}
				pr.Times[ai], pr.Stats[ai] = ms[ai].Time, ms[ai].Stats
			}
			for len(res.Turns) < turn {
				res.Turns = append(res.Turns, TurnRow{Turn: len(res.Turns) + 1, Time: make([]time.Duration, na),
					Instances: make([]int64, na), Lookups: make([]int64, na), Candidates: make([]int64, na)})
			}
			row := &res.Turns[turn-1]
			row.Positions++
			row.Moves += int64(pr.Moves)
			gameMoves += int64(pr.Moves)
			ivDone := false
			for ai := range cfg.Algos {
				row.Time[ai] += pr.Times[ai]
				if res.Counted[ai] {
					st := &pr.Stats[ai]
					row.Instances[ai] += int64(st.Instances)
					row.Lookups[ai] += int64(st.Lookups)
					row.Candidates[ai] += int64(st.Candidates)
					if !ivDone {
						row.Intervals += int64(st.Intervals)
						ivDone = true
					}
				}
			}
			if cfg.OnPosition != nil {
				cfg.OnPosition(pr)
			}
			m, ok := played.Move, found
			if !cfg.AsPlayed {
				m, ok = movegen.Best(player, g.Board, &rack)
			}
			if !ok {
				m = move.Move{Kind: move.Pass}
			}
			if err := g.Play(m); err != nil {
				return nil, fmt.Errorf("bench movegen: game %d (seed %d), turn %d: playing its move: %w", gi, seed, turn, err)
			}
		}
		res.GameTurns = append(res.GameTurns, turn)
		res.GameMoves = append(res.GameMoves, gameMoves)
	}
	res.Elapsed = time.Since(t0)
	return res, nil
}

// Total sums the time of algorithm ai over turns from..to (1-based,
// inclusive; to ≤ 0 means the last turn).
func (r *MovegenResult) Total(ai, from, to int) time.Duration {
	if to <= 0 || to > len(r.Turns) {
		to = len(r.Turns)
	}
	var s time.Duration
	for t := from; t <= to; t++ {
		s += r.Turns[t-1].Time[ai]
	}
	return s
}

// Index returns the position of the named algorithm, or -1.
func (r *MovegenResult) Index(name string) int {
	for i, n := range r.Algos {
		if n == name {
			return i
		}
	}
	return -1
}

// Ratio is the time of algorithm a over the time of algorithm b over turns
// from..to.
func (r *MovegenResult) Ratio(a, b, from, to int) float64 {
	tb := r.Total(b, from, to)
	if tb == 0 {
		return 0
	}
	return float64(r.Total(a, from, to)) / float64(tb)
}

// pairs lists the ratios to print: every pair, slower (over the whole
// run) over faster.
func (r *MovegenResult) pairs() [][2]int {
	order := make([]int, len(r.Algos))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return r.Total(order[i], 1, 0) > r.Total(order[j], 1, 0) })
	var out [][2]int
	for i := 0; i < len(order); i++ {
		for j := i + 1; j < len(order); j++ {
			out = append(out, [2]int{order[i], order[j]})
		}
	}
	return out
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e6) }

func avg(sum int64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(sum)/float64(n))
}

// WriteTable prints the per-turn table (Anagram 2018 Table 2 with the
// counters of Sánchez Bello 2025 Figures 6.1–6.3) and the totals.
func (r *MovegenResult) WriteTable(w io.Writer) error {
	what := "generations (all moves)"
	if r.Best {
		what = "best-by-equity searches (leave " + r.Leave + ")"
	}
	if r.AsPlayed {
		fmt.Fprintf(w, "%s, %s: %d games played by the best move by equity (seeds %d..%d), one timed %s per position and algorithm (%s)\n\n",
			r.Variant, r.Lexicon, r.Games, r.Seed, r.Seed+uint64(r.Games)-1, what, r.Clock)
	} else {
		fmt.Fprintf(w, "%s, %s: %d greedy games (seeds %d..%d), median of %d timed %s per position and algorithm (%s)\n\n",
			r.Variant, r.Lexicon, r.Games, r.Seed, r.Seed+uint64(r.Games)-1, r.Reps, what, r.Clock)
	}
	pairs := r.pairs()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	hdr := []string{"turn", "pos"}
	for _, a := range r.Algos {
		hdr = append(hdr, a+" ms")
	}
	for _, p := range pairs {
		hdr = append(hdr, r.Algos[p[0]]+"/"+r.Algos[p[1]])
	}
	if r.AsPlayed {
		hdr = append(hdr, "found") // positions with a placement, not legal moves
	} else {
		hdr = append(hdr, "moves")
	}
	anyCount := false
	for ai, a := range r.Algos {
		if r.Counted[ai] {
			if !anyCount {
				hdr = append(hdr, "intervals")
				anyCount = true
			}
			hdr = append(hdr, a+" inst", a+" cand", a+" cand/inst")
		}
	}
	fmt.Fprintln(tw, strings.Join(hdr, "\t")+"\t")
	for _, row := range r.Turns {
		n := row.Positions
		if n == 0 {
			continue // a turn number no game reached (possible in joined CSV files)
		}
		cols := []string{fmt.Sprint(row.Turn), fmt.Sprint(n)}
		for ai := range r.Algos {
			cols = append(cols, ms(row.Time[ai]/time.Duration(n)))
		}
		for _, p := range pairs {
			cols = append(cols, ratio(row.Time[p[0]], row.Time[p[1]]))
		}
		cols = append(cols, avg(row.Moves, n))
		if anyCount {
			cols = append(cols, avg(row.Intervals, n))
		}
		for ai := range r.Algos {
			if r.Counted[ai] {
				cpi := "-"
				if row.Instances[ai] > 0 {
					cpi = fmt.Sprintf("%.2f", float64(row.Candidates[ai])/float64(row.Instances[ai]))
				}
				cols = append(cols, avg(row.Instances[ai], n), avg(row.Candidates[ai], n), cpi)
			}
		}
		fmt.Fprintln(tw, strings.Join(cols, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Totals.
	turns, maxTurns := 0, 0
	var moves int64
	for i, t := range r.GameTurns {
		turns += t
		maxTurns = max(maxTurns, t)
		moves += r.GameMoves[i]
	}
	g := float64(max(r.Games, 1))
	if r.AsPlayed {
		fmt.Fprintf(w, "\ngames %d; turns per game %.2f (max %d); legal moves not counted (searches timed as played)\n",
			r.Games, float64(turns)/g, maxTurns)
	} else {
		fmt.Fprintf(w, "\ngames %d; turns per game %.2f (max %d); legal moves per game %.1f; per turn (branching factor) %.2f\n",
			r.Games, float64(turns)/g, maxTurns, float64(moves)/g, float64(moves)/float64(max(turns, 1)))
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "algorithm\tms per game\tms in turns 1-12\tms per turn\t")
	for ai, a := range r.Algos {
		tot := r.Total(ai, 1, 0)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", a, ms(tot/time.Duration(max(r.Games, 1))),
			ms(r.Total(ai, 1, 12)/time.Duration(max(r.Games, 1))), ms(tot/time.Duration(max(turns, 1))))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(pairs) > 0 {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "ratio\twhole games\tturns 1-12\tturn 1\t")
		for _, p := range pairs {
			fmt.Fprintf(tw, "%s/%s\t%.2f\t%.2f\t%.2f\t\n", r.Algos[p[0]], r.Algos[p[1]],
				r.Ratio(p[0], p[1], 1, 0), r.Ratio(p[0], p[1], 1, 12), r.Ratio(p[0], p[1], 1, 1))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if r.Elapsed > 0 {
		fmt.Fprintf(w, "run took %v\n", r.Elapsed.Round(time.Millisecond))
	}
	return nil
}

func ratio(a, b time.Duration) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// Target is one speed target of the issue and whether a run meets it.
type Target struct {
	Text     string
	Measured string
	Met      bool
}

// Targets checks the speed targets that the run's algorithms
// allow (English SOWPODS targets; printed for any variant).
func (r *MovegenResult) Targets() []Target {
	g, d, a, i := r.Index("gaddag"), r.Index("dawg"), r.Index("anagram"), r.Index("iwm")
	var out []Target
	ge := func(text string, x, y, from, to int, want float64) {
		q := r.Ratio(x, y, from, to)
		out = append(out, Target{text, fmt.Sprintf("%.2f", q), q >= want})
	}
	if r.Best {
		if g >= 0 && a >= 0 {
			ge("best-by-equity through anagram tables ≥ 1.5× the gaddag's over whole games", g, a, 1, 0, 1.5)
		}
		if g >= 0 && i >= 0 {
			ge("best-by-equity through iwm tables ≥ 1.5× the gaddag's over whole games", g, i, 1, 0, 1.5)
		}
		return out
	}
	if a >= 0 && i >= 0 {
		var bad []string
		for _, row := range r.Turns {
			if row.Time[i] > row.Time[a] {
				bad = append(bad, fmt.Sprintf("%d (%d pos, %.2f)", row.Turn, row.Positions, float64(row.Time[a])/float64(row.Time[i])))
			}
		}
		m := "every turn"
		if len(bad) > 0 {
			m = "slower at turns " + strings.Join(bad, ", ")
		}
		out = append(out, Target{"iwm at least as fast as anagram at every turn number", m, len(bad) == 0})
		ge("iwm ≥ 1.5× anagram overall", a, i, 1, 0, 1.5)
	}
	if g >= 0 && i >= 0 {
		ge("iwm ≥ 3× gaddag at turn 1", g, i, 1, 1, 3)
		ge("iwm ≥ 2× gaddag over whole games", g, i, 1, 0, 2)
	}
	if g >= 0 && a >= 0 {
		ge("anagram ≥ 2× gaddag over turns 1-12", g, a, 1, 12, 2)
	}
	if g >= 0 && d >= 0 {
		ge("gaddag ≥ 1.5× dawg over whole games", d, g, 1, 0, 1.5)
	}
	return out
}

// WriteTargets prints the targets as a list.
func WriteTargets(w io.Writer, ts []Target) {
	for _, t := range ts {
		mark := "MISSED"
		if t.Met {
			mark = "met"
		}
		fmt.Fprintf(w, "  %-6s %s: %s\n", mark, t.Text, t.Measured)
	}
}

// CSVHeader returns the header of the per-position CSV.
func CSVHeader(algos []string, counted []bool) string {
	cols := []string{"game", "seed", "turn", "moves"}
	for _, a := range algos {
		cols = append(cols, a+"_ns")
	}
	for i, a := range algos {
		if counted[i] {
			cols = append(cols, a+"_intervals", a+"_instances", a+"_lookups", a+"_candidates")
		}
	}
	return strings.Join(cols, ",")
}

// CSVRow formats one position as a CSV line matching CSVHeader.
func (p *PositionResult) CSVRow() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d,%d,%d,%d", p.Game, p.Seed, p.Turn, p.Moves)
	for _, t := range p.Times {
		fmt.Fprintf(&sb, ",%d", t.Nanoseconds())
	}
	for i := range p.Times {
		if p.Counted[i] {
			s := &p.Stats[i]
			fmt.Fprintf(&sb, ",%d,%d,%d,%d", s.Intervals, s.Instances, s.Lookups, s.Candidates)
		}
	}
	return sb.String()
}
