package server

import (
	"net/url"
	"strings"
	"testing"
)

func TestWordJudge(t *testing.T) {
	e := newEnv(t, nil)
	ask := func(lexicon string, words ...string) (int, WordsAnswer, string) {
		q := url.Values{"lexicon": {lexicon}, "w": words}
		var ans WordsAnswer
		var eb errorBody
		code := e.do("GET", "/api/words?"+q.Encode(), "", nil, &ans)
		if code != 200 {
			e.do("GET", "/api/words?"+q.Encode(), "", nil, &eb)
		}
		return code, ans, eb.Error
	}
	code, ans, _ := ask("en-sowpods", "QI", " za ", "QX", "CAT")
	if code != 200 || ans.Lexicon != "en-sowpods" || len(ans.Words) != 4 {
		t.Fatalf("answer %d %+v", code, ans)
	}
	want := []JudgedWord{{"QI", true}, {"za", true}, {"QX", false}, {"CAT", true}}
	for i, w := range want {
		if ans.Words[i] != w {
			t.Errorf("word %d: %+v, want %+v", i, ans.Words[i], w)
		}
	}
	for _, c := range []struct {
		lexicon string
		words   []string
		says    string
	}{
		{"en-sowpods", nil, "1 to 20"},
		{"en-sowpods", strings.Fields(strings.Repeat("A ", MaxJudgedWords+1)), "1 to 20"},
		{"xx-none", []string{"QI"}, "not offered"},
		{"en-sowpods", []string{"QI", "Q1"}, `word 2 "Q1"`},
		{"en-sowpods", []string{"  "}, "1 to 15"},
		{"en-sowpods", []string{"ABCDEFGHIJKLMNOP"}, "1 to 15"},
	} {
		if code, _, msg := ask(c.lexicon, c.words...); code != 400 || !strings.Contains(msg, c.says) {
			t.Errorf("%s %q: %d %q, want 400 saying %q", c.lexicon, c.words, code, msg, c.says)
		}
	}
}

func TestWordJudgeLimit(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.LookupPerMinute = 2
	e := newEnvConfig(t, cfg)
	for i, want := range []int{200, 200, 429} {
		if code := e.do("GET", "/api/words?lexicon=en-sowpods&w=QI", "", nil, nil); code != want {
			t.Errorf("question %d: %d, want %d", i+1, code, want)
		}
	}
}
