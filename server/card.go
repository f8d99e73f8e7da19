package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"atril/alphabet"
	"atril/boardimage"
	"atril/move"
	"atril/review"
	"atril/store"
	"atril/variant"
)

// Pictures of positions (package boardimage): GET
// /api/games/{id}/board.png (?move=K: before the game's K-th move,
// 0-based, as the review numbers them; else as it stands), GET
// /api/puzzles/{lexicon}/{n}/board.png and GET
// /api/endgames/{lexicon}/{n}/board.png. They show the board and what
// anyone watching sees (names, scores, whose turn), never a seat's
// rack during a game; a puzzle's picture shows the rack to solve with.
// The page's address of a game or a puzzle names its picture in Open
// Graph tags (pageMeta), so a shared link shows the position.

// imagesPerMinute bounds the pictures one client asks for a minute.
const imagesPerMinute = 60

// imageCacheSize is how many pictures are kept (about 35 KB each),
// gifCacheSize how many animations of games (a few hundred KB each).
const imageCacheSize, gifCacheSize = 256, 16

// gifCost is what an animation of a game spends of the client's
// pictures: it draws a picture a move (about 25 ms each;
// BenchmarkEncodeGIF in package boardimage).
const gifCost = 20

// imageRenders bounds the pictures drawn at once.
const imageRenders = 2

// images holds the pictures (and animations) asked for last, by what
// they show: at most size of them, the one asked for least recently
// going first.
type images struct {
	size  int
	mu    sync.Mutex
	m     map[string][]byte
	order []string // keys, oldest first
	sem   chan struct{}
}

// get returns the picture of key, drawing it with draw on a miss.
func (im *images) get(ctx context.Context, key string, draw func(w io.Writer) error) ([]byte, error) {
	im.mu.Lock()
	if im.m == nil {
		im.m = map[string][]byte{}
		im.sem = make(chan struct{}, imageRenders)
	}
	data, ok := im.m[key]
	if ok {
		// The least recently asked for goes first.
		if i := slices.Index(im.order, key); i >= 0 {
			im.order = append(slices.Delete(im.order, i, i+1), key)
		}
	}
	sem := im.sem
	im.mu.Unlock()
	if ok {
		return data, nil
	}
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var buf bytes.Buffer
	err := draw(&buf)
	<-sem
	if err != nil {
		return nil, err
	}
	data = buf.Bytes()
	im.mu.Lock()
	if _, ok := im.m[key]; !ok {
		im.m[key] = data
		im.order = append(im.order, key)
		if len(im.order) > im.size {
			delete(im.m, im.order[0])
			im.order = im.order[1:]
		}
	}
	im.mu.Unlock()
	return data, nil
}

// cardWords are the pictures' and the link previews' words in one
// language (the game's: the page's i18n.js says the same).
type cardWords struct {
	toPlay, won, wonBy, draw, waiting, moveOf string
	puzzle, puzzleGoal, endgame, endgameGoal  string
	rack, called, abandoned, recordEnds       string
	lists                                     map[string]string
}

var cardText = map[string]*cardWords{
	"en": {toPlay: "%s to play", won: "%s won", wonBy: "%s won by %d", draw: "A draw", waiting: "Waiting for players",
		moveOf: "Before move %d of %d", puzzle: "Puzzle %d", puzzleGoal: "Find the highest-scoring play",
		endgame: "Endgame %d", endgameGoal: "The bag is empty: find the best move to the end", rack: "Rack",
		called: "Called off", abandoned: "Abandoned", recordEnds: "The record stops here",
		lists: map[string]string{"en-sowpods": "SOWPODS (international English)", "es-fise": "FISE (Spanish)",
			"cs-hunspell-2to9": "Czech, words of 2–9 letters", "cs-hunspell-full": "Czech, all words"}},
	"es": {toPlay: "Juega %s", won: "Ganó %s", wonBy: "Ganó %s por %d", draw: "Empate", waiting: "Esperando jugadores",
		moveOf: "Antes de la jugada %d de %d", puzzle: "Problema %d", puzzleGoal: "Busca la jugada de más puntos",
		endgame: "Final %d", endgameGoal: "La bolsa está vacía: busca la mejor jugada hasta el final", rack: "Atril",
		called: "Anulada", abandoned: "Caducada", recordEnds: "El registro termina aquí",
		lists: map[string]string{"en-sowpods": "SOWPODS (inglés internacional)", "es-fise": "FISE (español)",
			"cs-hunspell-2to9": "Checo, de 2 a 9 letras", "cs-hunspell-full": "Checo, completo"}},
	"cs": {toPlay: "Na tahu: %s", won: "Vyhrál(a) %s", wonBy: "Vyhrál(a) %s o %d", draw: "Remíza", waiting: "Čeká se na hráče",
		moveOf: "Před tahem %d z %d", puzzle: "Úloha %d", puzzleGoal: "Najdi tah za nejvíc bodů",
		endgame: "Koncovka %d", endgameGoal: "Sáček je prázdný: najdi nejlepší tah do konce", rack: "Stojánek",
		called: "Zrušena", abandoned: "Propadla", recordEnds: "Záznam končí zde",
		lists: map[string]string{"en-sowpods": "SOWPODS (angličtina)", "es-fise": "FISE (španělština)",
			"cs-hunspell-2to9": "Čeština, slova o 2–9 písmenech", "cs-hunspell-full": "Čeština, úplný"}},
}

// langOf is the language of a variant's texts: its board's labels and
// its pictures' words.
func langOf(v *variant.Variant) string {
	switch v.Name {
	case "spanish":
		return "es"
	case "czech":
		return "cs"
	}
	return "en"
}

// listTitle is a word list's title in language lang: an embedded
// list's, the title the operator gave one of its own, else its name.
func (s *Server) listTitle(lang, name string) string {
	if t, ok := cardText[lang].lists[name]; ok {
		return t
	}
	if t, ok := s.cfg.WordListTitles[name]; ok {
		return t
	}
	return name
}

// gamePicture is what the picture of l before move k shows (k < 0: as
// the game stands), with a key naming it. Caller holds l.mu.
func (l *live) gamePicture(k int) (*boardimage.Position, string, error) {
	return l.pictureOf(review.NewRecord(l.g.History, l.imported), k)
}

// pictureOf is gamePicture with the game's record, rec. Caller holds
// l.mu.
func (l *live) pictureOf(rec *review.Record, k int) (*boardimage.Position, string, error) {
	v := l.v
	lang := langOf(v)
	w := cardText[lang]
	if k > len(rec.Moves) || (k == len(rec.Moves) && !l.over()) {
		return nil, "", &apiError{400, fmt.Sprintf("move %d: the game has moves 0 to %d", k, len(rec.Moves)-1)}
	}
	stop := len(l.g.History)
	if k >= 0 && k < len(rec.Moves) {
		stop = rec.Moves[k].At
	}
	grid := make([]alphabet.Tile, v.Size*v.Size)
	var last [][2]int
	for _, m := range rec.Moves {
		if m.At >= stop {
			break
		}
		last = nil
		if m.Move.Kind != move.Place || m.Withdrawn {
			continue
		}
		sq, ts := m.Move.Placed()
		for j, s := range sq {
			grid[s[0]*v.Size+s[1]] = ts[j]
		}
		last = sq
	}
	scores := make([]int, len(l.g.Seats))
	for _, h := range l.g.History[:stop] {
		scores[h.Player] = h.Total
	}
	if stop == len(l.g.History) {
		for i, st := range l.g.Seats {
			scores[i] = st.Score
		}
	}
	names := make([]string, len(l.seat))
	for i, st := range l.seat {
		names[i] = st.name
		if !st.taken || names[i] == "" {
			names[i] = "—"
		}
	}
	p := &boardimage.Position{Variant: v, Grid: grid, Last: last, Lang: lang, Footer: "atril",
		Lines: []string{l.srv.listTitle(lang, l.hdr.Lexicon)}}
	marked := -1
	switch {
	case k >= 0 && k < len(rec.Moves):
		marked = l.g.History[stop].Player
		p.Lines = append(p.Lines, fmt.Sprintf(w.moveOf, k+1, len(rec.Moves)), fmt.Sprintf(w.toPlay, names[marked]))
	case l.over():
		// Only a game over by its rules has a winner (as the state names
		// one): not one abandoned, nor a record that stops before the end.
		if win := l.g.Winners(); len(win) == 1 && l.g.Over() {
			marked = win[0]
		}
		p.Lines = append(p.Lines, l.resultLine(w, names, scores))
	case l.started():
		marked = l.g.Current()
		p.Lines = append(p.Lines, fmt.Sprintf(w.toPlay, names[marked]))
	default:
		p.Lines = append(p.Lines, w.waiting)
	}
	for i := range names {
		p.Scores = append(p.Scores, boardimage.Score{Name: names[i], Points: scores[i], Marked: i == marked})
	}
	hs := sha256.New()
	hs.Write([]byte(previewTitle(p) + "\n" + strings.Join(p.Lines, "\n")))
	for _, t := range grid {
		hs.Write([]byte{byte(t)})
	}
	for _, sq := range last {
		hs.Write([]byte{byte(sq[0]), byte(sq[1])})
	}
	// The row shaded (seats may share a name).
	hs.Write([]byte{byte(marked + 1)})
	key := fmt.Sprintf("g\x00%s\x00%d\x00%x", l.hdr.ID, k, hs.Sum(nil)[:12])
	return p, key, nil
}

// resultLine says how a finished game ended. Caller holds l.mu.
func (l *live) resultLine(w *cardWords, names []string, scores []int) string {
	switch {
	case l.g.Aborted():
		return w.called
	case l.abandoned:
		return w.abandoned
	case !l.g.Over():
		// An imported record of a game not played to its end.
		return w.recordEnds
	}
	win := l.g.Winners()
	switch {
	case len(win) != 1:
		return w.draw
	case len(scores) == 2 && l.g.Resigned() < 0 && l.g.TimedOut() < 0:
		return fmt.Sprintf(w.wonBy, names[win[0]], scores[win[0]]-scores[1-win[0]])
	}
	return fmt.Sprintf(w.won, names[win[0]])
}

// picture is what the picture of a puzzle shows: the position and
// the rack to solve with.
func (p *puzzleEntry) picture(s *Server) (*boardimage.Position, string) {
	w := cardText[langOf(p.v)]
	g := p.game()
	grid := append([]alphabet.Tile(nil), g.Board.Grid()...)
	var rack []alphabet.Tile
	r := g.Seats[g.Current()].Rack
	for t := range r {
		for range r[t] {
			rack = append(rack, alphabet.Tile(t))
		}
	}
	// Blanks last, as the page lays a rack out.
	if len(rack) > 0 && rack[0] == alphabet.Blank {
		n := 0
		for n < len(rack) && rack[n] == alphabet.Blank {
			n++
		}
		rack = append(rack[n:], rack[:n]...)
	}
	title, goal, kind := fmt.Sprintf(w.puzzle, p.number), w.puzzleGoal, "p"
	if p.endgame != nil {
		title, goal, kind = fmt.Sprintf(w.endgame, p.number), w.endgameGoal, "e"
	}
	pos := &boardimage.Position{Variant: p.v, Grid: grid, Lang: langOf(p.v), Title: title,
		Lines: []string{s.listTitle(langOf(p.v), p.lexicon), goal}, RackLabel: w.rack, Rack: rack, Footer: "atril"}
	return pos, kind + "\x00" + p.lexicon + "\x00" + strconv.Itoa(p.number)
}

// handleGameImage draws a game's position.
func (s *Server) handleGameImage(w http.ResponseWriter, r *http.Request) {
	if !s.takeImage(w, r) {
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	k := -1
	if r.URL.Query().Has("move") {
		if k, err = moveParam(r.URL.Query()); err != nil {
			s.fail(w, err)
			return
		}
	}
	l.mu.Lock()
	p, key, err := l.gamePicture(k)
	over := l.over()
	l.mu.Unlock()
	if err != nil {
		s.fail(w, err)
		return
	}
	age := time.Minute
	if over || k >= 0 {
		age = 24 * time.Hour
	}
	s.sendImage(w, r, key, p, age)
}

// handlePuzzleImage draws a puzzle to score, handleEndgameImage an
// endgame puzzle.
func (s *Server) handlePuzzleImage(w http.ResponseWriter, r *http.Request) {
	s.puzzleImage(w, r, s.puzzleFor)
}

func (s *Server) handleEndgameImage(w http.ResponseWriter, r *http.Request) {
	s.puzzleImage(w, r, s.endgameFor)
}

func (s *Server) puzzleImage(w http.ResponseWriter, r *http.Request, find func(*http.Request) (*puzzleEntry, error)) {
	if !s.takeImage(w, r) {
		return
	}
	p, err := find(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	pos, key := p.picture(s)
	s.sendImage(w, r, key, pos, 24*time.Hour)
}

// takeImage spends one of the client's pictures, or answers 429.
func (s *Server) takeImage(w http.ResponseWriter, r *http.Request) bool { return s.takeImages(w, r, 1) }

// takeImages spends n of the client's pictures, or answers 429.
func (s *Server) takeImages(w http.ResponseWriter, r *http.Request, n int) bool {
	if ok, retry := s.imageLim.takeN(s.clientKey(r), time.Now(), float64(n)); !ok {
		s.fail(w, tooMany(fmt.Sprintf("at most %d pictures a minute", imagesPerMinute), retry))
		return false
	}
	return true
}

// sendImage answers the picture of key (drawn from p unless kept), which
// a browser may keep for age.
func (s *Server) sendImage(w http.ResponseWriter, r *http.Request, key string, p *boardimage.Position, age time.Duration) {
	s.sendDrawn(w, r, &s.images, key, "image/png", age, func(w io.Writer) error { return boardimage.Encode(w, p) })
}

// sendDrawn answers what draw writes (of type ctype) under key, kept in
// cache, which a browser may keep for age.
func (s *Server) sendDrawn(w http.ResponseWriter, r *http.Request, cache *images, key, ctype string, age time.Duration, draw func(io.Writer) error) {
	sum := sha256.Sum256([]byte(key))
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(age.Seconds())))
	h.Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag, "") {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	data, err := cache.get(r.Context(), key, draw)
	if err != nil {
		s.fail(w, err)
		return
	}
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// pageMeta serves the page for a game's or a puzzle's address with Open
// Graph tags naming its title, a line on it and its picture, so that a
// link to it shared elsewhere shows the position; a tournament's and a
// player's page get a title and a line. Any other address, and one whose
// game, puzzle, tournament or player does not exist, gets the page as it
// is.
func (s *Server) pageMeta(w http.ResponseWriter, r *http.Request) {
	title, desc, img := s.linkPreview(r)
	f, ok := s.static["index.html"]
	if !ok || title == "" {
		s.serveStatic(w, r, "index.html")
		return
	}
	base := s.publicBase(r)
	esc := html.EscapeString
	var meta strings.Builder
	tags := [][2]string{{"og:site_name", "atril"}, {"og:type", "website"}, {"og:title", title}, {"og:description", desc},
		{"og:url", base + r.URL.EscapedPath()}}
	card := "summary"
	if img != "" {
		tags = append(tags, [2]string{"og:image", base + img},
			[2]string{"og:image:width", strconv.Itoa(boardimage.Width)}, [2]string{"og:image:height", strconv.Itoa(boardimage.Height)})
		card = "summary_large_image"
	}
	for _, kv := range tags {
		fmt.Fprintf(&meta, "<meta property=\"%s\" content=\"%s\">\n", kv[0], esc(kv[1]))
	}
	fmt.Fprintf(&meta, "<meta name=\"twitter:card\" content=\"%s\">\n<meta name=\"description\" content=\"%s\">\n", card, esc(desc))
	data := bytes.Replace(f.data, []byte("</head>"), []byte(meta.String()+"</head>"), 1)
	sum := sha256.Sum256(data)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.ctype)
	if acceptsGzip(r) {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		zw.Write(data)
		zw.Close()
		data = b.Bytes()
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(data)))
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// linkPreview is the title, the line and the picture's address (from
// the site's root; "" for none) of a game's, a puzzle's, a tournament's
// or a player's page; all empty for any other.
func (s *Server) linkPreview(r *http.Request) (title, desc, img string) {
	var pos *boardimage.Position
	var key string
	switch {
	case strings.HasPrefix(r.URL.Path, "/g/"):
		l, err := s.game(r.Context(), r.PathValue("id"))
		if err != nil {
			return "", "", ""
		}
		l.mu.Lock()
		pos, key, err = l.gamePicture(-1)
		l.mu.Unlock()
		if err != nil {
			return "", "", ""
		}
		img = "/api/games/" + url.PathEscape(l.hdr.ID) + "/board.png"
	case strings.HasPrefix(r.URL.Path, "/puzzle") || strings.HasPrefix(r.URL.Path, "/endgame"):
		endgame := strings.HasPrefix(r.URL.Path, "/endgame")
		rq := r
		if r.PathValue("lexicon") == "" {
			// Today's puzzle in the default list.
			rq = r.Clone(r.Context())
			rq.SetPathValue("lexicon", s.defaultPuzzleList())
			rq.SetPathValue("n", "today")
		}
		find, kind := s.puzzleFor, "puzzles"
		if endgame {
			find, kind = s.endgameFor, "endgames"
		}
		p, err := find(rq)
		if err != nil {
			return "", "", ""
		}
		pos, key = p.picture(s)
		img = fmt.Sprintf("/api/%s/%s/%d/board.png", kind, url.PathEscape(p.lexicon), p.number)
	case strings.HasPrefix(r.URL.Path, "/t/"):
		return s.tournamentPreview(r)
	case strings.HasPrefix(r.URL.Path, "/p/"):
		return s.playerPreview(r)
	default:
		return "", "", ""
	}
	sum := sha256.Sum256([]byte(key))
	return previewTitle(pos), strings.Join(pos.Lines, " · "), img + "?v=" + hex.EncodeToString(sum[:6])
}

// tournamentPreview is the title and line of a tournament's page: its
// name, and its format, word list, players and state (in English: the
// tournament's page is in the visitor's language, unknown to a preview).
func (s *Server) tournamentPreview(r *http.Request) (title, desc, img string) {
	d, _, err := s.loadTournament(r.Context(), r.PathValue("id"))
	if err != nil {
		return "", "", ""
	}
	parts := []string{"Swiss, " + plural(d.Rounds, "round")}
	if d.Format == "round-robin" {
		parts[0] = "Round robin"
	}
	parts = append(parts, s.listTitle("en", d.Lexicon), plural(len(d.Players), "player"))
	switch d.State {
	case "registering":
		parts = append(parts, "registration open")
	case "playing":
		parts = append(parts, fmt.Sprintf("round %d being played", len(d.Played)))
	case "over":
		if st := d.info(r.PathValue("id"), nil).Standings; len(st) > 0 {
			parts = append(parts, "won by "+st[0].Name)
		}
	case "cancelled":
		parts = append(parts, "cancelled")
	}
	return d.Name, strings.Join(parts, " · "), ""
}

// playerPreview is the title and line of a player's page: the name, and
// the rating of the category the player has played most in.
func (s *Server) playerPreview(r *http.Request) (title, desc, img string) {
	a, err := s.playerNamed(r.Context(), r.PathValue("name"))
	if err != nil {
		return "", "", ""
	}
	if a.Closed() || a.Suspended != "" {
		return a.Name, "", ""
	}
	rs, err := s.store.Ratings(r.Context(), a.Key)
	if err != nil {
		return a.Name, "", ""
	}
	return a.Name, s.ratingLine(rs), ""
}

// ratingLine says a player's rating in the category of the most games
// ("Rated 1612 in SOWPODS (international English) (regular) · won 3 of
// 5 games"; the first such category in rs of equals).
func (s *Server) ratingLine(rs []store.Rating) string {
	if len(rs) == 0 {
		return "A player on atril"
	}
	best := rs[0]
	for _, x := range rs[1:] {
		if x.Games > best.Games {
			best = x
		}
	}
	lex, pace := splitCategory(best.Category)
	return fmt.Sprintf("Rated %d in %s (%s) · won %d of %s", roundInt(best.R), s.listTitle("en", lex), pace,
		best.Wins, plural(best.Games, "game"))
}

// plural is n things: "1 round", "5 rounds".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// previewTitle is a picture's title in a line: its title, or its
// players and their scores ("Ana 312 – Bo 287"; "·" between three or
// four).
func previewTitle(p *boardimage.Position) string {
	if p.Title != "" || len(p.Scores) == 0 {
		return p.Title
	}
	parts := make([]string, len(p.Scores))
	for i, sc := range p.Scores {
		parts[i] = fmt.Sprintf("%s %d", sc.Name, sc.Points)
	}
	if len(parts) > 2 {
		return strings.Join(parts, " · ")
	}
	return strings.Join(parts, " – ")
}

// publicBase is the scheme and host of the site's addresses: the
// configured public address, else the request's host, over https when
// the request came so (or a trusted proxy says it did).
func (s *Server) publicBase(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimRight(s.cfg.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || s.cfg.RealIPHeader != "" && r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// defaultPuzzleList is the word list of /puzzle and /endgame in a link
// preview: the first variant's own list (the page chooses by what the
// browser remembers, which a preview cannot know).
func (s *Server) defaultPuzzleList() string {
	for _, n := range s.cfg.Variants {
		if v, err := s.loadVariant(n); err == nil && s.variantOfLexicon(v.DefaultLexicon) != nil {
			return v.DefaultLexicon
		}
	}
	return ""
}

// handleGameGIF draws a finished game as an animation: the position
// before each move, then the end, a second each (the end four); a game
// of more than maxAnimatedMoves moves is refused.
func (s *Server) handleGameGIF(w http.ResponseWriter, r *http.Request) {
	if !s.takeImages(w, r, gifCost) {
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	l.mu.Lock()
	if !l.over() {
		err = &apiError{409, "the game is not over: its animation is made at the end"}
	}
	moves := len(review.NewRecord(l.g.History, l.imported).Moves)
	if err == nil && moves > maxAnimatedMoves {
		err = &apiError{422, fmt.Sprintf("the game has %d moves: an animation shows at most %d", moves, maxAnimatedMoves)}
	}
	id := l.hdr.ID
	l.mu.Unlock()
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Disposition", `inline; filename="atril-`+id+`.gif"`)
	s.sendDrawn(w, r, &s.gifs, "gif\x00"+id, "image/gif", 24*time.Hour, func(w io.Writer) error {
		// The frames are worked out only when the animation is not
		// kept (a finished game does not change).
		frames, err := l.animationFrames()
		if err != nil {
			return err
		}
		return boardimage.EncodeGIF(w, frames, 100, 400)
	})
}

// animationFrames are the pictures of a finished game's animation: before
// each move, then the end, from one record of the game.
func (l *live) animationFrames() ([]*boardimage.Position, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rec := review.NewRecord(l.g.History, l.imported)
	frames := make([]*boardimage.Position, 0, len(rec.Moves)+1)
	for k := range len(rec.Moves) + 1 {
		at := k
		if k == len(rec.Moves) {
			at = -1 // the end
		}
		p, _, err := l.pictureOf(rec, at)
		if err != nil {
			return nil, err
		}
		frames = append(frames, p)
	}
	return frames, nil
}

// maxAnimatedMoves bounds the moves of a game drawn as an animation (a
// game of a variant whose exchanges never end it may go on for ever).
const maxAnimatedMoves = 150
