package server

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// emptyCGP is an empty English board with racks and scores.
func emptyCGP(racks, scores string) string {
	return strings.TrimSuffix(strings.Repeat("15/", 15), "/") + " " + racks + " " + scores + " 0"
}

// TestPosition sets up positions of the analysis board from CGP lines,
// previews, plays and analyses them, and refuses bad ones.
func TestPosition(t *testing.T) {
	e := newEnv(t, nil)
	var p PositionInfo
	if code := e.do("POST", "/api/position", "", PositionRequest{CGP: emptyCGP("AEINRST/", "0/0"), Lexicon: "en-sowpods"}, &p); code != 200 {
		t.Fatalf("empty board: %d", code)
	}
	st := p.State
	if p.Lexicon != "en-sowpods" || !strings.HasSuffix(p.CGP, " AEINRST/ 0/0 0 lex en-sowpods;") || st == nil || st.You == nil ||
		len(st.You.Rack) != 7 || st.Bag != 100-14 || len(st.Seats) != 2 || st.Turn != 0 || len(st.Board) != 0 || st.Seats[1].Tiles != 7 {
		t.Fatalf("empty board: %+v, state %+v", p, st)
	}
	// The lex opcode names the list, in full or by the part after its
	// language.
	var q PositionInfo
	for _, lex := range []string{"SOWPODS", "CSW21", "en-sowpods"} {
		if code := e.do("POST", "/api/position", "", PositionRequest{CGP: emptyCGP("AEINRST/", "0/0") + " lex " + lex + ";"}, &q); code != 200 || q.CGP != p.CGP {
			t.Errorf("lex %s: %d %q, want %q", lex, code, q.CGP, p.CGP)
		}
	}
	// A rack set, and one drawn: the same from the same seed, and only
	// tiles the position leaves.
	if code := e.do("POST", "/api/position", "", PositionRequest{CGP: p.CGP, Rack: ptr("qu?")}, &q); code != 200 ||
		!strings.Contains(q.CGP, " QU?/ ") || len(q.State.You.Rack) != 3 {
		t.Errorf("rack QU?: %d %q", code, q.CGP)
	}
	var d1, d2 PositionInfo
	full := emptyCGP("ZZ/", "0/0")
	if code := e.do("POST", "/api/position", "", PositionRequest{CGP: emptyCGP("Z/", "0/0"), Lexicon: "en-sowpods", Draw: true, Seed: 9}, &d1); code != 200 ||
		len(d1.State.You.Rack) != 7 || e.do("POST", "/api/position", "", PositionRequest{CGP: emptyCGP("Z/", "0/0"), Lexicon: "en-sowpods", Draw: true, Seed: 9}, &d2) != 200 || d1.CGP != d2.CGP {
		t.Errorf("draws from seed 9: %q and %q", d1.CGP, d2.CGP)
	}
	if strings.Count(strings.Fields(d1.CGP)[1], "Z") != 1 {
		t.Errorf("a draw to a rack holding the set's one Z: %q", d1.CGP)
	}
	for _, tc := range []struct {
		name string
		req  PositionRequest
		code int
		says string
	}{
		{"no line", PositionRequest{Lexicon: "en-sowpods"}, 400, "cgp"},
		{"no list", PositionRequest{CGP: emptyCGP("A/", "0/0")}, 422, "word list"},
		{"unknown list", PositionRequest{CGP: emptyCGP("A/", "0/0"), Lexicon: "xx-none"}, 422, "xx-none"},
		{"short board", PositionRequest{CGP: "15/15/15/15/15 A/ 0/0 0", Lexicon: "en-sowpods"}, 422, "rows"},
		{"two Zs", PositionRequest{CGP: full, Lexicon: "en-sowpods"}, 422, "Z"},
		{"rack with digits", PositionRequest{CGP: p.CGP, Rack: ptr("A1")}, 422, "rack"},
		{"bad letter", PositionRequest{CGP: p.CGP, Rack: ptr("AÑ")}, 422, "rack"},
		{"missing fields", PositionRequest{CGP: "15/15", Lexicon: "en-sowpods"}, 422, "missing"},
		{"a score too high", PositionRequest{CGP: emptyCGP("A/", "0/1000001"), Lexicon: "en-sowpods"}, 422, "score 2"},
		{"an unknown lex opcode", PositionRequest{CGP: emptyCGP("A/", "0/0") + " lex NWL20;"}, 422, "NWL20"},
	} {
		var eb errorBody
		if code := e.do("POST", "/api/position", "", tc.req, &eb); code != tc.code || !strings.Contains(eb.Error, tc.says) {
			t.Errorf("%s: %d %q, want %d saying %q", tc.name, code, eb.Error, tc.code, tc.says)
		}
	}

	// The board edited: a word put (a blank in lowercase, a letter on
	// the board played through), squares cleared; a word the set has no
	// tiles for, or off the board, refused.
	var ed PositionInfo
	if code := e.do("POST", "/api/position", "", PositionRequest{CGP: p.CGP, Put: "8G QuIZ"}, &ed); code != 200 ||
		!strings.HasPrefix(ed.CGP, "15/15/15/15/15/15/15/6QuIZ5/") || len(ed.State.Board) != 4 {
		t.Fatalf("put 8G QuIZ: %d %q", code, ed.CGP)
	}
	if code := e.do("POST", "/api/position", "", PositionRequest{CGP: ed.CGP, Put: "G8 .AT"}, &q); code != 200 || len(q.State.Board) != 6 {
		t.Errorf("put G8 .AT through the Q: %d %q", code, q.CGP)
	}
	if code := e.do("POST", "/api/position", "", PositionRequest{CGP: ed.CGP, Clear: "8G h8"}, &q); code != 200 ||
		!strings.HasPrefix(q.CGP, "15/15/15/15/15/15/15/8IZ5/") {
		t.Errorf("clear 8G h8: %d %q", code, q.CGP)
	}
	for _, tc := range []struct {
		name       string
		put, clear string
	}{
		{"a second Z", "9A ZAX", ""},
		{"off the board", "8M QUIZZ", ""},
		{"not a placement", "-AB", ""},
		{"on a tile", "8G ZZZZ", ""},
		{"no square", "", "X99"},
	} {
		var eb errorBody
		if code := e.do("POST", "/api/position", "", PositionRequest{CGP: ed.CGP, Put: tc.put, Clear: tc.clear}, &eb); code != 422 {
			t.Errorf("%s: %d %q, want 422", tc.name, code, eb.Error)
		}
	}

	// The best opening by the static analysis previews and plays.
	var an AnalyzeResponse
	if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{CGP: p.CGP, Top: 3}, &an); code != 200 || an.Phase != "static" || len(an.Candidates) == 0 {
		t.Fatalf("analysis of the opening: %d %+v", code, an)
	}
	if c := an.Candidates[0]; c.Move != an.Best || c.Kind != "place" || c.Score <= 0 || len(c.Tiles) == 0 || len(c.Leave)+len(c.Tiles) != 7 || c.Static < float64(c.Score)-30 {
		t.Errorf("the best candidate: %+v", c)
	}
	var after PositionInfo
	if code := e.do("POST", "/api/position/play", "", PositionRequest{CGP: p.CGP, Move: &moveRequest{Notation: an.Best}}, &after); code != 200 || after.Played == nil {
		t.Fatalf("play %s: %d", an.Best, code)
	}
	pl := after.Played
	if c := an.Candidates[0]; pl.Score != c.Score || len(pl.Tiles) != len(c.Tiles) {
		t.Errorf("played %+v, the analysis said %+v", pl, c)
	}
	var pv Preview
	tiles := make([]PlacedTile, len(pl.Tiles))
	for i, x := range pl.Tiles {
		tiles[i] = PlacedTile{Row: *x.Row, Col: *x.Col, Letter: x.Letter, Blank: x.Blank}
	}
	if code := e.do("POST", "/api/position/preview", "", PositionRequest{CGP: p.CGP, Tiles: tiles}, &pv); code != 200 || !pv.OK || pv.Score != pl.Score || pv.Move != an.Best {
		t.Errorf("preview of %s: %d %+v, played %+v", an.Best, code, pv, pl)
	}
	as := after.State
	if pl.Move != an.Best || pl.Kind != "place" || pl.Score <= 0 || len(as.Board) != len(pl.Tiles) || as.Seats[0].Score != 0 || as.Seats[1].Score != pl.Score ||
		len(as.You.Rack) != 0 || as.Seats[1].Tiles != 7 {
		t.Errorf("after %s: played %+v, seats %+v, rack %d tiles", an.Best, pl, as.Seats, len(as.You.Rack))
	}
	// The mover keeps what it did not play (it has not drawn); the next
	// player's rack is not known.
	kept := 7 - len(pl.Tiles)
	if f := strings.Fields(after.CGP); len(f) < 4 || !strings.HasPrefix(f[1], "/") || len(f[1]) != 1+kept || f[3] != "0" {
		t.Errorf("the position after %s: %q", an.Best, after.CGP)
	}
	for _, tc := range []struct {
		name string
		mv   *moveRequest
		code int
	}{
		{"off the start", &moveRequest{Notation: "A1 AE"}, 422},
		{"not on the rack", &moveRequest{Notation: "8H QI"}, 422},
		{"no move", nil, 400},
		{"bad kind", &moveRequest{Kind: "jump"}, 400},
	} {
		if code := e.do("POST", "/api/position/play", "", PositionRequest{CGP: p.CGP, Move: tc.mv}, nil); code != tc.code {
			t.Errorf("play %s: %d, want %d", tc.name, code, tc.code)
		}
	}
	// A pass counts a scoreless turn and rotates the seats.
	if code := e.do("POST", "/api/position/play", "", PositionRequest{CGP: p.CGP, Move: &moveRequest{Kind: "pass"}}, &q); code != 200 ||
		!strings.Contains(q.CGP, " /AEINRST 0/0 1 ") {
		t.Errorf("pass: %d %q", code, q.CGP)
	}
	if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{CGP: p.CGP, Game: "x"}, nil); code != 400 {
		t.Errorf("an analysis of a game and a line: %d, want 400", code)
	}
}

// TestGamePosition writes a game's positions as CGP lines, under the
// rules of its analysis, and checks that the analysis of the line finds
// what the analysis of the game's position finds.
func TestGamePosition(t *testing.T) {
	e := newEnv(t, nil)
	id, toks := twoPeoplePlayed(t, e, 2)
	var gp GamePosition
	if code := e.do("GET", "/api/games/"+id+"/position", "", nil, nil); code != 403 {
		t.Errorf("unfinished game, no token: %d, want 403", code)
	}
	on := e.state(id, "").Turn
	if code := e.do("GET", "/api/games/"+id+"/position", toks[1-on], nil, nil); code != 409 {
		t.Errorf("unfinished game, the seat not on turn: %d, want 409", code)
	}
	if code := e.do("GET", "/api/games/"+id+"/position", toks[on], nil, &gp); code != 200 {
		t.Fatalf("unfinished game, own seat: %d", code)
	}
	st := e.state(id, toks[on])
	f := strings.Fields(gp.CGP)
	racks := strings.Split(f[1], "/")
	if gp.Turn != 2 || gp.Lexicon != "en-sowpods" || len(racks) != 2 || len(racks[0]) != len(st.You.Rack) || racks[1] != "" {
		t.Errorf("unfinished game's position: %+v (rack %d tiles)", gp, len(st.You.Rack))
	}
	playOut(t, e, id, toks, 300)
	final := e.state(id, "")
	var moves []HistEntry
	for _, h := range final.History {
		if h.Kind == "place" || h.Kind == "exchange" || h.Kind == "pass" {
			moves = append(moves, h)
		}
	}
	// The last move played on the board of the line before it ends the
	// game as it did, with the same final scores.
	last := len(moves) - 1
	if code := e.do("GET", fmt.Sprintf("/api/games/%s/position?turn=%d", id, last), "", nil, &gp); code != 200 {
		t.Fatalf("the last turn's position: %d", code)
	}
	mv := &moveRequest{Notation: moves[last].Move}
	if moves[last].Kind == "pass" {
		mv = &moveRequest{Kind: "pass"}
	}
	var end PositionInfo
	if code := e.do("POST", "/api/position/play", "", PositionRequest{CGP: gp.CGP, Move: mv}, &end); code != 200 || !end.Over || !end.State.Over {
		t.Fatalf("the last move (%s) on its line: %d, over %v", moves[last].Move, code, end.Over)
	}
	mover := moves[last].Seat
	if got, want := []int{end.State.Seats[0].Score, end.State.Seats[1].Score}, []int{final.Seats[1-mover].Score, final.Seats[mover].Score}; !slices.Equal(got, want) {
		t.Errorf("the final scores from the line: %v, the game's (the same order) %v", got, want)
	}
	// A rack drawn at any turn: the player on turn draws first, as in a
	// game, so it holds a full rack while the tiles not on the board fill
	// one.
	for k := 0; k < len(moves); k++ {
		var kp GamePosition
		if code := e.do("GET", fmt.Sprintf("/api/games/%s/position?turn=%d", id, k), "", nil, &kp); code != 200 {
			t.Fatalf("turn %d: %d", k, code)
		}
		var drawn PositionInfo
		if code := e.do("POST", "/api/position", "", PositionRequest{CGP: kp.CGP, Rack: ptr(""), Draw: true, Seed: uint64(k + 1)}, &drawn); code != 200 {
			t.Fatalf("turn %d, a rack drawn: %d", k, code)
		}
		off := 100 - len(drawn.State.Board)
		if got := len(drawn.State.You.Rack); got != min(7, off) || drawn.State.Seats[1].Tiles != min(7, off-got) {
			t.Errorf("turn %d: %d tiles off the board; drawn %d, the other rack %d", k, off, got, drawn.State.Seats[1].Tiles)
		}
	}
	for _, q := range []string{"?turn=x", "?turn=1000", "?turn=-1"} {
		if code := e.do("GET", "/api/games/"+id+"/position"+q, "", nil, nil); code != 400 && code != 422 {
			t.Errorf("position %s: %d, want 400 or 422", q, code)
		}
	}
	if code := e.do("GET", "/api/games/"+id+"/position?turn=3", "", nil, &gp); code != 200 || gp.Turn != 3 {
		t.Fatalf("finished game, turn 3: %d %+v", code, gp)
	}
	three := 3
	var fromGame, fromLine AnalyzeResponse
	if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{Game: id, Turn: &three, Top: 5}, &fromGame); code != 200 {
		t.Fatalf("analysis of turn 3: %d", code)
	}
	if code := e.do("POST", "/api/analyze", "", AnalyzeRequest{CGP: gp.CGP, Top: 5}, &fromLine); code != 200 {
		t.Fatalf("analysis of turn 3's line: %d", code)
	}
	if fromGame.Best != fromLine.Best || len(fromGame.Candidates) != len(fromLine.Candidates) {
		t.Fatalf("turn 3: the game's analysis %+v, the line's %+v", fromGame, fromLine)
	}
	for i, c := range fromGame.Candidates {
		if fromLine.Candidates[i].Move != c.Move || fromLine.Candidates[i].Static != c.Static {
			t.Errorf("turn 3, candidate %d: the game's %+v, the line's %+v", i, c, fromLine.Candidates[i])
		}
	}
}

func ptr[T any](x T) *T { return &x }
