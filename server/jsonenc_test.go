package server

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"reflect"
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
		notes = append(notes, Notification{Type: s, Move: s, Reason: s, Game: s, Text: s})
	}
	full := Notification{Seq: 1, Type: "t", Seat: intp(1), Size: 15, Move: "m", Tiles: []Tile{fullTile}, Points: intp(2), Total: intp(3),
		Count: 4, Reason: "r", Game: "g", Text: "x", Scores: []int{5}, Adjustments: []Adjustment{{Seat: 1, Points: 2, Total: 3, Rack: "A"}}, Winners: []int{1},
		Valid: true, Words: []string{"QX", "<&>"}}
	allSet(t, reflect.ValueOf(full), "Notification")
	notes = append(notes, full)
	for _, r := range []MoveResponse{{}, {Move: "8H QUIZ", Score: 64, Over: true}, {Move: "<&>Ñ", Score: -1}} {
		want := httptest.NewRecorder()
		writeJSON(want, 200, r)
		if got := append(r.appendJSON(nil), '\n'); !bytes.Equal(got, want.Body.Bytes()) {
			t.Errorf("move response:\n got %s\nwant %s", got, want.Body.Bytes())
		}
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
			Winners: []int{1}, Abandoned: true, Resigned: intp(0), Aborted: true, Listed: true, Kibitz: []KibitzLine{{Name: s, Text: s}}, Notes: []GameNote{{Entry: 1, Seat: 0, Text: s}},
			You: &You{Seat: 1, Rack: []Tile{{Letter: s, Blank: true}}, Unseen: []LetterInfo{{Letter: s, Count: 1}}, Rematch: s, Chat: []ChatLine{{Text: s}, {Seat: 1, Text: s}}}})
	}
	full := &State{ID: "g1", Variant: "english", Lexicon: "en", Size: 15, RackSize: 7, Start: [2]int{7, 7},
		Premiums: []string{"tw"}, Letters: []LetterInfo{{Letter: "A", Score: 1, Count: 9}},
		Seats:   []SeatInfo{{Name: "a", Kind: "computer", Level: "adept", Taken: true, Score: 3, Tiles: 7, Account: true, Rating: 1612, Provisional: true, Invited: true, InvitedBy: "Ana", RatingMin: 1400, RatingMax: 1800}},
		Started: true, Over: true, Turn: 1, Bag: 3, Board: []Tile{fullTile},
		History:   []HistEntry{{Seat: 1, Kind: "place", Move: "8H QI", Count: 2, Points: 11, Total: 20, Rack: "AB", Words: []string{"QX", "Ñ"}}},
		Challenge: "double", Challengeable: intp(0), AwaitingChallenge: true,
		Rated: true, Pace: PaceBlitz, RatingChanges: []RatingChange{{Seat: 1, Before: 1500, After: 1662}},
		Tournament: &TournamentRef{ID: "00ff00ff00ff00ff", Name: "Open \"A\"", Round: 2}, Imported: true, Takebacks: 4,
		Winners: []int{0}, Abandoned: true, Resigned: intp(1), TimedOut: intp(0), Aborted: true, Listed: true, Moves: 5, Expected: 2, Connected: 2, Watching: 3, WatchingNames: []string{"Ana", "<Bo>"}, Seq: 130, Kibitz: []KibitzLine{{Name: "Bo", Text: "nice <bingo>"}}, Notes: []GameNote{{Entry: 2, Seat: 1, Text: "too \"greedy\" & <sad>"}, {Entry: 3, Seat: 1, Text: "é"}},
		Clock: &ClockState{Seconds: []int{0, 600}, Overtime: []int{0, 60}, Increment: []int{0, 5}, PerMove: []int{86400, 0}, LeftMs: []int64{0, -1234}, Running: 1},
		You:   &You{Seat: 1, Rack: []Tile{fullTile}, Unseen: []LetterInfo{{Letter: "B", Score: 3, Count: 2}}, Rematch: "00ff00ff00ff00ff", Chat: []ChatLine{{Seat: 1, Text: "gg <3"}}}}
	allSet(t, reflect.ValueOf(full), "State")
	states = append(states, full, &State{Variant: "english"})
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

// fastMoveSeeds are move requests as clients send them, and some that
// the fast reader must give up on or read exactly.
var fastMoveSeeds = []string{
	`{"kind":"place","tiles":[{"row":7,"col":7,"letter":"A"},{"row":7,"col":8,"letter":"T","blank":true}]}`,
	` { "kind" : "place" , "tiles" : [ { "letter" : "CH" , "blank" : false , "col" : 0 , "row" : 14 } ] } `,
	`{"kind":"exchange","exchange":["A","?","Z"]}`, `{"kind":"pass"}`, `{"notation":"8H CAT"}`,
	`{"kind":"place","tiles":[]}`, `{"kind":"exchange","exchange":[]}`, `{"kind":"place","tiles":[{}]}`,
	`{}`, `{"kind":"place","tiles":[{"row":-1,"col":-0,"letter":""}]}`,
	// Given up on (encoding/json decides):
	`{"Kind":"pass"}`, `{"kind":"pass","kind":"place"}`, `{"kind":"pass","extra":1}`, `{"kind":"p\u0061ss"}`,
	`{"kind":"place","tiles":[{"row":1e1}]}`, `{"kind":"place","tiles":[{"row":07}]}`, `{"kind":"place","tiles":null}`,
	`{"kind":"pass"} {}`, `{"kind":"pass"}x`, `{"kind":"Ñ"}`, `[]`, ``, `{"kind":"place","tiles":[{"row":1234567890}]}`,
}

// TestFastMoveRequest checks that the fast reader reads the requests
// clients send (so that it is used) and gives up on the others.
func TestFastMoveRequest(t *testing.T) {
	for i, s := range fastMoveSeeds {
		_, ok := fastMoveRequest([]byte(s))
		if want := i < 10; ok != want {
			t.Errorf("%s: read %v, want %v", s, ok, want)
		}
	}
}

// FuzzFastMoveRequest checks that what the fast reader of move requests
// reads, encoding/json (unknown fields refused) reads alike.
func FuzzFastMoveRequest(f *testing.F) {
	for _, s := range fastMoveSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := fastMoveRequest(data)
		if !ok {
			return
		}
		var want moveRequest
		if err := decodeJSON(data, &want); err != nil {
			t.Fatalf("%q: read as %+v, but encoding/json refuses it: %v", data, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: read as %+v, encoding/json reads %+v", data, got, want)
		}
	})
}

// fullTile has every field set.
var fullTile = Tile{Row: intp(1), Col: intp(2), Letter: "Q", Blank: true, Score: 10, Move: intp(4)}

// allSet fails unless every field of v, and of the structs it holds, is
// set: a field added to the types the hand-written encoders write must
// be added to the tests' values, and so to the encoders.
func allSet(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			t.Errorf("%s is not set", path)
			return
		}
		if v.Elem().Kind() == reflect.Struct {
			allSet(t, v.Elem(), path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.IsExported() {
				allSet(t, v.Field(i), path+"."+f.Name)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			t.Errorf("%s is empty", path)
		}
		for i := range v.Len() {
			if v.Index(i).Kind() == reflect.Struct {
				allSet(t, v.Index(i), path+"[]")
			}
		}
	default:
		if v.IsZero() {
			t.Errorf("%s is not set", path)
		}
	}
}
