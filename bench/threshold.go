package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/movegen/interval"
	"atril/multiset"
	"atril/variant"
)

// Position is a board and the rack on turn, with its turn number.
type Position struct {
	Board *board.Board
	Rack  alphabet.Rack
	Turn  int // 1-based turn number in its game
	Game  int
}

// GreedyPositions plays games greedy games (game i from seed seed+i) with
// gen choosing the highest-scoring move, and returns every position met.
func GreedyPositions(v *variant.Variant, lex *lexicon.Lexicon, gen movegen.Generator, games int, seed uint64) ([]Position, error) {
	var out []Position
	for gi := 0; gi < games; gi++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed+uint64(gi))
		if err != nil {
			return nil, fmt.Errorf("greedy game %d: %w", gi, err)
		}
		for turn := 1; !g.Over(); turn++ {
			rack := g.Seats[g.Current()].Rack
			out = append(out, Position{Board: g.Board.Clone(), Rack: rack, Turn: turn, Game: gi})
			m, ok := movegen.Best(gen, g.Board, &rack)
			if !ok {
				m = move.Move{Kind: move.Pass}
			}
			if err := g.Play(m); err != nil {
				return nil, fmt.Errorf("greedy game %d, turn %d: %w", gi, turn, err)
			}
		}
	}
	return out, nil
}

// Stage is a range of turn numbers (To 0: to the end of the game).
type Stage struct {
	Name     string
	From, To int
}

// Stages are the game stages of the threshold experiment.
var Stages = []Stage{{"turns 1-8", 1, 8}, {"turns 9-16", 9, 16}, {"turns 17-", 17, 0}}

func (s Stage) has(turn int) bool { return turn >= s.From && (s.To == 0 || turn <= s.To) }

// ThresholdRow is the IWM at one decision threshold.
type ThresholdRow struct {
	Threshold int
	// Index-table entries of the high-level table (placed inner words
	// solved at the high level) and the low-level table
	// (Multiset-Interval keys); their candidate-list lengths.
	HighIndex, LowIndex     int
	HighEntries, LowEntries int
	Bytes                   int
	Build                   time.Duration
	Time                    time.Duration   // over all positions
	StageTime               []time.Duration // per Stages entry
	Candidates              int64
}

// ThresholdResult is a whole sweep.
type ThresholdResult struct {
	Variant, Lexicon string
	Positions        int
	StagePositions   []int
	Reps             int
	Rows             []ThresholdRow
}

// RunThreshold builds the IWM tables at each threshold and times the IWM
// over the same positions; it fails when two thresholds give a different
// number of moves on a position. Tables are built together tables at a
// time (≤ 1: one), and the thresholds of one group are timed in
// interleaved rounds position by position, so that a change of load
// from other programs falls on all of them alike (each table takes
// hundreds of MiB). progress, if set, is called after each threshold.
func RunThreshold(v *variant.Variant, lex *lexicon.Lexicon, per *multiset.Table, ps []Position, thresholds []int, reps, together int, progress func(done int)) (*ThresholdResult, error) {
	res := &ThresholdResult{Variant: v.Name, Lexicon: lex.Name, Positions: len(ps), Reps: reps, StagePositions: make([]int, len(Stages))}
	for _, p := range ps {
		for si, s := range Stages {
			if s.has(p.Turn) {
				res.StagePositions[si]++
			}
		}
	}
	together = max(1, min(together, 8))
	want := make([]int, len(ps))
	for k0 := 0; k0 < len(thresholds); k0 += together {
		group := thresholds[k0:min(k0+together, len(thresholds))]
		rows := make([]ThresholdRow, len(group))
		algos := make([]Algo, len(group))
		for gi, th := range group {
			t0 := time.Now()
			T, err := interval.BuildIWM(lex, per, interval.IWMOptions{Threshold: th})
			if err != nil {
				return nil, fmt.Errorf("threshold %d: %w", th, err)
			}
			rows[gi] = ThresholdRow{Threshold: th, Build: time.Since(t0), HighIndex: T.HighIndex(), LowIndex: T.LowIndex(),
				HighEntries: T.HighEntries(), LowEntries: T.LowEntries(), Bytes: T.Bytes(), StageTime: make([]time.Duration, len(Stages))}
			algos[gi] = Algo{Name: fmt.Sprintf("iwm-%d", th), Gen: interval.NewIWMFrom(T, 1)}
		}
		ms := make([]Measurement, len(group))
		for i := range ps {
			p := &ps[i]
			MeasureAll(algos, p.Board, &p.Rack, reps, ms)
			for gi, th := range group {
				n := ms[gi].Moves
				if k0 == 0 && gi == 0 {
					want[i] = n
				} else if n != want[i] {
					return nil, fmt.Errorf("threshold %d: position %d (game %d, turn %d): %d moves, threshold %d found %d",
						th, i, p.Game, p.Turn, n, thresholds[0], want[i])
				}
				row := &rows[gi]
				row.Time += ms[gi].Time
				row.Candidates += int64(ms[gi].Stats.Candidates)
				for si, s := range Stages {
					if s.has(p.Turn) {
						row.StageTime[si] += ms[gi].Time
					}
				}
			}
		}
		res.Rows = append(res.Rows, rows...)
		if progress != nil {
			progress(k0 + len(group))
		}
	}
	return res, nil
}

// Best returns the threshold with the least time over all positions
// (stage -1) or over one stage.
func (r *ThresholdResult) Best(stage int) (threshold int, t time.Duration) {
	for i, row := range r.Rows {
		x := row.Time
		if stage >= 0 {
			x = row.StageTime[stage]
		}
		if i == 0 || x < t {
			threshold, t = row.Threshold, x
		}
	}
	return
}

// WriteTable prints the sweep (Sánchez Bello 2025 Figure 5.6 with the IWM
// times) and the best threshold per stage.
func (r *ThresholdResult) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s, %s: IWM over %d positions, median of %d timed generations each (%s)\n", r.Variant, r.Lexicon, r.Positions, r.Reps, Timing())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	hdr := []string{"T", "high index", "low index", "index total", "high list", "low list", "MiB", "build s", "ms/pos"}
	for si, s := range Stages {
		hdr = append(hdr, fmt.Sprintf("%s (%d)", s.Name, r.StagePositions[si]))
	}
	hdr = append(hdr, "cand/pos")
	fmt.Fprintln(tw, strings.Join(hdr, "\t")+"\t")
	per := func(d time.Duration, n int) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprintf("%.4f", float64(d)/1e6/float64(n))
	}
	for _, row := range r.Rows {
		cols := []string{fmt.Sprint(row.Threshold), fmt.Sprint(row.HighIndex), fmt.Sprint(row.LowIndex),
			fmt.Sprint(row.HighIndex + row.LowIndex), fmt.Sprint(row.HighEntries), fmt.Sprint(row.LowEntries),
			fmt.Sprintf("%.1f", float64(row.Bytes)/(1<<20)), fmt.Sprintf("%.1f", row.Build.Seconds()), per(row.Time, r.Positions)}
		for si := range Stages {
			cols = append(cols, per(row.StageTime[si], r.StagePositions[si]))
		}
		cols = append(cols, fmt.Sprintf("%.0f", float64(row.Candidates)/float64(max(r.Positions, 1))))
		fmt.Fprintln(tw, strings.Join(cols, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	th, t := r.Best(-1)
	fmt.Fprintf(w, "best threshold: %d overall (%s ms/pos)", th, per(t, r.Positions))
	for si, s := range Stages {
		th, t := r.Best(si)
		fmt.Fprintf(w, "; %d for %s (%s ms/pos)", th, s.Name, per(t, r.StagePositions[si]))
	}
	fmt.Fprintln(w)
	return nil
}
