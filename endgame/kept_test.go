package endgame

import (
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// TestKeptBestAgreesWithSearch checks the frontier's table against one
// search per sub-rack: on positions of greedy English games (full word
// list; racks with blanks among them), the best score the table gives
// every sub-rack of the rack on turn equals movegen.Best's for that
// sub-rack (0 when it has no move).
func TestKeptBestAgreesWithSearch(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.NewGaddag(lex)
	positions, blanks := 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; !g.Over(); turn++ {
			rack := g.Seats[g.Current()].Rack
			if turn%3 == 0 || rack[alphabet.Blank] > 0 {
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
						t.Fatalf("seed %d turn %d: sub-rack %s of %s: table %d, search %d", seed, turn,
							v.Alphabet.RackString(sub), v.Alphabet.RackString(&rack), got, want)
					}
				})
			}
			m, ok := movegen.Best(gen, g.Board, &rack)
			if !ok {
				m = move.Move{Kind: move.Pass}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if positions < 20 || blanks == 0 {
		t.Fatalf("only %d positions, %d with blanks", positions, blanks)
	}
}
