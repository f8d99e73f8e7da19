package server

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"
)

// TestLobbyPlayers checks the lobby's list of players: the signed-in
// ones reading it, the latest seen first, not oneself, not accounts
// blocked either way, a visitor listing them all without being listed;
// and a sighting written at most once per seenEvery, the list read
// from the store at most once per onlineEvery.
func TestLobbyPlayers(t *testing.T) {
	e := newEnv(t, nil)
	ana, bo, cy, visitor := browser(t), browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bo_B", "correct horse")
	e.signUp(cy, "Cyd", "correct horse")
	if code := e.doWith(bo, "POST", "/api/me/blocks", "", map[string]string{"name": "Cyd"}, nil); code != 200 {
		t.Fatalf("Bo blocks Cyd: %d", code)
	}
	read := func(c *http.Client) []string {
		t.Helper()
		// The list is read again from the store, as it is onlineEvery later.
		e.srv.presence.mu.Lock()
		e.srv.presence.readAt = time.Time{}
		e.srv.presence.mu.Unlock()
		var lb Lobby
		if code := e.doWith(c, "GET", "/api/lobby", "", nil, &lb); code != 200 {
			t.Fatalf("lobby: %d", code)
		}
		return lb.Players
	}
	if got := read(visitor); len(got) != 0 {
		t.Errorf("before anyone signed in read the lobby: %q", got)
	}
	read(ana)
	time.Sleep(2 * time.Millisecond)
	read(bo)
	time.Sleep(2 * time.Millisecond)
	read(cy)
	for _, c := range []struct {
		who  string
		c    *http.Client
		want []string
	}{
		{"a visitor", visitor, []string{"Cyd", "Bo_B", "Ana"}},
		{"Ana", ana, []string{"Cyd", "Bo_B"}},
		{"Bo", bo, []string{"Ana"}},  // Bo blocks Cyd
		{"Cyd", cy, []string{"Ana"}}, // and Cyd is blocked by Bo
	} {
		if got := read(c.c); !slices.Equal(got, c.want) {
			t.Errorf("%s sees %q, want %q", c.who, got, c.want)
		}
	}
	// An account is written at most once per seenEvery; the list is read
	// at most once per onlineEvery.
	ctx, now := context.Background(), time.Now()
	before, err := e.st.SeenSince(ctx, now.Add(-time.Hour), 10)
	if err != nil || len(before) != 3 {
		t.Fatalf("seen: %+v %v", before, err)
	}
	if err := e.srv.seen(ctx, before[0].Key, before[0].At.Add(seenEvery/2)); err != nil {
		t.Fatal(err)
	}
	if after, _ := e.st.SeenSince(ctx, now.Add(-time.Hour), 10); !after[0].At.Equal(before[0].At) {
		t.Errorf("a sighting %v after the last one was written: %v, was %v", seenEvery/2, after[0].At, before[0].At)
	}
	if err := e.srv.seen(ctx, before[0].Key, before[0].At.Add(seenEvery)); err != nil {
		t.Fatal(err)
	}
	if after, _ := e.st.SeenSince(ctx, now.Add(-time.Hour), 10); !after[0].At.Equal(before[0].At.Add(seenEvery)) {
		t.Errorf("a sighting %v after the last one: %v, want it written", seenEvery, after[0].At)
	}
	first, err := e.srv.onlineNow(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.SetSeen(ctx, "someone", now); err != nil {
		t.Fatal(err)
	}
	if again, _ := e.srv.onlineNow(ctx, now.Add(onlineEvery/2)); len(again) != len(first) {
		t.Errorf("the list read again within onlineEvery")
	}
	// Players seen longer than lobbyWindow ago are gone.
	if later, _ := e.srv.onlineNow(ctx, now.Add(lobbyWindow+seenEvery+time.Second)); len(later) != 0 {
		t.Errorf("players listed after the window: %+v", later)
	}
}
