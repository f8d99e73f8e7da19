package interval_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/cgp"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// eachGreedyPlacement plays games games of greedy play (seeds 1 to
// games, the GADDAG's best move by score) and calls f after every
// placement but the first on an empty board and one that ends the game:
// b is the board before it, rack the rack it came from, m the
// placement, and g the game after it.
func eachGreedyPlacement(t *testing.T, v *variant.Variant, lex *lexicon.Lexicon, games int, f func(b *board.Board, rack alphabet.Rack, m move.Move, g *game.Game)) {
	t.Helper()
	greedy := movegen.NewGaddag(lex)
	for seed := uint64(1); seed <= uint64(games); seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			b := g.Board.Clone()
			rack := g.Seats[g.Current()].Rack
			best, ok := greedy.Best(g.Board, &rack, nil)
			m := move.Move{Kind: move.Pass}
			if ok {
				m = best.Move
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
			if b.IsEmpty() || m.Kind != move.Place || g.Over() {
				continue
			}
			f(b, rack, m, g)
		}
	}
}

// language is one variant with its word list.
type language struct {
	variant, lexicon string
}

var languages = []language{
	{"english", "en-sowpods"},
	{"spanish", "es-fise"},
	{"czech", "cs-hunspell-2to9"},
}

var (
	fullMu   sync.Mutex
	fullLexs = map[string]*lexicon.Lexicon{}
)

// fullLexicon loads (once per test binary) the full word list of a language.
func fullLexicon(t testing.TB, l language) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	v, err := variant.Load(l.variant)
	if err != nil {
		t.Fatal(err)
	}
	fullMu.Lock()
	defer fullMu.Unlock()
	if lex := fullLexs[l.lexicon]; lex != nil {
		return v, lex
	}
	lex, err := lexicon.Open(l.lexicon, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	fullLexs[l.lexicon] = lex
	return v, lex
}

// sampleLexicon keeps every word of two or three letters (so the board
// fills up) and every step-th longer word.
func sampleLexicon(lex *lexicon.Lexicon, step int) *lexicon.Lexicon {
	var words [][]alphabet.Tile
	k := 0
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		if len(w) <= 3 {
			words = append(words, w)
			continue
		}
		if k%step == 0 {
			words = append(words, w)
		}
		k++
	}
	out := lexicon.FromTiles(lex.Alphabet, words)
	out.Name = fmt.Sprintf("%s-sample%d", lex.Name, step)
	return out
}

// position is a board and the rack of the player on turn.
type position struct {
	b    *board.Board
	rack alphabet.Rack
}

// positionsFile is the fixed benchmark position file of a language,
// shared with the benchmarks of package movegen.
func positionsFile(l language) string {
	return filepath.Join("..", "testdata", l.variant+".cgp")
}

// loadPositions reads a language's benchmark positions.
func loadPositions(t testing.TB, l language, lex *lexicon.Lexicon) []position {
	t.Helper()
	v, _ := fullLexicon(t, l)
	f, err := os.Open(positionsFile(l))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []position
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		p, err := cgp.Parse(s, v)
		if err != nil {
			t.Fatalf("%s:%d: %v", positionsFile(l), line, err)
		}
		b, err := p.Board(lex)
		if err != nil {
			t.Fatalf("%s:%d: %v", positionsFile(l), line, err)
		}
		out = append(out, position{b, p.RackTiles[0]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no positions", positionsFile(l))
	}
	return out
}
