// Package wordfind finds the words of a word list that a player studying
// the list asks for: the anagrams of a rack (every tile used), the words
// a rack can make (some of its tiles), the words that match a pattern
// ("C?T", "*ING", "[AEIOU]Q*"), or a pattern and a rack together, each
// with its hooks (the letters that make a word when put before or after
// it).
//
// The search walks the list's DAWG once, depth first, carrying the rack's
// tiles left and the set of pattern positions the letters so far can
// have reached (a pattern is a small nondeterministic automaton whose
// stars loop), so a word is found once however its stars split, and a
// branch is left as soon as no pattern position or no tile is left for
// it.
package wordfind

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"atril/alphabet"
	"atril/lexicon/automaton"
)

// MaxPattern bounds the elements of a pattern (a star counts as one).
const MaxPattern = 40

// Elem is one element of a pattern: one letter of the set Set (bit l for
// letter l), or, when Star is set, any run of letters, none included.
type Elem struct {
	Set  uint64
	Star bool
}

// ParsePattern reads a pattern: letters as the alphabet spells them, "?"
// for any one letter, "*" for any run of letters (none included), and
// letters in square brackets for one of them ("[AEIOU]"; the alphabet's
// own letters of several characters, such as Spanish CH, read as one
// letter inside brackets too, longest first). Case does not matter. An
// empty pattern is an error; so is an unknown letter, an empty or
// unclosed set, or more than MaxPattern elements.
func ParsePattern(a *alphabet.Alphabet, text string) ([]Elem, error) {
	text = strings.ToUpper(strings.TrimSpace(text))
	if text == "" {
		return nil, errors.New("empty pattern")
	}
	all := letterMask(a)
	var out []Elem
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case '?':
			out = append(out, Elem{Set: all})
			i++
		case '*':
			if len(out) == 0 || !out[len(out)-1].Star { // "**" is "*"
				out = append(out, Elem{Star: true})
			}
			i++
		case '[':
			end := strings.IndexByte(text[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("pattern %q: unclosed [ at byte %d", text, i)
			}
			ts, err := a.Parse(text[i+1:i+end], alphabet.Plain)
			if err != nil {
				return nil, fmt.Errorf("pattern %q: %w", text, err)
			}
			if len(ts) == 0 {
				return nil, fmt.Errorf("pattern %q: empty [] at byte %d", text, i)
			}
			var set uint64
			for _, t := range ts {
				set |= 1 << t
			}
			out = append(out, Elem{Set: set})
			i += end + 1
		default:
			j := i
			for j < len(text) && !strings.ContainsRune("?*[]", rune(text[j])) {
				j++
			}
			if j == i { // a stray ']'
				return nil, fmt.Errorf("pattern %q: ] at byte %d without [", text, i)
			}
			ts, err := a.Parse(text[i:j], alphabet.Plain)
			if err != nil {
				return nil, fmt.Errorf("pattern %q: %w", text, err)
			}
			for _, t := range ts {
				out = append(out, Elem{Set: 1 << t})
			}
			i = j
		}
		if len(out) > MaxPattern {
			return nil, fmt.Errorf("pattern %q: more than %d letters and wildcards", text, MaxPattern)
		}
	}
	return out, nil
}

// letterMask has a bit for every letter of a.
func letterMask(a *alphabet.Alphabet) uint64 {
	return (uint64(1)<<(a.Size()+1) - 1) &^ 1
}

// Query says which words to find. A query with neither a pattern nor a
// rack asks for every word.
type Query struct {
	// Pattern the words match (nil: any).
	Pattern []Elem
	// Rack holds the tiles the words are made of (alphabet.Blank for a
	// blank, which stands for any letter); nil: no rack.
	Rack []alphabet.Tile
	// AllTiles asks for words that use every tile of the rack (the
	// rack's anagrams); otherwise a word uses some of them.
	AllTiles bool
	// MinLen and MaxLen bound the words' length in tiles (0: no bound).
	MinLen, MaxLen int
	// Limit is the most words returned (0: 1000).
	Limit int
	// MaxSteps bounds the DAWG states visited (0: 20 million), so that a
	// pattern such as "*" over a large list answers in bounded time.
	MaxSteps int
}

// Result is what a query found.
type Result struct {
	// Words found, longest first when the query has a rack and shortest
	// first otherwise, words of one length in the alphabet's order. A
	// letter played by a blank of the rack has alphabet.BlankBit set.
	Words [][]alphabet.Tile
	// Cut is set when the search stopped at the query's Limit or
	// MaxSteps: there may be more words.
	Cut bool
	// Steps is the number of DAWG states visited.
	Steps int
}

// search is the state of one query's walk.
type search struct {
	d       *automaton.Automaton
	q       *Query
	pat     []Elem
	rack    alphabet.Rack
	hasRack bool
	tiles   int // tiles on the rack
	all     uint64
	word    []alphabet.Tile
	out     [][]alphabet.Tile
	steps   int
	cut     bool
}

// Find runs q over d, the DAWG of a word list. It fails when d is not a
// DAWG or the pattern has more than MaxPattern elements.
func Find(d *automaton.Automaton, a *alphabet.Alphabet, q Query) (Result, error) {
	if d.Kind != automaton.DAWG {
		return Result{}, fmt.Errorf("wordfind: a %v, not a DAWG", d.Kind)
	}
	if len(q.Pattern) > MaxPattern {
		return Result{}, fmt.Errorf("wordfind: a pattern of %d elements (at most %d)", len(q.Pattern), MaxPattern)
	}
	if q.Limit <= 0 {
		q.Limit = 1000
	}
	if q.MaxSteps <= 0 {
		q.MaxSteps = 20_000_000
	}
	s := &search{d: d, q: &q, pat: q.Pattern, all: letterMask(a), hasRack: q.Rack != nil}
	for _, t := range q.Rack {
		s.rack.Add(t)
		s.tiles++
	}
	var start uint64 = 1
	if s.pat != nil {
		start = s.closure(1)
	}
	s.walk(d.Root, start)
	res := Result{Words: s.out, Cut: s.cut, Steps: s.steps}
	longFirst := s.hasRack
	slices.SortStableFunc(res.Words, func(x, y []alphabet.Tile) int {
		if longFirst {
			return len(y) - len(x)
		}
		return len(x) - len(y)
	})
	return res, nil
}

// closure adds to the set of pattern positions at every position that
// follows a star in it (a star may match no letter).
func (s *search) closure(at uint64) uint64 {
	for i, e := range s.pat {
		if e.Star && at&(1<<i) != 0 {
			at |= 1 << (i + 1)
		}
	}
	return at
}

// next is the set of pattern positions reached from at by letter l.
func (s *search) next(at uint64, l alphabet.Tile) uint64 {
	var to uint64
	for rest := at; rest != 0; rest &= rest - 1 {
		i := bits.TrailingZeros64(rest)
		if i >= len(s.pat) {
			continue
		}
		e := s.pat[i]
		switch {
		case e.Star:
			to |= 1 << i // the star takes the letter and stays
		case e.Set&(1<<l) != 0:
			to |= 1 << (i + 1)
		}
	}
	return s.closure(to)
}

// walk visits the words through DAWG state n, whose letters so far are
// s.word and have reached the pattern positions at.
func (s *search) walk(n uint32, at uint64) {
	if s.cut {
		return
	}
	if s.steps++; s.steps > s.q.MaxSteps {
		s.cut = true
		return
	}
	if s.d.IsFinal(n) && s.accepts(at) {
		if len(s.out) == s.q.Limit {
			s.cut = true
			return
		}
		s.out = append(s.out, slices.Clone(s.word))
	}
	if s.q.MaxLen > 0 && len(s.word) >= s.q.MaxLen || s.hasRack && len(s.word) == s.tiles {
		return
	}
	nd := s.d.Nodes[n]
	first := nd.First &^ automaton.Final
	for rest := nd.Mask & s.all; rest != 0; rest &= rest - 1 {
		l := alphabet.Tile(bits.TrailingZeros64(rest))
		if s.hasRack && s.rack[l] == 0 && s.rack[alphabet.Blank] == 0 {
			continue
		}
		to := at
		if s.pat != nil {
			if to = s.next(at, l); to == 0 {
				continue
			}
		}
		child := s.d.Targets[first+uint32(bits.OnesCount64(nd.Mask&(uint64(1)<<l-1)))]
		t := l
		if s.hasRack {
			// The rack's own letter first, a blank only without one: a
			// word is found once, with as few blanks as it needs.
			if s.rack[l] == 0 {
				t |= alphabet.BlankBit
			}
			s.rack.Remove(t)
		}
		s.word = append(s.word, t)
		s.walk(child, to)
		s.word = s.word[:len(s.word)-1]
		if s.hasRack {
			s.rack.Add(t)
		}
		if s.cut {
			return
		}
	}
}

// accepts reports whether the letters so far make a word the query asks
// for, given the pattern positions at they reached.
func (s *search) accepts(at uint64) bool {
	n := len(s.word)
	switch {
	case n == 0,
		s.q.MinLen > 0 && n < s.q.MinLen,
		s.pat != nil && at&(1<<len(s.pat)) == 0,
		s.q.AllTiles && n != s.tiles:
		return false
	}
	return true
}

// Hooks are the letters that make a word when put before word w (front,
// bit l for letter l) and after it (back), by the DAWG d.
func Hooks(d *automaton.Automaton, a *alphabet.Alphabet, w []alphabet.Tile) (front, back uint64) {
	n, ok := d.Walk(d.Root, w)
	if !ok {
		return 0, 0
	}
	for rest := d.Nodes[n].Mask & letterMask(a); rest != 0; rest &= rest - 1 {
		l := alphabet.Tile(bits.TrailingZeros64(rest))
		if c, _ := d.Child(n, l); d.IsFinal(c) {
			back |= 1 << l
		}
	}
	for rest := d.Nodes[d.Root].Mask & letterMask(a); rest != 0; rest &= rest - 1 {
		l := alphabet.Tile(bits.TrailingZeros64(rest))
		c, _ := d.Child(d.Root, l)
		if m, ok := d.Walk(c, w); ok && d.IsFinal(m) {
			front |= 1 << l
		}
	}
	return front, back
}

// Letters spells the letters of set (bit l for letter l, as Hooks gives
// them) in the alphabet's order.
func Letters(a *alphabet.Alphabet, set uint64) []string {
	out := []string{}
	for rest := set & letterMask(a); rest != 0; rest &= rest - 1 {
		out = append(out, a.String(alphabet.Tile(bits.TrailingZeros64(rest))))
	}
	return out
}
