package server

import (
	"bytes"
	"fmt"
	"net/http"

	"atril/gcg"
)

// handleGCG gives a finished game as a GCG file. An unfinished game is
// refused: GCG records every rack, which would show the players' tiles.
func (s *Server) handleGCG(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.over() {
		s.fail(w, &apiError{409, "the game is not over: its record shows racks, so it is given only at the end"})
		return
	}
	data, err := l.gcgRecord()
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="atril-`+l.hdr.ID+`.gcg"`)
	w.Write(data)
}

// gcgRecord writes the finished game as a GCG file: the file as it was
// given for an imported game, else the game's record with its notes.
// Caller holds mu.
func (l *live) gcgRecord() ([]byte, error) {
	if l.imported {
		return []byte(l.gcgText), nil
	}
	var buf bytes.Buffer
	h := &gcg.Header{Lexicon: l.hdr.Lexicon, ID: "atril " + l.hdr.ID,
		Description: fmt.Sprintf("variant %s, seed %d", l.v.Name, l.hdr.Seed)}
	if l.abandoned {
		h.Extra = append(h.Extra, "note abandoned: "+l.abandonReason)
	}
	for _, n := range l.notes.list() {
		if h.Notes == nil {
			h.Notes = map[int][]string{}
		}
		h.Notes[n.Entry] = append(h.Notes[n.Entry], l.seat[n.Seat].name+": "+n.Text)
	}
	if err := gcg.WriteHeader(&buf, l.g, h); err != nil {
		return nil, fmt.Errorf("game %s: write GCG: %w", l.hdr.ID, err)
	}
	return buf.Bytes(), nil
}
