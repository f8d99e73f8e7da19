// Package server is the server module of Guberman et al. (section 3; see
// doc/REFERENCES.md) over the network: many games at once in one process,
// each with K seats (2 to 4) taken by people or by computer players; a
// JSON API over HTTP; a numbered log of notifications per game, followed
// over a WebSocket or with plain HTTP calls; every accepted move written to a store.Store before it is announced, and every
// unfinished game rebuilt from its log at start-up.
//
// See api/openapi.yaml for the API.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"atril/game"
	"atril/internal/password"
	"atril/lexicon"
	"atril/movegen"
	"atril/player"
	"atril/store"
	"atril/study"
	"atril/variant"
)

// Config configures a Server. Only Store is required.
type Config struct {
	Store store.Store
	// ThinkTime is how long a computer seat waits before it moves.
	ThinkTime time.Duration
	// Variants lists the variants offered (default: every embedded one).
	Variants []string
	// Lexicons lists the word lists offered (default: every embedded one).
	// A list goes with the variants whose default list has the same
	// language prefix ("en-", "es-", "cs-").
	Lexicons []string
	// WordLists are word lists offered besides Lexicons, each read from
	// a file (plain text or gzip, one word a line), by name: a language
	// prefix as the embedded lists have ("en-nwl2023"); see
	// wordlists.go. A bad name or file makes New fail.
	WordLists map[string]string
	// WordListTitles are titles of WordLists' lists, by name, which the
	// page and the pictures of positions show instead of the name (at
	// most 60 characters on one line). A title for a name not in
	// WordLists makes New fail.
	WordListTitles map[string]string
	// LoadLexicon reads a word list for a variant (default: lexicon.Open).
	// It is called once per (variant, list); the result is shared.
	LoadLexicon func(v *variant.Variant, name string) (*lexicon.Lexicon, error)
	// NewGenerator makes a move generator for computer seats (default:
	// the fastest committed one). Generators are reused but never shared
	// by two goroutines at once.
	NewGenerator func(lex *lexicon.Lexicon) movegen.Generator
	// MoveBudget bounds the time a searching level (simulation, the
	// endgame of godlike) spends on one move (default 2 s).
	MoveBudget time.Duration
	// Thinkers bounds how many computer seats choose at once (default:
	// the number of CPUs).
	Thinkers int
	// Static serves the web page (default: none).
	Static fs.FS
	// Logf logs (default: log.Printf).
	Logf func(format string, args ...any)
	// KeepFinished is how long a finished game stays in memory (default
	// 10 minutes); later requests load it from the store again.
	// MaxFinished bounds the finished games kept so (default
	// DefaultMaxFinished): past it the oldest leave at once.
	KeepFinished time.Duration
	MaxFinished  int
	// AllowSeed lets a create request choose the game's seed. The seed
	// decides the whole bag, so a player who chose it knows every tile
	// to come: allow it only for tests, load tests and replays.
	AllowSeed bool
	// MaxGames bounds the unfinished games held in memory (default
	// 100000); past it, creating a game is refused with 503. Finished
	// games kept for a while (KeepFinished) do not count.
	MaxGames int
	// LogBytes bounds the notifications each game keeps for its readers
	// (default DefaultLogBytes); a reader that falls further behind gets
	// a "lost" notification and reads the state again.
	LogBytes int
	// CreatePerMinute, JoinPerMinute and BadPerMinute bound what one
	// client (an IP address; an IPv6 /64 network) may do: games created
	// (and puzzle rushes started), seats taken, and requests refused with
	// a 4xx status (past that last allowance, every API request of the
	// client is refused until it refills). Each allows a minute's worth at once; a refusal is
	// 429 with Retry-After. 0 takes the default (DefaultCreatePerMinute,
	// DefaultJoinPerMinute, DefaultBadPerMinute); a negative value lifts
	// the limit.
	CreatePerMinute, JoinPerMinute, BadPerMinute float64
	// LookupPerMinute bounds the questions one client asks the word
	// judge a minute (0: DefaultLookupPerMinute; negative: no limit);
	// ChatPerMinute the chat lines it writes (0: DefaultChatPerMinute).
	LookupPerMinute, ChatPerMinute float64
	// ImportsPerHour bounds the games one client imports an hour
	// besides CreatePerMinute, since each is kept for good (0:
	// DefaultImportsPerHour; negative: no limit).
	ImportsPerHour float64
	// RealIPHeader names the header in which a reverse proxy in front of
	// the server gives the client's address ("X-Forwarded-For": the last
	// address counts). Empty: the address of the connection.
	RealIPHeader string
	// PublicURL is the site's address as its visitors reach it
	// ("https://example.org"), which link previews name pictures by.
	// Empty: the host each request names, over https when the request
	// came so or, with RealIPHeader set, when X-Forwarded-Proto says so.
	PublicURL string
	// PushHosts lists the hosts of the push services the server sends
	// Web Push messages through ("*.name" for any subdomain of name;
	// "name:port" for a port other than 443): a browser's subscription
	// at another host or port is refused, so that the server posts to no
	// address a client chooses. nil: DefaultPushHosts; empty: no push
	// messages.
	PushHosts []string
	// PushSubject is the contact the server gives the push services with
	// every message, a mailto: or https: address (default: PublicURL
	// when it is an https one).
	PushSubject string
	// PushClient makes the requests to the push services (nil: one that
	// waits 10 s for an answer and follows no redirect).
	PushClient *http.Client
	// TrustedOrigins lists origins ("https://example.org") other than
	// the server's own from which a browser may send state-changing
	// requests; every other cross-site POST is refused.
	TrustedOrigins []string
	// ExpireUnstarted ends a game whose seats are not all taken this
	// long after its creation (default 1 hour); ExpireIdle ends a
	// started game with no move for this long (default 24 hours), unless
	// the seat on turn has a clock running, which ends it instead. Such a
	// game is recorded as abandoned and can still be read and
	// downloaded. A negative value never ends games.
	ExpireUnstarted, ExpireIdle time.Duration
	// BotGrace is how long past its expected time (think time plus twice
	// the move budget) a computer seat's move may be before another
	// process sharing the store takes it over (default DefaultBotGrace).
	BotGrace time.Duration
	// TournamentSweep is how often the server looks over the tournaments
	// being played, for games a crash left unmade or results left
	// unrecorded (default 1 minute).
	TournamentSweep time.Duration
	// LobbyEvery is how long one reading of the games the lobby lists
	// serves its readers (0: DefaultLobbyEvery; negative: each request
	// reads them).
	LobbyEvery time.Duration
	// TournamentRegistration is how long a tournament may take
	// registrations before the sweep cancels it unstarted (0:
	// DefaultTournamentRegistration; negative: never), so that announced
	// tournaments nobody starts do not pile up.
	TournamentRegistration time.Duration
	// LoginPerMinute bounds the accounts one client makes and the
	// sign-ins it tries a minute (0: DefaultLoginPerMinute; negative: no
	// limit).
	LoginPerMinute float64
	// AccountFailsPerHour bounds the failed sign-ins (and wrong current
	// passwords) to one account from one client an hour: that many at
	// once, then one more every 60/N minutes; past it the client cannot
	// sign in to the account, even with the right password, until its
	// allowance refills. From all clients together the account takes
	// AccountFailsScale times as many before it is locked for everyone
	// (0: DefaultAccountFailsPerHour; negative: no limit).
	AccountFailsPerHour float64
	// PasswordIterations is the cost of a new password's hash (0:
	// password.DefaultIterations; tests use less).
	PasswordIterations int
	// MaxOffers bounds the games one client (address) or one account has
	// offered in the lobby that still wait for players, so that nobody
	// fills the lobby's list alone (0: DefaultMaxOffers; negative: no
	// limit). Held per process.
	MaxOffers int
	// MaxGamesPerClient bounds the unfinished games one client (address)
	// has made through POST /api/games, so that a few addresses cannot
	// fill MaxGames (0: DefaultMaxGamesPerClient; negative: no limit);
	// MaxComputerGames bounds those among them that only computers play
	// (0: DefaultMaxComputerGames; negative: no limit). Held per process.
	MaxGamesPerClient, MaxComputerGames int
	// IPv6Prefix is the length of the IPv6 network that the limits per
	// client count as one client (0: DefaultIPv6Prefix; 32 to 128): a
	// subscriber holds a /64 at least, often a /56 or a /48.
	IPv6Prefix int

	// openPage is how many unfinished tournaments are read from the
	// store at once (0: 500); tests make it small.
	openPage int
}

// canonicalHost is host (with or without a port) as an origin of scheme
// writes it: in lower case, without the scheme's default port.
func canonicalHost(scheme, host string) string {
	host = strings.ToLower(host)
	if h, p, err := net.SplitHostPort(host); err == nil && (p == "443" && strings.EqualFold(scheme, "https") || p == "80" && strings.EqualFold(scheme, "http")) {
		if strings.Contains(h, ":") {
			return "[" + h + "]"
		}
		return h
	}
	return host
}

// DefaultLobbyEvery is how long one reading of the lobby's games serves.
const DefaultLobbyEvery = time.Second

// DefaultMaxFinished is how many finished games stay in memory at most.
const DefaultMaxFinished = 4096

// Default bounds of the games one client makes.
const (
	DefaultMaxGamesPerClient = 200
	DefaultMaxComputerGames  = 2
)

// Default expiry of games.
const (
	DefaultExpireUnstarted = time.Hour
	DefaultExpireIdle      = 24 * time.Hour
)

// Server holds the live games.
type Server struct {
	cfg    Config
	store  store.Store
	mux    *http.ServeMux
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	sem    chan struct{}
	// botsOnly is held, besides a token of sem, while a game that only
	// computers play chooses a move: such games take at most half the
	// thinkers (at least one), so that games with people always find one.
	botsOnly chan struct{}

	// push sends push messages (nil: none).
	push *pusher

	count                      counters
	presence                   presence
	createLim, joinLim, badLim *limiter
	lookLim, chatLim, loginLim *limiter
	// analyzeLim counts the clients' simulations and endgames (POST
	// /api/analyze), analysisLim their static analyses.
	analyzeLim, analysisLim *limiter
	importLim               *limiter
	// imageLim counts the clients' pictures of positions, images keeps
	// the pictures drawn last (card.go).
	imageLim *limiter
	images   images
	gifs     images
	// latency holds the API's answer times by route (latency.go).
	latency latencies
	// startedAt is when New made the server.
	startedAt time.Time
	// archiving marks the accounts whose games' archive is being made
	// (archive.go), guarded by mu; archiveLim counts each account's
	// archives.
	archiving  map[string]bool
	archiveLim *limiter
	// lobbyWatch is the state of the lobby's WebSockets (lobbyws.go),
	// clientSockets the watchers' and the lobby's sockets by client.
	lobbyWatch    lobbyWatch
	clientSockets socketCounts
	// lobbyLines are the lobby chat's latest lines, as read last;
	// lobbyCache the games the lobby lists.
	lobbyLines reading[[]store.LobbyLine]
	lobbyCache reading[lobbyLists]
	// failLim counts failed sign-ins by account key and client, failAll
	// by account key.
	failLim, failAll *limiter
	// puzzles are the puzzles made (puzzle.go).
	puzzles puzzles
	// watchCounts are the games' watchers as last read (watchers.go).
	watchCounts watchCounts
	// dummyHash is checked against the password of a sign-in with an
	// unknown name, so that it takes as long as a wrong password (made
	// on the first sign-in).
	dummyHash string
	// hashes holds a token for each password being hashed.
	hashes chan struct{}
	// hashClients holds, by client, its turn to hash a password; guarded
	// by hashMu.
	hashMu      sync.Mutex
	hashClients map[string]*hashTurn
	cop         *http.CrossOriginProtection

	variants sync.Map // name → *variant.Variant
	// static are the page's files, ready to serve (nil: no page).
	static staticFiles

	// shared is the store when several processes share it (nil: this
	// process is the only one); refreshers bounds the games catching up
	// at once; staleAfter is where the scan for stale games goes on.
	shared     store.Shared
	refreshers chan struct{}
	staleAfter string

	mu    sync.Mutex
	games map[string]*live
	lexes map[string]*lexRes
	// nlive counts the unfinished games in games (those with counted set),
	// ncorr those of correspondence play among them.
	nlive, ncorr int
	// finished lists the finished games kept in memory, oldest first,
	// each with when it leaves (forget); dropTimer fires when the first
	// one is due (nil: none kept).
	finished  []keptGame
	dropTimer *time.Timer
	// byClient counts the unfinished games in games by the client that
	// made them (live.creator), and botsByClient those only computers
	// play.
	byClient, botsByClient map[string]int
	// invites lists, by invited account key, the games that kept it a
	// seat when they came into memory (checked against each game when
	// listed, and dropped once no longer pending: invite.go).
	invites map[string][]inviteRef
	// shown holds the unfinished games in memory that the lobby may list:
	// those offered to anyone and the rated ones (track, show, untrack),
	// so that a look at the lobby reads those games only, however many
	// others the process holds.
	shown map[*live]struct{}
	// offerMu is held while an offer is counted and made, so that offers
	// sent at once cannot pass the count together (taken before any
	// game's mu).
	offerMu sync.Mutex
	// quickMu is held while a quick pairing looks for a game and seats its
	// player (taken before offerMu and any game's mu).
	quickMu sync.Mutex
	// inviteMu is held while a new game's invitations are counted and the
	// game made (createSigned), so that creations sent at once cannot pass
	// the bounds of the invitations together (taken before mu and any
	// game's mu).
	inviteMu sync.Mutex
}

// lexRes is a loaded word list and a pool of generators over it.
type lexRes struct {
	once   sync.Once
	lex    *lexicon.Lexicon
	err    error
	gens   chan movegen.Generator
	newGen func(*lexicon.Lexicon) movegen.Generator
	base   movegen.Generator // made once; the others are its Forks
	baseMu sync.Mutex
	// The alphagrams in probability order, built at the first question
	// to word study.
	studyOnce sync.Once
	study     *study.Index
	studyErr  error
}

// getGen returns a generator for one goroutine: an idle one, or a new
// Fork of the lexicon's first generator (which shares its tables).
func (r *lexRes) getGen() movegen.Generator {
	select {
	case g := <-r.gens:
		return g
	default:
		r.baseMu.Lock()
		defer r.baseMu.Unlock()
		if r.base == nil {
			r.base = r.newGen(r.lex)
			return r.base
		}
		return r.base.Fork()
	}
}

func (r *lexRes) putGen(g movegen.Generator) {
	select {
	case r.gens <- g:
	default:
	}
}

// New returns a server and rebuilds every unfinished game of the store by
// replaying its log. Games that fail to replay are logged and left out.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Variants == nil {
		cfg.Variants = variant.Names()
	}
	if cfg.Lexicons == nil {
		cfg.Lexicons = lexicon.Embedded()
	}
	if cfg.LoadLexicon == nil {
		cfg.LoadLexicon = func(v *variant.Variant, name string) (*lexicon.Lexicon, error) {
			return lexicon.Open(name, v.Alphabet, lexicon.Options{MaxLen: v.Size})
		}
	}
	if err := addWordLists(&cfg); err != nil {
		return nil, err
	}
	if cfg.NewGenerator == nil {
		cfg.NewGenerator = DefaultGenerator
	}
	if cfg.MaxFinished <= 0 {
		cfg.MaxFinished = DefaultMaxFinished
	}
	if cfg.KeepFinished <= 0 {
		cfg.KeepFinished = 10 * time.Minute
	}
	if cfg.MoveBudget <= 0 {
		cfg.MoveBudget = 2 * time.Second
	}
	if cfg.Thinkers <= 0 {
		cfg.Thinkers = runtime.GOMAXPROCS(0)
	}
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	switch {
	case cfg.MaxOffers == 0:
		cfg.MaxOffers = DefaultMaxOffers
	case cfg.MaxOffers < 0:
		cfg.MaxOffers = 0
	}
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = 100000
	}
	if cfg.ExpireUnstarted == 0 {
		cfg.ExpireUnstarted = DefaultExpireUnstarted
	}
	if cfg.ExpireIdle == 0 {
		cfg.ExpireIdle = DefaultExpireIdle
	}
	if cfg.MaxGamesPerClient == 0 {
		cfg.MaxGamesPerClient = DefaultMaxGamesPerClient
	}
	if cfg.MaxComputerGames == 0 {
		cfg.MaxComputerGames = DefaultMaxComputerGames
	}
	if cfg.BotGrace <= 0 {
		cfg.BotGrace = DefaultBotGrace
	}
	if cfg.LobbyEvery == 0 {
		cfg.LobbyEvery = DefaultLobbyEvery
	}
	if cfg.TournamentRegistration == 0 {
		cfg.TournamentRegistration = DefaultTournamentRegistration
	}
	if cfg.IPv6Prefix == 0 {
		cfg.IPv6Prefix = DefaultIPv6Prefix
	}
	if cfg.PublicURL != "" {
		u, err := url.Parse(cfg.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("server: public address %q: want http(s)://host[/path]", cfg.PublicURL)
		}
		// As browsers write an origin (passkeys compare it whole): the
		// host in lower case, the scheme's default port left out.
		u.Scheme, u.Host = strings.ToLower(u.Scheme), canonicalHost(u.Scheme, u.Host)
		cfg.PublicURL = u.String()
	}
	if cfg.IPv6Prefix < 32 || cfg.IPv6Prefix > 128 {
		return nil, fmt.Errorf("server: an IPv6 client network of /%d: want /32 to /128", cfg.IPv6Prefix)
	}
	if cfg.openPage <= 0 {
		cfg.openPage = 500
	}
	if cfg.TournamentSweep <= 0 {
		cfg.TournamentSweep = time.Minute
	}
	s := &Server{cfg: cfg, store: cfg.Store, startedAt: time.Now(), games: map[string]*live{}, lexes: map[string]*lexRes{}, invites: map[string][]inviteRef{}, shown: map[*live]struct{}{},
		sem:        make(chan struct{}, cfg.Thinkers),
		analyzeLim: newLimiter(analyzePerMinute, analyzePerMinute), analysisLim: newLimiter(analysesPerMinute, analysesPerMinute),
		imageLim: newLimiter(imagesPerMinute, imagesPerMinute), images: images{size: imageCacheSize}, gifs: images{size: gifCacheSize},
		importLim:  newHourLimiter(cfg.ImportsPerHour, DefaultImportsPerHour, 1),
		archiveLim: newHourLimiter(archivesPerHour, archivesPerHour, 1),
		botsOnly:   make(chan struct{}, max(1, cfg.Thinkers/2)),
		byClient:   map[string]int{}, botsByClient: map[string]int{},
		createLim:   newLimiter(cfg.CreatePerMinute, DefaultCreatePerMinute),
		joinLim:     newLimiter(cfg.JoinPerMinute, DefaultJoinPerMinute),
		badLim:      newLimiter(cfg.BadPerMinute, DefaultBadPerMinute),
		lookLim:     newLimiter(cfg.LookupPerMinute, DefaultLookupPerMinute),
		chatLim:     newLimiter(cfg.ChatPerMinute, DefaultChatPerMinute),
		loginLim:    newLimiter(cfg.LoginPerMinute, DefaultLoginPerMinute),
		failLim:     newHourLimiter(cfg.AccountFailsPerHour, DefaultAccountFailsPerHour, 1),
		failAll:     newHourLimiter(cfg.AccountFailsPerHour, DefaultAccountFailsPerHour, AccountFailsScale),
		hashes:      make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)),
		hashClients: map[string]*hashTurn{},
		cop:         http.NewCrossOriginProtection()}
	for _, o := range cfg.TrustedOrigins {
		if err := s.cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("server: trusted origin: %w", err)
		}
	}
	if sh, ok := cfg.Store.(store.Shared); ok {
		s.shared, s.refreshers = sh, make(chan struct{}, 16)
	}
	push, err := newPusher(s, cfg.PushHosts, cfg.PushSubject, cfg.PushClient)
	if err != nil {
		return nil, err
	}
	s.push = push
	if cfg.Static != nil {
		files, err := newStaticFiles(cfg.Static)
		if err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
		s.static = files
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.routes()
	if err := migrateLog(s.ctx, s.store, s.logf); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	if err := rerateByPace(s.ctx, s.store, s.logf); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	ids, err := s.store.Unfinished(s.ctx)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	for _, id := range ids {
		l, err := s.rebuild(s.ctx, id)
		if err != nil {
			s.logf("server: game %s not rebuilt: %v", id, err)
			continue
		}
		s.games[id] = l
	}
	now := time.Now()
	// A copy: a game ending here may finish a tournament's round, whose
	// new games are made meanwhile.
	rebuilt := make([]*live, 0, len(s.games))
	for _, l := range s.games {
		rebuilt = append(rebuilt, l)
	}
	for _, l := range rebuilt {
		l.mu.Lock()
		s.expire(l, now)
		if !l.over() {
			s.track(l)
		}
		l.afterChange()
		l.mu.Unlock()
	}
	// A sign-in with an unknown name checks this hash, at the cost of a
	// new account's (see handleSignIn).
	dh, err := password.Hash("no account has this password", cfg.PasswordIterations)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.dummyHash = dh
	if s.push != nil {
		s.push.start()
	}
	s.wg.Add(1)
	go s.sweeper()
	if s.shared != nil {
		s.wg.Add(1)
		go s.listen()
	}
	return s, nil
}

// track counts l among the unfinished games in memory. Caller holds
// l.mu, not s.mu.
func (s *Server) track(l *live) {
	s.mu.Lock()
	if !l.counted {
		l.counted = true
		s.nlive++
		if l.correspondence() {
			s.ncorr++
		}
		if l.creator != "" {
			s.byClient[l.creator]++
			if l.computersOnly() {
				s.botsByClient[l.creator]++
			}
		}
		if l.listed || l.hdr.Rated {
			s.shown[l] = struct{}{}
		}
	}
	s.mu.Unlock()
}

// show puts l among the games the lobby may list once it is offered.
// Caller holds l.mu, not s.mu.
func (s *Server) show(l *live) {
	s.mu.Lock()
	if l.counted {
		s.shown[l] = struct{}{}
	}
	s.mu.Unlock()
}

// untrack stops counting l. Caller holds l.mu, not s.mu.
func (s *Server) untrack(l *live) {
	s.mu.Lock()
	s.uncount(l)
	s.mu.Unlock()
}

// uncount stops counting l. Caller holds s.mu.
func (s *Server) uncount(l *live) {
	if l.counted {
		l.counted = false
		s.nlive--
		if l.correspondence() {
			s.ncorr--
		}
		if l.creator != "" {
			decrement(s.byClient, l.creator)
			if l.computersOnly() {
				decrement(s.botsByClient, l.creator)
			}
		}
		delete(s.shown, l)
	}
}

// decrement counts one less for key, forgetting it at zero.
func decrement(m map[string]int, key string) {
	if m[key] <= 1 {
		delete(m, key)
	} else {
		m[key]--
	}
}

// DefaultGenerator is the move generator computer seats use by default.
func DefaultGenerator(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewGaddag(lex) }

// Close stops the computer seats and waits for them. It does not close
// the store.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

func (s *Server) closing() bool { return s.ctx.Err() != nil }

func (s *Server) logf(format string, args ...any) { s.cfg.Logf(format, args...) }

// Games is the number of games in memory.
func (s *Server) Games() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

// LiveGames is the number of unfinished games in memory (what MaxGames
// bounds).
func (s *Server) LiveGames() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nlive
}

// lexiconFor loads (once) the word list name for variant v.
func (s *Server) lexiconFor(v *variant.Variant, name string) (*lexRes, error) {
	key := v.Name + "\x00" + name
	s.mu.Lock()
	r, ok := s.lexes[key]
	if !ok {
		r = &lexRes{gens: make(chan movegen.Generator, s.cfg.Thinkers), newGen: s.cfg.NewGenerator}
		s.lexes[key] = r
	}
	s.mu.Unlock()
	r.once.Do(func() {
		r.lex, r.err = s.cfg.LoadLexicon(v, name)
		if r.err != nil {
			r.err = fmt.Errorf("word list %s for %s: %w", name, v.Name, r.err)
		}
	})
	return r, r.err
}

// loadVariant loads a variant once and shares it (a variant is never
// changed once loaded).
func (s *Server) loadVariant(name string) (*variant.Variant, error) {
	if v, ok := s.variants.Load(name); ok {
		return v.(*variant.Variant), nil
	}
	v, err := variant.Load(name)
	if err != nil {
		return nil, err
	}
	got, _ := s.variants.LoadOrStore(name, v)
	return got.(*variant.Variant), nil
}

// lexiconAllowed reports whether word list name is offered for variant v.
func (s *Server) lexiconAllowed(v *variant.Variant, name string) bool {
	lang := func(n string) string { return strings.SplitN(n, "-", 2)[0] }
	for _, l := range s.cfg.Lexicons {
		if l == name {
			return lang(name) == lang(v.DefaultLexicon)
		}
	}
	return false
}

func (s *Server) variantAllowed(name string) bool {
	for _, n := range s.cfg.Variants {
		if n == name {
			return true
		}
	}
	return false
}

// newLive builds a game in memory from its header, with no event applied.
func (s *Server) newLive(hdr *store.Game) (*live, error) {
	v, err := s.loadVariant(hdr.Variant)
	if err != nil {
		return nil, err
	}
	lr, err := s.lexiconFor(v, hdr.Lexicon)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(hdr.Seats))
	for i, st := range hdr.Seats {
		names[i] = st.Name
	}
	g, err := game.New(v, lr.lex, names, hdr.Seed)
	if err != nil {
		return nil, err
	}
	rule, err := game.ParseChallengeRule(hdr.Challenge)
	if err == nil {
		err = g.SetChallengeRule(rule)
	}
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", hdr.ID, err)
	}
	l := &live{srv: s, hdr: *hdr, v: v, lex: lr.lex, lr: lr, g: g, changed: make(chan struct{}),
		log: newNotifLog(len(hdr.Seats), s.cfg.LogBytes), active: hdr.Created,
		used: make([]time.Duration, len(hdr.Seats)), turnStart: hdr.Created}
	for _, st := range hdr.Seats {
		l.seat = append(l.seat, &seat{name: st.Name, level: st.Level, taken: st.Level != ""})
	}
	if hdr.Tournament != "" {
		var ref TournamentRef
		if err := json.Unmarshal([]byte(hdr.Tournament), &ref); err != nil || !validID(ref.ID) || ref.Round < 1 || len(hdr.Seats) != 2 {
			return nil, fmt.Errorf("game %s: not a tournament's game: %q", hdr.ID, hdr.Tournament)
		}
		l.tournament = &ref
	}
	s.noteInvitations(hdr)
	return l, nil
}

// rebuild replays a stored game.
func (s *Server) rebuild(ctx context.Context, id string) (*live, error) {
	hdr, evs, err := s.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := s.newLive(hdr)
	if err != nil {
		return nil, err
	}
	if l.started() {
		l.announceStart()
	}
	for _, e := range evs {
		l.atEvent(e.Seq)
		if err := l.replay(e); err != nil {
			return nil, fmt.Errorf("event %d (%s): %w", e.Seq, e.Kind, err)
		}
		l.seq++
		if activity(e.Kind) {
			l.active = e.Time
		}
	}
	if hdr.Finished && hdr.Rated {
		if err := l.loadRatingChanges(); err != nil && !errors.Is(err, store.ErrNotFound) {
			s.logf("game %s: read its rating changes: %v", id, err)
		}
	}
	return l, nil
}

// replay applies one logged event.
func (l *live) replay(e store.Event) error {
	l.evTime = e.Time
	switch e.Kind {
	case "join":
		var ev joinEvent
		if err := json.Unmarshal([]byte(e.Data), &ev); err != nil {
			return err
		}
		h, err := hex.DecodeString(ev.Token)
		if err != nil || len(h) != 32 || ev.Seat < 0 || ev.Seat >= len(l.seat) || l.seat[ev.Seat].taken {
			return fmt.Errorf("bad join of seat %d", ev.Seat)
		}
		var hh [32]byte
		copy(hh[:], h)
		l.applyJoin(ev, hh)
	case "import":
		var ev importEvent
		if err := json.Unmarshal([]byte(e.Data), &ev); err != nil {
			return err
		}
		if e.Seq != 0 {
			return fmt.Errorf("an import after other events")
		}
		return l.applyImport(ev)
	case "abandon":
		var ev abandonEvent
		if err := json.Unmarshal([]byte(e.Data), &ev); err != nil {
			return err
		}
		l.applyAbandon(ev)
	case "move":
		var ev moveEvent
		if err := json.Unmarshal([]byte(e.Data), &ev); err != nil {
			return err
		}
		if ev.Seat != l.g.Current() {
			return fmt.Errorf("move by seat %d, but seat %d is on turn", ev.Seat, l.g.Current())
		}
		m, err := ev.decode(l.v.Alphabet)
		if err != nil {
			return err
		}
		if err := l.apply(ev.Seat, m); err != nil {
			return err
		}
		if got := l.g.History[l.lastPlayed()]; got.Points != ev.Score {
			return fmt.Errorf("move %s scores %d on replay, %d when played", ev.Notation, got.Points, ev.Score)
		}
	default:
		return l.replayExtra(e)
	}
	return nil
}

// game finds a game in memory, or loads a stored (finished) one.
func (s *Server) game(ctx context.Context, id string) (*live, error) {
	s.mu.Lock()
	l, ok := s.games[id]
	s.mu.Unlock()
	if ok {
		if s.shared != nil {
			l.mu.Lock()
			err := l.refresh(ctx)
			l.mu.Unlock()
			if err != nil {
				return nil, err
			}
		}
		return l, nil
	}
	if !validID(id) {
		return nil, &apiError{404, "no such game"}
	}
	l, err := s.rebuild(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &apiError{404, "no such game"}
	}
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	s.mu.Lock()
	if old, ok := s.games[id]; ok {
		s.mu.Unlock()
		return old, nil
	}
	s.games[id] = l
	s.mu.Unlock()
	l.mu.Lock()
	if l.over() {
		s.forget(id)
	} else {
		s.expire(l, time.Now())
		if !l.over() {
			s.track(l)
		}
		l.afterChange()
	}
	l.mu.Unlock()
	return l, nil
}

func validID(id string) bool {
	if len(id) != 16 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("server: crypto/rand: %v", err))
	}
	return hex.EncodeToString(b)
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("server: crypto/rand: %v", err))
	}
	var x uint64
	for _, c := range b {
		x = x<<8 | uint64(c)
	}
	return x
}

// create makes a new game from a checked request.
func (s *Server) create(ctx context.Context, req *createRequest) (*live, error) {
	return s.createAs(ctx, req, randomHex(8))
}

// createAs makes a new game with the given id (a store.ErrConflict if
// the id is taken).
func (s *Server) createAs(ctx context.Context, req *createRequest, id string) (*live, error) {
	v, err := s.loadVariant(req.Variant)
	if err != nil {
		return nil, &apiError{400, err.Error()}
	}
	if _, err := s.lexiconFor(v, req.Lexicon); err != nil {
		return nil, err
	}
	s.mu.Lock()
	n, nc := s.nlive, s.ncorr
	mine, bots := s.byClient[req.creator], s.botsByClient[req.creator]
	s.mu.Unlock()
	if n >= s.cfg.MaxGames {
		return nil, &apiError{503, "the server holds as many games as it may; try later"}
	}
	if req.creator != "" {
		if limit := s.cfg.MaxGamesPerClient; limit > 0 && mine >= limit {
			return nil, &apiError{429, fmt.Sprintf("you have made %d games that are not over yet, as many as one may; finish or call off some first", mine)}
		}
		if limit := s.cfg.MaxComputerGames; limit > 0 && bots >= limit && req.computersOnly() {
			return nil, &apiError{429, fmt.Sprintf("%d games that only computers play, made by you, are not over yet, as many as one may; wait for them to end", bots)}
		}
	}
	if req.Clock != nil && req.Clock.PerMove > 0 && nc >= s.cfg.MaxGames/2 {
		// Games that may last weeks take at most half the room, so that
		// they cannot crowd the others out.
		return nil, &apiError{503, "the server holds as many games of correspondence play as it may; try later"}
	}
	hdr := &store.Game{ID: id, Variant: req.Variant, Lexicon: req.Lexicon, Challenge: req.Challenge, Rated: req.Rated, Created: time.Now().UTC()}
	if req.tournament != nil {
		b, err := json.Marshal(req.tournament)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", id, err)
		}
		hdr.Tournament = string(b)
	}
	if req.Seed != nil {
		hdr.Seed = *req.Seed
	} else {
		hdr.Seed = randomSeed()
	}
	for i, st := range req.Seats {
		name := st.Name
		if name == "" {
			if st.Kind == "computer" {
				name = "Computer (" + st.Level + ")"
			} else {
				name = personName(i)
			}
		}
		seat := store.Seat{Name: name, Level: st.Level, Invited: st.inviteKey, InvitedBy: st.invitedBy, RatingMin: st.RatingMin, RatingMax: st.RatingMax}
		if st.inviteKey != "" {
			seat.Name = st.Invite
		}
		if req.Clock != nil && st.Kind == "human" {
			seat.Seconds, seat.Overtime, seat.Increment, seat.PerMove = req.Clock.Seconds, req.Clock.Overtime, req.Clock.Increment, req.Clock.PerMove
		}
		hdr.Seats = append(hdr.Seats, seat)
	}
	l, err := s.newLive(hdr)
	if err != nil {
		return nil, err
	}
	if err := s.store.CreateGame(ctx, hdr); err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.started() {
		l.announceStart()
		if s.shared != nil && l.seat[l.g.Current()].level != "" {
			// Computers only: no event starts the game, so the move
			// this process is to make is recorded here.
			l.botMine = true
			if err := s.shared.SetDue(ctx, hdr.ID, s.botDeadline(time.Now())); err != nil {
				s.logf("server: %v", err)
			}
		}
	}
	s.mu.Lock()
	if old, ok := s.games[hdr.ID]; ok {
		// Loaded from the store meanwhile (a rematch asked for by two
		// seats at once): that copy serves, this one is dropped.
		s.mu.Unlock()
		l.mu.Unlock()
		return old, nil
	}
	s.games[hdr.ID] = l
	s.mu.Unlock()
	l.creator = req.creator
	s.track(l)
	l.afterChange()
	l.mu.Unlock()
	return l, nil
}

// personName is the name of person's seat i made without one.
func personName(i int) string { return fmt.Sprintf("Player %d", i+1) }

// Info is the answer of GET /api/info.
type Info struct {
	Variants []VariantInfo `json:"variants"`
	Levels   []string      `json:"levels"`
	// Paces are the paces of rated play, fastest first, and PaceMoves
	// the increments a person's time for a game counts: a clock with
	// seconds s and increment i is of the first pace whose UnderSeconds
	// exceeds s + PaceMoves·i (regular past them all), a time for each
	// move correspondence.
	Paces     []PaceInfo `json:"paces"`
	PaceMoves int        `json:"pace_moves"`
	// LevelRatings are the ratings the computer levels play rated games
	// at, by level.
	LevelRatings map[string]int `json:"level_ratings"`
	// Countries are the country codes a player's bio may name.
	Countries []string `json:"countries"`
	// LexiconTitles are the titles the operator gave word lists of its
	// own, by name (--word-list-title); the page names the embedded
	// lists itself.
	LexiconTitles map[string]string `json:"lexicon_titles,omitempty"`
	// Push is set when the server sends push messages (GET
	// /api/push/key).
	Push bool `json:"push,omitempty"`
}

// PaceInfo is a pace of rated play and the time for a game it stays
// under (none for regular and correspondence).
type PaceInfo struct {
	Name         string `json:"name"`
	UnderSeconds int    `json:"under_seconds,omitempty"`
}

// VariantInfo describes an offered variant.
type VariantInfo struct {
	Name     string   `json:"name"`
	Note     string   `json:"note,omitempty"`
	Lexicons []string `json:"lexicons"`
	Default  string   `json:"default_lexicon"`
}

func (s *Server) info() *Info {
	in := &Info{Levels: player.Levels(), Paces: paceInfo(), PaceMoves: paceMoves, Countries: countryCodes, LevelRatings: map[string]int{},
		LexiconTitles: s.cfg.WordListTitles, Push: s.push != nil}
	for l, r := range levelRatings {
		in.LevelRatings[l] = roundInt(r)
	}
	for _, n := range s.cfg.Variants {
		v, err := s.loadVariant(n)
		if err != nil {
			continue
		}
		vi := VariantInfo{Name: n, Note: v.Note, Default: v.DefaultLexicon}
		for _, l := range s.cfg.Lexicons {
			if s.lexiconAllowed(v, l) {
				vi.Lexicons = append(vi.Lexicons, l)
			}
		}
		sort.Strings(vi.Lexicons)
		in.Variants = append(in.Variants, vi)
	}
	return in
}

// Warm loads the default word list of each named variant and makes a
// move generator for it in the background, so the first game does not
// wait for them.
func (s *Server) Warm(variants ...string) {
	for _, name := range variants {
		v, err := variant.Load(name)
		if err != nil {
			s.logf("server: warm %s: %v", name, err)
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			t := time.Now()
			r, err := s.lexiconFor(v, v.DefaultLexicon)
			if err != nil {
				s.logf("server: warm %s: %v", name, err)
				return
			}
			r.putGen(r.getGen())
			s.logf("server: %s word list %s and move generator ready in %v", name, v.DefaultLexicon, time.Since(t).Round(time.Millisecond))
		}()
	}
}

// keptGame is a finished game in memory and when it leaves.
type keptGame struct {
	id    string
	until time.Time
}

// forget drops a finished game from memory after cfg.KeepFinished, or at
// once when cfg.MaxFinished later ones are kept; the store still has it.
// One timer serves them all: they leave in the order they came.
func (s *Server) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.finished = append(s.finished, keptGame{id, now.Add(s.cfg.KeepFinished)})
	s.dropKept(now)
	if s.dropTimer == nil {
		s.dropTimer = time.AfterFunc(s.cfg.KeepFinished, s.dropDue)
	}
}

// dropDue drops the finished games due to leave memory, and sets the
// timer for the next one.
func (s *Server) dropDue() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.dropKept(now)
	if len(s.finished) == 0 {
		s.finished, s.dropTimer = nil, nil
		return
	}
	s.dropTimer.Reset(s.finished[0].until.Sub(now))
}

// dropKept drops from memory the finished games kept past their time at
// now, and the oldest past cfg.MaxFinished of them. Caller holds s.mu.
func (s *Server) dropKept(now time.Time) {
	for len(s.finished) > 0 && (len(s.finished) > s.cfg.MaxFinished || !s.finished[0].until.After(now)) {
		if l := s.games[s.finished[0].id]; l != nil && !l.counted {
			delete(s.games, s.finished[0].id)
		}
		s.finished = s.finished[1:]
	}
}
