package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestNotes writes notes on a finished game's entries: refused before the
// end, to outsiders and for entries the game lacks; replaced, taken away,
// shown in the state to everyone, written into the GCG file, and the same
// after a restart.
func TestNotes(t *testing.T) {
	st := newStore(t)
	e := newEnv(t, st)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	note := func(tok string, body any) (int, GameNote) {
		t.Helper()
		var n GameNote
		code := e.do("POST", "/api/games/"+id+"/notes", tok, body, &n)
		return code, n
	}
	if code, _ := note(a.Token, map[string]any{"entry": 0, "text": "too soon"}); code != 409 {
		t.Errorf("a note before the end: %d, want 409", code)
	}
	playOut(t, e, id, []string{a.Token, b.Token}, 200)
	hist := len(e.state(id, "").History)
	for _, c := range []struct {
		name, tok string
		body      any
		want      int
	}{
		{"a watcher's", "", map[string]any{"entry": 0, "text": "hm"}, 401},
		{"no entry", a.Token, map[string]any{"text": "hm"}, 400},
		{"an entry before the first", a.Token, map[string]any{"entry": -1, "text": "hm"}, 400},
		{"an entry after the last", a.Token, map[string]any{"entry": hist, "text": "hm"}, 400},
		{"too long", a.Token, map[string]any{"entry": 0, "text": strings.Repeat("é", MaxNoteText+1)}, 400},
		{"not JSON", a.Token, "entry 0", 400},
	} {
		if code, _ := note(c.tok, c.body); code != c.want {
			t.Errorf("%s note: %d, want %d", c.name, code, c.want)
		}
	}
	if code, n := note(a.Token, map[string]any{"entry": 0, "text": "  a slow\n start "}); code != 200 || n.Text != "a slow start" || n.Seat != 0 {
		t.Errorf("Ana's note: %d %+v", code, n)
	}
	note(a.Token, map[string]any{"entry": 2, "text": "first thought"})
	note(a.Token, map[string]any{"entry": 2, "text": "should have exchanged"})
	note(b.Token, map[string]any{"entry": 2, "text": "agreed"})
	note(b.Token, map[string]any{"entry": 1, "text": "gone soon"})
	if code, _ := note(b.Token, map[string]any{"entry": 1, "text": ""}); code != 200 {
		t.Errorf("taking a note away: %d", code)
	}
	want := "[{0 0 a slow start} {2 0 should have exchanged} {2 1 agreed}]"
	if got := fmt.Sprint(e.state(id, "").Notes); got != want {
		t.Errorf("the notes a watcher sees: %s, want %s", got, want)
	}
	gcgText := func(e *testEnv) string {
		t.Helper()
		resp, err := http.Get(e.url + "/api/games/" + id + "/gcg")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return string(data)
	}
	text := gcgText(e)
	lines := strings.Split(text, "\n")
	var turn int
	var got []string
	for _, line := range lines {
		if strings.HasPrefix(line, ">") {
			turn++
		}
		if strings.HasPrefix(line, "#note ") {
			got = append(got, fmt.Sprintf("%d %s", turn-1, line))
		}
	}
	name0, name1 := e.state(id, "").Seats[0].Name, e.state(id, "").Seats[1].Name
	if want := fmt.Sprintf("[0 #note %s: a slow start 2 #note %s: should have exchanged 2 #note %s: agreed]", name0, name0, name1); fmt.Sprint(got) != want {
		t.Errorf("the GCG file's notes: %v, want %v\n%s", got, want, text)
	}
	e.hs.Close()
	e.srv.Close()
	e2 := newEnv(t, st)
	if got := fmt.Sprint(e2.state(id, "").Notes); got != want {
		t.Errorf("the notes after a restart: %s, want %s", got, want)
	}
	if again := gcgText(e2); again != text {
		t.Errorf("the GCG file after a restart differs:\n%s\n---\n%s", again, text)
	}
}
