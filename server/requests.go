package server

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/player"
	"atril/variant"
)

// The bodies of the requests that create games, take seats and move,
// and their decoding: every field checked before anything changes.

// SeatRequest is one seat of a new game: a person ("human") or the
// computer at a level.
type SeatRequest struct {
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
	Name  string `json:"name,omitempty"`
	// Invite keeps a person's seat for the player account of this name:
	// only it may take the seat, and the game is listed among its games
	// as an invitation (the game's creator must be signed in).
	Invite string `json:"invite,omitempty"`
	// RatingMin and RatingMax keep a free person's seat of a rated game
	// for the accounts rated from RatingMin to RatingMax in its word list
	// (0: no bound on that side; an account yet without a rating there
	// counts as a newcomer, rating.DefaultR).
	RatingMin int `json:"rating_min,omitempty"`
	RatingMax int `json:"rating_max,omitempty"`
	// inviteKey is the invited account's key, invitedBy the name of the
	// account that invites it (set by handleCreate).
	inviteKey, invitedBy string
}

// maxRatingBound bounds the rating range of a seat.
const maxRatingBound = 4000

// createRequest is the body of POST /api/games.
type createRequest struct {
	Variant string        `json:"variant"`
	Lexicon string        `json:"lexicon,omitempty"`
	Seats   []SeatRequest `json:"seats"`
	Seed    *uint64       `json:"seed,omitempty"`
	// Clock gives every person's seat a clock (none: untimed).
	Clock *ClockRequest `json:"clock,omitempty"`
	// Challenge is the challenge rule: void (the default), single,
	// double, 5pt or 10pt.
	Challenge string `json:"challenge,omitempty"`
	// Rated makes a game between two people that changes their ratings:
	// both seats are taken by signed-in accounts.
	Rated bool `json:"rated,omitempty"`
	// tournament is the game's place in a tournament (set by the
	// server for the games of a round).
	tournament *TournamentRef
	// creator is the client that asks for the game through the API.
	creator string
}

// computersOnly says whether the game asked for has no person's seat.
func (req *createRequest) computersOnly() bool {
	return !slices.ContainsFunc(req.Seats, func(st SeatRequest) bool { return st.Kind != "computer" })
}

// decodeCreate reads and checks a create request.
func (s *Server) decodeCreate(data []byte) (*createRequest, error) {
	var req createRequest
	if err := decodeJSON(data, &req); err != nil {
		return nil, err
	}
	if err := s.checkCreate(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

// checkCreate checks a create request and fills in its defaults.
func (s *Server) checkCreate(req *createRequest) error {
	if req.Variant == "" {
		req.Variant = "english"
	}
	if !s.variantAllowed(req.Variant) {
		return &apiError{400, fmt.Sprintf("unknown variant %q (have %s)", short(req.Variant, 40), strings.Join(s.cfg.Variants, ", "))}
	}
	v, err := s.loadVariant(req.Variant)
	if err != nil {
		return &apiError{400, short(err.Error(), 120)}
	}
	if req.Lexicon == "" {
		req.Lexicon = v.DefaultLexicon
	}
	if !s.lexiconAllowed(v, req.Lexicon) {
		return &apiError{400, fmt.Sprintf("word list %q is not offered for %s", short(req.Lexicon, 40), req.Variant)}
	}
	if req.Seed != nil && !s.cfg.AllowSeed {
		return &apiError{400, "this server does not take chosen seeds: the seed decides the whole bag (start it with --allow-seed for tests)"}
	}
	if len(req.Seats) < 2 || len(req.Seats) > 4 {
		return &apiError{400, fmt.Sprintf("%d seats: a game has 2 to 4", len(req.Seats))}
	}
	if req.Clock != nil {
		if err := req.Clock.check(); err != nil {
			return err
		}
	}
	rule, err := game.ParseChallengeRule(req.Challenge)
	if err != nil {
		return &apiError{400, short(err.Error(), 120)}
	}
	req.Challenge = ""
	if rule != game.Void {
		req.Challenge = rule.String()
	}
	if req.Rated {
		if len(req.Seats) != 2 {
			return &apiError{400, "a rated game has two seats"}
		}
		if req.Seats[0].Kind == "computer" && req.Seats[1].Kind == "computer" {
			return &apiError{400, "a rated game has a person's seat: two computers are not rated"}
		}
		if req.Seed != nil {
			return &apiError{400, "a rated game takes no chosen seed"}
		}
		if req.Clock == nil {
			// Without one, a player losing could leave the game to
			// expire unrated instead of losing it on time.
			return &apiError{400, "a rated game has a clock"}
		}
	}
	levels := player.Levels()
	for i := range req.Seats {
		st := &req.Seats[i]
		if st.Name, err = checkName(st.Name, st.Kind != "computer"); err != nil {
			return &apiError{400, fmt.Sprintf("seat %d: %v", i, err)}
		}
		switch st.Kind {
		case "human", "":
			st.Kind = "human"
			if st.Level != "" {
				return &apiError{400, fmt.Sprintf("seat %d: a person's seat has no level", i)}
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
				return &apiError{400, fmt.Sprintf("seat %d: unknown level %q (have %s)", i, short(st.Level, 40), strings.Join(levels, ", "))}
			}
		default:
			return &apiError{400, fmt.Sprintf("seat %d: kind %q: want \"human\" or \"computer\"", i, short(st.Kind, 40))}
		}
		if st.Invite != "" && st.Kind != "human" {
			return &apiError{400, fmt.Sprintf("seat %d: only a person's seat is kept for an invited player", i)}
		}
		if err := st.checkRange(req.Rated); err != nil {
			return &apiError{400, fmt.Sprintf("seat %d: %v", i, err)}
		}
	}
	return nil
}

// checkRange checks the seat's rating range, in a game rated or not.
func (st *SeatRequest) checkRange(rated bool) error {
	lo, hi := st.RatingMin, st.RatingMax
	switch {
	case lo == 0 && hi == 0:
		return nil
	case !rated:
		return fmt.Errorf("a rating range is for a rated game")
	case st.Invite != "":
		return fmt.Errorf("a seat kept for an invited player has no rating range")
	case lo < 0 || hi < 0 || lo > maxRatingBound || hi > maxRatingBound:
		return fmt.Errorf("a rating range lies within 0 to %d", maxRatingBound)
	case hi != 0 && lo > hi:
		return fmt.Errorf("rating range %d to %d: the lower bound is above the upper", lo, hi)
	}
	return nil
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
	req, ok := fastMoveRequest(data)
	if !ok || len(data) > maxBody {
		req = moveRequest{}
		if err := decodeJSON(data, &req); err != nil {
			return nil, err
		}
	}
	return req.toMove(b)
}

// toMove reads the move of a request against board b. It checks the
// shape of the request; the rules are checked by the game.
func (req *moveRequest) toMove(b *board.Board) (*move.Move, error) {
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

// placement reads the tiles of a placement request (400 for a malformed
// one: no tiles, too many, a square off the board, an unknown letter)
// and leaves the geometry to move.FromSquares (422 when it refuses).
func placement(b *board.Board, ps []PlacedTile) (*move.Move, error) {
	a := b.Variant.Alphabet
	if len(ps) == 0 {
		return nil, &apiError{400, "a placement needs at least one tile"}
	}
	if len(ps) > b.Variant.RackSize {
		return nil, &apiError{400, fmt.Sprintf("%d tiles: a rack holds %d", len(ps), b.Variant.RackSize)}
	}
	sq := make([]move.SquareTile, len(ps))
	for i, p := range ps {
		if !b.In(p.Row, p.Col) {
			return nil, &apiError{400, fmt.Sprintf("square row %d, column %d is off the %d×%d board", p.Row, p.Col, b.Size, b.Size)}
		}
		t, err := a.Letter(p.Letter, alphabet.Plain)
		if err != nil || p.Letter != a.String(t) {
			return nil, &apiError{400, fmt.Sprintf("%s: %q is not a letter of %s (write it in capitals)",
				variant.SquareName(p.Row, p.Col), short(p.Letter, 10), b.Variant.Name)}
		}
		if p.Blank {
			t |= alphabet.BlankBit
		}
		sq[i] = move.SquareTile{Row: p.Row, Col: p.Col, Tile: t}
	}
	m, err := move.FromSquares(b, sq)
	if err != nil {
		return nil, &apiError{422, err.Error()}
	}
	return m, nil
}
