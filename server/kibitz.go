package server

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// The watchers' chat: signed-in players watching a game, who hold none of
// its seats, write lines to each other (POST /api/games/{id}/kibitz).
// The state shows the latest lines to whoever reads it without a seat's
// token, and to everyone once the game is over: the people playing do not
// see what the watchers say about their racks and moves while they play.
// Lines are logged with the game's events, so a restart keeps them. A
// line takes a chat line's allowance (--chat-per-min) and its bounds.

// KibitzLine is a line of the watchers' chat: who wrote it (an account's
// name) and what.
type KibitzLine struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

func (s *Server) handleKibitz(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.chatLim, "chat lines")
	if !ok {
		return
	}
	a, err := s.requireSignIn(r, "sign in to write in the watchers' chat")
	if err != nil {
		s.fail(w, err)
		return
	}
	text, err := decodeChat(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, st := range l.seat {
		if st.account == a.Key && !l.over() {
			s.fail(w, &apiError{403, "you hold a seat of this game: write in its own chat"})
			return
		}
	}
	if l.kibitz.n >= MaxChatLines {
		s.fail(w, &apiError{409, fmt.Sprintf("this game's watchers' chat holds %d lines, as many as it may", MaxChatLines)})
		return
	}
	line := KibitzLine{Name: a.Name, Text: text}
	if err := l.append(r.Context(), "kibitz", line); err != nil {
		s.fail(w, err)
		return
	}
	l.applyKibitz(line)
	writeJSON(w, 200, line)
}

// applyKibitz keeps a line of the watchers' chat. Caller holds mu.
func (l *live) applyKibitz(line KibitzLine) {
	l.kibitz.add(line)
	l.touch()
}

// replayKibitz applies a logged line of the watchers' chat.
func (l *live) replayKibitz(data string) error {
	var line KibitzLine
	if err := json.Unmarshal([]byte(data), &line); err != nil {
		return err
	}
	if line.Name == "" || line.Text == "" {
		return fmt.Errorf("watchers' chat line %q by %q", line.Text, line.Name)
	}
	l.applyKibitz(line)
	return nil
}

// kibitzShown is the latest lines of the watchers' chat for a state read
// by seat me (−1: a watcher): none for a seat while the game is played.
// Caller holds mu.
func (l *live) kibitzShown(me int) []KibitzLine {
	if me >= 0 && !l.over() {
		return nil
	}
	return l.kibitz.latest()
}
