package server

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"atril/store"
)

// The multi-process test runs three servers (this test binary, started
// again with sharedChildEnv set) on one PostgreSQL database, plays games
// through all three, kills one with SIGKILL in the middle of the games,
// and checks that every game finishes on the other two with every
// acknowledged move kept.
const sharedChildEnv = "ATRIL_SHARED_CHILD_DSN"

// sharedChild serves the API on a free loopback port with the store at
// dsn, printing the address on its first line, until it is killed.
func sharedChild(dsn string) {
	st, err := store.OpenPostgres(context.Background(), dsn)
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	cfg := testConfig(st)
	cfg.ThinkTime = 20 * time.Millisecond
	cfg.BotGrace = 300 * time.Millisecond
	if os.Getenv("ATRIL_SHARED_CHILD_LOG") != "" {
		cfg.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "child: "+format+"\n", args...) }
	}
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

func startSharedChild(t *testing.T, dsn string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), sharedChildEnv+"="+dsn)
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
	c := &child{cmd: cmd, addr: strings.TrimSpace(line)}
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	return c
}

// sharedDatabase skips the test without PostgreSQL (ATRIL_PG_DSN) or in
// -short mode, and otherwise returns a fresh database's connection string.
func sharedDatabase(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("ATRIL_PG_DSN")
	if dsn == "" {
		t.Skip("multi-process test NOT run: set ATRIL_PG_DSN to a PostgreSQL database's connection string (source .ci/install-postgres.sh)")
	}
	if testing.Short() {
		t.Skip("multi-process test skipped in -short mode")
	}
	return freshDatabase(t, dsn)
}

// freshDatabase makes a new database next to the one dsn names, dropped
// at the end of the test, and returns its connection string.
func freshDatabase(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("atril_mp_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		conn.Close(ctx)
		t.Skipf("multi-process test NOT run: cannot create a database (%v)", err)
	}
	t.Cleanup(func() {
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop database %s: %v", name, err)
		}
		conn.Close(ctx)
	})
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + name
		return u.String()
	}
	return dsn + " dbname=" + name
}

// acked is a move a server acknowledged: who made it, what kind, for
// how many points.
type acked struct {
	seat   int
	kind   string
	points int
}

func historyMoves(st *State) []acked {
	var out []acked
	for _, h := range st.History {
		if h.Kind == "place" || h.Kind == "exchange" || h.Kind == "pass" {
			out = append(out, acked{h.Seat, h.Kind, h.Points})
		}
	}
	return out
}

// keeps reports whether the moves of got begin with want.
func keeps(got, want []acked) bool {
	if len(got) < len(want) {
		return false
	}
	for i := range want {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func TestThreeProcessesOnePostgres(t *testing.T) {
	db := sharedDatabase(t)
	var procs [3]*child
	var envs [3]*testEnv
	for i := range procs {
		procs[i] = startSharedChild(t, db)
		envs[i] = envAt(t, procs[i].addr)
	}
	// via returns the server of request number k of game g, spread over
	// the live ones.
	alive := []int{0, 1, 2}
	via := func(g, k int) *testEnv { return envs[alive[(g+k)%len(alive)]] }

	type game struct {
		id    string
		toks  []string // the people's seats' tokens, by seat ("" for a computer)
		acked []acked
	}
	var people, mixed, bots []*game
	for g := range 4 {
		e := via(g, 0)
		gm := &game{id: e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})}
		gm.toks = []string{via(g, 1).join(gm.id).Token, via(g, 2).join(gm.id).Token}
		people = append(people, gm)
	}
	for g := range 2 {
		e := via(g, 0)
		gm := &game{id: e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})}
		gm.toks = []string{via(g, 1).join(gm.id).Token, ""}
		mixed = append(mixed, gm)
	}
	// The computers' games are created on the server that will be
	// killed: it makes their moves until then.
	for range 2 {
		bots = append(bots, &game{id: envs[1].create(SeatRequest{Kind: "computer"}, SeatRequest{Kind: "computer", Level: "amateur"})})
	}

	// A reader on one server hears of a move made through another.
	ws := envs[2].dialWS(people[0].id, people[0].toks[0], fmt.Sprintf("&after=%d", envs[2].state(people[0].id, people[0].toks[0]).Seq))

	// step makes one move of a people's or mixed game, reading the state
	// through one server and moving through another; it reports false
	// when the game is over.
	step := func(g int, gm *game, k int) bool {
		t.Helper()
		pub := via(g, k).state(gm.id, "")
		if pub.Over {
			return false
		}
		tok := gm.toks[pub.Turn]
		if tok == "" {
			return true // the computer's turn
		}
		st := via(g, k+1).state(gm.id, tok)
		if st.Turn != pub.Turn || st.Over {
			return true // it moved meanwhile
		}
		req, _ := bestRequest(t, st)
		var mr MoveResponse
		if code := via(g, k+2).do("POST", "/api/games/"+gm.id+"/move", tok, req, &mr); code != 200 {
			t.Fatalf("game %s move %d: %d", gm.id, k, code)
		}
		gm.acked = append(gm.acked, acked{pub.Turn, map[bool]string{true: "place", false: req["kind"].(string)}[req["kind"] == "place"], mr.Score})
		return true
	}
	for k := range 3 {
		for g, gm := range append(append([]*game{}, people...), mixed...) {
			step(g, gm, k)
		}
	}
	if ns := ws.read(3); ns[0].Type != "placed" && ns[0].Type != "exchange" && ns[0].Type != "pass" {
		t.Errorf("reader on server 2 got %s after a move through another server", seqs(ns))
	}
	var botsBefore [][]acked
	for _, gm := range bots {
		botsBefore = append(botsBefore, historyMoves(envs[0].state(gm.id, "")))
	}

	// Kill server 1 in the middle of every game.
	procs[1].kill(t)
	alive = []int{0, 2}
	t.Log("server 1 killed")

	deadline := time.Now().Add(90 * time.Second)
	for k := 3; time.Now().Before(deadline); k++ {
		more := false
		for g, gm := range append(append([]*game{}, people...), mixed...) {
			if step(g, gm, k) {
				more = true
			}
		}
		if !more {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, gm := range bots {
		for !envs[0].state(gm.id, "").Over && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	for g, gm := range append(append([]*game{}, people...), mixed...) {
		st := envs[g%2*2].state(gm.id, "")
		if !st.Over {
			t.Errorf("game %s did not finish (%d moves)", gm.id, st.Moves)
		}
		var mine []acked
		for _, m := range historyMoves(st) {
			if gm.toks[m.seat] != "" {
				mine = append(mine, m)
			}
		}
		if !keeps(mine, gm.acked) || len(mine) != len(gm.acked) {
			t.Errorf("game %s: the people's moves in the end are %v; acknowledged %v", gm.id, mine, gm.acked)
		}
	}
	for i, gm := range bots {
		st := envs[2].state(gm.id, "")
		if !st.Over {
			t.Errorf("computers' game %s did not finish after its server died (%d moves)", gm.id, st.Moves)
		}
		if got := historyMoves(st); !keeps(got, botsBefore[i]) {
			t.Errorf("computers' game %s lost moves seen before the kill: %v, then %v", gm.id, botsBefore[i], got)
		}
		t.Logf("computers' game %s: %d moves when its server died, %d in all", gm.id, len(botsBefore[i]), st.Moves)
	}
	// Both live servers tell the same story.
	for _, gm := range append(append(append([]*game{}, people...), mixed...), bots...) {
		if a, b := gameJSON(envs[0].state(gm.id, "")), gameJSON(envs[2].state(gm.id, "")); a != b {
			t.Errorf("game %s differs between the servers:\n%s\n%s", gm.id, a, b)
		}
	}
}

// TestClockTwoProcessesOnePostgres: two servers on one database both
// hold a timed game; when its flag falls each sets out to record the
// loss on time, one does, and both then show the same end.
func TestClockTwoProcessesOnePostgres(t *testing.T) {
	db := sharedDatabase(t)
	a, b := envAt(t, startSharedChild(t, db).addr), envAt(t, startSharedChild(t, db).addr)
	var cr CreateResponse
	body := map[string]any{"variant": "english", "clock": ClockRequest{Seconds: 1},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}
	if code := a.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	a.join(cr.ID)
	b.join(cr.ID)
	// Both copies are in memory, each with its timer.
	a.state(cr.ID, "")
	b.state(cr.ID, "")
	sa := a.waitOver(cr.ID, 10*time.Second)
	sb := b.waitOver(cr.ID, 10*time.Second)
	if sa.TimedOut == nil || *sa.TimedOut != 0 {
		t.Fatalf("timed out %v, want seat 0", sa.TimedOut)
	}
	sa.Seq, sb.Seq = 0, 0 // (each process numbers its readers' notifications)
	if mustJSON(sa) != mustJSON(sb) {
		t.Errorf("the two servers show different ends:\n%s\n%s", mustJSON(sa), mustJSON(sb))
	}
	// One loss on time was logged: the game's log has the two seats
	// taken and the loss, nothing more.
	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var kinds []string
	rows, err := conn.Query(context.Background(), "SELECT kind FROM atril_events WHERE game = $1 ORDER BY seq", cr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, k)
	}
	if strings.Join(kinds, ",") != "join,join,timeout" {
		t.Errorf("the game's log: %v", kinds)
	}
}

// TestRatedTwoProcessesOnePostgres plays a rated game held by two
// processes on one PostgreSQL until a flag falls: both see the end, both
// try to rate it, and the ratings change once.
func TestRatedTwoProcessesOnePostgres(t *testing.T) {
	db := sharedDatabase(t)
	a, b := envAt(t, startSharedChild(t, db).addr), envAt(t, startSharedChild(t, db).addr)
	ana, bo := browser(t), browser(t)
	a.signUp(ana, "Ana", "correct horse")
	b.signUp(bo, "Bodil", "battery staple")
	var cr CreateResponse
	body := map[string]any{"variant": "english", "clock": ClockRequest{Seconds: 1}, "rated": true,
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}
	if code := a.doWith(ana, "POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := a.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 200 {
		t.Fatalf("Ana joins: %d", code)
	}
	if code := b.doWith(bo, "POST", "/api/games/"+cr.ID+"/join", "", nil, nil); code != 200 {
		t.Fatalf("Bodil joins: %d", code)
	}
	a.state(cr.ID, "")
	b.state(cr.ID, "")
	sa := a.waitOver(cr.ID, 10*time.Second)
	sb := b.waitOver(cr.ID, 10*time.Second)
	// The rating may be recorded just after the end is shown.
	for range 100 {
		if len(sa.RatingChanges) == 2 && len(sb.RatingChanges) == 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
		sa, sb = a.state(cr.ID, ""), b.state(cr.ID, "")
	}
	if len(sa.RatingChanges) != 2 || mustJSON(sa.RatingChanges) != mustJSON(sb.RatingChanges) || sa.RatingChanges[0].After >= 1500 {
		t.Fatalf("rating changes: %s and %s", mustJSON(sa.RatingChanges), mustJSON(sb.RatingChanges))
	}
	for _, e := range []*testEnv{a, b} {
		var p Profile
		if code := e.do("GET", "/api/players/ana", "", nil, &p); code != 200 || len(p.Ratings) != 1 || p.Ratings[0].Games != 1 || len(p.Games) != 1 {
			t.Errorf("Ana's profile: %d %+v", code, p)
		}
	}
}

// TestTakebackTwoProcessesOnePostgres: a takeback written by one process
// is followed by the other, which holds the game in memory too, and the
// game goes on from there on both.
func TestTakebackTwoProcessesOnePostgres(t *testing.T) {
	db := sharedDatabase(t)
	a, b := envAt(t, startSharedChild(t, db).addr), envAt(t, startSharedChild(t, db).addr)
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 42, "seats": []SeatRequest{{Kind: "human"}, {Kind: "computer", Level: "professional"}}}
	if code := a.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	j := a.join(cr.ID)
	start := a.state(cr.ID, j.Token)
	b.state(cr.ID, "")
	req, _ := bestRequest(t, start)
	if code := a.do("POST", "/api/games/"+cr.ID+"/move", j.Token, req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	a.waitMoves(cr.ID, 2)
	b.waitMoves(cr.ID, 2)
	if code := b.do("POST", "/api/games/"+cr.ID+"/takeback", j.Token, nil, nil); code != 200 {
		t.Fatalf("takeback through the other process: %d", code)
	}
	waitFor(t, "the first process to follow the takeback", func() bool {
		st := a.state(cr.ID, j.Token)
		return st.Takebacks == 1 && positionOf(t, st) == positionOf(t, start)
	})
	if code := a.do("POST", "/api/games/"+cr.ID+"/move", j.Token, req, nil); code != 200 {
		t.Fatalf("the move again: %d", code)
	}
	sa, sb := a.waitMoves(cr.ID, 2), b.waitMoves(cr.ID, 2)
	waitFor(t, "both processes to show the computer's reply", func() bool {
		sa, sb = a.state(cr.ID, j.Token), b.state(cr.ID, j.Token)
		return positionOf(t, sa) == positionOf(t, sb)
	})
	if sa.Moves != 2 || sa.History[1].Kind != "place" {
		t.Errorf("after the move again: %d moves, history %+v", sa.Moves, sa.History)
	}
}

// TestWatchTwoProcessesOnePostgres: a watcher's WebSocket on one process
// is told of a move made through the other.
func TestWatchTwoProcessesOnePostgres(t *testing.T) {
	db := sharedDatabase(t)
	a, b := envAt(t, startSharedChild(t, db).addr), envAt(t, startSharedChild(t, db).addr)
	id := a.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{a.join(id).Token, a.join(id).Token}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, code := b.dialWatch(ctx, id, "")
	if c == nil {
		t.Fatalf("the watchers' socket on the other process: %d", code)
	}
	if m := readWatch(t, ctx, c); m.Type != "watching" {
		t.Fatalf("first message %+v", m)
	}
	req, _ := bestRequest(t, a.state(id, toks[0]))
	if code := a.do("POST", "/api/games/"+id+"/move", toks[0], req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	for {
		if m := readWatch(t, ctx, c); m.Type == "changed" {
			break
		}
	}
	if st := b.state(id, ""); st.Moves != 1 {
		t.Errorf("the watcher's process shows %d moves after the change, want 1", st.Moves)
	}
}

// TestSharedChatKeepsComputerDue: a chat line written while a computer
// seat is on turn leaves its move due, so that when the process that was
// to make it dies, another takes it over. (Every event recorded the due
// time of the game's computer anew, none for a chat line, so the move
// of a process that died after one was never taken over.)
func TestSharedChatKeepsComputerDue(t *testing.T) {
	db := sharedDatabase(t)
	open := func() store.Store {
		st, err := store.OpenPostgres(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	cfg := testConfig(open())
	// The computer thinks long enough for its process to die first.
	cfg.ThinkTime, cfg.BotGrace = 500*time.Millisecond, 300*time.Millisecond
	e := newEnvConfig(t, cfg)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"}, SeatRequest{Kind: "human"})
	a, b := e.join(id), e.join(id)
	if code := e.do("POST", "/api/games/"+id+"/move", a.Token, map[string]any{"kind": "pass"}, nil); code != 200 {
		t.Fatalf("pass: %d", code)
	}
	if code := e.do("POST", "/api/games/"+id+"/chat", b.Token, map[string]any{"text": "your move, computer"}, nil); code != 200 {
		t.Fatalf("chat: %d", code)
	}
	e.hs.Close()
	e.srv.Close()
	cfg2 := testConfig(open())
	cfg2.BotGrace = 300 * time.Millisecond
	e2 := newEnvConfig(t, cfg2)
	deadline := time.Now().Add(15 * time.Second)
	for e2.state(id, "").Moves < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the computer's move was not taken over: %d moves", e2.state(id, "").Moves)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
