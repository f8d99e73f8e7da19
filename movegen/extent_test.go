package movegen

import (
	"math/rand/v2"
	"slices"
	"testing"

	"atril/board"
)

// TestExtentAcc checks the extent bound, built from scratch and built up
// square by square as the shadow does (the anchor and squares to its
// left, copied, then squares to its right), against the bound written out: the lesser of the rack's best
// tiles on the best multipliers (all sorted) and each square's multiplier
// times its best fitting tile, plus the board letters and cross words.
func TestExtentAcc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20000; trial++ {
		var lmul, wmul, fit [32]int32
		cscore := make([]int16, 15)
		for i := range 15 {
			lmul[i], wmul[i] = 1, 1
			switch rng.IntN(8) {
			case 0:
				lmul[i] = 2
			case 1:
				lmul[i] = 3
			case 2:
				wmul[i] = 2
			case 3:
				wmul[i] = 3
			}
			cscore[i] = board.NoCross
			if rng.IntN(3) == 0 {
				cscore[i] = int16(rng.IntN(12))
			}
			fit[i] = int32(rng.IntN(11))
		}
		n := 1 + rng.IntN(7)
		sq := make([]int8, 0, n)
		for _, i := range rng.Perm(15)[:n] {
			sq = append(sq, int8(i))
		}
		rs := make([]int32, n+rng.IntN(3))
		for k := range rs {
			rs[k] = int32(rng.IntN(11))
		}
		slices.SortFunc(rs, func(a, b int32) int { return int(b - a) })
		boardSum := int32(rng.IntN(20))

		wm := int32(1)
		for _, i := range sq {
			wm *= wmul[i]
		}
		fixed, capped := boardSum*wm, int32(0)
		var mult []int32
		for _, i := range sq {
			m := lmul[i] * wm
			if cscore[i] != board.NoCross {
				m += lmul[i] * wmul[i]
				fixed += int32(cscore[i]) * wmul[i]
			}
			mult = append(mult, m)
			capped += m * fit[i]
		}
		slices.SortFunc(mult, func(a, b int32) int { return int(b - a) })
		rearranged := int32(0)
		for k, m := range mult {
			rearranged += m * rs[k]
		}
		want := fixed + min(capped, rearranged)

		var whole ExtentAcc
		whole.Reset()
		for _, i := range sq {
			whole.Add(int(i), &lmul, &wmul, cscore, &fit)
		}
		if got := whole.Bound(rs, boardSum); got != want {
			t.Fatalf("squares %v: %d, want %d", sq, got, want)
		}
		// Built up from a copy made part way, as the shadow's left part
		// is copied for each extent to the right.
		var left, ext ExtentAcc
		left.Reset()
		cut := rng.IntN(n)
		for _, i := range sq[:cut+1] {
			left.Add(int(i), &lmul, &wmul, cscore, &fit)
		}
		ext = left
		for _, i := range sq[cut+1:] {
			ext.Add(int(i), &lmul, &wmul, cscore, &fit)
		}
		if got := ext.Bound(rs, boardSum); got != want {
			t.Fatalf("squares %v built up after %d: %d, want %d", sq, cut+1, got, want)
		}
	}
}
