package bench

import (
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"

	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/movegen/interval"
	"atril/multiset"
	"atril/variant"
)

// MemRow is the memory held by one lexicon structure.
type MemRow struct {
	Name string
	// Bytes is the size the structure reports (its arrays); Heap the
	// growth of the live Go heap measured around building it.
	Bytes int
	Heap  int64
	Build time.Duration
}

// Memory opens the variant's word list and builds every structure the
// generators use, measuring each one's size. The DAWG and GADDAG come
// from the automaton cache when it holds them (their build time is then
// the load time), and so do the anagram tables.
func Memory(v *variant.Variant, lexName string, threshold int) ([]MemRow, error) {
	var rows []MemRow
	var keep []any
	step := func(name string, f func() (any, int, error)) error {
		h0 := HeapInUse()
		t0 := time.Now()
		x, n, err := f()
		if err != nil {
			return fmt.Errorf("memory of %s: %w", name, err)
		}
		el := time.Since(t0)
		keep = append(keep, x)
		rows = append(rows, MemRow{Name: name, Bytes: n, Heap: int64(HeapInUse()) - int64(h0), Build: el})
		return nil
	}
	var lex *lexicon.Lexicon
	var per *multiset.Table
	if err := step("word list "+lexName, func() (any, int, error) {
		var err error
		lex, err = lexicon.Open(lexName, v.Alphabet, lexicon.Options{MaxLen: v.Size})
		if err != nil {
			return nil, 0, err
		}
		return lex, lex.Bytes(), nil
	}); err != nil {
		return nil, err
	}
	for _, k := range []automaton.Kind{automaton.DAWG, automaton.GADDAG} {
		if err := step(k.String(), func() (any, int, error) {
			r, err := automaton.Load(lex, k)
			if err != nil {
				return nil, 0, err
			}
			return r.A, r.A.Bytes(), nil
		}); err != nil {
			return nil, err
		}
	}
	if err := step("PER tables", func() (any, int, error) {
		var err error
		per, err = multiset.Build(lex.Alphabet.Size(), lex)
		if err != nil {
			return nil, 0, err
		}
		return per, per.Bytes(), nil
	}); err != nil {
		return nil, err
	}
	// The anagram tables come from their disk cache when it holds them
	// (the row says which); they carry their own add-only PER table.
	var anaRes interval.CacheResult
	if err := step("anagram tables (0-2 blanks)", func() (any, int, error) {
		at, res := interval.ReadOrBuildAnagram(lex)
		if at == nil {
			return nil, 0, res.CacheErr
		}
		anaRes = res
		return at, at.Bytes() + at.PER.Bytes(), nil
	}); err != nil {
		return nil, err
	}
	if anaRes.Loaded {
		rows[len(rows)-1].Name += ", loaded"
	} else {
		rows[len(rows)-1].Name += ", built"
	}
	if threshold <= 0 {
		threshold = 10
	}
	if err := step(fmt.Sprintf("IWM tables (threshold %d)", threshold), func() (any, int, error) {
		it, err := interval.BuildIWM(lex, per, interval.IWMOptions{Threshold: threshold})
		if err != nil {
			return nil, 0, err
		}
		return it, it.Bytes(), nil
	}); err != nil {
		return nil, err
	}
	runtime.KeepAlive(keep)
	return rows, nil
}

// WriteMemory prints memory rows.
func WriteMemory(w io.Writer, variantName string, rows []MemRow) error {
	fmt.Fprintf(w, "%s: memory of each structure (reported size; live-heap growth measured around the build; build or load time)\n", variantName)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "structure\treported MiB\theap MiB\ttime\t")
	var tb, th int64
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%v\t\n", r.Name, float64(r.Bytes)/(1<<20), float64(r.Heap)/(1<<20), r.Build.Round(time.Millisecond))
		tb += int64(r.Bytes)
		th += r.Heap
	}
	fmt.Fprintf(tw, "total\t%.2f\t%.2f\t\t\n", float64(tb)/(1<<20), float64(th)/(1<<20))
	return tw.Flush()
}
