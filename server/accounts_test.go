package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"atril/player"
	"atril/rating"
	"atril/store"
)

// browser is a client with its own cookies, as a person's browser.
func browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar}
}

// signUp makes an account through c, which is then signed in.
func (e *testEnv) signUp(c *http.Client, name, pw string) {
	e.t.Helper()
	var me Me
	if code := e.doWith(c, "POST", "/api/accounts", "", map[string]string{"name": name, "password": pw}, &me); code != 201 || !me.SignedIn || me.Name != name {
		e.t.Fatalf("sign up %s: %d %+v", name, code, me)
	}
}

func TestAccountRequests(t *testing.T) {
	e := newEnv(t, nil)
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	for _, tc := range []struct {
		name, pw string
		code     int
		want     string
	}{
		{"ANA", "another password", 409, "taken"},
		{"ａｎａ", "another password", 409, "taken"}, // full-width letters fold to the same key
		{"Bo", "long enough", 400, "3 to 20"},
		{"Bo Diddley", "long enough", 400, "letters, digits"},
		{"-bo-", "long enough", 400, "begins and ends"},
		{"Computer", "long enough", 400, "computer"},
		{"Bodil", "short", 400, "8 to 200"},
		{"Bodil", strings.Repeat("x", 201), 400, "8 to 200"},
		{"Ñandú_2", "long enough", 201, ""},
		{"Nandu_2", "long enough", 409, "taken"},                // the same without its accents
		{"\u0430na", "long enough", 409, "taken"},               // a Cyrillic а
		{"AN\u0410", "long enough", 409, "taken"},               // a capital Cyrillic А
		{"an\u00e1", "long enough", 409, "taken"},               // an accent
		{"Ana\uFE0F", "long enough", 400, "invisible"},          // a variation selector
		{"Ana\u034F", "long enough", 400, "invisible"},          // the combining grapheme joiner
		{"Ana\u200D", "long enough", 400, "invisible"},          // a zero-width joiner
		{"\u3164\u3164\u3164", "long enough", 400, "invisible"}, // Hangul fillers
		{"\u0301ab", "long enough", 400, "accent"},
		{"abe\u0301\u0301\u0301\u0301\u0301", "long enough", 400, "accent"},
		{"Jos\u00e9", "long enough", 201, ""},
		{"张伟伟", "long enough", 201, ""},
		{"Ирина", "long enough", 201, ""},
	} {
		var eb errorBody
		code := e.doWith(browser(t), "POST", "/api/accounts", "", map[string]string{"name": tc.name, "password": tc.pw}, &eb)
		if code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("sign up %q: %d %q; want %d with %q", tc.name, code, eb.Error, tc.code, tc.want)
		}
	}
	if code := e.do("POST", "/api/accounts", "", `{"name":"Ana","password":"x","extra":1}`, nil); code != 400 {
		t.Errorf("sign up with an unknown field: %d", code)
	}

	// The cookie: HttpOnly, SameSite=Lax, Secure behind an HTTPS proxy.
	for _, tc := range []struct {
		proxy, proto string
		secure       bool
	}{{"", "https", false}, {"X-Forwarded-For", "http", false}, {"X-Forwarded-For", "https", true}} {
		cfg := testConfig(e.st)
		cfg.RealIPHeader = tc.proxy
		pe := newEnvConfig(t, cfg)
		req, _ := http.NewRequest("POST", pe.url+"/api/login", strings.NewReader(`{"name":"ana","password":"correct horse"}`))
		req.Header.Set("X-Forwarded-Proto", tc.proto)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		cs := resp.Cookies()
		if resp.StatusCode != 200 || len(cs) != 1 || cs[0].Name != "atril_session" || !cs[0].HttpOnly || cs[0].SameSite != http.SameSiteLaxMode ||
			cs[0].Secure != tc.secure || len(cs[0].Value) != 64 {
			t.Errorf("sign-in behind %q with %s: %d, cookies %+v", tc.proxy, tc.proto, resp.StatusCode, cs)
		}
	}
	var me Me
	if code := e.doWith(ana, "GET", "/api/me", "", nil, &me); code != 200 || !me.SignedIn || me.Name != "Ana" || len(me.Ratings) != 0 {
		t.Errorf("me: %d %+v", code, me)
	}
	if code := e.do("GET", "/api/me", "", nil, &me); code != 200 || me.SignedIn {
		t.Errorf("me without a session: %d %+v", code, me)
	}
	if code := e.doWith(ana, "POST", "/api/logout", "", nil, nil); code != 200 {
		t.Errorf("sign out: %d", code)
	}
	if e.doWith(ana, "GET", "/api/me", "", nil, &me); me.SignedIn {
		t.Errorf("me after signing out: %+v", me)
	}
	for _, tc := range []struct {
		name, pw string
		code     int
	}{{"Ana", "wrong horse!", 401}, {"Nobody", "correct horse", 401}, {"ana", "correct horse", 200}} {
		if code := e.doWith(ana, "POST", "/api/login", "", map[string]string{"name": tc.name, "password": tc.pw}, &me); code != tc.code {
			t.Errorf("sign in as %s: %d, want %d", tc.name, code, tc.code)
		}
	}
	if e.doWith(ana, "GET", "/api/me", "", nil, &me); !me.SignedIn || me.Name != "Ana" {
		t.Errorf("me after signing in by the folded name: %+v", me)
	}
	if code := e.do("GET", "/api/players/nobody", "", nil, nil); code != 404 {
		t.Errorf("profile of nobody: %d", code)
	}
	for _, q := range []string{"?lexicon=xx", "?lexicon=en-sowpods&n=0", "?lexicon=en-sowpods&n=x", "?lexicon=en-sowpods&n=101", "?lexicon=en-sowpods&pace=fast"} {
		if code := e.do("GET", "/api/leaderboard"+q, "", nil, nil); code != 400 {
			t.Errorf("leaderboard%s: %d, want 400", q, code)
		}
	}
}

// TestSignInLimit checks the per-client allowance of sign-ins.
func TestSignInLimit(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.LoginPerMinute = 3
	e := newEnvConfig(t, cfg)
	codes := ""
	for range 5 {
		codes += http.StatusText(e.do("POST", "/api/login", "", map[string]string{"name": "Ana", "password": "whatever1"}, nil))[:3] + " "
	}
	if codes != "Una Una Una Too Too " {
		t.Errorf("five sign-ins at once: %s", codes)
	}
}

func TestRatedGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvConfig(t, testConfig(st))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bo.B", "battery staple")
	people := []SeatRequest{{Kind: "human"}, {Kind: "human"}}
	clock := ClockRequest{Seconds: 600, Overtime: 60}
	rated := map[string]any{"variant": "english", "seats": people, "rated": true, "clock": clock}
	if code := e.do("POST", "/api/games", "", rated, nil); code != 401 {
		t.Errorf("rated game by a guest: %d, want 401", code)
	}
	for _, bad := range []map[string]any{
		{"seats": []SeatRequest{{Kind: "computer"}, {Kind: "computer"}}, "rated": true, "clock": clock},
		{"seats": []SeatRequest{{Kind: "human"}, {Kind: "computer"}}, "rated": true},
		{"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}, {Kind: "human"}}, "rated": true},
		{"seats": people, "rated": true, "seed": 5, "clock": clock},
		{"seats": people, "rated": true},
	} {
		if code := e.doWith(ana, "POST", "/api/games", "", bad, nil); code != 400 {
			t.Errorf("rated game %v: %d, want 400", bad, code)
		}
	}
	var cr CreateResponse
	if code := e.doWith(ana, "POST", "/api/games", "", rated, &cr); code != 201 {
		t.Fatalf("rated game: %d", code)
	}
	if code := e.do("POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 401 {
		t.Errorf("a guest joins a rated game: %d, want 401", code)
	}
	var ja, jb JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"name": "Someone else"}, &ja); code != 200 {
		t.Fatalf("Ana joins: %d", code)
	}
	if code := e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 409 {
		t.Errorf("Ana takes the second seat too: %d, want 409", code)
	}
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/join", "", nil, &jb); code != 200 {
		t.Fatalf("Bo joins: %d", code)
	}
	s := e.state(cr.ID, "")
	if !s.Rated || s.Pace != PaceRapid || s.Seats[0].Name != "Ana" || !s.Seats[0].Account || s.Seats[1].Name != "Bo.B" || s.Seats[0].Rating != 0 {
		t.Errorf("rated game's state: rated %v, pace %q, seats %+v", s.Rated, s.Pace, s.Seats)
	}
	// No engine help in a rated game until it is over.
	if code := e.do("POST", "/api/analyze", ja.Token, map[string]any{"game": cr.ID}, nil); code != 403 {
		t.Errorf("analysis of a rated game's current position: %d, want 403", code)
	}
	// Ana resigns at once: Bo wins.
	if code := e.do("POST", "/api/games/"+cr.ID+"/resign", ja.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	s = e.state(cr.ID, "")
	if len(s.RatingChanges) != 2 || s.RatingChanges[0].Before != 1500 || s.RatingChanges[0].After >= 1500 || s.RatingChanges[1].After <= 1500 {
		t.Fatalf("rating changes: %+v", s.RatingChanges)
	}
	boAfter := s.RatingChanges[1].After
	var p Profile
	if code := e.do("GET", "/api/players/bo.b", "", nil, &p); code != 200 || p.Name != "Bo.B" || len(p.Ratings) != 1 || len(p.Games) != 1 {
		t.Fatalf("Bo's profile: %d %+v", code, p)
	}
	if r := p.Ratings[0]; r.Lexicon != "en-sowpods" || r.Pace != PaceRapid || r.Rating != boAfter || r.Games != 1 || r.Wins != 1 || r.Deviation >= 350 {
		t.Errorf("Bo's rating: %+v", r)
	}
	if g := p.Games[0]; g.ID != cr.ID || g.Lexicon != "en-sowpods" || g.Pace != PaceRapid || len(g.Seats) != 2 || g.Seats[1].Result != 1 || g.Seats[0].Before != 1500 || g.Seats[1].After != boAfter {
		t.Errorf("Bo's game: %+v", g)
	}
	// Ten minutes a player: a rapid game, on the rapid leaderboard only.
	var lb Leaderboard
	if code := e.do("GET", "/api/leaderboard?lexicon=en-sowpods&pace=rapid", "", nil, &lb); code != 200 || len(lb.Players) != 2 || lb.Pace != PaceRapid ||
		lb.Players[0].Name != "Bo.B" || lb.Players[0].Rating != boAfter || lb.Players[0].Pace != PaceRapid || lb.Players[1].Name != "Ana" {
		t.Errorf("rapid leaderboard: %d %+v", code, lb)
	}
	for _, q := range []string{"", "&pace=regular", "&pace=blitz"} {
		if code := e.do("GET", "/api/leaderboard?lexicon=en-sowpods"+q, "", nil, &lb); code != 200 || len(lb.Players) != 0 || lb.Pace == PaceRapid {
			t.Errorf("leaderboard%s: %d %+v, want no one", q, code, lb)
		}
	}

	// The rematch is rated, its seats held by the same accounts with
	// their ratings now; a game called off changes nothing.
	var rr RematchResponse
	if code := e.doWith(bo, "POST", "/api/games/"+cr.ID+"/rematch", jb.Token, nil, &rr); code != 200 {
		t.Fatalf("rematch: %d", code)
	}
	s = e.state(rr.ID, "")
	if !s.Rated || s.Seats[0].Name != "Bo.B" || !s.Seats[0].Account || s.Seats[0].Rating != boAfter {
		t.Errorf("rematch: rated %v, seats %+v", s.Rated, s.Seats)
	}
	var jr JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+rr.ID+"/join", "", nil, &jr); code != 200 {
		t.Fatalf("Ana joins the rematch: %d", code)
	}
	if code := e.do("POST", "/api/games/"+rr.ID+"/abort", jr.Token, nil, nil); code != 200 {
		t.Fatalf("abort: %d", code)
	}
	if s := e.state(rr.ID, ""); len(s.RatingChanges) != 0 {
		t.Errorf("an aborted rated game changed ratings: %+v", s.RatingChanges)
	}

	// A server started again on the store rates nothing twice.
	e.srv.Close()
	e2 := newEnvConfig(t, testConfig(st))
	var me Me
	if e2.doWith(bo, "GET", "/api/me", "", nil, &me); !me.SignedIn || len(me.Ratings) != 1 || me.Ratings[0].Games != 1 || me.Ratings[0].Rating != boAfter {
		t.Errorf("Bo after a restart: %+v", me)
	}
	if s := e2.state(cr.ID, ""); len(s.RatingChanges) != 2 || s.RatingChanges[1].After != boAfter {
		t.Errorf("the rated game read back from the store: rating changes %+v", s.RatingChanges)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// FuzzAccountName checks that any name is refused with an error or
// accepted as a name of 3 to 20 characters whose key the sign-in finds.
func FuzzAccountName(f *testing.F) {
	for _, s := range []string{"Ana", "ñandú_2", "ＡＮＡ", "a.b-c", "-x-", "Computer (godlike)", "\xff\xfe", "Ǆemal", "ﬃx", "İstanbul"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		display, key, err := accountName(name)
		if err != nil {
			return
		}
		if n := utf8.RuneCountInString(display); n < minAccountName || n > maxAccountName || key == "" {
			t.Fatalf("%q accepted as %q (%d characters), key %q", name, display, n, key)
		}
		if AccountKey(strings.TrimSpace(name)) != key {
			t.Fatalf("%q: the sign-in's key %q is not the account's %q", name, AccountKey(strings.TrimSpace(name)), key)
		}
	})
}

// TestRatedAgainstComputer plays rated games against the computer: only
// a signed-in player makes one, with a clock; the computer's seat shows
// its level's rating; no analysis until the end; the result moves the
// player's rating against the computer alone (the level's stays), listed
// under the pace "computer" on the player's page and leaderboard; and
// the rematch is rated too.
func TestRatedAgainstComputer(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	clock := ClockRequest{Seconds: 1500}
	req := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "computer", Level: "inhuman"}}, "rated": true, "clock": clock}
	if code := e.do("POST", "/api/games", "", req, nil); code != 401 {
		t.Errorf("a guest's rated game against the computer: %d, want 401", code)
	}
	var eb errorBody
	two := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "computer"}, {Kind: "computer"}}, "rated": true, "clock": clock}
	if code := e.doWith(ana, "POST", "/api/games", "", two, &eb); code != 400 || !strings.Contains(eb.Error, "two computers are not rated") {
		t.Errorf("a rated game of two computers: %d %q", code, eb.Error)
	}
	want := 1500.0
	var cr CreateResponse
	if code := e.doWith(ana, "POST", "/api/games", "", req, &cr); code != 201 {
		t.Fatalf("a rated game against the computer: %d", code)
	}
	id := cr.ID
	var j JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+id+"/join", "", map[string]any{"seat": 0}, &j); code != 200 {
		t.Fatalf("Ana joins: %d", code)
	}
	for round := 1; round <= 2; round++ {
		// The rematch swaps the seats.
		me := j.Seat
		s := e.state(id, "")
		if !s.Rated || s.Pace != PaceComputer || !s.Started || s.Seats[1-me].Kind != "computer" || s.Seats[1-me].Rating != 1787 || !s.Seats[me].Account {
			t.Errorf("round %d: the state: rated %v, pace %q, started %v, seats %+v", round, s.Rated, s.Pace, s.Started, s.Seats)
		}
		if code := e.do("POST", "/api/analyze", j.Token, map[string]any{"game": id}, nil); code != 403 {
			t.Errorf("round %d: analysis during the game: %d, want 403", round, code)
		}
		if code := e.do("POST", "/api/games/"+id+"/resign", j.Token, nil, nil); code != 200 {
			t.Fatalf("round %d: resign: %d", round, code)
		}
		s = e.state(id, "")
		if len(s.RatingChanges) != 1 || s.RatingChanges[0].Seat != me || roundInt(want) != s.RatingChanges[0].Before || s.RatingChanges[0].After >= s.RatingChanges[0].Before {
			t.Fatalf("round %d: rating changes %+v, want Ana's alone, down from %.0f", round, s.RatingChanges, want)
		}
		if round == 1 {
			// A newcomer's loss to a player rated 1787 ± 30.
			lost, _, err := rating.Game(rating.New(), rating.Rating{R: 1787, RD: levelRD, Vol: rating.New().Vol}, 0)
			if err != nil || roundInt(lost.R) != s.RatingChanges[0].After {
				t.Errorf("after the first loss: %d, want %.1f (%v)", s.RatingChanges[0].After, lost.R, err)
			}
		}
		want = float64(s.RatingChanges[0].After)
		if round == 1 {
			var rr RematchResponse
			if code := e.doWith(ana, "POST", "/api/games/"+id+"/rematch", j.Token, nil, &rr); code != 200 {
				t.Fatalf("rematch: %d", code)
			}
			id, j = rr.ID, rr.JoinResponse
		}
	}
	var p Profile
	if code := e.do("GET", "/api/players/ana", "", nil, &p); code != 200 || len(p.Ratings) != 1 || len(p.Games) != 2 {
		t.Fatalf("Ana's page: %d %+v", code, p)
	}
	if r := p.Ratings[0]; r.Lexicon != "en-sowpods" || r.Pace != PaceComputer || r.Rating != roundInt(want) || r.Games != 2 || r.Losses != 2 {
		t.Errorf("Ana's rating against the computer: %+v", r)
	}
	if g := p.Games[0]; g.Pace != PaceComputer || !g.Rated || len(g.Seats) != 2 || g.Seats[0].Level != "inhuman" || g.Seats[1].Name != "Ana" {
		t.Errorf("Ana's last game: %+v", g)
	}
	var lb Leaderboard
	if code := e.do("GET", "/api/leaderboard?lexicon=en-sowpods&pace=computer", "", nil, &lb); code != 200 || len(lb.Players) != 1 || lb.Players[0].Name != "Ana" {
		t.Errorf("the leaderboard against the computer: %d %+v", code, lb)
	}
	if code := e.do("GET", "/api/leaderboard?lexicon=en-sowpods&pace=regular", "", nil, &lb); code != 200 || len(lb.Players) != 0 {
		t.Errorf("the regular leaderboard: %d %+v, want no one", code, lb)
	}
}

func TestRateTwo(t *testing.T) {
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	before := []store.Rating{
		{Account: "a"}, // a newcomer
		{Account: "b", R: 1700, RD: 60, Vol: 0.06, Games: 40, Wins: 30, Losses: 10, Updated: at.Add(-52 * 7 * 24 * time.Hour)},
	}
	after, err := rateTwo(before, [2]float64{1, 0}, [2]string{}, at)
	if err != nil {
		t.Fatal(err)
	}
	if before[0].R != 1500 || before[0].RD != 350 || before[0].Vol != 0.06 {
		t.Errorf("a newcomer starts from %+v", before[0])
	}
	// A year without rated games: the deviation grows (from 60) as 52
	// periods without games do.
	if want := rating.Idle(rating.Rating{R: 1700, RD: 60, Vol: 0.06}, 52).RD; before[1].RD < 80 || math.Abs(before[1].RD-want) > 1e-9 {
		t.Errorf("after a year idle the deviation is %.2f, want %.2f", before[1].RD, want)
	}
	a, b := after[0], after[1]
	if a.R <= 1500 || b.R >= 1700 || a.Games != 1 || a.Wins != 1 || b.Games != 41 || b.Losses != 11 || b.Wins != 30 || a.RD >= 350 {
		t.Errorf("after the upset: %+v and %+v", a, b)
	}
	// The same game a week after b's last one moves b less.
	before2 := []store.Rating{{Account: "a"}, {Account: "b", R: 1700, RD: 60, Vol: 0.06, Games: 40, Updated: at.Add(-7 * 24 * time.Hour)}}
	after2, err := rateTwo(before2, [2]float64{1, 0}, [2]string{}, at)
	if err != nil {
		t.Fatal(err)
	}
	if 1700-after2[1].R >= 1700-b.R {
		t.Errorf("an active player's loss costs %.1f, an idle one's %.1f", 1700-after2[1].R, 1700-b.R)
	}
	if _, err := rateTwo([]store.Rating{{Account: "a"}, {Account: "b"}}, [2]float64{2, -1}, [2]string{}, at); err == nil {
		t.Error("a score of 2: no error")
	}
}

// TestRateAgainstLevel checks a rated game against the computer: the
// level plays at its fixed rating and keeps it, the person's rating moves
// as against any player of that rating, a win against a stronger level
// gains more than one against a weaker one, and every level has a
// rating, in the order of the ladder.
func TestRateAgainstLevel(t *testing.T) {
	at := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	gain := func(level string, result float64) float64 {
		t.Helper()
		before := []store.Rating{{Account: "a"}, {Name: "Computer"}}
		after, err := rateTwo(before, [2]float64{result, 1 - result}, [2]string{"", level}, at)
		if err != nil {
			t.Fatal(err)
		}
		if before[1].R != levelRatings[level] || before[1].RD != levelRD || after[1] != before[1] {
			t.Errorf("%s: the level's rating %+v became %+v", level, before[1], after[1])
		}
		p := rating.Rating{R: levelRatings[level], RD: levelRD, Vol: rating.New().Vol}
		want, _, err := rating.Game(rating.New(), p, result)
		if err != nil {
			t.Fatal(err)
		}
		if after[0].R != want.R || after[0].Games != 1 {
			t.Errorf("%s: the person's rating %+v, want R %.1f", level, after[0], want.R)
		}
		return after[0].R - 1500
	}
	if w, l := gain("inhuman", 1), gain("amateur", 1); w <= l || l <= 0 {
		t.Errorf("a win gains %.1f against inhuman and %.1f against amateur", w, l)
	}
	if l := gain("professional", 0); l >= 0 {
		t.Errorf("a loss to professional gains %.1f", l)
	}
	if _, err := rateTwo([]store.Rating{{Account: "a"}, {}}, [2]float64{1, 0}, [2]string{"", "grandmaster"}, at); err == nil {
		t.Error("an unknown level: no error")
	}
	ladder := []string{"amateur", "adept", "experienced", "professional", "inhuman", "godlike", "simulation"}
	if got := player.Levels(); !slices.Equal(slices.Sorted(maps.Keys(levelRatings)), got) || len(got) != len(ladder) {
		t.Errorf("levels %v, rated levels %v", got, slices.Sorted(maps.Keys(levelRatings)))
	}
	for i := 1; i < len(ladder); i++ {
		if levelRatings[ladder[i]] <= levelRatings[ladder[i-1]] {
			t.Errorf("%s rated %.0f, not above %s's %.0f", ladder[i], levelRatings[ladder[i]], ladder[i-1], levelRatings[ladder[i-1]])
		}
	}
}

// TestSeatOnAnotherDevice checks that an account opens its seat on a
// second device: the games it took are listed, the seat gives the device
// a token of its own (logged, so it survives a restart), and nobody else
// gets one.
func TestSeatOnAnotherDevice(t *testing.T) {
	st := newStore(t)
	e := newEnvConfig(t, testConfig(st))
	laptop, phone, other := browser(t), browser(t), browser(t)
	e.signUp(laptop, "Ana", "correct horse")
	e.signUp(other, "Cyril", "correct horse")
	if code := e.doWith(phone, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("sign in on the phone: %d", code)
	}
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	var j JoinResponse
	if code := e.doWith(laptop, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
		t.Fatalf("join: %d", code)
	}
	var ag AccountGames
	if code := e.doWith(phone, "GET", "/api/me/games", "", nil, &ag); code != 200 || len(ag.Games) != 1 || ag.Games[0].ID != id || ag.Games[0].Seat != 0 {
		t.Fatalf("Ana's games on the phone: %d %+v", code, ag)
	}
	if code := e.do("GET", "/api/me/games", "", nil, nil); code != 401 {
		t.Errorf("games of nobody signed in: %d, want 401", code)
	}
	for _, tc := range []struct {
		c    *http.Client
		body any
		code int
	}{{http.DefaultClient, nil, 401}, {other, nil, 403}, {phone, map[string]int{"seat": 1}, 403}, {phone, `{"seat":"x"}`, 400}} {
		if code := e.doWith(tc.c, "POST", "/api/games/"+id+"/seat", "", tc.body, nil); code != tc.code {
			t.Errorf("a seat key with %v: %d, want %d", tc.body, code, tc.code)
		}
	}
	var k JoinResponse
	if code := e.doWith(phone, "POST", "/api/games/"+id+"/seat", "", nil, &k); code != 200 || k.Seat != 0 || k.Token == "" || k.Token == j.Token {
		t.Fatalf("a seat key for the phone: %d %+v", code, k)
	}
	// Both tokens hold the seat: the phone plays, the laptop sees it.
	s := e.state(id, k.Token)
	if s.You == nil || s.You.Seat != 0 {
		t.Fatalf("the phone's token: %+v", s.You)
	}
	req, _ := bestRequest(t, s)
	if code := e.do("POST", "/api/games/"+id+"/move", k.Token, req, nil); code != 200 {
		t.Fatalf("the phone moves: %d", code)
	}
	if s := e.state(id, j.Token); s.You == nil || s.Moves == 0 {
		t.Errorf("the laptop after the phone's move: %+v, %d moves", s.You, s.Moves)
	}
	// After a restart the phone's token still holds the seat.
	e.srv.Close()
	e2 := newEnvConfig(t, testConfig(st))
	if s := e2.state(id, k.Token); s.You == nil || s.You.Seat != 0 {
		t.Errorf("the phone's token after a restart: %+v", s.You)
	}
	for range maxSeatKeys - 1 {
		if code := e2.doWith(phone, "POST", "/api/games/"+id+"/seat", "", nil, nil); code != 200 {
			t.Fatalf("another seat key: %d", code)
		}
	}
	if code := e2.doWith(phone, "POST", "/api/games/"+id+"/seat", "", nil, nil); code != 409 {
		t.Errorf("seat key %d: %d, want 409", maxSeatKeys+1, code)
	}
}

// TestPasswordAndSignOutEverywhere changes a password, which ends the
// account's other sessions, and signs out on every device.
func TestPasswordAndSignOutEverywhere(t *testing.T) {
	e := newEnv(t, newStore(t))
	a, b, guest := browser(t), browser(t), browser(t)
	e.signUp(a, "Ana", "first password")
	var me Me
	if code := e.doWith(b, "POST", "/api/login", "", map[string]string{"name": "ana", "password": "first password"}, &me); code != 200 {
		t.Fatalf("sign-in on a second device: %d", code)
	}
	signedIn := func(c *http.Client) bool {
		t.Helper()
		var me Me
		if code := e.doWith(c, "GET", "/api/me", "", nil, &me); code != 200 {
			t.Fatalf("me: %d", code)
		}
		return me.SignedIn
	}
	for _, tc := range []struct {
		name string
		c    *http.Client
		body any
		want int
	}{
		{"signed out", guest, map[string]string{"password": "first password", "new": "second password"}, 401},
		{"wrong current password", a, map[string]string{"password": "not the one", "new": "second password"}, 403},
		{"new one too short", a, map[string]string{"password": "first password", "new": "short"}, 400},
		{"no body", a, nil, 400},
	} {
		if code := e.doWith(tc.c, "POST", "/api/me/password", "", tc.body, nil); code != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, code, tc.want)
		}
	}
	if !signedIn(a) || !signedIn(b) {
		t.Fatal("a refused change ended a session")
	}
	if code := e.doWith(a, "POST", "/api/me/password", "", map[string]string{"password": "first password", "new": "second password"}, &me); code != 200 || me.Name != "Ana" {
		t.Fatalf("password change: %d %+v", code, me)
	}
	if !signedIn(a) || signedIn(b) {
		t.Errorf("after the change: this device signed in %v (want true), the other %v (want false)", signedIn(a), signedIn(b))
	}
	if code := e.doWith(b, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "first password"}, nil); code != 401 {
		t.Errorf("sign-in with the old password: %d, want 401", code)
	}
	if code := e.doWith(b, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "second password"}, nil); code != 200 {
		t.Errorf("sign-in with the new password: %d, want 200", code)
	}

	// Sign out everywhere: both devices' sessions end.
	if code := e.doWith(guest, "POST", "/api/logout?everywhere=1", "", nil, nil); code != 401 {
		t.Errorf("sign out everywhere, signed out: %d, want 401", code)
	}
	if code := e.doWith(a, "POST", "/api/logout?everywhere=maybe", "", nil, nil); code != 400 {
		t.Errorf("everywhere=maybe: %d, want 400", code)
	}
	var out SignOut
	if code := e.doWith(a, "POST", "/api/logout?everywhere=1", "", nil, &out); code != 200 || out.Ended != 2 || out.SignedIn {
		t.Errorf("sign out everywhere: %d %+v, want 200 with 2 sessions ended", code, out)
	}
	if signedIn(a) || signedIn(b) {
		t.Errorf("after signing out everywhere: %v %v", signedIn(a), signedIn(b))
	}
	if code := e.doWith(a, "POST", "/api/logout", "", nil, &out); code != 200 || out.Ended != 0 {
		t.Errorf("signing out again: %d %+v, want 200 with none ended", code, out)
	}
}

// TestAccountLock checks the per-account allowance of failed sign-ins:
// past it even the right password is refused, other accounts and
// unknown names are not affected, and a wrong current password counts.
func TestAccountLock(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.AccountFailsPerHour = 3
	e := newEnvConfig(t, cfg)
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "ana's password")
	e.signUp(bo, "Bob", "bob's password")
	try := func(name, pw string) int {
		return e.doWith(browser(t), "POST", "/api/login", "", map[string]string{"name": name, "password": pw}, nil)
	}
	codes := []int{}
	for range 3 {
		codes = append(codes, try("Ana", "a wrong guess"))
	}
	codes = append(codes, try("Ana", "ana's password"), try("Bob", "bob's password"))
	for range 4 {
		codes = append(codes, try("nobody", "a wrong guess"))
	}
	if want := []int{401, 401, 401, 429, 200, 401, 401, 401, 401}; !slices.Equal(codes, want) {
		t.Errorf("sign-ins: %v, want %v", codes, want)
	}
	// A session that was open stays open, but cannot try passwords.
	if code := e.doWith(ana, "POST", "/api/me/password", "", map[string]string{"password": "ana's password", "new": "another one"}, nil); code != 429 {
		t.Errorf("password change of a locked account: %d, want 429", code)
	}
	for range 2 {
		if code := e.doWith(bo, "POST", "/api/me/password", "", map[string]string{"password": "wrong", "new": "another one"}, nil); code != 403 {
			t.Errorf("wrong current password: %d, want 403", code)
		}
	}
	if code := try("Bob", "a wrong guess"); code != 401 {
		t.Errorf("third failure of Bob: %d, want 401", code)
	}
	if code := try("Bob", "bob's password"); code != 429 {
		t.Errorf("Bob after three failures: %d, want 429", code)
	}
}

// TestAccountLockSpread: a client locked out of an account leaves the
// account to the others; from all clients together the account takes
// AccountFailsScale times the allowance, then nobody may sign in to it;
// guesses sent at once are counted before any is checked.
func TestAccountLockSpread(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.AccountFailsPerHour = 2
	cfg.RealIPHeader = "X-Forwarded-For"
	e := newEnvConfig(t, cfg)
	e.signUp(browser(t), "Ana", "ana's password")
	try := func(addr, pw string) int {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"name": "Ana", "password": pw})
		req, err := http.NewRequest("POST", e.url+"/api/login", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", addr)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	var codes []int
	for range 3 {
		codes = append(codes, try("192.0.2.1", "a wrong guess"))
	}
	codes = append(codes, try("192.0.2.2", "ana's password"))
	if want := []int{401, 401, 429, 200}; !slices.Equal(codes, want) {
		t.Errorf("one address locked out, another signs in: %v, want %v", codes, want)
	}
	// 2 × 5 = 10 failures in all lock the account: one more address has
	// used 2 of them already.
	for k := 3; k <= 6; k++ {
		for range 2 {
			if code := try(fmt.Sprintf("192.0.2.%d", k), "a wrong guess"); code != 401 {
				t.Fatalf("guess from 192.0.2.%d: %d, want 401", k, code)
			}
		}
	}
	if code := try("192.0.2.7", "ana's password"); code != 429 {
		t.Errorf("after 10 failures from 5 addresses, the right password from a sixth: %d, want 429", code)
	}

	// Guesses at once from 12 addresses: no more pass than the
	// account's allowance from all clients together.
	e2 := newEnvConfig(t, cfg)
	e2.signUp(browser(t), "Boris", "bo's password")
	var wg sync.WaitGroup
	var checked atomic.Int32
	for k := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]string{"name": "Boris", "password": "a wrong guess"})
			req, err := http.NewRequest("POST", e2.url+"/api/login", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", k+1))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode == 401 {
				checked.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := checked.Load(); n != 10 {
		t.Errorf("12 guesses at once: %d checked, want 10", n)
	}
}

// TestHashingOnePerClient: a client's passwords are hashed one after the
// other, its second queueing for a slot only once its first is done,
// while another client's queues at once; all are hashed in the end.
func TestHashingOnePerClient(t *testing.T) {
	cfg := testConfig(newStore(t))
	e := newEnvConfig(t, cfg)
	s := e.srv
	from := func(addr string) *http.Request {
		r := httptest.NewRequest("POST", "/api/login", nil)
		r.RemoteAddr = addr + ":1234"
		return r
	}
	// Every slot taken by other clients' hashes, each waiting for its
	// release.
	release := make([]chan struct{}, cap(s.hashes))
	var held sync.WaitGroup
	for k := range release {
		held.Add(1)
		release[k] = make(chan struct{})
		go s.hashing(from(fmt.Sprintf("192.0.2.%d", 100+k)), func() error { held.Done(); <-release[k]; return nil })
	}
	held.Wait()
	// Two of 192.0.2.1's and one of 192.0.2.2's, in that order.
	var mu sync.Mutex
	var order []string
	hashed := func(what string) func() error {
		return func() error {
			mu.Lock()
			order = append(order, what)
			mu.Unlock()
			return nil
		}
	}
	done := make(chan error, 3)
	queued := func(client string, n int) bool {
		s.hashMu.Lock()
		defer s.hashMu.Unlock()
		return s.hashClients[client] != nil && s.hashClients[client].n == n
	}
	go func() { done <- s.hashing(from("192.0.2.1"), hashed("a1")) }()
	waitFor(t, "a1 waiting", func() bool { return queued("192.0.2.1", 1) })
	go func() { done <- s.hashing(from("192.0.2.1"), hashed("a2")) }()
	waitFor(t, "a2 waiting", func() bool { return queued("192.0.2.1", 2) })
	go func() { done <- s.hashing(from("192.0.2.2"), hashed("b")) }()
	waitFor(t, "b waiting", func() bool { return queued("192.0.2.2", 1) })
	// One slot freed: the queue for the slots held a1 then b (a2 waited
	// for a1), so they go through it in that order, and a2 after them.
	close(release[0])
	for range 3 {
		if err := <-done; err != nil {
			t.Errorf("a hash: %v", err)
		}
	}
	for _, r := range release[1:] {
		close(r)
	}
	if got := strings.Join(order, " "); got != "a1 b a2" {
		t.Errorf("hashed in the order %s, want a1 b a2 (a2 queues behind b, once a1 is done)", got)
	}
	s.hashMu.Lock()
	defer s.hashMu.Unlock()
	if len(s.hashClients) != 0 {
		t.Errorf("clients still counted: %v", s.hashClients)
	}
}

// TestSignOutEverywhereClosesSeats: signing out everywhere takes back
// every token of the account's seats in its unfinished games (the
// personal link's and the other devices'), closes their WebSockets, and
// holds after a restart; signed in again, a device gets a new token. A
// password change does the same.
func TestSignOutEverywhereClosesSeats(t *testing.T) {
	st := newStore(t)
	e := newEnvConfig(t, testConfig(st))
	laptop, phone := browser(t), browser(t)
	e.signUp(laptop, "Ana", "correct horse")
	if code := e.doWith(phone, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("sign in on the phone: %d", code)
	}
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	var j, k JoinResponse
	if code := e.doWith(laptop, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if code := e.doWith(phone, "POST", "/api/games/"+id+"/seat", "", nil, &k); code != 200 {
		t.Fatalf("a seat key for the phone: %d", code)
	}
	// Someone else's seat in another game stays open.
	other := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	o := e.join(other)
	holds := func(e *testEnv, tok string) int {
		t.Helper()
		return e.do("GET", "/api/games/"+id, tok, nil, nil)
	}
	if holds(e, j.Token) != 200 || holds(e, k.Token) != 200 {
		t.Fatal("the tokens do not hold the seat")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(e.url, "http") + "/api/games/" + id + "/ws?token=" + j.Token
	c, _, err := websocket.Dial(ctx, wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()

	var out SignOut
	if code := e.doWith(phone, "POST", "/api/logout?everywhere=1", "", nil, &out); code != 200 || out.Ended != 2 || out.Seats != 1 {
		t.Fatalf("sign out everywhere: %d %+v, want 2 sessions ended and 1 seat closed", code, out)
	}
	if holds(e, j.Token) != 403 || holds(e, k.Token) != 403 {
		t.Errorf("after signing out everywhere the tokens answer %d and %d, want 403", holds(e, j.Token), holds(e, k.Token))
	}
	if e.do("GET", "/api/games/"+other, o.Token, nil, nil) != 200 {
		t.Error("another person's seat was closed")
	}
	for {
		if _, _, err := c.Read(ctx); err != nil {
			if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
				t.Errorf("the open WebSocket ended with %v, want a policy violation", err)
			}
			break
		}
	}

	// After a restart the tokens stay taken back; signed in again, the
	// phone gets a new one.
	e.srv.Close()
	e2 := newEnvConfig(t, testConfig(st))
	if holds(e2, j.Token) != 403 {
		t.Errorf("after a restart the laptop's token answers %d, want 403", holds(e2, j.Token))
	}
	if code := e2.doWith(phone, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("sign in again: %d", code)
	}
	var k2 JoinResponse
	if code := e2.doWith(phone, "POST", "/api/games/"+id+"/seat", "", nil, &k2); code != 200 || holds(e2, k2.Token) != 200 {
		t.Fatalf("a new seat key: %d", code)
	}
	// A password change takes it back too.
	if code := e2.doWith(phone, "POST", "/api/me/password", "", map[string]string{"password": "correct horse", "new": "battery staple"}, nil); code != 200 {
		t.Fatalf("password change: %d", code)
	}
	if holds(e2, k2.Token) != 403 {
		t.Errorf("after a password change the phone's token answers %d, want 403", holds(e2, k2.Token))
	}
}

// TestRematchOfAccountSeat: a finished game's seat held by an account
// takes its place in the rematch only signed in as the account (a token
// of a finished game outlives a sign-out everywhere).
func TestRematchOfAccountSeat(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	var j JoinResponse
	if code := e.doWith(ana, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/resign", j.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	if code := e.doWith(ana, "POST", "/api/logout?everywhere=1", "", nil, nil); code != 200 {
		t.Fatalf("sign out everywhere: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/rematch", j.Token, nil, nil); code != 403 {
		t.Errorf("a rematch asked for with the token alone: %d, want 403", code)
	}
	if code := e.doWith(ana, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	var rm RematchResponse
	if code := e.doWith(ana, "POST", "/api/games/"+id+"/rematch", j.Token, nil, &rm); code != 200 || rm.ID == "" {
		t.Fatalf("the rematch signed in: %d %+v", code, rm)
	}
	if st := e.state(rm.ID, ""); !st.Seats[rm.Seat].Account || st.Seats[rm.Seat].Name != "Ana" {
		t.Errorf("Ana's seat in the rematch: %+v", st.Seats[rm.Seat])
	}
}

// TestSuspendedAccount checks that an account an operator suspended is
// signed out everywhere and cannot sign in: the right password is told
// why, a wrong one learns nothing; once the suspension is lifted it signs
// in again.
func TestSuspendedAccount(t *testing.T) {
	e := newEnv(t, nil)
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	if err := e.st.Suspend(context.Background(), AccountKey("Ana"), "abuse in chat", time.Now()); err != nil {
		t.Fatal(err)
	}
	var me Me
	if code := e.doWith(ana, "GET", "/api/me", "", nil, &me); code != 200 || me.SignedIn {
		t.Errorf("a suspended account's session: %d %+v, want signed out", code, me)
	}
	var eb errorBody
	if code := e.doWith(ana, "POST", "/api/login", "", map[string]string{"name": "ana", "password": "correct horse"}, &eb); code != 403 ||
		eb.Error != "this account is suspended: abuse in chat" {
		t.Errorf("sign-in to a suspended account: %d %q", code, eb.Error)
	}
	eb = errorBody{}
	if code := e.doWith(ana, "POST", "/api/login", "", map[string]string{"name": "ana", "password": "wrong horse"}, &eb); code != 401 ||
		strings.Contains(eb.Error, "suspended") {
		t.Errorf("a wrong password to a suspended account: %d %q", code, eb.Error)
	}
	if err := e.st.Unsuspend(context.Background(), AccountKey("Ana")); err != nil {
		t.Fatal(err)
	}
	if code := e.doWith(ana, "POST", "/api/login", "", map[string]string{"name": "ana", "password": "correct horse"}, &me); code != 200 || !me.SignedIn {
		t.Errorf("sign-in after the suspension: %d %+v", code, me)
	}
}

// TestLevelStats: the games against the computer listed weakest level
// first, with the averages to one decimal.
func TestLevelStats(t *testing.T) {
	got := levelStats([]store.LevelTotal{{Level: "inhuman", Games: 3, Wins: 1, Losses: 2, Points: 1000, LevelPoints: 1300},
		{Level: "adept", Games: 2, Wins: 2, Points: 800, LevelPoints: 500}, {Level: "professional", Games: 1, Draws: 1, Points: 400, LevelPoints: 400}})
	var order []string
	for _, l := range got {
		order = append(order, l.Level)
	}
	if strings.Join(order, " ") != "adept professional inhuman" || got[2].Average != 333.3 || got[2].ComputerAverage != 433.3 || got[0].Wins != 2 {
		t.Errorf("levelStats: %+v", got)
	}
}
