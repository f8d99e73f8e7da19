//go:build unix

package interval_test

import (
	"os"
	"syscall"
	"testing"
	"time"

	"atril/movegen/interval"
)

// TestAnagramBuildFull builds the anagram tables of the full English
// list and reports their size and build time (ATRIL_LONG=1).
func TestAnagramBuildFull(t *testing.T) {
	if os.Getenv("ATRIL_LONG") == "" {
		t.Skip("set ATRIL_LONG=1 to build the full tables")
	}
	for _, l := range languages {
		_, lex := fullLexicon(t, l)
		t0, c0 := time.Now(), cpuTime()
		at, err := interval.BuildAnagram(lex, nil, interval.AnagramOptions{})
		if err != nil {
			t.Fatal(err)
		}
		el, cpu := time.Since(t0), cpuTime()-c0
		data, err := at.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		t1, c1 := time.Now(), cpuTime()
		if _, err := interval.UnmarshalAnagram(data, lex); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: built in %v (%v of CPU), %.1f MiB, file %.1f MiB decoded in %v (%v of CPU)", l.variant, el.Round(time.Millisecond), cpu.Round(time.Millisecond),
			float64(at.Bytes())/(1<<20), float64(len(data))/(1<<20), time.Since(t1).Round(time.Millisecond), (cpuTime() - c1).Round(time.Millisecond))
	}
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
