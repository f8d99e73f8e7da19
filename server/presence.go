package server

import (
	"context"
	"sync"
	"time"

	"atril/store"
)

// Presence: the signed-in players with the lobby open. Each lobby read
// by an account records when it was seen, in the store (so that every
// process sharing a database sees the same players), at most once per
// seenEvery; the lobby lists the accounts seen within lobbyWindow,
// read from the store at most once per onlineEvery.
const (
	seenEvery   = 30 * time.Second
	lobbyWindow = 90 * time.Second // the page reads the lobby every 10 s
	onlineEvery = 10 * time.Second
	// MaxOnline is the most players the lobby lists.
	MaxOnline = 50
)

// presence is the server's memory of sightings written and of the list
// last read.
type presence struct {
	mu      sync.Mutex
	written map[string]time.Time // account key → last sighting written
	readAt  time.Time
	online  []store.Seen
}

// seen records that the account of key has the lobby open, unless that
// was written less than seenEvery ago.
func (s *Server) seen(ctx context.Context, key string, now time.Time) error {
	p := &s.presence
	p.mu.Lock()
	if now.Sub(p.written[key]) < seenEvery {
		p.mu.Unlock()
		return nil
	}
	if p.written == nil {
		p.written = map[string]time.Time{}
	}
	p.written[key] = now
	// Forget the sightings too old to matter, now and then.
	if len(p.written) > 4096 {
		for k, at := range p.written {
			if now.Sub(at) >= seenEvery {
				delete(p.written, k)
			}
		}
	}
	p.mu.Unlock()
	return s.store.SetSeen(ctx, key, now)
}

// onlineNow returns the accounts seen in the lobby within lobbyWindow,
// the latest first, as read from the store at most onlineEvery ago. The
// slice is shared: callers must not change it.
func (s *Server) onlineNow(ctx context.Context, now time.Time) ([]store.Seen, error) {
	p := &s.presence
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.readAt.IsZero() && now.Sub(p.readAt) < onlineEvery && now.After(p.readAt) {
		return p.online, nil
	}
	// One more than shown, as the one asking may be among them.
	list, err := s.store.SeenSince(ctx, now.Add(-lobbyWindow), MaxOnline+1)
	if err != nil {
		return nil, err
	}
	p.online, p.readAt = list, now
	return list, nil
}

// lobbyPlayers are the players in the lobby that the account of me (""
// when signed out) is shown: not itself, nor those it blocks or that
// block it.
func (s *Server) lobbyPlayers(ctx context.Context, me string, b blocking, now time.Time) ([]string, error) {
	list, err := s.onlineNow(ctx, now)
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, p := range list {
		if p.Key != me && !b[p.Key] && len(names) < MaxOnline {
			names = append(names, p.Name)
		}
	}
	return names, nil
}
