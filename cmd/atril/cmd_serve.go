package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
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
	st, where, err := openStore(*db, *pg)
	if err != nil {
		return err
	}
	defer st.Close()
	srv, err := server.New(server.Config{Store: st, ThinkTime: *think, MoveBudget: *budget, AllowSeed: *allowSeed, KeepFinished: *keep, Thinkers: *thinkers, Static: web.FS()})
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.Warm(warm...)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
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
	if db == "" {
		dir, err := dataDir()
		if err != nil {
			return nil, "", fmt.Errorf("find the data directory (give --db): %w", err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, "", fmt.Errorf("create data directory: %w", err)
		}
		db = filepath.Join(dir, "atril.db")
	}
	st, err := store.OpenSQLite(db)
	return st, db, err
}

// stringList is a comma-separated flag value.
type stringList []string

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
