package server

import (
	"errors"
	"net/http"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
)

// previewRequest is the body of POST /api/games/{id}/preview: tiles put
// on squares, as in a placement request.
type previewRequest struct {
	Tiles []PlacedTile `json:"tiles"`
}

// Preview is the answer of POST /api/games/{id}/preview: what the tiles
// would score if played now by the token's seat, under the same
// validation and scoring (package move) as a real move, and the words
// they form. OK is false, with the Reason, when the rules refuse the
// placement; the words formed are listed either way when the tiles lie
// in one line.
type Preview struct {
	OK     bool       `json:"ok"`
	Score  int        `json:"score"`
	Move   string     `json:"move,omitempty"`
	Words  [][]string `json:"words"`
	Bingo  bool       `json:"bingo,omitempty"`
	Reason string     `json:"reason,omitempty"`
}

// handlePreview scores a placement without playing it. It changes
// nothing and works on or off turn (off turn it answers for the board
// as it is now).
func (s *Server) handlePreview(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	var req previewRequest
	if err := decodeJSON(data, &req); err != nil {
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
	if l.over() {
		s.fail(w, &apiError{409, "the game is over"})
		return
	}
	out, err := previewOf(l.g.Board, l.g.Seats[me].Rack, l.g.BagLen(), l.g.ChallengeRule() == game.Void, req.Tiles)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, out)
}

// previewOf is what tiles put on board b would score from rack with
// bagLen tiles in the bag, and the words they form; judged says whether
// the words are checked against the list (not under a challenge rule,
// where that is for a challenge to find out). A placement the rules
// refuse is a Preview with its reason; the error is for a request that
// is not a placement at all.
func previewOf(b *board.Board, rack alphabet.Rack, bagLen int, judged bool, tiles []PlacedTile) (Preview, error) {
	out := Preview{Words: [][]string{}}
	m, err := placement(b, tiles)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.code == 422 {
			out.Reason = ae.msg
			return out, nil
		}
		return out, err
	}
	out.Move = m.String(b)
	a := b.Variant.Alphabet
	for _, word := range move.Words(b, m) {
		ls := make([]string, len(word))
		for i, t := range word {
			ls[i] = a.String(t)
		}
		out.Words = append(out.Words, ls)
	}
	if judged {
		err = move.Validate(b, &rack, m, bagLen)
	} else {
		_, err = move.ValidateUnjudged(b, &rack, m, bagLen)
	}
	if err != nil {
		out.Reason = err.Error()
		return out, nil
	}
	out.OK, out.Score, out.Bingo = true, m.Score, m.NewTiles() == b.Variant.RackSize
	return out, nil
}
