package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"atril/movegen"
	"atril/puzzle"
)

func TestSolveLoop(t *testing.T) {
	e, err := loadEnv("english", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := puzzle.Make(e.V, e.Lex, e.Lex.Name, 5, movegen.NewGaddag(e.Lex))
	if err != nil {
		t.Fatal(err)
	}
	b := p.Game.Board
	best, last := p.Best[0], p.Best[len(p.Best)-1]
	in := fmt.Sprintf("8H\n-\n%s\n%s\n", last.String(b), best.String(b))
	var out bytes.Buffer
	if err := solveLoop(p, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		fmt.Sprintf("Puzzle 5 · %s: find the highest-scoring play.", e.Lex.Name),
		"not a play here: ",
		"a puzzle asks for a placement",
		fmt.Sprintf("Right: %s scores %d, the most of the %d plays.", best.String(b), best.Score, len(p.Scores)),
		"The best plays (of ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the session lacks %q:\n%s", want, got)
		}
	}
	if last.Score < best.Score && !strings.Contains(got, fmt.Sprintf("%s scores %d: play %d of %d by score.", last.String(b), last.Score, p.Rank(last.Score), len(p.Scores))) {
		t.Errorf("the session does not rank the lower play:\n%s", got)
	}
	// "answer" shows the best plays; the end of the input ends it.
	out.Reset()
	if err := solveLoop(p, strings.NewReader("answer\n"), &out); err != nil || !strings.Contains(out.String(), best.String(b)) {
		t.Errorf("answer: %v\n%s", err, out.String())
	}
	if err := solveLoop(p, strings.NewReader(""), &out); err != nil {
		t.Errorf("no input: %v", err)
	}
}

func TestPuzzleCommandErrors(t *testing.T) {
	for _, args := range [][]string{{"0"}, {"x"}, {"1", "2"}, {"99999999"}} {
		if err := runPuzzle(args); err == nil {
			t.Errorf("atril puzzle %v: no error", args)
		}
	}
}

func TestEndgameLoop(t *testing.T) {
	e, err := loadEnv("english", "")
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.NewGaddag(e.Lex)
	p, err := puzzle.MakeEndgame(e.V, e.Lex, e.Lex.Name, 3, gen)
	if err != nil {
		t.Fatal(err)
	}
	b := p.Game.Board
	best := p.Line[0]
	in := fmt.Sprintf("-\n8H\n%s\n%s\n", p.Top.String(b), best.String(b))
	var out bytes.Buffer
	if err := endgameLoop(p, gen, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		fmt.Sprintf("Endgame 3 · %s: the bag is empty; find the move that ends the game best.", e.Lex.Name),
		"the opponent's rack (the tiles unseen): ",
		"not a move here: ",
		fmt.Sprintf("%s gains %+d to the end; the best move gains more.", p.Top.String(b), p.TopValue),
		fmt.Sprintf("Right: %s gains %+d to the end, the most.", best.String(b), p.Value),
		"The best line:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the session lacks %q:\n%s", want, got)
		}
	}
	out.Reset()
	if err := endgameLoop(p, gen, strings.NewReader("pass\nanswer\n"), &out); err != nil || !strings.Contains(out.String(), "The best move gains") {
		t.Errorf("pass, then answer: %v\n%s", err, out.String())
	}
}
