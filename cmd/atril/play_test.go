package main

import (
	"bytes"
	"strings"
	"testing"

	"atril/game"
	"atril/internal/testvariant"
	"atril/movegen"
	"atril/variant"
)

func TestPlayLoop(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Lexicon(t, v, "AA", "AB", "BA", "TA", "AT")
	g, err := game.New(v, lex, []string{"you", "computer"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader("8H ZZZZ\n8A QI\nH8 AB?\n-\n-\n-\n-\n-\n-\n")
	var out bytes.Buffer
	if err := playLoop(g, movegen.NewBrute(lex), 0, in, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"not allowed", "cannot read that", "you play - for 0", "Game over."} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !g.Over() {
		t.Error("six passes did not end the game")
	}
}
