package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"atril/movegen"
	"atril/player/leave"
	"atril/player/leave/selfplay"
)

func init() {
	register("leaves", "learn an exhaustive leave table by self-play (learn), or show leave values (show)", runLeaves)
}

func runLeaves(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("leaves: want a subcommand: learn or show")
	}
	switch args[0] {
	case "learn":
		return runLeavesLearn(args[1:])
	case "show":
		return runLeavesShow(args[1:])
	}
	return fmt.Errorf("leaves: unknown subcommand %q (learn, show)", args[0])
}

func runLeavesLearn(args []string) error {
	fs := flag.NewFlagSet("leaves learn", flag.ContinueOnError)
	variantName, lexName := envFlags(fs)
	algo := fs.String("algo", "gaddag", "move generator: "+strings.Join(movegen.Names(), ", "))
	games := fs.Int("games", 20000, "self-play games per iteration")
	iters := fs.Int("iterations", 3, "iterations: each plays with the table fitted after the one before")
	threads := fs.Int("threads", 0, "games played at once (0: one per CPU)")
	seed := fs.Uint64("seed", 1, "seed of every random choice: same seed, same table")
	from := fs.String("from", "default", "table the first iteration plays with: default, learnt, v1, v2, czech, spanish, or a file")
	out := fs.String("out", "", "write the learnt table to this file (gzip-compressed binary)")
	ckpt := fs.String("checkpoint", "", "checkpoint file, written every --chunk games; a run with the same settings resumes from it (default: OUT.ckpt; 'none': off)")
	chunk := fs.Int("chunk", 2000, "games between checkpoints")
	name := fs.String("name", "", "name written into the table (default: the variant's name and 'learnt')")
	shrink := fs.Float64("shrink", 0, "shrinkage constant in observations (0: estimated per leave size)")
	ridge := fs.Float64("ridge", 0, "ridge term of the feature regression (0: 10)")
	target := fs.String("target", "kept", "what a leave is credited with: kept (the next turn after keeping it), rack (every turn played from a rack holding it) or draw (as rack, but only where the leave holds every tile kept from the turn before)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("leaves learn: --out FILE is required")
	}
	e, err := loadEnv(*variantName, *lexName)
	if err != nil {
		return err
	}
	ix, err := leave.NewIndex(e.V)
	if err != nil {
		return err
	}
	start, err := leave.Load(e.V, *from, 0)
	if err != nil {
		return fmt.Errorf("leaves learn: --from: %w", err)
	}
	startTable, ok := start.(*leave.Exhaustive)
	if !ok {
		startTable = leave.FromEvaluator(*from, e.V.Name, ix, start)
	}
	gen, err := movegen.New(*algo, e.Lex)
	if err != nil {
		return err
	}
	if *name == "" {
		*name = e.V.Name + " learnt"
	}
	cp := *ckpt
	switch cp {
	case "":
		cp = *out + ".ckpt"
	case "none":
		cp = ""
	}
	cfg := selfplay.Config{Variant: e.V, Lexicon: e.Lex, Generator: gen, Name: *name,
		Games: *games, Iterations: *iters, Threads: *threads, Seed: *seed, From: startTable,
		Checkpoint: cp, Chunk: *chunk, Fit: leave.FitOptions{Shrink: *shrink, Ridge: *ridge}, Log: os.Stdout,
		Target: *target}
	if !*quiet {
		cfg.Progress = rateBar(isTerminal(os.Stderr))
	}
	fmt.Printf("%s, lexicon %s, generator %s: %d iterations of %d games, seed %d, from %s, %d leaves of 1 to %d tiles\n",
		e.V.Name, e.Lex.Name, gen.Name(), *iters, *games, *seed, *from, ix.Len()-1, ix.MaxLeave())
	res, err := selfplay.Run(cfg)
	if err != nil {
		return err
	}
	if err := writeFile(*out, res.Table.WriteGzip); err != nil {
		return err
	}
	st, _ := os.Stat(*out)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("\nwrote %s (%d bytes): %d games, %d observations, %.0f s in this run%s, %.0f MB obtained from the OS\n",
		*out, st.Size(), res.Games, res.Samples, res.Elapsed.Seconds(), map[bool]string{true: " (resumed)"}[res.Resumed], float64(ms.Sys)/(1<<20))
	if cp != "" {
		if err := os.Remove(cp); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// rateBar reports progress with games per second: a bar redrawn in place
// on a terminal, a line every 2% otherwise.
func rateBar(terminal bool) func(done, total int) {
	start := time.Now()
	var mu sync.Mutex
	first, last := -1, -1
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if first < 0 {
			first = done - 1
		}
		el := time.Since(start).Seconds()
		rate := float64(done-first) / math.Max(el, 1e-9)
		eta := float64(total-done) / math.Max(rate, 1e-9)
		if terminal {
			const width = 30
			n := done * width / total
			fmt.Fprintf(os.Stderr, "\r[%s%s] %d/%d games, %.1f games/s, ETA %.0f s ", strings.Repeat("#", n), strings.Repeat(" ", width-n), done, total, rate, eta)
			if done == total {
				fmt.Fprintln(os.Stderr)
			}
			return
		}
		step := max(total/50, 1)
		if done/step != last || done == total {
			last = done / step
			fmt.Fprintf(os.Stderr, "leaves: %d/%d games, %.1f games/s, %.0f s, ETA %.0f s\n", done, total, rate, el, eta)
		}
	}
}

func runLeavesShow(args []string) error {
	fs := flag.NewFlagSet("leaves show", flag.ContinueOnError)
	variantName, lexName := envFlags(fs)
	name := fs.String("leave", "default", "table: default, learnt, v1, v2, czech, spanish, or a file")
	top := fs.Int("top", 5, "best and worst sub-leaves to list")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("leaves show: give one or more racks, e.g. AEINRST or QU?")
	}
	v, err := loadVariantOnly(*variantName, *lexName)
	if err != nil {
		return err
	}
	t, err := leave.Load(v.V, *name, 0)
	if err != nil {
		return err
	}
	if t == nil {
		return fmt.Errorf("leaves show: table %q has no values", *name)
	}
	label := *name
	if x, ok := t.(*leave.Exhaustive); ok {
		label = x.Name
	} else if x, ok := t.(*leave.Table); ok {
		label = x.Name
	}
	a := v.V.Alphabet
	maxLeave := v.V.RackSize - 1
	for _, text := range fs.Args() {
		r, err := a.ParseRack(strings.ToUpper(text))
		if err != nil {
			return fmt.Errorf("leaves show: %w", err)
		}
		if err := v.V.InSet(&r); err != nil {
			return fmt.Errorf("leaves show: %s: %w", text, err)
		}
		fmt.Printf("%s (table %s)\n", a.RackString(&r), label)
		ex := leave.Explain(t, r, maxLeave, *top)
		if ex.IsLeave {
			fmt.Printf("  value %+.2f\n", ex.Value)
		} else {
			fmt.Printf("  %d tiles: a leave holds at most %d; its sub-leaves:\n", r.Len(), maxLeave)
		}
		if len(ex.Best) == 0 {
			continue
		}
		list := func(vs []leave.Valued) {
			for _, s := range vs {
				fmt.Printf("%s %+.2f  ", a.RackString(&s.Leave), s.Value)
			}
		}
		fmt.Printf("  best sub-leaves: ")
		list(ex.Best)
		fmt.Printf("\n  worst sub-leaves: ")
		list(ex.Worst)
		fmt.Println()
		fmt.Printf("  best by tiles kept: ")
		for n, b := range ex.BestByKept {
			fmt.Printf("%d: %s %+.2f  ", n+1, a.RackString(&b.Leave), b.Value)
		}
		fmt.Println()
	}
	return nil
}

// loadVariantOnly loads the variant; show needs no word list.
func loadVariantOnly(variantName, _ string) (*env, error) {
	v, err := loadVariant(variantName)
	if err != nil {
		return nil, err
	}
	return &env{V: v}, nil
}
