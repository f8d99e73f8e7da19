//go:build !linux

package server

import "time"

// threadCPU is not known on this system.
func threadCPU() (time.Duration, bool) { return 0, false }
