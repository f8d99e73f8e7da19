package endgame

import (
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/internal/testgame"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
)

// TestKeptBestAgreesWithSearch checks the frontier's table against one
// search per sub-rack: on the positions of test games (a sample of the
// English list; racks with blanks among them), the best score the table
// gives every sub-rack of the rack on turn equals movegen.Best's for
// that sub-rack (0 when it has no move).
func TestKeptBestAgreesWithSearch(t *testing.T) {
	v, lex := testgame.Sample(t, "english")
	gen := movegen.NewGaddagFrom(automaton.BuildGADDAG(lex))
	positions, blanks := 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		testgame.PlayGame(t, v, lex, []string{"a", "b"}, seed, 200, func(g *game.Game) {
			rack := g.Seats[g.Current()].Rack
			if len(g.History)%3 != 0 && rack[alphabet.Blank] == 0 {
				return
			}
			positions++
			if rack[alphabet.Blank] > 0 {
				blanks++
			}
			var kb keptBest
			kb.reset(&rack)
			if !kb.ok {
				t.Fatalf("rack %s not tabulated", v.Alphabet.RackString(&rack))
			}
			gen.Generate(g.Board, &rack, func(m *move.Move) { kb.add(m) })
			kb.close()
			rack.SubRacks(func(sub *alphabet.Rack) {
				want := 0
				if m, ok := movegen.Best(gen, g.Board, sub); ok {
					want = m.Score
				}
				if got := kb.of(sub); got != want {
					t.Fatalf("seed %d turn %d: sub-rack %s of %s: table %d, search %d", seed, len(g.History),
						v.Alphabet.RackString(sub), v.Alphabet.RackString(&rack), got, want)
				}
			})
		})
	}
	if positions < 20 || blanks == 0 {
		t.Fatalf("only %d positions, %d with blanks", positions, blanks)
	}
}
