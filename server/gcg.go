package server

import (
	"net/http"
)

func (s *Server) handleGCG(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.g.Over() {
		s.fail(w, &apiError{409, "the game is not over: its record shows racks, so it is given only at the end"})
		return
	}
	text, err := writeGCG(l)
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="atril-`+l.hdr.ID+`.gcg"`)
	w.Write([]byte(text))
}
