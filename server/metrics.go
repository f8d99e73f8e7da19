package server

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// counters are the server's running totals, read by GET /metrics.
type counters struct {
	movesPerson, movesComputer atomic.Int64
	// botNanos is the CPU time of computer seats choosing moves (the
	// choosing thread's; zero where the system cannot tell).
	botNanos atomic.Int64
	// appendNanos and appends time the store's writes of events.
	appendNanos, appends atomic.Int64
	requests             atomic.Int64
	refused              atomic.Int64 // 4xx answers
	limited              atomic.Int64 // 429 answers
	reports              atomic.Int64 // players' reports taken
	// analysisNanos and analysed time the analyses of finished games'
	// moves (accuracy.go); analysisFailed counts those that failed.
	analysisNanos, analysed, analysisFailed atomic.Int64
	// watchSockets counts the watchers' WebSockets open (watchws.go),
	// lobbySockets the lobby's (lobbyws.go).
	watchSockets, lobbySockets atomic.Int64
}

// handleMetrics answers the server's counters in the Prometheus text
// format (version 0.0.4).
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	metric := func(name, typ, help string, values ...any) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
		for k := 0; k < len(values); k += 2 {
			fmt.Fprintf(&b, "%s%s %v\n", name, values[k], values[k+1])
		}
	}
	c := &s.count
	if cpu, ok := processCPU(); ok {
		metric("process_cpu_seconds_total", "counter", "User and system CPU time of the server process, in seconds.", "", cpu.Seconds())
	}
	metric("atril_bot_cpu_seconds_total", "counter", "CPU time computer seats spent choosing moves, in seconds (0 where the system cannot tell).",
		"", time.Duration(c.botNanos.Load()).Seconds())
	metric("atril_moves_total", "counter", "Moves accepted.", `{by="person"}`, c.movesPerson.Load(), `{by="computer"}`, c.movesComputer.Load())
	metric("atril_store_append_seconds", "summary", "Time to write an event durably.",
		"_sum", time.Duration(c.appendNanos.Load()).Seconds(), "_count", c.appends.Load())
	metric("atril_api_requests_total", "counter", "API requests answered, by outcome.",
		`{outcome="ok"}`, c.requests.Load()-c.refused.Load()-c.limited.Load(),
		`{outcome="refused"}`, c.refused.Load(), `{outcome="limited"}`, c.limited.Load())
	metric("atril_game_analysis_seconds", "summary", "Time to judge every move of a finished game and record how each seat played.",
		"_sum", time.Duration(c.analysisNanos.Load()).Seconds(), "_count", c.analysed.Load())
	metric("atril_game_analysis_failures_total", "counter", "Analyses of finished games that failed (each logged).", "", c.analysisFailed.Load())
	metric("atril_reports_total", "counter", "Players' reports of other players taken (atril accounts reports lists them).", "", c.reports.Load())
	s.mu.Lock()
	inMemory, live := len(s.games), s.nlive
	s.mu.Unlock()
	metric("atril_games", "gauge", "Games in memory: unfinished, and finished ones kept a while.",
		`{state="unfinished"}`, live, `{state="finished"}`, inMemory-live)
	metric("atril_watch_sockets", "gauge", "Watchers' WebSockets open (each told of its game's changes as they happen).", "", c.watchSockets.Load())
	metric("atril_lobby_sockets", "gauge", "Lobby WebSockets open (each told when the lobby changes).", "", c.lobbySockets.Load())
	if p := s.push; p != nil {
		metric("atril_push_messages_total", "counter", "Push messages to browsers, by outcome (gone: the push service no longer knew the browser, which is forgotten; dropped: the queue was full).",
			`{outcome="sent"}`, p.sent.Load(), `{outcome="failed"}`, p.failed.Load(), `{outcome="gone"}`, p.gone.Load(), `{outcome="dropped"}`, p.dropped.Load())
	}
	s.latency.write(&b)
	metric("go_goroutines", "gauge", "Goroutines.", "", runtime.NumGoroutine())
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(sample)
	metric("go_heap_objects_bytes", "gauge", "Bytes of live and not yet swept heap objects.", "", sample[0].Value.Uint64())
	metric("go_memory_total_bytes", "gauge", "Bytes of memory mapped by the Go runtime.", "", sample[1].Value.Uint64())
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b.Bytes())
}
