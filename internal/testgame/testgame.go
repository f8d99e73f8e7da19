// Package testgame plays games for tests: greedy players on a sampled
// word list, so that the brute-force generator stays fast; and it gives
// short word lists to play whole games with quickly.
package testgame

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

var (
	sampleMu   sync.Mutex
	sampleLexs = map[string]*lexicon.Lexicon{}
)

var defaultLex = map[string]string{"english": "en-sowpods", "spanish": "es-fise", "czech": "cs-hunspell-2to9"}

// Sample returns the variant and a sample of its default word list:
// every word of three tiles or fewer and every tenth (English) or 25th
// (Spanish, Czech) longer word. Samples are built once per process.
func Sample(t testing.TB, variantName string) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	v := variant.MustLoad(variantName)
	sampleMu.Lock()
	defer sampleMu.Unlock()
	if lex, ok := sampleLexs[variantName]; ok {
		return v, lex
	}
	name := defaultLex[variantName]
	full, err := lexicon.Open(name, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	every := 10
	if variantName != "english" {
		every = 25 // bigger lists
	}
	var words [][]alphabet.Tile
	for i := 0; i < full.Len(); i++ {
		if w := full.Word(i); len(w) <= 3 || i%every == 0 {
			words = append(words, w)
		}
	}
	lex := lexicon.FromTiles(v.Alphabet, words)
	lex.Name = name + "-sample"
	sampleLexs[variantName] = lex
	return v, lex
}

// PlayGame plays a game between greedy players (highest score) with an
// occasional exchange or pass drawn from seed, calling visit before every
// move. It stops at the end of the game or after maxMoves moves.
func PlayGame(t testing.TB, v *variant.Variant, lex *lexicon.Lexicon, names []string, seed uint64, maxMoves int, visit func(g *game.Game)) *game.Game {
	t.Helper()
	g, err := game.New(v, lex, names, seed)
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.NewBrute(lex)
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < maxMoves && !g.Over(); i++ {
		if visit != nil {
			visit(g)
		}
		rack := g.Seats[g.Current()].Rack
		m, ok := movegen.Best(gen, g.Board, &rack)
		switch x := rng.IntN(12); {
		case (x == 0 || !ok) && g.BagLen() >= v.ExchangeMinBag && rack.Len() > 0:
			ts := rack.Tiles()
			m = move.Move{Kind: move.Exchange, Exchanged: ts[:1+rng.IntN(len(ts))]}
		case x == 1 || !ok:
			m = move.Move{Kind: move.Pass}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
	return g
}

var (
	shortMu    sync.Mutex
	shortLists = map[int]*lexicon.Lexicon{}
)

// ShortEnglish returns the English variant and the words of en-sowpods
// of at most maxLen letters, made once per length (the lexicon is
// read-only): real enough for real games, quick to play them with.
func ShortEnglish(maxLen int) (*variant.Variant, *lexicon.Lexicon, error) {
	v, err := variant.Load("english")
	if err != nil {
		return nil, nil, fmt.Errorf("testgame: %w", err)
	}
	shortMu.Lock()
	defer shortMu.Unlock()
	if lex := shortLists[maxLen]; lex != nil {
		return v, lex, nil
	}
	full, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		return nil, nil, fmt.Errorf("testgame: %w", err)
	}
	var ws [][]alphabet.Tile
	for i := 0; i < full.Len(); i++ {
		if w := full.Word(i); len(w) <= maxLen {
			ws = append(ws, append([]alphabet.Tile(nil), w...))
		}
	}
	shortLists[maxLen] = lexicon.FromTiles(v.Alphabet, ws)
	return v, shortLists[maxLen], nil
}
