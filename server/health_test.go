package server

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"atril/store"
)

// sickStore is a store whose reads of the data version fail once sick
// is set.
type sickStore struct {
	store.Store
	sick atomic.Bool
}

func (s *sickStore) DataVersion(ctx context.Context) (int, error) {
	if s.sick.Load() {
		return 0, errors.New("connection refused by db.internal:5432")
	}
	return s.Store.DataVersion(ctx)
}

// TestHealth: /healthz answers 200 while the store answers, and 503
// without the store's error once it does not.
func TestHealth(t *testing.T) {
	st := &sickStore{Store: newStore(t)}
	e := newEnvConfig(t, testConfig(st))
	e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	var h Health
	if code := e.do("GET", "/healthz", "", nil, &h); code != 200 || h.Status != "ok" || h.Games != 1 || h.UptimeSeconds < 0 {
		t.Errorf("healthy: %d %+v", code, h)
	}
	st.sick.Store(true)
	var raw map[string]any
	if code := e.do("GET", "/healthz", "", nil, &raw); code != 503 || raw["status"] != "the store did not answer" {
		t.Errorf("the store down: %d %v", code, raw)
	}
	for k, v := range raw {
		if s, ok := v.(string); ok && k != "status" && k != "error" || ok && len(s) > 40 {
			t.Errorf("the health check shows %s: %v", k, v)
		}
	}
}
