package server

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"
)

// Watchers of a game being played: a reader of its state without a
// seat's token is a watcher, known by a key made from the client's
// address and the game (not the address itself). Each process records
// in the store, at most once every watcherEvery, that a watcher was seen,
// and counts the game's watchers seen in the last watcherWindow from the
// store at most once every watcherCount, so that every process sharing
// the store shows the same count.

// watcherSeenMost bounds the watchers a game's throttle remembers.
const watcherSeenMost = 1000

// Periods of the watchers' count (variables for the tests).
var (
	watcherEvery  = 10 * time.Second
	watcherCount  = 5 * time.Second
	watcherWindow = 20 * time.Second
)

// watching is what a live game keeps of its watchers (guarded by its
// mu): when each was last recorded, the count and when it was read.
type watching struct {
	recorded map[string]time.Time
	count    int
	countAt  time.Time
}

// watcherKey is the key of the request's client as a watcher of game id.
func (s *Server) watcherKey(r *http.Request, id string) string {
	h := sha256.Sum256([]byte("atril watcher\x00" + id + "\x00" + s.clientKey(r)))
	return hex.EncodeToString(h[:8])
}

// watched records, for a reader without a seat (me < 0) of a game not
// over, that it watches, and brings the game's count up to date; it
// returns the count. A failure of the store leaves the count as it was
// (the count is a courtesy, not a record).
func (s *Server) watched(r *http.Request, l *live, me int, now time.Time) int {
	l.mu.Lock()
	w := &l.watching
	over := l.g.Over()
	var key string
	record := false
	if me < 0 && !over {
		key = s.watcherKey(r, l.hdr.ID)
		if now.Sub(w.recorded[key]) >= watcherEvery {
			if w.recorded == nil || len(w.recorded) >= watcherSeenMost {
				w.recorded = map[string]time.Time{}
			}
			w.recorded[key] = now
			record = true
		}
	}
	read := !over && now.Sub(w.countAt) >= watcherCount
	if read {
		w.countAt = now
	}
	if over {
		w.count = 0
	}
	n := w.count
	l.mu.Unlock()
	if record {
		if err := s.store.SawWatcher(r.Context(), l.hdr.ID, key, now); err != nil {
			s.logf("server: %v", err)
		}
	}
	if read {
		if c, err := s.store.Watchers(r.Context(), l.hdr.ID, now.Add(-watcherWindow)); err != nil {
			s.logf("server: %v", err)
		} else {
			n = c
			l.mu.Lock()
			w.count = c
			l.mu.Unlock()
		}
	}
	return n
}
