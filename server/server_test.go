package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"atril/alphabet"
	"atril/board"
	gcgpkg "atril/gcg"
	"atril/internal/testgame"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/store"
	"atril/variant"
)

// shortWords is the English list cut to words of at most four letters:
// real enough for real games, small enough for quick tests.
func shortWords(v *variant.Variant) (*lexicon.Lexicon, error) {
	_, lex, err := testgame.ShortEnglish(4)
	return lex, err
}

type testEnv struct {
	t   *testing.T
	srv *Server
	hs  *httptest.Server
	url string
	st  store.Store
}

func testConfig(st store.Store) Config {
	return Config{
		Store:        st,
		Variants:     []string{"english"},
		Lexicons:     []string{"en-sowpods"},
		LoadLexicon:  func(v *variant.Variant, name string) (*lexicon.Lexicon, error) { return shortWords(v) },
		NewGenerator: func(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewBrute(lex) },
		Logf:         func(string, ...any) {},
		MoveBudget:   100 * time.Millisecond,
		AllowSeed:    true,
		// The tests make many games and bad requests from one address.
		CreatePerMinute: -1, JoinPerMinute: -1, BadPerMinute: -1, LookupPerMinute: -1, ChatPerMinute: -1, LoginPerMinute: -1,
		PasswordIterations: 1000,
		MaxOffers:          -1,
		MaxGamesPerClient:  -1, MaxComputerGames: -1, ImportsPerHour: -1,
		// The tests read the lobby right after what changes it.
		LobbyEvery: -1,
	}
}

func newEnv(t *testing.T, st store.Store) *testEnv {
	t.Helper()
	if st == nil {
		var err error
		st, err = store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
	}
	return newEnvConfig(t, testConfig(st))
}

// newEnvConfig starts a server with cfg (whose store the caller closes).
func newEnvConfig(t *testing.T, cfg Config) *testEnv {
	t.Helper()
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return &testEnv{t: t, srv: srv, hs: hs, st: cfg.Store, url: hs.URL}
}

// do sends a request and decodes the JSON answer into out (if not nil),
// returning the status.
func (e *testEnv) do(method, path, tok string, body any, out any) int {
	e.t.Helper()
	return e.doWith(http.DefaultClient, method, path, tok, body, out)
}

// doWith is do through client c (one with a cookie jar keeps a session).
func (e *testEnv) doWith(c *http.Client, method, path, tok string, body any, out any) int {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, e.url+path, rd)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		var eb errorBody
		if err := json.Unmarshal(data, &eb); err != nil || eb.Error == "" {
			e.t.Errorf("%s %s: error answer %d is not a JSON error: %s", method, path, resp.StatusCode, data)
		}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			e.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

func (e *testEnv) create(seats ...SeatRequest) string {
	e.t.Helper()
	seed := uint64(42)
	var cr CreateResponse
	if code := e.do("POST", "/api/games", "", map[string]any{"variant": "english", "seats": seats, "seed": seed}, &cr); code != 201 {
		e.t.Fatalf("create: %d", code)
	}
	return cr.ID
}

func (e *testEnv) join(id string) JoinResponse {
	e.t.Helper()
	var jr JoinResponse
	if code := e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Ana"}, &jr); code != 200 {
		e.t.Fatalf("join: %d", code)
	}
	return jr
}

func (e *testEnv) state(id, tok string) *State {
	e.t.Helper()
	var st State
	if code := e.do("GET", "/api/games/"+id, tok, nil, &st); code != 200 {
		e.t.Fatalf("state: %d", code)
	}
	return &st
}

func (e *testEnv) drain(id, tok string) []Notification {
	e.t.Helper()
	var ns []Notification
	if code := e.do("GET", "/api/games/"+id+"/notifications", tok, nil, &ns); code != 200 {
		e.t.Fatalf("notifications: %d", code)
	}
	return ns
}

// boardOf rebuilds a board from a state, as any client could.
func boardOf(t *testing.T, st *State) *board.Board {
	v := variant.MustLoad(st.Variant)
	lex, err := shortWords(v)
	if err != nil {
		t.Fatal(err)
	}
	b := board.New(v, lex)
	for _, tl := range st.Board {
		c, err := v.Alphabet.Letter(tl.Letter, alphabet.Plain)
		if err != nil {
			t.Fatal(err)
		}
		if tl.Blank {
			c |= alphabet.BlankBit
		}
		b.SetTile(*tl.Row, *tl.Col, c, 0)
	}
	b.Recompute()
	return b
}

func rackOf(t *testing.T, st *State) alphabet.Rack {
	v := variant.MustLoad(st.Variant)
	var r alphabet.Rack
	for _, tl := range st.You.Rack {
		if tl.Blank {
			r.Add(alphabet.Blank)
			continue
		}
		c, err := v.Alphabet.Letter(tl.Letter, alphabet.Plain)
		if err != nil {
			t.Fatal(err)
		}
		r.Add(c)
	}
	return r
}

// bestRequest finds the best placement for the seat of tok and returns
// it as a move request by squares, or a pass.
func bestRequest(t *testing.T, st *State) (map[string]any, *move.Move) {
	b := boardOf(t, st)
	r := rackOf(t, st)
	m, ok := movegen.Best(movegen.NewBrute(b.Words().(*lexicon.Lexicon)), b, &r)
	if !ok {
		return map[string]any{"kind": "pass"}, nil
	}
	a := b.Variant.Alphabet
	var tiles []PlacedTile
	sq, ts := m.Placed()
	for i, tl := range ts {
		tiles = append(tiles, PlacedTile{Row: sq[i][0], Col: sq[i][1], Letter: a.String(tl.Letter()), Blank: tl.IsBlanked()})
	}
	return map[string]any{"kind": "place", "tiles": tiles}, &m
}

func types(ns []Notification) string {
	var s []string
	for _, n := range ns {
		s = append(s, n.Type)
	}
	return strings.Join(s, ",")
}

func TestTwoPeople(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	st := e.state(id, "")
	if st.Started || st.You != nil || st.Expected != 2 || st.Connected != 0 {
		t.Fatalf("fresh game: %+v", st)
	}
	a, b := e.join(id), e.join(id)
	if a.Seat != 0 || b.Seat != 1 || a.Token == b.Token {
		t.Fatalf("joins: %+v %+v", a, b)
	}
	var jr JoinResponse
	if code := e.do("POST", "/api/games/"+id+"/join", "", "", &jr); code != 409 {
		t.Errorf("third join: %d, want 409", code)
	}
	na := e.drain(id, a.Token)
	if got := types(na); got != "seat,started,tiles,turn" {
		t.Errorf("seat 0 notifications: %s", got)
	}
	if len(na) == 4 && (len(na[2].Tiles) != 7 || na[1].Size != 15 || *na[3].Seat != 0) {
		t.Errorf("start notifications: %+v", na)
	}
	if n := e.drain(id, a.Token); len(n) != 0 {
		t.Errorf("queue not drained: %v", types(n))
	}
	e.drain(id, b.Token)
	sa, sb, pub := e.state(id, a.Token), e.state(id, b.Token), e.state(id, "")
	if sa.You == nil || sa.You.Seat != 0 || sb.You.Seat != 1 || pub.You != nil || !sa.Started {
		t.Fatalf("states: %+v / %+v / %+v", sa.You, sb.You, pub.You)
	}
	// Unseen for seat 0 counts seat 1's rack and the bag, not its own.
	unseen := 0
	for _, u := range sa.You.Unseen {
		unseen += u.Count
	}
	if unseen != sa.Bag+7 {
		t.Errorf("unseen %d, want bag %d + 7", unseen, sa.Bag)
	}
	// Seat 1 may not move on seat 0's turn; the refusal goes to seat 1 only.
	req, m := bestRequest(t, sa)
	if m == nil {
		t.Fatal("no first move")
	}
	if code := e.do("POST", "/api/games/"+id+"/move", b.Token, req, nil); code != 409 {
		t.Errorf("move out of turn: %d, want 409", code)
	}
	if got := types(e.drain(id, b.Token)); got != "rejected" {
		t.Errorf("seat 1 after refusal: %s", got)
	}
	if got := types(e.drain(id, a.Token)); got != "" {
		t.Errorf("seat 0 saw seat 1's refusal: %s", got)
	}
	// A word not in the list is refused with the reason.
	bad := map[string]any{"kind": "place", "tiles": []PlacedTile{{Row: 7, Col: 7, Letter: "Q"}, {Row: 7, Col: 8, Letter: "Q"}}}
	var eb errorBody
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, bad, &eb); code != 422 && code != 400 {
		t.Errorf("bad move: %d %s", code, eb.Error)
	}
	ns := e.drain(id, a.Token)
	if types(ns) != "rejected" || ns[0].Reason == "" {
		t.Errorf("bad move notifications: %+v", ns)
	}
	if after := gameJSON(e.state(id, a.Token)); after != gameJSON(sa) {
		t.Errorf("refused moves changed the game:\n%+v\n%+v", after, sa)
	}
	// The best move is accepted and announced.
	var mr MoveResponse
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, &mr); code != 200 || mr.Score != m.Score {
		t.Fatalf("move: %d %+v, want score %d", code, mr, m.Score)
	}
	na, nb := e.drain(id, a.Token), e.drain(id, b.Token)
	if got := types(na); got != "placed,points,tiles,turn" {
		t.Errorf("mover's notifications: %s", got)
	}
	if got := types(nb); got != "placed,points,turn" {
		t.Errorf("other seat's notifications: %s", got)
	}
	if len(nb) == 3 && (*nb[1].Points != m.Score || *nb[2].Seat != 1 || len(nb[0].Tiles) != m.NewTiles()) {
		t.Errorf("announcement: %+v", nb)
	}
	// Exchange: the other seat learns the count, not the tiles.
	sb = e.state(id, b.Token)
	ex := []string{sb.You.Rack[0].Letter, sb.You.Rack[1].Letter}
	if code := e.do("POST", "/api/games/"+id+"/move", b.Token, map[string]any{"kind": "exchange", "exchange": ex}, nil); code != 200 {
		t.Fatalf("exchange: %d", code)
	}
	na = e.drain(id, a.Token)
	if types(na) != "exchange,turn" || na[0].Count != 2 || na[0].Tiles != nil {
		t.Errorf("exchange seen by seat 0: %+v", na)
	}
	pub = e.state(id, "")
	if h := pub.History[1]; h.Kind != "exchange" || h.Count != 2 || h.Move != "" {
		t.Errorf("exchange in history: %+v", h)
	}
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, map[string]any{"notation": "pass"}, nil); code != 200 {
		t.Fatalf("pass: %d", code)
	}
	if got := types(e.drain(id, b.Token)); got != "exchange,tiles,turn,pass,turn" {
		t.Errorf("seat 1 notifications: %s", got)
	}
	if code := e.do("GET", "/api/games/"+id+"/gcg", "", nil, nil); code != 409 {
		t.Errorf("GCG of an unfinished game: %d, want 409", code)
	}
}

func TestChosenSeedNeedsPermission(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(st)
	cfg.AllowSeed = false
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	e := &testEnv{t: t, srv: srv, hs: hs, st: st, url: hs.URL}
	if code := e.do("POST", "/api/games", "", `{"seats":[{},{}],"seed":5}`, nil); code != 400 {
		t.Errorf("chosen seed: %d, want 400", code)
	}
	if code := e.do("POST", "/api/games", "", `{"seats":[{},{}]}`, nil); code != 201 {
		t.Errorf("no seed: %d, want 201", code)
	}
}

func TestWebSocketPush(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(e.url, "http") + "/api/games/" + id + "/ws?token=" + b.Token
	c, _, err := websocket.Dial(ctx, wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	read := func() Notification {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var n Notification
		if err := json.Unmarshal(data, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var got []string
	for range 4 {
		got = append(got, read().Type)
	}
	if strings.Join(got, ",") != "seat,started,tiles,turn" {
		t.Errorf("queued notifications over WebSocket: %v", got)
	}
	if n := e.drain(id, b.Token); len(n) != 0 {
		t.Errorf("pushed notifications still queued: %v", types(n))
	}
	req, _ := bestRequest(t, e.state(id, a.Token))
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
		t.Fatal(code)
	}
	got = nil
	for range 3 {
		got = append(got, read().Type)
	}
	if strings.Join(got, ",") != "placed,points,turn" {
		t.Errorf("live notifications: %v", got)
	}
	// A wrong token cannot open the socket.
	if _, resp, err := websocket.Dial(ctx, strings.Replace(wsURL, b.Token, a.Token+"x", 1), nil); err == nil || resp.StatusCode != 403 {
		t.Errorf("WebSocket with a bad token: %v %v", err, resp)
	}
}

// playOut plays a game of two people to the end, each making its best
// move (or passing).
func playOut(t *testing.T, e *testEnv, id string, toks []string, limit int) {
	for k := 0; k < limit; k++ {
		pub := e.state(id, "")
		if pub.Over {
			return
		}
		st := e.state(id, toks[pub.Turn])
		req, _ := bestRequest(t, st)
		if code := e.do("POST", "/api/games/"+id+"/move", toks[pub.Turn], req, nil); code != 200 {
			t.Fatalf("move %d: %d", k, code)
		}
	}
}

func TestComputerAndGameEnd(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := e.join(id)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		var ns []Notification
		e.do("GET", "/api/games/"+id+"/notifications?wait=5", a.Token, nil, &ns)
		st := e.state(id, a.Token)
		if st.Over {
			break
		}
		if st.Turn == 0 {
			req, _ := bestRequest(t, st)
			if code := e.do("POST", "/api/games/"+id+"/move", a.Token, req, nil); code != 200 {
				t.Fatalf("move: %d", code)
			}
		}
	}
	st := e.state(id, "")
	if !st.Over || len(st.Winners) == 0 {
		t.Fatalf("game did not end: %+v", st)
	}
	comp := 0
	for _, h := range st.History {
		if h.Seat == 1 && h.Kind == "place" {
			comp++
		}
	}
	if comp == 0 {
		t.Error("the computer never placed a word")
	}
	resp, err := http.Get(e.url + "/api/games/" + id + "/gcg")
	if err != nil {
		t.Fatal(err)
	}
	gcg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(gcg), "Computer (professional)") {
		t.Errorf("GCG %d:\n%s", resp.StatusCode, gcg)
	}
	// The file reads back (every move replayed and checked) to the same end.
	v := variant.MustLoad("english")
	lex, _ := shortWords(v)
	back, err := gcgpkg.Read(bytes.NewReader(gcg), v, lex)
	if err != nil {
		t.Fatalf("GCG does not read back: %v\n%s", err, gcg)
	}
	if back.Seats[0].Score != st.Seats[0].Score || back.Seats[1].Score != st.Seats[1].Score || !back.Over() {
		t.Errorf("GCG replays to %d-%d, the game ended %d-%d", back.Seats[0].Score, back.Seats[1].Score, st.Seats[0].Score, st.Seats[1].Score)
	}
	g, _, err := e.st.Load(context.Background(), id)
	if err != nil || !g.Finished {
		t.Errorf("stored game not finished: %+v %v", g, err)
	}
}

func TestRestartReplays(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	restartReplays(t, st)
}

// TestRestartReplaysPostgres is TestRestartReplays on PostgreSQL.
func TestRestartReplaysPostgres(t *testing.T) {
	dsn := os.Getenv("ATRIL_PG_DSN")
	if dsn == "" {
		t.Skip("server on PostgreSQL NOT tested: set ATRIL_PG_DSN (source .ci/install-postgres.sh)")
	}
	st, err := store.OpenPostgres(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	restartReplays(t, st)
}

func restartReplays(t *testing.T, st store.Store) {
	e := newEnv(t, st)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	playOut(t, e, id, []string{a.Token, b.Token}, 6)
	before := []*State{e.state(id, ""), e.state(id, a.Token), e.state(id, b.Token)}
	notesBefore := []string{seqs(e.after(id, a.Token, 0)), seqs(e.after(id, b.Token, 0))}
	e.hs.Close()
	e.srv.Close()
	e2 := newEnv(t, st)
	after := []*State{e2.state(id, ""), e2.state(id, a.Token), e2.state(id, b.Token)}
	// The notifications are numbered from the log: the same after a restart.
	if notesAfter := []string{seqs(e2.after(id, a.Token, 0)), seqs(e2.after(id, b.Token, 0))}; fmt.Sprint(notesAfter) != fmt.Sprint(notesBefore) {
		t.Errorf("notifications differ after restart:\n%v\n%v", notesBefore, notesAfter)
	}
	for i := range before {
		bj, _ := json.Marshal(before[i])
		aj, _ := json.Marshal(after[i])
		if !bytes.Equal(bj, aj) {
			t.Errorf("state %d differs after restart:\n%s\n%s", i, bj, aj)
		}
	}
	playOut(t, e2, id, []string{a.Token, b.Token}, 200)
	if !e2.state(id, "").Over {
		t.Error("game did not finish after restart")
	}
}

func TestBadRequests(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, _ := e.join(id), e.join(id)
	e.drain(id, a.Token)
	big := `{"variant":"english","seats":[{"kind":"human","name":"` + strings.Repeat("x", maxBody) + `"}]}`
	cases := []struct {
		name, method, path, tok string
		body                    any
		want                    int
	}{
		{"create: not JSON", "POST", "/api/games", "", "{", 400},
		{"create: unknown field", "POST", "/api/games", "", `{"variant":"english","seats":[{},{}],"x":1}`, 400},
		{"create: one seat", "POST", "/api/games", "", `{"seats":[{"kind":"human"}]}`, 400},
		{"create: five seats", "POST", "/api/games", "", `{"seats":[{},{},{},{},{}]}`, 400},
		{"create: bad variant", "POST", "/api/games", "", `{"variant":"klingon","seats":[{},{}]}`, 400},
		{"create: wrong lexicon", "POST", "/api/games", "", `{"variant":"english","lexicon":"es-fise","seats":[{},{}]}`, 400},
		{"create: bad level", "POST", "/api/games", "", `{"seats":[{},{"kind":"computer","level":"god"}]}`, 400},
		{"create: bad kind", "POST", "/api/games", "", `{"seats":[{},{"kind":"cat"}]}`, 400},
		{"create: two values", "POST", "/api/games", "", `{"seats":[{},{}]} {}`, 400},
		{"create: too big", "POST", "/api/games", "", big, 413},
		{"join: unknown game", "POST", "/api/games/0123456789abcdef/join", "", `{}`, 404},
		{"join: bad id", "POST", "/api/games/not-a-game/join", "", `{}`, 404},
		{"join: bad seat", "POST", "/api/games/" + id + "/join", "", `{"seat":9}`, 400},
		{"join: computer's name", "POST", "/api/games/" + id + "/join", "", `{"name":"Computer (godlike)"}`, 400},
		{"join: name too long", "POST", "/api/games/" + id + "/join", "", `{"name":"` + strings.Repeat("é", maxName+1) + `"}`, 400},
		{"move: no token", "POST", "/api/games/" + id + "/move", "", `{"kind":"pass"}`, 401},
		{"move: wrong token", "POST", "/api/games/" + id + "/move", "nope", `{"kind":"pass"}`, 403},
		{"move: no kind", "POST", "/api/games/" + id + "/move", a.Token, `{}`, 400},
		{"move: bad kind", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"jump"}`, 400},
		{"move: off board", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"place","tiles":[{"row":15,"col":0,"letter":"A"}]}`, 400},
		{"move: bad letter", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"Ñ"}]}`, 400},
		{"move: lowercase", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"a"}]}`, 400},
		{"move: not in line", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"A"},{"row":8,"col":8,"letter":"T"}]}`, 422},
		{"move: gap", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"A"},{"row":7,"col":9,"letter":"T"}]}`, 422},
		{"move: same square (refused by the rules, 422)", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"place","tiles":[{"row":7,"col":7,"letter":"A"},{"row":7,"col":7,"letter":"T"}]}`, 422},
		{"move: exchange nothing", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"exchange","exchange":[]}`, 400},
		{"move: exchange unknown", "POST", "/api/games/" + id + "/move", a.Token, `{"kind":"exchange","exchange":["@"]}`, 400},
		{"move: bad notation", "POST", "/api/games/" + id + "/move", a.Token, `{"notation":"99Z HELLO"}`, 400},
		{"move: both forms", "POST", "/api/games/" + id + "/move", a.Token, `{"notation":"-","kind":"pass"}`, 400},
		{"notifications: bad wait", "GET", "/api/games/" + id + "/notifications?wait=x", a.Token, nil, 400},
		{"state: wrong token", "GET", "/api/games/" + id, "nope", nil, 403},
		{"unknown endpoint", "GET", "/api/nothing", "", nil, 404},
	}
	before := gameJSON(e.state(id, a.Token))
	games := e.srv.Games()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code := e.do(c.method, c.path, c.tok, c.body, nil); code != c.want {
				t.Errorf("status %d, want %d", code, c.want)
			}
		})
	}
	after := gameJSON(e.state(id, a.Token))
	if before != after {
		t.Errorf("bad requests changed the game:\n%s\n%s", before, after)
	}
	if e.srv.Games() != games {
		t.Errorf("bad requests made games: %d, had %d", e.srv.Games(), games)
	}
}

// gameJSON is a state without its notification number, which moves on
// with refusals too: what a refused request must leave unchanged.
func gameJSON(st *State) string {
	c := *st
	c.Seq = 0
	return mustJSON(&c)
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// TestEveryLevelMoves has each computer level make the first move of a
// game through the server; ATRIL_LONG=1 has each play a whole game
// against the professional.
func TestEveryLevelMoves(t *testing.T) {
	long := os.Getenv("ATRIL_LONG") == "1"
	e := newEnv(t, nil)
	ids := map[string]string{}
	for _, lv := range player.Levels() {
		if long {
			ids[lv] = e.create(SeatRequest{Kind: "computer", Level: lv}, SeatRequest{Kind: "computer", Level: "professional"})
		} else {
			ids[lv] = e.create(SeatRequest{Kind: "computer", Level: lv}, SeatRequest{Kind: "human"})
			e.join(ids[lv])
		}
	}
	deadline := time.Now().Add(120 * time.Second)
	for lv, id := range ids {
		done := func(st *State) bool { return st.Over || !long && st.Moves > 0 }
		for !done(e.state(id, "")) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		st := e.state(id, "")
		if !done(st) {
			t.Errorf("level %s: not done after %d moves", lv, st.Moves)
			continue
		}
		if long {
			t.Logf("level %s vs professional: %d–%d in %d moves", lv, st.Seats[0].Score, st.Seats[1].Score, st.Moves)
		} else if h := st.History[0]; h.Seat != 0 || h.Kind != "place" {
			t.Errorf("level %s: first move %+v, want a placement by seat 0", lv, h)
		}
	}
}

// TestOpenAPIListsEveryRoute checks that api/openapi.yaml documents each
// API route the server serves.
func TestOpenAPIListsEveryRoute(t *testing.T) {
	data, err := os.ReadFile("../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Every API route the server registers, read from its source.
	src, err := os.ReadFile("handlers.go")
	if err != nil {
		t.Fatal(err)
	}
	routes := regexp.MustCompile(`mux\.HandleFunc\("(?:[A-Z]+ )?(/api/[^"]+)"`).FindAllStringSubmatch(string(src), -1)
	if len(routes) < 15 {
		t.Fatalf("found %d API routes in handlers.go", len(routes))
	}
	for _, m := range routes {
		p := m[1]
		if p == "/api/" {
			continue // the catch-all answering 404
		}
		if !strings.Contains(string(data), "\n  "+p+":\n") {
			t.Errorf("api/openapi.yaml does not document %s", p)
		}
	}
	e := newEnv(t, nil)
	if code := e.do("GET", "/api/info", "", nil, nil); code != 200 {
		t.Errorf("GET /api/info: %d", code)
	}
}

// TestFinishedGamesLeaveMemory checks that a finished game is dropped
// from memory after KeepFinished and is then served from the store.
func TestFinishedGamesLeaveMemory(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := testConfig(st)
	cfg.KeepFinished = time.Millisecond
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	e := &testEnv{t: t, srv: srv, hs: hs, st: st, url: hs.URL}
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	playOut(t, e, id, []string{a.Token, b.Token}, 300)
	before := mustJSON(e.state(id, a.Token))
	deadline := time.Now().Add(5 * time.Second)
	for srv.Games() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if srv.Games() != 0 {
		t.Fatalf("%d games still in memory", srv.Games())
	}
	if after := mustJSON(e.state(id, a.Token)); after != before {
		t.Errorf("finished game differs when loaded from the store:\n%s\n%s", before, after)
	}
	if code := e.do("GET", "/api/games/"+id+"/gcg", "", nil, nil); code != 200 {
		t.Errorf("GCG of a stored game: %d", code)
	}
}
