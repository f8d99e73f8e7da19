package server

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Default limits per client (IP address, or IPv6 /64 network).
const (
	DefaultCreatePerMinute = 10
	DefaultJoinPerMinute   = 30
	DefaultBadPerMinute    = 60
)

// bucket is one client's token bucket.
type bucket struct {
	tokens float64
	last   time.Time
}

// limiter is a token bucket per client: each may spend burst tokens at
// once, refilled at rate per second. A nil limiter allows everything.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	clients map[string]*bucket
}

// newLimiter makes a limiter of perMinute tokens a minute, a minute's
// worth at once (at least one); nil when perMinute is negative.
func newLimiter(perMinute, def float64) *limiter {
	if perMinute < 0 {
		return nil
	}
	if perMinute == 0 {
		perMinute = def
	}
	return &limiter{rate: perMinute / 60, burst: max(1, math.Ceil(perMinute)), clients: map[string]*bucket{}}
}

// newHourLimiter makes a limiter of perHour tokens an hour (def when
// perHour is 0) times scale, an hour's worth at once (at least one); nil
// when perHour is negative.
func newHourLimiter(perHour, def, scale float64) *limiter {
	if perHour < 0 {
		return nil
	}
	if perHour == 0 {
		perHour = def
	}
	perHour *= scale
	return &limiter{rate: perHour / 3600, burst: max(1, math.Ceil(perHour)), clients: map[string]*bucket{}}
}

// refill brings a client's bucket up to now. Caller holds mu.
func (l *limiter) refill(key string, now time.Time) *bucket {
	b := l.clients[key]
	if b == nil {
		b = &bucket{tokens: l.burst, last: now}
		l.clients[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	return b
}

// take spends one token of the client's; when there is none it says how
// long until there is.
func (l *limiter) take(key string, now time.Time) (ok bool, retry time.Duration) {
	return l.takeN(key, now, 1)
}

// takeN spends n tokens at once (at most the burst), or none.
func (l *limiter) takeN(key string, now time.Time, n float64) (ok bool, retry time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n = min(n, l.burst)
	b := l.refill(key, now)
	if b.tokens >= n {
		b.tokens -= n
		return true, 0
	}
	return false, time.Duration((n - b.tokens) / l.rate * float64(time.Second))
}

// give returns one token to the client (a spent one that should not have
// counted), up to the burst.
func (l *limiter) give(key string, now time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.refill(key, now)
	b.tokens = min(l.burst, b.tokens+1)
}

// empty reports whether the client has no token left, without spending.
func (l *limiter) empty(key string, now time.Time) (bool, time.Duration) {
	if l == nil {
		return false, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.clients[key] == nil {
		return false, 0
	}
	b := l.refill(key, now)
	if b.tokens >= 1 {
		return false, 0
	}
	return true, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// sweep forgets the clients whose bucket has filled up again.
func (l *limiter) sweep(now time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, b := range l.clients {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.clients, k)
		}
	}
}

// tooManyError is a refusal by a limit: 429, with the seconds to wait.
type tooManyError struct {
	msg   string
	retry int
}

func (e *tooManyError) Error() string { return e.msg }

func tooMany(what string, retry time.Duration) *tooManyError {
	secs := max(1, int(math.Ceil(retry.Seconds())))
	return &tooManyError{msg: fmt.Sprintf("too many %s from your address; try again in %d s", what, secs), retry: secs}
}

// DefaultIPv6Prefix is the length of the IPv6 network counted as one
// client: a subscriber holds at least a /64.
const DefaultIPv6Prefix = 64

// clientKey names the client of a request for the limits: its IP address
// (from cfg.RealIPHeader when the server is behind a proxy that sets it),
// or its network of cfg.IPv6Prefix bits for IPv6, where one client holds
// a whole /64 or more.
func (s *Server) clientKey(r *http.Request) string {
	addr := ""
	if h := s.cfg.RealIPHeader; h != "" {
		// The proxy appends the address it saw: take the last one.
		if v := r.Header.Values(h); len(v) > 0 {
			parts := strings.Split(v[len(v)-1], ",")
			addr = strings.TrimSpace(parts[len(parts)-1])
		}
	}
	if addr == "" {
		addr = r.RemoteAddr
	}
	return addrKey(addr, s.cfg.IPv6Prefix)
}

// addrKey names the client at a network address (host, or host:port):
// its IP address, or its network of v6bits bits for IPv6.
func addrKey(addr string, v6bits int) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	ip := net.ParseIP(addr)
	if ip == nil {
		return addr
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(v6bits, 128)).String() + "/" + strconv.Itoa(v6bits)
	}
	return ip.String()
}

// statusWriter notes the status of an answer (for the bad-request
// limit); it unwraps to the real writer for the WebSocket's hijack.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = 200
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// HTTPOptions configures the http.Server that NewHTTPServer makes.
type HTTPOptions struct {
	// ReadHeaderTimeout bounds reading a request's headers (default 10 s).
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included (default
	// 30 s); long polls and WebSockets lift it once the request is read.
	ReadTimeout time.Duration
	// IdleTimeout closes a kept-alive connection with no request (default
	// 2 minutes).
	IdleTimeout time.Duration
}

// NewHTTPServer returns an http.Server for h with the timeouts a public
// server needs: a client that sends its headers or body too slowly is
// cut off. Answers are bounded in time by the Server itself.
func NewHTTPServer(h http.Handler, o HTTPOptions) *http.Server {
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = 10 * time.Second
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = 30 * time.Second
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 2 * time.Minute
	}
	return &http.Server{Handler: h, ReadHeaderTimeout: o.ReadHeaderTimeout, ReadTimeout: o.ReadTimeout,
		IdleTimeout: o.IdleTimeout, MaxHeaderBytes: 16 << 10}
}

// DefaultMaxConns is the default bound of LimitListener in atril serve,
// and DefaultMaxConnsPerClient its bound per client.
const (
	DefaultMaxConns          = 10000
	DefaultMaxConnsPerClient = 128
)

// LimitListener accepts at most n connections at once, and at most
// perClient from one client (an IP address, or an IPv6 network of v6bits
// bits, DefaultIPv6Prefix when 0; perClient 0: no bound per client, as
// behind a proxy, whose address every connection has);
// one more is answered "503 Service Unavailable" (once its request has
// arrived, or after a second) and closed, so a client learns that the
// server is full instead of waiting unanswered.
func LimitListener(ln net.Listener, n, perClient, v6bits int) net.Listener {
	if v6bits == 0 {
		v6bits = DefaultIPv6Prefix
	}
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), turnAway: make(chan struct{}, 64),
		perClient: perClient, v6bits: v6bits, clients: map[string]int{}}
}

type limitListener struct {
	net.Listener
	sem chan struct{}
	// turnAway bounds the connections being answered 503 at once; past
	// it, more are closed without an answer.
	turnAway chan struct{}
	// clients counts the connections open from each client, under mu.
	perClient int
	v6bits    int
	mu        sync.Mutex
	clients   map[string]int
}

// admit counts a connection from client, unless it has perClient open.
func (l *limitListener) admit(client string) bool {
	if l.perClient <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.clients[client] >= l.perClient {
		return false
	}
	l.clients[client]++
	return true
}

// leave counts a connection from client closed.
func (l *limitListener) leave(client string) {
	if l.perClient <= 0 {
		return
	}
	l.mu.Lock()
	decrement(l.clients, client)
	l.mu.Unlock()
}

var fullAnswer = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: 54\r\n\r\n" +
	`{"error":"the server has too many connections; retry"}`)

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := addrKey(c.RemoteAddr().String(), l.v6bits)
		admitted := false
		select {
		case l.sem <- struct{}{}:
			if admitted = l.admit(client); !admitted {
				<-l.sem
			}
		default:
		}
		if admitted {
			return &limitConn{Conn: c, release: func() { l.leave(client); <-l.sem }}, nil
		}
		select {
		case l.turnAway <- struct{}{}:
			go func() {
				defer func() { <-l.turnAway }()
				c.SetDeadline(time.Now().Add(time.Second))
				// Read the request's head, so the answer comes after it.
				buf := make([]byte, 4096)
				var got []byte
				for !strings.Contains(string(got), "\r\n\r\n") && len(got) < len(buf) {
					k, err := c.Read(buf[len(got):])
					got = buf[:len(got)+k]
					if err != nil {
						break
					}
				}
				c.Write(fullAnswer)
				c.Close()
			}()
		default:
			c.Close()
		}
	}
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
