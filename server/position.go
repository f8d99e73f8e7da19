package server

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net/http"
	"strings"

	"atril/alphabet"
	"atril/board"
	"atril/cgp"
	"atril/game"
	"atril/move"
	"atril/player"
	"atril/store"
	"atril/variant"
)

// The analysis board: positions given as CGP lines, set up, previewed,
// played on and analysed without a game on the server. Nothing is kept:
// every request carries its position.

// PositionRequest is the body of POST /api/position and of its preview
// and play: a position as a CGP line (the player on turn first), and the
// word list, when the line has no lex opcode or another one is wanted.
type PositionRequest struct {
	CGP     string `json:"cgp"`
	Lexicon string `json:"lexicon,omitempty"`
	// Rack, when set, replaces the rack of the player on turn (letters,
	// "?" for a blank, multi-letter tiles in brackets).
	Rack *string `json:"rack,omitempty"`
	// Draw fills the rack of the player on turn with tiles drawn at
	// random from those the position leaves unseen, from Seed (0: a seed
	// of the server's choosing).
	Draw bool   `json:"draw,omitempty"`
	Seed uint64 `json:"seed,omitempty"`
	// Put lays a word on the board outside the rules, as a placement is
	// written ("8H WORD" across, "H8 WORD" down; lowercase letters are
	// blanks, letters already there are played through): the tiles come
	// from those unseen. Clear takes the tiles off squares ("H8 I8").
	// Both edit the board, as one transcribes a real one.
	Put   string `json:"put,omitempty"`
	Clear string `json:"clear,omitempty"`
	// Tiles is the placement to preview (POST /api/position/preview).
	Tiles []PlacedTile `json:"tiles,omitempty"`
	// Move is the move to play (POST /api/position/play), as a game's
	// move request.
	Move *moveRequest `json:"move,omitempty"`
}

// PositionInfo is a position of the analysis board: its CGP line in
// canonical form (with the word list as its lex opcode), the word list,
// and the position as a game's state for the player on turn (seat 0).
type PositionInfo struct {
	CGP     string `json:"cgp"`
	Lexicon string `json:"lexicon"`
	State   *State `json:"state"`
	// Played is the move that made the position (POST /api/position/play).
	Played *PlayedMove `json:"played,omitempty"`
}

// PlayedMove is a move played on the analysis board: its notation, its
// score, and for a placement its new tiles (on the new position's board).
type PlayedMove struct {
	Move  string `json:"move"`
	Kind  string `json:"kind"`
	Score int    `json:"score"`
	Tiles []Tile `json:"tiles,omitempty"`
}

// position is a parsed position request: the CGP resolved against its
// variant, its word list, and a game started at it.
type position struct {
	p       *cgp.Position
	v       *variant.Variant
	lexicon string
	lr      *lexRes
	g       *game.Game
}

// readPosition reads a position request's body and sets up its
// position; on failure it has answered.
func (s *Server) readPosition(w http.ResponseWriter, r *http.Request) (*PositionRequest, *position, bool) {
	data, err := readBody(w, r)
	var req PositionRequest
	if err == nil {
		err = decodeJSON(data, &req)
	}
	var pos *position
	if err == nil {
		pos, err = s.positionOf(&req)
	}
	if err != nil {
		s.fail(w, err)
		return nil, nil, false
	}
	return &req, pos, true
}

// positionOf reads the request's CGP line against the variant of its
// word list (the request's, or the line's lex opcode: a list's full name
// or the part after its language, in any case), applies its rack or
// draw, and starts a game at it.
func (s *Server) positionOf(req *PositionRequest) (*position, error) {
	if strings.TrimSpace(req.CGP) == "" {
		return nil, &apiError{400, "give the position as \"cgp\": a CGP line"}
	}
	p, err := cgp.ParseText(req.CGP)
	if err != nil {
		return nil, &apiError{422, short(err.Error(), 200)}
	}
	name := req.Lexicon
	if name == "" {
		name = p.Lexicon()
	}
	if name == "" {
		return nil, &apiError{422, "say which word list: \"lexicon\", or a lex opcode in the CGP line"}
	}
	pos := &position{p: p}
	for _, vn := range s.cfg.Variants {
		v, err := s.loadVariant(vn)
		if err != nil {
			continue
		}
		for _, l := range s.cfg.Lexicons {
			short := l
			if i := strings.IndexByte(l, '-'); i >= 0 {
				short = l[i+1:]
			}
			if (strings.EqualFold(name, l) || strings.EqualFold(name, short)) && s.lexiconAllowed(v, l) {
				pos.v, pos.lexicon = v, l
			}
		}
		if pos.v != nil {
			break
		}
	}
	if pos.v == nil {
		return nil, &apiError{422, fmt.Sprintf("no word list %q is offered here (%s)", short(name, 40), strings.Join(s.cfg.Lexicons, ", "))}
	}
	if req.Rack != nil {
		if len(*req.Rack) > 64 {
			return nil, &apiError{400, "rack too long"}
		}
		p.Racks[0] = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(*req.Rack), " ", ""))
		if strings.ContainsAny(p.Racks[0], "0123456789/") {
			return nil, &apiError{422, fmt.Sprintf("rack %q: write letters, ? for a blank", short(*req.Rack, 20))}
		}
	}
	if err := p.Resolve(pos.v); err != nil {
		return nil, &apiError{422, short(err.Error(), 200)}
	}
	p.SetLexicon(pos.lexicon)
	pos.lr, err = s.lexiconFor(pos.v, pos.lexicon)
	if err != nil {
		return nil, err
	}
	if err := pos.edit(req.Put, req.Clear); err != nil {
		return nil, err
	}
	seed := req.Seed
	if seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	if pos.g, err = p.Game(pos.lr.lex, seed); err != nil {
		return nil, &apiError{422, short(err.Error(), 200)}
	}
	if req.Draw {
		// The bag's tiles are in a random order (the seed's): take the
		// rack's missing tiles from its end, as a draw would.
		bag := pos.g.Bag()
		rack := p.RackTiles[0]
		for rack.Len() < pos.v.RackSize && len(bag) > 0 {
			rack.Add(bag[len(bag)-1])
			bag = bag[:len(bag)-1]
		}
		p.RackTiles[0] = rack
		if err := pos.g.SetRack(0, rack); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

// edit lays the word put on the board and takes the tiles off the
// squares of clear (the tile set's counts are checked when the game is
// started at the position).
func (pos *position) edit(put, clear string) error {
	p, v := pos.p, pos.v
	if len(put) > 100 || len(clear) > 4*v.Size*v.Size {
		return &apiError{400, "edit too long"}
	}
	for _, sq := range strings.Fields(clear) {
		r, c, _, err := move.ParsePosition(sq, v.Size)
		if err != nil {
			return &apiError{422, fmt.Sprintf("clear: %q is not a square (write H8)", short(sq, 10))}
		}
		p.Squares[r*v.Size+c] = board.Empty
	}
	if strings.TrimSpace(put) == "" {
		return nil
	}
	b, err := p.Board(pos.lr.lex)
	if err != nil {
		return err
	}
	m, err := move.Parse(b, strings.TrimSpace(put))
	if err != nil || m.Kind != move.Place {
		msg := "write a word as a placement: 8H WORD across, H8 WORD down"
		if err != nil {
			msg = err.Error()
		}
		return &apiError{422, "put: " + short(msg, 160)}
	}
	sq, ts := m.Placed()
	if len(ts) == 0 {
		return &apiError{422, "put: every square of the word already holds its tile"}
	}
	for k, t := range ts {
		p.Squares[sq[k][0]*v.Size+sq[k][1]] = t
	}
	return nil
}

// info renders the position for its player on turn.
func (pos *position) info() PositionInfo {
	return PositionInfo{CGP: pos.p.String(), Lexicon: pos.lexicon, State: stateOfPosition(pos.v, pos.lexicon, pos.g)}
}

// stateOfPosition renders a game started at a position (a puzzle's or
// the analysis board's) as a game's state for its seat on turn, the
// seats named by their numbers.
func stateOfPosition(v *variant.Variant, lexicon string, g *game.Game) *State {
	l := &live{v: v, g: g, hdr: store.Game{Lexicon: lexicon, Seats: make([]store.Seat, len(g.Seats))}, log: &notifLog{}}
	for i := range g.Seats {
		l.seat = append(l.seat, &seat{name: fmt.Sprint(i + 1), taken: true})
	}
	return l.state(g.Current())
}

// handlePosition answers the position of a CGP line, with the rack of
// the player on turn set or drawn if asked.
func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request) {
	_, pos, ok := s.readPosition(w, r)
	if !ok {
		return
	}
	writeJSON(w, 200, pos.info())
}

// handlePositionPreview scores a placement of the player on turn.
func (s *Server) handlePositionPreview(w http.ResponseWriter, r *http.Request) {
	req, pos, ok := s.readPosition(w, r)
	if !ok {
		return
	}
	g := pos.g
	pv, err := previewOf(g.Board, g.Seats[0].Rack, g.BagLen(), true, req.Tiles)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, pv)
}

// handlePositionPlay plays a move of the player on turn and answers the
// position after it: the next player on turn, with the rack the line
// gives it (empty when it gives none); the player who moved last, with
// the tiles it kept (it has not drawn: the draw is not known); its
// score raised; the scoreless turns counted.
func (s *Server) handlePositionPlay(w http.ResponseWriter, r *http.Request) {
	req, pos, ok := s.readPosition(w, r)
	if !ok {
		return
	}
	if req.Move == nil {
		s.fail(w, &apiError{400, "give the move to play as \"move\""})
		return
	}
	if req.Tiles != nil {
		s.fail(w, &apiError{400, "a move's tiles go in \"move\""})
		return
	}
	m, err := req.Move.toMove(pos.g.Board)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := pos.g.Check(m); err != nil {
		s.fail(w, &apiError{422, short(err.Error(), 200)})
		return
	}
	p, v := pos.p, pos.v
	played := &PlayedMove{Move: m.String(pos.g.Board), Kind: kindNames[m.Kind], Score: m.Score}
	rack := p.RackTiles[0]
	switch m.Kind {
	case move.Place:
		sq, ts := m.Placed()
		for k, t := range ts {
			p.Squares[sq[k][0]*v.Size+sq[k][1]] = t
		}
		played.Tiles = placedTiles(v, m)
		rack = m.Kept(rack)
	case move.Exchange:
		for _, t := range m.Exchanged {
			rack.Remove(t)
		}
	}
	k := len(p.RackTiles)
	p.Scores[0] += m.Score
	p.RackTiles = append(p.RackTiles[1:k:k], rack)
	p.Scores = append(p.Scores[1:k:k], p.Scores[0])
	if m.Score == 0 {
		p.ZeroTurns++
	} else {
		p.ZeroTurns = 0
	}
	next := &PositionRequest{CGP: p.String(), Lexicon: pos.lexicon, Seed: req.Seed}
	after, err := s.positionOf(next)
	if err != nil {
		s.fail(w, fmt.Errorf("position after %s: %w", played.Move, err))
		return
	}
	info := after.info()
	info.Played = played
	writeJSON(w, 200, info)
}

// cgpOfView writes a seat's view of a game as a CGP line: the board, the
// seat's rack (the others' are not known to it), the scores from the
// seat on, and the scoreless turns, with the word list as lex opcode.
func cgpOfView(v *variant.Variant, view *player.View, lexicon string) string {
	n := v.Size
	p := &cgp.Position{V: v, Squares: make([]alphabet.Tile, n*n), ZeroTurns: view.ScorelessTurns}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			p.Squares[r*n+c] = view.Board.At(r, c)
		}
	}
	k := len(view.Scores)
	for i := 0; i < k; i++ {
		seat := (view.Me + i) % k
		var rack alphabet.Rack
		if seat == view.Me {
			rack = view.Rack
		}
		p.RackTiles = append(p.RackTiles, rack)
		p.Scores = append(p.Scores, view.Scores[seat])
	}
	p.SetLexicon(lexicon)
	return p.String()
}

// GamePosition is the answer of GET /api/games/{id}/position: a position
// of a game as a CGP line, for the analysis board.
type GamePosition struct {
	CGP     string `json:"cgp"`
	Lexicon string `json:"lexicon"`
	Turn    int    `json:"turn"`
}

// handleGamePosition answers a position of a game as a CGP line, under
// the rules of its analysis: of a finished game before any of its turns
// (?turn=N), of an unfinished unrated one the current position of the
// token's seat.
func (s *Server) handleGamePosition(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	var req AnalyzeRequest
	if ts := r.URL.Query().Get("turn"); ts != "" {
		var n int
		if _, err := fmt.Sscan(ts, &n); err != nil || fmt.Sprint(n) != ts {
			s.fail(w, &apiError{400, fmt.Sprintf("turn %q is not a number", short(ts, 20))})
			return
		}
		req.Turn = &n
	}
	view, turn, err := s.analysisView(l, req, token(r))
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, GamePosition{CGP: cgpOfView(l.v, view, l.hdr.Lexicon), Lexicon: l.hdr.Lexicon, Turn: turn})
}
