package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"atril/game"
	"atril/move"
	"atril/movegen"
)

func init() {
	register("play", "play a game in the terminal against the computer", runPlay)
}

func runPlay(args []string) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	seed := fs.Uint64("seed", 1, "seed of the bag (same seed, same game)")
	algo := fs.String("algo", "gaddag", "move generator of the computer")
	name := fs.String("name", "you", "your name")
	first := fs.Bool("second", false, "let the computer move first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	e, err := loadEnv(*vn, *ln)
	if err != nil {
		return err
	}
	gen, err := movegen.New(*algo, e.Lex)
	if err != nil {
		return err
	}
	names := []string{*name, "computer"}
	human := 0
	if *first {
		names = []string{"computer", *name}
		human = 1
	}
	g, err := game.New(e.V, e.Lex, names, *seed)
	if err != nil {
		return err
	}
	return playLoop(g, gen, human, os.Stdin, os.Stdout)
}

// playLoop runs a game between a person reading from in and a greedy
// computer until the game ends or the input does.
func playLoop(g *game.Game, gen movegen.Generator, human int, in io.Reader, out io.Writer) error {
	a := g.Variant.Alphabet
	sc := bufio.NewScanner(in)
	fmt.Fprintf(out, "Moves: \"8H WORD\" across, \"H8 WORD\" down (letters on the board included,\nlowercase for a blank), \"-ABC\" to exchange, \"-\" to pass, \"hint\", \"quit\".\n")
	for !g.Over() {
		p := g.Current()
		if p != human {
			m, ok := movegen.Best(gen, g.Board, &g.Seats[p].Rack)
			if !ok {
				m = move.Move{Kind: move.Pass}
				if g.BagLen() >= g.Variant.ExchangeMinBag {
					r := g.Seats[p].Rack
					m = move.Move{Kind: move.Exchange, Exchanged: r.Tiles()[:min(r.Len(), g.BagLen())]}
				}
			}
			if err := g.Play(m); err != nil {
				return fmt.Errorf("computer move: %w", err)
			}
			t := g.History[len(g.History)-1]
			fmt.Fprintf(out, "\ncomputer plays %s for %d\n", t.Notation, t.Points)
			continue
		}
		fmt.Fprintf(out, "\n%s\n", g.Board)
		for _, pl := range g.Seats {
			fmt.Fprintf(out, "%s: %d   ", pl.Name, pl.Score)
		}
		fmt.Fprintf(out, "bag: %d\nyour rack: %s\n> ", g.BagLen(), a.RackString(&g.Seats[p].Rack))
		if !sc.Scan() {
			return sc.Err()
		}
		line := strings.TrimSpace(sc.Text())
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "q":
			fmt.Fprintln(out, "bye")
			return nil
		case "hint":
			ms := movegen.All(gen, g.Board, &g.Seats[p].Rack)
			for i := 0; i < len(ms) && i < 5; i++ {
				fmt.Fprintf(out, "  %s %d\n", ms[i].String(g.Board), ms[i].Score)
			}
			continue
		}
		m, err := move.Parse(g.Board, line)
		if err != nil {
			fmt.Fprintf(out, "cannot read that: %v\n", err)
			continue
		}
		if err := g.Play(*m); err != nil {
			fmt.Fprintf(out, "not allowed: %v\n", err)
			continue
		}
		t := g.History[len(g.History)-1]
		fmt.Fprintf(out, "you play %s for %d\n", t.Notation, t.Points)
	}
	fmt.Fprintf(out, "\n%s\nGame over.\n", g.Board)
	for _, t := range g.History {
		if t.Kind != game.Played {
			fmt.Fprintf(out, "%s %+d (rack %s)\n", g.Seats[t.Player].Name, t.Points, a.RackString(&t.Rack))
		}
	}
	for _, pl := range g.Seats {
		fmt.Fprintf(out, "%s: %d\n", pl.Name, pl.Score)
	}
	return nil
}
