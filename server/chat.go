package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Chat between the people at a game: a seat writes a line (POST
// /api/games/{id}/chat), every person's seat is told (a "chat"
// notification) and sees the latest lines in its state. Lines are logged
// with the game's events, so a restart keeps them; spectators see none.

// Bounds of the chat.
const (
	// MaxChatText bounds a line, in characters.
	MaxChatText = 200
	// MaxChatLines bounds the lines of one game.
	MaxChatLines = 500
	// ChatShown is how many of the latest lines a state holds, and about
	// as many as a game keeps in memory (the log keeps them all).
	ChatShown = 30
	// DefaultChatPerMinute is how many lines one client may write a
	// minute.
	DefaultChatPerMinute = 20
)

// ChatLine is a line of the chat, as logged and as a state shows it.
type ChatLine struct {
	Seat int    `json:"seat"`
	Text string `json:"text"`
}

// chatRequest is the body of POST /api/games/{id}/chat.
type chatRequest struct {
	Text string `json:"text"`
}

// decodeChat reads and cleans a chat line (as names are cleaned).
func decodeChat(data []byte) (string, error) {
	var req chatRequest
	if err := decodeJSON(data, &req); err != nil {
		return "", err
	}
	text, err := cleanText(req.Text, "chat line", MaxChatText)
	if err != nil {
		return "", err
	}
	if text == "" {
		return "", &apiError{400, "empty chat line"}
	}
	return text, nil
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.chatLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("chat lines", retry))
		return
	}
	data, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	text, err := decodeChat(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	people := 0
	for _, st := range l.seat {
		if st.level == "" {
			people++
		}
	}
	if people < 2 {
		s.fail(w, &apiError{409, "nobody else at this game reads the chat (the other seats are computers)"})
		return
	}
	if l.chat.n >= MaxChatLines {
		s.fail(w, &apiError{409, fmt.Sprintf("this game's chat holds %d lines, as many as it may", MaxChatLines)})
		return
	}
	line := ChatLine{Seat: me, Text: text}
	if err := l.append(r.Context(), "chat", line); err != nil {
		s.fail(w, err)
		return
	}
	l.applyChat(line)
	writeJSON(w, 200, line)
}

// applyChat keeps a line and tells every person's seat. Caller holds mu.
func (l *live) applyChat(line ChatLine) {
	l.chat.add(line)
	for i, st := range l.seat {
		if st.level == "" {
			l.log.push(i, Notification{Type: "chat", Seat: intp(line.Seat), Text: line.Text})
		}
	}
	l.touch()
}

// replayChat applies a logged chat line.
func (l *live) replayChat(data string) error {
	var line ChatLine
	if err := json.Unmarshal([]byte(data), &line); err != nil {
		return err
	}
	if line.Seat < 0 || line.Seat >= len(l.seat) {
		return fmt.Errorf("chat line of seat %d of %d", line.Seat, len(l.seat))
	}
	l.applyChat(line)
	return nil
}

// recent keeps the latest lines of a chat (at least ChatShown of them,
// at most twice as many; the log keeps them all) and counts them all.
type recent[T any] struct {
	lines []T
	n     int
}

// add keeps line.
func (r *recent[T]) add(line T) {
	if len(r.lines) == 2*ChatShown {
		// (A copy: states already made keep their slices.)
		r.lines = slices.Clone(r.lines[ChatShown:])
	}
	r.lines = append(r.lines, line)
	r.n++
}

// latest is the latest ChatShown lines, for a state (a slice that an
// append cannot write through).
func (r *recent[T]) latest() []T {
	c := r.lines[max(0, len(r.lines)-ChatShown):]
	return c[:len(c):len(c)]
}
