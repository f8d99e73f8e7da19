package server

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInfer checks the inference of what a placement told the next
// player: refused before the end and for bad requests, and for the
// first placements of a finished game, chances that are chances, the
// number of tiles kept and what was really kept.
func TestInfer(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	playOut(t, e, id, toks, 3)
	if code := e.do("GET", "/api/games/"+id+"/infer?move=0", "", nil, nil); code != 409 {
		t.Errorf("inference in an unfinished game: %d", code)
	}
	playOut(t, e, id, toks, 200)
	var rv Review
	if code := e.do("GET", "/api/games/"+id+"/review", "", nil, &rv); code != 200 {
		t.Fatalf("review: %d", code)
	}
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"move=x", "move: want the 0-based number of a move of the game"},
		{"move=-1", "move: want the 0-based number of a move of the game"},
		{"move=900", "move 900: the game has moves 0 to"},
		{"move=0&tau=-1", "tau: want points from 0 to 50"},
		{"move=0&tau=51", "tau: want points from 0 to 50"},
		{"move=0&tau=NaN", "tau: want points from 0 to 50"},
	} {
		var eb errorBody
		if code := e.do("GET", "/api/games/"+id+"/infer?"+tc.query, "", nil, &eb); code != 400 || !strings.HasPrefix(eb.Error, tc.want) {
			t.Errorf("%s: %d %q, want 400 %q", tc.query, code, eb.Error, tc.want)
		}
	}
	moves, checked := 0, 0
	for k, turn := range rv.Turns {
		if turn.Kind == "place" && checked < 3 {
			checked++
			var inf Inference
			if code := e.do("GET", "/api/games/"+id+"/infer?move="+itoa(moves)+"&tau=3", "", nil, &inf); code != 200 {
				t.Fatalf("inference of move %d: %d", moves, code)
			}
			if inf.Move != moves || inf.Seat != turn.Seat || inf.Observer != 1-turn.Seat || inf.Tau != 3 {
				t.Errorf("move %d: %+v", moves, inf)
			}
			if played := len(turn.Tiles); inf.Kept != len(turn.Rack)-played || utf8.RuneCountInString(inf.Truth) != inf.Kept {
				t.Errorf("move %d (turn %d): kept %d %q from a rack of %d, %d played", moves, k, inf.Kept, inf.Truth, len(turn.Rack), played)
			}
			if (len(inf.Letters) == 0) != (inf.Kept == 0) || inf.Tried == 0 || inf.Consistent < 0 || inf.Consistent > 1 {
				t.Errorf("move %d: %+v", moves, inf)
			}
			for _, l := range inf.Letters {
				if l.Held < 0 || l.Held > 1 || l.Prior <= 0 || l.Prior > 1 || l.Tile.Letter == "" {
					t.Errorf("move %d: letter %+v of %+v", moves, l, inf)
				}
			}
			sum := 0.0
			for _, l := range inf.Leaves {
				sum += l.Share
				if utf8.RuneCountInString(l.Leave) != inf.Kept {
					t.Errorf("move %d: leave %q of %d tiles kept", moves, l.Leave, inf.Kept)
				}
			}
			if sum > 1.0001 || inf.Consistent > 0 && len(inf.Leaves) == 0 {
				t.Errorf("move %d: leaves %+v", moves, inf.Leaves)
			}
		}
		if turn.Kind == "place" || turn.Kind == "exchange" || turn.Kind == "pass" || turn.Kind == "withdrawn" {
			moves++
		}
	}
	if moves < 4 {
		t.Fatalf("%d moves", moves)
	}
	// The last move was made with the bag empty.
	var eb errorBody
	if code := e.do("GET", "/api/games/"+id+"/infer?move="+itoa(moves-1), "", nil, &eb); code != 400 || !strings.Contains(eb.Error, "the bag empty") && !strings.Contains(eb.Error, "not a placement") {
		t.Errorf("the last move: %d %q", code, eb.Error)
	}
}
