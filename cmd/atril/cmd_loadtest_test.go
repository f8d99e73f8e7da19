package main

import (
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"atril/server"
	"atril/store"
)

// TestLoadtestSpectators runs atril loadtest with spectators against a
// server in this process: every game finishes with no error, each
// spectator is told of the changes and reads the state on each.
func TestLoadtestSpectators(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the English word list")
	}
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(server.Config{Store: st, AllowSeed: true, RealIPHeader: "X-Forwarded-For", ThinkTime: time.Millisecond,
		Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	err = runLoadtest([]string{"--addr", strings.TrimPrefix(hs.URL, "http://"), "--games", "2", "--seed", "1", "--replay", "1", "--watchers", "3"})
	os.Stdout = stdout
	w.Close()
	out, _ := io.ReadAll(r)
	if err != nil {
		t.Fatalf("loadtest: %v\n%s", err, out)
	}
	for _, want := range []string{"games finished: 2/2  errors: 0", "spectators: 3 a game (6 sockets)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`changes told (\d+) .* states read (\d+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("no spectators' counts in\n%s", out)
	}
	told, _ := strconv.Atoi(m[1])
	read, _ := strconv.Atoi(m[2])
	if told < 6 || read != told {
		t.Errorf("told %d changes, read %d states; want each of the 6 spectators told at least the end, and a read each time", told, read)
	}
}
