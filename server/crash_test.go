package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// The crash test runs the server in a child process (this test binary,
// started again with crashChildEnv set), kills it with SIGKILL in the
// middle of games, starts it again on the same database and checks that
// every game is exactly as it was.
const crashChildEnv = "ATRIL_CRASH_CHILD_DB"

func TestMain(m *testing.M) {
	if db := os.Getenv(crashChildEnv); db != "" {
		crashChild(db)
		return
	}
	if dsn := os.Getenv(sharedChildEnv); dsn != "" {
		sharedChild(dsn)
		return
	}
	os.Exit(m.Run())
}

// crashChild serves the API on a free loopback port, printing the address
// on its first line of output, until it is killed.
func crashChild(db string) {
	st, err := store.OpenSQLite(db)
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	cfg := testConfig(st)
	cfg.ThinkTime = 20 * time.Millisecond
	srv, err := New(cfg)
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	http.Serve(ln, srv)
}

type child struct {
	cmd  *exec.Cmd
	addr string
}

func startChild(t *testing.T, db string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.HasPrefix(line, "ERROR") {
		cmd.Process.Kill()
		t.Fatalf("child server: %q %v", line, err)
	}
	return &child{cmd: cmd, addr: strings.TrimSpace(line)}
}

func (c *child) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Kill(); err != nil { // SIGKILL on Unix
		t.Fatal(err)
	}
	c.cmd.Wait()
}

// envAt is a testEnv talking to a server at addr.
func envAt(t *testing.T, addr string) *testEnv {
	return &testEnv{t: t, url: "http://" + addr}
}

func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	db := filepath.Join(t.TempDir(), "crash.db")
	c := startChild(t, db)
	defer func() { c.cmd.Process.Kill(); c.cmd.Wait() }()
	e := envAt(t, c.addr)
	// A game of two people driven by the test, and one between two
	// computer seats that plays by itself.
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	toks := []string{a.Token, b.Token}
	bots := e.create(SeatRequest{Kind: "computer"}, SeatRequest{Kind: "computer", Level: "professional"})
	playOut(t, e, id, toks, 8)
	// A move in flight when the server dies: after the restart it is
	// either wholly there or wholly absent.
	pre := e.state(id, "")
	st := e.state(id, toks[pre.Turn])
	req, _ := bestRequest(t, st)
	body, _ := json.Marshal(req)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r, _ := http.NewRequest("POST", e.url+"/api/games/"+id+"/move", bytes.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+toks[pre.Turn])
		if resp, err := http.DefaultClient.Do(r); err == nil {
			resp.Body.Close()
		}
	}()
	time.Sleep(2 * time.Millisecond)
	botsBefore := e.state(bots, "")
	c.kill(t)
	<-done

	c = startChild(t, db)
	e = envAt(t, c.addr)
	post := e.state(id, "")
	var ref *State
	switch post.Moves {
	case pre.Moves:
		ref = pre
	case pre.Moves + 1:
		t.Log("the move in flight was kept")
		ref = nil
	default:
		t.Fatalf("after the crash the game has %d moves; before it had %d (+1 in flight)", post.Moves, pre.Moves)
	}
	if ref != nil && mustJSON(ref) != mustJSON(post) {
		t.Errorf("game differs after the crash:\n%s\n%s", mustJSON(ref), mustJSON(post))
	}
	if ref == nil && mustJSON(pre.History) != mustJSON(post.History[:len(pre.History)]) {
		t.Errorf("history before the kept move differs")
	}
	// The computers' game holds at least what was seen before the kill.
	botsAfter := e.state(bots, "")
	if len(botsAfter.History) < len(botsBefore.History) ||
		mustJSON(botsBefore.History) != mustJSON(botsAfter.History[:len(botsBefore.History)]) {
		t.Errorf("computers' game lost moves: %d before, %d after", len(botsBefore.History), len(botsAfter.History))
	}
	// Both games go on to the end after the restart.
	playOut(t, e, id, toks, 300)
	if !e.state(id, "").Over {
		t.Error("the people's game did not finish after the restart")
	}
	deadline := time.Now().Add(60 * time.Second)
	for !e.state(bots, "").Over && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if s := e.state(bots, ""); !s.Over {
		t.Errorf("the computers' game did not finish after the restart (%d moves)", s.Moves)
	} else {
		t.Logf("crash test: people's game replayed at move %d, computers' game at move %d of %d; both finished after the restart",
			pre.Moves, len(botsBefore.History), s.Moves)
	}
}
