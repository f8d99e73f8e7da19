package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"atril/store"
)

// The tests of this file each hold one weakness found by attacking the
// server and loading it: each failed before its fix.

func newStore(t *testing.T) store.Store {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// waitFor polls cond until it holds or 20 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 20 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A refused move used to queue a notification repeating the input: many
// large refused requests grew one seat's queue without bound.
func TestRefusalsStayBounded(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, _ := e.join(id), e.join(id)
	big := `{"` + strings.Repeat("x", maxBody-10) + `":1}`
	for range 200 {
		var eb errorBody
		if code := e.do("POST", "/api/games/"+id+"/move", a.Token, big, &eb); code != 400 || len(eb.Error) > 4*maxMessage {
			t.Fatalf("big refused move: %d with a %d-byte message", code, len(eb.Error))
		}
	}
	var raw json.RawMessage
	e.do("GET", "/api/games/"+id+"/notifications", a.Token, nil, &raw)
	if len(raw) > 2*DefaultLogBytes {
		t.Errorf("draining the queue answered %d bytes", len(raw))
	}
	var ns []Notification
	json.Unmarshal(raw, &ns)
	for _, n := range ns {
		if len(n.Reason) > 4*maxMessage {
			t.Fatalf("a refusal quotes %d bytes", len(n.Reason))
		}
	}
	l, _ := e.srv.game(context.Background(), id)
	l.mu.Lock()
	bytes := l.log.bytes
	l.mu.Unlock()
	if bytes > DefaultLogBytes {
		t.Errorf("the game's log holds %d bytes, over its bound of %d", bytes, DefaultLogBytes)
	}
}

// No limit used to bound how many games or seats one client could make,
// nor how many bad requests it could send.
func TestRateLimits(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.CreatePerMinute, cfg.JoinPerMinute, cfg.BadPerMinute = 3, 2, 5
	cfg.RealIPHeader = "X-Forwarded-For"
	e := newEnvConfig(t, cfg)
	send := func(method, path, from, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, e.url+path, strings.NewReader(body))
		if from != "" {
			req.Header.Set("X-Forwarded-For", "203.0.113.9, "+from)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	game := `{"seats":[{},{}]}`
	for i := range 3 {
		if r := send("POST", "/api/games", "198.51.100.1", game); r.StatusCode != 201 {
			t.Fatalf("create %d: %d", i, r.StatusCode)
		}
	}
	r := send("POST", "/api/games", "198.51.100.1", game)
	if r.StatusCode != 429 || r.Header.Get("Retry-After") == "" {
		t.Errorf("fourth create: %d, Retry-After %q; want 429 with Retry-After", r.StatusCode, r.Header.Get("Retry-After"))
	}
	if r := send("POST", "/api/games", "198.51.100.2", game); r.StatusCode != 201 {
		t.Errorf("create from another client: %d", r.StatusCode)
	}
	// IPv6 clients count by /64 network.
	send("POST", "/api/games", "2001:db8::1", game)
	send("POST", "/api/games", "2001:db8::2", game)
	send("POST", "/api/games", "2001:db8::3", game)
	if r := send("POST", "/api/games", "2001:db8::4", game); r.StatusCode != 429 {
		t.Errorf("fourth create from one /64: %d, want 429", r.StatusCode)
	}
	ids := []string{}
	for range 2 {
		var cr CreateResponse
		e.do("POST", "/api/games", "", game, &cr)
		ids = append(ids, cr.ID)
	}
	for i := range 2 {
		if r := send("POST", "/api/games/"+ids[i]+"/join", "198.51.100.3", ""); r.StatusCode != 200 {
			t.Fatalf("join %d: %d", i, r.StatusCode)
		}
	}
	if r := send("POST", "/api/games/"+ids[1]+"/join", "198.51.100.3", ""); r.StatusCode != 429 {
		t.Errorf("third join: %d, want 429", r.StatusCode)
	}
	// Bad requests: past the allowance, even good requests are refused.
	for range 5 {
		if r := send("GET", "/api/games/0123456789abcdef", "198.51.100.4", ""); r.StatusCode != 404 {
			t.Fatalf("unknown game: %d", r.StatusCode)
		}
	}
	if r := send("GET", "/api/info", "198.51.100.4", ""); r.StatusCode != 429 {
		t.Errorf("after the bad requests: %d, want 429", r.StatusCode)
	}
	if r := send("GET", "/api/info", "198.51.100.5", ""); r.StatusCode != 200 {
		t.Errorf("another client: %d", r.StatusCode)
	}
}

// Unstarted and abandoned games used to stay for ever, counting towards
// the cap on games in memory, even over a restart.
func TestGamesExpire(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.ExpireUnstarted, cfg.ExpireIdle = 100*time.Millisecond, 300*time.Millisecond
	e := newEnvConfig(t, cfg)
	lonely := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	e.join(lonely)
	idle := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, _ := e.join(idle), e.join(idle) // started, and then nobody moves
	waitFor(t, "games abandoned", func() bool { return e.srv.LiveGames() == 0 })
	for _, id := range []string{lonely, idle} {
		st := e.state(id, "")
		if !st.Over || !st.Abandoned || len(st.Winners) != 0 {
			t.Errorf("game %s: over %v, abandoned %v, winners %v", id, st.Over, st.Abandoned, st.Winners)
		}
		if code := e.do("GET", "/api/games/"+id+"/gcg", "", nil, nil); code != 200 {
			t.Errorf("abandoned game's record: %d", code)
		}
		g, _, err := e.st.Load(context.Background(), id)
		if err != nil || !g.Finished {
			t.Errorf("stored game %s not finished: %v", id, err)
		}
	}
	if ns := e.after(idle, a.Token, 0); !strings.HasSuffix(types(ns), "abandoned,over") {
		t.Errorf("notifications of the idle game: %s", types(ns))
	}
	if code := e.do("POST", "/api/games/"+idle+"/move", a.Token, `{"kind":"pass"}`, nil); code != 409 {
		t.Errorf("move in an abandoned game: %d, want 409", code)
	}
}

func TestCapCountsLiveGames(t *testing.T) {
	st := newStore(t)
	cfg := testConfig(st)
	cfg.MaxGames = 3
	e := newEnvConfig(t, cfg)
	var ids []string
	for range 3 {
		ids = append(ids, e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"}))
	}
	if code := e.do("POST", "/api/games", "", `{"seats":[{},{}]}`, nil); code != 503 {
		t.Errorf("create over the cap: %d, want 503", code)
	}
	// A finished game (kept in memory a while) does not count.
	a, b := e.join(ids[0]), e.join(ids[0])
	playOut(t, e, ids[0], []string{a.Token, b.Token}, 300)
	if !e.state(ids[0], "").Over {
		t.Fatal("game did not finish")
	}
	if code := e.do("POST", "/api/games", "", `{"seats":[{},{}]}`, nil); code != 201 {
		t.Errorf("create after a game finished: %d, want 201", code)
	}
	e.hs.Close()
	e.srv.Close()
	// After a restart, the games that waited too long are abandoned
	// instead of filling the cap again.
	cfg.ExpireUnstarted = time.Nanosecond
	e2 := newEnvConfig(t, cfg)
	if n := e2.srv.LiveGames(); n != 0 {
		t.Errorf("%d unstarted games came back after the restart", n)
	}
	if code := e2.do("POST", "/api/games", "", `{"seats":[{},{}]}`, nil); code != 201 {
		t.Errorf("create after the restart: %d, want 201", code)
	}
}

// wait=1e10, Inf or 1e308 used to overflow into a negative duration and
// return at once.
func TestWaitClamped(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{"", 0, false}, {"0", 0, false}, {"2.5", 2500 * time.Millisecond, false}, {"60", maxWait, false},
		{"1e10", maxWait, false}, {"Inf", maxWait, false}, {"+Inf", maxWait, false}, {"1e308", maxWait, false},
		{"-1", 0, true}, {"NaN", 0, true}, {"-Inf", 0, true}, {"x", 0, true},
	} {
		got, err := parseWait(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("wait=%s: %v, %v; want %v (error %v)", c.in, got, err, c.want, c.bad)
		}
	}
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	seq := e.state(id, b.Token).Seq
	type res struct {
		wait string
		ns   []Notification
	}
	done := make(chan res)
	waits := []string{"1e10", "Inf", "1e308"}
	for _, w := range waits {
		go func() {
			var ns []Notification
			e.do("GET", fmt.Sprintf("/api/games/%s/notifications?after=%d&wait=%s", id, seq, w), b.Token, nil, &ns)
			done <- res{w, ns}
		}()
	}
	time.Sleep(100 * time.Millisecond) // polls that return at once have returned by now
	playOut(t, e, id, []string{a.Token, b.Token}, 1)
	for range waits {
		r := <-done
		if len(r.ns) == 0 {
			t.Errorf("wait=%s returned before the move, with nothing", r.wait)
		}
	}
}

// Slow request bodies were never cut off, and connections had no bound.
func TestSlowClientsCutOff(t *testing.T) {
	e := newEnv(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(e.srv, HTTPOptions{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 300 * time.Millisecond})
	go hs.Serve(LimitListener(ln, 3, 0, 0))
	defer hs.Close()
	addr := ln.Addr().String()
	// closed reports whether the server closes a connection while the
	// client trickles the request.
	closed := func(head, trickle string) bool {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte(head))
		gone := make(chan struct{})
		go func() { io.Copy(io.Discard, c); close(gone) }()
		for range 200 { // 10 s of trickling at most
			select {
			case <-gone:
				return true
			case <-time.After(50 * time.Millisecond):
				c.Write([]byte(trickle))
			}
		}
		return false
	}
	if !closed("POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", "a") {
		t.Error("a trickled body was not cut off")
	}
	if !closed("GET /api/info HTTP/1.1\r\n", "X-A: b\r\n") {
		t.Error("trickled headers were not cut off")
	}
	// Three connections at most: the fourth is told the server is full.
	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("connection within the limit: %v %v", resp, err)
		}
		held = append(held, c)
	}
	resp, err := http.Get("http://" + addr + "/api/info")
	if err != nil || resp.StatusCode != 503 {
		t.Errorf("connection over the limit: %v %v, want 503", resp, err)
	}
	held[0].Close()
	waitFor(t, "a slot freed", func() bool {
		resp, err := http.Get("http://" + addr + "/api/info")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
}

// Pages of other sites could create games and take seats.
func TestCrossSiteRefused(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.TrustedOrigins = []string{"https://friend.example"}
	e := newEnvConfig(t, cfg)
	host := strings.TrimPrefix(e.url, "http://")
	for _, c := range []struct {
		name    string
		headers map[string]string
		refused bool
	}{
		{"fetch metadata cross-site", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, true},
		{"origin only", map[string]string{"Origin": "https://evil.example"}, true},
		{"same site, other origin", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "https://sub.example"}, true},
		{"same origin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://" + host}, false},
		{"own origin, no metadata", map[string]string{"Origin": "http://" + host}, false},
		{"trusted origin", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://friend.example"}, false},
		{"not a browser", nil, false},
	} {
		id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
		for _, ep := range []struct {
			path, body string
			ok         int
		}{{"/api/games", `{"seats":[{},{}]}`, 201}, {"/api/games/" + id + "/join", `{}`, 200}} {
			req, _ := http.NewRequest("POST", e.url+ep.path, strings.NewReader(ep.body))
			for k, v := range c.headers {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			want := ep.ok
			if c.refused {
				want = 403
			}
			if resp.StatusCode != want {
				t.Errorf("%s, POST %s: %d, want %d", c.name, ep.path, resp.StatusCode, want)
			}
		}
		if n, want := e.state(id, "").Connected, map[bool]int{true: 0, false: 1}[c.refused]; n != want {
			t.Errorf("%s: %d seats taken, want %d", c.name, n, want)
		}
	}
}

// Names took control, bidirectional and invisible characters, and could
// pass for a computer seat.
func TestNamesCleaned(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ana", "Ana"},
		{"  Ana   María  ", "Ana María"},
		{"A\u0007n\u0000a", "Ana"},
		{"Ana\tMaría\r\nLuz", "Ana María Luz"}, // tabs and line breaks are spaces
		{"\u202eAna\u202c", "Ana"},
		{"A\u200bn\u200da\ufeff", "Ana"},
		{"Zoe\u0301", "Zoé"},
		{"\u3164\u2800Ana", "Ana"},
		{"a\u0301\u0302\u0303\u0304\u0305\u0306", "\u00e1\u0302\u0303\u0304"}, // at most three marks on a letter
		{"Computer (godlike)", ""},
		{"computer", ""},
		{"C0MPUTER (godlike)", ""},
		{"Ｃｏｍｐｕｔｅｒ", ""},
		{"Сomputer", ""}, // Cyrillic С
		{"Co mpu\u200bter", ""},
		{"Cornputer", ""},
		{"Počítač (inhuman)", ""},
		{"Computadora", ""},
		{strings.Repeat("é", maxName), strings.Repeat("é", maxName)},
		{strings.Repeat("é", maxName+1), ""},
	} {
		got, err := checkName(c.in, true)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: accepted as %q", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if n, err := checkName("Computer (godlike)", false); err != nil || n != "Computer (godlike)" {
		t.Errorf("a computer seat's own name: %q %v", n, err)
	}
	// Through the API: the seat gets the cleaned name; a computer's name
	// is refused for a person, at creation and at joining.
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	if code := e.do("POST", "/api/games/"+id+"/join", "", `{"name":"\u202eEve\u200b"}`, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if got := e.state(id, "").Seats[0].Name; got != "Eve" {
		t.Errorf("seat name %q, want Eve", got)
	}
	if code := e.do("POST", "/api/games/"+id+"/join", "", `{"name":"Computer (godlike)"}`, nil); code != 400 {
		t.Errorf("join as a computer: %d, want 400", code)
	}
	if code := e.do("POST", "/api/games", "", `{"seats":[{"name":"Computer (godlike)"},{"kind":"computer"}]}`, nil); code != 400 {
		t.Errorf("create a person's seat named as a computer: %d, want 400", code)
	}
}

// A move by a seat not on turn, or after the end, used to be read first
// and refused as a bad move (400); tokens were taken from the address.
func TestStatusCodes(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	playOut(t, e, id, []string{a.Token, b.Token}, 1)
	// Seat 1 is on turn; seat 0 sends a move onto a taken square.
	st := e.state(id, a.Token)
	taken := st.Board[0]
	onTaken := fmt.Sprintf(`{"kind":"place","tiles":[{"row":%d,"col":%d,"letter":"A"}]}`, *taken.Row, *taken.Col)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, onTaken, nil); code != 409 {
		t.Errorf("bad move out of turn: %d, want 409", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, `{"kind":"jump"}`, nil); code != 409 {
		t.Errorf("malformed move out of turn: %d, want 409", code)
	}
	// End the game with six passes, then move.
	toks := []string{a.Token, b.Token}
	for k := 1; !e.state(id, "").Over; k++ {
		if code := e.do("POST", "/api/games/"+id+"/move", toks[k%2], `{"kind":"pass"}`, nil); code != 200 {
			t.Fatalf("pass: %d", code)
		}
	}
	if code := e.do("POST", "/api/games/"+id+"/move", toks[0], onTaken, nil); code != 409 {
		t.Errorf("move after the end: %d, want 409", code)
	}
	// A token in the address is refused, except for the WebSocket.
	if code := e.do("GET", "/api/games/"+id+"?token="+a.Token, "", nil, nil); code != 400 {
		t.Errorf("token in the address: %d, want 400", code)
	}
	if code := e.do("GET", "/api/games/"+id+"/notifications?token="+a.Token, "", nil, nil); code != 400 {
		t.Errorf("token in the address of notifications: %d, want 400", code)
	}
	w := e.dialWS(id, a.Token, "&after=0")
	if n := w.read(1); n[0].Type != "seat" {
		t.Errorf("WebSocket with the token in the address: first %s", n[0].Type)
	}
}

// TestAddrKey: a client is its IPv4 address, or its IPv6 network of the
// prefix length configured; New refuses a length outside /32 to /128.
func TestAddrKey(t *testing.T) {
	for _, tc := range []struct {
		addr string
		bits int
		want string
	}{
		{"198.51.100.7:4321", 64, "198.51.100.7"},
		{"198.51.100.7", 48, "198.51.100.7"},
		{"[2001:db8:aa:bb01:1::9]:443", 64, "2001:db8:aa:bb01::/64"},
		{"[2001:db8:aa:bb01:1::9]:443", 56, "2001:db8:aa:bb00::/56"},
		{"2001:db8:aa:ffff::1", 48, "2001:db8:aa::/48"},
		{"[::ffff:198.51.100.7]:80", 56, "198.51.100.7"},
		{"not an address", 64, "not an address"},
	} {
		if got := addrKey(tc.addr, tc.bits); got != tc.want {
			t.Errorf("addrKey(%q, %d) = %q, want %q", tc.addr, tc.bits, got, tc.want)
		}
	}
	for _, bits := range []int{-1, 31, 129} {
		cfg := testConfig(newStore(t))
		cfg.IPv6Prefix = bits
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "IPv6") {
			t.Errorf("IPv6Prefix %d: %v, want a refusal", bits, err)
		}
	}
	// Two networks of one /56 are one client at /56, two at /64.
	for bits, want := range map[int]int{56: 429, 64: 201} {
		cfg := testConfig(newStore(t))
		cfg.CreatePerMinute, cfg.IPv6Prefix = 1, bits
		cfg.RealIPHeader = "X-Forwarded-For"
		e := newEnvConfig(t, cfg)
		codes := []int{}
		for _, from := range []string{"2001:db8:0:1200::1", "2001:db8:0:12ff::1"} {
			req, _ := http.NewRequest("POST", e.url+"/api/games", strings.NewReader(`{"seats":[{},{}]}`))
			req.Header.Set("X-Forwarded-For", from)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			codes = append(codes, resp.StatusCode)
		}
		if codes[0] != 201 || codes[1] != want {
			t.Errorf("/%d: creates from two /64s of one /56 answered %v, want 201 then %d", bits, codes, want)
		}
	}
}

// TestSlowReadersCutOff asks for answers and reads none of them: the
// server gives up writing each, a file of the page as an API answer,
// once answerTimeout has passed, instead of holding the connection for
// as long as the client likes.
func TestSlowReadersCutOff(t *testing.T) {
	// Put back once the server has closed (a cleanup registered before
	// the server's runs after it), so that no handler still reads it.
	was := answerTimeout
	t.Cleanup(func() { answerTimeout = was })
	answerTimeout = 300 * time.Millisecond
	const size = 16 << 20
	cfg := testConfig(newStore(t))
	cfg.Static = fstest.MapFS{"index.html": {Data: []byte("<html></html>")}, "big.txt": {Data: bytes.Repeat([]byte("atril "), size/6)}}
	e := newEnvConfig(t, cfg)
	addr := strings.TrimPrefix(e.url, "http://")
	for _, path := range []string{"/static/big.txt", "/api/games/nope"} {
		t.Run(path, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// A small window, so that the server's writes block soon
			// even when it answers slowly (under the race detector).
			c.(*net.TCPConn).SetReadBuffer(16 << 10)
			// Requests in a row, none read, until the answers fill the
			// connection's buffers.
			req := "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n"
			if path != "/static/big.txt" {
				req = strings.Repeat(req, size/100)
			}
			go c.Write([]byte(req))
			time.Sleep(answerTimeout + 3*time.Second)
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			n, _ := io.Copy(io.Discard, c)
			if n >= size {
				t.Errorf("%d bytes written to a client that read nothing for %v: the answer was never cut off", n, answerTimeout+3*time.Second)
			}
		})
	}
}

// TestLimitersForgetIdleClients puts a client in every limiter of the
// server (each *limiter field) and waits for the sweeper to forget it
// once its allowance is full again: a limiter the sweeper skips keeps
// every client it ever saw.
func TestLimitersForgetIdleClients(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.ExpireUnstarted = 40 * time.Millisecond // a sweep every 10 ms
	// Every limit at its default (the tests' configuration lifts some).
	cfg.CreatePerMinute, cfg.JoinPerMinute, cfg.BadPerMinute, cfg.LookupPerMinute, cfg.ChatPerMinute, cfg.LoginPerMinute = 0, 0, 0, 0, 0, 0
	cfg.ImportsPerHour = 0
	e := newEnvConfig(t, cfg)
	if e.srv.push == nil {
		t.Fatal("no push messages: their limiter goes untested")
	}
	lims := map[string]*limiter{}
	// The server's limiters, and those of its parts.
	for _, sv := range []reflect.Value{reflect.ValueOf(e.srv).Elem(), reflect.ValueOf(e.srv.push).Elem()} {
		for i := range sv.NumField() {
			f := sv.Type().Field(i)
			if f.Type != reflect.TypeFor[*limiter]() {
				continue
			}
			l := (*limiter)(sv.Field(i).UnsafePointer())
			if l == nil {
				continue // lifted by the configuration
			}
			// Seen two hours ago: full again by now.
			l.take("192.0.2.1", time.Now().Add(-2*time.Hour))
			lims[sv.Type().Name()+"."+f.Name] = l
		}
	}
	if len(lims) < 10 {
		t.Fatalf("%d limiters found", len(lims))
	}
	for name, l := range lims {
		t.Run(name, func(t *testing.T) {
			deadline := time.Now().Add(2 * time.Second)
			for {
				l.mu.Lock()
				n := len(l.clients)
				l.mu.Unlock()
				if n == 0 {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d clients still held: the sweeper does not forget this limiter's", n)
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}
