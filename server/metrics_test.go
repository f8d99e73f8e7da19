package server

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// readMetrics reads the server's /metrics, checking its content type,
// as a map from each sample's name (labels included) to its value.
func readMetrics(t *testing.T, e *testEnv) map[string]float64 {
	t.Helper()
	resp, err := http.Get(e.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("content type %q", ct)
	}
	data, _ := io.ReadAll(resp.Body)
	m := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "# HELP ") || strings.HasPrefix(line, "# TYPE ") {
			continue
		}
		// The value follows the last space (a label's value may hold
		// spaces).
		i := strings.LastIndexByte(line, ' ')
		name, val, ok := line[:max(i, 0)], line[i+1:], i > 0
		x, err := strconv.ParseFloat(val, 64)
		if !ok || err != nil {
			t.Fatalf("not a sample line: %q", line)
		}
		m[name] = x
	}
	return m
}

// TestMetrics checks that /metrics answers the Prometheus text format
// with the counters the load test reads, and that they count.
func TestMetrics(t *testing.T) {
	e := newEnv(t, nil)
	read := func() map[string]float64 { return readMetrics(t, e) }
	before := read()
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	playOut(t, e, id, []string{a.Token, b.Token}, 3)
	e.do("GET", "/api/games/"+id+"/notifications?wait=x", a.Token, nil, nil)
	after := read()
	for name, want := range map[string]float64{
		`atril_moves_total{by="person"}`:              3,
		`atril_moves_total{by="computer"}`:            0,
		`atril_api_requests_total{outcome="refused"}`: 1,
		`atril_store_append_seconds_count`:            5, // two joins, three moves
		`atril_games{state="unfinished"}`:             1,
	} {
		if got := after[name] - before[name]; got != want {
			t.Errorf("%s moved by %v, want %v", name, got, want)
		}
	}
	if _, ok := after["process_cpu_seconds_total"]; !ok {
		t.Error("no process_cpu_seconds_total")
	}
	// The answer times by route: the state read by playOut, six times
	// (the seat on turn and the state's public view, each move), each
	// in a bucket, the buckets cumulative; the long poll left out.
	route := `route="GET /api/games/{id}"`
	if n := after[`atril_api_request_seconds_count{`+route+`}`] - before[`atril_api_request_seconds_count{`+route+`}`]; n < 6 {
		t.Errorf("state reads timed: %v, want at least 6", n)
	}
	last := 0.0
	for _, le := range []string{"0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"} {
		n, ok := after[`atril_api_request_seconds_bucket{`+route+`,le="`+le+`"}`]
		if !ok || n < last {
			t.Errorf("the bucket up to %s: %v (%v), after %v", le, n, ok, last)
		}
		last = n
	}
	if c := after[`atril_api_request_seconds_count{`+route+`}`]; last != c {
		t.Errorf("the +Inf bucket holds %v, the count %v", last, c)
	}
	for name := range after {
		if strings.Contains(name, "/notifications") || strings.Contains(name, "/ws") {
			t.Errorf("a long-lived request timed: %s", name)
		}
	}
}

// TestStateLists checks that a fresh game's lists are empty lists, not
// null (the page iterates over them).
func TestStateLists(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	resp, err := http.Get(e.url + "/api/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`"board":[]`, `"history":[]`, `"premiums":["`, `"letters":[{`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("state lacks %s: %s", want, data)
		}
	}
}
