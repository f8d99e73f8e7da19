package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/variant"
)

// BlankCase is the blank experiment of Anagram 2018 Table 3 for a language:
// a board holding one word and a few racks with 2, 1 and 0 blanks.
type BlankCase struct {
	Variant string
	Play    string // the only word on the board, in move notation
	Racks   []string
}

// BlankCases are the experiments run by atril bench blanks: Anagram 2018's
// English case, and Spanish and Czech cases with a seven-letter word of
// common letters at the same place and the same racks (A, E, I, N, R, S,
// T are common letters in all three bags).
var BlankCases = []BlankCase{
	{"english", "8F ANEROID", []string{"AENRS??", "AEINRS?", "AEINRST"}},
	{"spanish", "8F ENTRADO", []string{"AENRS??", "AEINRS?", "AEINRST"}},
	{"czech", "8F STANICE", []string{"AENRS??", "AEINRS?", "AEINRST"}},
}

// BlankCaseFor returns the blank case of a variant.
func BlankCaseFor(variantName string) (BlankCase, bool) {
	for _, c := range BlankCases {
		if c.Variant == variantName {
			return c, true
		}
	}
	return BlankCase{}, false
}

// BlanksRow is the measurement of one rack.
type BlanksRow struct {
	Rack  string
	Moves int
	Times []time.Duration // per algorithm, median
}

// BlanksResult is the outcome of a blank experiment.
type BlanksResult struct {
	Variant string
	Play    string
	Algos   []string
	Reps    int
	Rows    []BlanksRow
}

// RunBlanks times every algorithm on the board holding only c.Play with
// each of c.Racks, failing when the algorithms disagree on the number of
// moves.
func RunBlanks(v *variant.Variant, lex *lexicon.Lexicon, algos []Algo, c BlankCase, reps int) (*BlanksResult, error) {
	b := board.New(v, lex)
	m, err := move.Parse(b, c.Play)
	if err != nil {
		return nil, fmt.Errorf("bench blanks: %s: %w", c.Play, err)
	}
	sq, tiles := m.Placed()
	b.Place(sq, tiles, 1)
	res := &BlanksResult{Variant: v.Name, Play: c.Play, Reps: reps}
	for _, a := range algos {
		res.Algos = append(res.Algos, a.Name)
	}
	for _, rs := range c.Racks {
		rack, err := v.Alphabet.ParseRack(rs)
		if err != nil {
			return nil, fmt.Errorf("bench blanks: rack %q: %w", rs, err)
		}
		row := BlanksRow{Rack: rs, Times: make([]time.Duration, len(algos))}
		ms := make([]Measurement, len(algos))
		MeasureAll(algos, b, &rack, reps, ms)
		row.Moves = ms[0].Moves
		for ai := range algos {
			if ms[ai].Moves != row.Moves {
				return nil, fmt.Errorf("bench blanks: %s, %s, rack %s: %s finds %d moves but %s finds %d",
					v.Name, c.Play, rs, algos[0].Name, row.Moves, algos[ai].Name, ms[ai].Moves)
			}
			row.Times[ai] = ms[ai].Time
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// WriteTable prints the Anagram 2018 Table 3 layout: time per algorithm and
// the first algorithm's time over each other's.
func (r *BlanksResult) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s, board holding only %s, median of %d timed generations (%s)\n", r.Variant, r.Play, r.Reps, Timing())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	hdr := []string{"rack", "moves"}
	for _, a := range r.Algos {
		hdr = append(hdr, a+" ms")
	}
	for _, a := range r.Algos[1:] {
		hdr = append(hdr, r.Algos[0]+"/"+a)
	}
	fmt.Fprintln(tw, strings.Join(hdr, "\t")+"\t")
	for _, row := range r.Rows {
		cols := []string{row.Rack, fmt.Sprint(row.Moves)}
		for _, t := range row.Times {
			cols = append(cols, ms(t))
		}
		for _, t := range row.Times[1:] {
			cols = append(cols, ratio(row.Times[0], t))
		}
		fmt.Fprintln(tw, strings.Join(cols, "\t")+"\t")
	}
	return tw.Flush()
}

// Ratio returns the time of algorithm a over algorithm b on rack row i.
func (r *BlanksResult) Ratio(i int, a, b string) float64 {
	ia, ib := -1, -1
	for k, n := range r.Algos {
		if n == a {
			ia = k
		}
		if n == b {
			ib = k
		}
	}
	if ia < 0 || ib < 0 || r.Rows[i].Times[ib] == 0 {
		return 0
	}
	return float64(r.Rows[i].Times[ia]) / float64(r.Rows[i].Times[ib])
}
