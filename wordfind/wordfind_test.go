package wordfind

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/internal/testvariant"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/variant"
)

func TestParsePattern(t *testing.T) {
	en := variant.MustLoad("english").Alphabet
	es := variant.MustLoad("spanish").Alphabet
	A, C, T := uint64(1)<<1, uint64(1)<<3, uint64(1)<<20
	for _, c := range []struct {
		a    *alphabet.Alphabet
		text string
		want []Elem
		err  string
	}{
		{en, "cat", []Elem{{Set: C}, {Set: A}, {Set: T}}, ""},
		{en, " C?T ", []Elem{{Set: C}, {Set: letterMask(en)}, {Set: T}}, ""},
		{en, "*A**", []Elem{{Star: true}, {Set: A}, {Star: true}}, ""},
		{en, "[at]c", []Elem{{Set: A | T}, {Set: C}}, ""},
		{es, "[CH]", []Elem{{Set: 1 << mustTile(t, es, "CH")}}, ""},
		{es, "CHE", []Elem{{Set: 1 << mustTile(t, es, "CH")}, {Set: 1 << mustTile(t, es, "E")}}, ""},
		{en, "", nil, "empty pattern"},
		{en, "C[AT", nil, "unclosed ["},
		{en, "C[]T", nil, "empty []"},
		{en, "CA]T", nil, "] at byte 2 without ["},
		{en, "CÑT", nil, `unknown letter "Ñ"`},
		{en, strings.Repeat("A", MaxPattern+1), nil, "more than 40"},
	} {
		got, err := ParsePattern(c.a, c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %+v %v, want %+v", c.text, got, err, c.want)
		}
	}
}

func mustTile(t *testing.T, a *alphabet.Alphabet, s string) alphabet.Tile {
	t.Helper()
	ts, err := a.Parse(s, alphabet.Plain)
	if err != nil || len(ts) != 1 {
		t.Fatalf("%q: %v %v", s, ts, err)
	}
	return ts[0]
}

// oracle answers q by reading every word of lex: the pattern as a
// regular expression over one rune per tile, the rack by counting.
func oracle(lex *lexicon.Lexicon, q Query) [][]alphabet.Tile {
	var re *regexp.Regexp
	if q.Pattern != nil {
		var b strings.Builder
		b.WriteString("^")
		for _, e := range q.Pattern {
			if e.Star {
				b.WriteString(".*")
				continue
			}
			b.WriteString("[")
			for l := 1; l < 64; l++ {
				if e.Set&(1<<l) != 0 {
					b.WriteRune(rune(0x100 + l))
				}
			}
			b.WriteString("]")
		}
		b.WriteString("$")
		re = regexp.MustCompile(b.String())
	}
	rack := alphabet.RackOf(q.Rack)
	var out [][]alphabet.Tile
	for i := range lex.Len() {
		w := lex.Word(i)
		if q.MinLen > 0 && len(w) < q.MinLen || q.MaxLen > 0 && len(w) > q.MaxLen {
			continue
		}
		if re != nil {
			rs := make([]rune, len(w))
			for k, t := range w {
				rs[k] = rune(0x100 + int(t))
			}
			if !re.MatchString(string(rs)) {
				continue
			}
		}
		if q.Rack != nil {
			if q.AllTiles && len(w) != len(q.Rack) || len(w) > len(q.Rack) {
				continue
			}
			var need alphabet.Rack
			for _, t := range w {
				need[t]++
			}
			short := 0
			for l := 1; l < len(need); l++ {
				short += max(0, int(need[l])-int(rack[l]))
			}
			if short > int(rack[alphabet.Blank]) {
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// plain is w with its blanks' marks taken off.
func plain(w []alphabet.Tile) string {
	b := make([]byte, len(w))
	for i, t := range w {
		b[i] = byte(t.Letter())
	}
	return string(b)
}

// TestFindAgainstOracle: on sampled English and Spanish lists, random
// racks (with 0 to 2 blanks) and patterns made from words of the list
// (letters turned into ?, sets and stars), Find returns exactly the
// words a reading of the whole list finds, each once, in order of
// length, with as many blanks as the word needs and no more.
func TestFindAgainstOracle(t *testing.T) {
	for _, lang := range []struct{ v, list string }{{"english", "en-sowpods"}, {"spanish", "es-fise"}} {
		v := variant.MustLoad(lang.v)
		lex := testvariant.Sample(t, v, lang.list, 20)
		d := automaton.Build(lex, automaton.DAWG)
		rng := rand.New(rand.NewPCG(7, uint64(len(lang.v))))
		var bag []alphabet.Tile
		for code, c := range v.Counts {
			for range c {
				bag = append(bag, alphabet.Tile(code))
			}
		}
		found := 0
		for trial := range 200 {
			q := Query{Limit: lex.Len()}
			mode := trial % 4
			if mode != 2 { // a rack
				n := 2 + rng.IntN(7)
				for range n {
					q.Rack = append(q.Rack, bag[rng.IntN(len(bag))])
				}
				q.AllTiles = mode == 0
			}
			if mode >= 2 { // a pattern
				q.Pattern = randomPattern(rng, lex, v.Alphabet)
			}
			if trial%5 == 0 {
				q.MinLen = 3
			}
			if trial%7 == 0 {
				q.MaxLen = 5
			}
			res, err := Find(d, v.Alphabet, q)
			if err != nil {
				t.Fatal(err)
			}
			want := oracle(lex, q)
			if res.Cut {
				t.Fatalf("%s trial %d cut short at %d words", lang.v, trial, len(res.Words))
			}
			got := make([]string, len(res.Words))
			for i, w := range res.Words {
				got[i] = plain(w)
				if i > 0 && (q.Rack != nil && len(w) > len(res.Words[i-1]) || q.Rack == nil && len(w) < len(res.Words[i-1])) {
					t.Fatalf("%s trial %d: %s after %s", lang.v, trial, v.Alphabet.Word(w), v.Alphabet.Word(res.Words[i-1]))
				}
				if q.Rack != nil {
					blanks, rack := 0, alphabet.RackOf(q.Rack)
					for _, tl := range w {
						if tl.IsBlanked() {
							blanks++
						} else if rack[tl]--; rack[tl] == 255 {
							t.Fatalf("%s trial %d: %s uses a %s the rack has not", lang.v, trial, v.Alphabet.Word(w), v.Alphabet.String(tl))
						}
					}
					for _, tl := range w {
						if tl.IsBlanked() && rack[tl.Letter()] > 0 {
							t.Fatalf("%s trial %d: %s plays a blank as %s with one on the rack", lang.v, trial, v.Alphabet.Word(w), v.Alphabet.String(tl.Letter()))
						}
					}
					if blanks > int(rack[alphabet.Blank]) {
						t.Fatalf("%s trial %d: %s uses %d blanks", lang.v, trial, v.Alphabet.Word(w), blanks)
					}
				}
			}
			wantS := make([]string, len(want))
			for i, w := range want {
				wantS[i] = plain(w)
			}
			found += len(got)
			slices.Sort(got)
			slices.Sort(wantS)
			if !slices.Equal(got, wantS) {
				t.Fatalf("%s trial %d (rack %q, all %v, pattern %+v, len %d..%d): %d words, want %d",
					lang.v, trial, v.Alphabet.Word(q.Rack), q.AllTiles, q.Pattern, q.MinLen, q.MaxLen, len(got), len(wantS))
			}
		}
		if found < 2000 {
			t.Errorf("%s: %d words found in all, too few for the check to mean much", lang.v, found)
		}
	}
}

// randomPattern makes a pattern from a word of lex: each letter kept,
// turned into ? or a set holding it, or a run of letters into a star.
func randomPattern(rng *rand.Rand, lex *lexicon.Lexicon, a *alphabet.Alphabet) []Elem {
	w := lex.Word(rng.IntN(lex.Len()))
	var out []Elem
	for i := 0; i < len(w); i++ {
		switch r := rng.IntN(10); {
		case r < 4:
			out = append(out, Elem{Set: 1 << w[i]})
		case r < 6:
			out = append(out, Elem{Set: letterMask(a)})
		case r < 7:
			out = append(out, Elem{Set: 1<<w[i] | 1<<(1+rng.IntN(a.Size()))})
		default:
			out = append(out, Elem{Star: true})
			i += rng.IntN(3)
		}
	}
	return out
}

// TestFindLimits: the limit of words and of steps cut a search short and
// say so; a GADDAG is refused.
func TestFindLimits(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 20)
	d := automaton.Build(lex, automaton.DAWG)
	star := []Elem{{Star: true}}
	res, err := Find(d, v.Alphabet, Query{Pattern: star, Limit: 10})
	if err != nil || len(res.Words) != 10 || !res.Cut {
		t.Errorf("limit 10: %d words, cut %v, %v", len(res.Words), res.Cut, err)
	}
	res, err = Find(d, v.Alphabet, Query{Pattern: star, MaxSteps: 100})
	if err != nil || !res.Cut || res.Steps > 101 {
		t.Errorf("100 steps: %d steps, cut %v, %v", res.Steps, res.Cut, err)
	}
	res, err = Find(d, v.Alphabet, Query{Pattern: star, Limit: lex.Len()})
	if err != nil || len(res.Words) != lex.Len() || res.Cut {
		t.Errorf("every word: %d of %d, cut %v, %v", len(res.Words), lex.Len(), res.Cut, err)
	}
	if _, err := Find(automaton.Build(lex, automaton.GADDAG), v.Alphabet, Query{}); err == nil {
		t.Error("a GADDAG taken for a DAWG")
	}
}

// TestHooks: the hooks of sampled words are exactly the letters that
// make a word of the list before or after them.
func TestHooks(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 5)
	d := automaton.Build(lex, automaton.DAWG)
	for i := 0; i < lex.Len(); i += 97 {
		w := lex.Word(i)
		front, back := Hooks(d, v.Alphabet, w)
		for l := alphabet.Tile(1); int(l) <= v.Alphabet.Size(); l++ {
			f := lex.Contains(append([]alphabet.Tile{l}, w...))
			b := lex.Contains(append(slices.Clone(w), l))
			if f != (front&(1<<l) != 0) || b != (back&(1<<l) != 0) {
				t.Fatalf("%s with %s: front %v back %v, hooks %b %b", v.Alphabet.Word(w), v.Alphabet.String(l), f, b, front, back)
			}
		}
	}
	if got := Letters(v.Alphabet, 1<<19|1<<1|1); !slices.Equal(got, []string{"A", "S"}) {
		t.Errorf("Letters of A and S (and the blank's bit): %q", got)
	}
	if f, b := Hooks(d, v.Alphabet, mustWord(t, v.Alphabet, "QXZJ")); f != 0 || b != 0 {
		t.Errorf("hooks of a non-prefix: %b %b", f, b)
	}
}

func mustWord(t *testing.T, a *alphabet.Alphabet, s string) []alphabet.Tile {
	t.Helper()
	ts, err := a.Parse(s, alphabet.Plain)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// FuzzParsePattern: any text is read or refused with an error, never a
// panic, and what is read has at most MaxPattern elements, no letter
// outside the alphabet, and no two stars in a row.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"C?T", "*ING", "[AEIOU]Q*", "[", "]", "?*?*", "CH[LL]Ñ"} {
		f.Add(s)
	}
	es := variant.MustLoad("spanish").Alphabet
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePattern(es, s)
		if err != nil {
			return
		}
		if len(p) == 0 || len(p) > MaxPattern {
			t.Fatalf("%q: %d elements", s, len(p))
		}
		for i, e := range p {
			if e.Star && i > 0 && p[i-1].Star || !e.Star && (e.Set == 0 || e.Set&^letterMask(es) != 0) {
				t.Fatalf("%q: element %d %+v", s, i, e)
			}
		}
	})
}
