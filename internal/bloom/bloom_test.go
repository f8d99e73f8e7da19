package bloom

import (
	"math/rand/v2"
	"testing"
)

// TestBlocked checks the filter's two promises at several sizes, for
// both sizings (New's, and NewPow2's, whose lookups take a mask): every
// key added is held, and keys never added are held rarely (about 1% at
// ten bits a key; the test allows 3%).
func TestBlocked(t *testing.T) {
	for _, c := range []struct {
		name string
		new  func(int) Blocked
	}{{"New", New}, {"NewPow2", NewPow2}} {
		t.Run(c.name, func(t *testing.T) { checkBlocked(t, c.new) })
	}
}

func checkBlocked(t *testing.T, newFilter func(int) Blocked) {
	for _, n := range []int{0, 1, 50, 5000, 200000} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		f := newFilter(n)
		if len(f.Blocks) == 0 {
			t.Fatalf("%d keys: no blocks", n)
		}
		if len(f.Blocks) < n*10/512 {
			t.Fatalf("%d keys: %d blocks, under ten bits a key", n, len(f.Blocks))
		}
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = rng.Uint64()
			f.Add(keys[i])
		}
		for _, k := range keys {
			if !f.Has(k) {
				t.Fatalf("%d keys: key %x added but not held", n, k)
			}
		}
		if n < 5000 {
			continue
		}
		fp, tries := 0, 100000
		for i := 0; i < tries; i++ {
			if f.Has(rng.Uint64()) {
				fp++
			}
		}
		if rate := float64(fp) / float64(tries); rate > 0.03 {
			t.Errorf("%d keys: %.2f%% of keys never added are held", n, 100*rate)
		}
	}
}

// TestBlocksRoundTrip checks that blocks written by AppendBlocks read
// back the same through CopyBlocks, after whatever preceded them.
func TestBlocksRoundTrip(t *testing.T) {
	f := New(3000)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3000; i++ {
		f.Add(rng.Uint64())
	}
	head := []byte("head")
	data := f.AppendBlocks(head)
	if len(data) != len(head)+64*len(f.Blocks) {
		t.Fatalf("%d bytes for %d blocks", len(data), len(f.Blocks))
	}
	got := CopyBlocks(data[len(head):])
	if len(got) != len(f.Blocks) {
		t.Fatalf("%d blocks read, %d written", len(got), len(f.Blocks))
	}
	for i := range got {
		if got[i] != f.Blocks[i] {
			t.Fatalf("block %d differs", i)
		}
	}
}
