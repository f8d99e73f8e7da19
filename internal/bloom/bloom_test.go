package bloom

import (
	"math/rand/v2"
	"testing"
)

// TestFilter checks the filter's two promises at several sizes and
// densities: every key added is held, and keys never added are held
// rarely (the package's figures, with a margin for chance).
func TestFilter(t *testing.T) {
	for _, c := range []struct {
		bits  int
		limit float64 // the highest rate of false yeses allowed
	}{{10, 0.03}, {12, 0.02}, {14, 0.01}, {16, 0.008}} {
		for _, n := range []int{0, 1, 50, 5000, 200000} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(c.bits)))
			f := New(n, c.bits)
			if len(f.Words) == 0 || len(f.Words) < n*c.bits/64 {
				t.Fatalf("%d keys at %d bits: %d words", n, c.bits, len(f.Words))
			}
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = rng.Uint64()
				f.Add(keys[i])
			}
			for _, k := range keys {
				if !f.Has(k) {
					t.Fatalf("%d keys at %d bits: key %x added but not held", n, c.bits, k)
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
			rate := float64(fp) / float64(tries)
			if rate > c.limit {
				t.Errorf("%d keys at %d bits: %.2f%% of keys never added are held, over %.0f%%", n, c.bits, 100*rate, 100*c.limit)
			}
			t.Logf("%d keys at %d bits a key: %.2f%% false yeses", n, c.bits, 100*rate)
		}
	}
}

// TestWordsRoundTrip checks that words written by AppendWords read back
// the same through CopyWords (after whatever preceded them) and From,
// and that From refuses no words.
func TestWordsRoundTrip(t *testing.T) {
	f := New(3000, 12)
	rng := rand.New(rand.NewPCG(3, 4))
	keys := make([]uint64, 3000)
	for i := range keys {
		keys[i] = rng.Uint64()
		f.Add(keys[i])
	}
	head := []byte("head")
	data := f.AppendWords(head)
	if len(data) != len(head)+f.Bytes() {
		t.Fatalf("%d bytes for %d words", len(data), len(f.Words))
	}
	got, err := From(CopyWords(data[len(head):]))
	if err != nil {
		t.Fatal(err)
	}
	for i := range got.Words {
		if got.Words[i] != f.Words[i] {
			t.Fatalf("word %d differs", i)
		}
	}
	for _, k := range keys {
		if !got.Has(k) {
			t.Fatalf("key %x lost in the round trip", k)
		}
	}
	if _, err := From(nil); err == nil {
		t.Error("a filter of no words accepted")
	}
}
