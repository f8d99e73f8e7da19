package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"atril/boardimage"
	"atril/store"
	"atril/web"
)

// getWith asks for url with headers (name, value, ...) and reads the
// answer.
func getWith(t *testing.T, url string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

// getImage asks for a picture and decodes it (nil unless 200).
func getImage(t *testing.T, e *testEnv, path string, hdr ...string) (int, http.Header, image.Image) {
	t.Helper()
	resp, data := getWith(t, e.url+path, hdr...)
	if resp.StatusCode != 200 {
		return resp.StatusCode, resp.Header, nil
	}
	if ct := resp.Header.Get("Content-Type"); ct != "image/png" {
		t.Fatalf("%s: type %q", path, ct)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if img.Bounds() != image.Rect(0, 0, boardimage.Width, boardimage.Height) {
		t.Fatalf("%s: %v", path, img.Bounds())
	}
	return 200, resp.Header, img
}

// TestGameImage checks the picture of a game: the tiles on the board as
// the public state has them, no rack while the game is played, the
// position before any move of it (?move=K), a range refused, a 304 for
// the ETag sent back, and the clients' allowance.
func TestGameImage(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	squares := func() map[[2]int]bool {
		on := map[[2]int]bool{}
		for _, tl := range e.state(id, "").Board {
			on[[2]int{*tl.Row, *tl.Col}] = true
		}
		return on
	}
	playOut(t, e, id, toks, 1)
	first := squares()
	playOut(t, e, id, toks, 1)
	on := squares()
	n := 15
	if len(on) == 0 {
		t.Fatal("no tiles after two moves")
	}
	check := func(img image.Image, want map[[2]int]bool, what string) {
		t.Helper()
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if got := boardimage.ShowsTile(img, n, r, c); got != want[[2]int{r, c}] {
					t.Errorf("%s: square (%d, %d) shows a tile: %v", what, r, c, got)
				}
			}
		}
	}
	code, hdr, img := getImage(t, e, "/api/games/"+id+"/board.png")
	if code != 200 {
		t.Fatalf("picture: %d", code)
	}
	check(img, on, "in play")
	if boardimage.ShowsRack(img, n) {
		t.Error("the picture of a game being played shows a rack")
	}
	if code, _, _ := getImage(t, e, "/api/games/"+id+"/board.png", "If-None-Match", hdr.Get("ETag")); code != 304 {
		t.Errorf("with its ETag: %d, want 304", code)
	}
	// Before move 1 only the first move's tiles are down.
	if _, _, img := getImage(t, e, "/api/games/"+id+"/board.png?move=1"); img != nil {
		check(img, first, "before move 1")
	} else {
		t.Error("before move 1: no picture")
	}
	if _, _, img := getImage(t, e, "/api/games/"+id+"/board.png?move=0"); img != nil {
		check(img, nil, "before move 0")
	}
	for _, q := range []string{"?move=2", "?move=-1", "?move=x"} {
		if code := e.do("GET", "/api/games/"+id+"/board.png"+q, "", nil, nil); code != 400 {
			t.Errorf("%s: %d, want 400", q, code)
		}
	}
	if code := e.do("GET", "/api/games/nosuchgame/board.png", "", nil, nil); code != 404 {
		t.Errorf("no such game: %d", code)
	}
	// A new move is a new picture.
	playOut(t, e, id, toks, 1)
	if code, h2, _ := getImage(t, e, "/api/games/"+id+"/board.png", "If-None-Match", hdr.Get("ETag")); code != 200 || h2.Get("ETag") == hdr.Get("ETag") {
		t.Errorf("after a move: %d, ETag %s again", code, h2.Get("ETag"))
	}
	// The allowance: imagesPerMinute a minute, then 429.
	refused := 0
	for i := 0; i < imagesPerMinute; i++ {
		if code := e.do("GET", "/api/games/"+id+"/board.png", "", nil, nil); code == 429 {
			refused++
		}
	}
	if refused == 0 {
		t.Errorf("%d more pictures in a minute were all drawn", imagesPerMinute)
	}
}

// TestPuzzleImage checks the picture of a puzzle: the position and the
// rack to solve with (TestLinkPreview asks for an endgame's).
func TestPuzzleImage(t *testing.T) {
	e := newEnv(t, nil)
	var p PuzzleInfo
	if code := e.do("GET", "/api/puzzles/en-sowpods/5", "", nil, &p); code != 200 {
		t.Fatalf("puzzle: %d", code)
	}
	code, _, img := getImage(t, e, "/api/puzzles/en-sowpods/5/board.png")
	if code != 200 {
		t.Fatalf("puzzle picture: %d", code)
	}
	if !boardimage.ShowsRack(img, 15) {
		t.Error("the puzzle's picture shows no rack")
	}
	for _, tl := range p.State.Board {
		if !boardimage.ShowsTile(img, 15, *tl.Row, *tl.Col) {
			t.Errorf("no tile on (%d, %d)", *tl.Row, *tl.Col)
		}
	}
	if code := e.do("GET", "/api/puzzles/en-sowpods/999999/board.png", "", nil, nil); code != 404 {
		t.Errorf("a puzzle not out: %d", code)
	}
}

// TestLinkPreview checks the Open Graph tags of a game's and a puzzle's
// page, the public address they are made from, and the page as it is
// for an unknown game.
func TestLinkPreview(t *testing.T) {
	e := pageEnv(t)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	playOut(t, e, id, toks, 1)
	page := func(env *testEnv, path string, hdr ...string) string {
		t.Helper()
		resp, data := getWith(t, env.url+path, hdr...)
		if resp.StatusCode != 200 || !strings.Contains(string(data), `<script src="/static/app.js?v=`) {
			t.Fatalf("%s: %d, not the page", path, resp.StatusCode)
		}
		return string(data)
	}
	meta := func(html, prop string) string {
		m := regexp.MustCompile(`<meta property="` + prop + `" content="([^"]*)">`).FindStringSubmatch(html)
		if m == nil {
			return ""
		}
		return m[1]
	}
	st := e.state(id, "")
	g := page(e, "/g/"+id)
	host := strings.TrimPrefix(e.url, "http://")
	wantTitle := fmt.Sprintf("%s %d – %s %d", st.Seats[0].Name, st.Seats[0].Score, st.Seats[1].Name, st.Seats[1].Score)
	if got := meta(g, "og:title"); got != wantTitle {
		t.Errorf("og:title %q, want %q", got, wantTitle)
	}
	img := meta(g, "og:image")
	if !strings.HasPrefix(img, "http://"+host+"/api/games/"+id+"/board.png?v=") || meta(g, "og:url") != "http://"+host+"/g/"+id {
		t.Errorf("og:image %q, og:url %q", img, meta(g, "og:url"))
	}
	if !strings.Contains(meta(g, "og:description"), "SOWPODS") {
		t.Errorf("og:description %q", meta(g, "og:description"))
	}
	if code, _, _ := getImage(t, e, strings.TrimPrefix(img, "http://"+host)); code != 200 {
		t.Errorf("the named picture: %d", code)
	}
	// Without a trusted proxy, a forwarded scheme is not believed.
	if got := meta(page(e, "/g/"+id, "X-Forwarded-Proto", "https"), "og:image"); !strings.HasPrefix(got, "http://") {
		t.Errorf("og:image %q after X-Forwarded-Proto from the client", got)
	}
	// After a move the picture's address changes, so a preview is new.
	playOut(t, e, id, toks, 1)
	if got := meta(page(e, "/g/"+id), "og:image"); got == img {
		t.Error("the same picture's address after a move")
	}
	if p := page(e, "/g/nosuchgame"); strings.Contains(p, "og:image") {
		t.Error("an unknown game's page has a picture")
	}
	if p := page(e, "/"); strings.Contains(p, "og:image") {
		t.Error("the lobby has a picture")
	}
	pz := page(e, "/puzzle/en-sowpods/5")
	if got := meta(pz, "og:image"); !strings.Contains(got, "/api/puzzles/en-sowpods/5/board.png?v=") || meta(pz, "og:title") != "Puzzle 5" {
		t.Errorf("puzzle: og:image %q, og:title %q", got, meta(pz, "og:title"))
	}
	// A tournament's page and a player's: a title and a line, no picture.
	dir := browser(t)
	e.signUp(dir, "Director", "correct horse")
	var made TournamentInfo
	if code := e.doWith(dir, "POST", "/api/tournaments", "", map[string]any{"name": "Autumn <Open>", "clock": map[string]int{"seconds": 600}, "rounds": 3}, &made); code != 201 {
		t.Fatalf("a tournament: %d", code)
	}
	tp := page(e, "/t/"+made.ID)
	if meta(tp, "og:title") != "Autumn &lt;Open&gt;" || meta(tp, "og:description") != "Swiss, 3 rounds · SOWPODS (international English) · 0 players · registration open" ||
		meta(tp, "og:image") != "" || !strings.Contains(tp, `<meta name="twitter:card" content="summary">`) {
		t.Errorf("the tournament's page: og:title %q, og:description %q, og:image %q", meta(tp, "og:title"), meta(tp, "og:description"), meta(tp, "og:image"))
	}
	pp := page(e, "/p/director")
	if meta(pp, "og:title") != "Director" || meta(pp, "og:description") != "A player on atril" || meta(pp, "og:url") != "http://"+host+"/p/director" {
		t.Errorf("the player's page: og:title %q, og:description %q", meta(pp, "og:title"), meta(pp, "og:description"))
	}
	if p := page(e, "/p/nobody-at-all"); strings.Contains(p, "og:title") {
		t.Error("an unknown player's page has a preview")
	}
	// A configured public address names the pictures.
	cfg := testConfig(newStore(t))
	cfg.Static = web.FS()
	cfg.PublicURL = "https://play.example.org/"
	e2 := newEnvConfig(t, cfg)
	if got := meta(page(e2, "/puzzle/en-sowpods/5"), "og:image"); !strings.HasPrefix(got, "https://play.example.org/api/puzzles/") {
		t.Errorf("with a public address: og:image %q", got)
	}
	cfg.PublicURL = "ftp://x"
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "public address") {
		t.Errorf("a bad public address: %v", err)
	}
	if testing.Short() {
		return
	}
	// Today's endgame (made in a few seconds).
	eg := meta(page(e, "/endgame"), "og:image")
	if !strings.Contains(eg, "/api/endgames/en-sowpods/") {
		t.Errorf("today's endgame: og:image %q", eg)
	} else if code, _, img := getImage(t, e, strings.TrimPrefix(eg, "http://"+host)); code != 200 || !boardimage.ShowsRack(img, 15) {
		t.Errorf("today's endgame's picture: %d", code)
	}
}

// TestGameGIF: a finished game as an animation, a frame before each move
// and one for the end, whose last frame shows the final board; refused
// while the game is played.
func TestGameGIF(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	playOut(t, e, id, toks, 1)
	if code := e.do("GET", "/api/games/"+id+"/game.gif", "", nil, nil); code != 409 {
		t.Errorf("a game being played: %d, want 409", code)
	}
	playOut(t, e, id, toks, 200)
	st := e.state(id, "")
	var rv Review
	if code := e.do("GET", "/api/games/"+id+"/review", "", nil, &rv); code != 200 {
		t.Fatalf("review: %d", code)
	}
	moves := 0
	for _, tu := range rv.Turns {
		if tu.Kind == "place" || tu.Kind == "exchange" || tu.Kind == "pass" {
			moves++
		}
	}
	resp, data := getWith(t, e.url+"/api/games/"+id+"/game.gif")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/gif" {
		t.Fatalf("the animation: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != moves+1 || g.Delay[len(g.Delay)-1] != 400 {
		t.Fatalf("%d frames (want %d), last delay %d", len(g.Image), moves+1, g.Delay[len(g.Delay)-1])
	}
	canvas := image.NewRGBA(image.Rect(0, 0, boardimage.Width, boardimage.Height))
	for _, fr := range g.Image {
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Src)
	}
	for _, tl := range st.Board {
		if !boardimage.ShowsTile(canvas, 15, *tl.Row, *tl.Col) {
			t.Errorf("the last frame has no tile on (%d, %d)", *tl.Row, *tl.Col)
		}
	}
	t.Logf("%d frames, %d bytes", len(g.Image), len(data))
}

// TestRatingLine: a player's preview names the rating of the category of
// the most games.
func TestRatingLine(t *testing.T) {
	s := &Server{}
	for _, tc := range []struct {
		rs   []store.Rating
		want string
	}{
		{nil, "A player on atril"},
		{[]store.Rating{{Category: "en-sowpods/blitz", R: 1499.6, Games: 1, Wins: 1}}, "Rated 1500 in SOWPODS (international English) (blitz) · won 1 of 1 game"},
		{[]store.Rating{{Category: "en-sowpods/blitz", R: 1600, Games: 2, Wins: 1}, {Category: "es-fise/regular", R: 1400, Games: 5, Wins: 3}},
			"Rated 1400 in FISE (Spanish) (regular) · won 3 of 5 games"},
	} {
		if got := s.ratingLine(tc.rs); got != tc.want {
			t.Errorf("ratingLine(%v) = %q, want %q", tc.rs, got, tc.want)
		}
	}
}

// TestGameGIFLongGame: a game that exchanges for as long as its players
// like (Spanish ends only on passes) is not animated past
// maxAnimatedMoves: each frame costs a picture's drawing, and the
// frames are worked out holding the game.
func TestGameGIFLongGame(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.Variants = []string{"english", "spanish"}
	cfg.Lexicons = []string{"en-sowpods", "es-fise"}
	e := newEnvConfig(t, cfg)
	var cr CreateResponse
	if code := e.do("POST", "/api/games", "", map[string]any{"variant": "spanish", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "seed": 7}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id := cr.ID
	toks := []string{e.join(id).Token, e.join(id).Token}
	for k := 0; k <= maxAnimatedMoves; k++ {
		tok := toks[k%2]
		st := e.state(id, tok)
		if code := e.do("POST", "/api/games/"+id+"/move", tok, map[string]any{"kind": "exchange", "exchange": []string{st.You.Rack[0].Letter}}, nil); code != 200 {
			t.Fatalf("exchange %d: %d", k, code)
		}
	}
	if code := e.do("POST", "/api/games/"+id+"/resign", toks[0], nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	if code := e.do("GET", "/api/games/"+id+"/game.gif", "", nil, nil); code != 422 {
		t.Errorf("an animation of %d moves: %d, want 422", maxAnimatedMoves+1, code)
	}
}

// TestGamePictureUnfinished: a game abandoned after some moves, and an
// imported record that stops before the end, have no winner (the state
// names none), so their pictures name none either.
func TestGamePictureUnfinished(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.ExpireIdle = 300 * time.Millisecond
	e := newEnvConfig(t, cfg)
	picture := func(id string) *boardimage.Position {
		t.Helper()
		p, _ := gamePictureOf(t, e, id)
		return p
	}
	check := func(what string, p *boardimage.Position, want string) {
		t.Helper()
		if got := p.Lines[len(p.Lines)-1]; got != want {
			t.Errorf("%s: the picture says %q, want %q", what, got, want)
		}
		for _, sc := range p.Scores {
			if sc.Marked {
				t.Errorf("%s: %s marked as the winner", what, sc.Name)
			}
		}
	}
	idle := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(idle).Token, e.join(idle).Token}
	playOut(t, e, idle, toks, 2)
	waitFor(t, "the game abandoned", func() bool { return e.state(idle, "").Abandoned })
	if st := e.state(idle, ""); len(st.Winners) != 0 || st.Seats[0].Score == st.Seats[1].Score {
		t.Fatalf("abandoned: winners %v, scores %d and %d", st.Winners, st.Seats[0].Score, st.Seats[1].Score)
	}
	check("abandoned", picture(idle), "Abandoned")

	done := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks = []string{e.join(done).Token, e.join(done).Token}
	playOut(t, e, done, toks, 200)
	var kept []string
	turns := 0
	for _, line := range strings.SplitAfter(e.gcgOf(done), "\n") {
		if strings.HasPrefix(line, ">") {
			if turns++; turns > 3 {
				continue
			}
		} else if strings.HasPrefix(line, "#rack") {
			continue
		}
		kept = append(kept, line)
	}
	id := e.importGCG(strings.Join(kept, ""), "")
	if st := e.state(id, ""); !st.Over || len(st.Winners) != 0 || st.Moves != 3 {
		t.Fatalf("imported: over %v, winners %v, %d moves", st.Over, st.Winners, st.Moves)
	}
	check("a record that stops", picture(id), "The record stops here")
}

// TestGamePictureKey: two pictures that differ only in the row shaded
// (seats of the same name, a pass between them) are not one picture in
// the cache.
func TestGamePictureKey(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Ana"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	key := func() (string, []boardimage.Score) {
		t.Helper()
		p, key := gamePictureOf(t, e, id)
		return key, p.Scores
	}
	before, sb := key()
	if code := e.do("POST", "/api/games/"+id+"/move", toks[0], `{"kind":"pass"}`, nil); code != 200 {
		t.Fatalf("pass: %d", code)
	}
	after, sa := key()
	if fmt.Sprint(sb) == fmt.Sprint(sa) {
		t.Fatalf("the same rows before and after a pass: %v", sa)
	}
	if before == after {
		t.Errorf("one key for %v and %v", sb, sa)
	}
}

// TestLinkPreviewURL: the address a preview names is the page's as it
// was asked for, escaped (a name with an accent).
func TestLinkPreviewURL(t *testing.T) {
	e := pageEnv(t)
	e.signUp(browser(t), "José", "correct horse")
	resp, data := getWith(t, e.url+"/p/Jos%C3%A9")
	want := `<meta property="og:url" content="` + e.url + `/p/Jos%C3%A9">`
	if resp.StatusCode != 200 || !strings.Contains(string(data), want) {
		t.Errorf("%d, no %s in\n%s", resp.StatusCode, want, regexp.MustCompile(`<meta[^>]*>`).FindAllString(string(data), -1))
	}
}

// gamePictureOf is what the picture of game id as it stands shows, and
// its key.
func gamePictureOf(t *testing.T, e *testEnv, id string) (*boardimage.Position, string) {
	t.Helper()
	l, err := e.srv.game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	p, key, err := l.gamePicture(-1)
	if err != nil {
		t.Fatal(err)
	}
	return p, key
}

// TestImagesCache: the cache keeps the pictures asked for most recently,
// draws each once, and passes on a drawing's error without keeping it.
func TestImagesCache(t *testing.T) {
	im := &images{size: 3}
	drawn := map[string]int{}
	get := func(key string) {
		t.Helper()
		data, err := im.get(context.Background(), key, func(w io.Writer) error {
			drawn[key]++
			_, err := io.WriteString(w, key)
			return err
		})
		if err != nil || string(data) != key {
			t.Fatalf("get %s: %q, %v", key, data, err)
		}
	}
	for _, k := range []string{"a", "b", "c", "a", "d", "a", "c"} {
		get(k)
	}
	// d pushed out b, the least recently asked for; a and c stayed.
	get("b")
	if drawn["a"] != 1 || drawn["c"] != 1 || drawn["d"] != 1 || drawn["b"] != 2 {
		t.Errorf("drawings: %v", drawn)
	}
	if _, err := im.get(context.Background(), "bad", func(io.Writer) error { return errors.New("no") }); err == nil {
		t.Error("a drawing's error was lost")
	}
	if len(im.m) != 3 || im.m["bad"] != nil {
		t.Errorf("kept: %v", slices.Sorted(maps.Keys(im.m)))
	}
}
