// Package leave values the tiles a player keeps on the rack after a move
// (the rack leave, Pícek 2008, 6.1.2 and 7.3.3.2): a per-letter table, an
// optional penalty for duplicated letters (heuristic v2 of Pícek 2008), and
// an optional vowel/consonant balance term (Pícek 2008, 6.1.2.1).
//
// The tables are keyed by letter text so they survive any tile coding;
// Bind turns one into a Table for a variant's alphabet.
package leave

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"atril/alphabet"
	"atril/variant"
)

// Spec is a leave heuristic written by letter.
type Spec struct {
	// Name identifies the heuristic, e.g. "en-v2".
	Name string
	// Values by letter text ("A", "Č", "CH"); "?" is the blank.
	Values map[string]float64
	// Dup is the duplicate penalty: the k-th copy of a letter (k ≥ 2)
	// is worth Dup·(k−1) less (Pícek 2008 v2 uses 4.0: I,I,I,S,S is
	// −0.5 + (−0.5−4) + (−0.5−4−4) + 7.5 + (7.5−4) = −2.5). Blanks are
	// exempt: a second blank is as good as the first.
	Dup float64
	// DupBy, when set, overrides Dup per letter (learnt tables).
	DupBy map[string]float64
	// Balance weighs the vowel/consonant term: −Balance·d² where d is
	// how far the leave's vowel count is from 40% of its non-blank tiles.
	Balance float64
}

// Table is a Spec bound to an alphabet: values by tile code.
type Table struct {
	Name    string
	Value   [alphabet.MaxLetters + 1]float64
	DupPen  [alphabet.MaxLetters + 1]float64
	Balance float64
	Vowel   [alphabet.MaxLetters + 1]bool
	Size    int
}

// Bind ties a spec to an alphabet. Letters of the alphabet missing from
// the spec are worth 0; letters of the spec missing from the alphabet are
// an error.
func Bind(s *Spec, a *alphabet.Alphabet) (*Table, error) {
	t := &Table{Name: s.Name, Balance: s.Balance, Size: a.Size()}
	idx := map[string]int{"?": 0}
	for i, l := range a.Letters() {
		idx[strings.ToUpper(l)] = i + 1
		t.Vowel[i+1] = IsVowel(l)
	}
	for l, v := range s.Values {
		i, ok := idx[strings.ToUpper(l)]
		if !ok {
			return nil, fmt.Errorf("leave table %s: letter %q is not in the alphabet", s.Name, l)
		}
		t.Value[i] = v
	}
	for i := 1; i <= a.Size(); i++ {
		t.DupPen[i] = s.Dup
	}
	for l, v := range s.DupBy {
		i, ok := idx[strings.ToUpper(l)]
		if !ok {
			return nil, fmt.Errorf("leave table %s: duplicate penalty for %q: letter not in the alphabet", s.Name, l)
		}
		t.DupPen[i] = v
	}
	t.DupPen[0] = 0
	return t, nil
}

// IsVowel reports whether a letter's text is a vowel in the project's
// languages (English, Spanish, Czech; Y and Ý count as vowels in Czech,
// where they sound like I).
func IsVowel(l string) bool {
	switch strings.ToUpper(l) {
	case "A", "E", "I", "O", "U", "Á", "É", "Ě", "Í", "Ó", "Ú", "Ů", "Y", "Ý", "Ü":
		return true
	}
	return false
}

// Eval returns the value of keeping rack r.
func (t *Table) Eval(r *alphabet.Rack) float64 {
	if t == nil {
		return 0
	}
	v := 0.0
	vow, cons := 0, 0
	for i := 0; i <= t.Size; i++ {
		c := int(r[i])
		if c == 0 {
			continue
		}
		v += t.term(i, c)
		t.count(i, c, &vow, &cons)
	}
	return v - t.imbalance(vow, cons)
}

// FixedLeave marks a Table as never changing (movegen.FixedLeave), so
// that a search may keep its values for the next search of the same
// rack: its fields must not change once it is in use.
func (t *Table) FixedLeave() {}

// term is the value of keeping c (≥ 1) copies of tile code i, the
// balance term aside.
func (t *Table) term(i, c int) float64 {
	return float64(c)*t.Value[i] - t.DupPen[i]*float64(c*(c-1)/2)
}

// count adds c copies of tile code i to the vowels or the consonants (a
// blank is neither).
func (t *Table) count(i, c int, vow, cons *int) {
	switch {
	case i == 0:
	case t.Vowel[i]:
		*vow += c
	default:
		*cons += c
	}
}

// imbalance is the balance term's penalty for a leave of vow vowels and
// cons consonants.
func (t *Table) imbalance(vow, cons int) float64 {
	if t.Balance == 0 || vow+cons == 0 {
		return 0
	}
	d := float64(vow) - 0.4*float64(vow+cons)
	return t.Balance * d * d
}

// EvalSubRacks sets out[i] to Eval of sub-rack i of r, where i is the
// mixed-radix number whose digits are the counts kept of r's distinct
// tiles in code order, the first digit the least significant; out must
// hold ∏(count+1) entries. It sums the same terms in the same order as
// Eval, over the rack's distinct tiles only, so the values are Eval's to
// the last bit. It reports false (out unspecified) when r has more than
// 8 distinct tiles or out is too short (see movegen.SubRackLeave).
func (t *Table) EvalSubRacks(r *alphabet.Rack, out []float64) bool {
	if t == nil {
		return false
	}
	// Per distinct tile j and count c kept: the term, and the vowels and
	// consonants (0 for c = 0: adding 0 to a sum leaves it as it was, to
	// the last bit, so the sums are those of Eval, which skips absent
	// tiles). Indexed by the count kept, not by the letter: arrays of the
	// alphabet's size cost more to clear than the sums take.
	var s subRackSums
	s.t, s.out = t, out
	size := 1
	for i := 0; i <= t.Size; i++ {
		if r[i] == 0 {
			continue
		}
		if s.n == len(s.counts) || int(r[i]) >= len(s.terms[0]) {
			return false
		}
		s.counts[s.n], s.radix[s.n] = int(r[i]), size
		for c := 1; c <= int(r[i]); c++ {
			s.terms[s.n][c] = t.term(i, c)
			var vow, cons int
			t.count(i, c, &vow, &cons)
			s.vows[s.n][c], s.conss[s.n][c] = int8(vow), int8(cons)
		}
		size *= int(r[i]) + 1
		s.n++
	}
	if len(out) < size {
		return false
	}
	s.walk(0, 0, 0, 0, 0)
	return true
}

// subRackSums is EvalSubRacks' walk over a rack's sub-racks: each
// tile's count in turn, carrying the sum of the terms so far, so a
// sub-rack's value costs one addition rather than one per tile.
type subRackSums struct {
	t           *Table
	out         []float64
	n           int
	counts      [8]int
	radix       [8]int // place value of each tile's count in the index
	terms       [8][16]float64
	vows, conss [8][16]int8
}

// walk sets the values of the sub-racks whose counts of the tiles before
// j are fixed: at index idx so far, with those tiles' terms summing to v
// and holding vow vowels and cons consonants.
func (s *subRackSums) walk(j, idx int, v float64, vow, cons int) {
	if j == s.n {
		s.out[idx] = v - s.t.imbalance(vow, cons)
		return
	}
	for c := 0; c <= s.counts[j]; c++ {
		s.walk(j+1, idx+c*s.radix[j], v+s.terms[j][c], vow+int(s.vows[j][c]), cons+int(s.conss[j][c]))
	}
}

// EnglishV1 is heuristic v1 of Pícek 2008 (Figure 13): no duplicate penalty.
func EnglishV1() *Spec {
	return &Spec{Name: "en-v1", Values: map[string]float64{
		"A": 0.5, "B": -3.5, "C": -0.5, "D": -1.0, "E": 4.0, "F": -3.0, "G": -3.5,
		"H": 0.5, "I": -1.5, "J": -2.5, "K": -1.5, "L": -1.5, "M": -0.5, "N": 0.0,
		"O": -2.5, "P": -1.5, "Q": -11.5, "R": 1.0, "S": 7.5, "T": -1.0, "U": -4.5,
		"V": -6.5, "W": -4.0, "X": 3.5, "Y": -2.5, "Z": 3.0, "?": 24.5,
	}}
}

// EnglishV2 is heuristic v2 of Pícek 2008 (Figure 13) with its duplicate
// penalty of 4 points per repeated copy.
func EnglishV2() *Spec {
	return &Spec{Name: "en-v2", Dup: 4, Values: map[string]float64{
		"A": 1.0, "B": -3.5, "C": -0.5, "D": 0.0, "E": 4.0, "F": -2.0, "G": -2.0,
		"H": 0.5, "I": -0.5, "J": -3.0, "K": -2.5, "L": -1.0, "M": -1.0, "N": 0.5,
		"O": -1.5, "P": -1.5, "Q": -11.5, "R": 1.5, "S": 7.5, "T": 0.0, "U": -3.0,
		"V": -5.5, "W": -4.0, "X": 3.5, "Y": -2.0, "Z": 2.0, "?": 24.5,
	}}
}

// Czech is the table of Pícek 2008 (Figure 19), built from the share of
// dictionary words that contain each letter (Figure 18); the same
// duplicate penalty as English v2 is applied.
func Czech() *Spec {
	return &Spec{Name: "cs", Dup: 4, Values: map[string]float64{
		"A": 1.5, "Á": -1, "B": -2.5, "C": -3.0, "Č": -3.0, "D": -1.5, "Ď": -4.0,
		"E": 3.5, "É": -3.5, "Ě": -2.5, "F": -3.5, "G": -4.0, "H": -2.0,
		"I": -0.5, "Í": -1.5, "J": -2.0, "K": -1.5, "L": 0.5, "M": -1.5,
		"N": 4.0, "Ň": -4.0, "O": 2.5, "Ó": -4.0, "P": 0.0, "R": -0.5, "Ř": -2.5,
		"S": -1.5, "Š": -2.5, "T": 0.5, "Ť": -4.0, "U": -0.5, "Ú": -4.0, "Ů": -4.0,
		"V": -4.0, "X": -4.0, "Y": -2.0, "Ý": -3.5, "Z": -1.0, "Ž": -3.5,
		"?": 24.5,
	}}
}

// Spanish is the table derived from the es-fise word list by the method
// of Pícek 2008, 7.3.3.2 (see Derive); TestSpanishDerived checks that the
// derivation reproduces it. Generated with Derive and rounded to 0.5.
func Spanish() *Spec {
	return &Spec{Name: "es", Dup: 4, Values: spanishValues()}
}

// Frequency is the number of words of a word list containing a letter.
type Frequency struct {
	Letter string
	Words  int
	Share  float64 // Words / all words
}

// Derive applies the method of Pícek 2008, 7.3.3.2 to a word list: count
// the words containing each letter (Figure 18), map the share of words
// linearly from 0 (worth −4) to the most frequent letter's share (worth
// +4), round to the nearest 0.5, and give the blank +24.5 as in English.
// word(i) returns word i (0 ≤ i < n) as tile codes.
func Derive(name string, a *alphabet.Alphabet, n int, word func(i int) []alphabet.Tile) (*Spec, []Frequency) {
	cnt := make([]int, a.Size()+1)
	seen := make([]int, a.Size()+1)
	for i := 0; i < n; i++ {
		for _, t := range word(i) {
			l := int(t.Letter())
			if seen[l] != i+1 {
				seen[l] = i + 1
				cnt[l]++
			}
		}
	}
	best := 0
	for _, c := range cnt[1:] {
		best = max(best, c)
	}
	s := &Spec{Name: name, Dup: 4, Values: map[string]float64{"?": 24.5}}
	var fr []Frequency
	for l := 1; l <= a.Size(); l++ {
		text := a.String(alphabet.Tile(l))
		share := 0.0
		if best > 0 {
			share = float64(cnt[l]) / float64(best)
		}
		s.Values[text] = math.Round((-4+8*share)*2) / 2
		fr = append(fr, Frequency{Letter: text, Words: cnt[l], Share: float64(cnt[l]) / float64(max(n, 1))})
	}
	sort.Slice(fr, func(i, j int) bool { return fr[i].Words > fr[j].Words })
	return s, fr
}

// Names lists the built-in heuristics accepted by ForVariant.
func Names() []string { return []string{"none", "v1", "v2", "default"} }

// ForVariant returns the built-in table for a variant: for English "v1"
// or "v2" (the default), for Czech and Spanish their single table ("v1"
// drops its duplicate penalty). "none" returns nil (no leave term).
// balance sets the vowel/consonant weight.
func ForVariant(v *variant.Variant, name string, balance float64) (*Table, error) {
	if name == "none" {
		return nil, nil
	}
	var s *Spec
	switch v.Name {
	case "english":
		s = EnglishV2()
		if name == "v1" {
			s = EnglishV1()
		}
	case "czech":
		s = Czech()
	case "spanish":
		s = Spanish()
	default:
		return nil, fmt.Errorf("leave: no table for variant %q", v.Name)
	}
	switch name {
	case "", "default", "v2":
	case "v1":
		s.Dup = 0
	default:
		return nil, fmt.Errorf("leave: unknown table %q (have %v)", name, Names())
	}
	s.Balance = balance
	return Bind(s, v.Alphabet)
}
