package movegen_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/movegen"
	"atril/variant"
)

// TestOpeningMoves checks the empty-board moves of every generator
// against the oracle: random racks drawn from each language's bag (with
// 0, 1 and 2 blanks), on the standard boards and on a 9×9 board whose
// start square B8 lies near the left and bottom edges, so that the
// offsets at which a word can cover it are cut by the edge on both sides.
// The quick version uses sample word lists; ATRIL_LONG=1 uses the full
// lists with ATRIL_RACKS racks (300 by default) per language;
// ATRIL_GENERATORS=dawg,gaddag restricts the generators checked.
func TestOpeningMoves(t *testing.T) {
	type setup struct {
		name string
		v    *variant.Variant
		lex  *lexicon.Lexicon
	}
	var setups []setup
	long := os.Getenv("ATRIL_LONG") != ""
	for _, l := range languages {
		if testing.Short() && l.variant != "english" {
			continue
		}
		v, full := fullLexicon(t, l)
		lex := full
		if !long {
			lex = sampleLexicon(full, 40)
		}
		setups = append(setups, setup{l.variant, v, lex})
	}
	vc, lc := smallBoard(t, "B8", 10, func(n int) int { return n })
	setups = append(setups, setup{"corner", vc, lc})

	racks := 12
	if testing.Short() {
		racks = 4
	}
	if long {
		racks = envInt(t, "ATRIL_RACKS", 300)
	}
	for si, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			b := board.New(s.v, s.lex)
			brute := movegen.NewBrute(s.lex)
			var gens []movegen.Generator
			for _, mk := range Generators {
				g := mk(s.lex)
				if only := os.Getenv("ATRIL_GENERATORS"); only == "" || slices.Contains(strings.Split(only, ","), g.Name()) {
					gens = append(gens, g)
				}
			}
			var bag []alphabet.Tile
			for l, n := range s.v.Counts {
				for ; n > 0; n-- {
					bag = append(bag, alphabet.Tile(l))
				}
			}
			rng := rand.New(rand.NewPCG(uint64(si), 11))
			moves := 0
			defer func() {
				t.Logf("%s (%d words): %d racks × 3 (0, 1, 2 blanks), %d oracle moves, %d generators agree", s.name, s.lex.Len(), racks, moves, len(gens))
			}()
			for i := 0; i < racks; i++ {
				rng.Shuffle(len(bag), func(a, c int) { bag[a], bag[c] = bag[c], bag[a] })
				for nb, r := range blankRacks(rng, s.v, alphabet.RackOf(bag[:s.v.RackSize])) {
					want := moveSet(t, brute, b, &r)
					moves += len(want)
					if len(want) == 0 && nb == 2 {
						t.Errorf("rack %s: the oracle finds no move", s.v.Alphabet.RackString(&r))
					}
					for _, g := range gens {
						if d := diff(b, "brute", want, g.Name(), moveSet(t, g, b, &r)); d != "" {
							t.Errorf("rack %s on the empty board:\n%s", s.v.Alphabet.RackString(&r), d)
						}
					}
				}
			}
		})
	}
}
