package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWordLists: a word list of the operator's own, read from its file,
// is offered with the variants of its language, judges words and plays
// games; a bad name or file stops the server with what is wrong.
func TestWordLists(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := file("tiny.txt", "# a tiny list\ncat\ndog\nCATS\n")
	cfg := testConfig(newStore(t))
	cfg.WordLists = map[string]string{"en-tiny": good}
	cfg.WordListTitles = map[string]string{"en-tiny": "Tiny (a test list)"}
	e := newEnvConfig(t, cfg)
	var in Info
	if code := e.do("GET", "/api/info", "", nil, &in); code != 200 || len(in.Variants) != 1 || !slices.Equal(in.Variants[0].Lexicons, []string{"en-sowpods", "en-tiny"}) {
		t.Fatalf("the lists offered: %d %+v", code, in.Variants)
	}
	if in.LexiconTitles["en-tiny"] != "Tiny (a test list)" || len(in.LexiconTitles) != 1 {
		t.Errorf("the lists' titles: %v", in.LexiconTitles)
	}
	var ws WordsAnswer
	if code := e.do("GET", "/api/words?lexicon=en-tiny&w=cat&w=cats&w=dogs", "", nil, &ws); code != 200 || len(ws.Words) != 3 ||
		!ws.Words[0].Valid || !ws.Words[1].Valid || ws.Words[2].Valid {
		t.Errorf("the word judge on the operator's list: %d %+v", code, ws)
	}
	var cr CreateResponse
	body := map[string]any{"variant": "english", "lexicon": "en-tiny", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("a game on the operator's list: %d", code)
	}
	if st := e.state(cr.ID, ""); st.Lexicon != "en-tiny" {
		t.Errorf("the game's list: %q", st.Lexicon)
	}
	// The picture of its position names the list by its title.
	if p, _ := gamePictureOf(t, e, cr.ID); !slices.Contains(p.Lines, "Tiny (a test list)") {
		t.Errorf("the picture's lines: %v", p.Lines)
	}

	for _, tc := range []struct {
		name, path, want string
	}{
		{"EN tiny", good, "want a language of two letters"},
		{"en-sowpods", good, "the name of an embedded list"},
		{"xx-tiny", good, `no variant offered plays words of language "xx"`},
		{"en-bad", file("bad.txt", "cat\nc4t\n"), "line 2"},
		{"en-none", filepath.Join(dir, "missing.txt"), "not a readable file"},
		{"en-empty", file("empty.txt", "# nothing\n"), "no word in it"},
	} {
		cfg := testConfig(newStore(t))
		cfg.WordLists = map[string]string{tc.name: tc.path}
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("word list %s (%s): %v, want an error saying %q", tc.name, filepath.Base(tc.path), err, tc.want)
		}
	}
	for _, tc := range []struct {
		name, title, want string
	}{
		{"en-other", "Other", `word list "en-other", which is not one of the operator's lists`},
		{"en-sowpods", "Mine", `word list "en-sowpods", which is not one of the operator's lists`},
		{"en-tiny", strings.Repeat("x", 61), "61 characters: at most 60"},
		{"en-tiny", "two\nlines", "a control character"},
		{"en-tiny", " ", "empty"},
		{"en-tiny", "bad \xff", "not UTF-8"},
	} {
		cfg := testConfig(newStore(t))
		cfg.WordLists = map[string]string{"en-tiny": good}
		cfg.WordListTitles = map[string]string{tc.name: tc.title}
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("title %q of %s: %v, want an error saying %q", tc.title, tc.name, err, tc.want)
		}
	}
}
