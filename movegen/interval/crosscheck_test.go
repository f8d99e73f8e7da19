package interval_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/movegen/interval"
	"atril/variant"
)

// intervalGenerators are the interval-based generators checked against
// the oracle by TestIntervalCrossCheck.
var intervalGenerators = []struct {
	name string
	make func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator
}{
	{"anagram", func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator {
		g, err := interval.NewAnagram(lex)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}},
	{"anagram-noshare", func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator {
		g, err := interval.NewAnagram(lex)
		if err != nil {
			t.Fatal(err)
		}
		g.NoShare = true
		return g
	}},
	{"iwm-t10", func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator {
		g, err := interval.NewIWM(lex, interval.IWMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}},
}

func init() {
	for _, thr := range []int{1, 30} {
		thr := thr
		intervalGenerators = append(intervalGenerators, struct {
			name string
			make func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator
		}{fmt.Sprintf("iwm-t%d", thr), func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator {
			g, err := interval.NewIWM(lex, interval.IWMOptions{Threshold: thr, NoBlankLists: thr == 30})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}})
	}
	intervalGenerators = append(intervalGenerators, struct {
		name string
		make func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator
	}{"iwm-t10-parallel-adaptive-share", func(t testing.TB, lex *lexicon.Lexicon) movegen.Generator {
		g, err := interval.NewIWM(lex, interval.IWMOptions{Workers: 2, Adaptive: true, Share: true})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}})
}

var ivLanguages = []struct{ variant, lexicon string }{
	{"english", "en-sowpods"},
	{"spanish", "es-fise"},
	{"czech", "cs-hunspell-2to9"},
}

// ivLexicon loads a full word list once per test binary (shared with
// the other tests of this package).
func ivLexicon(t testing.TB, vname, lname string) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	return fullLexicon(t, language{vname, lname})
}

// ivSample is sampleLexicon, with step 1 (or less) meaning the full list.
func ivSample(lex *lexicon.Lexicon, step int) *lexicon.Lexicon {
	if step <= 1 {
		return lex
	}
	return sampleLexicon(lex, step)
}

func ivEnv(name string, def int) int {
	if s := os.Getenv(name); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	return def
}

func ivMoves(g movegen.Generator, b *board.Board, rack *alphabet.Rack) (map[string]int, int) {
	out := map[string]int{}
	dups := 0
	g.Generate(b, rack, func(m *move.Move) {
		k := m.Key()
		if _, ok := out[k]; ok {
			dups++
		}
		out[k] = m.Score
	})
	return out, dups
}

// ivPrint is a cheap fingerprint of a generator's output: one 64-bit
// hash per move (square, direction, tiles and score), sorted. Two outputs
// with equal prints hold the same scored moves (up to a 64-bit collision);
// ivMoves and ivDiff explain a difference when the prints disagree.
func ivPrint(g movegen.Generator, b *board.Board, rack *alphabet.Rack, buf []uint64) []uint64 {
	buf = buf[:0]
	g.Generate(b, rack, func(m *move.Move) {
		h := uint64(14695981039346656037)
		mix := func(x uint64) {
			h ^= x
			h *= 1099511628211
		}
		mix(uint64(m.Kind))
		mix(uint64(m.Row))
		mix(uint64(m.Col))
		mix(uint64(m.Dir))
		for _, t := range m.Tiles {
			mix(uint64(t))
		}
		mix(uint64(m.Score) + 0x9e3779b97f4a7c15)
		buf = append(buf, h)
	})
	slices.Sort(buf)
	return buf
}

// ivSamePrint reports whether two sorted prints are equal and free of
// repeated moves.
func ivSamePrint(want, got []uint64) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range got {
		if got[i] != want[i] || (i > 0 && got[i] == got[i-1]) {
			return false
		}
	}
	return true
}

func ivDiff(b *board.Board, want, got map[string]int) string {
	var lines []string
	for k, s := range want {
		if gs, ok := got[k]; !ok {
			lines = append(lines, fmt.Sprintf("missing %s (%d)", ivKeyString(b, k), s))
		} else if gs != s {
			lines = append(lines, fmt.Sprintf("score %s: %d, want %d", ivKeyString(b, k), gs, s))
		}
	}
	for k, s := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("extra %s (%d)", ivKeyString(b, k), s))
		}
	}
	sort.Strings(lines)
	if len(lines) > 10 {
		lines = append(lines[:10], fmt.Sprintf("... %d more", len(lines)-10))
	}
	return fmt.Sprint(lines)
}

func ivKeyString(b *board.Board, k string) string {
	var row, col, dir int
	var rest string
	fmt.Sscanf(k, "%d,%d,%d:", &row, &col, &dir)
	for i := 0; i < len(k); i++ {
		if k[i] == ':' {
			rest = k[i+1:]
			break
		}
	}
	m := move.Move{Kind: move.Place, Row: row, Col: col, Dir: board.Dir(dir)}
	for i := 0; i < len(rest); i++ {
		m.Tiles = append(m.Tiles, alphabet.Tile(rest[i]))
	}
	return m.String(b)
}

// ivRacks returns the rack with 0, 1 and 2 blanks (blanks replace random
// tiles or are replaced by random letters, keeping the size).
func ivRacks(rng *rand.Rand, v *variant.Variant, r alphabet.Rack) [3]alphabet.Rack {
	var out [3]alphabet.Rack
	for nb := 0; nb < 3; nb++ {
		x := r
		for x[alphabet.Blank] > uint8(nb) {
			x[alphabet.Blank]--
			x[1+rng.IntN(v.Alphabet.Size())]++
		}
		for x[alphabet.Blank] < uint8(nb) {
			var letters []alphabet.Tile
			for _, t := range x.Tiles() {
				if t != alphabet.Blank {
					letters = append(letters, t)
				}
			}
			if len(letters) == 0 {
				break
			}
			x.Remove(letters[rng.IntN(len(letters))])
			x[alphabet.Blank]++
		}
		out[nb] = x
	}
	return out
}

// TestIntervalCrossCheck plays games of random legal moves and compares
// every interval generator (anagram; iwm at thresholds 1, 10 and 30,
// sequential and with 2 workers) with a reference on racks with 0, 1 and
// 2 blanks at every position. The reference is the brute-force oracle on
// every ATRIL_IV_ORACLE_EVERY-th position (default 1: all) and the
// GADDAG generator on the others. ATRIL_IV_POSITIONS sets the positions
// per language (default 4, 3 with -short), ATRIL_IV_STEP the sampling
// step of long words (default 40; 1 is the full list), ATRIL_IV_LANG
// restricts the run to one variant. The long check:
//
//	ATRIL_IV_POSITIONS=10000 ATRIL_IV_STEP=1 ATRIL_IV_ORACLE_EVERY=50 \
//	  go test ./movegen/interval -run IntervalCrossCheck -v -timeout 10h
func TestIntervalCrossCheck(t *testing.T) {
	positions := ivEnv("ATRIL_IV_POSITIONS", 4)
	step := ivEnv("ATRIL_IV_STEP", 40)
	oracleEvery := max(1, ivEnv("ATRIL_IV_ORACLE_EVERY", 1))
	if testing.Short() {
		positions = 3
	}
	for li, l := range ivLanguages {
		if only := os.Getenv("ATRIL_IV_LANG"); only != "" && only != l.variant {
			continue
		}
		t.Run(l.variant, func(t *testing.T) {
			v, full := ivLexicon(t, l.variant, l.lexicon)
			lex := ivSample(full, step)
			oracle := movegen.NewBrute(lex)
			fast := movegen.NewGaddag(lex)
			gens := make([]movegen.Generator, len(intervalGenerators))
			for i, mk := range intervalGenerators {
				gens[i] = mk.make(t, lex)
			}
			rng := rand.New(rand.NewPCG(uint64(li)+1, 7))
			nPos, nOracle, nMoves := 0, 0, 0
			var wantPrint, gotPrint []uint64
			for game0 := 0; nPos < positions; game0++ {
				g, err := game.New(v, lex, []string{"a", "b"}, uint64(game0)*31+uint64(li))
				if err != nil {
					t.Fatal(err)
				}
				for turn := 0; !g.Over() && nPos < positions; turn++ {
					b := g.Board
					var ref movegen.Generator = fast
					if nPos%oracleEvery == 0 {
						ref = oracle
						nOracle++
					}
					racks := ivRacks(rng, v, g.Seats[g.Current()].Rack)
					for _, rack := range racks {
						wantPrint = ivPrint(ref, b, &rack, wantPrint)
						nMoves += len(wantPrint)
						for gi, gen := range gens {
							gotPrint = ivPrint(gen, b, &rack, gotPrint)
							if ivSamePrint(wantPrint, gotPrint) {
								continue
							}
							want, _ := ivMoves(ref, b, &rack)
							got, dups := ivMoves(gen, b, &rack)
							if dups > 0 || len(got) != len(want) || ivDiff(b, want, got) != "[]" {
								t.Fatalf("%s, game %d turn %d, rack %s: %s (%s) gives %d moves (%d duplicates), %s %d: %s\n%s",
									l.variant, game0, turn, v.Alphabet.RackString(&rack), gen.Name(), intervalGenerators[gi].name,
									len(got), dups, ref.Name(), len(want), ivDiff(b, want, got), b.String())
							}
						}
					}
					nPos++
					if nPos%100 == 0 {
						t.Logf("%s: %d positions checked", l.variant, nPos)
					}
					// Advance with one of the best legal moves of the real rack.
					ms := movegen.All(fast, b, &g.Seats[g.Current()].Rack)
					if len(ms) == 0 {
						if err := g.Play(move.Move{Kind: move.Pass}); err != nil {
							t.Fatal(err)
						}
						continue
					}
					m := ms[rng.IntN(min(len(ms), 1+rng.IntN(10)))]
					if err := g.Play(m); err != nil {
						t.Fatal(err)
					}
				}
			}
			t.Logf("%s (%d words): %d positions × 3 racks (0, 1, 2 blanks), %d against the oracle, the rest against gaddag; %d reference moves; %d generators agree",
				l.variant, lex.Len(), nPos, nOracle, nMoves, len(gens))
		})
	}
}
