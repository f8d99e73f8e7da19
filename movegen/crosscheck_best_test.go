package movegen_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
	"atril/movegen/internal/searchtest"
	"atril/player/leave"
	"atril/variant"
)

// hashLeave is the cross-checks' leave with no structure.
type hashLeave = searchtest.HashLeave

// checkBest compares the GADDAG's best-by-equity search with all moves
// ranked, for each of leaves (nil: score alone), on one position.
func checkBest(t *testing.T, s movegen.Searcher, all movegen.Generator, b *board.Board, rack *alphabet.Rack, leaves []movegen.Leave) error {
	for i, lv := range leaves {
		if err := searchtest.Check(s, b, rack, lv, searchtest.Equities(all, b, rack, lv)); err != nil {
			return fmt.Errorf("leave %d (%T): %w", i, lv, err)
		}
	}
	return nil
}

// TestBestCrossCheck plays random games and at every position compares
// best-by-equity generation with all-moves-then-max on racks with 0, 1
// and 2 blanks, for score alone, a leave with no structure, and the
// variant's learnt table (which values a rack's sub-racks in one pass,
// movegen.SubRackLeave). Quick version: sample word lists;
// ATRIL_BEST_POSITIONS=N runs N positions per language on the full
// lists.
func TestBestCrossCheck(t *testing.T) {
	long := envInt(t, "ATRIL_BEST_POSITIONS", 0)
	for li, l := range languages {
		t.Run(l.variant, func(t *testing.T) {
			if testing.Short() && long == 0 && l.variant != "english" {
				t.Skip("-short: English only")
			}
			v, full := fullLexicon(t, l)
			lex, positions := sampleLexicon(full, 10), 150
			if testing.Short() {
				positions = 60
			}
			var s movegen.Searcher
			if long > 0 {
				lex, positions = full, long
				s = movegen.NewGaddag(lex)
			} else {
				s = movegen.NewGaddagFrom(automaton.BuildGADDAG(lex))
			}
			all := movegen.NewGaddagFrom(s.(*movegen.Gaddag).Automaton())
			table, err := leave.Load(v, "default", 0)
			if err != nil {
				t.Fatal(err)
			}
			leaves := []movegen.Leave{nil, hashLeave{}, table}
			n := bestCrossCheck(t, v, lex, s, all, positions, uint64(li)*77+uint64(envInt(t, "ATRIL_SEED", 1)), leaves)
			t.Logf("%s (%d words): %d positions × 3 racks × %d equities agree", lex.Name, lex.Len(), n, len(leaves))
		})
	}
}

func bestCrossCheck(t *testing.T, v *variant.Variant, lex *lexicon.Lexicon, s movegen.Searcher, all movegen.Generator, positions int, seed uint64, leaves []movegen.Leave) int {
	rng := rand.New(rand.NewPCG(seed, 0xbe57))
	n := 0
	for gameNo := 0; n < positions; gameNo++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed*1000+uint64(gameNo))
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() && n < positions {
			b := g.Board
			rack := g.Seats[g.Current()].Rack
			for nb, r := range blankRacks(rng, v, rack) {
				if err := checkBest(t, s, all, b, &r, leaves); err != nil {
					t.Fatalf("%s game %d turn %d rack %s (%d blanks): %v\n%s", v.Name, gameNo, len(g.History), v.Alphabet.RackString(&r), nb, err, b)
				}
			}
			n++
			if n%1000 == 0 && os.Getenv("ATRIL_BEST_POSITIONS") != "" {
				t.Logf("%s: %d positions", v.Name, n)
			}
			played := topMoves(all, b, &rack, 20)
			m := move.Move{Kind: move.Pass}
			if len(played) > 0 {
				m = played[rng.IntN(min(len(played), 1+rng.IntN(20)))]
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: playing %s: %v", v.Name, m.String(b), err)
			}
		}
	}
	return n
}
