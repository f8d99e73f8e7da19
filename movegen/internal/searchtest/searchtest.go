// Package searchtest holds what the cross-checks of best-by-equity
// generation share (the GADDAG's shadow search in package movegen, the
// interval searches in movegen/interval): a leave table with no
// structure a bound could exploit, all moves ranked by equity, and the
// comparison of a searcher's Best and TopN with that ranking.
package searchtest

import (
	"fmt"
	"slices"

	"atril/alphabet"
	"atril/board"
	"atril/move"
	"atril/movegen"
)

// HashLeave is a leave table with no structure a bound could exploit: a
// per-tile term plus a pseudo-random value for every multiset, in
// [−12, 12] points.
type HashLeave struct{}

// Eval implements movegen.Leave.
func (HashLeave) Eval(kept *alphabet.Rack) float64 {
	h := uint64(0x9e3779b97f4a7c15)
	v := 0.0
	for i, c := range kept {
		if c > 0 {
			h = (h ^ uint64(i)<<8 ^ uint64(c)) * 0xbf58476d1ce4e5b9
			v += float64(int(c)*(i%7) - 3)
		}
	}
	h ^= h >> 31
	return float64(int64(h%2401)-1200)/100 + v/4
}

// FixedLeave is HashLeave declared unchanging (movegen.FixedLeave), so
// that a searcher may keep what it worked out from it for a rack.
type FixedLeave struct{ HashLeave }

// FixedLeave implements movegen.FixedLeave.
func (*FixedLeave) FixedLeave() {}

// SaltedLeave is HashLeave shifted by Salt points for each A and E
// kept: its values change with Salt, and it is no FixedLeave, so
// searchers must value it anew every search.
type SaltedLeave struct{ Salt float64 }

// Eval implements movegen.Leave.
func (l *SaltedLeave) Eval(kept *alphabet.Rack) float64 {
	return HashLeave{}.Eval(kept) + l.Salt*float64(kept[1]+kept[5])
}

// CloneAll copies a list of placements so that it outlives the
// searcher's buffers.
func CloneAll(ss []movegen.Scored) []movegen.Scored {
	out := slices.Clone(ss)
	for i := range out {
		out[i].Move = movegen.Clone(&out[i].Move)
	}
	return out
}

// SameMove reports whether two placements are the same move with the
// same score.
func SameMove(a, b *move.Move) bool {
	return a.Row == b.Row && a.Col == b.Col && a.Dir == b.Dir && a.Score == b.Score && slices.Equal(a.Tiles, b.Tiles)
}

// SameList reports how got differs from want, move for move and equity
// for equity (nil: not at all); moves are written on b.
func SameList(b *board.Board, got, want []movegen.Scored) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d moves, want %d", len(got), len(want))
	}
	for k := range got {
		if got[k].Equity != want[k].Equity || !SameMove(&got[k].Move, &want[k].Move) {
			return fmt.Errorf("move %d: %s (%v), want %s (%v)", k, got[k].Move.String(b), got[k].Equity, want[k].Move.String(b), want[k].Equity)
		}
	}
	return nil
}

// Equities lists the equity of every placement g lists (score plus
// leave of the tiles kept; leave nil: score alone), best first.
func Equities(g movegen.Generator, b *board.Board, rack *alphabet.Rack, leave movegen.Leave) []float64 {
	return EquitiesIn(g, b, rack, leave, board.AllLines(b.Size))
}

// TopN is how many placements Check compares.
const TopN = 12

// Check compares a searcher's Best and TopN(TopN) on one position with
// want, the equities of all placements ranked (Equities): the same best
// equity, the best move's score the rules' score, and the same TopN
// equities.
func Check(s movegen.Searcher, b *board.Board, rack *alphabet.Rack, leave movegen.Leave, want []float64) error {
	best, ok := s.Best(b, rack, leave)
	if ok != (len(want) > 0) {
		return fmt.Errorf("best move found: %v; all moves: %d", ok, len(want))
	}
	if ok {
		if best.Equity != want[0] {
			return fmt.Errorf("best move %s has equity %v, all moves' best %v", best.Move.String(b), best.Equity, want[0])
		}
		if sc := move.Score(b, &best.Move); sc != best.Move.Score {
			return fmt.Errorf("best move %s: score %d, the rules say %d", best.Move.String(b), best.Move.Score, sc)
		}
	}
	top := s.TopN(b, rack, leave, TopN, nil)
	if len(top) != min(TopN, len(want)) {
		return fmt.Errorf("top %d: %d moves, want %d", TopN, len(top), min(TopN, len(want)))
	}
	for i := range top {
		if top[i].Equity != want[i] {
			return fmt.Errorf("top %d: #%d %s equity %v, want %v", TopN, i+1, top[i].Move.String(b), top[i].Equity, want[i])
		}
	}
	return nil
}

// EquitiesIn is Equities over the placements whose main word lies on
// one of lines.
func EquitiesIn(g movegen.Generator, b *board.Board, rack *alphabet.Rack, leave movegen.Leave, lines board.Lines) []float64 {
	return EquitiesWhere(g, b, rack, leave, func(m *move.Move) bool { return movegen.OnLines(m, lines) })
}

// EquitiesWhere is Equities over the placements keep accepts.
func EquitiesWhere(g movegen.Generator, b *board.Board, rack *alphabet.Rack, leave movegen.Leave, keep func(*move.Move) bool) []float64 {
	var out []float64
	g.Generate(b, rack, func(m *move.Move) {
		if !keep(m) {
			return
		}
		e := float64(m.Score)
		if leave != nil {
			kept := m.Kept(*rack)
			e += leave.Eval(&kept)
		}
		out = append(out, e)
	})
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

// CheckIn compares a LineSearcher's TopNIn(TopN) over lines with floor
// against want, the equities of the placements on those lines ranked
// (EquitiesIn): the entries of equity floor or more must be those of
// want, and every entry's move must lie on lines.
func CheckIn(s movegen.LineSearcher, b *board.Board, rack *alphabet.Rack, leave movegen.Leave, lines board.Lines, floor float64, want []float64) error {
	top := s.TopNIn(b, rack, leave, TopN, lines, floor, nil)
	return checkAbove("TopNIn", "is off the lines asked for", b, top, floor, want, func(m *move.Move) bool { return movegen.OnLines(m, lines) })
}

// checkAbove compares the entries of top that reach floor with the
// first TopN of want that do; every entry's move must be one that in
// accepts (else the error names what, the move, and outside).
func checkAbove(what, outside string, b *board.Board, top []movegen.Scored, floor float64, want []float64, in func(*move.Move) bool) error {
	var got []float64
	for i := range top {
		if !in(&top[i].Move) {
			return fmt.Errorf("%s: %s %s", what, top[i].Move.String(b), outside)
		}
		if top[i].Equity >= floor {
			got = append(got, top[i].Equity)
		}
	}
	var exp []float64
	for _, e := range want[:min(TopN, len(want))] {
		if e >= floor {
			exp = append(exp, e)
		}
	}
	if !slices.Equal(got, exp) {
		return fmt.Errorf("%s above %v: equities %v, want %v", what, floor, got, exp)
	}
	return nil
}

// CheckTouching compares a searcher's TopNTouching above floor with want,
// the equities of the placements that touch the changes ch ranked
// (EquitiesWhere with movegen.Touches), for a searcher that lists only
// those, as the interval searchers do (the interface allows others).
func CheckTouching(s movegen.ChangeSearcher, b *board.Board, rack *alphabet.Rack, leave movegen.Leave, ch *board.Changes, floor float64, want []float64) error {
	top := s.TopNTouching(b, rack, leave, TopN, ch, floor, nil)
	return checkAbove("TopNTouching", "touches no change", b, top, floor, want, func(m *move.Move) bool { return movegen.Touches(m, ch) })
}
