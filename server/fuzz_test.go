package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/store"
	"atril/variant"
)

// Every request decoder either accepts its input or answers a client
// error (an *apiError with a 4xx status); it never panics.

func checkAPIError(t *testing.T, err error) {
	t.Helper()
	var ae *apiError
	if !errors.As(err, &ae) || ae.code < 400 || ae.code > 499 || ae.msg == "" {
		t.Fatalf("decoder error is not a client error: %#v", err)
	}
}

func fuzzServer(t testing.TB) *Server {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := testConfig(st)
	cfg.Variants = []string{"english", "spanish"}
	cfg.Lexicons = []string{"en-sowpods", "es-fise"}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

func FuzzDecodeCreate(f *testing.F) {
	for _, s := range []string{
		`{"variant":"english","seats":[{"kind":"human"},{"kind":"computer","level":"professional"}]}`,
		`{"variant":"spanish","lexicon":"es-fise","seats":[{},{},{},{}],"seed":7}`,
		`{"seats":[{"kind":"human","name":"Ñandú"},{"kind":"human","name":"  "}]}`,
		`{"seats":[{"kind":"computer","level":""},{"kind":"cat"}]}`, `[]`, `null`, `{"seats":null}`, ``,
		`{"seats":[{},{}],"clock":{"seconds":1500,"overtime":60}}`, `{"seats":[{},{}],"clock":{"seconds":-1}}`,
	} {
		f.Add([]byte(s))
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := srv.decodeCreate(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if c := req.Clock; c != nil && (c.Seconds < 1 || c.Seconds > MaxClockSeconds || c.Overtime < 0 || c.Overtime > MaxOvertimeSeconds) {
			t.Fatalf("accepted a bad clock: %+v", *c)
		}
		if len(req.Seats) < 2 || len(req.Seats) > 4 || !srv.variantAllowed(req.Variant) {
			t.Fatalf("accepted a bad game: %+v", req)
		}
		for _, s := range req.Seats {
			if (s.Kind == "human") != (s.Level == "") || len([]rune(s.Name)) > maxName {
				t.Fatalf("accepted a bad seat: %+v", s)
			}
		}
	})
}

// FuzzDecodeQuick: a quick pairing's request is refused with a clear
// error or read as a game of two people's seats, the first named as
// asked, the clock and challenge rule as a new game takes them.
func FuzzDecodeQuick(f *testing.F) {
	for _, s := range []string{
		`{"variant":"english","clock":{"seconds":600,"overtime":60}}`, `{"variant":"spanish","lexicon":"es-fise","name":"Ñandú","rated":true}`,
		`{"clock":{"per_move":86400},"challenge":"double"}`, `{"clock":{"seconds":-1}}`, `{"seats":[]}`, `[]`, `null`, ``, `{"name":"a\u0000"}`,
	} {
		f.Add([]byte(s))
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := srv.decodeQuick(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if len(req.Seats) != 2 || req.Seats[0].Kind != "human" || req.Seats[1].Kind != "human" || req.Seats[1].Name != "" || req.Variant == "" || req.Lexicon == "" {
			t.Fatalf("accepted %+v", req)
		}
		if req.Clock != nil {
			if err := req.Clock.check(); err != nil {
				t.Fatalf("accepted clock %+v: %v", req.Clock, err)
			}
		}
		if req.Rated && req.Clock == nil {
			t.Fatalf("a rated game without a clock: %+v", req)
		}
	})
}

func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{`{"text":"Hi, a game?"}`, `{"text":"  "}`, `{"text":"a\u0000b"}`, `{"text":"\u202eevil"}`, `{}`, `[]`, ``, `{"text":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := decodeMessage(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if text == "" || !utf8.ValidString(text) || utf8.RuneCountInString(text) > MaxMessageText || strings.TrimSpace(text) != text {
			t.Fatalf("accepted %q", text)
		}
	})
}

func FuzzDecodeSettings(f *testing.F) {
	for _, s := range []string{`{"theme":"dark","board":"felt","tiles":"slate","rack_order":"vowels","sound":"off","language":"cs","coach":"on"}`,
		`{}`, `{"theme":"blue"}`, `{"theme":""}`, `{"colour":"red"}`, `[]`, `null`, ``, `{"theme":1}`, `{"language":"es"} {}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, text, err := decodeSettings(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		for _, f := range st.fields() {
			if v := *f.value; v != "" && !slices.Contains(settingChoices[f.name], v) {
				t.Fatalf("accepted %s=%q", f.name, v)
			}
		}
		if (text == "") != (st == Settings{}) || parseStored(text) != st {
			t.Fatalf("%+v kept as %q, read back as %+v", st, text, parseStored(text))
		}
	})
}

func FuzzDecodeRushStart(f *testing.F) {
	for _, s := range []string{`{"lexicon":"en-sowpods","mode":"timed"}`, `{"lexicon":"en-sowpods","mode":"survival"}`, `{"lexicon":"xx","mode":"timed"}`,
		`{"mode":""}`, `{}`, `[]`, `null`, ``, `{"lexicon":"en-sowpods","mode":"timed","x":1}`} {
		f.Add([]byte(s))
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := srv.decodeRushStart(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if _, ok := rushModes[req.Mode]; !ok || srv.variantOfLexicon(req.Lexicon) == nil {
			t.Fatalf("accepted %+v", req)
		}
	})
}

func FuzzDecodeJoin(f *testing.F) {
	for _, s := range []string{`{"name":"Ana"}`, `{"seat":1}`, `{"seat":-1}`, `{"name":"a\u0000"}`, ``, `{}`, `{"seat":1e9}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := decodeJoin(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if req.Seat != nil && (*req.Seat < 0 || *req.Seat > 3) {
			t.Fatalf("accepted seat %d", *req.Seat)
		}
	})
}

func FuzzDecodeMove(f *testing.F) {
	for _, s := range []string{
		`{"kind":"place","tiles":[{"row":7,"col":7,"letter":"A"},{"row":7,"col":8,"letter":"T","blank":true}]}`,
		`{"kind":"place","tiles":[{"row":6,"col":8,"letter":"O"}]}`,
		`{"kind":"exchange","exchange":["A","?","Z"]}`, `{"kind":"pass"}`,
		`{"notation":"8H CAT"}`, `{"notation":"H8 c.T"}`, `{"notation":"-AB?"}`, `{"notation":"pass"}`,
		`{"kind":"place","tiles":[]}`, `{"kind":"place","tiles":[{"row":-1,"col":99,"letter":"CH"}]}`,
	} {
		f.Add([]byte(s))
	}
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CAT", "AT", "TO", "OAT")
	if err != nil {
		f.Fatal(err)
	}
	b := board.New(v, lex)
	b.Place([][2]int{{7, 7}, {7, 8}, {7, 9}}, []alphabet.Tile{3, 1, 20}, 0)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeMove(data, b)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		switch m.Kind {
		case move.Place:
			// Notation may name only filled squares or run off the board
			// (the rules refuse those later), but it starts on the board.
			if len(m.Tiles) == 0 || !b.In(m.Row, m.Col) {
				t.Fatalf("accepted placement at %d,%d with %d tiles", m.Row, m.Col, len(m.Tiles))
			}
		case move.Exchange:
			if len(m.Exchanged) == 0 || len(m.Exchanged) > v.RackSize {
				t.Fatalf("accepted exchange of %d tiles", len(m.Exchanged))
			}
		}
	})
}

// FuzzMoveRequest sends arbitrary bodies to the move endpoint of a live
// game: a refused request must leave the game exactly as it was.
func FuzzMoveRequest(f *testing.F) {
	for _, s := range []string{`{"kind":"pass"}`, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"Q"}]}`,
		`{"notation":"8H QI"}`, `{"kind":"exchange","exchange":["?"]}`, `{`, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"A"},{"row":7,"col":8,"letter":"A"}]}`} {
		f.Add([]byte(s))
	}
	srv := fuzzServer(f)
	hs := httptest.NewServer(srv)
	f.Cleanup(hs.Close)
	e := &testEnv{t: &testing.T{}, srv: srv, hs: hs, url: hs.URL}
	f.Fuzz(func(t *testing.T, data []byte) {
		e.t = t
		id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
		a := e.join(id)
		e.join(id)
		before := gameJSON(e.state(id, a.Token))
		req, _ := http.NewRequest("POST", hs.URL+"/api/games/"+id+"/move", bytes.NewReader(data))
		req.Header.Set("Authorization", "Bearer "+a.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		after := gameJSON(e.state(id, a.Token))
		switch {
		case resp.StatusCode == 200:
			if after == before {
				t.Fatal("an accepted move changed nothing")
			}
		case resp.StatusCode >= 400 && resp.StatusCode < 500:
			if after != before {
				t.Fatalf("refused request (%d) changed the game", resp.StatusCode)
			}
		default:
			t.Fatalf("status %d", resp.StatusCode)
		}
	})
}

// FuzzWordJudge: the word judge answers every question with the
// judgement of each word or a client error.
func FuzzWordJudge(f *testing.F) {
	for _, s := range [][2]string{{"en-sowpods", "QI"}, {"en-sowpods", " cat "}, {"es-fise", "CHICO"}, {"xx", "A"},
		{"en-sowpods", "Ñ"}, {"en-sowpods", ""}, {"en-sowpods", "ABCDEFGHIJKLMNOPQ"}, {"en-sowpods", "[CH]"}} {
		f.Add(s[0], s[1])
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, lexicon, word string) {
		q := url.Values{"lexicon": {lexicon}, "w": {word, word}}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/api/words?"+q.Encode(), nil))
		switch rec.Code {
		case 200:
			var ans WordsAnswer
			if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil || len(ans.Words) != 2 || ans.Words[0] != ans.Words[1] ||
				ans.Words[0].Word != strings.TrimSpace(word) || ans.Lexicon != lexicon {
				t.Fatalf("answer %s for %q in %q", rec.Body.Bytes(), word, lexicon)
			}
		case 400:
		default:
			t.Fatalf("status %d for %q in %q: %s", rec.Code, word, lexicon, rec.Body.Bytes())
		}
	})
}

// FuzzDecodeChat: a chat line is accepted clean and within bounds, or
// refused with a client error.
func FuzzDecodeChat(f *testing.F) {
	for _, s := range []string{`{"text":"gg"}`, `{"text":""}`, `{"text":"a\u200bb\u202ec"}`, `{"text":"` + strings.Repeat("é", 201) + `"}`, `{}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := decodeChat(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if text == "" || utf8.RuneCountInString(text) > MaxChatText || strings.TrimSpace(text) != text || strings.ContainsAny(text, "\n\r\t\u200b\u202e") {
			t.Fatalf("accepted chat line %q from %q", text, data)
		}
	})
}

// FuzzPuzzleAnswer sends arbitrary bodies to a puzzle's answer: each
// gets an answer or a client error, an accepted play a rank within the
// position's placements (the best ranked first), and the puzzle stays
// as it was.
func FuzzPuzzleAnswer(f *testing.F) {
	for _, s := range []string{`{"reveal":true}`, `{"tiles":[{"row":7,"col":7,"letter":"Q"}]}`, `{"tiles":[]}`, `{`,
		`{"tiles":[{"row":7,"col":7,"letter":"A"},{"row":7,"col":8,"letter":"?","blank":true}]}`, `{"tiles":[{"row":-1,"col":99,"letter":"ZZ"}]}`} {
		f.Add([]byte(s))
	}
	srv := fuzzServer(f)
	hs := httptest.NewServer(srv)
	f.Cleanup(hs.Close)
	e := &testEnv{t: &testing.T{}, srv: srv, hs: hs, url: hs.URL}
	position := func(t *testing.T) string {
		var p PuzzleInfo
		if code := e.do("GET", "/api/puzzles/en-sowpods/3", "", nil, &p); code != 200 {
			t.Fatalf("puzzle 3: %d", code)
		}
		b, _ := json.Marshal(p.State)
		return string(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e.t = t
		before := position(t)
		resp, err := http.Post(hs.URL+"/api/puzzles/en-sowpods/3/answer", "application/json", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var a PuzzleAnswer
		dec := json.NewDecoder(resp.Body).Decode(&a)
		resp.Body.Close()
		switch {
		case resp.StatusCode == 200:
			if dec != nil {
				t.Fatalf("answer: %v", dec)
			}
			if a.OK && (a.Rank < 1 || a.Rank > a.Moves || a.Correct != (a.Rank == 1) || a.Correct != (a.Score == a.BestScore)) {
				t.Fatalf("an accepted play: %+v", a)
			}
			var req puzzleRequest
			reveal := json.Unmarshal(data, &req) == nil && req.Reveal
			if !a.OK && !reveal && (a.Best != nil || a.BestScore != 0) {
				t.Fatalf("a refused play shows the solution: %+v", a)
			}
		case resp.StatusCode >= 400 && resp.StatusCode < 500:
		default:
			t.Fatalf("status %d", resp.StatusCode)
		}
		if position(t) != before {
			t.Fatal("an answer changed the puzzle")
		}
	})
}

// FuzzPositionPlay plays any move on any CGP line of the analysis board:
// every request gets a position or a client error, and a position played
// on reads back as itself, with the move's tiles added to the board.
func FuzzPositionPlay(f *testing.F) {
	empty := emptyCGP("AEINRST/", "0/0")
	for _, s := range []struct{ cgp, mv string }{
		{empty, `{"notation":"8H NE"}`},
		{empty, `{"kind":"pass"}`},
		{empty, `{"kind":"exchange","exchange":["A","?"]}`},
		{empty, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"A"},{"row":7,"col":8,"letter":"T"}]}`},
		{strings.Replace(empty, "15/15/15/15/15/15/15/15", "15/15/15/15/15/15/15/7AT6", 1), `{"notation":"9H AE"}`},
		{"15/15 ??/ 0/0 0", `{}`},
		{empty + " lex sowpods;", `null`},
	} {
		f.Add(s.cgp, []byte(s.mv))
	}
	srv := fuzzServer(f)
	hs := httptest.NewServer(srv)
	f.Cleanup(hs.Close)
	e := &testEnv{t: &testing.T{}, srv: srv, hs: hs, url: hs.URL}
	f.Fuzz(func(t *testing.T, line string, mv []byte) {
		e.t = t
		body, err := json.Marshal(map[string]any{"cgp": line, "lexicon": "en-sowpods", "move": json.RawMessage(mv)})
		if err != nil {
			return // not JSON: the client's own error
		}
		resp, err := http.Post(hs.URL+"/api/position/play", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var after PositionInfo
		dec := json.NewDecoder(resp.Body).Decode(&after)
		resp.Body.Close()
		switch {
		case resp.StatusCode == 200:
			if dec != nil || after.Played == nil || after.State == nil {
				t.Fatalf("a play's answer: %v %+v", dec, after)
			}
		case resp.StatusCode >= 400 && resp.StatusCode < 500:
			return
		default:
			t.Fatalf("status %d", resp.StatusCode)
		}
		var before, again PositionInfo
		if code := e.do("POST", "/api/position", "", PositionRequest{CGP: line, Lexicon: "en-sowpods"}, &before); code != 200 {
			t.Fatalf("a line played on is refused: %d", code)
		}
		if code := e.do("POST", "/api/position", "", PositionRequest{CGP: after.CGP}, &again); code != 200 || again.CGP != after.CGP {
			t.Fatalf("the position after the play reads back as %d %q, want %q", code, again.CGP, after.CGP)
		}
		if len(again.State.Board) != len(before.State.Board)+len(after.Played.Tiles) {
			t.Fatalf("%s: %d tiles on the board, then %d", after.Played.Move, len(before.State.Board), len(again.State.Board))
		}
	})
}

// FuzzImport: a GCG file is imported, and then rebuilt from the store as
// a finished game, or refused with a client error.
func FuzzImport(f *testing.F) {
	good := "#player1 Ana Ana García\n#player2 Bo Bo\n#lexicon en-sowpods\n>Ana: AEINRST 8D RETAINS +66 66\n>Bo: ADEIOU? -IOU +0 0\n"
	for _, s := range []string{good, good + ">Ana: EEGILOT - +0 66\n#note fine\n  indeed\n", "#challenge double\n" + good,
		strings.Replace(good, "+66", "+67", 1), strings.Replace(good, "en-sowpods", "CSW21", 1), "#lexicon es-fise\n>a: CHE 8H [CH]E +8 8\n", "", ">:\n"} {
		f.Add(s)
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, text string) {
		id, _, err := srv.importGame(t.Context(), &ImportRequest{GCG: text})
		if err != nil {
			checkAPIError(t, err)
			return
		}
		l, err := srv.game(t.Context(), id)
		if err != nil {
			t.Fatalf("imported %q, but it does not load: %v", text, err)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if !l.over() || !l.imported || l.gcgText != text {
			t.Fatalf("imported %q: over %v, imported %v", text, l.over(), l.imported)
		}
	})
}

// FuzzDecodeEndgameRequest: what the decoder of an endgame puzzle's
// answer accepts asks for exactly one thing, and what it refuses gets an
// API error.
func FuzzDecodeEndgameRequest(f *testing.F) {
	for _, s := range []string{`{"tiles":[{"row":7,"col":7,"letter":"A"}]}`, `{"pass":true}`, `{"reveal":true}`, `{}`, `{"pass":true,"reveal":true}`,
		`{"pass":true,"tiles":[]}`, `{"tiles":null}`, `{"tiles":[]}`, `[]`, `null`, ``, `{"move":"8H A"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := decodeEndgameRequest(data)
		if err != nil {
			checkAPIError(t, err)
			return
		}
		n := 0
		for _, b := range []bool{req.Tiles != nil, req.Pass, req.Reveal} {
			if b {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%q accepted as %+v: %d things asked", data, req, n)
		}
	})
}
