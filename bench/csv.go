package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// ReadCSV adds the positions of a per-position CSV (as written by
// atril bench movegen --csv) to r, so that runs made in pieces (other
// seeds, other times) give one table. The first file fixes the
// algorithms; later files must list the same ones. Games are told apart
// by their seed.
func (r *MovegenResult) ReadCSV(in io.Reader, name string) error {
	cr := csv.NewReader(in)
	hdr, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s: header: %w", name, err)
	}
	col := map[string]int{}
	var algos []string
	for i, h := range hdr {
		col[h] = i
		if a, ok := strings.CutSuffix(h, "_ns"); ok {
			algos = append(algos, a)
		}
	}
	for _, k := range []string{"seed", "turn", "moves"} {
		if _, ok := col[k]; !ok {
			return fmt.Errorf("%s: no %q column", name, k)
		}
	}
	counted := make([]bool, len(algos))
	for i, a := range algos {
		_, counted[i] = col[a+"_instances"]
	}
	if r.Algos == nil {
		r.Algos, r.Counted = algos, counted
	} else if strings.Join(r.Algos, ",") != strings.Join(algos, ",") {
		return fmt.Errorf("%s: algorithms %v, earlier files %v", name, algos, r.Algos)
	}
	if r.seen == nil {
		r.seen = map[uint64]int{}
	}
	na := len(algos)
	line := 1
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line++
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		num := func(k string) (int64, error) {
			v, err := strconv.ParseInt(rec[col[k]], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s:%d: column %s: %w", name, line, k, err)
			}
			return v, nil
		}
		seed, err := num("seed")
		if err != nil {
			return err
		}
		turn64, err := num("turn")
		if err != nil {
			return err
		}
		moves, err := num("moves")
		if err != nil {
			return err
		}
		turn := int(turn64)
		if turn < 1 || turn > 1000 {
			return fmt.Errorf("%s:%d: turn %d", name, line, turn)
		}
		gi, ok := r.seen[uint64(seed)]
		if !ok {
			gi = len(r.GameTurns)
			r.seen[uint64(seed)] = gi
			r.GameTurns = append(r.GameTurns, 0)
			r.GameMoves = append(r.GameMoves, 0)
			r.Games++
			if r.Games == 1 || uint64(seed) < r.Seed {
				r.Seed = uint64(seed)
			}
		}
		r.GameTurns[gi] = max(r.GameTurns[gi], turn)
		r.GameMoves[gi] += moves
		for len(r.Turns) < turn {
			r.Turns = append(r.Turns, TurnRow{Turn: len(r.Turns) + 1, Time: make([]time.Duration, na),
				Instances: make([]int64, na), Lookups: make([]int64, na), Candidates: make([]int64, na)})
		}
		row := &r.Turns[turn-1]
		row.Positions++
		row.Moves += moves
		ivDone := false
		for ai, a := range algos {
			ns, err := num(a + "_ns")
			if err != nil {
				return err
			}
			row.Time[ai] += time.Duration(ns)
			if !counted[ai] {
				continue
			}
			var v [4]int64
			for k, s := range []string{"_intervals", "_instances", "_lookups", "_candidates"} {
				if v[k], err = num(a + s); err != nil {
					return err
				}
			}
			if !ivDone {
				row.Intervals += v[0]
				ivDone = true
			}
			row.Instances[ai] += v[1]
			row.Lookups[ai] += v[2]
			row.Candidates[ai] += v[3]
		}
	}
	return nil
}
