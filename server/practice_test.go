package server

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// placedOf turns a candidate's tiles into a request's.
func placedOf(c Candidate) []PlacedTile {
	out := make([]PlacedTile, len(c.Tiles))
	for i, tl := range c.Tiles {
		out[i] = PlacedTile{Row: *tl.Row, Col: *tl.Col, Letter: tl.Letter, Blank: tl.Blank}
	}
	return out
}

// TestPractice plays a game out by score alone (which gives up equity
// the leave table sees) and practises its mistakes: the summary lists
// them; a mistake's position is the mover's, with the rack held then;
// the best move is correct, the move played is not and gives up what the
// summary says; a play the rules refuse shows nothing; an unfinished
// game and a move out of range are refused.
func TestPractice(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	playOut(t, e, id, toks, 1)
	if code := e.do("GET", "/api/games/"+id+"/practice/0", "", nil, nil); code != 409 {
		t.Errorf("practice in a game being played: %d, want 409", code)
	}
	playOut(t, e, id, toks, 200)
	var sum Summary
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	var rv Review
	if code := e.do("GET", "/api/games/"+id+"/review", "", nil, &rv); code != 200 {
		t.Fatalf("review: %d", code)
	}
	var racks []string // by move
	for _, tu := range rv.Turns {
		switch tu.Kind {
		case "place", "exchange", "pass":
			rack := ""
			for _, tl := range tu.Rack {
				rack += map[bool]string{true: "?", false: tl.Letter}[tl.Blank]
			}
			racks = append(racks, sortedLetters(rack))
		}
	}
	var mistakes []Miss
	for _, ss := range sum.Seats {
		for i, m := range ss.Mistakes {
			if m.Lost < 5 || (i > 0 && m.Move <= ss.Mistakes[i-1].Move) {
				t.Errorf("seat %d's mistakes: %+v", ss.Seat, ss.Mistakes)
			}
		}
		mistakes = append(mistakes, ss.Mistakes...)
	}
	if len(mistakes) == 0 {
		t.Fatal("a game played by score alone made no mistake by equity")
	}
	checked := 0
	for _, m := range mistakes {
		path := fmt.Sprintf("/api/games/%s/practice/%d", id, m.Move)
		var info PracticeInfo
		if code := e.do("GET", path, "", nil, &info); code != 200 {
			t.Fatalf("%s: %d", path, code)
		}
		rack := ""
		for _, tl := range info.State.You.Rack {
			rack += map[bool]string{true: "?", false: tl.Letter}[tl.Blank]
		}
		if info.Move != m.Move || info.Played != m.Played || sortedLetters(rack) != racks[m.Move] || info.Moves != len(racks) || info.CGP == "" {
			t.Errorf("%s: move %d, played %q, rack %s (want %d, %q, %s)", path, info.Move, info.Played, rack, m.Move, m.Played, racks[m.Move])
		}
		var shown PracticeAnswer
		if code := e.do("POST", path+"/answer", "", map[string]any{"reveal": true}, &shown); code != 200 || len(shown.Best) == 0 ||
			shown.Played.Move != m.Played || shown.PlayedLost != m.Lost || shown.Correct {
			t.Fatalf("%s reveal: %d %+v (want played %q losing %v)", path, code, shown, m.Played, m.Lost)
		}
		best := shown.Best[0]
		if best.Kind != "place" {
			continue
		}
		var pv Preview
		if code := e.do("POST", path+"/preview", "", map[string]any{"tiles": placedOf(best)}, &pv); code != 200 || !pv.OK || pv.Score != best.Score {
			t.Errorf("%s preview of the best: %d %+v", path, code, pv)
		}
		var right PracticeAnswer
		if code := e.do("POST", path+"/answer", "", map[string]any{"tiles": placedOf(best)}, &right); code != 200 ||
			!right.Correct || right.Rank != 1 || right.Lost != 0 || right.Equity != best.Equity {
			t.Errorf("%s the best: %d %+v", path, code, right)
		}
		if shown.Played.Kind == "place" {
			var wrong PracticeAnswer
			if code := e.do("POST", path+"/answer", "", map[string]any{"tiles": placedOf(shown.Played)}, &wrong); code != 200 ||
				wrong.Correct || wrong.Lost != m.Lost || wrong.Rank <= 1 {
				t.Errorf("%s the move played: %d %+v", path, code, wrong)
			}
		}
		// Off the board's rules: refused, with nothing of the solution.
		bad := placedOf(best)
		bad[0].Row = (bad[0].Row + 7) % 15
		var refused PracticeAnswer
		if code := e.do("POST", path+"/answer", "", map[string]any{"tiles": bad}, &refused); code != 200 || refused.OK || refused.Reason == "" || len(refused.Best) != 0 {
			t.Errorf("%s a refused play: %d %+v", path, code, refused)
		}
		// An exchange and a pass are answers too; an exchange of tiles
		// the rack lacks is refused.
		var pass PracticeAnswer
		if code := e.do("POST", path+"/answer", "", map[string]any{"kind": "pass"}, &pass); code != 200 || !pass.OK || pass.Move != "-" ||
			pass.Rank < 1 || pass.Lost < 0 || len(pass.Best) == 0 {
			t.Errorf("%s a pass: %d %+v", path, code, pass)
		}
		var ex PracticeAnswer
		if code := e.do("POST", path+"/answer", "", map[string]any{"kind": "exchange", "exchange": []string{info.State.You.Rack[0].Letter}}, &ex); code != 200 ||
			(ex.OK != (info.State.Bag >= 7)) || (ex.OK && (ex.Rank < 1 || !strings.HasPrefix(ex.Move, "-"))) {
			t.Errorf("%s an exchange (bag %d): %d %+v", path, info.State.Bag, code, ex)
		}
		var none PracticeAnswer
		if code := e.do("POST", path+"/answer", "", map[string]any{"kind": "exchange", "exchange": []string{"Q", "Q", "Q"}}, &none); code != 200 || none.OK || none.Reason == "" || len(none.Best) != 0 {
			t.Errorf("%s an exchange of tiles not held: %d %+v", path, code, none)
		}
		if code := e.do("POST", path+"/answer", "", map[string]any{"notation": "-"}, nil); code != 400 {
			t.Errorf("%s notation: %d, want 400", path, code)
		}
		checked++
		if checked == 2 {
			break
		}
	}
	if checked == 0 {
		t.Error("no mistake whose best move is a placement")
	}
	for _, tc := range []struct {
		k    string
		code int
	}{{fmt.Sprint(len(racks)), 400}, {"-1", 400}, {"x", 400}} {
		if code := e.do("GET", "/api/games/"+id+"/practice/"+tc.k, "", nil, nil); code != tc.code {
			t.Errorf("practice/%s: %d, want %d", tc.k, code, tc.code)
		}
	}
}

// sortedLetters is s's characters in order.
func sortedLetters(s string) string {
	rs := []rune(s)
	slices.Sort(rs)
	return string(rs)
}

// TestPracticeWithdrawn: a placement a challenge took back has nothing
// to practise: its position, preview and answer are all refused, and the
// move after it is practised as any other.
func TestPracticeWithdrawn(t *testing.T) {
	e := newEnv(t, nil)
	id := e.createRule("double", SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Bo"})
	a, b := e.join(id), e.join(id)
	phony := phonyOpening(t, e.state(id, a.Token))
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, phony, nil); code != 200 {
		t.Fatalf("phony move: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/challenge", b.Token, nil, nil); code != 200 {
		t.Fatalf("challenge: %d", code)
	}
	req, _ := bestRequest(t, e.state(id, b.Token))
	if code := e.do("POST", "/api/games/"+id+"/move", b.Token, req, nil); code != 200 {
		t.Fatalf("Bo's move: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/resign", a.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	for _, tc := range []struct{ method, path string }{
		{"GET", "/practice/0"}, {"POST", "/practice/0/preview"}, {"POST", "/practice/0/answer"},
	} {
		var body any
		if tc.method == "POST" {
			body = map[string]any{"tiles": phony["tiles"]}
		}
		if code := e.do(tc.method, "/api/games/"+id+tc.path, "", body, nil); code != 409 {
			t.Errorf("%s %s of a withdrawn move: %d, want 409", tc.method, tc.path, code)
		}
	}
	var info PracticeInfo
	if code := e.do("GET", "/api/games/"+id+"/practice/1", "", nil, &info); code != 200 || info.Seat != 1 || info.Played == "" {
		t.Errorf("the move after it: %d %+v", code, info)
	}
}
