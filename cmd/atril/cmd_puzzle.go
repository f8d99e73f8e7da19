package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"atril/game"
	"atril/move"
	"atril/movegen"
	"atril/puzzle"
)

func init() {
	register("puzzle", "solve a puzzle of the day in the terminal: find the highest-scoring play (or, with --endgame, the move that ends the game best)", runPuzzle)
}

func runPuzzle(args []string) error {
	fs := flag.NewFlagSet("puzzle", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	algo := fs.String("algo", "gaddag", "move generator")
	endgamePuzzle := fs.Bool("endgame", false, "an endgame puzzle: the bag empty, find the move that ends the game best")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: atril puzzle [--variant V] [--lexicon L] [--endgame] [N|today]\n\nPuzzle N (default today's) of the word list, the same as the server's:\ntype a play (\"8H WORD\", \"H8 WORD\"; with --endgame also \"pass\"), \"answer\" to see the\nsolution, \"quit\".")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	n := puzzle.Today(time.Now())
	switch {
	case fs.NArg() > 1:
		fs.Usage()
		return fmt.Errorf("one puzzle number at most, not %d arguments", fs.NArg())
	case fs.NArg() == 1 && fs.Arg(0) != "today":
		k, err := strconv.Atoi(fs.Arg(0))
		if err != nil || k < 1 || k > n {
			return fmt.Errorf("puzzle %q: a number from 1 to today's, %d", fs.Arg(0), n)
		}
		n = k
	}
	e, err := loadEnv(*vn, *ln)
	if err != nil {
		return err
	}
	gen, err := movegen.New(*algo, e.Lex)
	if err != nil {
		return err
	}
	if *endgamePuzzle {
		p, err := puzzle.MakeEndgame(e.V, e.Lex, e.Lex.Name, n, gen)
		if err != nil {
			return err
		}
		return endgameLoop(p, gen, os.Stdin, os.Stdout)
	}
	p, err := puzzle.Make(e.V, e.Lex, e.Lex.Name, n, gen)
	if err != nil {
		return err
	}
	return solveLoop(p, os.Stdin, os.Stdout)
}

// endgameLoop shows endgame puzzle p, reads moves from in until one
// gains the most to the end (or "answer", "quit" or the end of in), and
// says what each gains; gen values them.
func endgameLoop(p *puzzle.Endgame, gen movegen.Generator, in io.Reader, out io.Writer) error {
	g := p.Game
	a := g.Variant.Alphabet
	me := g.Current()
	fmt.Fprintf(out, "Endgame %d · %s: the bag is empty; find the move that ends the game best.\n\n%s\n", p.Number, p.Lexicon, g.Board)
	fmt.Fprintf(out, "you: %d   opponent: %d\nyour rack: %s\nthe opponent's rack (the tiles unseen): %s\n", g.Seats[me].Score, g.Seats[1-me].Score,
		a.RackString(&g.Seats[me].Rack), a.RackString(&g.Seats[1-me].Rack))
	fmt.Fprintf(out, "Type a play (\"8H WORD\" across, \"H8 WORD\" down, lowercase for a blank), \"pass\", \"answer\" or \"quit\".\n")
	return answerLoop(in, out, func() { showLine(p, out) }, func(line string) bool {
		m, err := readAnswer(g, line, true)
		if err != nil {
			fmt.Fprintf(out, "not a move here: %v\n", err)
			return false
		}
		value, exact := p.MoveValue(gen, *m)
		bound := ""
		if !exact {
			bound = " (the search stopped at its bound: the best it saw)"
		}
		if value >= p.Value {
			fmt.Fprintf(out, "Right: %s gains %+d to the end, the most%s.\n", m.String(g.Board), value, bound)
			showLine(p, out)
			return true
		}
		fmt.Fprintf(out, "%s gains %+d to the end%s; the best move gains more. Try again, or \"answer\".\n", m.String(g.Board), value, bound)
		return false
	})
}

// showLine prints the endgame puzzle's best line and its highest-scoring
// play.
func showLine(p *puzzle.Endgame, out io.Writer) {
	b := p.Game.Board
	fmt.Fprintf(out, "The best move gains %+d; the highest-scoring play, %s for %d, gains %+d.\nThe best line:\n", p.Value, p.Top.String(b), p.Top.Score, p.TopValue)
	b = b.Clone()
	for k, m := range p.Line {
		who := "you"
		if k%2 == 1 {
			who = "opponent"
		}
		fmt.Fprintf(out, "  %-9s %-16s %d\n", who, m.String(b), m.Score)
		if m.Kind == move.Place {
			b.PlaceLine(m.Dir, m.Row, m.Col, m.Tiles, 1000+k)
		}
	}
}

// solveLoop shows puzzle p, reads plays from in until one scores the
// most (or "answer", "quit" or the end of in), and says how each did.
func solveLoop(p *puzzle.Puzzle, in io.Reader, out io.Writer) error {
	g := p.Game
	a := g.Variant.Alphabet
	me := g.Current()
	fmt.Fprintf(out, "Puzzle %d · %s: find the highest-scoring play.\n\n%s\n", p.Number, p.Lexicon, g.Board)
	for i, pl := range g.Seats {
		who := "opponent"
		if i == me {
			who = "you"
		}
		fmt.Fprintf(out, "%s: %d   ", who, pl.Score)
	}
	fmt.Fprintf(out, "bag: %d\nyour rack: %s\n", g.BagLen(), a.RackString(&g.Seats[me].Rack))
	fmt.Fprintf(out, "Type a play (\"8H WORD\" across, \"H8 WORD\" down, lowercase for a blank), \"answer\" or \"quit\".\n")
	return answerLoop(in, out, func() { showBest(p, out) }, func(line string) bool {
		m, err := readAnswer(g, line, false)
		if err != nil {
			fmt.Fprintf(out, "not a play here: %v\n", err)
			return false
		}
		if m.Score == p.Scores[0] {
			fmt.Fprintf(out, "Right: %s scores %d, the most of the %d plays.\n", m.String(g.Board), m.Score, len(p.Scores))
			showBest(p, out)
			return true
		}
		fmt.Fprintf(out, "%s scores %d: play %d of %d by score. Try again, or \"answer\".\n", m.String(g.Board), m.Score, p.Rank(m.Score), len(p.Scores))
		return false
	})
}

// answerLoop reads a puzzle's answers from in until try says one was
// right, "answer" (reveal shows the solution), "quit" or the end of in.
func answerLoop(in io.Reader, out io.Writer, reveal func(), try func(line string) bool) error {
	sc := bufio.NewScanner(in)
	for {
		fmt.Fprint(out, "> ")
		if !sc.Scan() {
			return sc.Err()
		}
		line := strings.TrimSpace(sc.Text())
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "q":
			return nil
		case "answer":
			reveal()
			return nil
		}
		if try(line) {
			return nil
		}
	}
}

// showBest lists the puzzle's best plays.
func showBest(p *puzzle.Puzzle, out io.Writer) {
	fmt.Fprintf(out, "The best plays (of %d):\n", len(p.Scores))
	for _, m := range p.Best {
		fmt.Fprintf(out, "  %-16s %d\n", m.String(p.Game.Board), m.Score)
	}
}

// readAnswer reads a move typed as a puzzle's answer and checks it in
// g's position: a placement, or with endgame a pass too ("pass"; the bag
// is empty then, so never an exchange).
func readAnswer(g *game.Game, line string, endgame bool) (*move.Move, error) {
	var m *move.Move
	var err error
	if endgame && strings.EqualFold(line, "pass") {
		m = &move.Move{Kind: move.Pass}
	} else if m, err = move.Parse(g.Board, line); err == nil && m.Kind != move.Place && !(endgame && m.Kind == move.Pass) {
		err = fmt.Errorf("a puzzle asks for a placement")
		if endgame {
			err = fmt.Errorf("the bag is empty: a placement or a pass")
		}
	}
	if err == nil {
		err = g.Check(m)
	}
	return m, err
}
