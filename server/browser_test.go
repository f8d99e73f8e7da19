package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/store"
	"atril/web"
)

// ScreenshotsEnv names the environment variable of the directory where
// the browser test saves its screenshots (default: a temporary one).
const ScreenshotsEnv = "ATRIL_SCREENSHOTS"

// findChromium returns the path of a Chromium or Chrome binary, or "".
func findChromium() string {
	if p := os.Getenv("ATRIL_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// browserEnv starts a server with the page and a headless Chromium on a
// fresh profile, or skips the test when there is no Chromium. It returns
// the server, a browser tab and the screenshot directory.
func browserEnv(t *testing.T) (*testEnv, context.Context, string) {
	chrome := findChromium()
	if chrome == "" {
		t.Skip("browser test NOT run: no Chromium found (install Debian's chromium, see .ci/install-chromium.sh, or set ATRIL_CHROMIUM)")
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := os.Getenv(ScreenshotsEnv)
	if shots == "" {
		shots = t.TempDir()
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := testConfig(st)
	cfg.Static = web.FS()
	cfg.ThinkTime = 100 * time.Millisecond
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	e := &testEnv{t: t, srv: srv, hs: hs, st: st, url: hs.URL}

	// The profile directory is removed after the browser is stopped
	// (cleanups run last-registered first), with a few retries because
	// Chromium's helper processes may still be writing to it as they exit;
	// t.TempDir would fail the test on such a late write.
	profile, err := os.MkdirTemp("", "atril-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; i < 20; i++ {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove the browser profile %s", profile)
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	// Events of newer browsers that this protocol version cannot decode
	// are logged by chromedp as errors; they are harmless here.
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithErrorf(func(format string, args ...any) {
		if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "could not unmarshal event") {
			t.Logf("chromedp: %s", msg)
		}
	}))
	t.Cleanup(cancelC)
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelT)
	return e, ctx, shots
}

// TestBrowserGame drives the page in headless Chromium: it creates a game
// against the computer, sees an invalid word refused, plays legal moves by
// clicking (and one tile by dragging), and plays to the end of the game.
func TestBrowserGame(t *testing.T) {
	e, ctx, shots := browserEnv(t)
	run := func(what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	shot := func(name string) {
		t.Helper()
		var buf []byte
		run("screenshot "+name, chromedp.FullScreenshot(&buf, 100))
		p := filepath.Join(shots, name)
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", p)
	}

	// Create a game against the computer.
	var ready bool
	run("open the home page", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(e.url+"/"),
		chromedp.WaitVisible(`#create`),
		chromedp.Poll(`document.querySelector('#opponent option[value="computer:professional"]') !== null`, &ready,
			chromedp.WithPollingTimeout(20*time.Second)))
	run("create", chromedp.SendKeys("#name", "Tester"), chromedp.Evaluate(`document.querySelector("#opponent").value = "computer:professional"`, nil))
	shot("01-home.png")
	run("start", chromedp.Click("#create"), chromedp.WaitVisible(`#board .sq[data-r="7"][data-c="7"]`), chromedp.WaitVisible(`#rack .tile`))
	var path, tok string
	run("read the game", chromedp.Evaluate(`location.pathname`, &path))
	id := strings.TrimPrefix(path, "/g/")
	run("read the token", chromedp.Evaluate(`localStorage.getItem("atril:token:`+id+`")`, &tok))
	if tok == "" {
		t.Fatal("no token saved by the page")
	}
	run("no confirm dialogs", chromedp.Evaluate(`window.confirm = () => true`, nil))

	// waitTurn waits until the page shows our turn (or the end) at move
	// count >= moves, and returns the server's state.
	waitTurn := func(moves int) *State {
		t.Helper()
		var ok bool
		run("wait for our turn", chromedp.Poll(fmt.Sprintf(
			`G.st && G.st.moves >= %d && (G.st.over || G.st.turn === 0) && document.querySelectorAll("#rack .tile").length === (G.st.over ? 0 : G.st.you.rack.length) || (G.st && G.st.over)`, moves),
			&ok, chromedp.WithPollingTimeout(60*time.Second)))
		return e.state(id, tok)
	}
	// clickAt clicks the middle of the element sel by mouse position, as
	// a person does (the page redraws its elements on every update, so a
	// click on a remembered DOM node could miss).
	clickAt := func(sel string) {
		t.Helper()
		var at []float64
		run("locate "+sel, chromedp.Evaluate(fmt.Sprintf(
			`(() => { const b = document.querySelector(%q).getBoundingClientRect(); return [b.x + b.width/2, b.y + b.height/2]; })()`, sel), &at))
		run("click "+sel, chromedp.MouseClickXY(at[0], at[1]))
	}
	// put places rack tile with letter (or a blank) on a square, by clicks
	// or by dragging.
	put := func(letter string, blank bool, r, c int, drag bool) {
		t.Helper()
		var i int
		run("find "+letter, chromedp.Evaluate(fmt.Sprintf(
			`G.rack.findIndex((x, i) => (%v ? x.blank : (!x.blank && x.letter === %q)) && !G.pending.some((p) => p.i === i))`, blank, letter), &i))
		if i < 0 {
			t.Fatalf("tile %s (blank %v) not on the page's rack", letter, blank)
		}
		rackSel := fmt.Sprintf(`#rack .tile[data-i="%d"]`, i)
		sqSel := fmt.Sprintf(`#board .sq[data-r="%d"][data-c="%d"]`, r, c)
		if drag {
			var from, to []float64
			center := `(s) => { const b = document.querySelector(s).getBoundingClientRect(); return [b.x + b.width/2, b.y + b.height/2]; }`
			run("locate", chromedp.Evaluate(`(`+center+`)(`+fmt.Sprintf("%q", rackSel)+`)`, &from),
				chromedp.Evaluate(`(`+center+`)(`+fmt.Sprintf("%q", sqSel)+`)`, &to))
			acts := []chromedp.Action{chromedp.MouseEvent(input.MousePressed, from[0], from[1], chromedp.ButtonLeft)}
			for k := 1; k <= 8; k++ {
				f := float64(k) / 8
				acts = append(acts, chromedp.MouseEvent(input.MouseMoved, from[0]+(to[0]-from[0])*f, from[1]+(to[1]-from[1])*f, chromedp.ButtonLeft))
			}
			acts = append(acts, chromedp.MouseEvent(input.MouseReleased, to[0], to[1], chromedp.ButtonLeft))
			run("drag "+letter, acts...)
		} else {
			clickAt(rackSel)
			clickAt(sqSel)
		}
		if blank {
			run("choose the blank's letter", chromedp.WaitVisible(`#blank-dialog[open]`),
				chromedp.Evaluate(fmt.Sprintf(`[...document.querySelectorAll("#blank-letters button")].find((b) => b.textContent === %q).click()`, letter), nil))
		}
		var placed bool
		run("check placement", chromedp.Evaluate(fmt.Sprintf(`G.pending.some((p) => p.row === %d && p.col === %d)`, r, c), &placed))
		if !placed {
			shot("failed.png")
			t.Fatalf("tile %s not placed on %d,%d (drag %v)", letter, r, c, drag)
		}
	}

	// An invalid word first: two rack tiles on the start square that do
	// not make a word.
	s0 := waitTurn(0)
	if s0.Turn != 0 {
		t.Fatalf("the computer moved first? turn %d", s0.Turn)
	}
	v := boardOf(t, s0).V
	lex := boardOf(t, s0).Words().(*lexicon.Lexicon)
	var bad [2]Tile
	found := false
	for i := 0; i < len(s0.You.Rack) && !found; i++ {
		for j := 0; j < len(s0.You.Rack) && !found; j++ {
			x, y := s0.You.Rack[i], s0.You.Rack[j]
			if i == j || x.Blank || y.Blank {
				continue
			}
			w, err := v.Alphabet.Parse(x.Letter+y.Letter, alphabet.Plain)
			if err == nil && !lex.Contains(w) {
				bad, found = [2]Tile{x, y}, true
			}
		}
	}
	if found {
		put(bad[0].Letter, false, 7, 7, false)
		put(bad[1].Letter, false, 7, 8, false)
		run("submit a non-word", chromedp.Click("#submit"),
			chromedp.WaitVisible(`#message.error`))
		var msg string
		run("read the refusal", chromedp.Text("#message", &msg))
		if !strings.Contains(msg, "not a word") {
			t.Errorf("refusal message %q does not say why", msg)
		}
		shot("02-rejected.png")
		run("recall", chromedp.Click("#recall"))
	} else {
		t.Log("every pair of rack tiles makes a word; no invalid move tried")
	}
	if after := e.state(id, ""); after.Moves != 0 {
		t.Fatalf("the refused move changed the game: %d moves", after.Moves)
	}

	// Play to the end: our best move each turn, placed by clicking.
	placements, passes := 0, 0
	next := 0 // the least move count at which it can be our turn again
	for turn := 0; turn < 200; turn++ {
		s := waitTurn(next)
		if s.Over {
			break
		}
		req, m := bestRequest(t, s)
		if m == nil {
			run("pass", chromedp.Click("#pass"))
			passes++
		} else {
			tiles := req["tiles"].([]PlacedTile)
			for k, p := range tiles {
				put(p.Letter, p.Blank, p.Row, p.Col, placements == 0 && k == 0)
			}
			if placements == 1 {
				shot("03-placing.png")
			}
			run("submit", chromedp.Click("#submit"))
			placements++
		}
		// Wait until the server has the move.
		deadline := time.Now().Add(20 * time.Second)
		for e.state(id, "").Moves == s.Moves && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if e.state(id, "").Moves == s.Moves {
			var msg string
			chromedp.Run(ctx, chromedp.Text("#message", &msg))
			t.Fatalf("turn %d: the move was not accepted (page says %q)", turn, msg)
		}
		next = s.Moves + 2
		if placements == 4 && m != nil {
			run("phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
			waitTurn(next)
			shot("04-phone.png")
			run("desktop width", chromedp.EmulateViewport(1280, 900))
		}
	}
	final := e.state(id, "")
	if !final.Over {
		t.Fatal("the game did not end")
	}
	run("see the result", chromedp.WaitVisible(`#result #gcg-link`))
	var result string
	run("read the result", chromedp.Text("#result", &result))
	if !strings.Contains(result, "Game over") {
		t.Errorf("result box says %q", result)
	}
	shot("05-game-over.png")
	t.Logf("game %s: %d placements and %d passes by clicking, %d moves in all; final %d–%d",
		id, placements, passes, final.Moves, final.Seats[0].Score, final.Seats[1].Score)
	if placements < 2 {
		t.Errorf("only %d placements were played through the page", placements)
	}
	_ = board.Empty
}

// TestBrowserTwoPeople has one person create a game for two people and
// send the link; a second person (another browser profile) opens it,
// joins, and sees the first person's move arrive.
func TestBrowserTwoPeople(t *testing.T) {
	e, ctxA, shots := browserEnv(t)
	run := func(ctx context.Context, what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	var ready bool
	run(ctxA, "open the home page", chromedp.Navigate(e.url+"/"), chromedp.WaitVisible(`#create`),
		chromedp.Poll(`document.querySelector('#opponent option[value="human"]') !== null`, &ready, chromedp.WithPollingTimeout(20*time.Second)))
	run(ctxA, "create a game for two people", chromedp.SendKeys("#name", "Ana"),
		chromedp.Evaluate(`document.querySelector("#opponent").value = "human"`, nil),
		chromedp.Click("#create"), chromedp.WaitVisible(`#share`))
	var link string
	run(ctxA, "read the link", chromedp.Value("#share-url", &link))
	if !strings.HasPrefix(link, e.url+"/g/") {
		t.Fatalf("share link %q", link)
	}
	var buf []byte
	run(ctxA, "screenshot", chromedp.FullScreenshot(&buf, 100))
	if err := os.WriteFile(filepath.Join(shots, "06-share-link.png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
	// The second person: a separate browser profile, so no token.
	ctxB, cancel := chromedp.NewContext(ctxA, chromedp.WithNewBrowserContext())
	defer cancel()
	run(ctxB, "open the link", chromedp.Navigate(link), chromedp.WaitVisible(`#join-button`),
		chromedp.SendKeys("#join-name", "Bea"), chromedp.Click("#join-button"), chromedp.WaitVisible(`#rack .tile`))
	id := strings.TrimPrefix(link, e.url+"/g/")
	var tokA string
	run(ctxA, "token", chromedp.Evaluate(`localStorage.getItem("atril:token:`+id+`")`, &tokA))
	// Ana's page sees the game start; she plays by the API (the clicking
	// is covered by TestBrowserGame) and Bea's page shows the move.
	run(ctxA, "game started", chromedp.WaitNotVisible(`#share`), chromedp.WaitEnabled(`#submit`))
	st := e.state(id, tokA)
	req, m := bestRequest(t, st)
	if m == nil {
		t.Fatal("no first move")
	}
	if code := e.do("POST", "/api/games/"+id+"/move", tokA, req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	var moves int
	run(ctxB, "see the move", chromedp.Poll(`G.st && G.st.moves`, &moves, chromedp.WithPollingTimeout(10*time.Second)))
	var turn string
	run(ctxB, "turn", chromedp.Text("#turn", &turn), chromedp.FullScreenshot(&buf, 100))
	if turn != "Your turn." {
		t.Errorf("Bea's page says %q after Ana's move", turn)
	}
	if err := os.WriteFile(filepath.Join(shots, "07-second-player.png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
