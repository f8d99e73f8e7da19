package alphabet

import "testing"

func TestSubRacks(t *testing.T) {
	tests := []struct {
		counts map[int]uint8
		want   int // product of (count+1)
	}{
		{nil, 1},
		{map[int]uint8{1: 1}, 2},
		{map[int]uint8{0: 2, 5: 1, 9: 3}, 3 * 2 * 4},
		{map[int]uint8{1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1}, 128},
	}
	for _, tc := range tests {
		var r Rack
		for l, c := range tc.counts {
			r[l] = c
		}
		seen := map[Rack]bool{}
		r.SubRacks(func(s *Rack) {
			if seen[*s] {
				t.Errorf("%v: sub-rack %v twice", tc.counts, *s)
			}
			seen[*s] = true
			if !r.Contains(s) {
				t.Errorf("%v: %v is not a sub-multiset", tc.counts, *s)
			}
		})
		if len(seen) != tc.want {
			t.Errorf("%v: %d sub-racks, want %d", tc.counts, len(seen), tc.want)
		}
	}
}

func TestRackValue(t *testing.T) {
	scores := []int{0, 1, 3, 10} // blank, then three letters
	tests := []struct {
		r    Rack
		want int
	}{
		{Rack{}, 0},
		{Rack{2, 1}, 1},
		{Rack{0, 2, 1, 1}, 15},
		{Rack{0, 0, 0, 0, 4}, 0}, // a code past the scores counts 0
	}
	for _, tc := range tests {
		if got := tc.r.Value(scores); got != tc.want {
			t.Errorf("%v: %d, want %d", tc.r, got, tc.want)
		}
	}
}

// TestSubIndex checks that SubIndex numbers the sub-racks of racks with
// and without repeated tiles and blanks 0 to ∏(count+1)−1, each once,
// the empty one 0 and the whole rack last.
func TestSubIndex(t *testing.T) {
	for _, rack := range []Rack{{0: 1, 3: 2, 7: 1}, {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1}, {0: 2, 9: 3}, {}} {
		size := 1
		for _, c := range rack {
			size *= int(c) + 1
		}
		seen := make([]bool, size)
		rack.SubRacks(func(k *Rack) {
			i := rack.SubIndex(k)
			if i < 0 || i >= size || seen[i] {
				t.Fatalf("rack %v: sub-rack %v has index %d (of %d), or it was taken", rack, *k, i, size)
			}
			seen[i] = true
		})
		var empty Rack
		if rack.SubIndex(&empty) != 0 || rack.SubIndex(&rack) != size-1 {
			t.Errorf("rack %v: empty %d, whole %d, want 0 and %d", rack, rack.SubIndex(&empty), rack.SubIndex(&rack), size-1)
		}
	}
}
