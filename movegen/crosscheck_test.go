package movegen_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// Generators is the list of generators the cross-check compares with
// the oracle (and with each other). Another generator joins from its own
// test file of package movegen_test:
//
//	func init() { movegen_test.Generators = append(Generators, func(lex *lexicon.Lexicon) movegen.Generator { ... }) }
//
// A constructor must not write to the user's cache directory for the
// small sample lexicons of the quick test (build in memory).
var Generators = []func(lex *lexicon.Lexicon) movegen.Generator{
	func(lex *lexicon.Lexicon) movegen.Generator {
		return movegen.NewGaddagFrom(automaton.BuildGADDAG(lex))
	},
	func(lex *lexicon.Lexicon) movegen.Generator {
		return movegen.NewDawgFrom(automaton.BuildDAWG(lex))
	},
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

// envInt reads an integer environment variable, or def.
func envInt(t testing.TB, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// moveKey identifies a placement by the fields of move.Move.Key (start
// square, direction, tiles with their blank marks), packed into bytes
// rather than formatted, because the long check keys tens of millions
// of moves.
func moveKey(m *move.Move) string {
	var buf [40]byte
	k := append(buf[:0], byte(m.Row), byte(m.Col), byte(m.Dir))
	for _, t := range m.Tiles {
		k = append(k, byte(t))
	}
	return string(k)
}

// keyMove rebuilds a move from its moveKey (for messages).
func keyMove(k string) *move.Move {
	m := &move.Move{Kind: move.Place, Row: int(k[0]), Col: int(k[1]), Dir: board.Dir(k[2])}
	for i := 3; i < len(k); i++ {
		m.Tiles = append(m.Tiles, alphabet.Tile(k[i]))
	}
	return m
}

// moveSet maps each move's key to its score, failing on duplicates.
func moveSet(t *testing.T, g movegen.Generator, b *board.Board, rack *alphabet.Rack) map[string]int {
	set := map[string]int{}
	dup := ""
	g.Generate(b, rack, func(m *move.Move) {
		k := moveKey(m)
		if _, ok := set[k]; ok && dup == "" {
			dup = m.String(b)
		}
		set[k] = m.Score
	})
	if dup != "" {
		t.Errorf("%s lists %s twice", g.Name(), dup)
	}
	return set
}

// diff describes how two move sets differ (at most a few moves).
func diff(b *board.Board, nameA string, a map[string]int, nameB string, bb map[string]int) string {
	var lines []string
	show := func(k string) string { return keyMove(k).String(b) }
	for k, s := range a {
		if s2, ok := bb[k]; !ok {
			lines = append(lines, fmt.Sprintf("only %s: %s (%d)", nameA, show(k), s))
		} else if s2 != s {
			lines = append(lines, fmt.Sprintf("score of %s: %s %d, %s %d", show(k), nameA, s, nameB, s2))
		}
	}
	for k, s := range bb {
		if _, ok := a[k]; !ok {
			lines = append(lines, fmt.Sprintf("only %s: %s (%d)", nameB, show(k), s))
		}
	}
	sort.Strings(lines)
	if len(lines) > 12 {
		lines = append(lines[:12], fmt.Sprintf("... %d differences in all", len(lines)))
	}
	return strings.Join(lines, "\n")
}

// topMoves returns the k best moves in the order of movegen.SortMoves,
// copying only the moves that enter the top k.
func topMoves(g movegen.Generator, b *board.Board, rack *alphabet.Rack, k int) []move.Move {
	var top []move.Move
	g.Generate(b, rack, func(m *move.Move) {
		if len(top) == k {
			w := &top[k-1]
			if m.Score < w.Score || (m.Score == w.Score && moveKey(m) > moveKey(w)) {
				return
			}
			top = top[:k-1]
		}
		top = append(top, movegen.Clone(m))
		sort.SliceStable(top, func(i, j int) bool {
			if top[i].Score != top[j].Score {
				return top[i].Score > top[j].Score
			}
			return moveKey(&top[i]) < moveKey(&top[j])
		})
	})
	return top
}

// blankRacks returns the rack with 0, 1 and 2 blanks: blanks are taken
// off or put on in place of random tiles, keeping the rack's size.
func blankRacks(rng *rand.Rand, v *variant.Variant, r alphabet.Rack) [3]alphabet.Rack {
	var out [3]alphabet.Rack
	size := v.Alphabet.Size()
	for nb := 0; nb < 3; nb++ {
		x := r
		for x[alphabet.Blank] > uint8(nb) {
			x[alphabet.Blank]--
			x[1+rng.IntN(size)]++
		}
		for x[alphabet.Blank] < uint8(nb) {
			ts := x.Tiles()
			var letters []alphabet.Tile
			for _, t := range ts {
				if t != alphabet.Blank {
					letters = append(letters, t)
				}
			}
			if len(letters) == 0 {
				x[alphabet.Blank]++
				continue
			}
			x.Remove(letters[rng.IntN(len(letters))])
			x[alphabet.Blank]++
		}
		out[nb] = x
	}
	return out
}

// crossCheck plays games of random legal moves and, at every position,
// compares the generators under test with each other on racks holding
// 0, 1 and 2 blanks (all three, or with allRacks false one of them in
// turn), and with the oracle on every oracleEvery-th position. It returns
// the positions compared, those compared with the oracle, and the moves.
func crossCheck(t *testing.T, v *variant.Variant, lex *lexicon.Lexicon, positions, oracleEvery int, allRacks bool, seed uint64) (nPos, nOracle int, moves int) {
	var gens []movegen.Generator
	only := os.Getenv("ATRIL_GENERATORS")
	for _, mk := range Generators {
		g := mk(lex)
		if only == "" || slices.Contains(strings.Split(only, ","), g.Name()) {
			gens = append(gens, g)
		}
	}
	if len(gens) == 0 {
		t.Fatalf("ATRIL_GENERATORS=%q names no generator under test", only)
	}
	brute := movegen.NewBrute(lex)
	rng := rand.New(rand.NewPCG(seed, 0xc0ffee))
	fails := 0
	for gameNo := 0; nPos < positions; gameNo++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed+uint64(gameNo))
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() && nPos < positions {
			b := g.Board
			rack := g.Seats[g.Current()].Rack
			useOracle := nPos%oracleEvery == 0
			racks := blankRacks(rng, v, rack)
			for nb, r := range racks {
				if !allRacks && nb != nPos%3 {
					continue
				}
				var ref map[string]int
				refName := ""
				if useOracle {
					ref, refName = moveSet(t, brute, b, &r), "brute"
				}
				for _, gen := range gens {
					got := moveSet(t, gen, b, &r)
					if ref == nil {
						ref, refName = got, gen.Name()
						continue
					}
					if d := diff(b, refName, ref, gen.Name(), got); d != "" {
						fails++
						t.Errorf("%s game %d turn %d rack %s (%d blanks): %s and %s differ:\n%s\n%s",
							v.Name, gameNo, len(g.History), v.Alphabet.RackString(&r), nb, refName, gen.Name(), d, b)
					}
				}
				moves += len(ref)
			}
			if fails > 3 {
				t.Fatal("too many failures")
			}
			nPos++
			if nPos%1000 == 0 {
				t.Logf("%s: %d positions, %d moves compared, %d against the oracle", v.Name, nPos, moves, nOracle)
			}
			if useOracle {
				nOracle++
			}
			// The rack actually held drives the game: one of its best
			// moves, so boards fill up like real games.
			played := topMoves(gens[0], b, &rack, 20)
			var m move.Move
			if len(played) == 0 {
				m = move.Move{Kind: move.Pass}
				if g.BagLen() >= v.ExchangeMinBag && rack.Len() > 0 {
					m = move.Move{Kind: move.Exchange, Exchanged: rack.Tiles()[:1]}
				}
			} else {
				m = played[rng.IntN(min(len(played), 1+rng.IntN(20)))]
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: playing %s: %v\n%s", v.Name, m.String(b), err, b)
			}
		}
	}
	return nPos, nOracle, moves
}

// TestCrossCheck compares every generator with the oracle on random
// positions of random games in English, Spanish and Czech, on sample
// word lists small enough for the oracle to be quick. ATRIL_LONG=1 runs
// the long version instead: ATRIL_POSITIONS positions (10000 by default)
// per language on the full lists, each with one rack holding 0, 1 or 2
// blanks in turn, every generator against every other at every position
// and against the oracle on every ATRIL_ORACLE_EVERY-th (50 by default). ATRIL_GENERATORS=dawg,gaddag restricts the check to
// the generators named.
func TestCrossCheck(t *testing.T) {
	long := os.Getenv("ATRIL_LONG") != ""
	for li, l := range languages {
		t.Run(l.variant, func(t *testing.T) {
			if testing.Short() && !long && l.variant != "english" {
				t.Skip("-short: loading the big Spanish and Czech lists takes seconds")
			}
			v, full := fullLexicon(t, l)
			lex := full
			positions, oracleEvery := 100, 1
			if testing.Short() {
				positions = 20
			}
			if long {
				positions = envInt(t, "ATRIL_POSITIONS", 10000)
				oracleEvery = envInt(t, "ATRIL_ORACLE_EVERY", 50)
			} else {
				lex = sampleLexicon(full, 40)
			}
			seed := uint64(envInt(t, "ATRIL_SEED", 1)) + uint64(li)*1000
			n, no, moves := crossCheck(t, v, lex, positions, oracleEvery, !long, seed)
			racks := "3 racks (0, 1, 2 blanks) each"
			if long {
				racks = "one rack each (0, 1, 2 blanks in turn)"
			}
			t.Logf("%s (%d words): %d positions, %s, %d against the oracle, %d moves compared",
				lex.Name, lex.Len(), n, racks, no, moves)
		})
	}
}

// smallVariant is a 9×9 board with premiums everywhere near the edges,
// a rack of 5 (so bingos are frequent) and the English tiles, so words
// often touch both edges of the board.
const smallVariant = `{"name":"small","board_size":9,"rack_size":5,"bingo_bonus":20,"start_square":"E5",
"premium_layout":["T..d.d..T",".D..t..D.","..D...D..","d..D.D..d",".t..D..t.","d..D.D..d","..D...D..",".D..t..D.","T..d.d..T"],
"tiles":[{"tile":"?","count":2,"score":0},%s]}`

// smallBoard returns smallVariant with its start square at start and
// the English letters (counts mapped by count), with the English words
// of the step-th sample that fit on it.
func smallBoard(t *testing.T, start string, step int, count func(int) int) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	ve, full := fullLexicon(t, languages[0])
	var tiles []string
	for l, letter := range ve.Alphabet.Letters() {
		tiles = append(tiles, fmt.Sprintf(`{"tile":%q,"count":%d,"score":%d}`, letter, count(ve.Counts[l+1]), ve.Scores[l+1]))
	}
	js := strings.Replace(smallVariant, `"start_square":"E5"`, fmt.Sprintf(`"start_square":%q`, start), 1)
	v, err := variant.Parse([]byte(fmt.Sprintf(js, strings.Join(tiles, ","))), "small")
	if err != nil {
		t.Fatal(err)
	}
	var words [][]alphabet.Tile
	sample := sampleLexicon(full, step)
	for i := 0; i < sample.Len(); i++ {
		if w := sample.Word(i); len(w) <= v.Size {
			words = append(words, w) // same letters in the same order: same codes
		}
	}
	return v, lexicon.FromTiles(v.Alphabet, words)
}

// TestCrossCheckSmallBoard runs the cross-check on a 9×9 board with a
// rack of 5, with English words of up to 9 letters.
func TestCrossCheckSmallBoard(t *testing.T) {
	v, lex := smallBoard(t, "E5", 40, func(n int) int { return max(1, n/2) })
	lex.Name = "en-sample-9"
	positions := 60
	if testing.Short() {
		positions = 15
	}
	n, no, moves := crossCheck(t, v, lex, positions, 1, true, uint64(envInt(t, "ATRIL_SEED", 1))+7)
	t.Logf("%s on 9×9 (%d words): %d positions, 3 racks each, %d against the oracle, %d moves compared", lex.Name, lex.Len(), n, no, moves)
}
