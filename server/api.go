package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/player"
	"atril/variant"
)

// maxBody bounds every request body.
const maxBody = 16 << 10

// apiError is an error the client caused (or may retry), with its status.
type apiError struct {
	code int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

// short cuts s to at most n characters, marking the cut: an answer
// quotes only a short prefix of what a client sent.
func short(s string, n int) string {
	k := 0
	for i := range s {
		if k == n {
			return s[:i] + "…"
		}
		k++
	}
	return s
}

// maxMessage bounds the text of an error answer or a refusal.
const maxMessage = 300

// errorBody is the JSON of every error answer.
type errorBody struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// writeRawJSON answers with data, which is already JSON.
func writeRawJSON(w http.ResponseWriter, code int, data []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(data)
	w.Write([]byte("\n"))
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	var tm *tooManyError
	if errors.As(err, &tm) {
		w.Header().Set("Retry-After", strconv.Itoa(tm.retry))
		writeJSON(w, 429, errorBody{tm.msg})
		return
	}
	var ae *apiError
	if errors.As(err, &ae) {
		writeJSON(w, ae.code, errorBody{short(ae.msg, maxMessage)})
		return
	}
	s.logf("server: %v", err)
	writeJSON(w, http.StatusInternalServerError, errorBody{"internal error; nothing was changed"})
}

// decodeJSON reads exactly one JSON object of at most maxBody bytes into
// v, refusing unknown fields.
func decodeJSON(data []byte, v any) error {
	if len(data) > maxBody {
		return &apiError{413, fmt.Sprintf("request body over %d bytes", maxBody)}
	}
	if !utf8.Valid(data) {
		return &apiError{400, "request body is not UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &apiError{400, "bad JSON body: " + short(err.Error(), 120)}
	}
	if dec.More() {
		return &apiError{400, "bad JSON body: more than one value"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &apiError{400, "bad JSON body: trailing data"}
	}
	return nil
}

func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &apiError{413, fmt.Sprintf("request body over %d bytes", maxBody)}
		}
		return nil, &apiError{400, "cannot read request body: " + short(err.Error(), 120)}
	}
	return data, nil
}

// SeatRequest is one seat of a new game: a person ("human") or the
// computer at a level.
type SeatRequest struct {
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
	Name  string `json:"name,omitempty"`
}

// createRequest is the body of POST /api/games.
type createRequest struct {
	Variant string        `json:"variant"`
	Lexicon string        `json:"lexicon,omitempty"`
	Seats   []SeatRequest `json:"seats"`
	Seed    *uint64       `json:"seed,omitempty"`
}

// decodeCreate reads and checks a create request.
func (s *Server) decodeCreate(data []byte) (*createRequest, error) {
	var req createRequest
	if err := decodeJSON(data, &req); err != nil {
		return nil, err
	}
	if req.Variant == "" {
		req.Variant = "english"
	}
	if !s.variantAllowed(req.Variant) {
		return nil, &apiError{400, fmt.Sprintf("unknown variant %q (have %s)", short(req.Variant, 40), strings.Join(s.cfg.Variants, ", "))}
	}
	v, err := s.loadVariant(req.Variant)
	if err != nil {
		return nil, &apiError{400, short(err.Error(), 120)}
	}
	if req.Lexicon == "" {
		req.Lexicon = v.DefaultLexicon
	}
	if !s.lexiconAllowed(v, req.Lexicon) {
		return nil, &apiError{400, fmt.Sprintf("word list %q is not offered for %s", short(req.Lexicon, 40), req.Variant)}
	}
	if req.Seed != nil && !s.cfg.AllowSeed {
		return nil, &apiError{400, "this server does not take chosen seeds: the seed decides the whole bag (start it with --allow-seed for tests)"}
	}
	if len(req.Seats) < 2 || len(req.Seats) > 4 {
		return nil, &apiError{400, fmt.Sprintf("%d seats: a game has 2 to 4", len(req.Seats))}
	}
	levels := player.Levels()
	for i := range req.Seats {
		st := &req.Seats[i]
		if st.Name, err = checkName(st.Name, st.Kind != "computer"); err != nil {
			return nil, &apiError{400, fmt.Sprintf("seat %d: %v", i, err)}
		}
		switch st.Kind {
		case "human", "":
			st.Kind = "human"
			if st.Level != "" {
				return nil, &apiError{400, fmt.Sprintf("seat %d: a person's seat has no level", i)}
			}
		case "computer":
			if st.Level == "" {
				st.Level = "professional"
			}
			ok := false
			for _, l := range levels {
				ok = ok || l == st.Level
			}
			if !ok {
				return nil, &apiError{400, fmt.Sprintf("seat %d: unknown level %q (have %s)", i, short(st.Level, 40), strings.Join(levels, ", "))}
			}
		default:
			return nil, &apiError{400, fmt.Sprintf("seat %d: kind %q: want \"human\" or \"computer\"", i, short(st.Kind, 40))}
		}
	}
	return &req, nil
}

// joinRequest is the body of POST /api/games/{id}/join.
type joinRequest struct {
	Name string `json:"name,omitempty"`
	Seat *int   `json:"seat,omitempty"`
}

func decodeJoin(data []byte) (*joinRequest, error) {
	var req joinRequest
	if len(bytes.TrimSpace(data)) == 0 {
		return &req, nil
	}
	if err := decodeJSON(data, &req); err != nil {
		return nil, err
	}
	var err error
	if req.Name, err = checkName(req.Name, true); err != nil {
		return nil, err
	}
	if req.Seat != nil && (*req.Seat < 0 || *req.Seat > 3) {
		return nil, &apiError{400, fmt.Sprintf("seat %d: seats are numbered 0 to 3", *req.Seat)}
	}
	return &req, nil
}

// PlacedTile is a tile put on a square by a move request. Letter is the
// letter (for a blank: the letter it stands for, with Blank set).
type PlacedTile struct {
	Row    int    `json:"row"`
	Col    int    `json:"col"`
	Letter string `json:"letter"`
	Blank  bool   `json:"blank,omitempty"`
}

// moveRequest is the body of POST /api/games/{id}/move: either Notation
// ("8H WORD", "H8 WORD", "-ABC", "-") or Kind with Tiles (place) or
// Exchange (letters, "?" for a blank).
type moveRequest struct {
	Kind     string       `json:"kind,omitempty"`
	Notation string       `json:"notation,omitempty"`
	Tiles    []PlacedTile `json:"tiles,omitempty"`
	Exchange []string     `json:"exchange,omitempty"`
}

// decodeMove reads a move request against board b. It checks the shape
// of the request; the rules are checked by the game.
func decodeMove(data []byte, b *board.Board) (*move.Move, error) {
	var req moveRequest
	if err := decodeJSON(data, &req); err != nil {
		return nil, err
	}
	a := b.Variant.Alphabet
	bad := func(format string, args ...any) error { return &apiError{400, fmt.Sprintf(format, args...)} }
	if req.Notation != "" {
		if req.Kind != "" || req.Tiles != nil || req.Exchange != nil {
			return nil, bad("give either notation or kind, not both")
		}
		if len(req.Notation) > 200 {
			return nil, bad("notation too long")
		}
		m, err := move.Parse(b, req.Notation)
		if err != nil {
			return nil, bad("%s", short(err.Error(), 120))
		}
		return m, nil
	}
	switch req.Kind {
	case "pass":
		if req.Tiles != nil || req.Exchange != nil {
			return nil, bad("a pass takes no tiles")
		}
		return &move.Move{Kind: move.Pass}, nil
	case "exchange":
		if req.Tiles != nil {
			return nil, bad("an exchange lists its tiles in \"exchange\"")
		}
		if len(req.Exchange) == 0 || len(req.Exchange) > b.Variant.RackSize {
			return nil, bad("exchange %d tiles: give 1 to %d", len(req.Exchange), b.Variant.RackSize)
		}
		m := &move.Move{Kind: move.Exchange}
		for _, s := range req.Exchange {
			if s == "?" {
				m.Exchanged = append(m.Exchanged, alphabet.Blank)
				continue
			}
			t, err := a.Letter(s, alphabet.Plain)
			if err != nil || s != a.String(t) {
				return nil, bad("exchange: %q is not a tile of %s (write letters in capitals, a blank as ?)", short(s, 10), b.Variant.Name)
			}
			m.Exchanged = append(m.Exchanged, t)
		}
		return m, nil
	case "place":
		if req.Exchange != nil {
			return nil, bad("a placement lists its tiles in \"tiles\"")
		}
		return placement(b, req.Tiles)
	case "":
		return nil, bad("give \"kind\" (place, exchange, pass) or \"notation\"")
	}
	return nil, bad("unknown kind %q: want place, exchange or pass", short(req.Kind, 40))
}

// placement turns tiles put on squares into a move: the squares must lie
// in one line, and with the tiles already on the board form one unbroken
// word; the main word is extended over neighbouring tiles.
func placement(b *board.Board, ps []PlacedTile) (*move.Move, error) {
	a := b.Variant.Alphabet
	bad := func(format string, args ...any) error { return &apiError{422, fmt.Sprintf(format, args...)} }
	if len(ps) == 0 {
		return nil, &apiError{400, "a placement needs at least one tile"}
	}
	if len(ps) > b.Variant.RackSize {
		return nil, &apiError{400, fmt.Sprintf("%d tiles: a rack holds %d", len(ps), b.Variant.RackSize)}
	}
	placed := map[[2]int]alphabet.Tile{}
	for _, p := range ps {
		if !b.In(p.Row, p.Col) {
			return nil, &apiError{400, fmt.Sprintf("square row %d, column %d is off the %d×%d board", p.Row, p.Col, b.Size, b.Size)}
		}
		sq := variant.SquareName(p.Row, p.Col)
		t, err := a.Letter(p.Letter, alphabet.Plain)
		if err != nil || p.Letter != a.String(t) {
			return nil, &apiError{400, fmt.Sprintf("%s: %q is not a letter of %s (write it in capitals)", sq, short(p.Letter, 10), b.Variant.Name)}
		}
		if p.Blank {
			t |= alphabet.BlankBit
		}
		if _, dup := placed[[2]int{p.Row, p.Col}]; dup {
			return nil, &apiError{400, fmt.Sprintf("two tiles on %s", sq)}
		}
		if b.At(p.Row, p.Col) != board.Empty {
			return nil, bad("square %s is already taken", sq)
		}
		placed[[2]int{p.Row, p.Col}] = t
	}
	r0, c0 := ps[0].Row, ps[0].Col
	sameRow, sameCol := true, true
	for _, p := range ps {
		sameRow = sameRow && p.Row == r0
		sameCol = sameCol && p.Col == c0
	}
	occupied := func(r, c int) bool {
		if !b.In(r, c) {
			return false
		}
		_, ok := placed[[2]int{r, c}]
		return ok || b.At(r, c) != board.Empty
	}
	var dir board.Dir
	switch {
	case len(ps) == 1:
		// One tile: across if it has a neighbour across, else down if it
		// has one down, else across (the rules will refuse it).
		if !occupied(r0, c0-1) && !occupied(r0, c0+1) && (occupied(r0-1, c0) || occupied(r0+1, c0)) {
			dir = board.Down
		}
	case sameRow:
		dir = board.Across
	case sameCol:
		dir = board.Down
	default:
		return nil, bad("the tiles must lie in one row or one column")
	}
	step := func(r, c, k int) (int, int) {
		if dir == board.Across {
			return r, c + k
		}
		return r + k, c
	}
	// Walk back to the first square of the word, then forward to its end.
	sr, sc := r0, c0
	for {
		pr, pc := step(sr, sc, -1)
		if !occupied(pr, pc) {
			break
		}
		sr, sc = pr, pc
	}
	m := &move.Move{Kind: move.Place, Row: sr, Col: sc, Dir: dir}
	seen := 0
	for r, c := sr, sc; occupied(r, c); r, c = step(r, c, 1) {
		if t, ok := placed[[2]int{r, c}]; ok {
			m.Tiles = append(m.Tiles, t)
			seen++
		} else {
			m.Tiles = append(m.Tiles, move.PlayThrough)
		}
	}
	if seen != len(ps) {
		return nil, bad("the tiles must form one word without gaps")
	}
	return m, nil
}

// State is the answer of GET /api/games/{id}: what anyone may see, and,
// for the holder of a seat's token, that seat's rack and unseen tiles.
type State struct {
	ID       string       `json:"id"`
	Variant  string       `json:"variant"`
	Lexicon  string       `json:"lexicon"`
	Size     int          `json:"size"`
	RackSize int          `json:"rack_size"`
	Start    [2]int       `json:"start"`
	Premiums []string     `json:"premiums"`
	Letters  []LetterInfo `json:"letters"`
	Seats    []SeatInfo   `json:"seats"`
	Started  bool         `json:"started"`
	Over     bool         `json:"over"`
	Turn     int          `json:"turn"`
	Bag      int          `json:"bag"`
	Board    []Tile       `json:"board"`
	History  []HistEntry  `json:"history"`
	Winners  []int        `json:"winners,omitempty"`
	// Abandoned is set for a game ended because nobody played it.
	Abandoned bool `json:"abandoned,omitempty"`
	// Resigned is the seat that resigned; Aborted is set for a game
	// called off before its first move; Listed for a game offered in the
	// lobby.
	Resigned  *int `json:"resigned,omitempty"`
	Aborted   bool `json:"aborted,omitempty"`
	Listed    bool `json:"listed,omitempty"`
	Moves     int  `json:"moves"`
	Expected  int  `json:"expected_clients"`
	Connected int  `json:"connected_clients"`
	// Seq is the number of the game's latest notification: reading the
	// notifications after it continues from this state.
	Seq int  `json:"seq"`
	You *You `json:"you,omitempty"`
}

// LetterInfo is one tile kind of the variant.
type LetterInfo struct {
	Letter string `json:"letter"`
	Score  int    `json:"score"`
	Count  int    `json:"count"`
}

// SeatInfo is a seat as anyone sees it.
type SeatInfo struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
	Taken bool   `json:"taken"`
	Score int    `json:"score"`
	Tiles int    `json:"tiles"`
}

// HistEntry is one line of the move list. Exchanged tiles are never shown,
// only their number.
type HistEntry struct {
	Seat   int    `json:"seat"`
	Kind   string `json:"kind"`
	Move   string `json:"move,omitempty"`
	Count  int    `json:"count,omitempty"`
	Points int    `json:"points"`
	Total  int    `json:"total"`
	Rack   string `json:"rack,omitempty"`
}

// You is the private part of a state.
type You struct {
	Seat   int          `json:"seat"`
	Rack   []Tile       `json:"rack"`
	Unseen []LetterInfo `json:"unseen"`
}

var premiumCode = map[variant.Premium]string{
	{LetterMul: 2, WordMul: 1}: "dl", {LetterMul: 3, WordMul: 1}: "tl",
	{LetterMul: 1, WordMul: 2}: "dw", {LetterMul: 1, WordMul: 3}: "tw",
	{LetterMul: 4, WordMul: 1}: "ql", {LetterMul: 1, WordMul: 4}: "qw",
}

// variantStatic is the part of a state that every game of a variant
// shares, built once: as values, and as JSON for writeState.
type variantStatic struct {
	premiums                  []string
	letters                   []LetterInfo
	premiumsJSON, lettersJSON json.RawMessage
}

var statics sync.Map // variant name → *variantStatic

func staticOf(v *variant.Variant) *variantStatic {
	if vs, ok := statics.Load(v.Name); ok {
		return vs.(*variantStatic)
	}
	vs := &variantStatic{}
	for r := 0; r < v.Size; r++ {
		var row strings.Builder
		for c := 0; c < v.Size; c++ {
			code := premiumCode[v.Premium(r, c)]
			if code == "" {
				code = ".."
			}
			row.WriteString(code)
		}
		vs.premiums = append(vs.premiums, row.String())
	}
	vs.letters = append(vs.letters, LetterInfo{Letter: "?", Score: v.Scores[0], Count: v.Counts[0]})
	for i, name := range v.Alphabet.Letters() {
		vs.letters = append(vs.letters, LetterInfo{Letter: name, Score: v.Scores[i+1], Count: v.Counts[i+1]})
	}
	vs.premiumsJSON, _ = json.Marshal(vs.premiums)
	vs.lettersJSON, _ = json.Marshal(vs.letters)
	got, _ := statics.LoadOrStore(v.Name, vs)
	return got.(*variantStatic)
}

// stateWire is a State as written: the variant's premiums and letters
// go out as JSON made once (these fields hide the State's own).
type stateWire struct {
	*State
	Premiums json.RawMessage `json:"premiums"`
	Letters  json.RawMessage `json:"letters"`
}

// writeState answers a state.
func writeState(w http.ResponseWriter, st *State) {
	vs, ok := statics.Load(st.Variant)
	if !ok {
		writeJSON(w, 200, st)
		return
	}
	writeJSON(w, 200, stateWire{State: st, Premiums: vs.(*variantStatic).premiumsJSON, Letters: vs.(*variantStatic).lettersJSON})
}

// state renders the game for seat me (-1: a spectator). Caller holds mu.
func (l *live) state(me int) *State {
	v, g := l.v, l.g
	st := &State{ID: l.hdr.ID, Variant: v.Name, Lexicon: l.hdr.Lexicon, Size: v.Size, RackSize: v.RackSize,
		Start: [2]int{v.StartRow, v.StartCol}, Started: l.started(), Over: l.over(), Turn: g.Current(),
		Bag: g.BagLen(), History: []HistEntry{}, Moves: g.MovesPlayed(),
		Expected: len(l.seat), Connected: l.connected(), Seq: l.log.latest}
	vs := staticOf(v)
	st.Premiums, st.Letters = vs.premiums, vs.letters
	n := 0
	for r := 0; r < v.Size; r++ {
		for c := 0; c < v.Size; c++ {
			if g.Board.At(r, c) != board.Empty {
				n++
			}
		}
	}
	st.Board = make([]Tile, 0, n)
	rc := make([]int, 0, 3*n) // the tiles' rows, columns and turns, one allocation
	for r := 0; r < v.Size; r++ {
		for c := 0; c < v.Size; c++ {
			if t := g.Board.At(r, c); t != board.Empty {
				tl := l.tile(t)
				rc = append(rc, r, c, g.Board.TurnAt(r, c))
				tl.Row, tl.Col, tl.Move = &rc[len(rc)-3], &rc[len(rc)-2], &rc[len(rc)-1]
				st.Board = append(st.Board, tl)
			}
		}
	}
	for i, s := range l.seat {
		si := SeatInfo{Name: s.name, Kind: "human", Level: s.level, Taken: s.taken, Score: g.Seats[i].Score,
			Tiles: g.Seats[i].Rack.Len()}
		if s.level != "" {
			si.Kind = "computer"
		}
		st.Seats = append(st.Seats, si)
	}
	// The history only grows: its entries are rendered once.
	for _, h := range g.History[len(l.hist):] {
		e := HistEntry{Seat: h.Player, Points: h.Points, Total: h.Total}
		switch h.Kind {
		case game.Played:
			e.Kind = kindNames[h.Move.Kind]
			switch h.Move.Kind {
			case move.Place:
				e.Move = h.Notation
			case move.Exchange:
				e.Count = len(h.Move.Exchanged)
			}
		case game.OutBonus:
			e.Kind, e.Rack = "out_bonus", v.Alphabet.RackString(&h.Rack)
		case game.RackPenalty:
			e.Kind, e.Rack = "rack_penalty", v.Alphabet.RackString(&h.Rack)
		}
		l.hist = append(l.hist, e)
	}
	st.History = l.hist[:len(l.hist):len(l.hist)]
	if st.History == nil {
		st.History = []HistEntry{}
	}
	if g.Over() {
		st.Winners = g.Winners()
	}
	st.Abandoned = l.abandoned
	if rs := g.Resigned(); rs >= 0 {
		st.Resigned = intp(rs)
	}
	st.Aborted, st.Listed = g.Aborted(), l.listed
	if me >= 0 {
		you := &You{Seat: me, Rack: l.rackTiles(&g.Seats[me].Rack), Unseen: []LetterInfo{}}
		un := g.Unseen(me)
		for t := 0; t <= v.Alphabet.Size(); t++ {
			if un[t] > 0 {
				li := LetterInfo{Letter: "?", Count: int(un[t]), Score: v.Scores[t]}
				if t > 0 {
					li.Letter = v.Alphabet.String(alphabet.Tile(t))
				}
				you.Unseen = append(you.Unseen, li)
			}
		}
		st.You = you
	}
	return st
}

// token reads a seat token from the Authorization header ("Bearer ...")
// or, for the WebSocket only (a browser cannot set its headers), the
// token query parameter. A token in the address of any other request is
// refused before it gets here (see ServeHTTP): addresses end up in logs
// and histories.
func token(r *http.Request) string {
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimSpace(h[len("Bearer "):])
	}
	if isWS(r) {
		return r.URL.Query().Get("token")
	}
	return ""
}

// isWS reports whether r asks for the notification WebSocket.
func isWS(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/games/") && strings.HasSuffix(r.URL.Path, "/ws")
}

func (s *Server) routes() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/info", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, s.info()) })
	mux.HandleFunc("GET /metrics", s.handleMetrics)
	mux.HandleFunc("POST /api/games", s.handleCreate)
	mux.HandleFunc("GET /api/games/{id}", s.handleState)
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("POST /api/games/{id}/move", s.handleMove)
	mux.HandleFunc("GET /api/games/{id}/notifications", s.handleNotifications)
	mux.HandleFunc("GET /api/games/{id}/ws", s.handleWS)
	mux.HandleFunc("GET /api/games/{id}/gcg", s.handleGCG)
	mux.HandleFunc("POST /api/games/{id}/preview", s.handlePreview)
	mux.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	mux.HandleFunc("POST /api/games/{id}/abort", s.handleAbort)
	mux.HandleFunc("POST /api/games/{id}/list", s.handleList)
	mux.HandleFunc("GET /api/lobby", s.handleLobby)
	mux.HandleFunc("GET /api/games/{id}/review", s.handleReview)
	mux.HandleFunc("GET /api/games/{id}/analysis", s.handleAnalysis)
	mux.HandleFunc("POST /api/analyze", s.handleAnalyze)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, errorBody{"no such API endpoint: " + r.Method + " " + r.URL.Path})
	})
	if s.cfg.Static != nil {
		files := http.FileServerFS(s.cfg.Static)
		page := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, s.cfg.Static, "index.html")
		}
		mux.HandleFunc("GET /{$}", page)
		mux.HandleFunc("GET /g/{id}", page)
		mux.Handle("GET /static/", http.StripPrefix("/static/", files))
		mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { http.ServeFileFS(w, r, s.cfg.Static, "favicon.ico") })
	}
	s.mux = mux
}

// answerTimeout bounds the writing of an answer (a long poll adds its
// wait; the WebSocket lifts it).
const answerTimeout = 30 * time.Second

// ServeHTTP implements http.Handler. Before an API request reaches its
// handler it checks the client's allowance of refused requests, refuses
// a state-changing request sent by a browser from another site, and
// refuses a seat token in the address (except for the WebSocket).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		s.mux.ServeHTTP(w, r)
		return
	}
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(answerTimeout))
	key := ""
	if s.badLim != nil {
		key = s.clientKey(r)
	}
	if out, retry := s.badLim.empty(key, time.Now()); out {
		s.count.requests.Add(1)
		s.count.limited.Add(1)
		s.fail(w, tooMany("refused requests", retry))
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	switch {
	case s.cop.Check(r) != nil:
		s.fail(sw, &apiError{403, "cross-site request refused: this server takes state-changing requests only from its own pages (or a trusted origin)"})
	case strings.Contains(r.URL.RawQuery, "token") && r.URL.Query().Has("token") && !isWS(r):
		s.fail(sw, &apiError{400, "a seat token goes in the Authorization header (Bearer TOKEN), not in the address"})
	default:
		s.mux.ServeHTTP(sw, r)
	}
	s.count.requests.Add(1)
	switch {
	case sw.code == 429:
		s.count.limited.Add(1)
	case sw.code >= 400 && sw.code < 500:
		s.count.refused.Add(1)
		s.badLim.take(key, time.Now())
	}
}

// CreateResponse is the answer of POST /api/games.
type CreateResponse struct {
	ID    string `json:"id"`
	Seats int    `json:"seats"`
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.createLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("new games", retry))
		return
	}
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	req, err := s.decodeCreate(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	l, err := s.create(r.Context(), req)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 201, CreateResponse{ID: l.hdr.ID, Seats: len(req.Seats)})
}

// JoinResponse is the answer of POST /api/games/{id}/join. The token is
// shown once: it is the only key to the seat.
type JoinResponse struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.joinLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("seats taken", retry))
		return
	}
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	req, err := decodeJoin(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	want := -1
	if req.Seat != nil {
		want = *req.Seat
	}
	tok := randomHex(24)
	l.mu.Lock()
	seatNo, err := l.join(r.Context(), want, req.Name, tok)
	if err == nil {
		l.afterChange()
	}
	l.mu.Unlock()
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, JoinResponse{Seat: seatNo, Token: tok})
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	tok := token(r)
	l.mu.Lock()
	me := l.seatOf(tok)
	if tok != "" && me < 0 {
		l.mu.Unlock()
		s.fail(w, &apiError{403, "this token holds no seat of this game"})
		return
	}
	st := l.state(me)
	l.mu.Unlock()
	writeState(w, st)
}

// authed finds the game and the seat of the request's token.
func (s *Server) authed(r *http.Request) (*live, int, error) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, -1, err
	}
	tok := token(r)
	if tok == "" {
		return nil, -1, &apiError{401, "this needs a seat's token (Authorization: Bearer TOKEN)"}
	}
	l.mu.Lock()
	me := l.seatOf(tok)
	l.mu.Unlock()
	if me < 0 {
		return nil, -1, &apiError{403, "this token holds no seat of this game"}
	}
	return l, me, nil
}

// MoveResponse is the answer to an accepted move.
type MoveResponse struct {
	Move  string `json:"move"`
	Score int    `json:"score"`
	Over  bool   `json:"over"`
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	l, me, err := s.authed(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.mayMove(me); err != nil {
		s.fail(w, err)
		return
	}
	m, err := decodeMove(data, l.g.Board)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			l.reject(me, ae)
		}
		s.fail(w, err)
		return
	}
	notation := ""
	if m.Kind == move.Place {
		notation = m.String(l.g.Board)
	}
	played, err := l.play(r.Context(), me, *m)
	if err != nil {
		s.fail(w, err)
		return
	}
	if m.Kind != move.Place {
		notation = kindNames[m.Kind]
	}
	writeJSON(w, 200, MoveResponse{Move: notation, Score: played.Score, Over: l.over()})
}

// maxWait bounds a long poll.
const maxWait = 60 * time.Second

// parseWait reads the wait parameter: seconds, at most maxWait.
func parseWait(ws string) (time.Duration, error) {
	if ws == "" {
		return 0, nil
	}
	sec, err := strconv.ParseFloat(ws, 64)
	if err != nil || sec < 0 || sec != sec {
		return 0, &apiError{400, "wait: want a number of seconds from 0 to 60"}
	}
	if sec >= maxWait.Seconds() {
		return maxWait, nil
	}
	return time.Duration(sec * float64(time.Second)), nil
}

// parseAfter reads a notification cursor (after=SEQ); ok is false when
// there is none.
func parseAfter(r *http.Request) (after int, ok bool, err error) {
	q := r.URL.Query()
	if !q.Has("after") {
		return 0, false, nil
	}
	a, err := strconv.Atoi(q.Get("after"))
	if err != nil || a < 0 {
		return 0, false, &apiError{400, "after: want the seq of the last notification read (an integer, 0 or more)"}
	}
	return a, true, nil
}

// handleNotifications answers the seat's notifications after the cursor
// given as after=SEQ, or, without one, those not yet taken from the
// seat's queue (Consultar in Guberman et al., section 3). With wait=s it waits up to s seconds
// for one when there are none.
func (s *Server) handleNotifications(w http.ResponseWriter, r *http.Request) {
	l, me, err := s.authed(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	wait, err := parseWait(r.URL.Query().Get("wait"))
	if err != nil {
		s.fail(w, err)
		return
	}
	after, cursor, err := parseAfter(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if r.ContentLength != 0 {
		s.fail(w, &apiError{400, "this request takes no body"})
		return
	}
	if wait > 0 {
		// The request is read: lift the read deadline for the wait.
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Now().Add(wait + answerTimeout))
		rc.SetWriteDeadline(time.Now().Add(wait + answerTimeout))
	}
	ctx, cancel := context.WithTimeout(r.Context(), wait)
	defer cancel()
	for {
		l.mu.Lock()
		var out [][]byte
		if cursor {
			out, _ = l.log.since(me, after)
		} else {
			out = l.log.drain(me)
		}
		wake := l.log.wake
		l.mu.Unlock()
		if len(out) > 0 || wait == 0 {
			writeRawJSON(w, 200, jsonArray(out))
			return
		}
		select {
		case <-wake:
		case <-ctx.Done():
			writeRawJSON(w, 200, []byte("[]"))
			return
		}
	}
}
