package server

import (
	"context"
	"net/http"
	"time"
)

// healthTimeout bounds the store's answer to a health check.
const healthTimeout = 2 * time.Second

// Health is the answer of GET /healthz: "ok", or what is wrong ("the
// store did not answer", "shutting down", also in Error as every error
// answer of the API has it); the unfinished games held and how long the
// process has served.
type Health struct {
	Status        string `json:"status"`
	Error         string `json:"error,omitempty"`
	Games         int    `json:"games"`
	UptimeSeconds int64  `json:"uptime_seconds"`
}

// handleHealth answers a load balancer's or an orchestrator's check:
// 200 when the process serves and its store answers a read within
// healthTimeout, 503 otherwise (the store's error is logged, not shown:
// it may name hosts).
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	h := Health{Status: "ok", Games: s.Games(), UptimeSeconds: int64(time.Since(s.startedAt) / time.Second)}
	code := 200
	if s.ctx.Err() != nil {
		h.Status, code = "shutting down", 503
	} else {
		ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
		defer cancel()
		if _, err := s.store.DataVersion(ctx); err != nil {
			s.logf("server: health check: the store: %v", err)
			h.Status, code = "the store did not answer", 503
		}
	}
	if code != 200 {
		h.Error = h.Status
	}
	writeJSON(w, code, h)
}
