package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/movegen"
	"atril/server"
	"atril/variant"
)

func init() {
	register("loadtest", "drive many bot-vs-bot games against a running server and report moves/s and latency", runLoadtest)
}

// loadClient talks to the server under test.
type loadClient struct {
	base string
	http *http.Client
}

func (c *loadClient) do(method, path, tok string, body, out any) error {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// latencies collects round-trip times.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) reset() {
	l.mu.Lock()
	l.d = l.d[:0]
	l.mu.Unlock()
}

func (l *latencies) summary() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return "no samples"
	}
	slices.Sort(l.d)
	q := func(p float64) time.Duration { return l.d[min(len(l.d)-1, int(p*float64(len(l.d))))] }
	return fmt.Sprintf("p50 %v  p90 %v  p99 %v  max %v  (%d samples)",
		q(0.50).Round(10*time.Microsecond), q(0.90).Round(10*time.Microsecond),
		q(0.99).Round(10*time.Microsecond), l.d[len(l.d)-1].Round(10*time.Microsecond), len(l.d))
}

// serverMetrics are the counters of the server's /metrics that the load
// test reports.
type serverMetrics struct {
	cpu, botCPU float64 // seconds
	moves       float64
	ok          bool
}

// scrape reads the server's /metrics (Prometheus text format).
func (c *loadClient) scrape() serverMetrics {
	var m serverMetrics
	resp, err := c.http.Get(c.base + "/metrics")
	if err != nil {
		return m
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return m
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		// The value follows the last space (a label's value may hold
		// spaces).
		i := strings.LastIndexByte(line, ' ')
		name, val, ok := line[:max(i, 0)], line[i+1:], i > 0
		if !ok {
			continue
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			continue
		}
		switch {
		case name == "process_cpu_seconds_total":
			m.cpu, m.ok = x, true
		case name == "atril_bot_cpu_seconds_total":
			m.botCPU = x
		case strings.HasPrefix(name, "atril_moves_total"):
			m.moves += x
		}
	}
	return m
}

// cpuReport says what the server spent per move between two scrapes.
func cpuReport(a, b serverMetrics) string {
	if !a.ok || !b.ok || b.moves <= a.moves {
		return "server CPU per move: unknown (the server has no /metrics with process_cpu_seconds_total)"
	}
	n := b.moves - a.moves
	cpu, bot := b.cpu-a.cpu, b.botCPU-a.botCPU
	return fmt.Sprintf("server CPU per move: %.3f ms (%.3f ms without computer seats' thinking; %.0f moves, %.2f s CPU, %.2f s thinking)",
		cpu/n*1000, (cpu-bot)/n*1000, n, cpu, bot)
}

func runLoadtest(args []string) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address of the running atril server")
	games := fs.Int("games", 100, "concurrent games")
	vname := fs.String("variant", "english", "variant of the games")
	maxMoves := fs.Int("max-moves", 200, "stop a game after this many moves")
	seed := fs.Uint64("seed", 0, "seed of the first game, game i using seed+i (0: the server chooses; other values need atril serve --allow-seed)")
	rate := fs.Duration("rate", 0, "open loop: each game moves once every this long (a finished game is replaced by a new one); 0: closed loop, every game as fast as it can")
	duration := fs.Duration("duration", time.Minute, "open loop: how long to measure, after the games have started")
	maxConns := fs.Int("conns", 1000, "connections to the server at most")
	replay := fs.Int("replay", 0, "play K distinct games (seeds seed to seed+K-1, which needs --seed and atril serve --allow-seed): each is played once with the best moves and recorded, then replayed by the other games with its seed, so that this machine's CPU goes to sending requests rather than choosing moves (the state is still read before every move)")
	split := fs.Bool("split", false, "with --replay: measure the server's CPU of a move and of a state read apart, in phases of one kind of request each; closed loop, or with --rate an open loop of --duration a phase")
	reads := fs.Int("reads", 20, "with --split in a closed loop: state reads per game in the reads phase")
	watchers := fs.Int("watchers", 0, "spectators of each game, each following it as a spectator's page does (the watchers' WebSocket, and a read of the state each time it says the game changed), each from an address of its own given in X-Forwarded-For: start the server with --real-ip-header X-Forwarded-For")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *split && (*replay == 0 || *reads < 1) {
		return fmt.Errorf("--split: want --replay K (moves are sent without reading the state first) and --reads of 1 or more")
	}
	if *watchers < 0 || *watchers > 0 && *split {
		return fmt.Errorf("--watchers %d: want 0 or more, and not with --split", *watchers)
	}
	if *games < 1 {
		return fmt.Errorf("--games %d: want at least 1", *games)
	}
	if *replay < 0 || *replay > 0 && *seed == 0 {
		return fmt.Errorf("--replay %d: want 0, or a count of games with --seed", *replay)
	}
	if *rate < 0 || *duration <= 0 {
		return fmt.Errorf("--rate %v, --duration %v: want a rate of 0 or more and a positive duration", *rate, *duration)
	}
	v, err := variant.Load(*vname)
	if err != nil {
		return err
	}
	t0 := time.Now()
	lex, err := lexicon.Open(v.DefaultLexicon, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		return err
	}
	base := movegen.NewGaddag(lex)
	gens := sync.Pool{New: func() any { return base.Fork() }}
	fmt.Fprintf(os.Stderr, "loadtest: %s word list and GADDAG ready in %v\n", v.DefaultLexicon, time.Since(t0).Round(time.Millisecond))
	// At most conns connections: past them, requests wait for one (and
	// the wait counts in their round trip), as they would in a browser.
	conns := min(2**games*(1+*watchers), *maxConns)
	c := &loadClient{base: "http://" + *addr, http: &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns,
			IdleConnTimeout: time.Minute},
	}}
	var info server.Info
	if err := c.do("GET", "/api/info", "", nil, &info); err != nil {
		return fmt.Errorf("server at %s: %w", *addr, err)
	}
	lt := &loadRun{c: c, v: v, lex: lex, gens: &gens, maxMoves: *maxMoves, watchers: *watchers,
		choose: make(chan struct{}, runtime.GOMAXPROCS(0)), replay: *replay, scripts: map[uint64]*script{}}
	if *replay > 0 {
		if err := lt.recordScripts(*seed); err != nil {
			return err
		}
	}
	if *split {
		return lt.splitRun(*games, *seed, *reads, *rate, *duration)
	}
	if *rate > 0 {
		return lt.openLoop(*games, *seed, *rate, *duration)
	}
	var (
		finished atomic.Int64
		wg       sync.WaitGroup
	)
	before := c.scrape()
	start := time.Now()
	for i := 0; i < *games; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			g, err := lt.newGame(lt.seedOf(*seed, i))
			if err == nil {
				var stop func()
				stop, err = lt.watch(g.id, i)
				defer stop()
			}
			for err == nil {
				var over bool
				over, err = lt.step(g, true)
				if over || g.moves >= lt.maxMoves {
					break
				}
			}
			if err != nil {
				lt.fail(err)
				return
			}
			finished.Add(1)
		}(i)
	}
	wg.Wait()
	el := time.Since(start)
	after := c.scrape()
	fmt.Printf("atril loadtest: %d concurrent bot-vs-bot games (%s) against http://%s, %d CPUs here\n", *games, v.Name, *addr, runtime.NumCPU())
	fmt.Printf("games finished: %d/%d  errors: %d  moves: %d  elapsed: %v\n", finished.Load(), *games, lt.errCount.Load(), lt.moves.Load(), el.Round(time.Millisecond))
	fmt.Printf("moves/s: %.1f\n", float64(lt.moves.Load())/el.Seconds())
	fmt.Printf("move round trip (POST move): %s\n", lt.moveLat.summary())
	fmt.Printf("state round trip (GET game with token): %s\n", lt.stateLat.summary())
	lt.spectatorReport(*games, el)
	fmt.Println(cpuReport(before, after))
	return lt.err()
}

// spectatorReport prints what the spectators of n games did in el.
func (lt *loadRun) spectatorReport(n int, el time.Duration) {
	if lt.watchers == 0 {
		return
	}
	fmt.Printf("spectators: %d a game (%d sockets); changes told %d (%.2f a move), states read %d (%.1f/s)\n", lt.watchers, n*lt.watchers,
		lt.told.Load(), float64(lt.told.Load())/float64(max(1, lt.moves.Load())), lt.watchReads.Load(), float64(lt.watchReads.Load())/el.Seconds())
	fmt.Printf("spectator's state round trip (GET game, no token): %s\n", lt.watchLat.summary())
}

// loadRun is the shared state of a load test.
type loadRun struct {
	c        *loadClient
	v        *variant.Variant
	lex      *lexicon.Lexicon
	gens     *sync.Pool
	maxMoves int
	// watchers is the spectators of each game (watch).
	watchers int
	// choose bounds the moves chosen here at once, so the bots do not
	// starve the server of CPU all at once.
	choose                      chan struct{}
	moveLat, stateLat, watchLat latencies
	moves, errCount             atomic.Int64
	// told counts the watchers' sockets' messages that the game changed,
	// watchReads the states the spectators read on them.
	told, watchReads atomic.Int64
	firstErr         error
	errOnce          sync.Once
	// replay > 0 replays recorded games (scripts, by seed).
	replay    int
	scriptsMu sync.Mutex
	scripts   map[uint64]*script
}

// script is the moves of a game with a given seed, as request bodies.
type script struct {
	moves    []json.RawMessage
	complete bool // recorded to the end; read-only from then on
}

// recordScripts plays the games to be replayed, all at once and as fast
// as they go, before the test proper.
func (lt *loadRun) recordScripts(seed uint64) error {
	t0 := time.Now()
	var wg sync.WaitGroup
	for i := range lt.replay {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, err := lt.newGame(seed + uint64(i))
			for err == nil && g.moves < lt.maxMoves {
				var over bool
				if over, err = lt.step(g, false); over {
					break
				}
			}
			if err != nil {
				lt.fail(err)
				return
			}
			if g.record == nil {
				lt.fail(fmt.Errorf("game %s: seed %d recorded twice", g.id, seed+uint64(i)))
				return
			}
			// A game cut at --max-moves is replayed as far, no further.
			lt.scriptsMu.Lock()
			g.record.complete = true
			lt.scriptsMu.Unlock()
		}()
	}
	wg.Wait()
	if err := lt.err(); err != nil {
		return fmt.Errorf("recording the games to replay: %w", err)
	}
	fmt.Fprintf(os.Stderr, "loadtest: %d games recorded in %v\n", lt.replay, time.Since(t0).Round(time.Millisecond))
	return nil
}

// seedOf is the seed of game slot i (0: the server chooses).
func (lt *loadRun) seedOf(seed uint64, i int) uint64 {
	if seed == 0 {
		return 0
	}
	if lt.replay > 0 {
		return seed + uint64(i%lt.replay)
	}
	return seed + uint64(i)
}

func (lt *loadRun) fail(err error) {
	lt.errCount.Add(1)
	lt.errOnce.Do(func() { lt.firstErr = err })
}

func (lt *loadRun) err() error {
	if lt.firstErr != nil {
		return fmt.Errorf("%d errors; first: %w", lt.errCount.Load(), lt.firstErr)
	}
	return nil
}

// loadGame is one game of the load test, both seats held here.
type loadGame struct {
	id    string
	toks  [2]string
	turn  int
	moves int
	reads int // with --split
	// With --replay: the script replayed, or the one being recorded.
	play, record *script
}

// newGame creates a game of two people and takes both seats, as two
// people would.
func (lt *loadRun) newGame(seed uint64) (*loadGame, error) {
	var cr server.CreateResponse
	body := map[string]any{"variant": lt.v.Name,
		"seats": []server.SeatRequest{{Kind: "human", Name: "bot A"}, {Kind: "human", Name: "bot B"}}}
	if seed != 0 {
		body["seed"] = seed
	}
	if err := lt.c.do("POST", "/api/games", "", body, &cr); err != nil {
		return nil, err
	}
	g := &loadGame{id: cr.ID}
	if lt.replay > 0 {
		lt.scriptsMu.Lock()
		switch sc := lt.scripts[seed]; {
		case sc == nil:
			g.record = &script{}
			lt.scripts[seed] = g.record
		case sc.complete:
			g.play = sc
		}
		lt.scriptsMu.Unlock()
	}
	for k := range g.toks {
		var jr server.JoinResponse
		if err := lt.c.do("POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": k}, &jr); err != nil {
			return nil, err
		}
		g.toks[k] = jr.Token
	}
	return g, nil
}

// step makes the move of the seat on turn: read the state with its
// token, choose the best move, send it. It reports whether the game is
// over, and adds the round trips to lt's latencies when count is set.
func (lt *loadRun) step(g *loadGame, count bool) (bool, error) {
	var st server.State
	var brief struct {
		Over bool `json:"over"`
		Turn int  `json:"turn"`
	}
	var out any = &st
	if g.play != nil {
		out = &brief // a replayed move needs only these
	}
	t := time.Now()
	if err := lt.c.do("GET", "/api/games/"+g.id, g.toks[g.turn], nil, out); err != nil {
		return false, err
	}
	if count {
		lt.stateLat.add(time.Since(t))
	}
	if g.play == nil {
		brief.Over, brief.Turn = st.Over, st.Turn
	}
	if brief.Over {
		if g.record != nil {
			lt.scriptsMu.Lock()
			g.record.complete = true
			lt.scriptsMu.Unlock()
		}
		return true, nil
	}
	if brief.Turn != g.turn {
		return false, fmt.Errorf("game %s: seat %d on turn, expected %d", g.id, brief.Turn, g.turn)
	}
	var req json.RawMessage
	if g.play != nil {
		if g.moves >= len(g.play.moves) {
			return false, fmt.Errorf("game %s: the recorded game of its seed ended after %d moves; this one did not", g.id, g.moves)
		}
		req = g.play.moves[g.moves]
	} else {
		lt.choose <- struct{}{}
		gen := lt.gens.Get().(movegen.Generator)
		m, err := loadMove(lt.v, lt.lex, gen, &st)
		lt.gens.Put(gen)
		<-lt.choose
		if err != nil {
			return false, fmt.Errorf("game %s: %w", g.id, err)
		}
		if req, err = json.Marshal(m); err != nil {
			return false, err
		}
		if g.record != nil {
			lt.scriptsMu.Lock()
			g.record.moves = append(g.record.moves, req)
			lt.scriptsMu.Unlock()
		}
	}
	var mr server.MoveResponse
	t = time.Now()
	if err := lt.c.do("POST", "/api/games/"+g.id+"/move", g.toks[g.turn], req, &mr); err != nil {
		return false, err
	}
	if count {
		lt.moveLat.add(time.Since(t))
		lt.moves.Add(1)
	}
	g.moves++
	g.turn = 1 - g.turn
	if mr.Over && g.record != nil {
		lt.scriptsMu.Lock()
		g.record.complete = true
		lt.scriptsMu.Unlock()
	}
	return mr.Over, nil
}

// splitRun measures the server's CPU time of a move and of a state read
// apart. The server's CPU time is counted for its whole process (the
// counter process_cpu_seconds_total of /metrics), and a request's share
// of it cannot be told by timing the request's own goroutine (Go runs
// a request on several threads, and the store's writer, the garbage
// collector and the network poller work for many requests at once). So
// the test runs in phases that each send one kind of request: the
// server's CPU time of a phase divided by its requests is that request's
// cost, with its share of everything else the server does for it. Each
// phase is measured from a pause to a pause, so that the store's commits
// and checkpoints fall in the phase that caused them; the server's CPU
// time while idle is measured too, and reported.
//
// Every game is created and its seats taken first (not measured). In a
// closed loop (period 0) every game then sends, as fast as it goes, the
// first half of its recorded moves without reading its state (moves);
// then reads its state reads times with the token of the seat on turn
// (state reads, a game in its middle); then sends the rest of its moves.
// In an open loop every game reads its state once every period for
// duration (state reads), then sends its next move once every period
// for duration, or until its recorded game ends (moves).
func (lt *loadRun) splitRun(n int, seed uint64, reads int, period, duration time.Duration) error {
	const pause = 500 * time.Millisecond
	gs := make([]*loadGame, n)
	t0 := time.Now()
	if err := lt.each(gs, func(i int, _ *loadGame) error {
		g, err := lt.newGame(lt.seedOf(seed, i))
		if err == nil && g.play == nil {
			err = fmt.Errorf("game %s: seed %d has no recorded game to replay", g.id, lt.seedOf(seed, i))
		}
		gs[i] = g
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "loadtest: %d games created and joined in %v\n", n, time.Since(t0).Round(time.Millisecond))
	type phase struct {
		name     string
		requests atomic.Int64
		el       time.Duration
		cpu      float64
		lat      latencies
	}
	// The server's CPU time while no request comes, which each phase's
	// last pause adds to it.
	time.Sleep(pause)
	a := lt.c.scrape()
	time.Sleep(2 * pause)
	b := lt.c.scrape()
	idle := (b.cpu - a.cpu) / (2 * pause).Seconds()
	// run runs a phase: step makes one request of game g and reports
	// whether g has no more to make.
	run := func(p *phase, step func(g *loadGame) (bool, error)) error {
		time.Sleep(pause)
		a := lt.c.scrape()
		start := time.Now()
		err := lt.each(gs, func(i int, g *loadGame) error {
			if period == 0 {
				for {
					if done, err := step(g); done || err != nil {
						return err
					}
				}
			}
			next := start.Add(time.Duration(i) * period / time.Duration(n))
			for ; next.Before(start.Add(duration)); next = next.Add(period) {
				time.Sleep(time.Until(next))
				if done, err := step(g); done || err != nil {
					return err
				}
			}
			return nil
		})
		p.el = time.Since(start)
		time.Sleep(pause)
		b := lt.c.scrape()
		if !a.ok || !b.ok {
			return fmt.Errorf("the server has no /metrics with process_cpu_seconds_total")
		}
		p.cpu = b.cpu - a.cpu
		return err
	}
	// move sends g's next move, up to move upTo(g).
	move := func(p *phase, upTo func(g *loadGame) int) func(g *loadGame) (bool, error) {
		return func(g *loadGame) (bool, error) {
			if g.moves >= upTo(g) {
				return true, nil
			}
			t := time.Now()
			var mr server.MoveResponse
			if err := lt.c.do("POST", "/api/games/"+g.id+"/move", g.toks[g.turn], g.play.moves[g.moves], &mr); err != nil {
				return true, err
			}
			p.lat.add(time.Since(t))
			p.requests.Add(1)
			g.moves++
			g.turn = 1 - g.turn
			return mr.Over, nil
		}
	}
	read := func(p *phase, times int) func(g *loadGame) (bool, error) {
		return func(g *loadGame) (bool, error) {
			t := time.Now()
			if err := lt.c.do("GET", "/api/games/"+g.id, g.toks[g.turn], nil, nil); err != nil {
				return true, err
			}
			p.lat.add(time.Since(t))
			p.requests.Add(1)
			g.reads++
			return period == 0 && g.reads >= times, nil
		}
	}
	whole := func(g *loadGame) int { return len(g.play.moves) }
	var phases []*phase
	if period == 0 {
		moves1, states, moves2 := &phase{name: "moves (first halves)"}, &phase{name: "state reads"}, &phase{name: "moves (second halves)"}
		phases = []*phase{moves1, states, moves2}
		if err := run(moves1, move(moves1, func(g *loadGame) int { return len(g.play.moves) / 2 })); err != nil {
			return err
		}
		if err := run(states, read(states, reads)); err != nil {
			return err
		}
		if err := run(moves2, move(moves2, whole)); err != nil {
			return err
		}
		fmt.Printf("atril loadtest --split: %d games (%s) against %s, each replaying one of %d recorded games, %d CPUs here\n",
			n, lt.v.Name, lt.c.base, lt.replay, runtime.NumCPU())
	} else {
		states, moves := &phase{name: "state reads"}, &phase{name: "moves"}
		phases = []*phase{states, moves}
		if err := run(states, read(states, 0)); err != nil {
			return err
		}
		if err := run(moves, move(moves, whole)); err != nil {
			return err
		}
		fmt.Printf("atril loadtest --split --rate %v: %d games (%s) against %s, each replaying one of %d recorded games, one request every %v a game for %v a phase (%.0f/s), %d CPUs here\n",
			period, n, lt.v.Name, lt.c.base, lt.replay, period, duration, float64(n)/period.Seconds(), runtime.NumCPU())
	}
	var nm, cm, nr, cr float64
	for _, p := range phases {
		k := float64(p.requests.Load())
		fmt.Printf("%-22s %7.0f requests in %v (%.0f/s), server CPU %.2f s: %.3f ms each; round trip %s\n",
			p.name+":", k, p.el.Round(time.Millisecond), k/p.el.Seconds(), p.cpu, p.cpu/k*1000, p.lat.summary())
		if p.name == "state reads" {
			nr, cr = nr+k, cr+p.cpu
		} else {
			nm, cm = nm+k, cm+p.cpu
		}
	}
	fmt.Printf("server CPU while idle: %.1f ms/s (%.0f ms in each phase's last pause)\n", idle*1000, idle*pause.Seconds()*1000)
	fmt.Printf("server CPU per move accept: %.3f ms (%.0f moves)\n", cm/nm*1000, nm)
	fmt.Printf("server CPU per state read: %.3f ms (%.0f reads)\n", cr/nr*1000, nr)
	return lt.err()
}

// each runs fn for every game of gs at once and returns the first error.
func (lt *loadRun) each(gs []*loadGame, fn func(i int, g *loadGame) error) error {
	var wg sync.WaitGroup
	for i, g := range gs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(i, g); err != nil {
				lt.fail(err)
			}
		}()
	}
	wg.Wait()
	return lt.err()
}

// openLoop runs n games, each moving once every period whatever the
// server's answers take (a game whose answer comes late moves at once
// and counts as late), for the given duration after they have all
// started; a game that ends is replaced by a new one.
func (lt *loadRun) openLoop(n int, seed uint64, period, duration time.Duration) error {
	fmt.Fprintf(os.Stderr, "loadtest: starting %d games over %v\n", n, period)
	begin := time.Now()
	measureFrom := begin.Add(period + period/2)
	stop := measureFrom.Add(duration)
	var (
		wg   sync.WaitGroup
		late atomic.Int64
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			next := begin.Add(time.Duration(i) * period / time.Duration(n))
			time.Sleep(time.Until(next))
			g, err := lt.newGame(lt.seedOf(seed, i))
			unwatch := func() {}
			if err == nil {
				unwatch, err = lt.watch(g.id, i)
			}
			defer func() { unwatch() }()
			for err == nil {
				next = next.Add(period)
				if next.After(stop) {
					return
				}
				if d := time.Until(next); d > 0 {
					time.Sleep(d)
				} else if -d > period/10 {
					late.Add(1)
				}
				var over bool
				over, err = lt.step(g, time.Now().After(measureFrom))
				if err == nil && (over || g.moves >= lt.maxMoves) {
					go unwatch()
					unwatch = func() {}
					if g, err = lt.newGame(lt.seedOf(seed, i)); err == nil {
						unwatch, err = lt.watch(g.id, i)
					}
				}
			}
			if err != nil {
				lt.fail(err)
			}
		}(i)
	}
	time.Sleep(time.Until(measureFrom))
	// The spectators count from here, as the moves do.
	lt.told.Store(0)
	lt.watchReads.Store(0)
	lt.watchLat.reset()
	before := lt.c.scrape()
	wg.Wait()
	after := lt.c.scrape()
	fmt.Printf("atril loadtest --rate %v: %d concurrent games (%s), each moving every %v, against %s, %d CPUs here\n",
		period, n, lt.v.Name, period, lt.c.base, runtime.NumCPU())
	target := float64(n) / period.Seconds()
	fmt.Printf("measured %v: moves %d (%.1f/s, target %.1f/s)  late starts %d  errors %d\n",
		duration, lt.moves.Load(), float64(lt.moves.Load())/duration.Seconds(), target, late.Load(), lt.errCount.Load())
	fmt.Printf("move round trip (POST move): %s\n", lt.moveLat.summary())
	fmt.Printf("state round trip (GET game with token): %s\n", lt.stateLat.summary())
	lt.spectatorReport(n, duration)
	fmt.Println(cpuReport(before, after))
	return lt.err()
}

// loadMove rebuilds the board and rack from a state and picks the best
// placement (or passes).
func loadMove(v *variant.Variant, lex *lexicon.Lexicon, gen movegen.Generator, st *server.State) (map[string]any, error) {
	b := board.New(v, lex)
	for _, tl := range st.Board {
		t, err := v.Alphabet.Letter(tl.Letter, alphabet.Plain)
		if err != nil || tl.Row == nil || tl.Col == nil {
			return nil, errors.New("bad tile in state")
		}
		if tl.Blank {
			t |= alphabet.BlankBit
		}
		b.SetTile(*tl.Row, *tl.Col, t, 0)
	}
	b.Recompute()
	var r alphabet.Rack
	if st.You == nil {
		return nil, errors.New("state without our rack")
	}
	for _, tl := range st.You.Rack {
		if tl.Blank {
			r.Add(alphabet.Blank)
			continue
		}
		t, err := v.Alphabet.Letter(tl.Letter, alphabet.Plain)
		if err != nil {
			return nil, err
		}
		r.Add(t)
	}
	m, ok := movegen.Best(gen, b, &r)
	if !ok {
		return map[string]any{"kind": "pass"}, nil
	}
	sq, ts := m.Placed()
	tiles := make([]server.PlacedTile, len(ts))
	for i, t := range ts {
		tiles[i] = server.PlacedTile{Row: sq[i][0], Col: sq[i][1], Letter: v.Alphabet.String(t.Letter()), Blank: t.IsBlanked()}
	}
	return map[string]any{"kind": "place", "tiles": tiles}, nil
}

// watch opens lt.watchers spectators of game id, the slot-th game of
// the test (each spectator from an address of its own, by slot, in
// X-Forwarded-For), as the page follows a game it watches: the
// watchers' WebSocket, and a read of the state each time it says the
// game changed, until the socket closes at the game's end. stop waits a
// little for them to read the game's end, then closes them.
func (lt *loadRun) watch(id string, slot int) (stop func(), err error) {
	first, n := slot*lt.watchers, lt.watchers
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	stop = func() {
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
		cancel()
		wg.Wait()
	}
	u := "ws" + strings.TrimPrefix(lt.c.base, "http") + "/api/games/" + id + "/watch"
	for k := first; k < first+n; k++ {
		addr := fmt.Sprintf("10.%d.%d.%d", k>>16&255, k>>8&255, k&255)
		h := http.Header{"X-Forwarded-For": {addr}}
		c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			return stop, fmt.Errorf("spectator %d of game %s: %w", k, id, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.CloseNow()
			for {
				_, data, err := c.Read(ctx)
				if err != nil {
					return // the game is over (or the test ends)
				}
				if !bytes.Contains(data, []byte(`"changed"`)) {
					continue
				}
				lt.told.Add(1)
				req, _ := http.NewRequest("GET", lt.c.base+"/api/games/"+id, nil)
				req.Header = h.Clone()
				t0 := time.Now()
				resp, err := lt.c.http.Do(req)
				if err != nil {
					lt.fail(fmt.Errorf("spectator %d of game %s: %w", k, id, err))
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					lt.fail(fmt.Errorf("spectator %d of game %s: state %d", k, id, resp.StatusCode))
					return
				}
				lt.watchLat.add(time.Since(t0))
				lt.watchReads.Add(1)
			}
		}()
	}
	return stop, nil
}
