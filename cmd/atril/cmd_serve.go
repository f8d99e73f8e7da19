package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"atril/server"
	"atril/store"
	"atril/web"
)

func init() {
	register("serve", "run the game server and its web page", runServe)
}

// dataDir is where atril keeps its database by default: $XDG_DATA_HOME,
// or the platform's usual place for application data.
func dataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "atril"), nil
	}
	switch runtime.GOOS {
	case "windows", "darwin":
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "atril"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "atril"), nil
}

func runServe(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	db := fs.String("db", "", "SQLite database file (default: atril.db in the user's data directory)")
	pg := fs.String("pg", "", "PostgreSQL connection string; used instead of SQLite when set")
	think := fs.Duration("think", 700*time.Millisecond, "how long computer seats wait before moving")
	budget := fs.Duration("budget", 2*time.Second, "time limit of one move of the searching levels (simulation, godlike's endgame)")
	thinkers := fs.Int("thinkers", 0, "computer seats choosing at once (default: the number of CPUs)")
	keep := fs.Duration("keep-finished", 10*time.Minute, "how long a finished game stays in memory (the database keeps it for good)")
	allowSeed := fs.Bool("allow-seed", false, "let create requests choose the seed (it decides the whole bag: for tests and load tests only)")
	maxGames := fs.Int("max-games", 100000, "unfinished games held at once; past it, new games are refused")
	maxConns := fs.Int("max-conns", server.DefaultMaxConns, "connections open at once; one more is answered 503")
	maxClientConns := fs.Int("max-conns-per-client", server.DefaultMaxConnsPerClient, "connections open at once from one client (IP address, or IPv6 network of --ipv6-prefix bits); one more is answered 503; 0: no limit (none with --real-ip-header, as every connection then comes from the proxy)")
	createRate := fs.Float64("create-per-min", server.DefaultCreatePerMinute, "games one client (IP address, IPv6 /64) may create (and puzzle rushes it may start) a minute, a minute's worth at once; 0: no limit")
	joinRate := fs.Float64("join-per-min", server.DefaultJoinPerMinute, "seats one client may take a minute; 0: no limit")
	badRate := fs.Float64("bad-per-min", server.DefaultBadPerMinute, "refused (4xx) requests one client may send a minute before all its requests are refused for a while; 0: no limit")
	chatRate := fs.Float64("chat-per-min", server.DefaultChatPerMinute, "chat lines one client may write a minute; 0: no limit")
	loginRate := fs.Float64("login-per-min", server.DefaultLoginPerMinute, "accounts one client may make, and sign-ins it may try, a minute; 0: no limit")
	failRate := fs.Float64("account-fails-per-hour", server.DefaultAccountFailsPerHour, "failed sign-ins to one account from one client an hour before that client is locked out of it until the allowance refills (five times as many from all clients lock it for everyone); 0: no limit")
	lookRate := fs.Float64("lookup-per-min", server.DefaultLookupPerMinute, "questions one client may ask the word judge (GET /api/words) a minute; 0: no limit")
	importRate := fs.Float64("imports-per-hour", server.DefaultImportsPerHour, "games one client may import (POST /api/games/import) an hour, besides --create-per-min, since each is kept for good; 0: no limit")
	maxOffers := fs.Int("max-offers", server.DefaultMaxOffers, "games one client, or one account, may have waiting for players in the lobby at once; 0: no limit")
	maxPerClient := fs.Int("max-games-per-client", server.DefaultMaxGamesPerClient, "unfinished games one client may have made at once; 0: no limit")
	maxComputer := fs.Int("max-computer-games", server.DefaultMaxComputerGames, "unfinished games that only computers play one client may have made at once (they take at most half the computer's thinkers); 0: no limit")
	v6prefix := fs.Int("ipv6-prefix", server.DefaultIPv6Prefix, "length of the IPv6 network counted as one client by the limits per client (32 to 128; 56 or 48 where subscribers get such networks)")
	publicURL := fs.String("public-url", "", "the site's address as visitors reach it (https://example.org), which link previews name pictures of positions by; default: the host each request names")
	var pushHosts stringList
	fs.Var(&pushHosts, "push-hosts", "comma-separated hosts of the push services the server sends browsers' push messages through (*.name for any subdomain, name:port for a port other than 443; none: no push messages); default: "+strings.Join(server.DefaultPushHosts, ","))
	pushSubject := fs.String("push-subject", "", "the contact given to the push services with every push message, a mailto: or https: address; default: --public-url when it is an https one")
	realIP := fs.String("real-ip-header", "", "header in which a reverse proxy in front gives the client's address (X-Forwarded-For: the last address counts)")
	var origins stringList
	fs.Var(&origins, "trusted-origin", "comma-separated origins (https://host) besides the server's own whose pages may create games, join and move")
	expireUnstarted := fs.Duration("expire-unstarted", server.DefaultExpireUnstarted, "a game whose seats are not all taken this long after its creation is ended as abandoned (0: never)")
	expireIdle := fs.Duration("expire-idle", server.DefaultExpireIdle, "a started game with no move for this long is ended as abandoned, unless the clock of the seat on turn runs (0: never)")
	readTimeout := fs.Duration("read-timeout", 30*time.Second, "time to read a whole request (headers within 10 s)")
	pprofAddr := fs.String("pprof", "", "serve Go's profiles (net/http/pprof) on this address, e.g. 127.0.0.1:6060 (never a public one)")
	repair := fs.Bool("repair", false, "before serving, copy every intact game of a damaged SQLite file into a new one, keeping the damaged file aside")
	countPlay := fs.Bool("count-play", false, "before serving, replay the finished games whose record lacks the seats' play (turns, bingos, best move: games finished before the server counted it) and record it, and analyse the moves of the recorded games not yet analysed (by static equity, for the players' pages and atril accounts fairplay), once after upgrading")
	lists := namedValues{m: map[string]string{}, form: "NAME=FILE"}
	fs.Var(lists, "word-list", "NAME=FILE: offer the word list in FILE (plain text or gzip, one word a line) as NAME, which begins with its language as the embedded lists' names do (en-nwl2023); the flag may be repeated")
	titles := namedValues{m: map[string]string{}, form: "NAME=TITLE"}
	fs.Var(titles, "word-list-title", "NAME=TITLE: the title the page and the pictures of positions show for a --word-list (\"NWL2023 (North American English)\"; the name without it); the flag may be repeated")
	var warm stringList = []string{"english"}
	fs.Var(&warm, "warm", "comma-separated variants whose word list and generator are loaded at start")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *repair {
		if err := repairStore(*db, *pg); err != nil {
			return err
		}
	}
	st, where, err := openStore(*db, *pg)
	if err != nil {
		return err
	}
	defer st.Close()
	off := func(v float64) float64 { // the flag's 0 is the server's "no limit"
		if v == 0 {
			return -1
		}
		return v
	}
	never := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1
		}
		return d
	}
	srv, err := server.New(server.Config{Store: st, ThinkTime: *think, MoveBudget: *budget, AllowSeed: *allowSeed,
		KeepFinished: *keep, Thinkers: *thinkers, Static: web.FS(), MaxGames: *maxGames,
		CreatePerMinute: off(*createRate), JoinPerMinute: off(*joinRate), BadPerMinute: off(*badRate),
		LookupPerMinute: off(*lookRate), ImportsPerHour: off(*importRate), ChatPerMinute: off(*chatRate), LoginPerMinute: off(*loginRate),
		AccountFailsPerHour: off(*failRate), MaxOffers: int(off(float64(*maxOffers))),
		MaxGamesPerClient: int(off(float64(*maxPerClient))), MaxComputerGames: int(off(float64(*maxComputer))),
		RealIPHeader: *realIP, PublicURL: *publicURL, IPv6Prefix: *v6prefix, TrustedOrigins: origins,
		ExpireUnstarted: never(*expireUnstarted), ExpireIdle: never(*expireIdle), WordLists: lists.m, WordListTitles: titles.m,
		PushHosts: pushHostsOf(pushHosts), PushSubject: *pushSubject})
	if err != nil {
		return err
	}
	defer srv.Close()
	if *countPlay {
		pc, err := srv.CountPlay(context.Background())
		if err != nil {
			return fmt.Errorf("count the play of finished games: %w", err)
		}
		log.Printf("atril: %d finished games replayed: %d results recorded, %d filled in with the seats' play, %d left as they were; %d games' moves analysed",
			pc.Replayed, pc.Recorded, pc.Filled, pc.Left, pc.Analysed)
	}
	srv.Warm(warm...)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	if *maxConns > 0 {
		perClient := *maxClientConns
		if *realIP != "" {
			perClient = 0 // the proxy's address is every connection's
		}
		ln = server.LimitListener(ln, *maxConns, perClient, *v6prefix)
	}
	if *pprofAddr != "" {
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		go func() {
			if err := http.ListenAndServe(*pprofAddr, mux); err != nil {
				log.Printf("atril: pprof on %s: %v", *pprofAddr, err)
			}
		}()
	}
	hs := server.NewHTTPServer(srv, server.HTTPOptions{ReadTimeout: *readTimeout})
	log.Printf("atril: serving on http://%s/ (games in %s; %d unfinished games restored)", ln.Addr(), where, srv.Games())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve on %s: %w", *addr, err)
	case <-ctx.Done():
	}
	log.Printf("atril: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// openStore opens PostgreSQL when dsn is set, otherwise the SQLite file
// (by default in the user's data directory).
func openStore(db, dsn string) (store.Store, string, error) {
	if dsn != "" {
		st, err := store.OpenPostgres(context.Background(), dsn)
		return st, "PostgreSQL", err
	}
	db, err := sqlitePath(db)
	if err != nil {
		return nil, "", err
	}
	st, err := store.OpenSQLite(db)
	return st, db, err
}

// sqlitePath is the SQLite file: db, or atril.db in the data directory.
func sqlitePath(db string) (string, error) {
	if db != "" {
		return db, nil
	}
	dir, err := dataDir()
	if err != nil {
		return "", fmt.Errorf("find the data directory (give --db): %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create data directory: %w", err)
	}
	return filepath.Join(dir, "atril.db"), nil
}

// repairStore salvages a damaged SQLite file (see store.RepairSQLite).
func repairStore(db, dsn string) error {
	if dsn != "" {
		return errors.New("--repair is for the SQLite file; PostgreSQL checks and repairs its own")
	}
	db, err := sqlitePath(db)
	if err != nil {
		return err
	}
	if _, err := os.Stat(db); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("--repair: no database at %s", db)
	}
	rep, err := store.RepairSQLite(db)
	if err != nil {
		return err
	}
	log.Printf("atril: repaired %s: %d games kept whole; %d damaged (left in %s)", db, len(rep.Kept), len(rep.Damaged), rep.Aside)
	for _, id := range rep.Damaged {
		log.Printf("atril: damaged game %s not kept", id)
	}
	return nil
}

// namedValues is a repeated flag of the form NAME=VALUE: --word-list
// (NAME=FILE) and --word-list-title (NAME=TITLE).
type namedValues struct {
	m    map[string]string
	form string // "NAME=FILE"
}

func (w namedValues) String() string {
	var out []string
	for n, f := range w.m {
		out = append(out, n+"="+f)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func (w namedValues) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch {
	case !ok || name == "" || value == "":
		return fmt.Errorf("%q: want %s", s, w.form)
	case w.m[name] != "":
		return fmt.Errorf("word list %q given twice", name)
	}
	w.m[name] = value
	return nil
}

// stringList is a comma-separated flag value.
type stringList []string

// pushHostsOf is the server's PushHosts for the flag's list: nil (the
// default) when not given, none for "none".
func pushHostsOf(l stringList) []string {
	if len(l) == 1 && l[0] == "none" {
		return []string{}
	}
	return l
}

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = nil
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			*l = append(*l, f)
		}
	}
	return nil
}
