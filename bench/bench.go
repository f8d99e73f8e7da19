// Package bench holds the move-generator experiments of Anagram 2018 and
// Sánchez Bello 2025 (see doc/REFERENCES.md) as library code: greedy
// self-play timed per turn (Anagram 2018 section 4 and Table 2, Sánchez
// Bello 2025 chapter 6), the blank racks of Anagram 2018 Table 3, the
// decision-threshold sweep of Sánchez Bello 2025 Figure 5.6 and
// Recommendations, and the memory held by each lexicon structure. The atril bench command
// prints and plots what these functions return.
package bench

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/movegen/interval"
	"atril/multiset"
)

// Algo is a generator under test.
type Algo struct {
	Name string
	Gen  movegen.Generator
}

// Counter is implemented by the interval-based generators (anagram, iwm):
// the instrumentation counters of their last Generate call.
type Counter interface {
	Stats() interval.Stats
}

// Stats returns the counters of a's last Generate call and whether a
// keeps counters at all.
func (a *Algo) Stats() (interval.Stats, bool) {
	if c, ok := a.Gen.(Counter); ok {
		return c.Stats(), true
	}
	return interval.Stats{}, false
}

// Options choose how generators are built.
type Options struct {
	// Threshold is the IWM decision threshold (0: the generator's
	// default, 10).
	Threshold int
}

// Tables are the structures built for a lexicon, shared by the algorithms
// that use them, with their build times.
type Tables struct {
	Lex     *lexicon.Lexicon
	PER     *multiset.Table
	Anagram *interval.AnagramTables
	IWM     *interval.IWMTables
	Times   map[string]time.Duration
}

// per returns the PER tables, building them on first use.
func (t *Tables) per() (*multiset.Table, error) {
	if t.PER == nil {
		t0 := time.Now()
		p, err := multiset.Build(t.Lex.Alphabet.Size(), t.Lex)
		if err != nil {
			return nil, fmt.Errorf("PER tables of %s: %w", t.Lex.Name, err)
		}
		t.PER = p
		t.Times["per"] = time.Since(t0)
	}
	return t.PER, nil
}

// NewTables starts an empty set of tables for lex.
func NewTables(lex *lexicon.Lexicon) *Tables {
	return &Tables{Lex: lex, Times: map[string]time.Duration{}}
}

// Build returns the named generators over lex. iwm builds the PER
// tables; anagram, dawg and gaddag come from their disk caches.
func (t *Tables) Build(names []string, opt Options) ([]Algo, error) {
	var out []Algo
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if seen[n] {
			return nil, fmt.Errorf("generator %q listed twice", n)
		}
		seen[n] = true
		t0 := time.Now()
		var g movegen.Generator
		switch n {
		case "anagram":
			if t.Anagram == nil {
				at, res := interval.CachedAnagram(t.Lex)
				if at == nil {
					return nil, fmt.Errorf("anagram tables of %s: %w", t.Lex.Name, res.CacheErr)
				}
				t.Anagram = at
			}
			g = interval.NewAnagramFrom(t.Anagram)
		case "iwm":
			per, err := t.per()
			if err != nil {
				return nil, err
			}
			th := opt.Threshold
			if th <= 0 {
				th = 10
			}
			if t.IWM == nil || t.IWM.Threshold != th {
				it, err := interval.BuildIWM(t.Lex, per, interval.IWMOptions{Threshold: th})
				if err != nil {
					return nil, fmt.Errorf("iwm tables of %s: %w", t.Lex.Name, err)
				}
				t.IWM = it
			}
			g = interval.NewIWMFrom(t.IWM, 1)
		default:
			var err error
			g, err = movegen.New(n, t.Lex)
			if err != nil {
				return nil, err
			}
		}
		t.Times[n] = time.Since(t0)
		out = append(out, Algo{Name: n, Gen: g})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no generator given")
	}
	return out, nil
}

// ParseAlgos splits a comma-separated list of generator names.
func ParseAlgos(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Measure runs one generation of a on a position untimed (warming the
// caches), returning the number of moves and the counters, then times
// reps more generations and returns their median.
func Measure(a *Algo, b *board.Board, rack *alphabet.Rack, reps int) (median time.Duration, moves int, st interval.Stats) {
	var m [1]Measurement
	MeasureAll([]Algo{*a}, b, rack, reps, m[:])
	return m[0].Time, m[0].Moves, m[0].Stats
}

// Measurement is one algorithm's result on one position.
type Measurement struct {
	Time  time.Duration // median of the timed generations
	Moves int
	Stats interval.Stats
	// Equity is the best equity found (MeasureBest only).
	Equity float64
}

// maxReps bounds the timed generations per position.
const maxReps = 101

// MeasureAll runs one untimed generation of every algorithm on a position
// (warming caches; it counts the moves and keeps the counters), then
// reps timed generations of every algorithm, and keeps each algorithm's
// median in out (len(out) ≥ len(algos)). With RunOrder Interleaved the
// timed generations go in rounds of one per algorithm, so that a burst of
// load from other programs falls on all of them alike; with Consecutive
// each algorithm's generations follow each other, its untimed one just
// before them, so it runs with its own data in the caches.
func MeasureAll(algos []Algo, b *board.Board, rack *alphabet.Rack, reps int, out []Measurement) {
	n := 0
	sink := func(*move.Move) { n++ }
	measure(algos, reps, out, func(i int) {
		n = 0
		algos[i].Gen.Generate(b, rack, sink)
		out[i].Moves = n
		out[i].Stats, _ = algos[i].Stats()
	}, nil, func(i int) { algos[i].Gen.Generate(b, rack, sink) })
}

// MeasureBest is MeasureAll for best-by-equity generation: it times each
// algorithm's Best (every one must be a movegen.Searcher) with the given
// leave, and records the equity found (Moves is 1 when there is a move).
// Every timed search follows untimed searches of two other racks on the
// same board: a searcher may keep what it worked out for the last racks
// it searched under an unchanging leave (movegen.FixedLeave; the leave
// bounds of the last two, movegen.LeaveBoundsPair), for a simulation,
// which searches one rack on many boards, while a game never asks for
// the same rack again so soon.
func MeasureBest(algos []Algo, b *board.Board, rack *alphabet.Rack, leave movegen.Leave, reps int, out []Measurement) {
	others := otherRacks(rack)
	before := func(i int) {
		for k := range others {
			algos[i].Gen.(movegen.Searcher).Best(b, &others[k], leave)
		}
	}
	measure(algos, reps, out, func(i int) {
		sc, ok := algos[i].Gen.(movegen.Searcher).Best(b, rack, leave)
		out[i].found(&algos[i], sc, ok)
	}, before, func(i int) { algos[i].Gen.(movegen.Searcher).Best(b, rack, leave) })
}

// MeasureBestOnce times one Best of every algorithm on a position, as a
// game's turn runs it: with no untimed search before it, so each finds
// the caches as the searches of the previous position (and, for all but
// the first, those of this one) left them. The algorithms go in turn
// from index first, so that over many positions none is always first
// or last. It records the equity found (Moves is 1 when there is a move)
// and returns the best move of algorithm 0.
func MeasureBestOnce(algos []Algo, b *board.Board, rack *alphabet.Rack, leave movegen.Leave, first int, out []Measurement) (movegen.Scored, bool) {
	tm := startTimer()
	defer tm.stop()
	var best movegen.Scored
	var found bool
	for j := range algos {
		i := (first + j) % len(algos)
		var sc movegen.Scored
		var ok bool
		out[i].Time = tm.time(func() { sc, ok = algos[i].Gen.(movegen.Searcher).Best(b, rack, leave) })
		out[i].found(&algos[i], sc, ok)
		if i == 0 {
			best, found = sc, ok
		}
	}
	return best, found
}

// found records what a's search found (sc, when ok) and a's counters.
func (m *Measurement) found(a *Algo, sc movegen.Scored, ok bool) {
	m.Moves, m.Equity = 0, 0
	if ok {
		m.Moves, m.Equity = 1, sc.Equity
	}
	m.Stats, _ = a.Stats()
}

// otherRacks returns two racks that differ from rack and from each
// other: rack less one tile, less another or less two, or, for racks of
// fewer than two tiles, with a tile added.
func otherRacks(rack *alphabet.Rack) [2]alphabet.Rack {
	var cands []alphabet.Rack
	ts := rack.Tiles()
	for _, drop := range [][]int{{0}, {len(ts) - 1}, {0, 1}} {
		if drop[len(drop)-1] < 0 || drop[len(drop)-1] >= len(ts) {
			continue
		}
		r := *rack
		for _, d := range drop {
			r.Remove(ts[d])
		}
		cands = append(cands, r)
	}
	for l := alphabet.Tile(1); l <= 3; l++ {
		r := *rack
		r.Add(l)
		cands = append(cands, r)
	}
	var out [2]alphabet.Rack
	n := 0
	for _, c := range cands {
		if c != *rack && (n == 0 || c != out[0]) {
			out[n] = c
			if n++; n == 2 {
				break
			}
		}
	}
	return out
}

// measure runs first(i) untimed for every algorithm, then reps timed
// run(i) each, in the order RunOrder says, each after an untimed
// before(i) when before is given, and keeps the medians.
func measure(algos []Algo, reps int, out []Measurement, first, before, run func(i int)) {
	reps = max(1, min(reps, maxReps))
	var ts [maxReps * 8]time.Duration
	if len(algos) > 8 {
		panic("bench: more than 8 algorithms")
	}
	tm := startTimer()
	defer tm.stop()
	if RunOrder == Consecutive {
		for i := range algos {
			first(i)
			for r := 0; r < reps; r++ {
				if before != nil {
					before(i)
				}
				ts[i*maxReps+r] = tm.time(func() { run(i) })
			}
		}
	} else {
		for i := range algos {
			first(i)
		}
		for r := 0; r < reps; r++ {
			for i := range algos {
				if before != nil {
					before(i)
				}
				ts[i*maxReps+r] = tm.time(func() { run(i) })
			}
		}
	}
	for i := range algos {
		out[i].Time = Median(ts[i*maxReps : i*maxReps+reps])
	}
}

// Median returns the median of ds (the mean of the two middle values for
// an even count); it reorders ds.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	m := len(ds) / 2
	if len(ds)%2 == 1 {
		return ds[m]
	}
	return (ds[m-1] + ds[m]) / 2
}

// HeapInUse returns the bytes of live heap after a garbage collection.
func HeapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
