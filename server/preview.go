package server

import (
	"errors"
	"net/http"

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
	b := l.g.Board
	out := Preview{Words: [][]string{}}
	m, err := placement(b, req.Tiles)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.code == 422 {
			out.Reason = ae.msg
			writeJSON(w, 200, out)
			return
		}
		s.fail(w, err)
		return
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
	rack := l.g.Seats[me].Rack
	// Under a challenge rule the preview does not judge words: whether
	// a word is in the list is for a challenge to find out.
	if l.g.ChallengeRule() != game.Void {
		_, err = move.ValidateUnjudged(b, &rack, m, l.g.BagLen())
	} else {
		err = move.Validate(b, &rack, m, l.g.BagLen())
	}
	if err != nil {
		out.Reason = err.Error()
		writeJSON(w, 200, out)
		return
	}
	out.OK, out.Score, out.Bingo = true, m.Score, m.NewTiles() == b.Variant.RackSize
	writeJSON(w, 200, out)
}
