package server

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"atril/internal/testgame"
	"atril/study"
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

// TestWordFinder asks the word finder for anagrams, words a rack makes,
// patterns and both, and checks every word against the list, the hooks
// of some, and the refusals of bad questions.
func TestWordFinder(t *testing.T) {
	e := newEnv(t, nil)
	_, lex, err := testgame.ShortEnglish(4)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(q url.Values) (int, FindAnswer, string) {
		t.Helper()
		var ans FindAnswer
		var eb errorBody
		code := e.do("GET", "/api/find?"+q.Encode(), "", nil, &ans)
		if code != 200 {
			e.do("GET", "/api/find?"+q.Encode(), "", nil, &eb)
		}
		return code, ans, eb.Error
	}
	isWord := func(w string) bool {
		ok, err := lex.ContainsText(strings.ToUpper(w))
		return err == nil && ok
	}
	for _, c := range []struct {
		name  string
		q     url.Values
		check func(w FoundWord) bool
		has   []string
		cut   bool
	}{
		{"anagrams", url.Values{"letters": {"tca"}, "all": {"1"}}, func(w FoundWord) bool { return len(w.Word) == 3 }, []string{"ACT", "CAT"}, false},
		{"a blank", url.Values{"letters": {"CA?"}, "all": {"1"}}, func(w FoundWord) bool { return len(w.Word) == 3 && strings.ToUpper(w.Word) != w.Word }, []string{"CAt", "CAb"}, false},
		{"some tiles", url.Values{"letters": {"CATS"}}, func(w FoundWord) bool { return len(w.Word) >= 2 && len(w.Word) <= 4 }, []string{"CATS", "CAT", "AT"}, false},
		{"a pattern", url.Values{"pattern": {"Q?"}}, func(w FoundWord) bool { return len(w.Word) == 2 && w.Word[0] == 'Q' }, []string{"QI"}, false},
		{"both", url.Values{"pattern": {"C*"}, "letters": {"TACE"}, "min": {"4"}}, func(w FoundWord) bool { return len(w.Word) == 4 && w.Word[0] == 'C' }, []string{"CATE"}, false},
		{"lengths", url.Values{"pattern": {"*Z*"}, "min": {"3"}, "max": {"3"}}, func(w FoundWord) bool { return len(w.Word) == 3 && strings.Contains(w.Word, "Z") }, []string{"ZAP"}, false},
		{"too many", url.Values{"pattern": {"*"}}, func(w FoundWord) bool { return true }, nil, true},
	} {
		c.q.Set("lexicon", "en-sowpods")
		code, ans, msg := ask(c.q)
		if code != 200 || ans.Cut != c.cut || len(ans.Words) == 0 || c.cut && len(ans.Words) != MaxFound {
			t.Errorf("%s: %d %q, %d words, cut %v", c.name, code, msg, len(ans.Words), ans.Cut)
			continue
		}
		got := map[string]FoundWord{}
		for _, w := range ans.Words {
			got[w.Word] = w
			if !isWord(w.Word) || !c.check(w) {
				t.Errorf("%s: %+v", c.name, w)
			}
			if w.Tiles != len(w.Word) {
				t.Errorf("%s: %s of %d tiles", c.name, w.Word, w.Tiles)
			}
			for _, h := range w.Front {
				if !isWord(h + w.Word) {
					t.Errorf("%s: front hook %s of %s", c.name, h, w.Word)
				}
			}
			for _, h := range w.Back {
				if !isWord(w.Word + h) {
					t.Errorf("%s: back hook %s of %s", c.name, h, w.Word)
				}
			}
		}
		for _, w := range c.has {
			if _, ok := got[w]; !ok {
				t.Errorf("%s: no %s among %d words", c.name, w, len(ans.Words))
			}
		}
	}
	_, ans, _ := ask(url.Values{"lexicon": {"en-sowpods"}, "letters": {"TAC"}, "all": {"1"}})
	for _, w := range ans.Words {
		if w.Word == "CAT" && (!slices.Contains(w.Front, "S") || !slices.Contains(w.Back, "S")) {
			t.Errorf("CAT's hooks: %+v (SCAT and CATS)", w)
		}
	}
	for _, c := range []struct {
		q    url.Values
		says string
	}{
		{url.Values{"lexicon": {"en-sowpods"}}, "give letters, a pattern, or both"},
		{url.Values{"lexicon": {"xx-none"}, "pattern": {"Q?"}}, "not offered"},
		{url.Values{"lexicon": {"en-sowpods"}, "letters": {"C1"}}, "letters: "},
		{url.Values{"lexicon": {"en-sowpods"}, "letters": {strings.Repeat("A", 16)}}, "16 tiles, at most 15"},
		{url.Values{"lexicon": {"en-sowpods"}, "pattern": {"C[A"}}, "unclosed ["},
		{url.Values{"lexicon": {"en-sowpods"}, "pattern": {"C?"}, "min": {"99"}}, "min=99: want 0 to 15"},
		{url.Values{"lexicon": {"en-sowpods"}, "pattern": {"C?"}, "max": {"x"}}, "max=x: want 0 to 15"},
	} {
		if code, _, msg := ask(c.q); code != 400 || !strings.Contains(msg, c.says) {
			t.Errorf("%v: %d %q, want 400 saying %q", c.q, code, msg, c.says)
		}
	}
}

// TestStudy asks for alphagrams in probability order and checks each
// against the list and the study package, the ranges asked, and the
// refusals of bad questions.
func TestStudy(t *testing.T) {
	e := newEnv(t, nil)
	v, lex, err := testgame.ShortEnglish(4)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := study.Build(lex, v.Counts)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(q string) (int, StudyAnswer, string) {
		t.Helper()
		var ans StudyAnswer
		var eb errorBody
		code := e.do("GET", "/api/study?"+q, "", nil, &ans)
		if code != 200 {
			e.do("GET", "/api/study?"+q, "", nil, &eb)
		}
		return code, ans, eb.Error
	}
	code, ans, msg := ask("lexicon=en-sowpods&length=3&from=11&to=60")
	if code != 200 || ans.Length != 3 || ans.Count != ix.Count(3) || len(ans.Alphagrams) != 50 {
		t.Fatalf("3 letters, ranks 11 to 60: %d %q, length %d, count %d (want %d), %d alphagrams", code, msg, ans.Length, ans.Count, ix.Count(3), len(ans.Alphagrams))
	}
	for i, a := range ans.Alphagrams {
		want := ix.Rank(3, 11+i)
		if a.Rank != 11+i || strings.Join(a.Letters, "") != v.Alphabet.Word(want.Tiles) || a.Probability != want.Probability || len(a.Words) != len(want.Words) {
			t.Errorf("rank %d: %+v, want %s with %d words", 11+i, a, v.Alphabet.Word(want.Tiles), len(want.Words))
			continue
		}
		if i > 0 && a.Probability > ans.Alphagrams[i-1].Probability {
			t.Errorf("rank %d more probable than rank %d", a.Rank, a.Rank-1)
		}
		for _, w := range a.Words {
			letters := strings.Split(w.Word, "")
			slices.Sort(letters)
			if ok, err := lex.ContainsText(w.Word); !ok || err != nil || strings.Join(letters, "") != strings.Join(a.Letters, "") || w.Tiles != 3 {
				t.Errorf("rank %d (%s): word %+v", a.Rank, strings.Join(a.Letters, ""), w)
			}
		}
	}
	// AET: ATE, EAT, ETA, TAE, TEA, each with its hooks.
	rank := 0
	for r := 1; r <= ix.Count(3) && rank == 0; r++ {
		if v.Alphabet.Word(ix.Rank(3, r).Tiles) == "AET" {
			rank = r
		}
	}
	code, ans, _ = ask("lexicon=en-sowpods&length=3&from=" + strconv.Itoa(rank) + "&to=" + strconv.Itoa(rank))
	if code != 200 || len(ans.Alphagrams) != 1 {
		t.Fatalf("AET, rank %d: %d, %d alphagrams", rank, code, len(ans.Alphagrams))
	}
	aet := ans.Alphagrams[0]
	if strings.Join(aet.Letters, "") != "AET" || len(aet.Words) < 5 || !slices.ContainsFunc(aet.Words, func(w FoundWord) bool {
		return w.Word == "EAT" && slices.Contains(w.Front, "B") && slices.Contains(w.Back, "S")
	}) {
		t.Errorf("AET: %+v", aet)
	}
	if code, ans, _ := ask("lexicon=en-sowpods&length=2&from=100000"); code != 200 || len(ans.Alphagrams) != 0 || ans.Count != ix.Count(2) {
		t.Errorf("ranks past the last: %d, %d alphagrams", code, len(ans.Alphagrams))
	}
	if code, ans, _ := ask("lexicon=en-sowpods&length=2"); code != 200 || len(ans.Alphagrams) != 50 || ans.Alphagrams[0].Rank != 1 {
		t.Errorf("the default range: %d, %d alphagrams", code, len(ans.Alphagrams))
	}
	// Racks' alphagrams: ETA is AET's, at the rank found above; QQX
	// makes no word; TEA asks for AET again.
	if code, ans, msg := ask("lexicon=en-sowpods&letters=eta&letters=QQX&letters=eats&letters=tea"); code != 200 || len(ans.Alphagrams) != 3 ||
		ans.Alphagrams[0].Rank != rank || ans.Alphagrams[0].Of != ix.Count(3) || strings.Join(ans.Alphagrams[1].Letters, "") != "AEST" ||
		ans.Alphagrams[1].Of != ix.Count(4) || ans.Alphagrams[2].Rank != rank || ans.Length != 0 || ans.Count != 0 {
		t.Errorf("the letters ETA, QQX, EATS, TEA: %d %q %+v, want AET at rank %d, AEST, AET", code, msg, ans, rank)
	}
	many := "lexicon=en-sowpods" + strings.Repeat("&letters=AB", MaxStudied+1)
	for _, c := range []struct{ q, says string }{
		{many, "201 racks: ask about at most 200"},
		{"lexicon=en-sowpods&letters=A1", "letters 1 \"A1\": "},
		{"lexicon=en-sowpods&letters=AB&letters=" + strings.Repeat("A", 16), "letters 2 \"" + strings.Repeat("A", 16) + "\": 16 tiles, give 1 to 15"},
		{"lexicon=en-sowpods&letters=AB&letters=", "letters 2 \"\": 0 tiles"},
		{"lexicon=xx-none&length=7", "not offered"},
		{"lexicon=en-sowpods&length=16", "length=16: want 1 to 15"},
		{"lexicon=en-sowpods&length=x", "length=x: want"},
		{"lexicon=en-sowpods&from=0", "from=0: want 1 to"},
		{"lexicon=en-sowpods&from=5&to=4", "to=4: want 5 to 204"},
		{"lexicon=en-sowpods&from=1&to=201", "to=201: want 1 to 200"},
	} {
		if code, _, msg := ask(c.q); code != 400 || !strings.Contains(msg, c.says) {
			t.Errorf("%s: %d %q, want 400 saying %q", c.q, code, msg, c.says)
		}
	}
}
