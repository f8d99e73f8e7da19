package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"atril/game"
	"atril/gcg"
	"atril/store"
)

// ImportRequest is the body of POST /api/games/import: a game record in
// GCG, and the word list to replay it with (by default the one of its
// #lexicon pragma, read as a position's is: see offeredLexicon).
type ImportRequest struct {
	GCG     string `json:"gcg"`
	Lexicon string `json:"lexicon,omitempty"`
}

// importEvent is the only event of an imported game: the file itself,
// which is replayed whenever the game is rebuilt.
type importEvent struct {
	GCG string `json:"gcg"`
}

// DefaultImportsPerHour is how many games one client may import an hour.
const DefaultImportsPerHour = 30

// handleImport stores a game played elsewhere, given as a GCG file, as a
// finished game of this server: its review, summary, analysis and
// positions then work as for any finished game. An import counts as a
// new game against the client's allowance.
func (s *Server) handleImport(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.createLim, "new games")
	if !ok {
		return
	}
	if ok, retry := s.importLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("imported games this hour", retry))
		return
	}
	var req ImportRequest
	if err := decodeJSON(data, &req); err != nil {
		s.fail(w, err)
		return
	}
	id, seats, err := s.importGame(r.Context(), &req)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 201, CreateResponse{ID: id, Seats: seats})
}

// importGame checks a GCG file by replaying it under the rules, then
// stores it; it returns the new game's id and number of seats.
func (s *Server) importGame(ctx context.Context, req *ImportRequest) (string, int, error) {
	if strings.TrimSpace(req.GCG) == "" {
		return "", 0, &apiError{400, "give the game as \"gcg\": the text of a GCG file"}
	}
	f, err := gcg.Parse(strings.NewReader(req.GCG))
	if err != nil {
		return "", 0, &apiError{422, short(err.Error(), 200)}
	}
	f.PartialRacks = true // a record kept by one of the players
	name := req.Lexicon
	if name == "" {
		name = f.Lexicon
	}
	if name == "" {
		return "", 0, &apiError{422, "say which word list: \"lexicon\", or a #lexicon pragma in the file"}
	}
	lexicon := s.offeredLexicon(name)
	v := s.variantOfLexicon(lexicon)
	if lexicon == "" || v == nil {
		return "", 0, &apiError{422, fmt.Sprintf("no word list %q is offered here (%s)", short(name, 40), strings.Join(s.cfg.Lexicons, ", "))}
	}
	lr, err := s.lexiconFor(v, lexicon)
	if err != nil {
		return "", 0, err
	}
	seed := randomSeed()
	g, err := f.ReplayAnyRule(v, lr.lex, seed)
	if err != nil {
		return "", 0, &apiError{422, short(err.Error(), 300)}
	}
	hdr := store.Game{ID: randomHex(8), Variant: v.Name, Lexicon: lexicon, Seed: seed, Created: time.Now().UTC()}
	if r := g.ChallengeRule(); r != game.Void {
		hdr.Challenge = r.String()
	}
	for i, p := range f.Players {
		n, err := checkName(p.Name, false)
		if err == nil && n == "" {
			n, err = checkName(p.Nick, false)
		}
		if err != nil {
			return "", 0, &apiError{422, fmt.Sprintf("#player%d: %v", i+1, err)}
		}
		hdr.Seats = append(hdr.Seats, store.Seat{Name: n})
	}
	ev, err := json.Marshal(importEvent{GCG: req.GCG})
	if err != nil {
		return "", 0, err
	}
	// Built as the store will rebuild it, before anything is stored.
	l, err := s.newLive(&hdr)
	if err == nil {
		err = l.applyImport(importEvent{GCG: req.GCG})
	}
	if err != nil {
		return "", 0, fmt.Errorf("import: %w", err)
	}
	// One write: a failure leaves no game half made (a header without
	// its file, or one not marked finished, which a restart would try
	// to rebuild).
	if err := s.store.CreateFinishedGame(ctx, &hdr, []store.Event{{Seq: 0, Kind: "import", Data: string(ev), Time: hdr.Created}}); err != nil {
		return "", 0, fmt.Errorf("import: store game %s: %w", hdr.ID, err)
	}
	return hdr.ID, len(hdr.Seats), nil
}

// applyImport replays an imported game's file into l, whose header says
// the word list, the seed and the challenge rule it was checked with.
func (l *live) applyImport(ev importEvent) error {
	f, err := gcg.Parse(strings.NewReader(ev.GCG))
	if err != nil {
		return err
	}
	f.PartialRacks = true
	if len(f.Players) != len(l.seat) {
		return fmt.Errorf("%d players in the file, %d seats", len(f.Players), len(l.seat))
	}
	rule, err := game.ParseChallengeRule(l.hdr.Challenge)
	if err != nil {
		return err
	}
	if f.Challenge == "" && rule != game.Void {
		f.Challenge = rule.String()
	}
	g, err := f.Replay(l.v, l.lex, l.hdr.Seed)
	if err != nil {
		return err
	}
	if g.ChallengeRule() != rule {
		return fmt.Errorf("the file replays under the %v rule, the game says %v", g.ChallengeRule(), rule)
	}
	for i, st := range l.seat {
		st.taken = true
		g.Seats[i].Name = st.name
	}
	l.g, l.imported, l.gcgText = g, true, ev.GCG
	// The file's notes, each on the entry of the line it follows, are
	// nobody's seat's (seat −1).
	for entry, ns := range f.EntryNotes() {
		l.notes.init()
		l.notes.byKey[[2]int{entry, -1}] = strings.Join(ns, "\n")
	}
	return nil
}
