package interval

import (
	"math/rand/v2"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/movegen"
	"atril/variant"
)

// TestRunFilter checks that the run filter holds every word for every
// choice of board letters in it (the slot's longest run at its place, the
// rest as a multiset), and that it rejects most letters moved to a place
// no word has them.
func TestRunFilter(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "QUIZ", "RETAINS", "ZAX", "JIVE", "OXYPHENBUTAZONE", "AA", "STAINER")
	if err != nil {
		t.Fatal(err)
	}
	var words [][]alphabet.Tile
	for i := 0; i < lex.Len(); i++ {
		words = append(words, lex.Word(i))
	}
	f := buildRunFilter(lex)
	rng := rand.New(rand.NewPCG(1, 2))
	misses, tries := 0, 0
	for round := 0; round < 2000; round++ {
		w := words[rng.IntN(len(words))]
		n := len(w)
		// Board letters: a random non-empty proper subset of the squares.
		var tiles [MaxBoard]alphabet.Tile
		var hb, played uint64
		nb := 0
		for i, l := range w {
			if rng.IntN(2) == 0 {
				tiles[i] = l
				hb += movegen.AnagramWeight(l)
				nb++
			} else {
				tiles[i] = board.Empty
				played += movegen.AnagramWeight(l)
			}
		}
		if nb == 0 || nb == n {
			continue
		}
		key := f.slotKey(tiles[:], n, hb)
		if !f.has(n, key+played) {
			t.Fatalf("%s with board letters %v: not held", v.Alphabet.Word(w), tiles[:n])
		}
		// The same letters with the longest run moved one square on
		// (rotated): seldom a word's.
		var moved [MaxBoard]alphabet.Tile
		for i := 0; i < n; i++ {
			moved[(i+1)%n] = tiles[i]
		}
		tries++
		if f.has(n, f.slotKey(moved[:], n, hb)+played) {
			misses++
		}
	}
	if tries == 0 || misses*4 > tries {
		t.Errorf("letters moved off their places held %d times of %d", misses, tries)
	}
}
