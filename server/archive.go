package server

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"atril/store"
)

// A player's games as GCG files (GET /api/me/games.zip): the finished
// games of the signed-in account whose results the server recorded, the
// latest archiveGames of them, each as the game's GCG file (as GET
// /api/games/{id}/gcg gives it) in one zip archive, for a program that
// reads GCG to study them. A game held in memory is written from there;
// the others are rebuilt from the store one by one without being kept.
// A game that cannot be rebuilt is left out and named in
// not-included.txt. One archive is made at a time for an account.

// archiveGames bounds the games of an archive; archivesPerHour the
// archives an account may ask for in an hour (each rebuilds up to
// archiveGames games).
const (
	archiveGames    = 500
	archivesPerHour = 10
)

func (s *Server) handleGamesArchive(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.lookLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("requests", retry))
		return
	}
	a, err := s.requireSignIn(r, "sign in to download your games")
	if err != nil {
		s.fail(w, err)
		return
	}
	if ok, retry := s.archiveLim.take(a.Key, time.Now()); !ok {
		s.fail(w, tooMany("archives of your games", retry))
		return
	}
	s.mu.Lock()
	if s.archiving == nil {
		s.archiving = map[string]bool{}
	}
	busy := s.archiving[a.Key]
	s.archiving[a.Key] = true
	s.mu.Unlock()
	if busy {
		s.fail(w, &apiError{409, "an archive of your games is being made already"})
		return
	}
	defer func() {
		s.mu.Lock()
		delete(s.archiving, a.Key)
		s.mu.Unlock()
	}()
	games, err := s.store.RatedGames(r.Context(), a.Key, store.RatedFilter{}, archiveGames)
	if err != nil {
		s.fail(w, err)
		return
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, at time.Time, data []byte) error {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: at})
		if err == nil {
			_, err = f.Write(data)
		}
		return err
	}
	// A game that cannot be rebuilt (its word list no longer offered,
	// say) is left out and named in a file of its own, not the end of
	// the archive.
	var left []string
	for i := range games {
		g := &games[i]
		data, err := s.finishedGCG(r, g.Game)
		if err != nil {
			s.logf("server: archive of %s's games: %v", a.Name, err)
			left = append(left, g.Game+" ("+g.Finished.UTC().Format("2006-01-02")+"): this server can no longer rebuild it")
			continue
		}
		if err := add(archiveName(g), g.Finished, data); err != nil {
			s.fail(w, fmt.Errorf("archive game %s: %w", g.Game, err))
			return
		}
	}
	if len(left) > 0 {
		if err := add("not-included.txt", time.Now(), []byte("Games left out of this archive:\n"+strings.Join(left, "\n")+"\n")); err != nil {
			s.fail(w, fmt.Errorf("archive of %s's games: %w", a.Name, err))
			return
		}
	}
	if err := zw.Close(); err != nil {
		s.fail(w, fmt.Errorf("archive of %s's games: %w", a.Name, err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="atril-%s-games.zip"`, fileSafe(a.Name)))
	h.Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// finishedGCG is the GCG file of finished game id: from memory when the
// game is there, else rebuilt from the store and dropped.
func (s *Server) finishedGCG(r *http.Request, id string) ([]byte, error) {
	s.mu.Lock()
	l := s.games[id]
	s.mu.Unlock()
	if l == nil {
		var err error
		if l, err = s.rebuild(r.Context(), id); err != nil {
			return nil, fmt.Errorf("game %s: %w", id, err)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.over() {
		return nil, fmt.Errorf("game %s: recorded as finished, but not over", id)
	}
	return l.gcgRecord()
}

// archiveName names a game's file in an archive: the day it finished,
// the players by seat and the game, as "2026-11-26-Ana-Bo-0123456789abcdef.gcg".
func archiveName(g *store.RatedGame) string {
	parts := []string{g.Finished.UTC().Format("2006-01-02")}
	for _, st := range g.Seats {
		parts = append(parts, fileSafe(st.Name))
	}
	return strings.Join(append(parts, g.Game), "-") + ".gcg"
}

// fileSafe keeps the letters and digits of a name (any script), dots
// and underscores, putting an underscore for anything else.
func fileSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' {
			return r
		}
		return '_'
	}, name)
}
