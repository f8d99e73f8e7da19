package server

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"atril/variant"
)

// TestJSONEncoders checks that the hand-written encoders write what
// encoding/json writes, for every field set and unset and for strings
// that need escapes.
func TestJSONEncoders(t *testing.T) {
	odd := []string{"", "CH", "Ñ", `a"b\c`, "<&>", "tab\there", "\x00\x1f", "bad \xff utf-8", "line\u2028sep", "ŁĹ·L"}
	tiles := []Tile{
		{Letter: "A", Score: 1},
		{Row: intp(0), Col: intp(14), Letter: "Q", Score: 10, Move: intp(3)},
		{Row: intp(7), Col: intp(7), Letter: "e", Blank: true, Move: intp(0)},
		{Letter: "?", Blank: true},
	}
	for _, s := range odd {
		tiles = append(tiles, Tile{Letter: s, Score: -2})
	}
	notes := []Notification{
		{},
		{Seq: 64, Type: "started", Size: 15},
		{Seq: 130, Type: "turn", Seat: intp(0)},
		{Seq: 131, Type: "placed", Seat: intp(1), Move: "8H QUIZ", Tiles: tiles},
		{Seq: 132, Type: "points", Seat: intp(1), Points: intp(0), Total: intp(-5)},
		{Seq: 133, Type: "tiles", Seat: intp(1), Tiles: []Tile{}},
		{Seq: 134, Type: "exchange", Seat: intp(2), Count: 7},
		{Seq: 176, Type: "rejected", Seat: intp(3), Reason: "it is seat 0's turn, not yours"},
		{Seq: 200, Type: "over", Scores: []int{300, -4}, Winners: []int{0, 1},
			Adjustments: []Adjustment{{Seat: 0, Points: 8, Total: 300, Rack: ""}, {Seat: 1, Points: -8, Total: -4, Rack: "ÑÑ?"}}},
		{Seq: 201, Type: "over", Scores: []int{}, Winners: []int{}, Adjustments: []Adjustment{}},
	}
	for _, s := range odd {
		notes = append(notes, Notification{Type: s, Move: s, Reason: s})
	}
	for i, n := range notes {
		want, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := n.appendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("notification %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestStateEncoder checks that writeState's encoder writes the bytes
// encoding/json writes for the same state (the variant's premiums and
// letters as JSON made once), for the states of a game played out, as
// its seats and a spectator see them, and for made-up states with every
// optional field and strings that need escapes.
func TestStateEncoder(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human", Name: "<Ana & Bo>"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	var states []*State
	for k := 0; k < 60; k++ {
		for _, tok := range []string{"", toks[0], toks[1]} {
			states = append(states, e.state(id, tok))
		}
		pub := states[len(states)-3]
		if pub.Over {
			break
		}
		req, _ := bestRequest(t, e.state(id, toks[pub.Turn]))
		if code := e.do("POST", "/api/games/"+id+"/move", toks[pub.Turn], req, nil); code != 200 {
			t.Fatalf("move %d: %d", k, code)
		}
	}
	if !states[len(states)-1].Over {
		t.Fatalf("the game did not end in %d states", len(states))
	}
	staticOf(variant.MustLoad("english"))
	for _, s := range []string{"", "Ñ", `a"b\c`, "<&>", "tab\there", "bad \xff"} {
		states = append(states, &State{ID: s, Variant: "english", Lexicon: s, Seats: []SeatInfo{{Name: s, Kind: s, Level: s}},
			Board: []Tile{{Letter: s, Row: intp(1), Col: intp(2), Move: intp(0)}}, History: []HistEntry{{Kind: s, Move: s, Rack: s, Count: 2}},
			Winners: []int{1}, Abandoned: true, Resigned: intp(0), Aborted: true, Listed: true,
			You: &You{Seat: 1, Rack: []Tile{{Letter: s, Blank: true}}, Unseen: []LetterInfo{{Letter: s, Count: 1}}}})
	}
	states = append(states, &State{Variant: "english"})
	for i, st := range states {
		vs := staticOf(variant.MustLoad("english"))
		want := httptest.NewRecorder()
		writeJSON(want, 200, stateWire{State: st, Premiums: vs.premiumsJSON, Letters: vs.lettersJSON})
		got := httptest.NewRecorder()
		writeState(got, st)
		if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
			t.Fatalf("state %d:\n got %s\nwant %s", i, got.Body.Bytes(), want.Body.Bytes())
		}
		if got.Header().Get("Content-Length") != want.Header().Get("Content-Length") {
			t.Errorf("state %d: Content-Length %s, want %s", i, got.Header().Get("Content-Length"), want.Header().Get("Content-Length"))
		}
	}
}
