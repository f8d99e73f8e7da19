package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"atril/game"
	"atril/move"
	"atril/store"
	"atril/webpush"
)

// Push messages (package webpush): a signed-in player may ask each of
// its browsers to be told, with the page closed, that it is its move in
// a game of correspondence play, that such a game began or ended, that
// a tournament's game of its is ready, that a player invites it to a
// game or writes to it; each browser while the session it subscribed
// in lasts. The page subscribes through its
// service worker (web/static/sw.js), which shows what arrives as a
// notification and opens the game or the conversation when it is
// clicked.
//
// The server posts only to the push services of PushHosts, at their
// ports, so that a subscription cannot make it post to an address a
// client chooses. The messages are queued and sent by two workers; a
// full queue drops them (counted in /metrics). The server's key pair is
// kept in the store, the first process to need it making it.

// DefaultPushHosts are the push services of the browsers in use:
// Chrome's and other Chromium browsers', Firefox's, Edge's and Safari's.
var DefaultPushHosts = []string{"fcm.googleapis.com", "updates.push.services.mozilla.com", "*.notify.windows.com", "*.push.apple.com"}

const (
	// pushQueue bounds the messages waiting to be sent.
	pushQueue = 256
	// pushWorkers send them.
	pushWorkers = 2
	// pushKeyName names the server's key pair in the store.
	pushKeyName = "vapid"
	// pushTestsPerHour bounds the test messages an account asks for.
	pushTestsPerHour = 12
)

// pusher queues and sends push messages.
type pusher struct {
	srv     *Server
	hosts   []string
	subject string
	client  *http.Client
	queue   chan pushJob

	mu     sync.Mutex
	sender *webpush.Sender // nil until the keys are read

	testLim *limiter

	sent, failed, gone, dropped atomic.Int64
}

// pushJob is a message for every browser of an account.
type pushJob struct {
	account string
	p       pushPayload
	ttl     time.Duration
	urgency string
	topic   string
}

// pushPayload is what the service worker receives: the English title
// and text, and the keys of the page's words with their arguments,
// which it shows in the player's language (Lang, from the account's
// settings; else the browser's).
type pushPayload struct {
	Title    string `json:"title"`
	Body     string `json:"body"`
	TitleKey string `json:"title_key,omitempty"`
	BodyKey  string `json:"body_key,omitempty"`
	// TitleArgs and BodyArgs fill the words' {0}, {1}...
	TitleArgs []string `json:"title_args,omitempty"`
	BodyArgs  []string `json:"body_args,omitempty"`
	Lang      string   `json:"lang,omitempty"`
	// URL is the page to open, Tag the notification it replaces.
	URL string `json:"url"`
	Tag string `json:"tag,omitempty"`
}

// newPusher makes the server's pusher: nil when hosts is empty.
func newPusher(s *Server, hosts []string, subject string, client *http.Client) (*pusher, error) {
	if hosts == nil {
		hosts = DefaultPushHosts
	}
	if len(hosts) == 0 {
		return nil, nil
	}
	for _, h := range hosts {
		name, port, hasPort := strings.Cut(strings.TrimPrefix(h, "*."), ":")
		if n, err := strconv.Atoi(port); name == "" || strings.ContainsAny(name, "*/:@ ") || hasPort && (err != nil || n < 1 || n > 65535 || port != strconv.Itoa(n)) {
			return nil, fmt.Errorf("server: push host %q: want a host name, or *.name for its subdomains (with :port when not 443)", h)
		}
	}
	if subject == "" {
		// The public address when it is an https one (it may be
		// http, which a push service does not take as a contact).
		subject = "mailto:push@atril.invalid"
		if strings.HasPrefix(s.cfg.PublicURL, "https://") {
			subject = s.cfg.PublicURL
		}
	}
	if !strings.HasPrefix(subject, "mailto:") && !strings.HasPrefix(subject, "https://") {
		return nil, fmt.Errorf("server: push subject %q: want a mailto: or https: address", subject)
	}
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return &pusher{srv: s, hosts: hosts, subject: subject, client: client, queue: make(chan pushJob, pushQueue),
		testLim: newHourLimiter(pushTestsPerHour, pushTestsPerHour, 1)}, nil
}

// start runs the workers until the server closes.
func (p *pusher) start() {
	for range pushWorkers {
		p.srv.wg.Add(1)
		go func() {
			defer p.srv.wg.Done()
			for {
				select {
				case <-p.srv.ctx.Done():
					return
				case j := <-p.queue:
					p.deliver(p.srv.ctx, j)
				}
			}
		}()
	}
}

// allowed reports whether the push service at host (a URL's host, with
// or without a port) is one of p's, at the port its entry names (443
// when it names none): a client chooses no port of a push service's
// host for the server to connect to.
func (p *pusher) allowed(host string) bool {
	name, port := strings.ToLower(host), ""
	if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.Contains(name[i:], "]") {
		name, port = name[:i], name[i+1:]
	}
	if port == "" {
		port = "443"
	}
	for _, pat := range p.hosts {
		pat, want, ok := strings.Cut(strings.ToLower(pat), ":")
		if !ok {
			want = "443"
		}
		if port != want {
			continue
		}
		if sub, ok := strings.CutPrefix(pat, "*."); ok {
			if strings.HasSuffix(name, "."+sub) {
				return true
			}
		} else if name == pat {
			return true
		}
	}
	return false
}

// keys returns the sender with the server's keys, reading them from the
// store (or storing new ones) the first time.
func (p *pusher) keys(ctx context.Context) (*webpush.Sender, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sender != nil {
		return p.sender, nil
	}
	fresh, err := webpush.NewKeys()
	if err != nil {
		return nil, err
	}
	priv, err := p.srv.store.PushKey(ctx, pushKeyName, fresh.Private())
	if err != nil {
		return nil, err
	}
	k, err := webpush.ParseKeys(priv)
	if err != nil {
		return nil, fmt.Errorf("the stored push key: %w", err)
	}
	p.sender = &webpush.Sender{Keys: k, Subject: p.subject, Client: p.client}
	return p.sender, nil
}

// send queues j, or drops it when the queue is full. p may be nil.
func (p *pusher) send(j pushJob) {
	if p == nil || j.account == "" {
		return
	}
	select {
	case p.queue <- j:
	default:
		p.dropped.Add(1)
	}
}

// deliver sends j to every browser of its account, forgetting those the
// push service no longer knows, and returns how many took it, failed,
// and were gone.
func (p *pusher) deliver(ctx context.Context, j pushJob) (sent, failed, gone int) {
	subs, err := p.srv.store.PushSubscriptions(ctx, j.account)
	if err != nil {
		p.srv.logf("push: %v", err)
		p.failed.Add(1)
		return 0, 1, 0
	}
	if len(subs) == 0 {
		return 0, 0, 0
	}
	sender, err := p.keys(ctx)
	if err != nil {
		p.srv.logf("push: %v", err)
		p.failed.Add(int64(len(subs)))
		return 0, len(subs), 0
	}
	if prefs, err := p.srv.store.Settings(ctx, j.account); err == nil && prefs != "" {
		var st struct {
			Language string `json:"language"`
		}
		if json.Unmarshal([]byte(prefs), &st) == nil && len(st.Language) <= 8 {
			j.p.Lang = st.Language
		}
	}
	payload, err := json.Marshal(j.p)
	if err != nil {
		p.srv.logf("push: %v", err)
		return 0, len(subs), 0
	}
	// The browsers that may still be told: their subscription still
	// sendable and the session they subscribed in still open.
	type target struct {
		endpoint string
		ws       webpush.Subscription
	}
	var targets []target
	for _, sub := range subs {
		ws, err := webpush.ParseSubscription(sub.Endpoint, sub.P256dh, sub.Auth)
		if err == nil {
			if u, _ := url.Parse(sub.Endpoint); !p.allowed(u.Host) {
				err = fmt.Errorf("push service %s is not among the server's", u.Host)
			}
		}
		if err == nil && sub.Session != "" {
			a, serr := p.srv.store.Session(ctx, sub.Session, time.Now())
			switch {
			case errors.Is(serr, store.ErrNotFound) || serr == nil && a.Key != j.account:
				err = errors.New("its session ended")
			case serr != nil:
				p.srv.logf("push: %v", serr)
				failed++
				continue
			}
		}
		if err != nil {
			// No longer sendable: taken under other settings, or
			// its session ended (signed out elsewhere, or expired).
			p.srv.logf("push: a subscription of %s dropped: %v", j.account, err)
			if err := p.srv.store.RemovePushSubscription(ctx, j.account, sub.Endpoint); err != nil {
				p.srv.logf("push: %v", err)
			}
			gone++
			continue
		}
		targets = append(targets, target{sub.Endpoint, ws})
	}
	// Each browser at once: a slow push service holds up its own.
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, tg := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			err := sender.Send(sctx, tg.ws, webpush.Message{Payload: payload, TTL: j.ttl, Urgency: j.urgency, Topic: j.topic})
			cancel()
			if errors.Is(err, webpush.ErrGone) {
				if rerr := p.srv.store.RemovePushSubscription(ctx, j.account, tg.endpoint); rerr != nil {
					p.srv.logf("push: %v", rerr)
				}
			} else if err != nil {
				p.srv.logf("push: to %s: %v", j.account, err)
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				sent++
			case errors.Is(err, webpush.ErrGone):
				gone++
			default:
				failed++
			}
		}()
	}
	wg.Wait()
	p.sent.Add(int64(sent))
	p.failed.Add(int64(failed))
	p.gone.Add(int64(gone))
	return sent, failed, gone
}

// PushKey is the answer of GET /api/push/key.
type PushKey struct {
	// Key is the server's public key: the applicationServerKey to
	// subscribe with.
	Key string `json:"key"`
}

func (s *Server) handlePushKey(w http.ResponseWriter, r *http.Request) {
	if s.push == nil {
		s.fail(w, &apiError{404, "this server sends no push messages"})
		return
	}
	sender, err := s.push.keys(r.Context())
	if err != nil {
		s.fail(w, fmt.Errorf("push key: %w", err))
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, 200, PushKey{Key: sender.Keys.Public()})
}

// pushRequest is the body of POST and DELETE /api/me/push: a
// PushSubscription's toJSON() (only the endpoint for DELETE).
type pushRequest struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	ExpirationTime *float64 `json:"expirationTime"`
}

// PushSubscriptions is the answer of the /api/me/push requests.
type PushSubscriptions struct {
	// Subscriptions counts the account's browsers that get push
	// messages.
	Subscriptions int `json:"subscriptions"`
}

// pushAccount is the first steps of the /api/me/push requests: push on,
// the body read, the player signed in and the body decoded.
func (s *Server) pushAccount(w http.ResponseWriter, r *http.Request, why string) (*store.Account, *pushRequest, bool) {
	if s.push == nil {
		s.fail(w, &apiError{404, "this server sends no push messages"})
		return nil, nil, false
	}
	data, ok := s.limitedBody(w, r, s.joinLim, "changes to push messages")
	if !ok {
		return nil, nil, false
	}
	a, err := s.requireSignIn(r, why)
	if err != nil {
		s.fail(w, err)
		return nil, nil, false
	}
	var req pushRequest
	if len(data) > 0 {
		if err := decodeJSON(data, &req); err != nil {
			s.fail(w, err)
			return nil, nil, false
		}
	}
	return a, &req, true
}

// writePushCount answers how many browsers of the account get messages.
func (s *Server) writePushCount(w http.ResponseWriter, r *http.Request, key string, code int) {
	subs, err := s.store.PushSubscriptions(r.Context(), key)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, code, PushSubscriptions{Subscriptions: len(subs)})
}

func (s *Server) handlePushSubscribe(w http.ResponseWriter, r *http.Request) {
	a, req, ok := s.pushAccount(w, r, "sign in to get push messages")
	if !ok {
		return
	}
	sub, err := webpush.ParseSubscription(req.Endpoint, req.Keys.P256dh, req.Keys.Auth)
	if err != nil {
		s.fail(w, &apiError{400, strings.TrimPrefix(err.Error(), "webpush: ")})
		return
	}
	if u, _ := url.Parse(sub.Endpoint); !s.push.allowed(u.Host) {
		s.fail(w, &apiError{400, fmt.Sprintf("this server sends no messages through the push service at %s", short(u.Host, 80))})
		return
	}
	// The browser is told while the session it subscribed in lasts.
	session := ""
	if c, err := r.Cookie(sessionCookie); err == nil {
		session = sessionHash(c.Value)
	}
	err = s.store.AddPushSubscription(r.Context(), store.PushSubscription{Account: a.Key, Endpoint: req.Endpoint,
		P256dh: req.Keys.P256dh, Auth: req.Keys.Auth, Session: session, Created: time.Now().UTC()})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writePushCount(w, r, a.Key, 201)
}

func (s *Server) handlePushUnsubscribe(w http.ResponseWriter, r *http.Request) {
	a, req, ok := s.pushAccount(w, r, "sign in to change your push messages")
	if !ok {
		return
	}
	if req.Endpoint == "" {
		s.fail(w, &apiError{400, "endpoint: the subscription's address is needed"})
		return
	}
	if err := s.store.RemovePushSubscription(r.Context(), a.Key, req.Endpoint); err != nil {
		s.fail(w, err)
		return
	}
	s.writePushCount(w, r, a.Key, 200)
}

// unsubscribeAll forgets every push subscription of the account of key.
func (s *Server) unsubscribeAll(ctx context.Context, key string) error {
	subs, err := s.store.PushSubscriptions(ctx, key)
	for _, sub := range subs {
		if err == nil {
			err = s.store.RemovePushSubscription(ctx, key, sub.Endpoint)
		}
	}
	return err
}

// PushTest is the answer of POST /api/me/push/test: how many of the
// account's browsers the push services took the message for, failed,
// or no longer knew (those are forgotten).
type PushTest struct {
	Sent   int `json:"sent"`
	Failed int `json:"failed"`
	Gone   int `json:"gone"`
}

func (s *Server) handlePushTest(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.pushAccount(w, r, "sign in to test your push messages")
	if !ok {
		return
	}
	if ok, retry := s.push.testLim.take("account "+a.Key, time.Now()); !ok {
		s.fail(w, tooMany("test messages", retry))
		return
	}
	sent, failed, gone := s.push.deliver(r.Context(), pushJob{account: a.Key, ttl: time.Minute, urgency: "high", topic: "test",
		p: pushPayload{Title: "atril", Body: "Notifications work on this device.", TitleKey: "pushTestTitle", BodyKey: "pushTestBody", URL: "/", Tag: "test"}})
	writeJSON(w, 200, PushTest{Sent: sent, Failed: failed, Gone: gone})
}

// pushTurn tells the seats of a game of correspondence play that are
// not watching it through a socket of this process what the move (or
// resignation, loss on time, challenge or acceptance of a play that went
// out) of seat mover did: that it is their
// move, or that the game is over (the seat that lost on time too: it
// was away). Caller holds l.mu.
func (l *live) pushTurn(mover int) {
	p := l.srv.push
	if p == nil || !l.correspondence() {
		return
	}
	by := l.seat[mover].name
	page, tag, topic := l.pushPlace()
	score := func(me int) (string, string) {
		best := -1 << 31
		for i, st := range l.g.Seats {
			if i != me && st.Score > best {
				best = st.Score
			}
		}
		return fmt.Sprint(l.g.Seats[me].Score), fmt.Sprint(best)
	}
	if l.over() {
		winners := l.g.Winners()
		timedOut := l.g.TimedOut()
		told := map[string]bool{}
		for i, st := range l.seat {
			if i == mover && i != timedOut || !l.pushes(i, mover) || told[st.account] {
				continue
			}
			told[st.account] = true
			mine, theirs := score(i)
			against := by
			key, text := "pushLost", "You lost %s–%s."
			switch {
			case i == timedOut:
				// It lost to the best of the others.
				if len(winners) > 0 {
					against = l.seat[winners[0]].name
				}
				key, text = "pushTimedOut", "Your time ran out: you lost %s–%s."
			case len(winners) > 1 && slices.Contains(winners, i):
				key, text = "pushDrew", "A draw, %s–%s."
			case slices.Contains(winners, i):
				key, text = "pushWon", "You won %s–%s."
			}
			p.send(pushJob{account: st.account, ttl: 7 * 24 * time.Hour, urgency: "normal", topic: topic, p: pushPayload{
				Title: "Game over against " + against, TitleKey: "pushOverTitle", TitleArgs: []string{against},
				Body: fmt.Sprintf(text, mine, theirs), BodyKey: key, BodyArgs: []string{mine, theirs}, URL: page, Tag: tag}})
		}
		return
	}
	cur := l.g.Current()
	st := l.seat[cur]
	if cur == mover || !l.pushes(cur, mover) || len(l.g.History) == 0 {
		return
	}
	last := l.g.History[len(l.g.History)-1]
	for k := len(l.g.History) - 1; k >= 0; k-- {
		if l.g.History[k].Player == mover {
			last = l.g.History[k]
			break
		}
	}
	mine, theirs := score(cur)
	var body, key string
	var args []string
	switch {
	case last.Kind == game.LostTurn:
		// Its challenge of a word that stands cost it the turn.
		word := ""
		for _, h := range slices.Backward(l.g.History) {
			if h.Kind == game.Played && h.Move.Kind == move.Place {
				word = h.Notation
				break
			}
		}
		body, key, args = fmt.Sprintf("%s challenged %s, which stands: %s loses the turn.", by, word, by), "pushLostTurn", []string{by, word}
	case last.Move.Kind == move.Place:
		body, key, args = fmt.Sprintf("%s played %s for %d.", by, last.Notation, last.Points), "pushPlaced", []string{by, last.Notation, fmt.Sprint(last.Points)}
	case last.Move.Kind == move.Exchange:
		body, key, args = fmt.Sprintf("%s exchanged %d tiles.", by, len(last.Move.Exchanged)), "pushExchanged", []string{by, fmt.Sprint(len(last.Move.Exchanged))}
	default:
		body, key, args = by+" passed.", "pushPassed", []string{by}
	}
	body += fmt.Sprintf(" Score %s–%s.", mine, theirs)
	args = append(args, mine, theirs)
	ttl := time.Duration(l.hdr.Seats[cur].PerMove) * time.Second
	p.send(pushJob{account: st.account, ttl: min(max(ttl, time.Hour), 7*24*time.Hour), urgency: "normal", topic: topic, p: pushPayload{
		Title: "Your move against " + by, TitleKey: "pushTurnTitle", TitleArgs: []string{by},
		Body: body, BodyKey: key, BodyArgs: args, URL: page, Tag: tag}})
}

// pushes reports whether seat i is told what seat by did: a person's
// account, not by's (one account may hold several seats of a game that
// is not rated), and not watching the game on a socket of this process
// at any of its seats. Caller holds l.mu.
func (l *live) pushes(i, by int) bool {
	acct := l.seat[i].account
	if acct == "" || l.seat[i].level != "" || i != by && acct == l.seat[by].account {
		return false
	}
	for j, st := range l.seat {
		if st.account == acct && l.sockets[j] > 0 {
			return false
		}
	}
	return true
}

// pushPlace is the page a game's push messages open, the tag of their
// notifications and their topic (a message of the game that the push
// service still holds is replaced by the next).
func (l *live) pushPlace() (page, tag, topic string) {
	topic = "g" + strings.NewReplacer("-", "", "_", "").Replace(l.hdr.ID)
	if len(topic) > 32 {
		topic = topic[:32]
	}
	return "/g/" + l.hdr.ID, "g-" + l.hdr.ID, topic
}

// pushStart tells the seat on turn of a game of correspondence play that
// seat joiner, taking the last free seat, started the game: that it is
// its move (it took its seat before, and may be away). Caller holds
// l.mu.
func (l *live) pushStart(joiner int) {
	p := l.srv.push
	if p == nil || !l.correspondence() || !l.started() || l.over() || len(l.g.History) > 0 {
		return
	}
	cur := l.g.Current()
	st := l.seat[cur]
	if cur == joiner || !l.pushes(cur, joiner) {
		return
	}
	by := l.seat[joiner].name
	page, tag, topic := l.pushPlace()
	ttl := time.Duration(l.hdr.Seats[cur].PerMove) * time.Second
	p.send(pushJob{account: st.account, ttl: min(max(ttl, time.Hour), 7*24*time.Hour), urgency: "normal", topic: topic, p: pushPayload{
		Title: "Your move against " + by, TitleKey: "pushTurnTitle", TitleArgs: []string{by},
		Body: by + " took a seat: the game has begun.", BodyKey: "pushStarted", BodyArgs: []string{by}, URL: page, Tag: tag}})
}

// pushInvitations tells the accounts invited to the game of hdr who
// invites them.
func (s *Server) pushInvitations(hdr *store.Game) {
	for _, st := range hdr.Seats {
		if st.Invited == "" {
			continue
		}
		s.push.send(pushJob{account: st.Invited, ttl: 24 * time.Hour, urgency: "normal", p: pushPayload{
			Title: st.InvitedBy + " invites you to a game", TitleKey: "pushInviteTitle", TitleArgs: []string{st.InvitedBy},
			Body: "Open the game to accept or decline.", BodyKey: "pushInviteBody",
			URL: "/g/" + hdr.ID, Tag: "i-" + hdr.ID}})
	}
}

// pushMessage tells the recipient of m, from me, what m says.
func (s *Server) pushMessage(me *store.Account, m *store.Message) {
	s.push.send(pushJob{account: m.To, ttl: 24 * time.Hour, urgency: "normal", p: pushPayload{
		Title: me.Name + " wrote to you", TitleKey: "pushMessageTitle", TitleArgs: []string{me.Name},
		Body: short(m.Text, 200), URL: "/messages/" + url.PathEscape(me.Name), Tag: "m-" + me.Key}})
}

// pushRound tells the two players of a tournament's new game that it is
// ready.
func (s *Server) pushRound(ref TournamentRef, p [2]tPlayer, game string) {
	for i, pl := range p {
		round, opp := strconv.Itoa(ref.Round), p[1-i].Name
		s.push.send(pushJob{account: pl.Key, ttl: 24 * time.Hour, urgency: "high", p: pushPayload{
			Title: ref.Name + ", round " + round, TitleKey: "pushRoundTitle", TitleArgs: []string{ref.Name, round},
			Body: "Your game against " + opp + " is ready.", BodyKey: "pushRoundBody", BodyArgs: []string{opp},
			URL: "/g/" + game, Tag: "g-" + game}})
	}
}
