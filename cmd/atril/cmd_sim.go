package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"atril/match"
	"atril/movegen"
	"atril/player"
	"atril/player/leave"
)

func init() {
	register("sim", "play computer levels against each other and print the statistics table of Pícek 2008", runSim)
}

// autoAlgo is the generator --algo auto picks for two levels: the
// anagram tables when a player searches by equity with a leave (inhuman,
// godlike, simulation), where they are the faster (the simulation's
// replies above all), or when every player searches the best move by
// score (professional); the GADDAG, faster at listing every move (the
// lower levels), otherwise.
func autoAlgo(levels ...string) string {
	greedyOnly := true
	for _, l := range levels {
		switch l {
		case "inhuman", "godlike", "simulation":
			return "anagram"
		case "professional":
		default:
			// The lower levels list every move, which the GADDAG does
			// fastest.
			greedyOnly = false
		}
	}
	if greedyOnly {
		// Greedy players search the best move only, now faster
		// through the anagram tables (1.67 against 1.80 s for 1000
		// games), with the same moves.
		return "anagram"
	}
	return "gaddag"
}

func runSim(args []string) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	variantName, lexName := envFlags(fs)
	algo := fs.String("algo", "auto", "move generator: "+strings.Join(movegen.Names(), ", ")+", or auto (anagram when a player values leaves: inhuman, godlike, simulation, or when every player is professional; else gaddag)")
	egAlgo := fs.String("endgame-algo", "gaddag", "move generator of the endgame and pre-endgame searches, which list every move (the GADDAG's strength; the interval generators are faster only at finding the best move)")
	p1 := fs.String("p1", "godlike", "first player's level: "+strings.Join(player.Levels(), ", "))
	p2 := fs.String("p2", "professional", "second player's level")
	games := fs.Int("games", 100, "games to play (the first player alternates)")
	seed := fs.Uint64("seed", 1, "seed of every random choice: same seed, same games")
	threads := fs.Int("threads", 0, "games played at once (0: one per CPU)")
	csvPath := fs.String("csv", "", "write one line per game to this CSV file")
	plotPath := fs.String("plot", "", "draw the score distributions to this file (.png, .svg or .pdf)")
	leaveBoth := fs.String("leave", "default", "both players' leave table: default (the learnt exhaustive table), v1, v2, czech, spanish, none, or a file (from leaves learn or --learn)")
	leave1 := fs.String("leave1", "", "player 1's leave table (default: --leave)")
	leave2 := fs.String("leave2", "", "player 2's leave table (default: --leave)")
	paired := fs.Bool("paired", false, "play the games in pairs on the same bag with the seats swapped")
	judgeMoves := fs.Bool("judge", false, "value every move of each game by static equity with the default leave table, as the server's analysis of finished games does, and report each player's share of top choices and equity given up a move")
	balance := fs.Float64("balance", 0, "weight of the vowel/consonant balance term in both players' leaves (0: off)")
	balance1 := fs.Float64("balance1", -1, "player 1's balance weight (default: --balance)")
	balance2 := fs.Float64("balance2", -1, "player 2's balance weight (default: --balance)")
	egNodes := fs.Int64("endgame-nodes", defaultEndgameNodes, "node budget of one endgame search (reproducible)")
	egTime := fs.Duration("endgame-time", 0, "time budget of one endgame search (0: none; results then depend on the machine)")
	egWidth := fs.Int("endgame-width", 0, "moves kept per endgame node (0: all, exact; 10: the minimax of Pícek 2008)")
	egPlayout := fs.Bool("endgame-playout", false, "value where a depth-limited endgame search stops by a greedy playout to the end")
	cands := fs.Int("candidates", 40, "simulation: candidates kept by static value")
	iters := fs.Int("iterations", 400, "simulation: most iterations (sampled racks and draws) per candidate")
	plies := fs.Int("plies", 2, "simulation: moves simulated after the candidate")
	confidence := fs.Float64("confidence", 0, "simulation: confidence of the best-arm elimination (0: the player's default, 0.8)")
	simBudget := fs.Duration("sim-time", 0, "simulation: time budget per move (0: none; results then depend on the machine)")
	preCands := fs.Int("preendgame", 0, "godlike and simulation: placements solved with one tile in the bag (0: 8, -1: off)")
	preWins := fs.Bool("preendgame-wins", false, "godlike and simulation: pick the pre-endgame move by wins instead of expected spread")
	preBag := fs.Int("preendgame-bag", 1, "godlike and simulation: most tiles in the bag for the pre-endgame search (1 or 2)")
	simThreads := fs.Int("sim-threads", 1, "simulation: goroutines per move (games already run in parallel)")
	inferBoth := fs.Bool("infer", false, "simulation: draw the opponent's rack from the leaves its last placement was consistent with (rack inference), both players")
	infer1 := fs.Bool("infer1", false, "simulation: player 1 infers (as --infer)")
	infer2 := fs.Bool("infer2", false, "simulation: player 2 infers (as --infer)")
	rankBoth := fs.String("sim-rank", "spread", "simulation: choose among the candidates left by the mean value (spread) or by the chance of winning, ties by the mean (win), both players")
	rank1 := fs.String("sim-rank1", "", "simulation: player 1's choice (as --sim-rank)")
	rank2 := fs.String("sim-rank2", "", "simulation: player 2's choice (as --sim-rank)")
	learn := fs.String("learn", "", "learn leave values from the games' leaves and write the table to this file")
	quiet := fs.Bool("quiet", false, "no progress bar")
	cpuProfile := cpuProfileFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	stop, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stop()
	e, err := loadEnv(*variantName, *lexName)
	if err != nil {
		return err
	}
	if *algo == "auto" {
		*algo = autoAlgo(*p1, *p2)
	}
	t0 := time.Now()
	gen, err := movegen.New(*algo, e.Lex)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "generator %s ready in %.1f s\n", gen.Name(), time.Since(t0).Seconds())
	var egen movegen.Generator
	if *egAlgo != *algo {
		t0 = time.Now()
		if egen, err = movegen.New(*egAlgo, e.Lex); err != nil {
			return fmt.Errorf("--endgame-algo: %w", err)
		}
		fmt.Fprintf(os.Stderr, "endgame generator %s ready in %.1f s\n", egen.Name(), time.Since(t0).Seconds())
	}
	base := player.Options{Balance: *balance, EndgameNodes: *egNodes, EndgameTime: *egTime, EndgameWidth: *egWidth,
		EndgamePlayout: *egPlayout, Candidates: *cands, Iterations: *iters, Threads: *simThreads, Plies: *plies, Confidence: *confidence,
		Budget: *simBudget, PreEndgameCandidates: *preCands, PreEndgameWins: *preWins, PreEndgameBag: *preBag}
	if *egTime > 0 && *egNodes == defaultEndgameNodes {
		base.EndgameNodes = 0
	}
	cfg := match.Config{Variant: e.V, Lexicon: e.Lex, Generator: gen, EndgameGenerator: egen, Players: [2]string{*p1, *p2},
		Games: *games, Seed: *seed, Threads: *threads, Leaves: *learn != "", Paired: *paired}
	for k, name := range []string{*leave1, *leave2} {
		if name == "" {
			name = *leaveBoth
		}
		o := base
		if bw := []float64{*balance1, *balance2}[k]; bw >= 0 {
			o.Balance = bw
		}
		o.Infer = *inferBoth || []bool{*infer1, *infer2}[k]
		rank := []string{*rank1, *rank2}[k]
		if rank == "" {
			rank = *rankBoth
		}
		switch rank {
		case "spread":
		case "win":
			o.RankByWin = true
		default:
			return fmt.Errorf("player %d: --sim-rank %q: want spread or win", k+1, rank)
		}
		if err := setLeave(&o, name, e); err != nil {
			return fmt.Errorf("player %d: %w", k+1, err)
		}
		cfg.Options[k] = o
	}
	if *judgeMoves {
		t, err := leave.Load(e.V, "default", 0)
		if err != nil {
			return fmt.Errorf("--judge: %w", err)
		}
		if t == nil {
			return fmt.Errorf("--judge: the %s variant has no default leave table", e.V.Name)
		}
		cfg.Judge = t
	}
	if !*quiet {
		if isTerminal(os.Stderr) {
			cfg.Progress = progressBar(*games)
		} else {
			cfg.Progress = progressLines(*games)
		}
	}
	rep, err := match.Run(cfg)
	if err != nil {
		return err
	}
	fmt.Printf("%s, lexicon %s, generator %s, seed %d\n", e.V.Name, e.Lex.Name, gen.Name(), *seed)
	fmt.Printf("leave tables: player 1 %s, player 2 %s\n\n", leaveLabel(cfg.Options[0], e), leaveLabel(cfg.Options[1], e))
	if err := rep.WriteTable(os.Stdout); err != nil {
		return err
	}
	if *csvPath != "" {
		if err := writeFile(*csvPath, rep.WriteCSV); err != nil {
			return err
		}
	}
	if *plotPath != "" {
		if err := rep.Plot(*plotPath); err != nil {
			return err
		}
	}
	if *learn != "" {
		spec, err := leave.Learn("learnt", e.V.Alphabet, rep.Samples, 1)
		if err != nil {
			return err
		}
		if err := writeFile(*learn, spec.Write); err != nil {
			return err
		}
		fmt.Printf("\nlearnt leave values from %d leaves, written to %s\n", len(rep.Samples), *learn)
		printLeaveComparison(spec, e)
	}
	return nil
}

// setLeave resolves a leave flag: a built-in name (bound per game to the
// variant) or a table file read once.
func setLeave(o *player.Options, name string, e *env) error {
	if name == "" || slices.Contains(leave.LoadNames(), name) {
		o.Leave = name
		return nil
	}
	t, err := leave.Load(e.V, name, o.Balance)
	if err != nil {
		return err
	}
	o.LeaveTable = t
	return nil
}

// leaveLabel names the leave table a player's options resolve to.
func leaveLabel(o player.Options, e *env) string {
	t := o.LeaveTable
	if t == nil {
		var err error
		if t, err = leave.Load(e.V, o.Leave, o.Balance); err != nil {
			return err.Error()
		}
	}
	switch x := t.(type) {
	case *leave.Exhaustive:
		return x.Name + " (exhaustive)"
	case *leave.Table:
		return x.Name + " (per letter)"
	case nil:
		return "none"
	}
	return "?"
}

// printLeaveComparison sets the learnt values beside the hand table.
func printLeaveComparison(learnt *leave.Spec, e *env) {
	hand, err := leave.ForVariant(e.V, "", 0)
	if err != nil || hand == nil {
		return
	}
	fmt.Printf("\n| tile | hand (%s) | learnt | learnt dup. penalty |\n|---|---:|---:|---:|\n", hand.Name)
	for t := 0; t <= e.V.Alphabet.Size(); t++ {
		l := "?"
		if t > 0 {
			l = e.V.Alphabet.Letters()[t-1]
		}
		fmt.Printf("| %s | %+.1f | %+.2f | %.2f |\n", l, hand.Value[t], learnt.Values[l], learnt.DupBy[l])
	}
}

func writeFile(path string, write func(w io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressLines logs a line at every tenth of the games, for logs.
func progressLines(total int) func(done, total int) {
	start := time.Now()
	step := max(total/10, 1)
	return func(done, _ int) {
		if done%step == 0 || done == total {
			fmt.Fprintf(os.Stderr, "sim: %d/%d games, %.0f s\n", done, total, time.Since(start).Seconds())
		}
	}
}

// progressBar draws "[#####     ] 12/100 games, 3.4 s, ETA 25 s" on stderr.
func progressBar(total int) func(done, total int) {
	start := time.Now()
	var mu sync.Mutex
	return func(done, _ int) {
		mu.Lock()
		defer mu.Unlock()
		const width = 30
		n := done * width / total
		el := time.Since(start).Seconds()
		eta := el / float64(done) * float64(total-done)
		fmt.Fprintf(os.Stderr, "\r[%s%s] %d/%d games, %.0f s, ETA %.0f s ", strings.Repeat("#", n), strings.Repeat(" ", width-n), done, total, el, eta)
		if done == total {
			fmt.Fprintln(os.Stderr)
		}
	}
}

// defaultEndgameNodes is the node budget of one endgame search in
// matches: with the endgame's frontier estimates made cheap, 200,000
// nodes cost godlike about 0.8 s of CPU a game, and over 4,000 paired
// games against inhuman they win 51.9% against 51.4% with 20,000 (a
// spread of +5.1 a game against +3.4; match/results).
const defaultEndgameNodes = 200000
