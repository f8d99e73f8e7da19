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

// Order is how MeasureAll schedules the timed generations of several
// algorithms on one position.
type Order int

const (
	// Interleaved runs one generation of every algorithm per round, so a
	// burst of load from other programs falls on all of them alike; each
	// algorithm then starts with the caches as the others left them.
	Interleaved Order = iota
	// Consecutive runs all the generations of one algorithm, then the
	// next: after the untimed first generation the algorithm finds its
	// own data in the caches, as it would in an engine running only it.
	Consecutive
)

// RunOrder is the order every measurement of this package uses.
var RunOrder = Interleaved

func (o Order) String() string {
	if o == Consecutive {
		return "each algorithm's generations consecutive"
	}
	return "algorithms interleaved"
}

// ParseOrder reads "interleaved" or "consecutive".
func ParseOrder(s string) (Order, error) {
	switch s {
	case "interleaved":
		return Interleaved, nil
	case "consecutive":
		return Consecutive, nil
	}
	return 0, fmt.Errorf("order %q: want interleaved or consecutive", s)
}

// Timing describes the clock and the order of the measurements.
func Timing() string { return TimeWith.String() + ", " + RunOrder.String() }

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
