package study

import (
	"math/rand/v2"
	"slices"
	"testing"

	"atril/alphabet"
	"atril/lexicon"
	"atril/variant"
)

// drawsSpelling counts, by enumerating every draw of len(word) of the
// bag's tiles (told apart), the draws that can spell word: the letters
// the draw lacks are at most its blanks.
func drawsSpelling(counts []int, word []alphabet.Tile) int {
	var bag []alphabet.Tile
	for l, c := range counts {
		for range c {
			bag = append(bag, alphabet.Tile(l))
		}
	}
	n, found := len(word), 0
	for set := 0; set < 1<<len(bag); set++ {
		drawn := make([]int, len(counts))
		k := 0
		for i, t := range bag {
			if set&(1<<i) != 0 {
				drawn[t]++
				k++
			}
		}
		if k != n {
			continue
		}
		short := 0
		need := make([]int, len(counts))
		for _, t := range word {
			need[t]++
		}
		for l := 1; l < len(counts); l++ {
			short += max(0, need[l]-drawn[l])
		}
		if short <= drawn[0] {
			found++
		}
	}
	return found
}

func TestWaysAgainstEveryDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for trial := range 40 {
		// A bag of 3 letters and up to 2 blanks, at most 14 tiles.
		counts := []int{trial % 3, 1 + rng.IntN(4), 1 + rng.IntN(4), 1 + rng.IntN(3)}
		for n := 1; n <= 5; n++ {
			word := make([]alphabet.Tile, n)
			for i := range word {
				word[i] = alphabet.Tile(1 + rng.IntN(3))
			}
			want := drawsSpelling(counts, word)
			rng.Shuffle(len(word), func(i, j int) { word[i], word[j] = word[j], word[i] })
			if got := Ways(counts, word); got != float64(want) {
				t.Fatalf("bag %v, word %v: Ways %v, want %d", counts, word, got, want)
			}
			if want > 0 {
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d spellable words checked", checked)
	}
}

func TestWaysByHand(t *testing.T) {
	// English: 9 A, 2 B, 2 blanks. AB: 9·2 with letters, 9·2 + 2·2 with
	// one blank, 1 with both.
	counts := make([]int, 27)
	counts[0], counts[1], counts[2] = 2, 9, 2
	if got := Ways(counts, []alphabet.Tile{1, 2}); got != 18+18+4+1 {
		t.Errorf("AB: %v, want 41", got)
	}
	// A letter the bag lacks needs a blank.
	if got := Ways(counts, []alphabet.Tile{1, 3}); got != 9*2+1 {
		t.Errorf("AC: %v, want 19", got)
	}
	counts[0] = 0
	if got := Ways(counts, []alphabet.Tile{1, 3}); got != 0 {
		t.Errorf("AC without blanks: %v, want 0", got)
	}
}

func TestBuild(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "ACT", "CAT", "TAC", "EAT", "TEA", "ATE", "ETA", "ZAX", "AE", "EA", "QI", "ZZZ")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Build(lex, v.Counts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]string{
		2: {"AE", "IQ"}, // AE, EA; QI
		3: {"AET", "ACT", "AXZ", "ZZZ"},
	}
	for n, alphas := range want {
		if ix.Count(n) != len(alphas) {
			t.Fatalf("%d letters: %d alphagrams, want %d", n, ix.Count(n), len(alphas))
		}
		for r := 1; r <= ix.Count(n); r++ {
			a := ix.Rank(n, r)
			if got := v.Alphabet.Word(a.Tiles); got != alphas[r-1] || a.Rank != r {
				t.Errorf("%d letters, rank %d: %s (rank %d), want %s", n, r, got, a.Rank, alphas[r-1])
			}
			if a.Probability != a.Ways/binom(100, n) {
				t.Errorf("%s: probability %v, ways %v", alphas[r-1], a.Probability, a.Ways)
			}
		}
	}
	words := func(a Alphagram) (ws []string) {
		for _, w := range a.Words {
			ws = append(ws, v.Alphabet.Word(w))
		}
		return ws
	}
	if got := words(ix.Rank(3, 1)); !slices.Equal(got, []string{"ATE", "EAT", "ETA", "TEA"}) {
		t.Errorf("AET: %v", got)
	}
	if got := words(ix.Rank(3, 4)); !slices.Equal(got, []string{"ZZZ"}) || ix.Rank(3, 4).Ways != 1 {
		t.Errorf("ZZZ: %v, %v ways (one Z: both blanks and the Z)", got, ix.Rank(3, 4).Ways)
	}
	if ix.Count(4) != 0 || ix.Count(-1) != 0 || ix.Count(99) != 0 {
		t.Error("lengths without words have alphagrams")
	}
	if _, err := Build(lex, v.Counts[:5]); err == nil {
		t.Error("a bag of 4 letters built for 26")
	}
}

// TestWholeLists checks every language's list: each word in exactly one
// alphagram, spelt by it, ranks in non-increasing probability.
func TestWholeLists(t *testing.T) {
	for _, c := range []struct{ variant, list string }{{"english", "en-sowpods"}, {"spanish", "es-fise"}, {"czech", "cs-hunspell-2to9"}} {
		v := variant.MustLoad(c.variant)
		lex, err := lexicon.Open(c.list, v.Alphabet, lexicon.Options{MaxLen: v.Size})
		if err != nil {
			t.Fatal(err)
		}
		ix, err := Build(lex, v.Counts)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, lex.Len())
		for n := 1; n <= lex.MaxLen(); n++ {
			prev := 2.0
			for r := 1; r <= ix.Count(n); r++ {
				a := ix.Rank(n, r)
				if a.Probability > prev || a.Probability < 0 {
					t.Fatalf("%s: %d letters, rank %d: probability %v after %v", c.list, n, r, a.Probability, prev)
				}
				prev = a.Probability
				// The alphagram spelt as a person types it is found again
				// (Spanish two L tiles are "[L]L", one LL tile "LL").
				if r%37 == 1 {
					ts, err := v.Alphabet.Parse(v.Alphabet.Spell(a.Tiles), alphabet.Plain)
					if got, ok := ix.Find(ts); err != nil || !ok || got.Rank != r || len(got.Tiles) != n {
						t.Fatalf("%s: %s spelt %q: %v, found %v at rank %d of length %d, want rank %d", c.list, v.Alphabet.Word(a.Tiles), v.Alphabet.Spell(a.Tiles), err, ok, got.Rank, len(got.Tiles), r)
					}
				}
				for _, w := range a.Words {
					sorted := slices.Sorted(slices.Values(w))
					if !slices.Equal(sorted, a.Tiles) {
						t.Fatalf("%s: %s under %s", c.list, v.Alphabet.Word(w), v.Alphabet.Word(a.Tiles))
					}
					i := lex.Index(w)
					if seen[i] {
						t.Fatalf("%s: %s twice", c.list, v.Alphabet.Word(w))
					}
					seen[i] = true
				}
			}
		}
		if i := slices.Index(seen, false); i >= 0 {
			t.Fatalf("%s: %s in no alphagram", c.list, v.Alphabet.Word(lex.Word(i)))
		}
		top := ix.Rank(7, 1)
		t.Logf("%s: %d alphagrams of 7 letters, the likeliest %s (%d words, 1 in %.0f)",
			c.list, ix.Count(7), v.Alphabet.Word(top.Tiles), len(top.Words), 1/top.Probability)
	}
}

func TestFind(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Build(lex, v.Counts)
	if err != nil {
		t.Fatal(err)
	}
	// Every alphagram of some lengths is found at its own rank, from its
	// first word's letters in word order.
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 5, 7, 8, 15} {
		for range 300 {
			r := 1 + rng.IntN(ix.Count(n))
			a := ix.Rank(n, r)
			got, ok := ix.Find(a.Words[0])
			if !ok || got.Rank != r || !slices.Equal(got.Tiles, a.Tiles) {
				t.Fatalf("%s (rank %d): found %v at rank %d", v.Alphabet.Word(a.Words[0]), r, ok, got.Rank)
			}
		}
	}
	for _, c := range []struct {
		rack string
		ok   bool
	}{{"SATIRE", true}, {"eisrta", true}, {"QQQ", false}, {"", false}, {"AEINRSTAEINRSTAE", false}} {
		tiles, err := v.Alphabet.Parse(c.rack, alphabet.WithBlanks)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ix.Find(tiles); ok != c.ok {
			t.Errorf("%q: found %v, want %v", c.rack, ok, c.ok)
		}
	}
}
