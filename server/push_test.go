package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"atril/store"
	"atril/web"
	"atril/webpush/webpushtest"
)

// pushEnv starts a server that sends push messages through a test push
// service (and, with static, serves the page).
func pushEnv(t *testing.T, st store.Store, static bool) (*testEnv, *webpushtest.Service) {
	t.Helper()
	svc := webpushtest.NewService()
	t.Cleanup(svc.Close)
	if st == nil {
		st = newStore(t)
	}
	cfg := testConfig(st)
	cfg.PushHosts = []string{strings.TrimPrefix(svc.URL, "https://")}
	cfg.PushClient = svc.Client()
	if static {
		cfg.Static = web.FS()
	}
	return newEnvConfig(t, cfg), svc
}

// subscribe subscribes a new browser of the account signed in on c at
// svc's path /push/name.
func subscribe(t *testing.T, e *testEnv, c *http.Client, svc *webpushtest.Service, name string) *webpushtest.Browser {
	t.Helper()
	b, err := webpushtest.NewBrowser()
	if err != nil {
		t.Fatal(err)
	}
	var ps PushSubscriptions
	if code := e.doWith(c, "POST", "/api/me/push", "", b.JSON(svc.URL+"/push/"+name), &ps); code != 201 || ps.Subscriptions < 1 {
		t.Fatalf("subscribe %s: %d %+v", name, code, ps)
	}
	return b
}

// pushedTo returns the payloads the service received for path, opened by b.
func pushedTo(t *testing.T, svc *webpushtest.Service, b *webpushtest.Browser, path string) []pushPayload {
	t.Helper()
	var out []pushPayload
	for _, m := range svc.Messages() {
		if m.Path != path {
			continue
		}
		plain, err := b.Open(m.Body)
		if err != nil {
			t.Fatalf("a message to %s: %v", path, err)
		}
		var p pushPayload
		if err := json.Unmarshal(plain, &p); err != nil {
			t.Fatalf("a message to %s: %s: %v", path, plain, err)
		}
		out = append(out, p)
	}
	return out
}

// waitPushed waits until path received n messages.
func waitPushed(t *testing.T, svc *webpushtest.Service, b *webpushtest.Browser, path string, n int) []pushPayload {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ps := pushedTo(t, svc, b, path)
		if len(ps) >= n || time.Now().After(deadline) {
			if len(ps) < n {
				t.Fatalf("%s received %d messages, want %d: %+v", path, len(ps), n, ps)
			}
			return ps
		}
		svc.Wait(len(svc.Messages())+1, 200*time.Millisecond)
	}
}

// TestPushSubscribe: the server's key (one for every process sharing the
// store), subscriptions refused signed out, at a push service not the
// server's, with bad keys; taken once per browser; a test message that
// the browser opens; unsubscribed.
func TestPushSubscribe(t *testing.T) {
	st := newStore(t)
	e, svc := pushEnv(t, st, false)
	var k1, k2 PushKey
	if code := e.do("GET", "/api/push/key", "", nil, &k1); code != 200 {
		t.Fatalf("key: %d", code)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(k1.Key); err != nil || len(raw) != 65 || raw[0] != 4 {
		t.Errorf("key %q: %d bytes, %v", k1.Key, len(raw), err)
	}
	other, _ := pushEnv(t, st, false)
	if code := other.do("GET", "/api/push/key", "", nil, &k2); code != 200 || k2.Key != k1.Key {
		t.Errorf("a second process's key %q, want %q", k2.Key, k1.Key)
	}
	var in Info
	if e.do("GET", "/api/info", "", nil, &in); !in.Push {
		t.Error("info says no push")
	}

	b, _ := webpushtest.NewBrowser()
	sub := b.JSON(svc.URL + "/push/ana")
	var eb errorBody
	if code := e.doWith(browser(t), "POST", "/api/me/push", "", sub, &eb); code != 401 {
		t.Errorf("signed out: %d %q", code, eb.Error)
	}
	ana := browser(t)
	e.signUp(ana, "Ana_push", "correct horse")
	for _, tc := range []struct {
		name string
		body any
		want string
	}{
		{"elsewhere", b.JSON("https://push.example.net/x"), "push service at push.example.net"},
		{"http", b.JSON(strings.Replace(svc.URL, "https:", "http:", 1) + "/x"), "https"},
		{"no keys", map[string]any{"endpoint": svc.URL + "/x"}, "p256dh"},
		{"bad auth", map[string]any{"endpoint": svc.URL + "/x", "keys": map[string]string{"p256dh": sub["keys"].(map[string]string)["p256dh"], "auth": "AAAA"}}, "auth"},
		{"not JSON", "{", "JSON"},
	} {
		eb = errorBody{}
		if code := e.doWith(ana, "POST", "/api/me/push", "", tc.body, &eb); code != 400 || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("%s: %d %q, want 400 saying %q", tc.name, code, eb.Error, tc.want)
		}
	}
	var ps PushSubscriptions
	for range 2 {
		if code := e.doWith(ana, "POST", "/api/me/push", "", sub, &ps); code != 201 || ps.Subscriptions != 1 {
			t.Errorf("subscribe: %d %+v", code, ps)
		}
	}
	var data AccountData
	if code := e.doWith(ana, "GET", "/api/me/data", "", nil, &data); code != 200 || len(data.Push) != 1 ||
		data.Push[0].Service != strings.TrimPrefix(svc.URL, "https://") || data.Push[0].Subscribed.IsZero() {
		t.Errorf("the account's data: %d %+v", code, data.Push)
	}
	var pt PushTest
	if code := e.doWith(ana, "POST", "/api/me/push/test", "", nil, &pt); code != 200 || pt != (PushTest{Sent: 1}) {
		t.Fatalf("test: %d %+v", code, pt)
	}
	got := pushedTo(t, svc, b, "/push/ana")
	if len(got) != 1 || got[0].TitleKey != "pushTestTitle" || got[0].Body == "" || got[0].URL != "/" {
		t.Errorf("the test message: %+v", got)
	}
	if m := svc.Messages()[0]; !strings.HasPrefix(m.Header.Get("Authorization"), "vapid t=") || !strings.HasSuffix(m.Header.Get("Authorization"), ", k="+k1.Key) {
		t.Errorf("authorization %q", m.Header.Get("Authorization"))
	}
	// Unsubscribed, nothing is sent.
	if code := e.doWith(ana, "DELETE", "/api/me/push", "", map[string]string{"endpoint": svc.URL + "/push/ana"}, &ps); code != 200 || ps.Subscriptions != 0 {
		t.Errorf("unsubscribe: %d %+v", code, ps)
	}
	if code := e.doWith(ana, "POST", "/api/me/push/test", "", nil, &pt); code != 200 || pt != (PushTest{}) {
		t.Errorf("test after unsubscribing: %d %+v", code, pt)
	}
	// A push service that no longer knows the browser: forgotten.
	subscribe(t, e, ana, svc, "ana2")
	svc.SetStatus("/push/ana2", http.StatusGone)
	if code := e.doWith(ana, "POST", "/api/me/push/test", "", nil, &pt); code != 200 || pt != (PushTest{Gone: 1}) {
		t.Errorf("test to a gone browser: %d %+v", code, pt)
	}
	if code := e.doWith(ana, "POST", "/api/me/push/test", "", nil, &pt); code != 200 || pt != (PushTest{}) {
		t.Errorf("test after the gone browser: %d %+v", code, pt)
	}
	// Signing out everywhere ends every device's messages.
	subscribe(t, e, ana, svc, "ana3")
	if code := e.doWith(ana, "POST", "/api/logout?everywhere=1", "", nil, nil); code != 200 {
		t.Fatalf("sign out everywhere: %d", code)
	}
	e.doWith(ana, "POST", "/api/login", "", map[string]string{"name": "Ana_push", "password": "correct horse"}, nil)
	if code := e.doWith(ana, "POST", "/api/me/push/test", "", nil, &pt); code != 200 || pt != (PushTest{}) {
		t.Errorf("test after signing out everywhere: %d %+v", code, pt)
	}
	resp, err := http.Get(e.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(metrics), `atril_push_messages_total{outcome="sent"} 1`) || !strings.Contains(string(metrics), `atril_push_messages_total{outcome="gone"} 1`) {
		t.Errorf("metrics:\n%s", metrics)
	}
	// Test messages are bounded.
	code := 200
	for i := 0; i < pushTestsPerHour+1 && code == 200; i++ {
		code = e.doWith(ana, "POST", "/api/me/push/test", "", nil, nil)
	}
	if code != 429 {
		t.Errorf("test messages beyond the bound: %d", code)
	}
}

// TestPushOff: a server without push hosts offers no push.
func TestPushOff(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.PushHosts = []string{}
	e := newEnvConfig(t, cfg)
	var eb errorBody
	if code := e.do("GET", "/api/push/key", "", nil, &eb); code != 404 {
		t.Errorf("key: %d", code)
	}
	ana := browser(t)
	e.signUp(ana, "Ana_nopush", "correct horse")
	if code := e.doWith(ana, "POST", "/api/me/push", "", map[string]string{"endpoint": "https://fcm.googleapis.com/x"}, &eb); code != 404 {
		t.Errorf("subscribe: %d", code)
	}
	var in Info
	if e.do("GET", "/api/info", "", nil, &in); in.Push {
		t.Error("info says push")
	}
	for _, bad := range [][]string{{"*"}, {"a/b"}, {"*."}, {"user@host"}} {
		cfg := testConfig(newStore(t))
		cfg.PushHosts = bad
		if _, err := New(cfg); err == nil {
			t.Errorf("push hosts %q taken", bad)
		}
	}
	cfg = testConfig(newStore(t))
	cfg.PushSubject = "ops@example.org"
	if _, err := New(cfg); err == nil {
		t.Error("a push subject without mailto: taken")
	}
}

// TestPushCorrespondence: in a game of correspondence play each move
// tells the seat on turn (not the mover), in its account's language;
// the end tells the other seat the result; a game without a time a move
// tells nobody.
func TestPushCorrespondence(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	id, toks, cs := e.createPerMove(86400)
	b0 := subscribe(t, e, cs[0], svc, "p0")
	b1 := subscribe(t, e, cs[1], svc, "p1")
	if code := e.doWith(cs[1], "PUT", "/api/me/settings", "", map[string]string{"language": "es"}, nil); code != 200 {
		t.Fatalf("settings: %d", code)
	}
	st0 := e.state(id, toks[0])
	names := []string{st0.Seats[0].Name, st0.Seats[1].Name}
	req, _ := bestRequest(t, st0)
	if code := e.do("POST", "/api/games/"+id+"/move", toks[0], req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	got := waitPushed(t, svc, b1, "/push/p1", 1)
	p := got[0]
	pub := e.state(id, "")
	last := pub.History[len(pub.History)-1]
	if p.TitleKey != "pushTurnTitle" || !slices.Equal(p.TitleArgs, []string{names[0]}) || p.BodyKey != "pushPlaced" || p.Lang != "es" ||
		p.URL != "/g/"+id || p.Tag != "g-"+id || len(p.BodyArgs) != 5 || p.BodyArgs[0] != names[0] || p.BodyArgs[2] != strconv.Itoa(last.Points) ||
		p.BodyArgs[3] != "0" || p.BodyArgs[4] != strconv.Itoa(last.Total) || !strings.Contains(p.Body, "Score 0–") {
		t.Errorf("the turn's message: %+v (the move %+v)", p, last)
	}
	m := svc.Messages()[0]
	if m.Header.Get("Ttl") != "86400" || m.Header.Get("Topic") == "" || m.Header.Get("Content-Encoding") != "aes128gcm" {
		t.Errorf("headers %v", m.Header)
	}
	if ps := pushedTo(t, svc, b0, "/push/p0"); len(ps) != 0 {
		t.Errorf("the mover was told: %+v", ps)
	}
	// The game played out: the turn messages alternate, and the end
	// tells the seat that did not make the last move.
	playOut(t, e, id, toks, 200)
	pub = e.state(id, "")
	if !pub.Over {
		t.Fatal("the game did not end")
	}
	lastMover := pub.History[len(pub.History)-1].Seat
	for _, h := range slices.Backward(pub.History) {
		if h.Kind == "place" || h.Kind == "exchange" || h.Kind == "pass" {
			lastMover = h.Seat
			break
		}
	}
	other := 1 - lastMover
	bs := []*webpushtest.Browser{b0, b1}
	path := []string{"/push/p0", "/push/p1"}
	var over []pushPayload
	deadline := time.Now().Add(10 * time.Second)
	for len(over) == 0 && time.Now().Before(deadline) {
		for _, q := range pushedTo(t, svc, bs[other], path[other]) {
			if q.TitleKey == "pushOverTitle" {
				over = append(over, q)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(over) != 1 {
		t.Fatalf("end messages to seat %d: %+v", other, over)
	}
	want := "pushLost"
	switch {
	case len(pub.Winners) == 2:
		want = "pushDrew"
	case pub.Winners[0] == other:
		want = "pushWon"
	}
	if over[0].BodyKey != want || over[0].BodyArgs[0] != strconv.Itoa(pub.Seats[other].Score) || over[0].BodyArgs[1] != strconv.Itoa(pub.Seats[lastMover].Score) {
		t.Errorf("the end's message to seat %d: %+v (scores %d, %d)", other, over[0], pub.Seats[0].Score, pub.Seats[1].Score)
	}
	for _, q := range pushedTo(t, svc, bs[lastMover], path[lastMover]) {
		if q.TitleKey == "pushOverTitle" {
			t.Errorf("the last mover was told the end: %+v", q)
		}
	}

	// A game without a time for each move: no messages.
	before := len(svc.Messages())
	var cr CreateResponse
	if code := e.doWith(cs[0], "POST", "/api/games", "", map[string]any{"variant": "english", "seed": 42,
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var tk []string
	for _, c := range cs {
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		tk = append(tk, j.Token)
	}
	playOut(t, e, cr.ID, tk, 4)
	time.Sleep(100 * time.Millisecond)
	if n := len(svc.Messages()); n != before {
		t.Errorf("a casual game sent %d messages", n-before)
	}
}

// TestPushInvitationAndMessage: an invitation and a message are pushed
// to the account they are for.
func TestPushInvitationAndMessage(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana_pi", "correct horse")
	e.signUp(bo, "Bodil_pi", "battery staple")
	bb := subscribe(t, e, bo, svc, "bo")
	var cr CreateResponse
	if code := e.doWith(ana, "POST", "/api/games", "", map[string]any{"variant": "english", "clock": ClockRequest{PerMove: 86400},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human", Invite: "bodil_pi"}}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	p := waitPushed(t, svc, bb, "/push/bo", 1)[0]
	if p.TitleKey != "pushInviteTitle" || !slices.Equal(p.TitleArgs, []string{"Ana_pi"}) || p.URL != "/g/"+cr.ID || p.Title != "Ana_pi invites you to a game" {
		t.Errorf("the invitation's message: %+v", p)
	}
	if code := e.doWith(ana, "POST", "/api/me/messages/Bodil_pi", "", map[string]string{"text": "Good game!"}, nil); code != 201 {
		t.Fatalf("message: %d", code)
	}
	p = waitPushed(t, svc, bb, "/push/bo", 2)[1]
	if p.TitleKey != "pushMessageTitle" || p.Body != "Good game!" || p.URL != "/messages/Ana_pi" {
		t.Errorf("the message's message: %+v", p)
	}
}

// TestPushPage: the page's service worker at the top, its manifest with
// its type, and the icons the manifest names, each a PNG of its size.
func TestPushPage(t *testing.T) {
	e := pageEnv(t)
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.Get(e.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		_, err = io.Copy(&b, resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, []byte(b.String())
	}
	_, body := get("/")
	if !strings.Contains(string(body), `<link rel="manifest" href="/static/manifest.webmanifest?v=`) || !strings.Contains(string(body), `href="/icons/180.png"`) {
		t.Error("the page names no manifest or touch icon")
	}
	resp, body := get("/sw.js")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") || !strings.Contains(string(body), `addEventListener("push"`) {
		t.Errorf("sw.js: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, body = get("/static/manifest.webmanifest")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/manifest+json" {
		t.Errorf("manifest: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var mf struct {
		Name, StartURL, Display string
		Icons                   []struct{ Src, Sizes, Purpose string }
	}
	if err := json.Unmarshal(body, &mf); err != nil || mf.Name != "atril" || len(mf.Icons) < 2 {
		t.Fatalf("manifest %+v: %v", mf, err)
	}
	for _, ic := range append(mf.Icons, struct{ Src, Sizes, Purpose string }{"/icons/180.png", "180x180", ""}) {
		resp, body := get(ic.Src)
		img, err := png.Decode(strings.NewReader(string(body)))
		if resp.StatusCode != 200 || err != nil || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d %v", ic.Src, resp.StatusCode, err)
		}
		if b := img.Bounds(); strconv.Itoa(b.Dx())+"x"+strconv.Itoa(b.Dy()) != ic.Sizes {
			t.Errorf("%s: %v, want %s", ic.Src, b, ic.Sizes)
		}
	}
	if resp, _ := get("/icons/64.png"); resp.StatusCode != 404 {
		t.Errorf("an icon of no size: %d", resp.StatusCode)
	}
}

// TestPushTournamentRound: each player of a tournament's new game is told
// it is ready, with the opponent's name.
func TestPushTournamentRound(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	dir, tess, ugo := browser(t), browser(t), browser(t)
	e.signUp(dir, "Director", "correct horse")
	e.signUp(tess, "Tess", "battery staple")
	e.signUp(ugo, "Ugo", "battery staple")
	bt, bu := subscribe(t, e, tess, svc, "tess"), subscribe(t, e, ugo, svc, "ugo")
	var made map[string]string
	if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": "Autumn Open",
		"clock": ClockRequest{Seconds: 600, Overtime: 60}, "rounds": 1}, &made); code != 201 {
		t.Fatalf("create: %d", code)
	}
	path := "/api/tournaments/" + made["id"]
	for _, c := range []*http.Client{tess, ugo} {
		if code := e.doWith(c, "POST", path+"/register", "", nil, nil); code != 200 {
			t.Fatalf("register: %d", code)
		}
	}
	var info TournamentInfo
	if code := e.doWith(dir, "POST", path+"/start", "", nil, &info); code != 200 || len(info.Pairings) != 1 || len(info.Pairings[0]) != 1 {
		t.Fatalf("start: %d %+v", code, info)
	}
	game := info.Pairings[0][0].Game
	for _, tc := range []struct {
		b         *webpushtest.Browser
		path, opp string
	}{{bt, "/push/tess", "Ugo"}, {bu, "/push/ugo", "Tess"}} {
		p := waitPushed(t, svc, tc.b, tc.path, 1)[0]
		if p.TitleKey != "pushRoundTitle" || !slices.Equal(p.TitleArgs, []string{"Autumn Open", "1"}) || !slices.Equal(p.BodyArgs, []string{tc.opp}) ||
			p.URL != "/g/"+game || game == "" {
			t.Errorf("%s's message: %+v (game %q)", tc.path, p, game)
		}
	}
}

// TestPushSubjectOfPublicURL: the push services' contact defaults to the
// public address when it is an https one; a server reached over plain
// http (allowed for --public-url) still starts, with the default
// contact.
func TestPushSubjectOfPublicURL(t *testing.T) {
	for _, tc := range []struct{ public, want string }{
		{"https://example.org", "https://example.org"},
		{"http://example.org", "mailto:push@atril.invalid"},
		{"", "mailto:push@atril.invalid"},
	} {
		cfg := testConfig(newStore(t))
		cfg.PublicURL = tc.public
		s, err := New(cfg)
		if err != nil {
			t.Errorf("public address %q: %v", tc.public, err)
			continue
		}
		if s.push == nil {
			t.Errorf("public address %q: no push messages", tc.public)
		} else if s.push.subject != tc.want {
			t.Errorf("public address %q: the subject %q, want %q", tc.public, s.push.subject, tc.want)
		}
		s.Close()
	}
}

// TestPushHostsPorts: a push service is reached at the port its entry
// in PushHosts names, 443 (https's) when it names none: a subscription
// cannot make the server connect to another port of a push service's
// host.
func TestPushHostsPorts(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.PushHosts = []string{"push.example.net", "*.push.example.org", "127.0.0.1:8443"}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for host, want := range map[string]bool{
		"push.example.net": true, "push.example.net:443": true, "PUSH.example.net": true, "push.example.net:": true,
		"push.example.net:81": false, "push.example.net:22": false, "push.example.net:0443": false,
		"a.push.example.org": true, "a.push.example.org:443": true, "a.push.example.org:8080": false,
		"127.0.0.1:8443": true, "127.0.0.1": false, "127.0.0.1:443": false, "127.0.0.1:8444": false,
		"push.example.com": false, "[::1]:8443": false,
	} {
		if got := s.push.allowed(host); got != want {
			t.Errorf("allowed(%q) = %v, want %v", host, got, want)
		}
	}
	for _, bad := range [][]string{{"host:"}, {"host:x"}, {"host:0"}, {"host:65536"}, {"host:1:2"}} {
		cfg := testConfig(newStore(t))
		cfg.PushHosts = bad
		if s, err := New(cfg); err == nil {
			s.Close()
			t.Errorf("push hosts %q taken", bad)
		}
	}
}

// overMessages returns the end's messages path received, opened by b.
func overMessages(t *testing.T, svc *webpushtest.Service, b *webpushtest.Browser, path string) []pushPayload {
	t.Helper()
	var out []pushPayload
	for _, p := range pushedTo(t, svc, b, path) {
		if p.TitleKey == "pushOverTitle" {
			out = append(out, p)
		}
	}
	return out
}

// waitOverMessage waits for the one end's message of path.
func waitOverMessage(t *testing.T, svc *webpushtest.Service, b *webpushtest.Browser, path string) pushPayload {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		over := overMessages(t, svc, b, path)
		if len(over) > 0 || time.Now().After(deadline) {
			if len(over) != 1 {
				t.Fatalf("end messages to %s: %+v", path, over)
			}
			return over[0]
		}
		svc.Wait(len(svc.Messages())+1, 200*time.Millisecond)
	}
}

// TestPushTimeOut: a game of correspondence play lost on time tells both
// seats: the winner, and the seat whose time ran out (away, since it
// did not move), which is told against whom it lost.
func TestPushTimeOut(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	id, _, cs := e.createPerMove(1)
	b0 := subscribe(t, e, cs[0], svc, "p0")
	b1 := subscribe(t, e, cs[1], svc, "p1")
	st := e.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 0 {
		t.Fatalf("timed out %v, want seat 0", st.TimedOut)
	}
	names := []string{st.Seats[0].Name, st.Seats[1].Name}
	won := waitOverMessage(t, svc, b1, "/push/p1")
	if won.BodyKey != "pushWon" || !slices.Equal(won.TitleArgs, []string{names[0]}) {
		t.Errorf("the winner's message: %+v", won)
	}
	lost := waitOverMessage(t, svc, b0, "/push/p0")
	if lost.BodyKey != "pushTimedOut" || !slices.Equal(lost.TitleArgs, []string{names[1]}) || lost.URL != "/g/"+id ||
		!slices.Equal(lost.BodyArgs, []string{"0", "0"}) || lost.Body != "Your time ran out: you lost 0–0." {
		t.Errorf("the message of the seat out of time: %+v", lost)
	}

	// After a move: the other seat's time runs out.
	id, toks, cs := e.createPerMove(1)
	b0 = subscribe(t, e, cs[0], svc, "q0")
	b1 = subscribe(t, e, cs[1], svc, "q1")
	req, _ := bestRequest(t, e.state(id, toks[0]))
	if code := e.do("POST", "/api/games/"+id+"/move", toks[0], req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	st = e.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 1 {
		t.Fatalf("timed out %v, want seat 1", st.TimedOut)
	}
	lost = waitOverMessage(t, svc, b1, "/push/q1")
	if lost.BodyKey != "pushTimedOut" || !slices.Equal(lost.TitleArgs, []string{st.Seats[0].Name}) ||
		!slices.Equal(lost.BodyArgs, []string{"0", strconv.Itoa(st.Seats[0].Score)}) {
		t.Errorf("the message of the seat out of time: %+v (scores %d, %d)", lost, st.Seats[0].Score, st.Seats[1].Score)
	}
	if won := waitOverMessage(t, svc, b0, "/push/q0"); won.BodyKey != "pushWon" {
		t.Errorf("the winner's message: %+v", won)
	}

	// A resignation before any move tells the other seat.
	id, toks, cs = e.createPerMove(86400)
	b1 = subscribe(t, e, cs[1], svc, "r1")
	if code := e.do("POST", "/api/games/"+id+"/resign", toks[0], nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	if won := waitOverMessage(t, svc, b1, "/push/r1"); won.BodyKey != "pushWon" {
		t.Errorf("the message of a resignation before any move: %+v", won)
	}
}

// TestPushChallenge: in a game of correspondence play under a challenge
// rule, the answers tell too: a challenge of a valid word that costs the
// challenger its turn tells the seat it puts on turn, and the play that
// went out, accepted, ends the game for the seat that made it.
func TestPushChallenge(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	cs := e.accounts(2)
	var cr CreateResponse
	if code := e.doWith(cs[0], "POST", "/api/games", "", map[string]any{"variant": "english", "seed": 42, "challenge": "double",
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "clock": ClockRequest{PerMove: 86400}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id := cr.ID
	var toks []string
	for _, c := range cs {
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+id+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		toks = append(toks, j.Token)
	}
	bs := []*webpushtest.Browser{subscribe(t, e, cs[0], svc, "c0"), subscribe(t, e, cs[1], svc, "c1")}
	path := []string{"/push/c0", "/push/c1"}
	turns := func(i int) []pushPayload {
		var out []pushPayload
		for _, p := range pushedTo(t, svc, bs[i], path[i]) {
			if p.TitleKey == "pushTurnTitle" {
				out = append(out, p)
			}
		}
		return out
	}
	st := e.state(id, toks[0])
	names := []string{st.Seats[0].Name, st.Seats[1].Name}
	req, _ := bestRequest(t, st)
	if code := e.do("POST", "/api/games/"+id+"/move", toks[0], req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	waitPushed(t, svc, bs[1], path[1], 1)
	played := e.state(id, "").History[0].Move
	if code := e.do("POST", "/api/games/"+id+"/challenge", toks[1], nil, nil); code != 200 {
		t.Fatalf("challenge: %d", code)
	}
	if st := e.state(id, ""); st.Turn != 0 {
		t.Fatalf("after a challenge of a word: seat %d on turn", st.Turn)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(turns(0)) == 0 && time.Now().Before(deadline) {
		svc.Wait(len(svc.Messages())+1, 200*time.Millisecond)
	}
	if got := turns(0); len(got) != 1 || got[0].BodyKey != "pushLostTurn" || !slices.Equal(got[0].TitleArgs, []string{names[1]}) ||
		len(got[0].BodyArgs) != 4 || got[0].BodyArgs[0] != names[1] || got[0].BodyArgs[1] != played ||
		got[0].Body != fmt.Sprintf("%s challenged %s, which stands: %s loses the turn. Score %s–0.", names[1], played, names[1], got[0].BodyArgs[2]) {
		t.Errorf("the message of the challenge: %+v (the word %s)", got, played)
	}
	// Played out, each play that goes out accepted.
	accepted := -1
	for k := 0; k < 200; k++ {
		pub := e.state(id, "")
		if pub.Over {
			break
		}
		st := e.state(id, toks[pub.Turn])
		if st.AwaitingChallenge {
			if code := e.do("POST", "/api/games/"+id+"/accept", toks[pub.Turn], nil, nil); code != 200 {
				t.Fatalf("accept: %d", code)
			}
			accepted = pub.Turn
			continue
		}
		req, _ := bestRequest(t, st)
		if code := e.do("POST", "/api/games/"+id+"/move", toks[pub.Turn], req, nil); code != 200 {
			t.Fatalf("move %d: %d", k, code)
		}
	}
	if !e.state(id, "").Over || accepted < 0 {
		t.Skip("the game did not end by a play that went out")
	}
	out := 1 - accepted
	if over := waitOverMessage(t, svc, bs[out], path[out]); !slices.Equal(over.TitleArgs, []string{names[accepted]}) {
		t.Errorf("the end's message to the seat that went out: %+v", over)
	}
	if over := overMessages(t, svc, bs[accepted], path[accepted]); len(over) != 0 {
		t.Errorf("the seat that accepted was told the end: %+v", over)
	}
}

// TestPushStart: the seat taken last starts a game of correspondence
// play; the seat on turn, which took its seat before (an invitation
// accepted, a game found in the lobby), is told that it is its move.
func TestPushStart(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	cs := e.accounts(2)
	var cr CreateResponse
	if code := e.doWith(cs[0], "POST", "/api/games", "", map[string]any{"variant": "english", "seed": 42,
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "clock": ClockRequest{PerMove: 3 * 86400}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	b0 := subscribe(t, e, cs[0], svc, "s0")
	b1 := subscribe(t, e, cs[1], svc, "s1")
	for _, c := range cs {
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 200 {
			t.Fatalf("join: %d", code)
		}
	}
	st := e.state(cr.ID, "")
	if st.Turn != 0 {
		t.Fatalf("seat %d on turn at the start, want 0 (seed 42)", st.Turn)
	}
	p := waitPushed(t, svc, b0, "/push/s0", 1)[0]
	if p.TitleKey != "pushTurnTitle" || !slices.Equal(p.TitleArgs, []string{st.Seats[1].Name}) || p.BodyKey != "pushStarted" ||
		!slices.Equal(p.BodyArgs, []string{st.Seats[1].Name}) || p.Body != st.Seats[1].Name+" took a seat: the game has begun." ||
		p.URL != "/g/"+cr.ID || p.Tag != "g-"+cr.ID {
		t.Errorf("the start's message: %+v", p)
	}
	if m := svc.Messages(); len(m) != 1 || m[0].Header.Get("Ttl") != strconv.Itoa(3*86400) || m[0].Header.Get("Topic") == "" {
		t.Errorf("messages %d, the first's headers %v", len(m), m[0].Header)
	}
	if ps := pushedTo(t, svc, b1, "/push/s1"); len(ps) != 0 {
		t.Errorf("the seat taken last was told: %+v", ps)
	}
}

// TestPushOwnSeats: an account that holds two seats of a game of
// correspondence play (an unrated one allows it) made each move itself:
// it is told nothing, neither of its start, of its moves, nor of its
// end.
func TestPushOwnSeats(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	c := e.accounts(1)[0]
	b := subscribe(t, e, c, svc, "own")
	var cr CreateResponse
	if code := e.doWith(c, "POST", "/api/games", "", map[string]any{"variant": "english", "seed": 42,
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "clock": ClockRequest{PerMove: 86400}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var toks []string
	for range 2 {
		var j JoinResponse
		if code := e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", nil, &j); code != 200 {
			t.Fatalf("join: %d", code)
		}
		toks = append(toks, j.Token)
	}
	playOut(t, e, cr.ID, toks, 200)
	if !e.state(cr.ID, "").Over {
		t.Fatal("the game did not end")
	}
	// Whatever was queued is sent.
	for deadline := time.Now().Add(5 * time.Second); len(e.srv.push.queue) > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	svc.Wait(1, 300*time.Millisecond)
	if ps := pushedTo(t, svc, b, "/push/own"); len(ps) != 0 {
		t.Errorf("told of its own game %d times, the first %+v", len(ps), ps[0])
	}
}

// TestPushPasswordChanged: a new password ends the account's other
// sessions (it is what one sets after a leak), and the push messages of
// every browser with them: one that took the password is told nothing
// more, neither of games nor of messages (whose text a push carries).
// So does a new password set with a recovery code.
func TestPushPasswordChanged(t *testing.T) {
	for _, how := range []string{"password", "recovery code"} {
		t.Run(how, func(t *testing.T) { pushPasswordChanged(t, how) })
	}
}

func pushPasswordChanged(t *testing.T, how string) {
	e, svc := pushEnv(t, nil, false)
	ana, thief, bo := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana_pw", "correct horse")
	e.signUp(bo, "Bo_pw", "battery staple")
	var rc RecoveryCodes
	if code := e.doWith(ana, "POST", "/api/me/recovery-codes", "", map[string]string{"password": "correct horse"}, &rc); code != 201 || len(rc.Codes) == 0 {
		t.Fatalf("recovery codes: %d %+v", code, rc)
	}
	if code := e.doWith(thief, "POST", "/api/login", "", map[string]string{"name": "Ana_pw", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	bt := subscribe(t, e, thief, svc, "thief")
	if how == "password" {
		if code := e.doWith(ana, "POST", "/api/me/password", "", map[string]string{"password": "correct horse", "new": "a new secret"}, nil); code != 200 {
			t.Fatalf("password: %d", code)
		}
	} else {
		ana = browser(t)
		if code := e.doWith(ana, "POST", "/api/login/recover", "", map[string]string{"name": "Ana_pw", "code": rc.Codes[0], "password": "a new secret"}, nil); code != 200 {
			t.Fatalf("recover: %d", code)
		}
	}
	var ps PushSubscriptions
	if code := e.doWith(ana, "DELETE", "/api/me/push", "", map[string]string{"endpoint": svc.URL + "/push/none"}, &ps); code != 200 || ps.Subscriptions != 0 {
		t.Errorf("subscriptions after the new password: %d %+v", code, ps)
	}
	if code := e.doWith(bo, "POST", "/api/me/messages/Ana_pw", "", map[string]string{"text": "the code is 1234"}, nil); code != 201 {
		t.Fatalf("message: %d", code)
	}
	for deadline := time.Now().Add(5 * time.Second); len(e.srv.push.queue) > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	svc.Wait(1, 300*time.Millisecond)
	if got := pushedTo(t, svc, bt, "/push/thief"); len(got) != 0 {
		t.Errorf("a browser of a session the new password ended was told %+v", got)
	}
}

// TestPushSessionEnds: a browser is told while the session it subscribed
// in lasts: signed out there (the page failing to unsubscribe), it is
// forgotten at the next message, and the account's other browser is
// still told.
func TestPushSessionEnds(t *testing.T) {
	e, svc := pushEnv(t, nil, false)
	phone, laptop := browser(t), browser(t)
	e.signUp(phone, "Ana_ps", "correct horse")
	if code := e.doWith(laptop, "POST", "/api/login", "", map[string]string{"name": "Ana_ps", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	subscribe(t, e, phone, svc, "phone")
	lb := subscribe(t, e, laptop, svc, "laptop")
	if code := e.doWith(phone, "POST", "/api/logout", "", nil, nil); code != 200 {
		t.Fatalf("sign out: %d", code)
	}
	var pt PushTest
	if code := e.doWith(laptop, "POST", "/api/me/push/test", "", nil, &pt); code != 200 || pt != (PushTest{Sent: 1, Gone: 1}) {
		t.Errorf("test after the phone signed out: %d %+v", code, pt)
	}
	if n := len(pushedTo(t, svc, lb, "/push/laptop")); n != 1 {
		t.Errorf("the laptop got %d messages", n)
	}
	for _, m := range svc.Messages() {
		if m.Path == "/push/phone" {
			t.Error("the phone, signed out, was told")
		}
	}
	if code := e.doWith(laptop, "POST", "/api/me/push/test", "", nil, &pt); code != 200 || pt != (PushTest{Sent: 1}) {
		t.Errorf("test again: %d %+v", code, pt)
	}
}
