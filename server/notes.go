package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Notes: once a game is over, each of its players may write a note on any
// entry of its history (what they saw, what they missed), for themselves
// and for whoever reviews the game. A seat keeps one note per entry:
// writing it again replaces it, and an empty text takes it away. Notes
// are events of the game's log, as chat lines are, so that every process
// sharing the store shows the same ones; the review shows them under
// their entries and the game's GCG file holds them as #note lines.

// Bounds of the notes of a game.
const (
	// MaxNoteText is the length of a note, in characters.
	MaxNoteText = 1000
	// MaxNoteEvents is how many times the notes of one game may be
	// written, replaced or taken away in all.
	MaxNoteEvents = 1000
)

// GameNote is a seat's note on an entry of a finished game's history
// (an index of State.History). The notes of an imported game's file are
// nobody's seat's: Seat −1.
type GameNote struct {
	Entry int    `json:"entry"`
	Seat  int    `json:"seat"`
	Text  string `json:"text"`
}

// noteRequest is the body of POST /api/games/{id}/notes.
type noteRequest struct {
	Entry *int   `json:"entry"`
	Text  string `json:"text"`
}

// gameNotes holds a game's notes and counts the events that wrote them.
type gameNotes struct {
	byKey  map[[2]int]string // {entry, seat}: text (made at first use)
	events int
}

// init makes the map of notes.
func (ns *gameNotes) init() {
	if ns.byKey == nil {
		ns.byKey = map[[2]int]string{}
	}
}

// set records note n (an empty text takes the seat's note away).
func (ns *gameNotes) set(n GameNote) {
	ns.events++
	k := [2]int{n.Entry, n.Seat}
	if n.Text == "" {
		delete(ns.byKey, k)
		return
	}
	ns.init()
	ns.byKey[k] = n.Text
}

// list returns the notes by entry, then seat (nil for none).
func (ns *gameNotes) list() []GameNote {
	if len(ns.byKey) == 0 {
		return nil
	}
	out := make([]GameNote, 0, len(ns.byKey))
	for k, text := range ns.byKey {
		out = append(out, GameNote{Entry: k[0], Seat: k[1], Text: text})
	}
	slices.SortFunc(out, func(a, b GameNote) int {
		if a.Entry != b.Entry {
			return a.Entry - b.Entry
		}
		return a.Seat - b.Seat
	})
	return out
}

// handleNote writes, replaces or takes away the note of the caller's
// seat on an entry of a finished game.
func (s *Server) handleNote(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.chatLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("notes", retry))
		return
	}
	data, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	var req noteRequest
	if err := decodeJSON(data, &req); err != nil {
		s.fail(w, err)
		return
	}
	if !l.over() {
		s.fail(w, &apiError{409, "the game is not over: notes are written once it is"})
		return
	}
	if req.Entry == nil {
		s.fail(w, &apiError{400, "say which entry of the history the note is on: \"entry\""})
		return
	}
	if n := len(l.g.History); *req.Entry < 0 || *req.Entry >= n {
		s.fail(w, &apiError{400, fmt.Sprintf("entry %d: the game's history has entries 0 to %d", *req.Entry, n-1)})
		return
	}
	text, err := cleanText(req.Text, "note", MaxNoteText)
	if err != nil {
		s.fail(w, err)
		return
	}
	if l.notes.events >= MaxNoteEvents {
		s.fail(w, &apiError{409, fmt.Sprintf("this game's notes were written %d times, as often as they may be", MaxNoteEvents)})
		return
	}
	n := GameNote{Entry: *req.Entry, Seat: me, Text: text}
	if err := l.append(r.Context(), "note", n); err != nil {
		s.fail(w, err)
		return
	}
	l.applyNote(n)
	writeJSON(w, 200, n)
}

// applyNote keeps a note. Caller holds mu.
func (l *live) applyNote(n GameNote) {
	l.notes.set(n)
	l.touch()
}

// replayNote applies a logged note.
func (l *live) replayNote(data string) error {
	var n GameNote
	if err := json.Unmarshal([]byte(data), &n); err != nil {
		return err
	}
	if n.Seat < 0 || n.Seat >= len(l.seat) {
		return fmt.Errorf("note of seat %d of %d", n.Seat, len(l.seat))
	}
	if n.Entry < 0 || n.Entry >= len(l.g.History) {
		return fmt.Errorf("note on entry %d of %d", n.Entry, len(l.g.History))
	}
	l.applyNote(n)
	return nil
}
