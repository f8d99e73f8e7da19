package movegen_test

import (
	"math/rand/v2"
	"sort"
	"testing"

	"atril/alphabet"
	"atril/move"
	"atril/movegen"
)

// TestOrderMatchesBetter checks Order's packed keys against a plain sort
// by Better: on the moves of real positions (shuffled), and on made-up
// moves that tie on score, square and direction and differ only in their
// tiles, the case the packed key cannot settle.
func TestOrderMatchesBetter(t *testing.T) {
	ps, g := bestPositions(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var cases [][]move.Move
	for i := 0; i < len(ps); i += 37 {
		cases = append(cases, movegen.All(g, ps[i].b, &ps[i].rack))
	}
	var ties []move.Move
	for i := 0; i < 400; i++ {
		tiles := make([]alphabet.Tile, 1+rng.IntN(3))
		for j := range tiles {
			tiles[j] = alphabet.Tile(1 + rng.IntN(4))
			if rng.IntN(4) == 0 {
				tiles[j] |= alphabet.BlankBit
			}
		}
		ties = append(ties, move.Move{Kind: move.Place, Row: rng.IntN(2), Col: rng.IntN(2),
			Tiles: tiles, Score: rng.IntN(3)})
	}
	cases = append(cases, ties)
	for ci, ms := range cases {
		rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		want := append([]move.Move(nil), ms...)
		sort.SliceStable(want, func(i, j int) bool { return movegen.Better(&want[i], &want[j]) })
		keys := movegen.Order(ms, nil)
		if len(keys) != len(ms) {
			t.Fatalf("case %d: %d keys for %d moves", ci, len(keys), len(ms))
		}
		for i, k := range keys {
			got := &ms[uint32(k)]
			if movegen.Better(got, &want[i]) || movegen.Better(&want[i], got) {
				t.Fatalf("case %d: place %d holds %v (score %d), sorting by Better puts %v (score %d) there",
					ci, i, got.Tiles, got.Score, want[i].Tiles, want[i].Score)
			}
		}
	}
}
