package server

import (
	"context"
	"net/http"
	"time"

	"atril/store"
)

const (
	// LobbyChatShown is how many of the lobby chat's latest lines the
	// lobby (GET /api/lobby) gives.
	LobbyChatShown = 50
	// LobbyChatKept is how many of its latest lines the store keeps.
	LobbyChatKept = 2000
)

// LobbyChatLine is a line of the lobby's chat: its number, who wrote it
// (an account's name) and when.
type LobbyChatLine struct {
	ID   int64     `json:"id"`
	Name string    `json:"name"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// handleLobbyChat writes a line in the lobby's chat, for a signed-in
// account, as the games' chats are limited: a client and an account
// write at most ChatPerMinute lines a minute, each of at most
// MaxChatText characters.
func (s *Server) handleLobbyChat(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.chatLim, "chat lines")
	if !ok {
		return
	}
	a, err := s.requireSignIn(r, "sign in to write in the lobby's chat")
	if err != nil {
		s.fail(w, err)
		return
	}
	if ok, retry := s.chatLim.take("account "+a.Key, time.Now()); !ok {
		s.fail(w, tooMany("chat lines", retry))
		return
	}
	text, err := decodeChat(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	line := store.LobbyLine{Account: a.Key, Text: text, At: time.Now().UTC()}
	if err := s.store.AddLobbyLine(r.Context(), &line, LobbyChatKept); err != nil {
		s.fail(w, err)
		return
	}
	s.lobbyLines.forget() // seen at once through this process
	writeJSON(w, 200, LobbyChatLine{ID: line.ID, Name: a.Name, Text: line.Text, At: line.At})
}

// lobbyChat is the lobby chat's latest lines, oldest first, without
// those of the accounts b holds (blocked either way); the store is read
// at most once every cfg.LobbyEvery.
func (s *Server) lobbyChat(ctx context.Context, b blocking, now time.Time) ([]LobbyChatLine, error) {
	lines, err := s.lobbyLines.get(now, s.cfg.LobbyEvery, func() ([]store.LobbyLine, error) {
		return s.store.LobbyLines(ctx, LobbyChatShown)
	})
	if err != nil {
		return nil, err
	}
	out := []LobbyChatLine{}
	for _, l := range lines {
		if !b[l.Account] {
			out = append(out, LobbyChatLine{ID: l.ID, Name: l.Name, Text: l.Text, At: l.At})
		}
	}
	return out, nil
}
