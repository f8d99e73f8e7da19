package server

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
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
	// Played is the move that made the position (POST /api/position/play);
	// Over says that it ended the game, the scores being final.
	Played *PlayedMove `json:"played,omitempty"`
	Over   bool        `json:"over,omitempty"`
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
// word list (the request's, or the line's lex opcode: see
// offeredLexicon), applies its edits and its rack or draw, and starts a
// game at it.
func (s *Server) positionOf(req *PositionRequest) (*position, error) {
	if strings.TrimSpace(req.CGP) == "" {
		return nil, &apiError{400, "give the position as \"cgp\": a CGP line"}
	}
	p, err := cgp.ParseText(req.CGP)
	if err != nil {
		return nil, &apiError{422, short(err.Error(), 200)}
	}
	for i, sc := range p.Scores {
		if sc < -maxPositionScore || sc > maxPositionScore {
			return nil, &apiError{422, fmt.Sprintf("score %d is %d: scores run from %d to %d", i+1, sc, -maxPositionScore, maxPositionScore)}
		}
	}
	if p.ZeroTurns > maxPositionScore {
		return nil, &apiError{422, fmt.Sprintf("%d scoreless turns: at most %d", p.ZeroTurns, maxPositionScore)}
	}
	name := req.Lexicon
	if name == "" {
		name = p.Lexicon()
	}
	if name == "" {
		return nil, &apiError{422, "say which word list: \"lexicon\", or a lex opcode in the CGP line"}
	}
	pos := &position{p: p, lexicon: s.offeredLexicon(name)}
	if pos.lexicon != "" {
		pos.v = s.variantOfLexicon(pos.lexicon)
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
		seed = randomSeed()
	}
	if pos.g, err = p.Game(pos.lr.lex, seed); err != nil {
		return nil, &apiError{422, short(err.Error(), 200)}
	}
	if req.Draw {
		// The rack on turn draws first, from every tile it cannot see
		// (the bag and the racks the line does not give), in the seed's
		// order; the game is then started again, the others' racks
		// filled from what is left.
		var pool []alphabet.Tile
		for i := 1; i < len(pos.g.Seats); i++ {
			drawn := pos.g.Seats[i].Rack
			for _, t := range p.RackTiles[i].Tiles() {
				drawn.Remove(t)
			}
			pool = append(pool, drawn.Tiles()...)
		}
		pool = append(pool, pos.g.Bag()...)
		slices.Sort(pool)
		rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		rack := &p.RackTiles[0]
		for rack.Len() < pos.v.RackSize && len(pool) > 0 {
			rack.Add(pool[len(pool)-1])
			pool = pool[:len(pool)-1]
		}
		if pos.g, err = p.Game(pos.lr.lex, seed); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

// maxPositionScore bounds a position's scores (either way) and its count
// of scoreless turns, so that the line of the position after a move
// still reads.
const maxPositionScore = 1_000_000

// offeredLexicon is the offered word list a position's lexicon names: by
// its full name or the part after its language, in any case; a Collins
// list (CSW19, CSW21, ...) is read as SOWPODS, its earlier name. "" when
// none.
func (s *Server) offeredLexicon(name string) string {
	if len(name) > 3 && strings.EqualFold(name[:3], "CSW") {
		name = "sowpods"
	}
	for _, l := range s.cfg.Lexicons {
		_, after, _ := strings.Cut(l, "-")
		if strings.EqualFold(name, l) || strings.EqualFold(name, after) {
			return l
		}
	}
	return ""
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

// handlePositionPlay plays a move of the player on turn, under the
// rules of a game, and answers the position after it: the next player
// on turn, with the rack the line gives it (or, with the bag empty and
// two players, the tiles it must hold; otherwise none); the player who
// moved last, with the tiles it kept (it has not drawn: the draw is not
// known); the scores and scoreless turns as the game counts them. A move
// that ends the game (going out with the bag empty, or the last of the
// scoreless turns allowed) answers the final scores and Over.
func (s *Server) handlePositionPlay(w http.ResponseWriter, r *http.Request) {
	req, pos, ok := s.readPosition(w, r)
	if !ok {
		return
	}
	if req.Move == nil {
		s.fail(w, &apiError{400, "give the move to play as \"move\""})
		return
	}
	if req.Tiles != nil || req.Put != "" || req.Clear != "" || req.Draw || req.Rack != nil {
		s.fail(w, &apiError{400, "a play takes the position and the move only"})
		return
	}
	g, p, v := pos.g, pos.p, pos.v
	m, err := req.Move.toMove(g.Board)
	if err != nil {
		s.fail(w, err)
		return
	}
	notation := m.String(g.Board)
	if err := g.Play(*m); err != nil {
		s.fail(w, &apiError{422, short(err.Error(), 200)})
		return
	}
	var turn *game.Turn
	for i := range g.History {
		if g.History[i].Kind == game.Played {
			turn = &g.History[i]
		}
	}
	played := &PlayedMove{Move: notation, Kind: kindNames[m.Kind], Score: turn.Move.Score}
	kept := turn.Move.Kept(turn.Rack)
	if m.Kind == move.Place {
		played.Tiles = placedTiles(v, &turn.Move)
	}
	k := len(g.Seats)
	racks := make([]alphabet.Rack, 0, k)
	scores := make([]int, 0, k)
	for i := 1; i <= k; i++ {
		seat := i % k
		rack := p.RackTiles[seat]
		switch {
		case seat == 0:
			rack = kept
		case rack.Len() == 0 && g.BagLen() == 0 && k == 2:
			rack = g.Seats[seat].Rack
		}
		racks = append(racks, rack)
		scores = append(scores, g.Seats[seat].Score)
	}
	line := cgp.New(v, g.Board, racks, scores, g.ScorelessTurns(), pos.lexicon).String()
	next := &PositionRequest{CGP: line, Lexicon: pos.lexicon, Seed: req.Seed}
	after, err := s.positionOf(next)
	if err != nil {
		s.fail(w, fmt.Errorf("position after %s: %w", played.Move, err))
		return
	}
	info := after.info()
	info.Played = played
	if g.Over() {
		info.Over = true
		info.State.Over = true
		best := slices.Max(scores)
		info.State.Winners = nil
		for i, sc := range scores {
			if sc == best {
				info.State.Winners = append(info.State.Winners, i)
			}
		}
	}
	writeJSON(w, 200, info)
}

// cgpOfView writes a seat's view of a game as a CGP line: the board, the
// seat's rack (the others' are not known to it), the scores from the
// seat on, and the scoreless turns, with the word list as lex opcode.
func cgpOfView(v *variant.Variant, view *player.View, lexicon string) string {
	k := len(view.Scores)
	racks := make([]alphabet.Rack, k)
	racks[0] = view.Rack
	scores := make([]int, 0, k)
	for i := 0; i < k; i++ {
		scores = append(scores, view.Scores[(view.Me+i)%k])
	}
	return cgp.New(v, view.Board, racks, scores, view.ScorelessTurns, lexicon).String()
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
		n, err := strconv.Atoi(ts)
		if err != nil {
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
	l.mu.Lock()
	current, over := l.g.Current(), l.over()
	l.mu.Unlock()
	if !over && view.Me != current {
		// A line puts its first player on turn.
		s.fail(w, &apiError{409, "the seat is not on turn: its position is written once it is"})
		return
	}
	writeJSON(w, 200, GamePosition{CGP: cgpOfView(l.v, view, l.hdr.Lexicon), Lexicon: l.hdr.Lexicon, Turn: turn})
}
