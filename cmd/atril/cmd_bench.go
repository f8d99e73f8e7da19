package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"atril/bench"
	"atril/movegen"
	"atril/multiset"
	"atril/player/leave"
	"atril/variant"
)

// benchCommands are the subcommands of "atril bench".
var benchCommands = map[string]command{
	"movegen":   {"greedy self-play timed per turn for every generator (Anagram 2018 Table 2, Sánchez Bello 2025 ch. 6)", benchMovegen},
	"blanks":    {"one word on the board and racks with 2, 1, 0 blanks (Anagram 2018 Table 3)", benchBlanks},
	"threshold": {"IWM index-table entries and speed for decision thresholds 1..30 (Sánchez Bello 2025 Fig. 5.6)", benchThreshold},
	"memory":    {"memory held by each lexicon structure and table", benchMemory},
}

func init() {
	register("bench", "move-generator experiments: movegen, blanks, threshold, memory (run \"atril bench\" for the list)", runBench)
}

func benchUsage() {
	fmt.Fprintln(os.Stderr, "usage: atril bench <subcommand> [flags]\n\nsubcommands:")
	var names []string
	for n := range benchCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, benchCommands[n].summary)
	}
}

func runBench(args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		benchUsage()
		if len(args) == 0 {
			return errors.New("missing subcommand")
		}
		return nil
	}
	c, ok := benchCommands[args[0]]
	if !ok {
		benchUsage()
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	if err := c.run(args[1:]); err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	return nil
}

// timingFlags are --clock and --order.
type timingFlags struct{ clock, order *string }

// clockFlag adds --clock and --order to a flag set.
func clockFlag(fs *flag.FlagSet) *timingFlags {
	return &timingFlags{
		clock: fs.String("clock", "cpu", "what timings measure: cpu (the thread's CPU time, robust on a busy machine) or wall"),
		order: fs.String("order", "interleaved", "how the timed generations of the algorithms follow each other on a position: interleaved (round by round) or consecutive (each algorithm's in a row, with its own data in the caches)"),
	}
}

// setClock applies --clock and --order (nil: the command has no such flags).
func setClock(f *timingFlags) error {
	if f == nil {
		return nil
	}
	c, err := bench.ParseClock(*f.clock)
	if err != nil {
		return err
	}
	o, err := bench.ParseOrder(*f.order)
	if err != nil {
		return err
	}
	bench.TimeWith, bench.RunOrder = c, o
	return nil
}

const defaultAlgos = "gaddag,dawg,anagram,iwm"

// buildAlgos loads the tables of the named generators, saying on stderr
// how long each took.
func buildAlgos(e *env, names string, threshold int) ([]bench.Algo, error) {
	tabs := bench.NewTables(e.Lex)
	algos, err := tabs.Build(bench.ParseAlgos(names), bench.Options{Threshold: threshold})
	if err != nil {
		return nil, err
	}
	var parts []string
	for _, k := range []string{"per", "gaddag", "dawg", "anagram", "iwm"} {
		if t, ok := tabs.Times[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", k, t.Round(time.Millisecond)))
		}
	}
	fmt.Fprintf(os.Stderr, "%s: tables ready (%s)\n", e.V.Name, strings.Join(parts, ", "))
	return algos, nil
}

func benchMovegen(args []string) error {
	fs := flag.NewFlagSet("bench movegen", flag.ContinueOnError)
	clock := clockFlag(fs)
	variantName, lexName := envFlags(fs)
	games := fs.Int("games", 10, "greedy games to play")
	seed := fs.Uint64("seed", 1, "seed of the first game (game i uses seed+i)")
	algos := fs.String("algos", defaultAlgos, "generators to time, comma-separated (the first one plays the games)")
	threshold := fs.Int("threshold", 10, "IWM decision threshold")
	reps := fs.Int("reps", 3, "timed generations per position and generator (the median is kept)")
	csvPath := fs.String("csv", "", "write one CSV row per position to this file")
	plotPath := fs.String("plot", "", "save a plot of time per turn to this file (.png, .svg, .pdf), and the counters next to it")
	fromCSV := fs.String("from-csv", "", "play nothing: print the table (and --plot) of earlier --csv files, comma-separated")
	best := fs.Bool("best", false, "time best-by-equity generation (the best move by score plus --leave) instead of listing every move")
	leaveName := fs.String("leave", "none", "with --best: the leave values, none (score alone), default (the learnt table), v1, v2, ... or a file")
	asPlayed := fs.Bool("as-played", false, "with --best: time each search once, as a game's turn runs it (no untimed search of the position first; the generators take turns to go first; the games are played by the best move by equity; --reps and --order do not apply)")
	cpuProfile := cpuProfileFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *asPlayed && !*best {
		return fmt.Errorf("--as-played needs --best")
	}
	stop, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stop()
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := setClock(clock); err != nil {
		return err
	}
	if *fromCSV != "" {
		return benchFromCSV(*fromCSV, *variantName, *lexName, *reps, *plotPath)
	}
	e, err := loadEnv(*variantName, *lexName)
	if err != nil {
		return err
	}
	as, err := buildAlgos(e, *algos, *threshold)
	if err != nil {
		return err
	}
	var lv movegen.Leave
	if *best && *leaveName != "none" {
		t, err := leave.Load(e.V, *leaveName, 0)
		if err != nil {
			return err
		}
		lv = t
	}
	var csv *bufio.Writer
	if *csvPath != "" {
		f, err := os.Create(*csvPath)
		if err != nil {
			return err
		}
		defer f.Close()
		csv = bufio.NewWriter(f)
		names := make([]string, len(as))
		counted := make([]bool, len(as))
		for i := range as {
			names[i] = as[i].Name
			_, counted[i] = as[i].Stats()
		}
		fmt.Fprintln(csv, bench.CSVHeader(names, counted))
	}
	bar := bench.NewProgress(os.Stderr, "games", *games)
	res, err := bench.RunMovegen(bench.MovegenConfig{
		V: e.V, Lex: e.Lex, Algos: as, Games: *games, Seed: *seed, Reps: *reps,
		Best: *best, Leave: lv, LeaveName: *leaveName, AsPlayed: *asPlayed,
		OnPosition: func(p *bench.PositionResult) {
			if csv != nil {
				fmt.Fprintln(csv, p.CSVRow())
			}
			bar.Set(p.Game)
		},
	})
	bar.Set(*games)
	if err != nil {
		return err
	}
	if csv != nil {
		if err := csv.Flush(); err != nil {
			return fmt.Errorf("writing %s: %w", *csvPath, err)
		}
	}
	return reportMovegen(res, *plotPath)
}

// benchFromCSV rebuilds the movegen table from CSV files.
func benchFromCSV(files, variantName, lexName string, reps int, plotPath string) error {
	if lexName == "" {
		v, err := variant.Load(variantName)
		if err != nil {
			return err
		}
		variantName, lexName = v.Name, v.DefaultLexicon
	}
	res := &bench.MovegenResult{Variant: variantName, Lexicon: lexName, Reps: reps, Clock: bench.Timing()}
	for _, name := range bench.ParseAlgos(files) {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = res.ReadCSV(bufio.NewReader(f), name)
		f.Close()
		if err != nil {
			return err
		}
	}
	if res.Games == 0 {
		return fmt.Errorf("no position in %s", files)
	}
	return reportMovegen(res, plotPath)
}

// reportMovegen prints the table, the targets and the plots.
func reportMovegen(res *bench.MovegenResult, plotPath string) error {
	if err := res.WriteTable(os.Stdout); err != nil {
		return err
	}
	if ts := res.Targets(); len(ts) > 0 {
		which := "of the interval methods (Sánchez Bello 2025, Anagram 2018)"
		if res.Best {
			which = "of best-by-equity generation through intervals"
		}
		fmt.Printf("\nspeed targets %s, stated for English SOWPODS, 1000 games:\n", which)
		bench.WriteTargets(os.Stdout, ts)
	}
	if plotPath != "" {
		if err := res.Plot(plotPath); err != nil {
			return err
		}
		fmt.Printf("plots: %s", plotPath)
		for _, c := range res.Counted {
			if c {
				fmt.Printf(", %s", bench.CountersPath(plotPath))
				break
			}
		}
		fmt.Println()
	}
	return nil
}

func benchBlanks(args []string) error {
	fs := flag.NewFlagSet("bench blanks", flag.ContinueOnError)
	clock := clockFlag(fs)
	variants := fs.String("variant", "english,spanish,czech", "variants to run, comma-separated")
	algos := fs.String("algos", defaultAlgos, "generators to time, comma-separated (ratios are the first over each other)")
	threshold := fs.Int("threshold", 10, "IWM decision threshold")
	reps := fs.Int("reps", 5, "timed generations per rack and generator (the median is kept)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := setClock(clock); err != nil {
		return err
	}
	for i, vn := range bench.ParseAlgos(*variants) {
		v, err := variant.Load(vn)
		if err != nil {
			return err
		}
		c, ok := bench.BlankCaseFor(v.Name)
		if !ok {
			return fmt.Errorf("no blank experiment for variant %s (have english, spanish, czech)", v.Name)
		}
		e, err := loadEnv(vn, "")
		if err != nil {
			return err
		}
		as, err := buildAlgos(e, *algos, *threshold)
		if err != nil {
			return err
		}
		res, err := bench.RunBlanks(e.V, e.Lex, as, c, *reps)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Println()
		}
		if err := res.WriteTable(os.Stdout); err != nil {
			return err
		}
	}
	return nil
}

func benchThreshold(args []string) error {
	fs := flag.NewFlagSet("bench threshold", flag.ContinueOnError)
	clock := clockFlag(fs)
	variantName, lexName := envFlags(fs)
	games := fs.Int("games", 10, "greedy games whose positions are timed")
	seed := fs.Uint64("seed", 1, "seed of the first game (game i uses seed+i)")
	from := fs.Int("from", 1, "first threshold")
	to := fs.Int("to", 30, "last threshold")
	list := fs.String("thresholds", "", "thresholds to try, comma-separated (instead of --from..--to)")
	together := fs.Int("together", 1, "build this many tables at once (up to 8) and time them interleaved position by position (memory: that many IWM tables)")
	reps := fs.Int("reps", 3, "timed generations per position (the median is kept)")
	plotPath := fs.String("plot", "", "save the index-entries plot (Sánchez Bello 2025 Fig. 5.6) to this file, and the times next to it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := setClock(clock); err != nil {
		return err
	}
	var ths []int
	if *list != "" {
		for _, f := range bench.ParseAlgos(*list) {
			t, err := strconv.Atoi(f)
			if err != nil || t < 1 {
				return fmt.Errorf("--thresholds: %q is not a threshold ≥ 1", f)
			}
			ths = append(ths, t)
		}
	} else {
		if *from < 1 || *to < *from {
			return fmt.Errorf("thresholds %d..%d: want 1 ≤ from ≤ to", *from, *to)
		}
		for t := *from; t <= *to; t++ {
			ths = append(ths, t)
		}
	}
	e, err := loadEnv(*variantName, *lexName)
	if err != nil {
		return err
	}
	as, err := buildAlgos(e, "gaddag", 0)
	if err != nil {
		return err
	}
	ps, err := bench.GreedyPositions(e.V, e.Lex, as[0].Gen, *games, *seed)
	if err != nil {
		return err
	}
	per, err := multiset.Build(e.Lex.Alphabet.Size(), e.Lex)
	if err != nil {
		return fmt.Errorf("PER tables: %w", err)
	}
	bar := bench.NewProgress(os.Stderr, "thresholds", len(ths))
	bar.Set(0)
	res, err := bench.RunThreshold(e.V, e.Lex, per, ps, ths, *reps, *together, bar.Set)
	if err != nil {
		return err
	}
	if err := res.WriteTable(os.Stdout); err != nil {
		return err
	}
	if *plotPath != "" {
		if err := res.Plot(*plotPath); err != nil {
			return err
		}
		fmt.Printf("plots: %s, %s\n", *plotPath, bench.ThresholdTimePath(*plotPath))
	}
	return nil
}

func benchMemory(args []string) error {
	fs := flag.NewFlagSet("bench memory", flag.ContinueOnError)
	variants := fs.String("variant", "english,spanish,czech", "variants, comma-separated (each with its default word list)")
	threshold := fs.Int("threshold", 10, "IWM decision threshold")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for i, vn := range bench.ParseAlgos(*variants) {
		v, err := variant.Load(vn)
		if err != nil {
			return err
		}
		rows, err := bench.Memory(v, v.DefaultLexicon, *threshold)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Println()
		}
		if err := bench.WriteMemory(os.Stdout, v.Name, rows); err != nil {
			return err
		}
	}
	return nil
}
