package bench

import (
	"fmt"
	"runtime"
	"time"
)

// Clock is what a timing measures.
type Clock int

const (
	// ThreadCPU measures the CPU time of the thread running the generator
	// (Linux; elsewhere it falls back to Wall). On a machine shared with
	// other busy programs it leaves out the time the thread waits for a
	// core, which wall time does not; on an idle machine the two agree.
	ThreadCPU Clock = iota
	// Wall measures elapsed time.
	Wall
)

// TimeWith is the clock every measurement of this package uses.
var TimeWith = ThreadCPU

func (c Clock) String() string {
	if c == ThreadCPU {
		if _, ok := threadCPU(); ok {
			return "thread CPU time"
		}
		return "wall time (no thread CPU clock here)"
	}
	return "wall time"
}

// ParseClock reads "cpu" or "wall".
func ParseClock(s string) (Clock, error) {
	switch s {
	case "cpu":
		return ThreadCPU, nil
	case "wall":
		return Wall, nil
	}
	return 0, fmt.Errorf("clock %q: want cpu or wall", s)
}

// timer times one call with TimeWith. While in use it keeps the
// goroutine on its thread so the thread's CPU clock is the goroutine's.
type timer struct {
	cpu bool
}

func startTimer() timer {
	if TimeWith == ThreadCPU {
		if _, ok := threadCPU(); ok {
			runtime.LockOSThread()
			return timer{cpu: true}
		}
	}
	return timer{}
}

func (t timer) stop() {
	if t.cpu {
		runtime.UnlockOSThread()
	}
}

// time runs f and returns how long it took.
func (t timer) time(f func()) time.Duration {
	if t.cpu {
		c0, _ := threadCPU()
		f()
		c1, _ := threadCPU()
		return c1 - c0
	}
	t0 := time.Now()
	f()
	return time.Since(t0)
}
