package server

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	gcgpkg "atril/gcg"
	"atril/store"
	"atril/variant"
)

// TestOpenAPIListsPageRoutes checks that api/openapi.yaml documents the
// routes the page uses beyond playing: preview, resign, abort, lobby,
// review and analysis.
func TestOpenAPIListsPageRoutes(t *testing.T) {
	data, err := os.ReadFile("../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/games/{id}/preview", "/api/games/{id}/resign", "/api/games/{id}/abort",
		"/api/games/{id}/list", "/api/quick", "/api/lobby", "/api/games/{id}/review", "/api/games/{id}/analysis",
		"/api/rush", "/api/rush/leaders", "/api/rush/{id}", "/api/rush/{id}/preview", "/api/rush/{id}/answer", "/api/rush/{id}/end", "/api/me/messages", "/api/me/messages/{name}"} {
		if !strings.Contains(string(data), "\n  "+p+":\n") {
			t.Errorf("api/openapi.yaml does not document %s", p)
		}
	}
}

// TestPreview checks that a preview gives the score the move then gets,
// says why a placement is refused, changes nothing and needs a seat.
func TestPreview(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	e.drain(id, toks[0])
	for k := 0; k < 6; k++ {
		pub := e.state(id, "")
		st := e.state(id, toks[pub.Turn])
		req, m := bestRequest(t, st)
		if m == nil {
			break
		}
		var pv Preview
		if code := e.do("POST", "/api/games/"+id+"/preview", toks[pub.Turn], map[string]any{"tiles": req["tiles"]}, &pv); code != 200 {
			t.Fatalf("preview: %d", code)
		}
		// The other seat may preview too (its own rack decides).
		var other Preview
		e.do("POST", "/api/games/"+id+"/preview", toks[1-pub.Turn], map[string]any{"tiles": req["tiles"]}, &other)
		var mr MoveResponse
		if code := e.do("POST", "/api/games/"+id+"/move", toks[pub.Turn], req, &mr); code != 200 {
			t.Fatalf("move: %d", code)
		}
		if !pv.OK || pv.Score != mr.Score || pv.Move != mr.Move || len(pv.Words) == 0 {
			t.Errorf("move %d: preview %+v, played %+v", k, pv, mr)
		}
	}
	st := e.state(id, toks[0])
	moves := st.Moves
	tests := []struct {
		name   string
		tok    string
		tiles  any
		code   int
		reason string
	}{
		{"not in line", toks[0], []PlacedTile{{Row: 0, Col: 0, Letter: "A"}, {Row: 1, Col: 1, Letter: "A"}}, 200, "one row or one column"},
		{"not connected", toks[0], []PlacedTile{{Row: 0, Col: 0, Letter: st.You.Rack[0].Letter, Blank: st.You.Rack[0].Blank}}, 200, ""},
		{"off the board", toks[0], []PlacedTile{{Row: 15, Col: 0, Letter: "A"}}, 400, ""},
		{"no token", "", []PlacedTile{{Row: 0, Col: 0, Letter: "A"}}, 401, ""},
		{"no tiles", toks[0], []PlacedTile{}, 400, ""},
	}
	for _, tc := range tests {
		var pv Preview
		var out any = &pv
		if tc.code != 200 {
			out = nil
		}
		if code := e.do("POST", "/api/games/"+id+"/preview", tc.tok, map[string]any{"tiles": tc.tiles}, out); code != tc.code {
			t.Errorf("%s: status %d, want %d", tc.name, code, tc.code)
		}
		if tc.code == 200 && (pv.OK || pv.Reason == "" || !strings.Contains(pv.Reason, tc.reason)) {
			t.Errorf("%s: %+v", tc.name, pv)
		}
	}
	if ns := e.drain(id, toks[0]); strings.Contains(types(ns), "rejected") {
		t.Errorf("a preview queued a refusal: %s", types(ns))
	}
	if e.state(id, "").Moves != moves {
		t.Error("a preview changed the game")
	}
}

// TestResignAbortAndLobby checks resigning, calling a game off, and the
// lobby, before and after a restart.
func TestResignAbortAndLobby(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := newEnv(t, st)
	var lb Lobby
	lobby := func(e *testEnv) []string {
		lb = Lobby{}
		if code := e.do("GET", "/api/lobby", "", nil, &lb); code != 200 {
			t.Fatalf("lobby: %d", code)
		}
		var ids []string
		for _, g := range lb.Open {
			ids = append(ids, g.ID)
		}
		return ids
	}
	// A game in the lobby; another one not offered there.
	open := e.create(SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human"})
	private := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	ao := e.join(open)
	e.join(private)
	if got := lobby(e); len(got) != 0 {
		t.Errorf("lobby before listing: %v", got)
	}
	if code := e.do("POST", "/api/games/"+open+"/list", "", nil, nil); code != 401 {
		t.Errorf("list without a token: %d", code)
	}
	if code := e.do("POST", "/api/games/"+open+"/list", ao.Token, nil, nil); code != 200 {
		t.Fatalf("list: %d", code)
	}
	if got := lobby(e); len(got) != 1 || got[0] != open {
		t.Errorf("lobby: %v, want [%s]", got, open)
	}
	if code := e.do("POST", "/api/games/"+open+"/resign", ao.Token, nil, nil); code != 409 {
		t.Errorf("resign before the start: %d, want 409", code)
	}

	// Resign: the opponent wins, even when behind.
	bo := e.join(open)
	if got := lobby(e); len(got) != 0 {
		t.Errorf("lobby lists a started game: %v", got)
	}
	// The started game offered in the lobby is there to watch, with its
	// moves and scores; the private one is not.
	playOut(t, e, open, []string{ao.Token, bo.Token}, 1)
	lobby(e)
	if len(lb.Playing) != 1 || lb.Playing[0].ID != open || lb.Playing[0].Moves != 1 || len(lb.Playing[0].Seats) != 2 ||
		lb.Playing[0].Seats[0].Name != "Ana" || lb.Playing[0].Seats[0].Score != e.state(open, "").Seats[0].Score {
		t.Errorf("games being played: %+v", lb.Playing)
	}
	if code := e.do("POST", "/api/games/"+open+"/list", ao.Token, nil, nil); code != 409 {
		t.Errorf("list a started game: %d", code)
	}
	playOut(t, e, open, []string{ao.Token, bo.Token}, 3)
	if code := e.do("POST", "/api/games/"+open+"/abort", ao.Token, nil, nil); code != 409 {
		t.Errorf("abort after moves: %d, want 409", code)
	}
	e.drain(open, bo.Token)
	var after State
	if code := e.do("POST", "/api/games/"+open+"/resign", bo.Token, nil, &after); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	if !after.Over || after.Resigned == nil || *after.Resigned != 1 || len(after.Winners) != 1 || after.Winners[0] != 0 {
		t.Errorf("after resigning: over %v resigned %v winners %v", after.Over, after.Resigned, after.Winners)
	}
	if got := types(e.drain(open, bo.Token)); got != "resigned,over" {
		t.Errorf("notifications after resigning: %s", got)
	}
	if code := e.do("POST", "/api/games/"+open+"/resign", ao.Token, nil, nil); code != 409 {
		t.Errorf("resign after the end: %d", code)
	}
	resp, err := http.Get(e.url + "/api/games/" + open + "/gcg")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(text), "#resigned ") {
		t.Errorf("GCG does not record the resignation:\n%s", text)
	}
	v := variant.MustLoad("english")
	lex, _ := shortWords(v)
	if g, err := gcgpkg.Read(bytes.NewReader(text), v, lex); err != nil || g.Resigned() != 1 {
		t.Errorf("GCG read back: %v, resigned %d", err, g.Resigned())
	}

	// Abort before the first move, and before the second seat is taken.
	ap := e.join(private)
	if code := e.do("POST", "/api/games/"+private+"/abort", ap.Token, nil, nil); code != 200 {
		t.Fatalf("abort: %d", code)
	}
	waiting := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	aw := e.join(waiting)
	e.do("POST", "/api/games/"+waiting+"/list", aw.Token, nil, nil)
	if code := e.do("POST", "/api/games/"+waiting+"/abort", aw.Token, nil, nil); code != 200 {
		t.Fatalf("abort a waiting game: %d", code)
	}
	if got := lobby(e); len(got) != 0 || len(lb.Playing) != 0 {
		t.Errorf("lobby lists a game called off or over: %v, %+v", got, lb.Playing)
	}
	listed := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	e.do("POST", "/api/games/"+listed+"/list", e.join(listed).Token, nil, nil)

	// After a restart: the ends and the listing are replayed.
	e.hs.Close()
	e.srv.Close()
	e2 := newEnv(t, st)
	for _, c := range []struct {
		id       string
		resigned int
		aborted  bool
	}{{open, 1, false}, {private, -1, true}, {waiting, -1, true}} {
		s := e2.state(c.id, "")
		r := -1
		if s.Resigned != nil {
			r = *s.Resigned
		}
		if !s.Over || r != c.resigned || s.Aborted != c.aborted || (c.aborted && len(s.Winners) != 0) {
			t.Errorf("game %s after restart: over %v resigned %d aborted %v winners %v", c.id, s.Over, r, s.Aborted, s.Winners)
		}
	}
	if got := lobby(e2); len(got) != 1 || got[0] != listed {
		t.Errorf("lobby after restart: %v, want [%s]", got, listed)
	}
}

// TestReviewAndAnalysis plays a game out and checks its record and the
// analysis of its positions.
func TestReviewAndAnalysis(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	playOut(t, e, id, toks, 4)
	if code := e.do("GET", "/api/games/"+id+"/review", "", nil, nil); code != 409 {
		t.Errorf("review of an unfinished game: %d", code)
	}
	if code := e.do("GET", "/api/games/"+id+"/analysis?move=0", "", nil, nil); code != 409 {
		t.Errorf("analysis of an unfinished game: %d", code)
	}
	playOut(t, e, id, toks, 200)
	st := e.state(id, "")
	var rv Review
	if code := e.do("GET", "/api/games/"+id+"/review", "", nil, &rv); code != 200 {
		t.Fatalf("review: %d", code)
	}
	if len(rv.Turns) != len(st.History) {
		t.Fatalf("review has %d turns, the game %d", len(rv.Turns), len(st.History))
	}
	for i, h := range st.History {
		r := rv.Turns[i]
		if r.Kind != h.Kind || r.Points != h.Points || r.Total != h.Total || (h.Kind == "place" && (r.Move != h.Move || len(r.Tiles) == 0)) || len(r.Rack) == 0 {
			t.Errorf("turn %d: review %+v, history %+v", i, r, h)
		}
	}
	for k := 0; k < st.Moves; k += 5 {
		var an Analysis
		if code := e.do("GET", "/api/games/"+id+"/analysis?move="+itoa(k)+"&n=5", "", nil, &an); code != 200 {
			t.Fatalf("analysis of move %d: %d", k, code)
		}
		// The players took the best score each time: the played move is
		// found and no move beats the best by equity.
		if an.Played == nil || an.Rank < 1 || len(an.Best) == 0 || len(an.Best) > 5 || an.Seat != rv.Turns[k].Seat {
			t.Fatalf("move %d: %+v", k, an)
		}
		for j := 1; j < len(an.Best); j++ {
			if an.Best[j].Equity > an.Best[j-1].Equity {
				t.Errorf("move %d: best moves not in order of equity: %+v", k, an.Best)
			}
		}
		if an.Played.Equity > an.Best[0].Equity {
			t.Errorf("move %d: played %+v beats the best %+v", k, an.Played, an.Best[0])
		}
		if an.Played.Score != rv.Turns[k].Points {
			t.Errorf("move %d: played move scores %d in analysis, %d in the game", k, an.Played.Score, rv.Turns[k].Points)
		}
		// Bingos: placements of the whole rack, best first, none above
		// the best move.
		for j, b := range an.Bingos {
			if len(b.Tiles) != len(an.Rack) || len(an.Rack) != 7 || b.Equity > an.Best[0].Equity || j > 0 && b.Equity > an.Bingos[j-1].Equity {
				t.Errorf("move %d: bingo %d %+v (rack %d tiles, best %.2f)", k, j, b, len(an.Rack), an.Best[0].Equity)
			}
		}
	}
	for _, q := range []string{"", "move=-1", "move=9999", "move=0&n=0", "move=0&n=99", "move=x"} {
		if code := e.do("GET", "/api/games/"+id+"/analysis?"+q, "", nil, nil); code != 400 {
			t.Errorf("analysis?%s: %d, want 400", q, code)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestAnalysisLimit checks that a client asking for analyses faster than
// analysesPerMinute is told to wait.
func TestAnalysisLimit(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	for i := 0; i < analysesPerMinute; i++ {
		// Refused for its query, but counted all the same.
		if code := e.do("GET", "/api/games/"+id+"/analysis?move=x", "", nil, nil); code != 400 {
			t.Fatalf("request %d: %d, want 400", i, code)
		}
	}
	req, _ := http.NewRequest("GET", e.url+"/api/games/"+id+"/analysis?move=0", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("analysis %d over the limit: %d, Retry-After %q", analysesPerMinute+1, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestPageFiles checks that the server serves the embedded page: the
// lobby at "/", a game's page at "/g/ID", its script, words, style and
// the icon browsers ask for at /favicon.ico, each with the page's
// content security policy. (The browser tests fail on anything the
// policy blocks: cspGuard.)
func TestPageFiles(t *testing.T) {
	e := pageEnv(t)
	for _, c := range []struct{ path, ctype, holds string }{
		{"/", "text/html", `<script src="/static/app.js?v=`},
		{"/g/0123456789abcdef", "text/html", `<section id="game"`},
		{"/static/app.js", "javascript", "function typeLetter"},
		{"/static/i18n.js", "javascript", "const STRINGS"},
		{"/static/settings.js", "javascript", "const SETTING_CHOICES"},
		{"/static/style.css", "text/css", "#board"},
		{"/favicon.ico", "image/", ""},
	} {
		resp, err := http.Get(e.url + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), c.ctype) || !bytes.Contains(body, []byte(c.holds)) || len(body) == 0 {
			t.Errorf("GET %s: %d %q, %d bytes", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
		}
		// The page's policy: its own scripts and styles only, and no
		// framing by another site.
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "frame-ancestors 'none'") ||
			strings.Contains(csp, "unsafe") || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: policy %q, X-Frame-Options %q", c.path, csp, resp.Header.Get("X-Frame-Options"))
		}
	}
}
