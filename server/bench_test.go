package server

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/movegen"
	"atril/store"
	"atril/variant"
)

var (
	fullOnce sync.Once
	fullLex  *lexicon.Lexicon
	fullErr  error
)

func fullEnglish(v *variant.Variant) (*lexicon.Lexicon, error) {
	fullOnce.Do(func() { fullLex, fullErr = lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size}) })
	return fullLex, fullErr
}

// benchServer is a server on the full English list, answering through
// its handler directly (no network).
type benchServer struct {
	b   *testing.B
	srv *Server
}

func (bs *benchServer) do(method, path, tok string, body []byte, out any) {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	w := httptest.NewRecorder()
	bs.srv.ServeHTTP(w, req)
	if w.Code >= 300 {
		bs.b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body.Bytes())
	}
	if out != nil {
		if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
			bs.b.Fatal(err)
		}
	}
}

func (bs *benchServer) newGame() (string, [2]string) {
	var cr CreateResponse
	bs.do("POST", "/api/games", "", []byte(`{"variant":"english","seed":42,"seats":[{},{}]}`), &cr)
	var toks [2]string
	for k := range toks {
		var jr JoinResponse
		bs.do("POST", "/api/games/"+cr.ID+"/join", "", []byte(`{}`), &jr)
		toks[k] = jr.Token
	}
	return cr.ID, toks
}

// benchGame records one game between two people on the full English
// list, each playing the best move, and returns a server ready to replay
// it and the moves' request bodies.
func benchGame(b *testing.B) (*benchServer, [][]byte) {
	v := variant.MustLoad("english")
	lex, err := fullEnglish(v)
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	cfg := testConfig(st)
	cfg.LoadLexicon = func(*variant.Variant, string) (*lexicon.Lexicon, error) { return lex, nil }
	cfg.NewGenerator = DefaultGenerator
	srv, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	bs := &benchServer{b: b, srv: srv}
	gen := movegen.NewGaddag(lex)
	id, toks := bs.newGame()
	var moves [][]byte
	for len(moves) < 200 {
		var s State
		bs.do("GET", "/api/games/"+id, toks[len(moves)%2], nil, &s)
		if s.Over {
			break
		}
		bd := board.New(v, lex)
		for _, tl := range s.Board {
			t, _ := v.Alphabet.Letter(tl.Letter, alphabet.Plain)
			if tl.Blank {
				t |= alphabet.BlankBit
			}
			bd.SetTile(*tl.Row, *tl.Col, t, 0)
		}
		bd.Recompute()
		var r alphabet.Rack
		for _, tl := range s.You.Rack {
			if tl.Blank {
				r.Add(alphabet.Blank)
				continue
			}
			t, _ := v.Alphabet.Letter(tl.Letter, alphabet.Plain)
			r.Add(t)
		}
		body := []byte(`{"kind":"pass"}`)
		if m, ok := movegen.Best(gen, bd, &r); ok {
			var tiles []PlacedTile
			sq, ts := m.Placed()
			for i, t := range ts {
				tiles = append(tiles, PlacedTile{Row: sq[i][0], Col: sq[i][1], Letter: v.Alphabet.String(t.Letter()), Blank: t.IsBlanked()})
			}
			body, _ = json.Marshal(map[string]any{"kind": "place", "tiles": tiles})
		}
		moves = append(moves, body)
		bs.do("POST", "/api/games/"+id+"/move", toks[(len(moves)-1)%2], body, nil)
	}
	return bs, moves
}

// BenchmarkStateRead times a seat's state read in the middle of a game
// (move 12 of a game of best moves on the full English list), through
// the HTTP handler (request parsing and the network excluded). It
// reports the process's CPU time per read.
func BenchmarkStateRead(b *testing.B) {
	bs, moves := benchGame(b)
	id, toks := bs.newGame()
	for k := range min(12, len(moves)) {
		bs.do("POST", "/api/games/"+id+"/move", toks[k%2], moves[k], nil)
	}
	req := httptest.NewRequest("GET", "/api/games/"+id, nil)
	req.Header.Set("Authorization", "Bearer "+toks[0])
	c0, _ := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := httptest.NewRecorder()
		bs.srv.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
	c1, _ := processCPU()
	b.ReportMetric(float64((c1-c0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}

// BenchmarkMoveAccept times accepted moves: 32 games at once, each
// replaying the moves of a game of best moves on the full English list,
// through the HTTP handler (request parsing and the network excluded),
// with the SQLite store on disk (so the store's group commit shares a
// file sync between the moves that arrive together, as under load). It
// reports the process's CPU time per move, the store's writer included.
func BenchmarkMoveAccept(b *testing.B) {
	bs, moves := benchGame(b)
	const par = 32
	type g struct {
		id   string
		toks [2]string
	}
	games := make(chan g, b.N/len(moves)+2*par)
	for range cap(games) {
		id, toks := bs.newGame()
		games <- g{id, toks}
	}
	b.SetParallelism(par / max(1, runtime.GOMAXPROCS(0)))
	c0, _ := processCPU()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		cur, k := <-games, 0
		for pb.Next() {
			if k == len(moves) {
				cur, k = <-games, 0
			}
			req := httptest.NewRequest("POST", "/api/games/"+cur.id+"/move", bytes.NewReader(moves[k]))
			req.Header.Set("Authorization", "Bearer "+cur.toks[k%2])
			w := httptest.NewRecorder()
			bs.srv.ServeHTTP(w, req)
			if w.Code != 200 {
				b.Errorf("move %d: %d %s", k, w.Code, w.Body.Bytes())
				return
			}
			k++
		}
	})
	c1, _ := processCPU()
	b.ReportMetric(float64((c1-c0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}

// BenchmarkLobby times GET /api/lobby with many games in memory, few of
// them in the lobby: 10,000 games waiting for a seat that nobody
// offered, 40 offered and 40 being played that were offered.
func BenchmarkLobby(b *testing.B) {
	st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	srv, err := New(testConfig(st))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	bs := &benchServer{b: b, srv: srv}
	create := func() (string, string) {
		var cr CreateResponse
		bs.do("POST", "/api/games", "", []byte(`{"variant":"english","seats":[{},{}]}`), &cr)
		var jr JoinResponse
		bs.do("POST", "/api/games/"+cr.ID+"/join", "", []byte(`{}`), &jr)
		return cr.ID, jr.Token
	}
	for range 10000 {
		create()
	}
	for k := range 80 {
		id, tok := create()
		bs.do("POST", "/api/games/"+id+"/list", tok, nil, nil)
		if k%2 == 1 {
			bs.do("POST", "/api/games/"+id+"/join", "", []byte(`{}`), nil)
		}
	}
	var lb Lobby
	bs.do("GET", "/api/lobby", "", nil, &lb)
	if len(lb.Open) != 40 || len(lb.Playing) != 40 {
		b.Fatalf("lobby lists %d open and %d playing games, want 40 and 40", len(lb.Open), len(lb.Playing))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		bs.do("GET", "/api/lobby", "", nil, nil)
	}
}
