//go:build !linux

package movegen_test

import "time"

// threadCPU falls back to the wall clock where the thread CPU clock is
// not read.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }

const clockName = "wall-clock time"
