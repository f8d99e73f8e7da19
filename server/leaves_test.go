package server

import (
	"strings"
	"testing"
)

// TestLeaves asks for leave values (GET /api/leaves): a whole rack's
// sub-leaves, a leave's value (the embedded English table's, as `atril
// leaves show` prints them), and clear refusals of bad questions.
func TestLeaves(t *testing.T) {
	e := newEnv(t, nil)
	var ans LeavesAnswer
	if code := e.do("GET", "/api/leaves?lexicon=en-sowpods&rack=aeinrst", "", nil, &ans); code != 200 {
		t.Fatalf("AEINRST: %d", code)
	}
	if ans.Rack != "AEINRST" || ans.Value != nil || len(ans.Best) != 5 || ans.Best[0] != (LeaveValue{"AEINST", 30.5}) ||
		len(ans.Worst) != 5 || ans.Worst[0] != (LeaveValue{"I", 0.75}) || len(ans.BestByKept) != 6 ||
		ans.BestByKept[0] != (LeaveValue{"S", 8}) || ans.BestByKept[5] != (LeaveValue{"AEINST", 30.5}) || ans.Table == "" {
		t.Errorf("AEINRST: %+v", ans)
	}
	ans = LeavesAnswer{}
	if code := e.do("GET", "/api/leaves?lexicon=en-sowpods&rack=QU%3F&top=2", "", nil, &ans); code != 200 || ans.Value == nil || *ans.Value != 27.5 ||
		len(ans.Best) != 2 || ans.Best[0] != (LeaveValue{"?", 24.5}) || len(ans.BestByKept) != 2 {
		t.Errorf("QU?: %d %+v", code, ans)
	}
	for _, tc := range []struct{ q, want string }{
		{"lexicon=xx&rack=A", `word list "xx" is not offered`},
		{"lexicon=en-sowpods&rack=QQ", "the set holds 1"},
		{"lexicon=en-sowpods&rack=ABCDEFGH", "8 tiles, want 1 to 7"},
		{"lexicon=en-sowpods&rack=", "0 tiles"},
		{"lexicon=en-sowpods&rack=A1", `rack "A1"`},
		{"lexicon=en-sowpods&rack=A&top=0", "top=0: want 1 to 20"},
	} {
		var eb errorBody
		if code := e.do("GET", "/api/leaves?"+tc.q, "", nil, &eb); code != 400 || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("%s: %d %q, want 400 %q", tc.q, code, eb.Error, tc.want)
		}
	}
}
