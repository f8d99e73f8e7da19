package movegen_test

import (
	"sync"
	"testing"

	"atril/game"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// playedGame plays a greedy game and returns every position with the
// rack on turn.
func playedGame(t *testing.T, v *variant.Variant, lex *lexicon.Lexicon, gen movegen.Generator, seed uint64) []benchPos {
	g, err := game.New(v, lex, []string{"a", "b"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	var out []benchPos
	for !g.Over() {
		p := &g.Seats[g.Current()]
		out = append(out, benchPos{g.Board.Clone(), p.Rack})
		m, ok := movegen.Best(gen, g.Board, &p.Rack)
		if !ok {
			m = move.Move{Kind: move.Pass}
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestForkConcurrent runs best-by-equity searches and all-move listings
// from two goroutines, each with its own Fork of one generator over the
// same tables, and checks they find what a single goroutine finds. Under
// -race it shows the forks share only read-only state.
func TestForkConcurrent(t *testing.T) {
	v, full := fullLexicon(t, languages[0])
	lex := sampleLexicon(full, 40)
	base := movegen.NewGaddagFrom(automaton.BuildGADDAG(lex))
	g := playedGame(t, v, lex, base, 7)
	want := make([]float64, len(g))
	counts := make([]int, len(g))
	for i, p := range g {
		sc, _ := base.Best(p.b, &p.rack, hashLeave{})
		want[i] = sc.Equity
		counts[i] = len(movegen.All(base, p.b, &p.rack))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := 0; w < 2; w++ {
		f := base.Fork().(movegen.Searcher)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, p := range g {
				b := p.b.Clone() // boards are per goroutine
				if sc, _ := f.Best(b, &p.rack, hashLeave{}); sc.Equity != want[i] {
					errs <- "a fork's best equity differs"
					return
				}
				if n := len(movegen.All(f, b, &p.rack)); n != counts[i] {
					errs <- "a fork lists a different number of moves"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
