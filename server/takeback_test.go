package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// positionOf is what a seat sees of a position: the board, its rack (as
// a multiset), the scores, the bag, the seat on turn and the history.
func positionOf(t *testing.T, st *State) string {
	t.Helper()
	var rack []string
	if st.You != nil {
		for _, tl := range st.You.Rack {
			rack = append(rack, fmt.Sprintf("%s%v", tl.Letter, tl.Blank))
		}
	}
	slices.Sort(rack)
	scores := []int{}
	for _, s := range st.Seats {
		scores = append(scores, s.Score)
	}
	b, err := json.Marshal([]any{st.Board, rack, scores, st.Bag, st.Turn, st.Moves, st.History})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitMoves polls the game until it has n moves.
func (e *testEnv) waitMoves(id string, n int) *State {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := e.state(id, "")
		if st.Moves >= n {
			return st
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("game %s: %d moves after 30 s, waiting for %d", id, st.Moves, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTakeback: in a casual game against the computer alone, the person
// takes back their latest move and the computer's reply, back to the
// very position they moved from (the same rack and bag, so the same
// play draws the same tiles again); the count shows in the state; a
// restart replays it; and a takeback is refused before a first move,
// after the end, in a game with another person and without the seat's
// token, each with a clear error and nothing changed.
func TestTakeback(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := e.join(id)
	var eb errorBody
	if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, &eb); code != 409 || !strings.Contains(eb.Error, "nothing to take back") {
		t.Errorf("a takeback before any move: %d %q", code, eb.Error)
	}
	start := e.state(id, a.Token)
	req, _ := bestRequest(t, start)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	e.waitMoves(id, 2)
	after2 := e.state(id, a.Token)
	var back State
	if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, &back); code != 200 {
		t.Fatalf("takeback: %d", code)
	}
	if got, want := positionOf(t, &back), positionOf(t, start); got != want || back.Takebacks != 1 {
		t.Errorf("after the takeback (%d counted):\n got %s\nwant %s", back.Takebacks, got, want)
	}
	// The same play again: the same tiles come, the computer the same
	// reply.
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("the move again: %d", code)
	}
	e.waitMoves(id, 2)
	if got, want := positionOf(t, e.state(id, a.Token)), positionOf(t, after2); got != want {
		t.Errorf("the same move again:\n got %s\nwant %s", got, want)
	}
	// Taken back at once, while the computer may be thinking: its
	// choice is dropped, and the turn stays with the person.
	if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, &back); code != 200 {
		t.Fatalf("the second takeback: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("the move a third time: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, &back); code != 200 {
		t.Fatalf("a takeback right after the move: %d", code)
	}
	time.Sleep(300 * time.Millisecond)
	if got, want := positionOf(t, e.state(id, a.Token)), positionOf(t, start); got != want {
		t.Errorf("after a takeback while the computer thought:\n got %s\nwant %s", got, want)
	}
	// A restart replays the log to the same state.
	e = e.restartSame(st0, id, e.state(id, ""))
	if st := e.state(id, a.Token); st.Takebacks != 3 || positionOf(t, st) != positionOf(t, start) {
		t.Errorf("after a restart: %d takebacks, position %s", st.Takebacks, positionOf(t, st))
	}

	for _, tc := range []struct {
		name string
		game func() (string, string)
		code int
		want string
	}{
		{"without the seat's token", func() (string, string) { return id, "" }, 401, ""},
		{"a game with another person", func() (string, string) {
			pid, toks := twoPeoplePlayed(t, e, 2)
			return pid, toks[0]
		}, 409, "against the computer alone"},
		{"a game over", func() (string, string) {
			if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
				t.Fatalf("move: %d", code)
			}
			if code := e.do("POST", "/api/games/"+id+"/resign", a.Token, nil, nil); code != 200 {
				t.Fatalf("resign: %d", code)
			}
			return id, a.Token
		}, 409, "the game is over"},
	} {
		g, tok := tc.game()
		before := e.state(g, "")
		eb = errorBody{}
		if code := e.do("POST", "/api/games/"+g+"/takeback", tok, nil, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("%s: %d %q, want %d %q", tc.name, code, eb.Error, tc.code, tc.want)
		}
		if got := e.state(g, ""); positionOf(t, got) != positionOf(t, before) || got.Takebacks != before.Takebacks {
			t.Errorf("%s: the refused takeback changed the game", tc.name)
		}
	}
}

// TestTakebackChallenge: under a challenge rule, a phony the computer
// challenged off the board and the computer's move after it are taken
// back together, back to the position before the phony; a word played
// then stands.
func TestTakebackChallenge(t *testing.T) {
	e := newEnv(t, nil)
	id := e.createRule("single", SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := e.join(id)
	start := e.state(id, a.Token)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, phonyOpening(t, start), nil); code != 200 {
		t.Fatalf("the phony: %d", code)
	}
	// The computer challenges it off, then moves.
	e.waitMoves(id, 2)
	var kinds []string
	for _, h := range e.state(id, "").History {
		kinds = append(kinds, h.Kind)
	}
	if len(kinds) < 3 || kinds[0] != "place" || kinds[1] != "withdrawn" {
		t.Fatalf("after the phony: history %v, want place, withdrawn, then the computer's move", kinds)
	}
	var back State
	if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, &back); code != 200 {
		t.Fatalf("takeback: %d", code)
	}
	if got, want := positionOf(t, &back), positionOf(t, start); got != want {
		t.Errorf("after the takeback:\n got %s\nwant %s", got, want)
	}
	req, _ := bestRequest(t, &back)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("a word after the takeback: %d", code)
	}
	if st := e.waitMoves(id, 2); st.History[0].Kind != "place" || st.History[1].Kind != "place" {
		t.Errorf("after the word: history %+v", st.History)
	}
}

// TestTakebackLimit: a game allows maxTakebacks takebacks; the next is
// refused, saying why, and changes nothing.
func TestTakebackLimit(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := e.join(id)
	req, _ := bestRequest(t, e.state(id, a.Token))
	for k := range maxTakebacks {
		if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
			t.Fatalf("move %d: %d", k, code)
		}
		if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, nil); code != 200 {
			t.Fatalf("takeback %d: %d", k, code)
		}
	}
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("the last move: %d", code)
	}
	var eb errorBody
	if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, &eb); code != 409 || !strings.Contains(eb.Error, "takebacks") {
		t.Errorf("takeback %d: %d %q, want 409", maxTakebacks+1, code, eb.Error)
	}
	if st := e.state(id, ""); st.Takebacks != maxTakebacks || st.Moves < 1 {
		t.Errorf("after the refused takeback: %d takebacks, %d moves", st.Takebacks, st.Moves)
	}
}

// TestTakebackIncrement: a move taken back takes its increment with it,
// so that moving and taking back again and again gains no time (the
// time used stays used); a restart replays the same clock.
func TestTakebackIncrement(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 42, "clock": ClockRequest{Seconds: 60, Increment: 60},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "computer", Level: "professional"}}}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id := cr.ID
	a := e.join(id)
	for k := range 3 {
		if code := e.do("POST", "/api/games/"+id+"/move", a.Token, map[string]any{"kind": "pass"}, nil); code != 200 {
			t.Fatalf("pass %d: %d", k, code)
		}
		if code := e.do("POST", "/api/games/"+id+"/takeback", a.Token, nil, nil); code != 200 {
			t.Fatalf("takeback %d: %d", k, code)
		}
	}
	st := e.state(id, "")
	if c := st.Clock; c == nil || c.Running != 0 || c.LeftMs[0] > 60_000 || c.LeftMs[0] < 50_000 {
		t.Fatalf("after three passes taken back: %+v, want at most the 60 s the seat began with", st.Clock)
	}
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, map[string]any{"kind": "pass"}, nil); code != 200 {
		t.Fatalf("pass: %d", code)
	}
	if c := e.state(id, "").Clock; c.LeftMs[0] <= 60_000 {
		t.Errorf("after a pass that stands: %+v, want its increment", c)
	}
	// The clock after a restart: the same time used (the running turn
	// aside).
	e.waitMoves(id, 2)
	if code := e.do("POST", "/api/games/"+id+"/resign", a.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	e.restartSame(st0, id, e.state(id, ""))
}
