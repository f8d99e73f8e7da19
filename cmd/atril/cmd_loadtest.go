package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

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

func runLoadtest(args []string) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address of the running atril server")
	games := fs.Int("games", 100, "concurrent games")
	vname := fs.String("variant", "english", "variant of the games")
	maxMoves := fs.Int("max-moves", 200, "stop a game after this many moves")
	seed := fs.Uint64("seed", 0, "seed of the first game, game i using seed+i (0: the server chooses; other values need atril serve --allow-seed)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *games < 1 {
		return fmt.Errorf("--games %d: want at least 1", *games)
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
	c := &loadClient{base: "http://" + *addr, http: &http.Client{
		Timeout:   60 * time.Second,
		Transport: &http.Transport{MaxIdleConns: 2 * *games, MaxIdleConnsPerHost: 2 * *games, IdleConnTimeout: time.Minute},
	}}
	var info server.Info
	if err := c.do("GET", "/api/info", "", nil, &info); err != nil {
		return fmt.Errorf("server at %s: %w", *addr, err)
	}
	var (
		moveLat, stateLat latencies
		moves, finished   atomic.Int64
		errCount          atomic.Int64
		firstErr          error
		errOnce           sync.Once
		wg                sync.WaitGroup
	)
	// Moves are chosen on this machine too; bounding the choosers keeps
	// the bots from starving the server of CPU all at once.
	choose := make(chan struct{}, runtime.GOMAXPROCS(0))
	start := time.Now()
	for i := 0; i < *games; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s := *seed
			if s != 0 {
				s += uint64(i)
			}
			err := loadGame(c, v, lex, &gens, s, *maxMoves, choose, &moveLat, &stateLat, &moves)
			if err != nil {
				errCount.Add(1)
				errOnce.Do(func() { firstErr = err })
				return
			}
			finished.Add(1)
		}(i)
	}
	wg.Wait()
	el := time.Since(start)
	fmt.Printf("atril loadtest: %d concurrent bot-vs-bot games (%s) against http://%s, %d CPUs here\n", *games, v.Name, *addr, runtime.NumCPU())
	fmt.Printf("games finished: %d/%d  errors: %d  moves: %d  elapsed: %v\n", finished.Load(), *games, errCount.Load(), moves.Load(), el.Round(time.Millisecond))
	fmt.Printf("moves/s: %.1f\n", float64(moves.Load())/el.Seconds())
	fmt.Printf("move round trip (POST move): %s\n", moveLat.summary())
	fmt.Printf("state round trip (GET game with token): %s\n", stateLat.summary())
	if firstErr != nil {
		return fmt.Errorf("%d games failed; first: %w", errCount.Load(), firstErr)
	}
	return nil
}

// loadGame plays one game between two bots, each taking a seat as a
// person would: read the state with its token, choose the best move,
// send it.
func loadGame(c *loadClient, v *variant.Variant, lex *lexicon.Lexicon, gens *sync.Pool, seed uint64, maxMoves int,
	choose chan struct{}, moveLat, stateLat *latencies, moves *atomic.Int64) error {
	var cr server.CreateResponse
	body := map[string]any{"variant": v.Name,
		"seats": []server.SeatRequest{{Kind: "human", Name: "bot A"}, {Kind: "human", Name: "bot B"}}}
	if seed != 0 {
		body["seed"] = seed
	}
	if err := c.do("POST", "/api/games", "", body, &cr); err != nil {
		return err
	}
	var toks [2]string
	for k := range toks {
		var jr server.JoinResponse
		if err := c.do("POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": k}, &jr); err != nil {
			return err
		}
		toks[k] = jr.Token
	}
	turn := 0
	for n := 0; n < maxMoves; n++ {
		var st server.State
		t := time.Now()
		if err := c.do("GET", "/api/games/"+cr.ID, toks[turn], nil, &st); err != nil {
			return err
		}
		stateLat.add(time.Since(t))
		if st.Over {
			return nil
		}
		if st.Turn != turn {
			return fmt.Errorf("game %s: seat %d on turn, expected %d", cr.ID, st.Turn, turn)
		}
		choose <- struct{}{}
		gen := gens.Get().(movegen.Generator)
		req, err := loadMove(v, lex, gen, &st)
		gens.Put(gen)
		<-choose
		if err != nil {
			return fmt.Errorf("game %s: %w", cr.ID, err)
		}
		var mr server.MoveResponse
		t = time.Now()
		if err := c.do("POST", "/api/games/"+cr.ID+"/move", toks[turn], req, &mr); err != nil {
			return err
		}
		moveLat.add(time.Since(t))
		moves.Add(1)
		if mr.Over {
			return nil
		}
		turn = 1 - turn
	}
	return nil
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
