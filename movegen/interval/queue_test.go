package interval

import (
	"math"
	"testing"
)

// TestBucketQueue checks the slot queue of the best-by-equity search:
// slots come out by bucket (one point wide), highest first, a slot put
// back with a lower bound comes out in its new bucket, a slot under the
// threshold is passed over, and pop stops once no bucket left can reach
// the threshold, leaving the slots in those buckets.
func TestBucketQueue(t *testing.T) {
	bounds := []float64{12.5, -3.25, 40, 39.9, 7, 12.1, 0, 6.2}
	var q bucketQueue
	// Slots left from an earlier search must not come out.
	q.add(20)
	q.add(-1000)
	q.reset()
	for i, b := range bounds {
		if got := q.add(b); got != i {
			t.Fatalf("slot %d numbered %d", i, got)
		}
	}
	var got []int
	i, ok := q.pop(math.Inf(-1))
	got = append(got, i)
	if !ok || (i != 2 && i != 3) {
		t.Fatalf("first pop: slot %d (ok %v), want 2 or 3 (bounds 40 and 39.9)", i, ok)
	}
	// The other of the two top slots is put back lower: 39.9 → 12.3.
	other := 5 - i
	i, _ = q.pop(math.Inf(-1))
	if i != other {
		t.Fatalf("second pop: slot %d, want %d", i, other)
	}
	q.push(other, 12.3)
	for {
		i, ok := q.pop(6.5) // the slots of 0 and −3.25 never come out
		if !ok {
			break
		}
		got = append(got, i)
	}
	// Left: 12.5 (slot 0), 12.1 (5), 12.3 (the one put back), 7 (4);
	// 6.2 (slot 7) shares a bucket with 6.5 and is passed over for good
	// (thresholds only rise).
	if len(got) != 5 || got[len(got)-1] != 4 {
		t.Fatalf("pops %v: want four more, slot 4 (bound 7) last", got)
	}
	seen := map[int]bool{}
	for _, i := range got[1:4] {
		seen[i] = true
	}
	if !seen[0] || !seen[5] || !seen[other] {
		t.Errorf("pops %v: want slots 0, 5 and %d in the bucket of 12", got, other)
	}
	// The two below the bucket of 6.5 are still there for a lower
	// threshold, best first; slot 7 is not.
	if i, ok := q.pop(math.Inf(-1)); !ok || i != 6 {
		t.Errorf("with no threshold: slot %d (ok %v), want 6 (bound 0)", i, ok)
	}
	if i, ok := q.pop(math.Inf(-1)); !ok || i != 1 {
		t.Errorf("then slot %d (ok %v), want 1 (bound −3.25)", i, ok)
	}
	if i, ok := q.pop(math.Inf(-1)); ok {
		t.Errorf("an empty queue gave slot %d", i)
	}
}

// TestBucketQueueRange checks bounds beyond the buckets' range: those
// above come out first (in any order) and none is lost to a threshold
// between them, those below last, each only while its own bound reaches
// the threshold.
func TestBucketQueueRange(t *testing.T) {
	var q bucketQueue
	q.reset()
	bounds := []float64{5000, 2.5, 1e9, math.Inf(1), 700, -1e6, -300}
	for _, b := range bounds {
		q.add(b)
	}
	var got []int
	for {
		i, ok := q.pop(900) // 5000, 1e9 and +Inf reach it; 700 does not
		if !ok {
			break
		}
		got = append(got, i)
	}
	if len(got) != 3 {
		t.Fatalf("pops above 900: %v, want slots 0, 2 and 3", got)
	}
	q.reset()
	for _, b := range bounds {
		q.add(b)
	}
	got = got[:0]
	for {
		i, ok := q.pop(-500) // all but −1e6
		if !ok {
			break
		}
		got = append(got, i)
	}
	if len(got) != 6 || got[3] != 4 || got[4] != 1 || got[5] != 6 {
		t.Fatalf("pops above -500: %v, want the three above the range, then 4, 1 and 6", got)
	}
}
