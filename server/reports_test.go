package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestReports checks a player's report of another: its refusals (signed
// out, oneself, no such player, no text, a bad game id, too many open),
// what the store keeps, and the counter.
func TestReports(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bo_reported", "battery staple")
	for _, tc := range []struct {
		signed bool
		name   string
		body   map[string]string
		code   int
		want   string
	}{
		{false, "Bo_reported", map[string]string{"reason": "rude"}, 401, "sign in to report"},
		{true, "ana", map[string]string{"reason": "rude"}, 400, "cannot report yourself"},
		{true, "Nobody", map[string]string{"reason": "rude"}, 404, `no player is named "Nobody"`},
		{true, "Bo_reported", map[string]string{"reason": "  \u200b "}, 400, ""},
		{true, "Bo_reported", map[string]string{"reason": strings.Repeat("x", maxReportText+1)}, 400, "report"},
		{true, "Bo_reported", map[string]string{"reason": "rude", "game": "../x"}, 400, "not a game's id"},
	} {
		c := browser(t)
		if tc.signed {
			c = ana
		}
		var eb errorBody
		if code := e.doWith(c, "POST", "/api/players/"+tc.name+"/report", "", tc.body, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("report of %q %v: %d %q, want %d %q", tc.name, tc.body, code, eb.Error, tc.code, tc.want)
		}
	}
	var rr ReportResponse
	if code := e.doWith(ana, "POST", "/api/players/bo_REPORTED/report", "", map[string]string{"reason": " rude  in\tchat ", "game": "0123456789abcdef"}, &rr); code != 201 || rr.ID == 0 {
		t.Fatalf("a report: %d %+v", code, rr)
	}
	rs, err := e.st.Reports(context.Background(), AccountKey("Bo_reported"), false, 10)
	if err != nil || len(rs) != 1 || rs[0].ID != rr.ID || rs[0].ByName != "Ana" || rs[0].Reason != "rude in chat" || rs[0].Game != "0123456789abcdef" ||
		time.Since(rs[0].Created) > time.Minute {
		t.Errorf("the report as kept: %+v, %v", rs, err)
	}
	if n, ok := readMetrics(t, e)["atril_reports_total"]; !ok || n != 1 {
		t.Errorf("metrics: atril_reports_total %v (reported %v), want 1", n, ok)
	}
	// At most maxOpenReports wait for the operators; a closed one makes
	// room.
	for i := 1; i < maxOpenReports; i++ {
		if code := e.doWith(ana, "POST", "/api/players/Bo_reported/report", "", map[string]string{"reason": fmt.Sprint("again ", i)}, nil); code != 201 {
			t.Fatalf("report %d: %d", i+1, code)
		}
	}
	var eb errorBody
	if code := e.doWith(ana, "POST", "/api/players/Bo_reported/report", "", map[string]string{"reason": "once more"}, &eb); code != 409 || !strings.Contains(eb.Error, "waiting for the operators") {
		t.Errorf("a report past the cap: %d %q, want 409", code, eb.Error)
	}
	if err := e.st.CloseReport(context.Background(), rr.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if code := e.doWith(ana, "POST", "/api/players/Bo_reported/report", "", map[string]string{"reason": "once more"}, nil); code != 201 {
		t.Errorf("a report once one was closed: %d, want 201", code)
	}
}
