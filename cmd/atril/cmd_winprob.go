package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"atril/game"
	"atril/movegen"
	"atril/player"
	"atril/winprob"
)

func init() {
	register("winprob", "fit the winning-chances model of a variant to the computer's self-play, and show how well it is calibrated", runWinprob)
}

func runWinprob(args []string) error {
	fs := flag.NewFlagSet("winprob", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	games := fs.Int("games", 20000, "self-play games (inhuman against inhuman, the default leave table)")
	seed := fs.Uint64("seed", 1, "seed of the first game (game k is played from seed+k)")
	threads := fs.Int("threads", 2, "games played at once")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: atril winprob [--variant V] [--lexicon L] [--games N] [--seed S] [--threads T]\n\nPlays N games of inhuman self-play, fits the winning-chances model to the positions\nbefore their moves, and prints it with its log loss and calibration, half the games\nfitted and the other half checked, then all fitted (the model to embed).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *games < 2 || *threads < 1 {
		fs.Usage()
		return fmt.Errorf("winprob: --games 2 or more and --threads 1 or more, and no arguments")
	}
	e, err := loadEnv(*vn, *ln)
	if err != nil {
		return err
	}
	gen, err := movegen.New("gaddag", e.Lex)
	if err != nil {
		return err
	}
	per := make([][]winprob.Sample, *games)
	var wg sync.WaitGroup
	errs := make([]error, *threads)
	for w := range *threads {
		wg.Add(1)
		go func(w int, gen movegen.Generator) {
			defer wg.Done()
			for k := w; k < *games; k += *threads {
				s := *seed + uint64(k)
				g, err := selfPlayGame(e, gen, s)
				if err == nil {
					per[k], err = winprob.Samples(g)
				}
				if err != nil {
					errs[w] = fmt.Errorf("winprob: game %d (seed %d): %w", k, s, err)
					return
				}
			}
		}(w, gen.Fork())
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return reportWinprob(os.Stdout, e.V.Name, per)
}

// selfPlayGame plays a game of inhuman self-play from seed.
func selfPlayGame(e *env, gen movegen.Generator, seed uint64) (*game.Game, error) {
	g, err := game.New(e.V, e.Lex, []string{"1", "2"}, seed)
	if err != nil {
		return nil, err
	}
	var bots [2]player.Player
	for i := range bots {
		if bots[i], err = player.New("inhuman", player.Options{Variant: e.V, Lexicon: e.Lex, Generator: gen, Seed: seed*2 + uint64(i)}); err != nil {
			return nil, err
		}
	}
	for !g.Over() {
		i := g.Current()
		if err := g.Play(bots[i].Choose(player.ViewOf(g, i))); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// reportWinprob fits the model to the even games and checks it on the
// odd ones, then fits it to all, and prints both.
func reportWinprob(w io.Writer, variant string, per [][]winprob.Sample) error {
	var even, odd, all []winprob.Sample
	for k, s := range per {
		if k%2 == 0 {
			even = append(even, s...)
		} else {
			odd = append(odd, s...)
		}
		all = append(all, s...)
	}
	start := winprob.Model{Scale: 10, Power: 0.5, Turn: 20}
	if m, ok := winprob.Models[variant]; ok {
		start = m
	}
	half, halfLoss := winprob.Fit(even, start)
	fmt.Fprintf(w, "%s: %d games, %d positions\n", variant, len(per), len(all))
	fmt.Fprintf(w, "fitted to the even games (%d positions): scale %.3f, power %.3f, turn %.3f; log loss %.4f\n", len(even), half.Scale, half.Power, half.Turn, halfLoss)
	base := winprob.Model{Scale: 1e9}
	fmt.Fprintf(w, "checked on the odd games (%d positions): log loss %.4f (a coin: %.4f)\n", len(odd), half.LogLoss(odd), base.LogLoss(odd))
	fmt.Fprintln(w, "calibration on the odd games:\n  chance      positions  predicted  won")
	for _, b := range half.Calibration(odd, 10) {
		fmt.Fprintf(w, "  %3.0f–%3.0f%%  %9d  %8.1f%%  %5.1f%%\n", 100*b.From, 100*b.To, b.Samples, 100*b.Predicted, 100*b.Won)
	}
	m, loss := winprob.Fit(all, half)
	fmt.Fprintf(w, "fitted to all: scale %.3f, power %.3f, turn %.3f; log loss %.4f\n", m.Scale, m.Power, m.Turn, loss)
	fmt.Fprintf(w, "embed: %q: {Scale: %.3f, Power: %.3f, Turn: %.2f},\n", variant, m.Scale, m.Power, m.Turn)
	return nil
}
