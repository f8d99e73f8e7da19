//go:build !linux

package bench

import "time"

// threadCPU is not available here: timings fall back to the wall clock.
func threadCPU() (time.Duration, bool) { return 0, false }
