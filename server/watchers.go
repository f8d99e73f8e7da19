package server

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sync"
	"time"

	"atril/store"
)

// Watchers of a game being played: a reader of its state without a
// seat's token is a watcher, known by a key made from the client's
// address and the game (not the address itself), and by its account's
// name when signed in (looked up only when it is recorded). Each process records
// in the store, at most once every watcherEvery for a watcher, that it
// was seen, and reads every game's count of the watchers seen in the
// last watcherWindow from the store at most once every watcherCount, in
// one query whatever the number of games, so that every process
// sharing the store shows the same counts.

// watcherSeenMost bounds the watchers a game's throttle remembers.
const watcherSeenMost = 1000

// Periods of the watchers' count (variables for the tests).
var (
	watcherEvery  = 10 * time.Second
	watcherCount  = 5 * time.Second
	watcherWindow = 20 * time.Second
)

// watchCounts is the process's copy of the games' watchers (guarded by
// mu): read from the store at, by one request at a time.
type watchCounts struct {
	mu      sync.Mutex
	at      time.Time
	reading bool
	m       map[string]store.Watching
}

// watcherKey is the key of the request's client as a watcher of game id.
func (s *Server) watcherKey(r *http.Request, id string) string {
	h := sha256.Sum256([]byte("atril watcher\x00" + id + "\x00" + s.clientKey(r)))
	return hex.EncodeToString(h[:8])
}

// watched records, for a reader without a seat (me < 0) of a game not
// over, that it watches, and returns the game's watchers. A failure of
// the store leaves the counts as they were (they are a courtesy, not a
// record).
func (s *Server) watched(r *http.Request, l *live, me int, now time.Time) store.Watching {
	l.mu.Lock()
	over := l.g.Over()
	var key string
	record := false
	if me < 0 && !over {
		key = s.watcherKey(r, l.hdr.ID)
		if now.Sub(l.watchersRecorded[key]) >= watcherEvery {
			if l.watchersRecorded == nil || len(l.watchersRecorded) >= watcherSeenMost {
				l.watchersRecorded = map[string]time.Time{}
			}
			l.watchersRecorded[key] = now
			record = true
		}
	}
	l.mu.Unlock()
	if over {
		return store.Watching{}
	}
	if record {
		name := ""
		if a, err := s.signedIn(r); err == nil && a != nil {
			name = a.Name
		}
		if err := s.store.SawWatcher(r.Context(), l.hdr.ID, key, name, now); err != nil {
			s.logf("server: %v", err)
		}
	}
	return s.watchers(r, l.hdr.ID, now, record)
}

// watchers returns game id's watchers, reading every game's
// from the store first when the copy is older than watcherCount (or, just
// after a watcher was recorded, than a second).
func (s *Server) watchers(r *http.Request, id string, now time.Time, fresh bool) store.Watching {
	c := &s.watchCounts
	c.mu.Lock()
	age := now.Sub(c.at)
	read := !c.reading && (age >= watcherCount || fresh && age >= min(time.Second, watcherCount))
	if read {
		c.reading = true
	}
	n := c.m[id]
	c.mu.Unlock()
	if !read {
		return n
	}
	m, err := s.store.Watchers(r.Context(), now.Add(-watcherWindow))
	c.mu.Lock()
	c.reading = false
	if err == nil {
		c.m, c.at, n = m, now, m[id]
	}
	c.mu.Unlock()
	if err != nil {
		s.logf("server: %v", err)
	}
	return n
}
