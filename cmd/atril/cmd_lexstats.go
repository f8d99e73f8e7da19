package main

import (
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"sort"
	"text/tabwriter"
	"time"

	"atril/alphabet"
	"atril/lexicon"
	"atril/movegen/interval"
	"atril/multiset"
)

func init() {
	lexiconCommands["stats"] = command{
		"multiset and inner-word statistics of a word list (Sánchez Bello 2025 Tables 3.4, 3.9, 5.1-5.5) and the anagram/IWM table sizes",
		lexiconStats,
	}
}

// lexiconStats prints the figures of Sánchez Bello 2025 for a word list and
// builds the anagram and IWM tables to report their sizes and build times.
func lexiconStats(args []string) error {
	fs := flag.NewFlagSet("lexicon stats", flag.ContinueOnError)
	variantName, lexName := envFlags(fs)
	threshold := fs.Int("threshold", 10, "IWM decision threshold")
	tables := fs.Bool("tables", true, "build the anagram and IWM tables and report their sizes")
	top := fs.Int("top", 5, "how many of the most frequent inner words to list")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *threshold < 1 {
		return fmt.Errorf("--threshold %d: must be at least 1", *threshold)
	}
	e, err := loadEnv(*variantName, *lexName)
	if err != nil {
		return err
	}
	return writeLexStats(os.Stdout, e.Lex, e.V.Counts, *threshold, *tables, *top)
}

// writeLexStats writes the statistics of lex; bag holds the tile counts by
// code (for the anagram excess rule).
func writeLexStats(out io.Writer, lex *lexicon.Lexicon, bag []int, threshold int, tables bool, top int) error {
	a := lex.Alphabet
	L := a.Size()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "word list\t%s: %d words, alphabet of %d letters\n", lex.Name, lex.Len(), L)

	// Multisets: Sánchez Bello 2025 Tables 3.4 and 3.9.
	t0 := time.Now()
	per, err := multiset.Build(L, lex)
	if err != nil {
		return fmt.Errorf("PER tables of %s: %w", lex.Name, err)
	}
	tPER := time.Since(t0)
	fmt.Fprintln(w, "\nParity-Exceedance Representation (Tables 3.4, 3.9)\t")
	fmt.Fprintf(w, "feasible exceedances\t%d\n", per.Exceedances())
	fmt.Fprintf(w, "feasible triads (carry repeat-free, ordered)\t%d\n", per.Triads())
	fmt.Fprintf(w, "feasible triads (any carry, ordered)\t%d\n", per.AllTriads)
	fmt.Fprintf(w, "carry-mask table entries\t%d\n", per.CarryMasks())
	if per.Fits64() {
		fmt.Fprintf(w, "PER layout\tparity bits 0-%d, exceedance id bits %d-63 (%d bits, %d needed)\n",
			L-1, L, per.IDBits(), bits.Len(uint(per.Exceedances())))
	} else {
		fmt.Fprintf(w, "PER layout\twide: %d parity bits and a 32-bit exceedance id (%d bits needed; %d + %d > 64)\n",
			L, bits.Len(uint(per.Exceedances())), L, bits.Len(uint(per.Exceedances())))
	}
	fmt.Fprintf(w, "PER tables\t%s, built in %v\n", mib(per.Bytes()), tPER.Round(time.Millisecond))

	// Words by length: Table 5.2.
	var byLen [3]int
	for i := 0; i < lex.Len(); i++ {
		switch n := len(lex.Word(i)); {
		case n == 2:
			byLen[0]++
		case n == 3:
			byLen[1]++
		case n >= 4:
			byLen[2]++
		}
	}
	fmt.Fprintln(w, "\nWords by length (Table 5.2)\t")
	fmt.Fprintf(w, "2 / 3 / 4+ letters\t%d / %d / %d\n", byLen[0], byLen[1], byLen[2])

	// Inner words: a proper substring that is a letter or a word.
	t0 = time.Now()
	occByLen := [5]int{}
	innerFreq := map[uint32]uint32{}  // ref → words containing it
	placedFreq := map[uint64]uint32{} // ref<<10 | pos<<5 | n → words
	var seen []uint32
	occ := 0
	ref := func(w []alphabet.Tile) (uint32, bool) {
		if len(w) == 1 {
			return uint32(w[0]), true
		}
		j := lex.Index(w)
		if j < 0 {
			return 0, false
		}
		return uint32(L + 1 + j), true
	}
	for i := 0; i < lex.Len(); i++ {
		word := lex.Word(i)
		n := len(word)
		seen = seen[:0]
		for p := 0; p < n; p++ {
			for k := 1; p+k <= n && k < n; k++ {
				r, ok := ref(word[p : p+k])
				if !ok {
					continue
				}
				occ++
				occByLen[min(k, 4)]++
				placedFreq[uint64(r)<<10|uint64(p)<<5|uint64(n)]++
				dup := false
				for _, s := range seen {
					if s == r {
						dup = true
						break
					}
				}
				if !dup {
					seen = append(seen, r)
					innerFreq[r]++
				}
			}
		}
	}
	tInner := time.Since(t0)
	name := func(r uint32) string {
		if r <= uint32(L) {
			return a.String(alphabet.Tile(r))
		}
		return a.Word(lex.Word(int(r) - L - 1))
	}
	fmt.Fprintln(w, "\nInner-word occurrences by length (Table 5.1)\t")
	for k := 1; k <= 4; k++ {
		label := fmt.Sprint(k)
		if k == 4 {
			label = "4+"
		}
		fmt.Fprintf(w, "length %s\t%d (%.1f%%)\n", label, occByLen[k], pct(occByLen[k], occ))
	}
	innerWords := 0
	for r := range innerFreq {
		if r > uint32(L) {
			innerWords++
		}
	}
	fmt.Fprintln(w, "\nInner words (Table 5.3)\t")
	fmt.Fprintf(w, "words of the list\t%d\n", lex.Len())
	fmt.Fprintf(w, "inner-word occurrences\t%d (computed in %v)\n", occ, tInner.Round(time.Millisecond))
	fmt.Fprintf(w, "distinct inner words\t%d (%d words and %d letters)\n", len(innerFreq), innerWords, len(innerFreq)-innerWords)
	ifreqs := make([]uint32, 0, len(innerFreq))
	var irefs []uint32
	for r, f := range innerFreq {
		ifreqs = append(ifreqs, f)
		irefs = append(irefs, r)
	}
	writeShares(w, "inner words", ifreqs)
	sort.Slice(irefs, func(i, j int) bool {
		if innerFreq[irefs[i]] != innerFreq[irefs[j]] {
			return innerFreq[irefs[i]] > innerFreq[irefs[j]]
		}
		return irefs[i] < irefs[j]
	})
	for i := 0; i < top && i < len(irefs); i++ {
		fmt.Fprintf(w, "most frequent #%d\t%s in %d words\n", i+1, name(irefs[i]), innerFreq[irefs[i]])
	}

	fmt.Fprintln(w, "\nPlaced inner words (Table 5.5)\t")
	fmt.Fprintf(w, "placed inner-word occurrences\t%d\n", occ)
	fmt.Fprintf(w, "distinct placed inner words\t%d\n", len(placedFreq))
	pfreqs := make([]uint32, 0, len(placedFreq))
	var pkeys []uint64
	for k, f := range placedFreq {
		pfreqs = append(pfreqs, f)
		pkeys = append(pkeys, k)
	}
	writeShares(w, "placed inner words", pfreqs)
	sort.Slice(pkeys, func(i, j int) bool {
		if placedFreq[pkeys[i]] != placedFreq[pkeys[j]] {
			return placedFreq[pkeys[i]] > placedFreq[pkeys[j]]
		}
		return pkeys[i] < pkeys[j]
	})
	for i := 0; i < top && i < len(pkeys); i++ {
		k := pkeys[i]
		fmt.Fprintf(w, "most frequent #%d\t(%s, %d, %d) in %d words\n", i+1, name(uint32(k>>10)), k>>5&31, k&31, placedFreq[k])
	}
	fmt.Fprintf(w, "ids (Table 5.9)\tempty 0, letters 1-%d, inner words %d-%d, other words %d-%d\n",
		L, L+1, L+innerWords, L+innerWords+1, L+lex.Len())
	if !tables {
		return w.Flush()
	}

	// Table sizes.
	at, err := interval.BuildAnagram(lex, per, interval.AnagramOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "\nAnagram Method tables (per word length; blanks as letter masks)\t")
	fmt.Fprintf(w, "0 blanks\t%d keys (distinct word multisets), %d words\n", at.Keys(0), at.Entries(0))
	for j := 1; j <= 2; j++ {
		fmt.Fprintf(w, "%d blanks\t%d keys (a word's letters less %d), %d letters in their masks\n", j, at.Keys(j), j, at.Entries(j))
	}
	fmt.Fprintf(w, "memory, build time\t%s, %v\n", mib(at.Bytes()), at.BuildTime.Round(time.Millisecond))

	it, err := interval.BuildIWM(lex, per, interval.IWMOptions{Threshold: threshold})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nIntern Words Method tables (threshold %d)\t\n", threshold)
	fmt.Fprintf(w, "high level (frequency ≤ %d)\t%d index entries, %d candidates\n", threshold, it.HighIndex(), it.ThesisHigh)
	fmt.Fprintf(w, "high level kept for blank racks\t%d candidates (%s)\n", it.BlankHigh, mib(4*it.BlankHigh))
	fmt.Fprintf(w, "low level (frequency > %d, and empty)\t%d index entries (Multiset-Interval keys), %d candidates\n", threshold, it.LowIndex(), it.LowEntries())
	fmt.Fprintf(w, "candidate lists in all\t%d (= occurrences %d + one empty-interval entry per word %d)\n",
		it.HighEntries()+it.LowEntries()-it.BlankHigh, it.Occurrences, lex.Len())
	bitsMI := L + bits.Len(uint(per.Exceedances())) + 4 + bits.Len(uint(L+innerWords))
	fits := "yes"
	if bitsMI > 64 {
		fits = "no: kept as a 96-bit key (PER + placed inner word) in a 16-byte slot"
	}
	fmt.Fprintf(w, "Multiset-Interval key in 64 bits (Table 5.10)\t%d bits needed: %s\n", bitsMI, fits)
	fmt.Fprintf(w, "memory, build time\t%s, %v\n", mib(it.Bytes()), it.BuildTime.Round(time.Millisecond))
	return w.Flush()
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// writeShares prints the share of items with frequency ≤ 1, 2, 5, 10, 30
// and the largest frequency.
func writeShares(w io.Writer, what string, freqs []uint32) {
	maxF := uint32(0)
	for _, f := range freqs {
		maxF = max(maxF, f)
	}
	for _, lim := range []uint32{1, 2, 5, 10, 30} {
		n := 0
		for _, f := range freqs {
			if f <= lim {
				n++
			}
		}
		fmt.Fprintf(w, "%s with frequency ≤ %d\t%.1f%%\n", what, lim, pct(n, len(freqs)))
	}
	fmt.Fprintf(w, "largest frequency\t%d\n", maxF)
}
