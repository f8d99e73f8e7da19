package server

import (
	"sync"
	"time"
)

// reading keeps what one reading of something slow to read gave (the
// games the lobby lists, the lobby chat's lines), so that the readers
// within a while of it share it instead of reading again.
type reading[T any] struct {
	mu sync.Mutex
	at time.Time // zero: nothing kept
	v  T
}

// get returns what was read within every of now, or reads it again with
// read (every ≤ 0: always). Readers wait for one another meanwhile, so
// that a burst of them costs one reading.
func (r *reading[T]) get(now time.Time, every time.Duration, read func() (T, error)) (T, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if every > 0 && !r.at.IsZero() && now.Sub(r.at) < every {
		return r.v, nil
	}
	v, err := read()
	if err != nil {
		return v, err
	}
	r.at, r.v = now, v
	return v, nil
}

// forget drops what was kept: the next get reads again.
func (r *reading[T]) forget() {
	r.mu.Lock()
	r.at = time.Time{}
	r.mu.Unlock()
}
