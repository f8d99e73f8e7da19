package movegen

import (
	"strings"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/variant"
)

// TestPrecede checks the letters the shadow lets stand right before a
// run of board tiles against the word list: exactly the letters that
// come right before that run in some word.
func TestPrecede(t *testing.T) {
	v := variant.MustLoad("english")
	words := []string{"CAT", "SCAT", "AT", "TA", "BAT", "BATS", "TAB", "ABATE", "ZA", "QI", "QAT", "EAT", "OAT", "TATE"}
	lex, err := lexicon.FromWords(v.Alphabet, words...)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGaddagFrom(automaton.BuildGADDAG(lex))
	letters := func(m uint64) string {
		var b strings.Builder
		for l := 1; l < 64; l++ {
			if m&(1<<l) != 0 {
				b.WriteString(v.Alphabet.String(alphabet.Tile(l)))
			}
		}
		return b.String()
	}
	for _, run := range []string{"AT", "A", "T", "TA", "CAT", "BAT", "QI", "ZA", "ATE", "AB"} {
		b := board.New(v, lex)
		play(t, b, "8H "+run)
		var s lineGen
		var rack alphabet.Rack
		s.setup(g.arcs, b, &rack, nil)
		s.setLine(b, board.Across, 7)
		bs := bestState{root: g.root}
		got := bs.precede(&s, 7)
		want := uint64(0)
		for _, w := range words {
			for i := 1; i+len(run) <= len(w); i++ {
				if w[i:i+len(run)] == run {
					ts, err := v.Alphabet.Parse(w[i-1:i], alphabet.Plain)
					if err != nil {
						t.Fatal(err)
					}
					want |= 1 << ts[0]
				}
			}
		}
		if got != want {
			t.Errorf("before %s: got %q, want %q", run, letters(got), letters(want))
		}
	}
}
