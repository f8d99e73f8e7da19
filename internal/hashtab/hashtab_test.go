package hashtab

import "testing"

// TestCompact fills the tables, compacts them and checks that every
// entry is still found, that absent keys are not, and that the compacted
// table is at its stated load (about 0.6), not half of it.
func TestCompact(t *testing.T) {
	for _, n := range []int{1, 10, 1000, 100000} {
		u, p := NewU64Map(4), NewPairMap(4)
		for i := 0; i < n; i++ {
			u.Put(uint64(i)*7919, uint32(i))
			p.Put(uint64(i)*7919, uint32(i%5), uint32(i))
		}
		u.Compact()
		p.Compact()
		for i := 0; i < n; i++ {
			if v, ok := u.Get(uint64(i) * 7919); !ok || v != uint32(i) {
				t.Fatalf("n=%d: U64Map key %d: %d, %v", n, i, v, ok)
			}
			if v, ok := p.Get(uint64(i)*7919, uint32(i%5)); !ok || v != uint32(i) {
				t.Fatalf("n=%d: PairMap key %d: %d, %v", n, i, v, ok)
			}
			if _, ok := p.Get(uint64(i)*7919, uint32(i%5)+1); ok {
				t.Fatalf("n=%d: PairMap finds an absent key", n)
			}
		}
		if _, ok := u.Get(1); ok {
			t.Fatalf("n=%d: U64Map finds an absent key", n)
		}
		want := 16 * (int(float64(n)/compactLoad) + 16)
		if u.Len() != n || p.Len() != n || u.Bytes() != want || p.Bytes() != want {
			t.Errorf("n=%d: lengths %d, %d; bytes %d, %d, want %d", n, u.Len(), p.Len(), u.Bytes(), p.Bytes(), want)
		}
	}
}
