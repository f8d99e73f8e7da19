package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// TestAccountData: the download of one's data holds the account, its
// games and seats, its cardbox, its puzzle answers, the players it
// follows and blocks and its lobby chat lines, and nothing of another
// account's; signed out it is refused.
func TestAccountData(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bob, cyd := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bob, "Bob", "battery staple")
	e.signUp(cyd, "Cyd", "battery staple")
	// A game against the computer, resigned.
	id, tok := e.accountComputerGame(ana)
	if code := e.do("POST", "/api/games/"+id+"/resign", tok, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	now := time.Now().UnixMilli()
	for _, req := range []struct {
		c            *http.Client
		method, path string
		body         any
	}{
		{ana, "PUT", "/api/me/cardbox", map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{{Letters: "tear", Box: 2, Due: now, Filed: now}}}},
		{bob, "PUT", "/api/me/cardbox", map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{{Letters: "QI", Box: 1, Due: now, Filed: now}}}},
		{ana, "POST", "/api/me/follows", map[string]string{"name": "Bob"}},
		{ana, "POST", "/api/me/blocks", map[string]string{"name": "Cyd"}},
		{ana, "POST", "/api/lobby/chat", map[string]string{"text": "hello all"}},
		{bob, "POST", "/api/lobby/chat", map[string]string{"text": "hi Ana"}},
		{ana, "PUT", "/api/me/bio", BioRequest{About: "Club player.", Country: "es"}},
	} {
		var eb errorBody
		if code := e.doWith(req.c, req.method, req.path, "", req.body, &eb); code != 200 && code != 201 {
			t.Fatalf("%s %s: %d %q", req.method, req.path, code, eb.Error)
		}
	}
	if _, err := e.srv.store.RecordPuzzle(context.Background(), AccountKey("Ana"), &store.PuzzleRecord{Lexicon: "en-sowpods", Number: 7, Correct: true, Score: 42, Answered: time.Now()}, nil); err != nil {
		t.Fatal(err)
	}

	resp, err := ana.Get(e.url + "/api/me/data")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Disposition") != `attachment; filename="atril-ana.json"` {
		t.Fatalf("Ana's data: %d %q", resp.StatusCode, resp.Header.Get("Content-Disposition"))
	}
	var d AccountData
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if d.Name != "Ana" || d.Created.IsZero() || d.Exported.IsZero() {
		t.Errorf("the account: %+v", d)
	}
	if len(d.Games) != 1 || d.Games[0].ID != id || len(d.Seats) != 1 || d.Seats[0].ID != id {
		t.Errorf("the games %+v and seats %+v: want the one resigned", d.Games, d.Seats)
	}
	if len(d.Cardbox) != 1 || d.Cardbox[0].Lexicon != "en-sowpods" || len(d.Cardbox[0].Cards) != 1 || d.Cardbox[0].Cards[0].Letters != "AERT" {
		t.Errorf("the cardboxes: %+v", d.Cardbox)
	}
	if len(d.Puzzles) != 1 || d.Puzzles[0].Number != 7 || !d.Puzzles[0].Correct || d.Puzzles[0].Score != 42 {
		t.Errorf("the puzzles: %+v", d.Puzzles)
	}
	if len(d.Follows) != 1 || d.Follows[0].Name != "Bob" || len(d.Blocks) != 1 || d.Blocks[0].Name != "Cyd" {
		t.Errorf("the follows %+v and blocks %+v", d.Follows, d.Blocks)
	}
	if d.Bio == nil || d.Bio.About != "Club player." || d.Bio.Country != "ES" {
		t.Errorf("the bio: %+v", d.Bio)
	}
	if len(d.Chat) != 1 || d.Chat[0].Text != "hello all" {
		t.Errorf("the lobby chat lines: %+v, want Ana's only", d.Chat)
	}
	if strings.Contains(string(raw), "QI") || strings.Contains(string(raw), "hi Ana") {
		t.Error("Ana's data holds Bob's")
	}
	if code := e.doWith(browser(t), "GET", "/api/me/data", "", nil, nil); code != 401 {
		t.Errorf("signed out: %d, want 401", code)
	}
}

// accountComputerGame makes an English game against the professional in
// which the signed-in client c takes the person's seat, and returns the
// game and the seat's token.
func (e *testEnv) accountComputerGame(c *http.Client) (id, token string) {
	e.t.Helper()
	var cr CreateResponse
	if code := e.doWith(c, "POST", "/api/games", "", map[string]any{"variant": "english",
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "computer", Level: "professional"}}}, &cr); code != 201 {
		e.t.Fatalf("create: %d", code)
	}
	var j JoinResponse
	if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, &j); code != 200 {
		e.t.Fatalf("join: %d", code)
	}
	return cr.ID, j.Token
}
