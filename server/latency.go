package server

import (
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The API's answer times, by route (the pattern the request matched,
// "GET /api/games/{id}"), as Prometheus histograms in /metrics
// (atril_api_request_seconds), so that an operator sees which requests
// are slow. The WebSockets and the long polls of notifications, which
// last as long as their clients stay, are left out.

// latencyBounds are the histograms' upper bounds, in seconds.
var latencyBounds = [...]float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// histogram counts answer times: counts[i] those up to latencyBounds[i]
// (not cumulative), the last those above them all.
type histogram struct {
	counts [len(latencyBounds) + 1]atomic.Int64
	nanos  atomic.Int64
}

func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	i := sort.SearchFloat64s(latencyBounds[:], s)
	h.counts[i].Add(1)
	h.nanos.Add(int64(d))
}

// latencies holds a histogram per route.
type latencies struct {
	m sync.Map // route → *histogram
}

// observe counts an answer of route that took d.
func (l *latencies) observe(route string, d time.Duration) {
	h, ok := l.m.Load(route)
	if !ok {
		h, _ = l.m.LoadOrStore(route, &histogram{})
	}
	h.(*histogram).observe(d)
}

// longLived reports whether request r lasts as long as its client wants:
// a WebSocket or a long poll.
func longLived(r *http.Request) bool {
	return strings.HasSuffix(r.Pattern, "/ws") || strings.HasSuffix(r.Pattern, "/watch") ||
		strings.HasSuffix(r.Pattern, "/notifications") && r.URL.Query().Get("wait") != ""
}

// write writes the histograms in the Prometheus text format, by route.
func (l *latencies) write(b *bytes.Buffer) {
	var routes []string
	l.m.Range(func(k, _ any) bool {
		routes = append(routes, k.(string))
		return true
	})
	if len(routes) == 0 {
		return
	}
	sort.Strings(routes)
	const name = "atril_api_request_seconds"
	fmt.Fprintf(b, "# HELP %s Time to answer an API request, by route (WebSockets and long polls left out).\n# TYPE %s histogram\n", name, name)
	for _, route := range routes {
		v, _ := l.m.Load(route)
		h := v.(*histogram)
		label := fmt.Sprintf("route=%q", route)
		var cum int64
		for i, le := range latencyBounds {
			cum += h.counts[i].Load()
			fmt.Fprintf(b, "%s_bucket{%s,le=\"%g\"} %d\n", name, label, le, cum)
		}
		cum += h.counts[len(latencyBounds)].Load()
		fmt.Fprintf(b, "%s_bucket{%s,le=\"+Inf\"} %d\n", name, label, cum)
		fmt.Fprintf(b, "%s_sum{%s} %g\n%s_count{%s} %d\n", name, label, time.Duration(h.nanos.Load()).Seconds(), name, label, cum)
	}
}
