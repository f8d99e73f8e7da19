package server

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"atril/alphabet"
)

// createRule makes a game under a challenge rule (seed 42) and returns
// its id.
func (e *testEnv) createRule(rule string, seats ...SeatRequest) string {
	e.t.Helper()
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seats": seats, "seed": 42, "challenge": rule}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		e.t.Fatalf("create: %d", code)
	}
	return cr.ID
}

// phonyOpening is a first move of two tiles of the seat's rack across the
// start square that does not make a word of the list.
func phonyOpening(t *testing.T, st *State) map[string]any {
	t.Helper()
	b := boardOf(t, st)
	r := rackOf(t, st)
	a := b.Variant.Alphabet
	ts := r.Tiles()
	for i, x := range ts {
		for j, y := range ts {
			if i == j || x == alphabet.Blank || y == alphabet.Blank || b.Words().Contains([]alphabet.Tile{x, y}) {
				continue
			}
			return map[string]any{"kind": "place", "tiles": []PlacedTile{
				{Row: 7, Col: 7, Letter: a.String(x)}, {Row: 7, Col: 8, Letter: a.String(y)}}}
		}
	}
	t.Fatalf("no phony in rack %v", st.You.Rack)
	return nil
}

func TestChallengeTwoPeople(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	id := e.createRule("double", SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Bo"})
	a, b := e.join(id), e.join(id)
	sa := e.state(id, a.Token)
	if sa.Challenge != "double" || sa.Challengeable != nil {
		t.Fatalf("new game: challenge %q, challengeable %v", sa.Challenge, sa.Challengeable)
	}
	phony := phonyOpening(t, sa)
	// The preview does not judge words under a challenge rule.
	var pv Preview
	if code := e.do("POST", "/api/games/"+id+"/preview", a.Token, map[string]any{"tiles": phony["tiles"]}, &pv); code != 200 || !pv.OK {
		t.Errorf("preview of a phony: %d %+v, want it playable", code, pv)
	}
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, phony, nil); code != 200 {
		t.Fatalf("phony move: %d", code)
	}
	sb := e.state(id, b.Token)
	if sb.Turn != 1 || sb.Challengeable == nil || *sb.Challengeable != 0 || sb.AwaitingChallenge {
		t.Fatalf("after the phony: turn %d, challengeable %v, awaiting %v", sb.Turn, sb.Challengeable, sb.AwaitingChallenge)
	}
	var eb errorBody
	if code := e.do("POST", "/api/games/"+id+"/challenge", a.Token, nil, &eb); code != 409 {
		t.Errorf("challenge of one's own play: %d, want 409", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/accept", b.Token, nil, &eb); code != 409 || !strings.Contains(eb.Error, "did not go out") {
		t.Errorf("accept of a play that did not go out: %d %q", code, eb.Error)
	}
	e.drain(id, b.Token)
	var after State
	if code := e.do("POST", "/api/games/"+id+"/challenge", b.Token, nil, &after); code != 200 {
		t.Fatalf("challenge: %d", code)
	}
	last := after.History[len(after.History)-1]
	if last.Kind != "withdrawn" || last.Seat != 0 || len(last.Words) == 0 || len(after.Board) != 0 ||
		after.Turn != 1 || after.Seats[0].Score != 0 || after.Challengeable != nil {
		t.Fatalf("after a successful challenge: %+v, board %d tiles, turn %d, score %d", last, len(after.Board), after.Turn, after.Seats[0].Score)
	}
	if got := rackOf(t, e.state(id, a.Token)); got != rackOf(t, sa) {
		t.Errorf("Ana's rack after the phony came off: %v, want %v", got, rackOf(t, sa))
	}
	if got := types(e.drain(id, b.Token)); got != "challenged,withdrawn,turn" {
		t.Errorf("notifications of the challenge: %s", got)
	}
	// Bo plays a word; Ana's challenge of it costs her the turn.
	req, _ := bestRequest(t, e.state(id, b.Token))
	if code := e.do("POST", "/api/games/"+id+"/move", b.Token, req, nil); code != 200 {
		t.Fatalf("Bo's move: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/challenge", a.Token, nil, &after); code != 200 {
		t.Fatalf("Ana's challenge: %d", code)
	}
	kinds := []string{}
	for _, h := range after.History {
		kinds = append(kinds, h.Kind)
	}
	if !slices.Equal(kinds, []string{"place", "withdrawn", "place", "lost_turn"}) || after.Turn != 1 {
		t.Errorf("after an unsuccessful challenge: history %v, turn %d", kinds, after.Turn)
	}
	// The log replays to the same state.
	e = e.restartSame(st0, id, e.state(id, ""))
	if code := e.do("POST", "/api/games/"+id+"/challenge", b.Token, nil, &eb); code != 409 {
		t.Errorf("a second challenge: %d, want 409", code)
	}
	// The finished game's review, analysis and summary step through the
	// challenges.
	if code := e.do("POST", "/api/games/"+id+"/resign", a.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	var rv Review
	if code := e.do("GET", "/api/games/"+id+"/review", "", nil, &rv); code != 200 {
		t.Fatalf("review: %d", code)
	}
	if len(rv.Turns) != 4 || rv.Turns[0].Kind != "place" || len(rv.Turns[0].Phonies) == 0 ||
		rv.Turns[1].Kind != "withdrawn" || len(rv.Turns[1].Tiles) != 2 || rv.Turns[3].Kind != "lost_turn" {
		t.Errorf("review: %+v", rv.Turns)
	}
	var an0, an1 Analysis
	if code := e.do("GET", "/api/games/"+id+"/analysis?move=0", "", nil, &an0); code != 200 {
		t.Fatalf("analysis of the phony: %d", code)
	}
	if an0.Played == nil || !an0.Played.Withdrawn || an0.Played.Score != 0 || an0.Rank != 0 {
		t.Errorf("analysis of the withdrawn phony: %+v, rank %d", an0.Played, an0.Rank)
	}
	if code := e.do("GET", "/api/games/"+id+"/analysis?move=1", "", nil, &an1); code != 200 {
		t.Fatalf("analysis of Bo's word: %d", code)
	}
	if an1.Seat != 1 || an1.Rank == 0 || an1.Played.Withdrawn {
		t.Errorf("analysis of Bo's word: seat %d, rank %d, %+v", an1.Seat, an1.Rank, an1.Played)
	}
	resp, err := http.Get(e.url + "/api/games/" + id + "/gcg")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(text), "#challenge double") || !strings.Contains(string(text), " -- -") {
		t.Errorf("GCG of a challenged game:\n%s", text)
	}
	var sum Summary
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	if sum.Seats[0].Moves != 1 || sum.Seats[1].Moves != 1 || sum.Seats[0].Lost <= 0 {
		t.Errorf("summary: %+v", sum.Seats)
	}
}

// TestChallengeComputer: the computer challenges a phony and lets a word
// stand.
func TestChallengeComputer(t *testing.T) {
	e := newEnv(t, nil)
	id := e.createRule("5pt", SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := e.join(id)
	sa := e.state(id, a.Token)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, phonyOpening(t, sa), nil); code != 200 {
		t.Fatalf("phony move: %d", code)
	}
	wait := func(entries int) *State {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			st := e.state(id, a.Token)
			if len(st.History) >= entries && st.Turn == 0 {
				return st
			}
			if time.Now().After(deadline) {
				t.Fatalf("the computer did not answer: %+v", st.History)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	st := wait(3)
	if st.History[1].Kind != "withdrawn" || st.History[2].Kind != "place" && st.History[2].Kind != "exchange" {
		t.Fatalf("the computer's answer to a phony: %+v", st.History)
	}
	req, _ := bestRequest(t, st)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("Ana's word: %d", code)
	}
	st = wait(5)
	if k := st.History[4].Kind; k == "challenge_bonus" || k == "withdrawn" {
		t.Errorf("the computer challenged a word: %+v", st.History)
	}
}

func TestChallengeRequests(t *testing.T) {
	e := newEnv(t, nil)
	var eb errorBody
	body := map[string]any{"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "challenge": "triple"}
	if code := e.do("POST", "/api/games", "", body, &eb); code != 400 || !strings.Contains(eb.Error, "triple") {
		t.Errorf("unknown rule: %d %q", code, eb.Error)
	}
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	req, _ := bestRequest(t, e.state(id, a.Token))
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/challenge", b.Token, nil, &eb); code != 409 || !strings.Contains(eb.Error, "no challenges") {
		t.Errorf("challenge under the void rule: %d %q", code, eb.Error)
	}
	if st := e.state(id, ""); st.Challenge != "" || st.Challengeable != nil {
		t.Errorf("void game state: %q %v", st.Challenge, st.Challengeable)
	}
}
