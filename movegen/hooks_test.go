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

// TestHooks checks the letters the shadow lets stand right before and
// right after a run of board tiles against the word list: exactly the
// letters that come right before, or right after, that run in some word.
func TestHooks(t *testing.T) {
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
	for _, run := range []string{"AT", "A", "T", "TA", "CAT", "BAT", "QI", "ZA", "ATE", "AB", "CA", "BA", "QA", "BAT", "ABA"} {
		b := board.New(v, lex)
		play(t, b, "8H "+run)
		var s lineGen
		var rack alphabet.Rack
		s.setup(g.arcs, b, &rack, nil)
		s.setLine(b, board.Across, 7)
		bs := bestState{auto: g.a, follow: g.follows()}
		before, after := bs.hooks(&s, 7, 7+len(run)-1)
		var wantBefore, wantAfter uint64
		bit := func(c string) uint64 {
			ts, err := v.Alphabet.Parse(c, alphabet.Plain)
			if err != nil {
				t.Fatal(err)
			}
			return 1 << ts[0]
		}
		for _, w := range words {
			for i := 0; i+len(run) <= len(w); i++ {
				if w[i:i+len(run)] != run {
					continue
				}
				if i > 0 {
					wantBefore |= bit(w[i-1 : i])
				}
				if e := i + len(run); e < len(w) {
					wantAfter |= bit(w[e : e+1])
				}
			}
		}
		if before != wantBefore {
			t.Errorf("before %s: got %q, want %q", run, letters(before), letters(wantBefore))
		}
		if after != wantAfter {
			t.Errorf("after %s: got %q, want %q", run, letters(after), letters(wantAfter))
		}
	}
}
