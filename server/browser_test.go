package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/serviceworker"
	cdpwebauthn "github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/internal/password"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/puzzle"
	"atril/rating"
	"atril/store"
	"atril/variant"
	"atril/web"
	"atril/webpush/webpushtest"
)

// ScreenshotsEnv names the environment variable of the directory where
// the browser tests save their screenshots (default: a temporary one;
// the committed ones in web/screenshots are made with
// ATRIL_SCREENSHOTS=../web/screenshots).
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

var (
	spanishOnce sync.Once
	spanishLex  *lexicon.Lexicon
	spanishErr  error
)

// shortSpanish is the Spanish list cut to words of at most four tiles
// (LLAMA is LL·A·M·A): quick games that still use CH, LL, RR and Ñ.
func shortSpanish(v *variant.Variant) (*lexicon.Lexicon, error) {
	spanishOnce.Do(func() {
		full, err := lexicon.Open("es-fise", v.Alphabet, lexicon.Options{MaxLen: v.Size})
		if err != nil {
			spanishErr = err
			return
		}
		var ws [][]alphabet.Tile
		for i := 0; i < full.Len(); i++ {
			if w := full.Word(i); len(w) <= 4 {
				ws = append(ws, append([]alphabet.Tile(nil), w...))
			}
		}
		spanishLex = lexicon.FromTiles(v.Alphabet, ws)
	})
	return spanishLex, spanishErr
}

var (
	czechOnce sync.Once
	czechLex  *lexicon.Lexicon
	czechErr  error
)

// shortCzech is the Czech list cut to words of at most four letters.
func shortCzech(v *variant.Variant) (*lexicon.Lexicon, error) {
	czechOnce.Do(func() {
		full, err := lexicon.Open("cs-hunspell-2to9", v.Alphabet, lexicon.Options{MaxLen: v.Size})
		if err != nil {
			czechErr = err
			return
		}
		var ws [][]alphabet.Tile
		for i := 0; i < full.Len(); i++ {
			if w := full.Word(i); len(w) <= 4 {
				ws = append(ws, append([]alphabet.Tile(nil), w...))
			}
		}
		czechLex = lexicon.FromTiles(v.Alphabet, ws)
	})
	return czechLex, czechErr
}

// browserLex is the word list the browser tests' server uses for a variant.
func browserLex(v *variant.Variant) (*lexicon.Lexicon, error) {
	switch v.Name {
	case "spanish":
		return shortSpanish(v)
	case "czech":
		return shortCzech(v)
	}
	return shortWords(v)
}

// stepTimeout bounds one step of a browser test.
const stepTimeout = 90 * time.Second

// rig is a server with the page and a headless Chromium on a fresh
// profile.
type rig struct {
	t     *testing.T
	e     *testEnv
	ctx   context.Context // the first tab
	shots string
}

// newRig starts the server and the browser, or skips the test when there
// is no Chromium. Computer seats move at once.
func newRig(t *testing.T) *rig { return newRigWith(t, nil) }

// newRigWith is newRig with the server's configuration changed by set
// (nil: as it is).
func newRigWith(t *testing.T, set func(*Config)) *rig {
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
	cfg.Variants = []string{"english", "spanish", "czech"}
	cfg.Lexicons = []string{"en-sowpods", "es-fise", "cs-hunspell-2to9"}
	cfg.LoadLexicon = func(v *variant.Variant, name string) (*lexicon.Lexicon, error) { return browserLex(v) }
	cfg.Static = web.FS()
	cfg.ThinkTime = 0
	if set != nil {
		set(&cfg)
	}
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
		chromedp.Flag("lang", "en-US"), chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1280, 800),
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
	ctx, cancelT := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancelT)
	r := &rig{t: t, e: e, ctx: ctx, shots: shots}
	r.watch(ctx)
	r.run(ctx, "start the browser", chromedp.EmulateViewport(1280, 800))
	return r
}

// cspGuard throws, in the page, on anything its content security
// policy blocks, so that watch fails the test.
const cspGuard = `document.addEventListener("securitypolicyviolation", (e) => {
	throw new Error("blocked by the content security policy: " + e.violatedDirective + " " + e.blockedURI);
});`

// watch fails the test on any error the page's JavaScript throws and on
// anything the page's content security policy blocks.
func (r *rig) watch(ctx context.Context) {
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(cspGuard).Do(ctx)
		return err
	})); err != nil {
		r.t.Fatalf("the policy guard: %v", err)
	}
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			r.t.Errorf("JavaScript error in the page: %s (line %d)", msg, d.LineNumber)
		}
	})
}

// newDevice opens a tab in a separate browser profile: another device,
// with its own storage.
func (r *rig) newDevice() context.Context {
	ctx, cancel := chromedp.NewContext(r.ctx, chromedp.WithNewBrowserContext())
	r.t.Cleanup(cancel)
	r.watch(ctx)
	r.run(ctx, "open a device", chromedp.EmulateViewport(1280, 800))
	return ctx
}

// newTab opens another tab of the same browser profile.
func (r *rig) newTab() context.Context {
	ctx, cancel := chromedp.NewContext(r.ctx)
	r.t.Cleanup(cancel)
	r.watch(ctx)
	r.run(ctx, "open a tab", chromedp.EmulateViewport(1280, 800))
	return ctx
}

func (r *rig) run(ctx context.Context, what string, acts ...chromedp.Action) {
	r.t.Helper()
	run := ctx
	if chromedp.FromContext(ctx).Target != nil {
		// A tab already open: a step that waits on a stuck browser fails
		// the test in time, not the package at its deadline. (The first
		// step of a tab opens it, and the tab lives as long as the
		// context of that step.)
		var cancel context.CancelFunc
		run, cancel = context.WithTimeout(ctx, stepTimeout)
		defer cancel()
	}
	if err := chromedp.Run(run, acts...); err != nil {
		var msg string
		chromedp.Run(ctx, chromedp.Evaluate(`["#message", "#preview", "#analysis"].map((s) => (document.querySelector(s) || {}).textContent || "").filter((x) => x).join(" | ")`, &msg))
		r.t.Fatalf("%s: %v (page says %q)", what, err, msg)
	}
}

func (r *rig) eval(ctx context.Context, expr string, out any) {
	r.t.Helper()
	r.run(ctx, "evaluate "+expr, chromedp.Evaluate(expr, out))
}

// poll waits until expr is true in the page.
func (r *rig) poll(ctx context.Context, what, expr string, timeout time.Duration) {
	r.t.Helper()
	var ok bool
	r.run(ctx, what, chromedp.Poll(expr, &ok, chromedp.WithPollingTimeout(timeout)))
}

// shot saves full-page screenshots of the page at 1280×800 and at
// 390×844 (a phone), as NAME-1280.png and NAME-390.png.
func (r *rig) shot(ctx context.Context, name string) {
	r.t.Helper()
	for _, size := range [][2]int64{{390, 844}, {1280, 800}} {
		var buf []byte
		r.run(ctx, "screenshot "+name, chromedp.EmulateViewport(size[0], size[1]), chromedp.Sleep(150*time.Millisecond),
			chromedp.FullScreenshot(&buf, 100))
		p := filepath.Join(r.shots, fmt.Sprintf("%s-%d.png", name, size[0]))
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// key presses a named key (kb.Enter, kb.ArrowLeft, ...) or a character.
func (r *rig) key(ctx context.Context, k string) {
	r.t.Helper()
	r.run(ctx, "press "+k, chromedp.KeyEvent(k))
}

// typeRune presses the key of one letter, with Shift when shift is set,
// as a keyboard of the language does (keydown with that key).
func (r *rig) typeRune(ctx context.Context, ch rune, shift bool) {
	r.t.Helper()
	var mods input.Modifier
	if shift {
		mods = input.ModifierShift
	}
	s := string(ch)
	r.run(ctx, "type "+s,
		input.DispatchKeyEvent(input.KeyDown).WithKey(s).WithText(s).WithModifiers(mods),
		input.DispatchKeyEvent(input.KeyUp).WithKey(s).WithModifiers(mods))
}

// tabTo presses Tab until the focus is on an element matching sel.
func (r *rig) tabTo(ctx context.Context, sel string) {
	r.t.Helper()
	for i := 0; i < 150; i++ {
		var ok bool
		r.eval(ctx, fmt.Sprintf(`!!(document.activeElement && document.activeElement.matches(%q))`, sel), &ok)
		if ok {
			return
		}
		r.key(ctx, kb.Tab)
	}
	r.t.Fatalf("Tab never reached %s", sel)
}

// clickAt clicks the middle of the element sel by mouse position, as a
// person does (the page redraws its elements on every update, so a click
// on a remembered DOM node could miss).
func (r *rig) clickAt(ctx context.Context, sel string) {
	r.t.Helper()
	at := r.stablePoint(ctx, sel, true)
	r.run(ctx, "click "+sel, chromedp.MouseClickXY(at[0], at[1]))
}

// stablePoint returns the center of the element sel, scrolled into view
// first with scroll (a drag leaves it out: scrolling to its end would
// move its start).
// The page may still be moving things (a notification re-renders it, a
// longer message line pushes the buttons down): the point is taken once
// two looks 40 ms apart agree and the element there is the one asked
// for, so that a busy machine does not click or drag beside it.
func (r *rig) stablePoint(ctx context.Context, sel string, scroll bool) []float64 {
	r.t.Helper()
	measure := fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (%v) e.scrollIntoView({block: "nearest"}); const b = e.getBoundingClientRect();
		const x = b.x + b.width/2, y = b.y + b.height/2, hit = document.elementFromPoint(x, y);
		return [x, y, hit && (hit === e || e.contains(hit)) ? 1 : 0]; })()`, sel, scroll)
	var at, prev []float64
	for tries := 0; ; tries++ {
		r.eval(ctx, measure, &at)
		if at[2] == 1 && prev != nil && at[0] == prev[0] && at[1] == prev[1] || tries == 50 {
			return at
		}
		prev = at
		time.Sleep(40 * time.Millisecond)
	}
}

// seedNextGame makes the game the page creates next use a given bag
// seed (the tests' server accepts one), so that a whole game played
// through the lobby is the same at every run: a random bag can close the
// board of the tests' short word list after a few moves.
func (r *rig) seedNextGame(ctx context.Context, seed uint64) {
	r.t.Helper()
	r.eval(ctx, fmt.Sprintf(`(() => {
		const f = window.fetch;
		window.fetch = (url, opt) => {
			if (url === "/api/games" && opt && opt.method === "POST") opt = {...opt, body: JSON.stringify({...JSON.parse(opt.body), seed: %d})};
			return f(url, opt);
		};
		return true;
	})()`, seed), nil)
}

// stateJSON reads a game's state as the server gives it, as raw JSON.
func (r *rig) stateJSON(id, tok string) map[string]any {
	r.t.Helper()
	var m map[string]any
	if code := r.e.do("GET", "/api/games/"+id, tok, nil, &m); code != 200 {
		r.t.Fatalf("state: %d", code)
	}
	return m
}

// axe runs axe-core (server/testdata/axe, never shipped with the page)
// on the page and returns a score: the share of the rules that apply to
// the page which it passes, in percent. It logs every violation.
func (r *rig) axe(ctx context.Context, what string) float64 {
	r.t.Helper()
	f, err := os.Open("testdata/axe/axe.min.js.gz")
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		r.t.Fatal(err)
	}
	src, err := io.ReadAll(zr)
	if err != nil {
		r.t.Fatal(err)
	}
	var loaded bool
	r.run(ctx, "load axe", chromedp.Evaluate(string(src)+";\ntrue", &loaded))
	var res struct {
		Violations []struct {
			ID     string `json:"id"`
			Impact string `json:"impact"`
			Help   string `json:"help"`
			Nodes  []struct {
				Target []any  `json:"target"`
				HTML   string `json:"html"`
			} `json:"nodes"`
		} `json:"violations"`
		Passes []struct {
			ID string `json:"id"`
		} `json:"passes"`
		Incomplete []struct {
			ID string `json:"id"`
		} `json:"incomplete"`
	}
	r.run(ctx, "run axe", chromedp.Evaluate(`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}}).then((r) => ({violations: r.violations, passes: r.passes, incomplete: r.incomplete}))`,
		&res, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	for _, v := range res.Violations {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, fmt.Sprint(n.Target...))
			if len(where) == 3 {
				break
			}
		}
		html := v.Nodes[0].HTML
		if len(html) > 300 {
			html = html[:300] + "…"
		}
		r.t.Logf("axe, %s: %s (%s): %s; %d elements, e.g. %s; the first: %s", what, v.ID, v.Impact, v.Help, len(v.Nodes), strings.Join(where, " "), html)
	}
	score := 100 * float64(len(res.Passes)) / float64(len(res.Passes)+len(res.Violations))
	var review []string
	for _, x := range res.Incomplete {
		review = append(review, x.ID)
	}
	r.t.Logf("axe, %s: %d rules pass, %d fail: score %.0f (left for a person to judge: %v)", what, len(res.Passes), len(res.Violations), score, review)
	return score
}

// checkLayout checks the game page at a width: no sideways scrolling;
// the rack and the buttons each on one line with no label cut; every
// square of the board as tall as wide, all alike; the coordinates A, B, …
// over the columns and 1, 2, … beside the rows, each centred on its
// column or row; no tile's points over its letters (double tiles
// included); each placement of the move list on one line; the header's
// line of text whole or not shown.
func (r *rig) checkLayout(ctx context.Context, width int64, what string) {
	r.t.Helper()
	var got struct {
		Overflow       bool
		RackRows       int
		ButtonRows     int
		Clipped        []string
		MinW, MaxW     float64
		MinH, MaxH     float64
		PointsOver     []string
		BadCoords      []string
		WrappedMoves   []string
		SubtitleCut    bool
		Squares, Moves int
	}
	r.run(ctx, "set the width", chromedp.EmulateViewport(width, 760), chromedp.Sleep(150*time.Millisecond))
	r.eval(ctx, `(() => {
		const shown = (x) => !!x.offsetParent;
		const rows = (sel) => new Set([...document.querySelectorAll(sel)].filter(shown).map((x) => Math.round(x.getBoundingClientRect().top))).size;
		const sq = [...document.querySelectorAll("#board .sq")].map((x) => x.getBoundingClientRect());
		const ws = sq.map((b) => b.width), hs = sq.map((b) => b.height);
		const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
		const pointsOver = [...document.querySelectorAll("#rack .tile, #board .tile")].filter(shown).filter((t) => {
			const p = t.querySelector(".pts");
			return p && overlap(t.querySelector(".l").getBoundingClientRect(), p.getBoundingClientRect());
		}).map((t) => t.textContent);
		const n = G.st.size, mid = (b, x) => x ? (b.left + b.right) / 2 : (b.top + b.bottom) / 2;
		const cols = [...document.querySelectorAll("#board .brow:first-child .coord:not(.corner)")];
		const rowsH = [...document.querySelectorAll("#board .brow:not(:first-child) .coord")];
		const bad = [];
		if (cols.length !== n || rowsH.length !== n) bad.push(cols.length + " columns, " + rowsH.length + " rows");
		cols.forEach((h, c) => {
			const s = document.querySelector('#board .sq[data-r="0"][data-c="' + c + '"]').getBoundingClientRect();
			if (h.textContent !== String.fromCharCode(65 + c) || Math.abs(mid(h.getBoundingClientRect(), true) - mid(s, true)) > 1) bad.push(h.textContent);
		});
		rowsH.forEach((h, r) => {
			const s = document.querySelector('#board .sq[data-r="' + r + '"][data-c="0"]').getBoundingClientRect();
			if (h.textContent !== String(r + 1) || Math.abs(mid(h.getBoundingClientRect(), false) - mid(s, false)) > 1) bad.push(h.textContent);
		});
		const moves = [...document.querySelectorAll("#moves .one-line")];
		const wrapped = moves.filter((m) => m.getClientRects().length !== 1 || m.getBoundingClientRect().right > m.closest("li").getBoundingClientRect().right + 1).map((m) => m.textContent);
		// No line of the move list runs into its points.
		for (const li of document.querySelectorAll("#moves li")) {
			const who = li.querySelector(".who"), what = li.querySelector(".what"), pts = li.querySelector(".pts");
			if (who && pts && (who.getBoundingClientRect().right > pts.getBoundingClientRect().left + 1 || what.scrollWidth > what.clientWidth + 1)) wrapped.push(li.textContent);
		}
		const sub = document.querySelector("#subtitle");
		return {Overflow: document.documentElement.scrollWidth > innerWidth, RackRows: rows("#rack .tile"), ButtonRows: rows("#buttons button"),
			Clipped: [...document.querySelectorAll("#buttons button")].filter((b) => shown(b) && b.scrollWidth > b.clientWidth).map((b) => b.textContent),
			MinW: Math.min(...ws), MaxW: Math.max(...ws), MinH: Math.min(...hs), MaxH: Math.max(...hs), PointsOver: pointsOver,
			BadCoords: bad, WrappedMoves: wrapped, SubtitleCut: shown(sub) && sub.scrollWidth > sub.clientWidth, Squares: sq.length, Moves: moves.length};
	})()`, &got)
	rackShown := false
	r.eval(ctx, `!!document.querySelector("#rack .tile") && !!document.querySelector("#rack").offsetParent`, &rackShown)
	if got.Overflow || (rackShown && (got.RackRows != 1 || got.ButtonRows != 1)) || len(got.Clipped) > 0 || got.MaxW-got.MinW > 1.01 ||
		got.MaxH-got.MinH > 1.01 || got.MaxW-got.MinH > 1.01 || got.MinW-got.MaxH > 1.01 || len(got.PointsOver) > 0 ||
		len(got.BadCoords) > 0 || len(got.WrappedMoves) > 0 || got.SubtitleCut {
		r.t.Errorf("%s at %d px: %+v", what, width, got)
	}
	r.run(ctx, "desktop width", chromedp.EmulateViewport(1280, 800))
}

// checkBubble checks, at a phone's width and at the desktop's, that the
// preview's score on the board covers no letter and no points of any
// tile and keeps the page from scrolling sideways.
func (r *rig) checkBubble(ctx context.Context, what string) {
	r.t.Helper()
	for _, width := range []int64{390, 1280} {
		r.run(ctx, "set the width", chromedp.EmulateViewport(width, 800), chromedp.Sleep(150*time.Millisecond))
		r.bubbleClear(ctx, fmt.Sprintf("%s at %d px", what, width))
	}
}

// bubbleClear checks at the page's width that the preview's score shows
// on the board, covers no letter and no points of any tile, and keeps
// the page from scrolling sideways.
func (r *rig) bubbleClear(ctx context.Context, what string) {
	r.t.Helper()
	var got struct {
		Found, Overflow bool
		Covers          []string
		Text            string
	}
	r.eval(ctx, `(() => {
		const b = document.querySelector("#board .bubble");
		if (!b) return {Found: false};
		const q = b.getBoundingClientRect();
		const covers = [...document.querySelectorAll("#board .tile .l, #board .tile .pts")].filter((x) => {
			const l = x.getBoundingClientRect();
			return Math.min(l.right, q.right) - Math.max(l.left, q.left) > 1 && Math.min(l.bottom, q.bottom) - Math.max(l.top, q.top) > 1;
		}).map((x) => x.closest(".sq").dataset.label + " " + x.textContent);
		return {Found: true, Covers: covers, Overflow: document.documentElement.scrollWidth > innerWidth, Text: b.textContent};
	})()`, &got)
	if !got.Found || len(got.Covers) > 0 || got.Overflow {
		r.t.Errorf("%s, the preview's score on the board: %+v", what, got)
	}
}

// englishLeft lists the English words of the page's strings (i18n.js)
// that show on a page in another language: whole strings, and the fixed
// parts (of at least 6 characters) of strings with holes.
func (r *rig) englishLeft(ctx context.Context) []string {
	r.t.Helper()
	var left []string
	r.eval(ctx, `(() => {
		const flat = (o, pre, out) => {
			for (const [k, v] of Object.entries(o)) {
				if (typeof v === "string") out[pre + k] = v;
				else if (v && typeof v === "object") flat(v, pre + k + ".", out);
			}
			return out;
		};
		const en = flat(STRINGS.en, "", {}), here = flat(STRINGS[LANG], "", {});
		// The header's language switch names each language in its own.
		const text = [document.title, $("#subtitle").innerText, $("main").innerText].join("\n");
		const out = [];
		for (const [k, v] of Object.entries(en)) {
			if (k.startsWith("squares.") || v === here[k]) continue;
			const parts = v.includes("{") ? v.split(/\{\d\}/).map((x) => x.trim()).filter((x) => x.length >= 6) : (v.length >= 4 ? [v] : []);
			// Whole words only: Spanish "Resultado" holds English "Result".
			const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
			for (const p of parts) if (new RegExp("(^|[^\\p{L}])" + esc(p) + "($|[^\\p{L}])", "u").test(text)) out.push(k + ": " + p);
		}
		return out;
	})()`, &left)
	return left
}

// missingStrings lists the keys of the English strings that another
// language lacks.
func (r *rig) missingStrings(ctx context.Context) []string {
	r.t.Helper()
	var missing []string
	r.eval(ctx, `(() => {
		const keys = (o, pre) => Object.entries(o).flatMap(([k, v]) => v && typeof v === "object" && !Array.isArray(v) ? keys(v, pre + k + ".") : [pre + k]);
		const en = keys(STRINGS.en, ""), es = keys(STRINGS.es.reasons, "reasons.");
		const out = [];
		for (const l of Object.keys(STRINGS)) {
			const have = new Set(keys(STRINGS[l], ""));
			for (const k of en.concat(es)) if (!have.has(k) && !(l === "en" && k.startsWith("reasons."))) out.push(l + ": " + k);
		}
		return out;
	})()`, &missing)
	return missing
}

// checkLobbyLayout checks the lobby at a width in every language: no
// sideways scrolling, and every choice of every list (variants, word
// lists of each variant, opponents) fits its box without being cut.
func (r *rig) checkLobbyLayout(ctx context.Context, width int64) {
	r.t.Helper()
	r.run(ctx, "set the width", chromedp.EmulateViewport(width, 800), chromedp.Sleep(150*time.Millisecond))
	var got struct {
		Overflow    bool
		Cut         []string
		SubtitleCut bool
	}
	r.eval(ctx, `(() => {
		const cv = document.createElement("canvas").getContext("2d");
		const cut = [];
		const keepLang = LANG, keepVariant = $("#variant").value;
		for (const lang of Object.keys(STRINGS)) {
			LANG = lang;
			translatePage();
			fillCreateForm();
			fillQuick();
			for (const v of [...$("#variant").options].map((o) => o.value)) {
				$("#variant").value = v;
				fillLexicons();
				for (const s of document.querySelectorAll("#create-form select")) {
					const cs = getComputedStyle(s);
					cv.font = cs.font;
					// The box's text room: its width less its padding and the
					// arrow (about 20 px in Chromium).
					const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
					for (const o of s.options) if (cv.measureText(o.text).width > room) cut.push(lang + " " + s.id + ": " + o.text);
				}
			}
		}
		LANG = keepLang;
		translatePage();
		$("#variant").value = keepVariant;
		fillCreateForm();
		fillQuick();
		const sub = $("#subtitle");
		return {Overflow: document.documentElement.scrollWidth > innerWidth, Cut: [...new Set(cut)], SubtitleCut: !!sub.offsetParent && sub.scrollWidth > sub.clientWidth};
	})()`, &got)
	if got.Overflow || len(got.Cut) > 0 || got.SubtitleCut {
		r.t.Errorf("the lobby at %d px: %+v", width, got)
	}
	r.run(ctx, "desktop width", chromedp.EmulateViewport(1280, 800))
}

// boardFor rebuilds a board from a state with the tests' word list.
func boardFor(t *testing.T, st *State) *board.Board {
	t.Helper()
	v := variant.MustLoad(st.Variant)
	lex, err := browserLex(v)
	if err != nil {
		t.Fatal(err)
	}
	b := board.New(v, lex)
	for _, tl := range st.Board {
		c, err := v.Alphabet.Letter(tl.Letter, alphabet.Plain)
		if err != nil {
			t.Fatal(err)
		}
		if tl.Blank {
			c |= alphabet.BlankBit
		}
		b.SetTile(*tl.Row, *tl.Col, c, 0)
	}
	b.Recompute()
	return b
}

// bestTiles is the best placement of the seat's rack in a state, as the
// tiles it puts down in reading order, or nil when there is none.
func bestTiles(t *testing.T, st *State) ([]PlacedTile, *move.Move) {
	t.Helper()
	b := boardFor(t, st)
	a := b.Variant.Alphabet
	var rack alphabet.Rack
	for _, tl := range st.You.Rack {
		if tl.Blank {
			rack.Add(alphabet.Blank)
			continue
		}
		c, err := a.Letter(tl.Letter, alphabet.Plain)
		if err != nil {
			t.Fatal(err)
		}
		rack.Add(c)
	}
	m, ok := movegen.Best(movegen.NewBrute(b.Words().(*lexicon.Lexicon)), b, &rack)
	if !ok {
		return nil, nil
	}
	var tiles []PlacedTile
	sq, ts := m.Placed()
	for i, tl := range ts {
		tiles = append(tiles, PlacedTile{Row: sq[i][0], Col: sq[i][1], Letter: a.String(tl.Letter()), Blank: tl.IsBlanked()})
	}
	return tiles, &m
}

// pageGame reads the id and token of the game the page shows.
func (r *rig) pageGame(ctx context.Context) (id, tok string) {
	r.t.Helper()
	r.eval(ctx, `G.id`, &id)
	r.eval(ctx, `G.token`, &tok)
	if id == "" || tok == "" {
		r.t.Fatal("the page holds no game and seat")
	}
	return id, tok
}

// waitTurn waits until the page shows seat me on turn with its rack (or
// the end of the game) at a move count of at least moves.
func (r *rig) waitTurn(ctx context.Context, me, moves int) {
	r.t.Helper()
	r.poll(ctx, "wait for our turn", fmt.Sprintf(
		`!!G.st && G.st.moves >= %d && (G.st.over || (G.st.turn === %d && document.querySelectorAll("#rack .tile").length === G.st.you.rack.length && !$("#submit").disabled))`, moves, me),
		60*time.Second)
}

// waitPreview waits for the page's preview of the tiles it holds and
// returns its score (-1 with the reason when the preview refuses them).
func (r *rig) waitPreview(ctx context.Context) (int, string) {
	r.t.Helper()
	r.poll(ctx, "wait for the preview", `G.pending.length > 0 && $("#preview").dataset.key === pendingKey()`, 10*time.Second)
	var score, text string
	r.eval(ctx, `$("#preview").dataset.score`, &score)
	r.eval(ctx, `$("#preview").textContent`, &text)
	if score == "" {
		return -1, text
	}
	var n int
	fmt.Sscan(score, &n)
	return n, text
}

// playMove plays one move for the page's seat: the best placement, by
// keyboard or by mouse, checking the page's score preview against the
// score the server gives the move; or a pass. It returns the state after.
func (r *rig) playMove(ctx context.Context, id, tok string, me int, byKeyboard, drag bool) (*State, bool) {
	return r.play(ctx, id, tok, me, byKeyboard, drag, false)
}

// play is playMove, placing the tiles by taps when taps is set.
func (r *rig) play(ctx context.Context, id, tok string, me int, byKeyboard, drag, taps bool) (*State, bool) {
	r.t.Helper()
	st := r.e.state(id, tok)
	tiles, _ := bestTiles(r.t, st)
	if tiles == nil {
		if byKeyboard {
			r.tabTo(ctx, "#pass")
			r.key(ctx, kb.Enter)
			r.poll(ctx, "the pass dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
			r.tabTo(ctx, "#ask-ok")
			r.key(ctx, kb.Enter)
		} else {
			r.clickAt(ctx, "#pass")
			r.poll(ctx, "the pass dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
			r.clickAt(ctx, "#ask-ok")
		}
		r.waitMoves(id, st.Moves)
		return r.e.state(id, tok), false
	}
	switch {
	case byKeyboard:
		r.typeMove(ctx, st, tiles)
	case taps:
		r.putByTaps(ctx, tiles)
	default:
		for k, p := range tiles {
			r.putByMouse(ctx, p, drag && k == 0)
		}
	}
	want, text := r.waitPreview(ctx)
	if want < 0 {
		r.t.Fatalf("the preview refuses the best move %+v: %s", tiles, text)
	}
	r.bubbleClear(ctx, "move "+fmt.Sprint(tiles))
	if byKeyboard {
		r.key(ctx, kb.Enter)
	} else {
		r.clickAt(ctx, "#submit")
	}
	r.waitMoves(id, st.Moves)
	after := r.e.state(id, tok)
	var got HistEntry
	for _, h := range after.History {
		if h.Kind == "place" && h.Seat == me {
			got = h
		}
	}
	if got.Points != want {
		r.t.Errorf("move %s: the preview said %d, the server scored %d", got.Move, want, got.Points)
	}
	return after, true
}

// waitMoves waits until the server has more than moves moves.
func (r *rig) waitMoves(id string, moves int) {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.e.state(id, "").Moves == moves && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if r.e.state(id, "").Moves == moves {
		var msg string
		chromedp.Run(r.ctx, chromedp.Evaluate(`$("#message").textContent`, &msg))
		r.t.Fatalf("the move was not accepted (page says %q)", msg)
	}
}

// typeMove places tiles with the keyboard only: arrow keys to the first
// square, Space to turn the cursor if needed, then the letters (Shift for
// a blank; a multi-letter tile as its letters).
func (r *rig) typeMove(ctx context.Context, st *State, tiles []PlacedTile) {
	r.t.Helper()
	r.aim(ctx, tiles)
	for _, p := range tiles {
		r.typeTile(ctx, p)
	}
	var pending []PlacedTile
	r.eval(ctx, `G.pending.map((p) => ({row: p.row, col: p.col, letter: p.letter, blank: p.blank}))`, &pending)
	if fmt.Sprint(sortTiles(pending)) != fmt.Sprint(sortTiles(tiles)) {
		r.t.Fatalf("typed %+v, the page holds %+v", tiles, pending)
	}
}

// aim moves the board's cursor by keyboard to the first square of tiles,
// pointing their way.
func (r *rig) aim(ctx context.Context, tiles []PlacedTile) {
	r.t.Helper()
	r.tabTo(ctx, "#board .sq")
	down := len(tiles) > 1 && tiles[0].Col == tiles[1].Col
	var cur struct {
		R, C int
		Down bool
	}
	r.eval(ctx, `G.cursor ? {R: G.cursor.r, C: G.cursor.c, Down: G.cursor.down} : {R: -1, C: -1, Down: false}`, &cur)
	if cur.R < 0 {
		r.t.Fatal("no cursor on the board")
	}
	for ; cur.R < tiles[0].Row; cur.R++ {
		r.key(ctx, kb.ArrowDown)
	}
	for ; cur.R > tiles[0].Row; cur.R-- {
		r.key(ctx, kb.ArrowUp)
	}
	for ; cur.C < tiles[0].Col; cur.C++ {
		r.key(ctx, kb.ArrowRight)
	}
	for ; cur.C > tiles[0].Col; cur.C-- {
		r.key(ctx, kb.ArrowLeft)
	}
	if cur.Down != down && len(tiles) > 1 {
		r.key(ctx, " ")
	}
}

// typeTile types the letters of one tile (Shift for a blank).
func (r *rig) typeTile(ctx context.Context, p PlacedTile) {
	r.t.Helper()
	for _, ch := range strings.ToLower(p.Letter) {
		r.typeRune(ctx, ch, p.Blank)
	}
}

func sortTiles(ts []PlacedTile) []PlacedTile {
	out := append([]PlacedTile(nil), ts...)
	sort.Slice(out, func(i, j int) bool { return out[i].Row*100+out[i].Col < out[j].Row*100+out[j].Col })
	return out
}

// putByMouse places a rack tile on a square by clicks or by dragging.
func (r *rig) putByMouse(ctx context.Context, p PlacedTile, drag bool) {
	r.t.Helper()
	var i int
	r.eval(ctx, fmt.Sprintf(
		`G.rack.findIndex((x, i) => (%v ? x.blank : (!x.blank && x.letter === %q)) && !G.pending.some((p) => p.i === i))`, p.Blank, p.Letter), &i)
	if i < 0 {
		r.t.Fatalf("tile %s (blank %v) not on the page's rack", p.Letter, p.Blank)
	}
	rackSel := fmt.Sprintf(`#rack .tile[data-i="%d"]`, i)
	sqSel := fmt.Sprintf(`#board .sq[data-r="%d"][data-c="%d"]`, p.Row, p.Col)
	if drag {
		from, to := r.stablePoint(ctx, rackSel, false), r.stablePoint(ctx, sqSel, false)
		acts := []chromedp.Action{chromedp.MouseEvent(input.MousePressed, from[0], from[1], chromedp.ButtonLeft)}
		for k := 1; k <= 8; k++ {
			f := float64(k) / 8
			acts = append(acts, chromedp.MouseEvent(input.MouseMoved, from[0]+(to[0]-from[0])*f, from[1]+(to[1]-from[1])*f, chromedp.ButtonLeft))
		}
		acts = append(acts, chromedp.MouseEvent(input.MouseReleased, to[0], to[1], chromedp.ButtonLeft))
		r.run(ctx, "drag "+p.Letter, acts...)
	} else {
		r.clickAt(ctx, rackSel)
		r.clickAt(ctx, sqSel)
	}
	if p.Blank {
		r.poll(ctx, "the blank chooser", `!!document.querySelector("#blank-dialog[open]")`, 5*time.Second)
		r.clickAt(ctx, fmt.Sprintf(`#blank-letters button:nth-child(%d)`, r.blankIndex(ctx, p.Letter)))
	}
	var placed bool
	r.eval(ctx, fmt.Sprintf(`G.pending.some((p) => p.row === %d && p.col === %d)`, p.Row, p.Col), &placed)
	if !placed {
		r.shot(ctx, "failed")
		r.t.Fatalf("tile %s not placed on %d,%d (drag %v)", p.Letter, p.Row, p.Col, drag)
	}
}

// putByTaps places tiles as on a touch screen: a tap on the first
// square (a second one turns the arrow), then a tap on each tile in
// order.
func (r *rig) putByTaps(ctx context.Context, tiles []PlacedTile) {
	r.t.Helper()
	down := len(tiles) > 1 && tiles[0].Col == tiles[1].Col
	sq := fmt.Sprintf(`#board .sq[data-r="%d"][data-c="%d"]`, tiles[0].Row, tiles[0].Col)
	r.clickAt(ctx, sq)
	var cur bool
	r.eval(ctx, `G.cursor.down`, &cur)
	if cur != down && len(tiles) > 1 {
		r.clickAt(ctx, sq)
	}
	for _, p := range tiles {
		var i int
		r.eval(ctx, fmt.Sprintf(
			`G.rack.findIndex((x, i) => (%v ? x.blank : (!x.blank && x.letter === %q)) && !G.pending.some((p) => p.i === i))`, p.Blank, p.Letter), &i)
		if i < 0 {
			r.t.Fatalf("tile %s (blank %v) not on the page's rack", p.Letter, p.Blank)
		}
		r.clickAt(ctx, fmt.Sprintf(`#rack .tile[data-i="%d"]`, i))
		if p.Blank {
			r.poll(ctx, "the blank chooser", `!!document.querySelector("#blank-dialog[open]")`, 5*time.Second)
			r.clickAt(ctx, fmt.Sprintf(`#blank-letters button:nth-child(%d)`, r.blankIndex(ctx, p.Letter)))
		}
	}
	var pending []PlacedTile
	r.eval(ctx, `G.pending.map((p) => ({row: p.row, col: p.col, letter: p.letter, blank: p.blank}))`, &pending)
	if fmt.Sprint(sortTiles(pending)) != fmt.Sprint(sortTiles(tiles)) {
		r.t.Fatalf("tapped %+v, the page holds %+v", tiles, pending)
	}
}

func (r *rig) blankIndex(ctx context.Context, letter string) int {
	var i int
	r.eval(ctx, fmt.Sprintf(`[...document.querySelectorAll("#blank-letters button")].findIndex((b) => b.textContent === %q) + 1`, letter), &i)
	if i < 1 {
		r.t.Fatalf("no %s in the blank chooser", letter)
	}
	return i
}

// playOutPage plays the page's seat to the end of the game; it returns
// the number of placements made.
func (r *rig) playOutPage(ctx context.Context, id, tok string, me int, byKeyboard bool, shots func(n int)) int {
	r.t.Helper()
	placements, next := 0, 0
	for turn := 0; turn < 200; turn++ {
		r.waitTurn(ctx, me, next)
		st := r.e.state(id, tok)
		if st.Over {
			break
		}
		after, placed := r.playMove(ctx, id, tok, me, byKeyboard, !byKeyboard && placements == 0)
		if placed {
			placements++
			if shots != nil {
				shots(placements)
			}
		}
		next = after.Moves
		if !after.Over && after.Turn != me {
			next++
		}
	}
	if !r.e.state(id, "").Over {
		r.t.Fatal("the game did not end")
	}
	return placements
}

// TestBrowserLobby checks the lobby: English preselected for an English
// browser, variants, word lists and levels by name with a line about each
// level, the language switch, the last choice remembered, and a game
// offered to anyone listed for another person, who sees who invites them.
func TestBrowserLobby(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	r.run(ctx, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	var form struct {
		Variant, VariantText, Lexicon, Opponent, Desc string
		Variants                                      []string
	}
	r.eval(ctx, `({Variant: $("#variant").value, VariantText: $("#variant").selectedOptions[0].textContent, Lexicon: $("#lexicon").selectedOptions[0].textContent,
		Opponent: $("#opponent").value, Desc: $("#level-desc").textContent, Variants: [...$("#variant").options].map((o) => o.textContent)})`, &form)
	if form.Variant != "english" || form.VariantText != "English" || !strings.Contains(form.Lexicon, "SOWPODS") ||
		form.Opponent != "computer:professional" || !strings.HasSuffix(form.Desc, " Rating: 1700.") || strings.Join(form.Variants, ",") != "English,Spanish,Czech" {
		t.Errorf("lobby form: %+v", form)
	}
	if s := r.axe(ctx, "the lobby"); s < 90 {
		t.Errorf("the lobby scores %.0f in the accessibility checks, want at least 90", s)
	}
	if missing := r.missingStrings(ctx); len(missing) > 0 {
		t.Errorf("strings missing in i18n.js: %q", missing)
	}
	r.checkLobbyLayout(ctx, 360)
	r.checkLobbyLayout(ctx, 1280)
	r.shot(ctx, "01-lobby")
	// The word judge.
	r.run(ctx, "ask the word judge", chromedp.SetValue("#judge-words", "qi, xqz cat"), chromedp.Click("#judge-go"))
	r.poll(ctx, "the judge's answers", `document.querySelectorAll("#judge-out li").length === 3`, 10*time.Second)
	var judged []string
	r.eval(ctx, `[...document.querySelectorAll("#judge-out li")].map((li) => li.className + " " + li.textContent)`, &judged)
	if strings.Join(judged, "|") != "valid QI is in SOWPODS (international English)|invalid XQZ is not in SOWPODS (international English)|valid CAT is in SOWPODS (international English)" {
		t.Errorf("the word judge says %q", judged)
	}
	r.shot(ctx, "01b-word-judge")
	// The header's language switch.
	r.run(ctx, "switch to Czech", chromedp.SetValue("#lang-select", "cs"),
		chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	var title, variant string
	r.eval(ctx, `document.querySelector("#new-card h1").textContent`, &title)
	r.eval(ctx, `$("#variant").selectedOptions[0].textContent`, &variant)
	if title != "Nová hra" || variant != "Angličtina" {
		t.Errorf("in Czech the lobby says %q, %q", title, variant)
	}
	if left := r.englishLeft(ctx); len(left) > 0 {
		t.Errorf("English in the Czech lobby: %q", left)
	}
	r.shot(ctx, "02-lobby-czech")
	r.run(ctx, "back to English", chromedp.SetValue("#lang-select", "en"),
		chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))

	// A Spanish game offered to anyone: the choice is remembered.
	r.run(ctx, "create a game for anyone", chromedp.SendKeys("#name", "Ana"),
		chromedp.SetValue("#variant", "spanish"), chromedp.Evaluate(`$("#variant").dispatchEvent(new Event("change"))`, nil),
		chromedp.SetValue("#opponent", "anyone"), chromedp.Evaluate(`$("#opponent").dispatchEvent(new Event("change"))`, nil))
	r.clickAt(ctx, "#create")
	r.run(ctx, "wait for the game", chromedp.WaitVisible(`#share`))
	id, _ := r.pageGame(ctx)
	r.run(ctx, "back to the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "the form", `document.querySelectorAll("#opponent option").length > 3 && document.querySelectorAll("#my-current li").length > 0`, 20*time.Second)
	r.eval(ctx, `$("#variant").value + "," + $("#opponent").value`, &variant)
	if variant != "spanish,anyone" {
		t.Errorf("the lobby does not remember the last choice: %s", variant)
	}
	var mine struct{ List, Note, Button string }
	r.eval(ctx, `({List: $("#my-current").textContent, Note: document.querySelector("#mine-card .hint").textContent,
		Button: document.querySelector("#my-current li button").textContent})`, &mine)
	if !strings.Contains(mine.List, "Spanish") || !strings.Contains(mine.Note, "carries your seat's secret") || mine.Button != "Personal link" {
		t.Errorf("my games: %+v", mine)
	}
	r.shot(ctx, "03-lobby-my-games")

	// Another person sees the game in the lobby and who waits.
	other := r.newDevice()
	r.run(other, "open the lobby", chromedp.Navigate(r.e.url+"/"))
	r.poll(other, "the open game", fmt.Sprintf(`!!document.querySelector('#open-games a[href="/g/%s"]')`, id), 20*time.Second)
	var open string
	r.eval(other, `$("#open-games").textContent`, &open)
	if !strings.Contains(open, "Ana waits") {
		t.Errorf("open games: %q", open)
	}
	r.shot(other, "04-lobby-open-game")
	r.clickAt(other, fmt.Sprintf(`#open-games a[href="/g/%s"]`, id))
	r.run(other, "the join page", chromedp.WaitVisible(`#join-button`))
	var invite string
	r.eval(other, `$("#join-title").textContent + " " + $("#join-what").textContent`, &invite)
	// The page speaks the game's language to a browser that chose none.
	if !strings.Contains(invite, "Ana te invita") || !strings.Contains(invite, "Español") {
		t.Errorf("join page: %q", invite)
	}
	if left := r.englishLeft(other); len(left) > 0 {
		t.Errorf("English on the Spanish join page: %q", left)
	}
	if s := r.axe(other, "the join page"); s < 90 {
		t.Errorf("the join page scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(other, "05-join")

	// Bea joins; Ana's page sees the game start, Ana plays, Bea's page
	// sees the move and her turn. A third browser only watches.
	r.run(other, "join", chromedp.SendKeys("#join-name", "Bea"))
	r.clickAt(other, "#join-button")
	r.run(other, "Bea's game", chromedp.WaitVisible(`#rack .tile`))
	r.run(ctx, "Ana's game", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#rack .tile`))
	r.waitTurn(ctx, 0, 0)
	_, tokA := r.pageGame(ctx)
	r.playMove(ctx, id, tokA, 0, false, false)
	r.poll(ctx, "Ana's title once she has played", `document.title === "atril"`, 10*time.Second)
	r.waitTurn(other, 1, 1)
	var turn string
	r.eval(other, `$("#turn").textContent`, &turn)
	if turn != "Te toca." {
		t.Errorf("Bea's page says %q after Ana's move", turn)
	}
	watcher := r.newDevice()
	r.run(watcher, "watch", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#board .sq`))
	r.poll(watcher, "the spectator's view", `!!G.st && G.st.moves === 1 && $("#rack-area").hidden`, 10*time.Second)
	r.eval(watcher, `$("#turn").textContent`, &turn)
	if !strings.Contains(turn, "Estás mirando") {
		t.Errorf("the spectator's page says %q", turn)
	}
	// The watchers' chat: signed out, the page asks to sign in; signed
	// in, a line written shows for the watchers and not for the players.
	r.poll(watcher, "the watchers' chat, signed out", `!$("#kibitz-box").hidden && !$("#kibitz-signin").hidden && $("#kibitz-form").hidden`, 10*time.Second)
	r.signUpPage(watcher, "Mirona")
	r.run(watcher, "watch signed in", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#kibitz-form`))
	r.run(watcher, "a line to the watchers", chromedp.SendKeys("#kibitz-text", "¡Qué jugada!"))
	r.clickAt(watcher, "#kibitz-send")
	r.poll(watcher, "the line shown", `$("#kibitz-lines").textContent === "Mirona:¡Qué jugada!" && $("#kibitz-empty").hidden`, 10*time.Second)
	r.shot(watcher, "05b-spectator")
	var playerSees bool
	r.run(other, "Bea's page again", chromedp.Reload(), chromedp.WaitVisible(`#rack .tile`))
	// The players see that someone watches.
	// (Named once the server records the watcher again, signed in: at
	// most every 10 s.)
	r.poll(other, "the watchers counted", `!$("#watching").hidden && /^Mirando: 1( \(Mirona\))?$/.test($("#watching").textContent)`, 10*time.Second)
	r.eval(other, `!$("#kibitz-box").hidden`, &playerSees)
	if playerSees {
		t.Error("a player's page shows the watchers' chat while the game is played")
	}
	// Bea's move reaches the watcher through the watchers' WebSocket:
	// the page does not read the state on a timer while it is open.
	r.poll(watcher, "the watchers' socket", `!!G.ws && G.ws.readyState === 1 && !G.spectatorTimer`, 10*time.Second)
	if n := readMetrics(t, r.e)["atril_watch_sockets"]; n < 1 {
		t.Errorf("atril_watch_sockets %v while a spectator's page is open", n)
	}
	_, tokB := r.pageGame(other)
	r.playMove(other, id, tokB, 1, false, false)
	r.poll(watcher, "Bea's move on the watcher's page", `G.st.moves === 2`, 10*time.Second)

	// A browser that prefers Spanish gets the lobby in Spanish with a
	// Spanish game preselected.
	es := r.newDevice()
	var ua string
	r.eval(es, `navigator.userAgent`, &ua)
	r.run(es, "a browser in Spanish", emulation.SetUserAgentOverride(ua).WithAcceptLanguage("es-ES,es"),
		chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(es, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	var esForm struct{ Title, Variant, Lexicon, Opponent string }
	r.eval(es, `({Title: document.querySelector("#new-card h1").textContent, Variant: $("#variant").value, Lexicon: $("#lexicon").selectedOptions[0].textContent,
		Opponent: $("#opponent").selectedOptions[0].textContent})`, &esForm)
	if esForm != (struct{ Title, Variant, Lexicon, Opponent string }{"Partida nueva", "spanish", "FISE (español)", "ordenador: Profesional"}) {
		t.Errorf("the lobby for a Spanish browser: %+v", esForm)
	}
}

// TestBrowserKeyboardGame plays a whole game against the computer with the
// keyboard only, checking the score preview against the server's score
// for every move.
func TestBrowserKeyboardGame(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	r.run(ctx, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	// The name field and Enter start a game with the preselected choices.
	r.tabTo(ctx, "#name")
	for _, ch := range "Kim" {
		r.typeRune(ctx, ch, false)
	}
	r.seedNextGame(ctx, 3)
	r.key(ctx, kb.Enter)
	r.run(ctx, "the game", chromedp.WaitVisible(`#rack .tile`))
	id, tok := r.pageGame(ctx)
	r.waitTurn(ctx, 0, 0)
	var title string
	r.eval(ctx, `document.title`, &title)
	if title != "(Your turn) atril" {
		t.Errorf("title on our turn: %q", title)
	}
	r.checkLayout(ctx, 360, "the English game")
	r.checkLayout(ctx, 1280, "the English game")
	st := r.e.state(id, tok)
	r.checkUnseen(ctx, st)
	// The bag this game was dealt (its seed is 3) gives us a blank: typing a letter we do not hold
	// takes it.
	r.editByKeyboard(ctx, st)

	// The first move, then the computer's: the message line says what
	// the computer played, and a reload keeps the last move marked.
	after, _ := r.playMove(ctx, id, tok, 0, true, false)
	r.shot(ctx, "06-keyboard-first-move")
	next := after.Moves
	if !after.Over && after.Turn != 0 {
		next++
	}
	r.waitTurn(ctx, 0, next)
	st = r.e.state(id, tok)
	if !st.Over {
		last := st.History[len(st.History)-1]
		var msg string
		r.eval(ctx, `$("#message").textContent`, &msg)
		want := map[string]string{"place": strings.NewReplacer("[", "", "]", "").Replace(last.Move), "exchange": "exchanged", "pass": "passed"}[last.Kind]
		if last.Seat != 1 || !strings.Contains(msg, want) || strings.Contains(msg, "You played") {
			t.Errorf("after the computer's move %+v the message line says %q", last, msg)
		}
		r.checkUnseen(ctx, st)
		r.run(ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(`#rack .tile`))
		r.waitTurn(ctx, 0, st.Moves)
		lastMove := -1
		var want2 []string
		for _, tl := range st.Board {
			if *tl.Move > lastMove {
				lastMove, want2 = *tl.Move, nil
			}
			if *tl.Move == lastMove {
				want2 = append(want2, fmt.Sprintf("%d,%d", *tl.Row, *tl.Col))
			}
		}
		var marked []string
		r.eval(ctx, `[...document.querySelectorAll("#board .tile.last")].map((x) => x.parentElement.dataset.r + "," + x.parentElement.dataset.c)`, &marked)
		sort.Strings(want2)
		sort.Strings(marked)
		if strings.Join(marked, " ") != strings.Join(want2, " ") {
			t.Errorf("after a reload the last move is marked on %v, want %v", marked, want2)
		}
	}
	placements := 1 + r.playOutPage(ctx, id, tok, 0, true, nil)
	final := r.e.state(id, "")
	r.run(ctx, "see the result", chromedp.WaitVisible(`#result #gcg-link`))
	var end struct {
		Cursors int
		Side    string
	}
	r.eval(ctx, `({Cursors: document.querySelectorAll("#board .sq.cursor").length, Side: $("#side").innerText})`, &end)
	if end.Cursors != 0 || strings.Count(end.Side, "Game over") != 1 {
		t.Errorf("at the end of the game: %d cursors on the board, the side says %q", end.Cursors, end.Side)
	}
	r.checkLayout(ctx, 360, "the English game over")
	r.shot(ctx, "07-keyboard-game-over")
	t.Logf("keyboard game %s: %d placements, %d moves; final %d–%d", id, placements, final.Moves, final.Seats[0].Score, final.Seats[1].Score)
	if placements < 3 {
		t.Errorf("only %d placements typed", placements)
	}
}

// cursorAt reads the square the board shows the cursor on: row, column,
// down, and the name screen readers hear; R is -1 with no cursor.
type cursorAt struct {
	R, C  int
	Down  bool
	Label string
}

func (r *rig) cursor(ctx context.Context) cursorAt {
	r.t.Helper()
	var c cursorAt
	r.eval(ctx, `(() => {
		const x = document.querySelectorAll("#board .sq.cursor");
		if (x.length !== 1) return {R: -1, C: x.length};
		return {R: +x[0].dataset.r, C: +x[0].dataset.c, Down: x[0].classList.contains("down"), Label: x[0].textContent};
	})()`, &c)
	return c
}

// pendingTiles reads the tiles the page holds on the board.
func (r *rig) pendingTiles(ctx context.Context) []PlacedTile {
	r.t.Helper()
	var p []PlacedTile
	r.eval(ctx, `G.pending.map((p) => ({row: p.row, col: p.col, letter: p.letter, blank: p.blank}))`, &p)
	return p
}

// editByKeyboard checks, on our first turn, the cursor and the keys that
// edit a move: a click on a square puts the cursor there (across), a
// second click turns it down and a third back; a letter of the rack
// goes down and moves the cursor on; a letter not on the rack, or
// Shift+letter, takes the blank (or says there is none); Backspace takes
// the last tile back to the rack and the cursor with it; Escape recalls
// every tile. Nothing reaches the server.
func (r *rig) editByKeyboard(ctx context.Context, st *State) {
	t := r.t
	t.Helper()
	r0, c0 := st.Start[0], st.Start[1]
	start := fmt.Sprintf(`#board .sq[data-r="%d"][data-c="%d"]`, r0, c0)
	for k, down := range []bool{false, true, false} {
		r.clickAt(ctx, start)
		cur := r.cursor(ctx)
		dir := map[bool]string{false: "cursor, across", true: "cursor, down"}[down]
		if cur.R != r0 || cur.C != c0 || cur.Down != down || !strings.Contains(cur.Label, dir) {
			t.Errorf("after %d clicks on the start square the cursor is %+v", k+1, cur)
		}
	}
	var own string
	hasBlank := false
	onRack := map[string]bool{}
	for _, tl := range st.You.Rack {
		if tl.Blank {
			hasBlank = true
		} else {
			onRack[tl.Letter] = true
			if own == "" {
				own = tl.Letter
			}
		}
	}
	var missing string
	for _, l := range st.Letters {
		if l.Letter != "?" && len([]rune(l.Letter)) == 1 && !onRack[l.Letter] {
			missing = l.Letter
			break
		}
	}
	if own == "" || missing == "" {
		t.Fatalf("rack %+v: no letter to type", st.You.Rack)
	}
	r.typeRune(ctx, []rune(strings.ToLower(own))[0], false)
	p := r.pendingTiles(ctx)
	if len(p) != 1 || p[0] != (PlacedTile{Row: r0, Col: c0, Letter: own}) {
		t.Errorf("typing %s on the start square: the page holds %+v", own, p)
	}
	if cur := r.cursor(ctx); cur.R != r0 || cur.C != c0+1 || cur.Down {
		t.Errorf("after a letter the cursor is %+v, want the next square across", cur)
	}
	for _, shift := range []bool{false, true} {
		letter := missing
		if shift {
			letter = own
		}
		r.typeRune(ctx, []rune(strings.ToLower(letter))[0], shift)
		p = r.pendingTiles(ctx)
		var msg string
		r.eval(ctx, `$("#message.error") ? $("#message").textContent : ""`, &msg)
		if hasBlank {
			if len(p) != 2 || p[1] != (PlacedTile{Row: r0, Col: c0 + 1, Letter: letter, Blank: true}) {
				t.Errorf("typing %s (Shift %v) with a blank on the rack: the page holds %+v", letter, shift, p)
			}
			r.key(ctx, kb.Backspace)
		} else if len(p) != 1 || !strings.Contains(msg, "No "+letter+" on your rack and no blank") {
			t.Errorf("typing %s (Shift %v) with no blank: the page holds %+v and says %q", letter, shift, p, msg)
		}
		if p = r.pendingTiles(ctx); len(p) != 1 {
			t.Errorf("after Backspace the page holds %+v", p)
		}
	}
	r.key(ctx, kb.Backspace)
	var used int
	r.eval(ctx, `document.querySelectorAll("#rack .tile.used").length`, &used)
	if p = r.pendingTiles(ctx); len(p) != 0 || used != 0 {
		t.Errorf("after Backspace the page holds %+v, %d rack tiles used", p, used)
	}
	if cur := r.cursor(ctx); cur.R != r0 || cur.C != c0 {
		t.Errorf("after Backspace the cursor is %+v, want the start square", cur)
	}
	for _, tl := range st.You.Rack[:3] {
		if !tl.Blank {
			r.typeRune(ctx, []rune(strings.ToLower(tl.Letter))[0], false)
		}
	}
	if p = r.pendingTiles(ctx); len(p) == 0 {
		t.Error("typed letters were not placed")
	}
	r.key(ctx, kb.Escape)
	if p = r.pendingTiles(ctx); len(p) != 0 {
		t.Errorf("after Escape the page holds %+v", p)
	}
	if after := r.e.state(st.ID, ""); after.Moves != 0 {
		t.Errorf("editing a move made %d moves", after.Moves)
	}
}

// checkUnseen checks the unseen tiles the page shows, as tiles with
// their counts: every tile of the game less those on the board and on
// our rack.
func (r *rig) checkUnseen(ctx context.Context, st *State) {
	r.t.Helper()
	want := -len(st.Board) - len(st.You.Rack)
	for _, l := range st.Letters {
		want += l.Count
	}
	var got struct {
		Tiles, Sum int
		Head       string
	}
	r.eval(ctx, `({Tiles: document.querySelectorAll("#unseen .chip .tile").length,
		Sum: [...document.querySelectorAll("#unseen .chip")].reduce((n, c) => n + +c.getAttribute("aria-label").split(" × ")[1], 0),
		Head: $("#unseen-count").textContent})`, &got)
	if got.Sum != want || got.Tiles == 0 || got.Head != fmt.Sprintf("(%d)", want) {
		r.t.Errorf("unseen tiles: %+v, want %d", got, want)
	}
	// Their balance, by the server's list (an English game).
	var vowels, blanks, all int
	for _, u := range st.You.Unseen {
		all += u.Count
		switch {
		case u.Letter == "?":
			blanks += u.Count
		case strings.Contains("AEIOU", u.Letter):
			vowels += u.Count
		}
	}
	var line string
	r.eval(ctx, `$("#pool-balance").textContent`, &line)
	if w := fmt.Sprintf("Vowels %d · consonants %d · blanks %d", vowels, all-vowels-blanks, blanks); line != w || all != want {
		r.t.Errorf("the unseen tiles' balance reads %q, want %q (of %d tiles, %d counted)", line, w, want, all)
	}
}

// TestBrowserMouseGame plays a whole game against the computer with the
// mouse (one tile dragged), checking the preview for every move, then
// reviews it move by move with the analysis of each position.
func TestBrowserMouseGame(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	id, tok := r.lobbyGame(ctx, "Lou", 9)

	// Pass asks in a dialog of the page (not the browser's confirm());
	// Cancel leaves the game as it was.
	r.eval(ctx, `window.confirm = () => { window.confirmUsed = true; return false; }; true`, nil)
	r.clickAt(ctx, "#pass")
	r.poll(ctx, "the pass dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	var ask string
	r.eval(ctx, `$("#ask-text").textContent + "|" + $("#ask-ok").textContent + "|" + $("#ask-cancel").textContent + "|" + !!window.confirmUsed`, &ask)
	if ask != "Pass your turn?|Pass|Cancel|false" {
		t.Errorf("the pass dialog: %q", ask)
	}
	r.clickAt(ctx, "#ask-cancel")
	r.poll(ctx, "the dialog closes", `!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	if after := r.e.state(id, ""); after.Moves != 0 {
		t.Fatalf("cancelling the pass made %d moves", after.Moves)
	}

	// A refused move first: two rack tiles that make no word.
	st := r.e.state(id, tok)
	v := variant.MustLoad("english")
	lex, _ := browserLex(v)
	var bad []PlacedTile
	for i := 0; i < len(st.You.Rack) && bad == nil; i++ {
		for j := 0; j < len(st.You.Rack) && bad == nil; j++ {
			x, y := st.You.Rack[i], st.You.Rack[j]
			if i == j || x.Blank || y.Blank {
				continue
			}
			w, err := v.Alphabet.Parse(x.Letter+y.Letter, alphabet.Plain)
			if err == nil && !lex.Contains(w) {
				bad = []PlacedTile{{Row: 7, Col: 7, Letter: x.Letter}, {Row: 7, Col: 8, Letter: y.Letter}}
			}
		}
	}
	if bad != nil {
		for _, p := range bad {
			r.putByMouse(ctx, p, false)
		}
		if n, text := r.waitPreview(ctx); n >= 0 || !strings.Contains(text, "not a word") {
			t.Errorf("preview of a non-word: %d %q", n, text)
		}
		r.checkBubble(ctx, "a refused move")
		r.clickAt(ctx, "#submit")
		r.run(ctx, "the refusal", chromedp.WaitVisible(`#message.error`))
		var msg string
		r.eval(ctx, `$("#message").textContent`, &msg)
		if !strings.Contains(msg, "not a word") {
			t.Errorf("refusal message %q does not say why", msg)
		}
		r.shot(ctx, "08-mouse-refused")
		r.clickAt(ctx, "#recall")
	}
	if after := r.e.state(id, ""); after.Moves != 0 {
		t.Fatalf("the refused move changed the game: %d moves", after.Moves)
	}
	placements := r.playOutPage(ctx, id, tok, 0, false, func(n int) {
		if n == 2 {
			r.shot(ctx, "09-mouse-game")
		}
	})
	r.run(ctx, "see the result", chromedp.WaitVisible(`#result #gcg-link`))
	final := r.e.state(id, "")
	outcome := map[int]string{-1: "A tie.", 0: "You won!", 1: "You lost."}
	want := -1
	if len(final.Winners) == 1 {
		want = final.Winners[0]
	}
	var result string
	r.eval(ctx, `$("#result").textContent`, &result)
	if !strings.HasPrefix(result, outcome[want]) || !strings.Contains(result, fmt.Sprintf("Lou (you) %d", final.Seats[0].Score)) {
		t.Errorf("result box says %q; the game: %+v", result, final.Winners)
	}
	r.poll(ctx, "the winning chances", `!!$("#win-graph")`, 20*time.Second)
	r.shot(ctx, "10-mouse-game-over")
	// The animation of the game, linked beside the GCG file.
	var gifHref string
	r.eval(ctx, `$("#gif-link").getAttribute("href")`, &gifHref)
	if resp, _ := getWith(t, r.e.url+gifHref); gifHref != "/api/games/"+id+"/game.gif" || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/gif" {
		t.Errorf("the animation's link %q: %d %s", gifHref, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if placements < 3 {
		t.Errorf("only %d placements by mouse", placements)
	}
	// The GCG download.
	resp, err := http.Get(r.e.url + "/api/games/" + id + "/gcg")
	if err != nil {
		t.Fatal(err)
	}
	gcgText, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(gcgText, []byte("#player1 Lou")) {
		t.Errorf("GCG %d:\n%s", resp.StatusCode, gcgText)
	}

	// Review: every position, with the board as it was and the analysis.
	var rv Review
	if code := r.e.do("GET", "/api/games/"+id+"/review", "", nil, &rv); code != 200 {
		t.Fatalf("review: %d", code)
	}
	var moves []ReviewTurn
	for _, tu := range rv.Turns {
		if tu.Kind == "place" || tu.Kind == "exchange" || tu.Kind == "pass" {
			moves = append(moves, tu)
		}
	}
	r.clickAt(ctx, "#review-button")
	r.run(ctx, "the review", chromedp.WaitVisible(`#review`))
	tilesBefore := 0
	for k := 0; k <= len(moves); k++ {
		r.poll(ctx, "review position", fmt.Sprintf(`G.review && G.review.k === %d`, k), 5*time.Second)
		var onBoard int
		r.eval(ctx, `document.querySelectorAll("#board .tile:not(.shown)").length`, &onBoard)
		if onBoard != tilesBefore {
			t.Errorf("review position %d: %d tiles on the board, want %d", k, onBoard, tilesBefore)
		}
		if k < len(moves) {
			r.poll(ctx, fmt.Sprintf("the analysis of position %d", k), `document.querySelectorAll("#analysis tbody tr").length > 0`, 20*time.Second)
			var rack int
			r.eval(ctx, `document.querySelectorAll("#review-rack .tile").length`, &rack)
			if rack != len(moves[k].Rack) {
				t.Errorf("review position %d: a rack of %d tiles, want %d", k, rack, len(moves[k].Rack))
			}
			if k == 1 {
				// A position with a bingo outside the best moves listed:
				// the best bingo is shown after them, marked.
				var last string
				r.run(ctx, "the best bingo's row", chromedp.Evaluate(`(async () => {
					const R = G.review, real = R.cache[1];
					R.cache[1] = {...real, bingos: [{move: "8B RETAINS", kind: "place", score: 72, equity: -40, leave: "", tiles: [{row: 7, col: 1, letter: "R", score: 1}]}]};
					await loadAnalysis(1);
					const rows = [...document.querySelectorAll("#analysis tbody tr")];
					const text = rows[rows.length - 1].innerText.replace(/\s+/g, " ").trim();
					R.cache[1] = real;
					await loadAnalysis(1);
					return text;
				})()`, &last, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
				if last != "8B RETAINS the best bingo 72 – -40.0" {
					t.Errorf("the review's row of the best bingo reads %q", last)
				}
			}
			if k == 2 {
				// The engine's simulation of this position.
				r.clickAt(ctx, "#sim-button")
				r.poll(ctx, "the simulation", `document.querySelectorAll("#simulation tbody tr").length > 0`, 90*time.Second)
				// With it, the verdict on the move played there.
				var verdict string
				r.eval(ctx, `$("#sim-verdict") ? $("#sim-verdict").textContent : ""`, &verdict)
				if !strings.HasPrefix(verdict, "The move played, ") || !strings.Contains(verdict, "wins ") {
					t.Errorf("the verdict on move 3 reads %q", verdict)
				}
				r.shot(ctx, "11-review")
				if moves[2].Kind == "place" {
					// What the move told the other player about the tiles kept.
					r.clickAt(ctx, "#infer-button")
					r.poll(ctx, "the inference", `!!$("#inference")`, 30*time.Second)
					var inf []string
					r.eval(ctx, `[...document.querySelectorAll("#inference h3, #inference p")].map((p) => p.textContent)`, &inf)
					text := strings.Join(inf, "|")
					if !strings.HasPrefix(text, "What Computer (Professional) could tell about Lou's tiles|") || !strings.Contains(text, "|Lou kept:") {
						t.Errorf("the inference reads %q", text)
					}
					r.run(ctx, "scroll to it", chromedp.ScrollIntoView(`#inference`))
					r.shot(ctx, "56-review-inference")
				}
			}
			tilesBefore += len(moves[k].Tiles)
			r.clickAt(ctx, "#rv-next")
		}
	}
	var pos string
	r.eval(ctx, `$("#review-pos").textContent`, &pos)
	if pos != "The end of the game" {
		t.Errorf("after the last move the review says %q", pos)
	}
	// The buttons: first, last, previous; and the GCG link.
	for _, step := range []struct {
		button string
		k      int
	}{{"#rv-first", 0}, {"#rv-last", len(moves)}, {"#rv-prev", len(moves) - 1}} {
		r.clickAt(ctx, step.button)
		r.poll(ctx, step.button, fmt.Sprintf(`G.review.k === %d && $("#review-pos").textContent === %q`, step.k,
			map[bool]string{true: "The end of the game", false: fmt.Sprintf("Move %d of %d", step.k+1, len(moves))}[step.k == len(moves)]), 5*time.Second)
	}
	var gcgHref, imgHref string
	r.eval(ctx, `$("#review-gcg").getAttribute("href")`, &gcgHref)
	if gcgHref != "/api/games/"+id+"/gcg" {
		t.Errorf("the review's GCG link: %q", gcgHref)
	}
	// The picture of the position shown (move len(moves)-1), which the
	// server draws.
	r.eval(ctx, `$("#review-image").getAttribute("href")`, &imgHref)
	if want := fmt.Sprintf("/api/games/%s/board.png?move=%d", id, len(moves)-1); imgHref != want {
		t.Errorf("the review's picture link: %q, want %q", imgHref, want)
	} else if code, _, _ := getImage(t, r.e, imgHref); code != 200 {
		t.Errorf("the review's picture: %d", code)
	}
	// A note on the move shown, the last one: saved, shown, kept by the
	// server; then taken away.
	var note string
	r.eval(ctx, `$("#note-form").hidden ? "hidden" : $("#note-text").value`, &note)
	if note != "" {
		t.Fatalf("the note form before a note: %q", note)
	}
	r.run(ctx, "type a note", chromedp.SetValue("#note-text", "  I should have kept the S ", chromedp.ByQuery))
	r.clickAt(ctx, "#note-save")
	r.poll(ctx, "the note shown", `$("#review-notes").textContent !== "" && document.querySelectorAll("#moves .noted").length === 1`, 10*time.Second)
	r.eval(ctx, `$("#review-notes").textContent + "|" + $("#note-text").value`, &note)
	if note != "Lou (you): I should have kept the S|I should have kept the S" {
		t.Errorf("the note shown reads %q", note)
	}
	if ns := r.e.state(id, "").Notes; len(ns) != 1 || ns[0].Seat != 0 || ns[0].Text != "I should have kept the S" {
		t.Errorf("the game's notes after saving one: %+v", ns)
	}
	r.shot(ctx, "52-review-note")
	r.eval(ctx, `$("#note-text").value = ""`, nil)
	r.clickAt(ctx, "#note-save")
	r.poll(ctx, "the note taken away", `$("#review-notes").textContent === "" && $("#message").textContent === "Note taken away." && !document.querySelector("#moves .noted")`, 10*time.Second)
	if ns := r.e.state(id, "").Notes; len(ns) != 0 {
		t.Errorf("the game's notes after taking it away: %+v", ns)
	}
	r.key(ctx, kb.Home)
	r.poll(ctx, "Home goes to the first position", `G.review.k === 0`, 5*time.Second)
	if s := r.axe(ctx, "the review"); s < 90 {
		t.Errorf("the review scores %.0f in the accessibility checks, want at least 90", s)
	}
	// The lobby lists the game under "My games", finished, with how it
	// ended for us.
	r.run(ctx, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "my finished games", fmt.Sprintf(`!!document.querySelector('#my-finished a[href="/g/%s"]')`, id), 20*time.Second)
	var mine string
	r.eval(ctx, `$("#my-finished").textContent + "|" + $("#my-current").textContent`, &mine)
	if !strings.Contains(mine, outcome[want]) || !strings.HasSuffix(mine, "|") {
		t.Errorf("my games after the game: %q", mine)
	}
}

// TestBrowserTwoTabs opens one seat in two tabs and on a second device
// (through the personal link) and plays from each: every one of them
// follows every move. Then the seat resigns.
func TestBrowserTwoTabs(t *testing.T) {
	r := newRig(t)
	id := r.e.create(SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := r.e.join(id)
	if _, ok := r.stateJSON(id, a.Token)["seq"]; !ok {
		t.Fatal("the state has no notification seq to follow from")
	}
	link := r.e.url + "/g/" + id + "#seat=" + a.Token
	tabA := r.ctx
	r.run(tabA, "open the personal link", chromedp.Navigate(link), chromedp.WaitVisible(`#rack .tile`))
	var addr string
	r.eval(tabA, `location.href`, &addr)
	if strings.Contains(addr, a.Token) {
		t.Errorf("the token stays in the address bar: %s", addr)
	}
	tabB := r.newTab()
	r.run(tabB, "the same game in a second tab", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#rack .tile`))
	devC := r.newDevice()
	r.run(devC, "the personal link on another device", chromedp.Navigate(link), chromedp.WaitVisible(`#rack .tile`))
	views := []context.Context{tabA, tabB, devC}
	for k := 0; k < 3; k++ {
		from := views[k]
		r.waitTurn(from, 0, 2*k)
		st := r.e.state(id, "")
		if st.Over {
			break
		}
		r.playMove(from, id, a.Token, 0, false, false)
		want := r.e.state(id, "").Moves
		for j, v := range views {
			r.poll(v, fmt.Sprintf("view %d follows move %d", j, k), fmt.Sprintf(`G.st.moves >= %d`, want), 20*time.Second)
		}
	}
	r.shot(tabB, "12-second-tab")
	// Resign from the other device: every view shows the end.
	r.clickAt(devC, "#resign")
	r.poll(devC, "the resign dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.clickAt(devC, "#ask-ok")
	for j, v := range views {
		r.poll(v, fmt.Sprintf("view %d sees the end", j), `G.st.over && !$("#result").hidden`, 20*time.Second)
	}
	var result string
	r.eval(tabA, `$("#result").textContent`, &result)
	if !strings.Contains(result, "You lost") || !strings.Contains(result, "Ana resigned") {
		t.Errorf("after resigning: %q", result)
	}
	r.shot(tabA, "13-resigned")
}

// TestBrowserResignAndAbort resigns a game and calls another off, by
// mouse, and checks the GCG records the resignation.
func TestBrowserResignAndAbort(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	id := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := r.e.join(id)
	r.run(ctx, "open the personal link", chromedp.Navigate(r.e.url+"/g/"+id+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	r.waitTurn(ctx, 0, 0)
	r.playMove(ctx, id, a.Token, 0, false, false)
	r.waitTurn(ctx, 0, 2)
	// The turn came back: one chime; the button turns the sound off.
	var chimes int
	r.eval(ctx, `G.chimes`, &chimes)
	if chimes != 1 {
		t.Errorf("%d chimes when the turn came back, want 1", chimes)
	}
	r.clickAt(ctx, "#sound")
	var sound, label string
	r.eval(ctx, `JSON.parse(localStorage.getItem("atril:settings")).sound`, &sound)
	r.eval(ctx, `$("#sound").textContent`, &label)
	if sound != "off" || label != "Sound: off" {
		t.Errorf("after the sound button: stored %q, label %q", sound, label)
	}
	r.clickAt(ctx, "#sound")
	// Notifications: allowed by the browser and turned on, the page in
	// the background is told when the turn comes back, with the move.
	r.run(ctx, "allow notifications", cdpbrowser.GrantPermissions([]cdpbrowser.PermissionType{cdpbrowser.PermissionTypeNotifications}).WithOrigin(r.e.url))
	r.clickAt(ctx, "#notify")
	r.poll(ctx, "notifications on", `localStorage.getItem("atril:notify") === "on" && $("#notify").textContent === "Notify: on" && $("#notify").getAttribute("aria-pressed") === "true"`, 5*time.Second)
	r.run(ctx, "the page in the background", chromedp.Evaluate(`Object.defineProperty(document, "hidden", {get: () => true, configurable: true});
		window.NOTES = []; window.Notification = class extends Notification { constructor(title, o) { NOTES.push(title + "|" + o.body); super(title, o); } }`, nil))
	r.playMove(ctx, id, a.Token, 0, false, false)
	r.waitTurn(ctx, 0, 4)
	r.poll(ctx, "notified", `G.notified === 1 && NOTES.length === 1 && /^atril: your turn\|.+ (played .+ for \d+|exchanged \d+ tiles|passed)\.$/.test(NOTES[0])`, 10*time.Second)
	r.run(ctx, "the page in front again", chromedp.Evaluate(`delete document.hidden`, nil))
	var abortShown bool
	r.eval(ctx, `!$("#abort").hidden`, &abortShown)
	if abortShown {
		t.Error("the page offers to call the game off after moves were made")
	}
	r.clickAt(ctx, "#resign")
	r.poll(ctx, "the resign dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.shot(ctx, "14-resign-dialog")
	r.clickAt(ctx, "#ask-ok")
	r.poll(ctx, "the end", `G.st.over && !$("#result").hidden`, 20*time.Second)
	var result string
	r.eval(ctx, `$("#result").textContent`, &result)
	if !strings.Contains(result, "You lost") || !strings.Contains(result, "Ana resigned") {
		t.Errorf("after resigning: %q", result)
	}
	// The score graph: a line per seat, each starting at 0.
	var lines []string
	r.eval(ctx, `[...document.querySelectorAll("#score-graph polyline")].map((p) => p.getAttribute("points"))`, &lines)
	if len(lines) != 2 || strings.Count(lines[0], ",") < 2 || strings.Count(lines[1], ",") < 2 {
		t.Errorf("score graph lines %q", lines)
	}
	// The summary: a line per seat, the costliest move opening the review.
	r.poll(ctx, "the summary", `document.querySelectorAll("#summary > table:first-child tr").length === 3`, 10*time.Second)
	var rows []string
	r.eval(ctx, `[...document.querySelectorAll("#summary > table:first-child tr")].map((tr) => tr.innerText)`, &rows)
	if !strings.HasPrefix(rows[1], "Ana (you)") || !strings.Contains(rows[1], " of 2") || !strings.Contains(rows[2], " of 2") {
		t.Errorf("the summary says %q", rows)
	}
	// The winning chances: Ana's, from about even to 0 (she resigned).
	var win struct {
		Caption, Label  string
		Points, Entries int
	}
	r.eval(ctx, `({Caption: $("#win-graph figcaption").textContent, Label: $("#win-graph svg").getAttribute("aria-label"),
		Points: $("#win-graph polyline").getAttribute("points").split(" ").length, Entries: G.st.history.length})`, &win)
	if win.Caption != "Ana's chance of winning at the start of each round" || !regexp.MustCompile(`^Ana's chance of winning: (4|5|6)\d% before the first move, 0% at the end$`).MatchString(win.Label) ||
		win.Points < 2 || win.Points > win.Entries+1 {
		t.Errorf("the winning chances: %+v", win)
	}
	var miss bool
	r.eval(ctx, `!!document.querySelector("#summary button")`, &miss)
	if !miss {
		// The greedy computer keeps a poor leave on this bag.
		t.Error("the summary names no costliest move")
	} else {
		r.run(ctx, "the costliest move", chromedp.Evaluate(`document.querySelector("#summary button").click()`, nil))
		r.poll(ctx, "the review at the costliest move", `!$("#review").hidden && !!G.review && $("#review-pos").textContent !== ""`, 10*time.Second)
		var here string
		r.eval(ctx, `$("#review-rack .win-here") ? $("#review-rack .win-here").textContent : ""`, &here)
		if !regexp.MustCompile(`^ \(chance of winning here: \d{1,3}%\)$`).MatchString(here) {
			t.Errorf("the review's chance of winning reads %q", here)
		}
		r.run(ctx, "back to the game", chromedp.Evaluate(`$("#review-close").click()`, nil))
		r.poll(ctx, "back to the result", `!G.review && !$("#result").hidden`, 10*time.Second)
	}
	// Missed bingos, as a summary lists them: a row per move, and a
	// button that files the bingos' alphagrams in the word list's
	// cardbox, due at once.
	var bingoRows []string
	r.eval(ctx, `(() => {
		const tbl = missedBingos(G.st, {seats: [{seat: 0, missed_bingos: [{move: 2, rack: "AEINRST", played: "8H TEA",
			bingos: [{move: "8B RETAINS", score: 72, equity: 80.5, word: "RETAINS", alphagram: "AEINRST"}, {move: "H1 STAINER", score: 70, equity: 78, word: "STAINER", alphagram: "AEINRST"}]}]},
			{seat: 1, missed_bingos: []}]});
		tbl.id = "bingo-check";
		$("#summary").append(tbl);
		return [...tbl.querySelectorAll("tr")].map((tr) => tr.innerText.replace(/\s+/g, " ").trim());
	})()`, &bingoRows)
	if len(bingoRows) != 2 || bingoRows[0] != "Player Move Rack Played Bingos (score) Study" || !strings.HasPrefix(bingoRows[1], "Ana (you) 3 ") ||
		!strings.Contains(bingoRows[1], "8B RETAINS 72, H1 STAINER 70") || !strings.HasSuffix(bingoRows[1], "Add to cardbox") {
		t.Errorf("the missed bingos read %q", bingoRows)
	}
	r.clickAt(ctx, "#bingo-check button")
	var filed string
	r.eval(ctx, `$("#bingo-check button").textContent + " " + JSON.stringify(Object.entries(loadCardbox("en-sowpods")).map(([k, c]) => [k, c[0], c[1] <= Date.now()]))`, &filed)
	if filed != `Added (1) [["AEINRST",0,true]]` {
		t.Errorf("after adding the missed bingos: %s", filed)
	}
	r.run(ctx, "the check's table gone", chromedp.Evaluate(`$("#bingo-check").remove(); localStorage.removeItem(cardboxKey("en-sowpods"))`, nil))
	var side string
	r.eval(ctx, `$("#side").innerText`, &side)
	if strings.Count(side, "Game over") != 1 || strings.Count(side, "Ana resigned") != 2 || strings.Contains(side, "another device") {
		// "Ana resigned." ends the move list and shows in the result.
		t.Errorf("after resigning the page says:\n%s", side)
	}
	resp, err := http.Get(r.e.url + "/api/games/" + id + "/gcg")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(text, []byte("#resigned Ana")) {
		t.Errorf("the GCG does not record the resignation:\n%s", text)
	}
	// Call a new game off before the first move.
	id2 := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a2 := r.e.join(id2)
	r.run(ctx, "open the second game", chromedp.Navigate(r.e.url+"/g/"+id2+"#seat="+a2.Token), chromedp.WaitVisible(`#abort`))
	r.clickAt(ctx, "#abort")
	r.poll(ctx, "the abort dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.clickAt(ctx, "#ask-ok")
	r.poll(ctx, "the end", `G.st.over && G.st.aborted && !$("#result").hidden`, 20*time.Second)
	r.eval(ctx, `$("#side").innerText`, &side)
	if strings.Count(side, "called off") != 1 || strings.Contains(side, "Final scores") || strings.Contains(side, "Moves") {
		t.Errorf("after calling the game off the page says:\n%s", side)
	}
	r.shot(ctx, "15-called-off")
	if st := r.e.state(id2, ""); !st.Over || !st.Aborted || len(st.Winners) != 0 {
		t.Errorf("after calling off: over %v aborted %v winners %v", st.Over, st.Aborted, st.Winners)
	}
}

// spanishSeed finds a bag seed whose first rack's best move (on the
// tests' Spanish list) uses a multi-letter tile.
func spanishSeed(t *testing.T) (uint64, string) {
	v := variant.MustLoad("spanish")
	lex, err := shortSpanish(v)
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.NewBrute(lex)
	for seed := uint64(1); seed < 3000; seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := movegen.Best(gen, g.Board, &g.Seats[0].Rack)
		if !ok {
			continue
		}
		_, ts := m.Placed()
		for _, tl := range ts {
			if l := v.Alphabet.String(tl.Letter()); len([]rune(l)) > 1 && !tl.IsBlanked() {
				return seed, l
			}
		}
	}
	t.Fatal("no seed gives a first move with CH, LL or RR")
	return 0, ""
}

// TestBrowserSpanish plays a Spanish game in Spanish: the first move types
// a multi-letter tile (CH, LL or RR) letter by letter, the digraph chooser
// shows, and the move list and messages show the tile as one unit, with
// no brackets.
func TestBrowserSpanish(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	seed, digraph := spanishSeed(t)
	var cr CreateResponse
	if code := r.e.do("POST", "/api/games", "", map[string]any{"variant": "spanish", "seed": seed,
		"seats": []SeatRequest{{Kind: "human", Name: "Rocío"}, {Kind: "computer", Level: "professional"}}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	a := r.e.join(cr.ID)
	r.run(ctx, "open the personal link", chromedp.Navigate(r.e.url+"/g/"+cr.ID+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	r.waitTurn(ctx, 0, 0)
	var labels struct{ Submit, Premium, Title string }
	r.eval(ctx, `({Submit: $("#submit").textContent, Premium: document.querySelector("#board .sq.tw .prem").textContent, Title: document.title})`, &labels)
	if labels.Submit != "Jugar" || labels.Premium != "TP" || labels.Title != "(Te toca) atril" {
		t.Errorf("a Spanish game is not in Spanish: %+v", labels)
	}
	r.checkLayout(ctx, 360, "the Spanish game")
	if left := r.englishLeft(ctx); len(left) > 0 {
		t.Errorf("English on the Spanish game's page: %q", left)
	}
	if s := r.axe(ctx, "a game"); s < 90 {
		t.Errorf("the game page scores %.0f in the accessibility checks, want at least 90", s)
	}
	// The first move by keyboard, stopping after the first letter of the
	// multi-letter tile to see the chooser.
	st := r.e.state(cr.ID, a.Token)
	tiles, _ := bestTiles(t, st)
	var k int
	for k = range tiles {
		if tiles[k].Letter == digraph {
			break
		}
	}
	r.aim(ctx, tiles)
	for _, p := range tiles[:k] {
		r.typeTile(ctx, p)
	}
	first := []rune(strings.ToLower(digraph))
	r.typeRune(ctx, first[0], false)
	r.poll(ctx, "the digraph chooser", `!$("#digraph").hidden`, 5*time.Second)
	var choose string
	r.eval(ctx, `$("#digraph").textContent`, &choose)
	if !strings.Contains(choose, digraph) {
		t.Errorf("the chooser offers %q, not %s", choose, digraph)
	}
	r.shot(ctx, "16-spanish-digraph")
	r.typeRune(ctx, first[1], false)
	for _, p := range tiles[k+1:] {
		r.typeTile(ctx, p)
	}
	var pending []PlacedTile
	r.eval(ctx, `G.pending.map((p) => ({row: p.row, col: p.col, letter: p.letter, blank: p.blank}))`, &pending)
	if fmt.Sprint(sortTiles(pending)) != fmt.Sprint(sortTiles(tiles)) {
		t.Fatalf("typed %+v, the page holds %+v", tiles, pending)
	}
	want, text := r.waitPreview(ctx)
	if want < 0 || !strings.Contains(text, "puntos") {
		t.Fatalf("preview: %d %q", want, text)
	}
	var unit int
	r.eval(ctx, fmt.Sprintf(`[...document.querySelectorAll("#preview .mt")].filter((e) => e.textContent === %q).length`, digraph), &unit)
	if unit == 0 {
		t.Errorf("the preview does not show %s as one tile", digraph)
	}
	r.checkBubble(ctx, "the Spanish preview")
	r.shot(ctx, "17-spanish-preview")
	r.key(ctx, kb.Enter)
	r.waitMoves(cr.ID, 0)
	after := r.e.state(cr.ID, a.Token)
	if after.History[0].Points != want {
		t.Errorf("preview %d, the server scored %d", want, after.History[0].Points)
	}
	// Two more moves, by taps: a square, then the tiles.
	next := after.Moves
	if after.Turn != 0 {
		next++
	}
	for i := 0; i < 2; i++ {
		r.waitTurn(ctx, 0, next)
		if r.e.state(cr.ID, "").Over {
			break
		}
		after, _ = r.play(ctx, cr.ID, a.Token, 0, false, false, true)
		next = after.Moves
		if after.Turn != 0 {
			next++
		}
	}
	r.poll(ctx, "the move list", fmt.Sprintf(`G.st.moves >= %d`, after.Moves), 10*time.Second)
	var list, page string
	r.eval(ctx, `[...document.querySelectorAll("#moves .mt")].map((e) => e.textContent).join(",")`, &list)
	r.eval(ctx, `document.querySelector("#side").innerText`, &page)
	if !strings.Contains(list, digraph) {
		t.Errorf("the move list shows no %s unit: %q", digraph, list)
	}
	if strings.ContainsAny(page, "[]") {
		t.Errorf("brackets on the page:\n%s", page)
	}
	r.shot(ctx, "18-spanish-game")
	// The same game in Czech, chosen in the header.
	r.run(ctx, "switch to Czech", chromedp.SetValue("#lang-select", "cs"),
		chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	var submit string
	r.eval(ctx, `$("#submit").textContent`, &submit)
	if submit != "Zahrát" {
		t.Errorf("in Czech the Play button says %q", submit)
	}
	if left := r.englishLeft(ctx); len(left) > 0 {
		t.Errorf("English on the Spanish game's page in Czech: %q", left)
	}
	// The board's premiums and the blank chooser stay in the game's
	// language, with its double tiles.
	var game struct {
		Premium, Prompt string
		Letters         []string
	}
	r.eval(ctx, `chooseBlank(() => {}); ({Premium: document.querySelector("#board .sq.tw .prem").textContent, Prompt: $("#blank-prompt").textContent,
		Letters: [...document.querySelectorAll("#blank-letters button")].map((b) => b.textContent)})`, &game)
	r.key(ctx, kb.Escape)
	r.poll(ctx, "the blank chooser closes", `!document.querySelector("#blank-dialog[open]")`, 5*time.Second)
	letters := strings.Join(game.Letters, " ")
	if game.Premium != "TP" || game.Prompt != "¿Qué letra es el comodín?" || len(game.Letters) != 28 || !strings.Contains(letters, "CH") ||
		!strings.Contains(letters, "LL") || !strings.Contains(letters, "RR") || !strings.Contains(letters, "Ñ") {
		t.Errorf("a Spanish game seen in Czech: %+v", game)
	}
	r.checkLayout(ctx, 360, "the game in Czech")

	// The rest of the game by keyboard, double tiles typed as their
	// letters.
	r.playOutPage(ctx, cr.ID, a.Token, 0, true, nil)
	final := r.e.state(cr.ID, "")
	r.run(ctx, "see the result", chromedp.WaitVisible(`#result #gcg-link`))
	r.eval(ctx, `document.querySelector("#side").innerText`, &page)
	if strings.ContainsAny(page, "[]") {
		t.Errorf("brackets on the page at the end:\n%s", page)
	}
	double := 0
	for _, h := range final.History {
		if h.Seat == 0 && h.Kind == "place" {
			double += strings.Count(h.Move, "[")
		}
	}
	r.checkLayout(ctx, 360, "the Spanish game over, in Czech")
	r.shot(ctx, "18b-spanish-game-over")
	var raw bytes.Buffer
	json.NewEncoder(&raw).Encode(final.History)
	t.Logf("Spanish game %s (seed %d), %d double tiles typed: %s", cr.ID, seed, double, raw.String())
	if double == 0 {
		t.Error("no double tile was typed")
	}
}

// TestBrowserCzech plays the first move of a Czech game by keyboard,
// typing letters with diacritics, in a page that speaks Czech.
func TestBrowserCzech(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	v := variant.MustLoad("czech")
	lex, err := shortCzech(v)
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.NewBrute(lex)
	seed := uint64(0)
	for s := uint64(1); s < 3000 && seed == 0; s++ {
		g, err := game.New(v, lex, []string{"a", "b"}, s)
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := movegen.Best(gen, g.Board, &g.Seats[0].Rack); ok && strings.ContainsAny(m.String(g.Board), "ÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ") {
			seed = s
		}
	}
	if seed == 0 {
		t.Fatal("no seed gives a first move with a letter with a diacritic")
	}
	var cr CreateResponse
	if code := r.e.do("POST", "/api/games", "", map[string]any{"variant": "czech", "seed": seed,
		"seats": []SeatRequest{{Kind: "human", Name: "Jana"}, {Kind: "computer", Level: "professional"}}}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	a := r.e.join(cr.ID)
	r.run(ctx, "open the personal link", chromedp.Navigate(r.e.url+"/g/"+cr.ID+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	r.waitTurn(ctx, 0, 0)
	var labels struct{ Submit, Premium, Title string }
	r.eval(ctx, `({Submit: $("#submit").textContent, Premium: document.querySelector("#board .sq.tw .prem").textContent, Title: document.title})`, &labels)
	if labels.Submit != "Zahrát" || labels.Premium != "3S" || labels.Title != "(Jste na tahu) atril" {
		t.Errorf("a Czech game is not in Czech: %+v", labels)
	}
	if left := r.englishLeft(ctx); len(left) > 0 {
		t.Errorf("English on the Czech game's page: %q", left)
	}
	after, _ := r.playMove(ctx, cr.ID, a.Token, 0, true, false)
	r.poll(ctx, "the move list", fmt.Sprintf(`G.st.moves >= %d`, after.Moves), 10*time.Second)
	r.shot(ctx, "19-czech-game")
	t.Logf("Czech game %s (seed %d): first move %s %+d", cr.ID, seed, after.History[0].Move, after.History[0].Points)
}

// TestBrowserClock starts a game with a clock from the lobby and watches
// it run down, then loses a one-second game on time.
func TestBrowserClock(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	r.run(ctx, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	var desc string
	r.run(ctx, "choose a clock", chromedp.SetValue("#opponent", "computer:professional"),
		chromedp.SetValue("#clock", "300"), chromedp.Evaluate(`$("#clock").dispatchEvent(new Event("change"))`, nil),
		chromedp.Text("#clock-desc", &desc))
	if !strings.Contains(desc, "10 points") {
		t.Errorf("clock description %q", desc)
	}
	// The lobby offers clocks with an increment too.
	var incReq string
	r.eval(ctx, `JSON.stringify(clockRequest([...document.querySelectorAll("#clock option")].find((o) => o.value.includes("+")).value))`, &incReq)
	if incReq != `{"seconds":180,"overtime":60,"increment":2}` {
		t.Errorf("the lobby's first clock with an increment asks for %s", incReq)
	}
	r.clickAt(ctx, "#create")
	r.run(ctx, "the game", chromedp.WaitVisible(`#rack .tile`))
	r.poll(ctx, "one clock, running", `document.querySelectorAll("#scores .clock").length === 1 && !!document.querySelector("#scores .clock.running")`, 10*time.Second)
	var first, later string
	r.eval(ctx, `document.querySelector("#scores .clock").textContent`, &first)
	if first != "5:00" && first != "4:59" {
		t.Errorf("a new 5-minute clock shows %q", first)
	}
	r.run(ctx, "wait", chromedp.Sleep(2200*time.Millisecond))
	r.eval(ctx, `document.querySelector("#scores .clock").textContent`, &later)
	if later == first || !strings.HasPrefix(later, "4:5") {
		t.Errorf("the clock showed %q, then %q two seconds later", first, later)
	}
	r.shot(ctx, "20-clock")
	var saved string
	r.eval(ctx, `localStorage.getItem("atril:clock")`, &saved)
	if saved != "300" {
		t.Errorf("clock choice remembered as %q", saved)
	}

	// The join page of a timed game says the clock.
	var open CreateResponse
	if code := r.e.do("POST", "/api/games", "", map[string]any{"variant": "english", "clock": ClockRequest{Seconds: 600, Overtime: 60},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &open); code != 201 {
		t.Fatalf("create: %d", code)
	}
	r.e.join(open.ID)
	var joinWhat string
	r.run(ctx, "the join page", chromedp.Navigate(r.e.url+"/g/"+open.ID), chromedp.WaitVisible(`#join-button`), chromedp.Text("#join-what", &joinWhat))
	if !strings.Contains(joinWhat, "Clock: 10 minutes each, 1 of overtime") {
		t.Errorf("the join page says %q", joinWhat)
	}
	// A clock with an increment: the join page says it.
	if code := r.e.do("POST", "/api/games", "", map[string]any{"variant": "english", "clock": ClockRequest{Seconds: 600, Overtime: 60, Increment: 5},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &open); code != 201 {
		t.Fatalf("create: %d", code)
	}
	r.e.join(open.ID)
	r.run(ctx, "the join page of a clock with an increment", chromedp.Navigate(r.e.url+"/g/"+open.ID), chromedp.WaitVisible(`#join-button`), chromedp.Text("#join-what", &joinWhat))
	if !strings.Contains(joinWhat, "10 minutes each and 5 seconds more after each move") {
		t.Errorf("the join page says %q", joinWhat)
	}

	// A one-second clock with no overtime: the page sees the loss on time.
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 7, "clock": ClockRequest{Seconds: 1},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "computer", Level: "professional"}}}
	if code := r.e.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	a := r.e.join(cr.ID)
	r.run(ctx, "open the timed game", chromedp.Navigate(r.e.url+"/g/"+cr.ID+"#seat="+a.Token), chromedp.WaitVisible(`#board .sq`))
	r.poll(ctx, "the loss on time", `G.st && G.st.over && !$("#result").hidden`, 10*time.Second)
	var result, clock string
	r.eval(ctx, `$("#result").textContent`, &result)
	r.eval(ctx, `document.querySelector("#scores .clock").textContent`, &clock)
	if !strings.Contains(result, "You lost") || !strings.Contains(result, "Ana ran out of time") || clock != "0:00" {
		t.Errorf("after the loss on time: result %q, clock %q", result, clock)
	}
	r.shot(ctx, "21-lost-on-time")
}

// TestBrowserCorrespondence starts a game of correspondence play (days
// for each move) from the lobby: its clock shows days and hours and
// starts afresh at each turn, "My games" says the time left, and the
// lobby and the join page name the clock.
func TestBrowserCorrespondence(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	r.signUpPage(ctx, "Corrie")
	var desc, label string
	r.run(ctx, "choose three days a move", chromedp.SetValue("#opponent", "friend"),
		chromedp.SetValue("#clock", "d3"), chromedp.Evaluate(`$("#clock").dispatchEvent(new Event("change"))`, nil),
		chromedp.Text("#clock-desc", &desc))
	r.eval(ctx, `$("#clock").selectedOptions[0].textContent`, &label)
	if !strings.HasPrefix(desc, "Correspondence") || label != "3 days a move" {
		t.Errorf("clock %q described as %q", label, desc)
	}
	r.clickAt(ctx, "#create")
	r.run(ctx, "wait for the game", chromedp.WaitVisible(`#share`))
	r.poll(ctx, "the game waiting", `!!G.id && !!G.st && !G.st.started`, 10*time.Second)
	var id string
	r.eval(ctx, `G.id`, &id)
	st := r.e.state(id, "")
	if st.Clock == nil || st.Clock.PerMove == nil || st.Clock.PerMove[0] != 3*86400 || st.Clock.PerMove[1] != 3*86400 {
		t.Fatalf("the game's clock: %+v", st.Clock)
	}
	var clocks []string
	r.eval(ctx, `[...document.querySelectorAll("#scores .clock")].map((c) => c.textContent)`, &clocks)
	if len(clocks) != 2 || clocks[0] != "3 d 0 h" || clocks[1] != "3 d 0 h" {
		t.Errorf("before the start the clocks show %q", clocks)
	}
	// Bo joins: Corrie's clock runs.
	bo, cs := JoinResponse{}, r.e.accounts(2)
	if code := r.e.doWith(cs[0], "POST", "/api/games/"+id+"/join", "", nil, &bo); code != 200 {
		t.Fatalf("join: %d", code)
	}
	r.poll(ctx, "Ana's clock running", `!!document.querySelector("#scores .clock.running") && document.querySelector("#scores .clock").classList.contains("running")`, 10*time.Second)
	r.eval(ctx, `[...document.querySelectorAll("#scores .clock")].map((c) => c.textContent)`, &clocks)
	if clocks[0] != "2 d 23 h" || clocks[1] != "3 d 0 h" {
		t.Errorf("with Ana's clock running the clocks show %q", clocks)
	}
	r.shot(ctx, "38-correspondence")
	var saved string
	r.eval(ctx, `localStorage.getItem("atril:clock")`, &saved)
	if saved != "d3" {
		t.Errorf("clock choice remembered as %q", saved)
	}
	// My games: Ana's turn, with the time left.
	r.run(ctx, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "my game listed", `$("#my-current").textContent.includes("left")`, 10*time.Second)
	var mine string
	r.eval(ctx, `$("#my-current").textContent`, &mine)
	var title string
	r.eval(ctx, `document.title`, &title)
	if !strings.Contains(mine, "Your turn.") || !strings.Contains(mine, "2 d 23 h left") || title != "(1) atril" {
		t.Errorf("My games says %q, the title %q", mine, title)
	}
	if code := r.e.do("POST", "/api/games/"+id+"/move", bo.Token, map[string]any{"kind": "pass"}, nil); code != 409 {
		t.Errorf("Bo moving on Ana's turn: %d", code)
	}

	// A game offered to anyone with seven days a move: the open games
	// and the join page name the clock.
	var open CreateResponse
	if code := r.e.doWith(cs[1], "POST", "/api/games", "", map[string]any{"variant": "english", "clock": ClockRequest{PerMove: 7 * 86400},
		"seats": []SeatRequest{{Kind: "human", Name: "Cy"}, {Kind: "human"}}}, &open); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var cy JoinResponse
	if code := r.e.doWith(cs[1], "POST", "/api/games/"+open.ID+"/join", "", nil, &cy); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if code := r.e.do("POST", "/api/games/"+open.ID+"/list", cy.Token, nil, nil); code != 200 {
		t.Fatalf("list: %d", code)
	}
	r.run(ctx, "the lobby again", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "the open game", `$("#open-games").textContent.includes("7 days a move")`, 10*time.Second)
	var joinWhat string
	r.run(ctx, "the join page", chromedp.Navigate(r.e.url+"/g/"+open.ID), chromedp.WaitVisible(`#join-button`), chromedp.Text("#join-what", &joinWhat))
	if !strings.Contains(joinWhat, "Clock: 7 days a move; a player who lets a move's time run out loses on time.") {
		t.Errorf("the join page says %q", joinWhat)
	}
}

// signUpPage makes an account from the lobby's page (its own request,
// not the dialog) and waits for the lobby signed in.
func (r *rig) signUpPage(ctx context.Context, name string) {
	r.t.Helper()
	r.run(ctx, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	var code int
	r.run(ctx, "sign up "+name, chromedp.Evaluate(`fetch("/api/accounts", {method: "POST", body: JSON.stringify({name: "`+name+`", password: "correct horse"})}).then((r) => r.status)`, &code,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if code != 201 {
		r.t.Fatalf("sign up %s: %d", name, code)
	}
	r.run(ctx, "the lobby signed in", chromedp.Reload(), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "signed in", `!!ME.signed_in && document.querySelectorAll("#opponent option").length > 3`, 10*time.Second)
}

// TestBrowserInvite: Anabel invites Bodil by name to a game of three
// days a move from the lobby; her page waits for him; his lobby lists
// the invitation (its title counting it), he accepts it and plays from
// his page; a second invitation he declines is called off.
func TestBrowserInvite(t *testing.T) {
	r := newRig(t)
	ana, bo := r.ctx, r.newDevice()
	r.signUpPage(ana, "Anabel")
	r.signUpPage(bo, "Bodil")
	// Bodil is in the lobby: Anabel's lists him (not herself), and Invite
	// puts his name in the new game's form. (The server reads the list
	// again at once, not onlineEvery later.)
	r.e.srv.presence.mu.Lock()
	r.e.srv.presence.readAt = time.Time{}
	r.e.srv.presence.mu.Unlock()
	r.run(ana, "Anabel's lobby again", chromedp.Reload(), chromedp.WaitVisible(`#create`))
	r.poll(ana, "Bodil in the lobby", `[...$("#lobby-players").querySelectorAll("a:not(.button)")].map((a) => a.textContent).join() === "Bodil" && $("#players-empty").hidden &&
		$("#lobby-players button").getAttribute("aria-label") === "Invite Bodil to a game" &&
		$("#lobby-players a.button").getAttribute("href") === "/messages/Bodil"`, 10*time.Second)
	r.clickAt(ana, "#lobby-players button")
	var desc string
	r.poll(ana, "the invitation's form", `$("#opponent").value === "invite" && $("#invite-name").value === "Bodil" && !$("#invite-name").hidden`, 5*time.Second)
	r.run(ana, "a clock of three days a move", chromedp.SetValue("#clock", "d3"), chromedp.Evaluate(`$("#clock").dispatchEvent(new Event("change"))`, nil),
		chromedp.Text("#level-desc", &desc))
	if !strings.Contains(desc, "until they accept or decline") {
		t.Errorf("the invitation described as %q", desc)
	}
	r.clickAt(ana, "#create")
	r.run(ana, "wait for the game", chromedp.WaitVisible(`#share`))
	r.poll(ana, "Anabel waits for Bodil", `$("#turn").textContent === "Waiting for Bodil to accept the invitation…"`, 10*time.Second)

	r.run(bo, "Bodil's lobby", chromedp.Reload(), chromedp.WaitVisible(`#create`))
	r.poll(bo, "the invitation", `$("#my-current").textContent.includes("Anabel invites you.")`, 10*time.Second)
	var title string
	r.eval(bo, `document.title`, &title)
	if title != "(1) atril" {
		t.Errorf("Bodil's lobby is titled %q", title)
	}
	r.shot(bo, "39-invitation")
	if s := r.axe(bo, "the lobby with an invitation"); s < 90 {
		t.Errorf("the lobby with an invitation scores %.0f in the accessibility checks", s)
	}
	r.run(bo, "accept", chromedp.Click(`#my-current button`, chromedp.NodeVisible))
	r.run(bo, "Bodil's game", chromedp.WaitVisible(`#board .sq`))
	r.poll(bo, "the game started", `!!G.st && G.st.started && G.st.you && G.st.you.seat === 1`, 10*time.Second)
	r.poll(ana, "Anabel's turn", `$("#turn").textContent === "Your turn."`, 10*time.Second)

	// A second invitation, declined.
	var second CreateResponse
	r.run(ana, "invite again", chromedp.Evaluate(`fetch("/api/games", {method: "POST", body: JSON.stringify({variant: "english", seats: [{kind: "human"}, {kind: "human", invite: "bodil"}]})}).then((r) => r.json())`, &second,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if second.ID == "" {
		t.Fatalf("the second invitation: %+v", second)
	}
	r.run(bo, "Bodil's lobby again", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(bo, "the second invitation", `[...document.querySelectorAll("#my-current li")].some((li) => li.textContent.includes("invites you"))`, 10*time.Second)
	r.run(bo, "decline", chromedp.Evaluate(`[...document.querySelectorAll("#my-current li")].find((li) => li.textContent.includes("invites you")).querySelectorAll("button")[1].click()`, nil))
	r.poll(bo, "the invitation gone", `!$("#mine-card").textContent.includes("invites you") && $("#my-current").textContent.includes("Anabel")`, 10*time.Second)
	if st := r.e.state(second.ID, ""); !st.Over || !st.Aborted {
		t.Errorf("the declined game: over %v, called off %v", st.Over, st.Aborted)
	}
}

// twoPeople starts a game of Ana (seat 0) against Bo and opens each
// one's page, Ana's in the rig's browser and Bo's on another device.
func (r *rig) twoPeople() (id string, a, b JoinResponse, ana, bo context.Context) {
	r.t.Helper()
	id = r.e.create(SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Bo"})
	r.e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Ana"}, &a)
	r.e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Bo"}, &b)
	ana, bo = r.ctx, r.newDevice()
	r.run(ana, "Ana's page", chromedp.Navigate(r.e.url+"/g/"+id+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	r.run(bo, "Bo's page", chromedp.Navigate(r.e.url+"/g/"+id+"#seat="+b.Token), chromedp.WaitVisible(`#rack .tile`))
	return id, a, b, ana, bo
}

// TestBrowserRematch: after a game between two people, one asks for a
// rematch from the result box, the other is offered it on their page,
// joins, and starts the new game.
func TestBrowserRematch(t *testing.T) {
	r := newRig(t)
	id, _, b, ana, bo := r.twoPeople()
	if code := r.e.do("POST", "/api/games/"+id+"/resign", b.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	r.poll(ana, "Ana's result box offers a rematch", `!$("#result").hidden && !!$("#rematch-button")`, 10*time.Second)
	r.clickAt(ana, "#rematch-button")
	r.run(ana, "to the rematch", chromedp.Sleep(time.Second), chromedp.WaitVisible(`#board .sq`))
	r.poll(ana, "Ana in the rematch, waiting for Bo", `location.pathname !== "/g/`+id+`" && G.st && !G.st.started && G.st.you && G.st.you.seat === 1`, 10*time.Second)
	var newPath string
	r.eval(ana, `location.pathname`, &newPath)
	r.poll(bo, "Bo is offered the rematch", `!!$("#rematch-button") && $("#result").textContent.includes("wants a rematch")`, 15*time.Second)
	r.shot(bo, "22-rematch-offer")
	r.clickAt(bo, "#rematch-button")
	r.run(bo, "to the rematch", chromedp.Sleep(time.Second), chromedp.WaitVisible(`#board .sq`))
	r.poll(bo, "Bo starts the rematch", `location.pathname === "`+newPath+`" && G.st && G.st.started && G.st.turn === 0 && G.st.you.seat === 0 && !!document.querySelector("#rack .tile")`, 10*time.Second)
	r.poll(ana, "Ana sees the rematch start", `G.st.started`, 10*time.Second)
	// Back on the finished game, Bo's page now leads to the rematch.
	r.run(bo, "the finished game again", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#result`))
	r.poll(bo, "a link to the rematch", `!!$("#rematch-link") && $("#rematch-link").getAttribute("href") === "`+newPath+`"`, 10*time.Second)
}

// TestBrowserDark: with a dark system setting the lobby and the game are
// dark, the tiles keep their colour, and the accessibility checks still
// pass.
func TestBrowserDark(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	r.run(ctx, "a dark system setting", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	r.run(ctx, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	// luma is the lightness (0 to 255) of an element's computed colour.
	const luma = `((sel, prop) => { const m = getComputedStyle(document.querySelector(sel))[prop].match(/\d+(\.\d+)?/g).map(Number);
		return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]; })`
	var bg, ink, card float64
	r.eval(ctx, luma+`("body", "backgroundColor")`, &bg)
	r.eval(ctx, luma+`("body", "color")`, &ink)
	r.eval(ctx, luma+`("#new-card", "backgroundColor")`, &card)
	if bg > 60 || card > 60 || ink < 180 {
		t.Errorf("dark lobby: background %.0f, card %.0f, text %.0f", bg, card, ink)
	}
	if s := r.axe(ctx, "the dark lobby"); s < 90 {
		t.Errorf("the dark lobby scores %.0f in the accessibility checks", s)
	}
	r.shot(ctx, "23-dark-lobby")
	id := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a := r.e.join(id)
	r.run(ctx, "a game", chromedp.Navigate(r.e.url+"/g/"+id+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	var sq, tile float64
	r.eval(ctx, luma+`("#board .sq:not(.tw):not(.dw):not(.tl):not(.dl):not(.start)", "backgroundColor")`, &sq)
	r.eval(ctx, luma+`("#rack .tile", "backgroundColor")`, &tile)
	if sq > 80 || tile < 180 {
		t.Errorf("dark game: plain square %.0f, tile %.0f (want dark squares, light tiles)", sq, tile)
	}
	r.shot(ctx, "24-dark-game")
}

// TestBrowserChat: two people at a game write to each other; typing in
// the chat places no tile, and a game against the computer has no chat.
func TestBrowserChat(t *testing.T) {
	r := newRig(t)
	_, _, _, ana, bo := r.twoPeople()
	var rack string
	r.eval(ana, `G.rack.map((x) => x.letter).join("")`, &rack)
	// Ana types her rack's letters into the chat: they go to the chat only.
	r.run(ana, "Ana writes", chromedp.Click("#chat-text"), chromedp.SendKeys("#chat-text", "good luck "+rack), chromedp.Click("#chat-send"))
	r.poll(bo, "Bo reads it", `$("#chat-lines").textContent.includes("Ana:good luck `+rack+`")`, 10*time.Second)
	var pending int
	r.eval(ana, `G.pending.length`, &pending)
	if pending != 0 {
		t.Errorf("typing in the chat put %d tiles on the board", pending)
	}
	r.run(bo, "Bo answers with Enter", chromedp.SendKeys("#chat-text", "thanks, you too\r"))
	r.poll(ana, "Ana reads the answer", `$("#chat-lines").textContent.includes("Bo:thanks, you too") && $("#chat-text").value === ""`, 10*time.Second)
	r.shot(ana, "25-chat")
	// Against the computer there is nobody to write to.
	id2 := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "computer", Level: "professional"})
	a2 := r.e.join(id2)
	r.run(ana, "a game against the computer", chromedp.Navigate(r.e.url+"/g/"+id2+"#seat="+a2.Token), chromedp.WaitVisible(`#rack .tile`))
	var hidden bool
	r.eval(ana, `$("#chat-box").hidden`, &hidden)
	if !hidden {
		t.Error("a game against the computer shows a chat")
	}
}

// TestBrowserChallenge: under the double-challenge rule Ana plays a
// word that is not in the list; Bo's page offers the challenge, and once
// he makes it both pages show the play taken back.
func TestBrowserChallenge(t *testing.T) {
	r := newRig(t)
	id := r.e.createRule("double", SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Bo"})
	var a, b JoinResponse
	r.e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Ana"}, &a)
	r.e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Bo"}, &b)
	ana, bo := r.ctx, r.newDevice()
	r.run(ana, "Ana's page", chromedp.Navigate(r.e.url+"/g/"+id+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	r.run(bo, "Bo's page", chromedp.Navigate(r.e.url+"/g/"+id+"#seat="+b.Token), chromedp.WaitVisible(`#rack .tile`))
	var title string
	r.eval(bo, `$("#game-title").textContent`, &title)
	if !strings.Contains(title, "double challenge") {
		t.Errorf("game title %q does not name the rule", title)
	}
	if code := r.e.do("POST", "/api/games/"+id+"/move", a.Token, phonyOpening(t, r.e.state(id, a.Token)), nil); code != 200 {
		t.Fatalf("Ana's phony: %d", code)
	}
	r.poll(bo, "Bo is offered the challenge", `!$("#challenge-bar").hidden && $("#challenge-say").textContent.includes("challenge") && $("#accept-btn").hidden`, 10*time.Second)
	r.shot(bo, "26-challenge-offer")
	r.clickAt(bo, "#challenge-btn")
	r.poll(bo, "Bo sees the play taken back", `$("#message").textContent.includes("taken back") && $("#challenge-bar").hidden && !document.querySelector("#board .tile")`, 10*time.Second)
	r.poll(ana, "Ana sees her play taken back", `$("#message").textContent.includes("Your play") && $("#moves").textContent.includes("not in the list") && !document.querySelector("#board .tile")`, 10*time.Second)
	r.shot(ana, "27-challenged-off")
	if s := r.axe(bo, "the challenge offer"); s < 90 {
		t.Errorf("the page after a challenge scores %.0f in the accessibility checks", s)
	}
}

// signInDialog fills the page's sign-in dialog (opened by the button
// open) with a name and a password and presses the button go
// ("#signin-go" or "#signup-go").
func (r *rig) signInDialog(ctx context.Context, open, name, password, goButton string) {
	r.t.Helper()
	var isOpen bool
	r.eval(ctx, `!!document.querySelector("#signin-dialog[open]")`, &isOpen)
	if !isOpen {
		r.clickAt(ctx, open)
		r.poll(ctx, "the sign-in dialog", `!!document.querySelector("#signin-dialog[open]") && document.activeElement === $("#signin-name")`, 5*time.Second)
	}
	r.run(ctx, "fill the sign-in dialog", chromedp.Evaluate(`$("#signin-name").value = $("#signin-password").value = ""`, nil),
		chromedp.SendKeys("#signin-name", name), chromedp.SendKeys("#signin-password", password))
	r.clickAt(ctx, goButton)
}

// signInError waits for the sign-in dialog to show a refusal and
// checks it.
func (r *rig) signInError(ctx context.Context, want string) {
	r.t.Helper()
	r.poll(ctx, "the dialog's refusal", `$("#signin-error").textContent !== "" && !$("#signin-go").disabled`, 10*time.Second)
	var got string
	r.eval(ctx, `$("#signin-error").textContent`, &got)
	if got != want {
		r.t.Errorf("the sign-in dialog says %q, want %q", got, want)
	}
}

// TestBrowserAccounts: Ana makes her account through the header's dialog
// and starts a rated game from the lobby (the Rated box usable only
// signed in and with a person as the opponent); a visitor not signed in
// is asked to sign in to take its seat; Boris makes his account from
// there and joins under its name. After a move each Ana resigns: both
// pages show the rating changes (Ana's down, Boris's up), the rematch
// shows the ratings at the seats, Boris's profile lists his rating and
// the game, and the lobby's leaderboard lists both, Boris first.
func TestBrowserAccounts(t *testing.T) {
	r := newRig(t)
	ana := r.ctx
	r.run(ana, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ana, "the form, signed out", `document.querySelectorAll("#opponent option").length > 3 && !$("#signin-open").hidden && $("#me-link").hidden`, 20*time.Second)
	r.poll(ana, "the empty leaderboard", `!$("#leaders-empty").hidden && $("#leaders").hidden && $("#leaders-lexicon").value === "en-sowpods"`, 10*time.Second)
	var lobby struct {
		RatedDisabled bool
		RatedDesc     string
		Empty         string
	}
	r.eval(ana, `({RatedDisabled: $("#rated").disabled, RatedDesc: $("#rated-desc").textContent, Empty: $("#leaders-empty").textContent})`, &lobby)
	if !lobby.RatedDisabled || !strings.HasPrefix(lobby.RatedDesc, "A rated game has a clock and signed-in players; the result changes their ratings, which are kept apart by word list and pace: blitz (under 8 minutes a player, counting 15 increments), rapid (under 20), regular, and correspondence (days a move).") ||
		!strings.Contains(lobby.RatedDesc, "Sign in") || lobby.Empty != "No rated games of this pace in this word list yet." {
		t.Errorf("the lobby signed out: %+v", lobby)
	}

	// Ana's account, made through the dialog: a password too short is
	// refused in the dialog, in the page's words.
	r.signInDialog(ana, "#signin-open", "Ana", "short", "#signup-go")
	r.signInError(ana, "A password has 8 to 200 characters.")
	if s := r.axe(ana, "the sign-in dialog"); s < 90 {
		t.Errorf("the sign-in dialog scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(ana, "28-sign-in-dialog")
	r.signInDialog(ana, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(ana, "Ana signed in", `!document.querySelector("#signin-dialog[open]") && !$("#me-link").hidden && $("#signin-open").hidden && !$("#signout").hidden`, 10*time.Second)
	var header struct{ Name, Href, PlayAs string }
	var nameShown bool
	r.eval(ana, `({Name: $("#me-link").textContent, Href: $("#me-link").getAttribute("href"), PlayAs: $("#play-as").offsetParent ? $("#play-as").textContent : ""})`, &header)
	r.eval(ana, `!!$("#name").offsetParent`, &nameShown)
	if header.Name != "Ana" || header.Href != "/p/Ana" || header.PlayAs != "You play as Ana." || nameShown {
		t.Errorf("signed in, the header and form: %+v (name field shown: %v)", header, nameShown)
	}

	// The Rated box: against the computer, at the level's fixed rating;
	// for a game open to anyone.
	choose := func(opp string) (disabled bool, desc string) {
		r.run(ana, "choose "+opp, chromedp.SetValue("#opponent", opp), chromedp.Evaluate(`$("#opponent").dispatchEvent(new Event("change"))`, nil))
		r.eval(ana, `$("#rated").disabled`, &disabled)
		r.eval(ana, `$("#rated-desc").textContent`, &desc)
		return
	}
	if off, desc := choose("anyone"); off || desc != "A rated game has a clock and signed-in players; the result changes their ratings, which are kept apart by word list and pace: blitz (under 8 minutes a player, counting 15 increments), rapid (under 20), regular, and correspondence (days a move)." {
		t.Errorf("for a game open to anyone the Rated box is disabled (%v) or says %q", off, desc)
	}
	r.clickAt(ana, "#rated")
	var rangeShown bool
	if off, desc := choose("computer:professional"); off || !strings.HasSuffix(desc, "Against the computer, your rating against the computer changes, kept apart from your ratings against people; Professional plays at a fixed rating of 1700.") {
		t.Errorf("against the computer the Rated box is disabled (%v) or says %q", off, desc)
	}
	if r.eval(ana, `!$("#range-box").hidden`, &rangeShown); rangeShown {
		t.Error("a rating range is offered for the computer's seat")
	}
	choose("anyone")
	var checked bool
	r.eval(ana, `$("#rated").checked`, &checked)
	if !checked {
		t.Fatal("a click does not tick the Rated box")
	}
	// A rated game has a clock: ticking the box chose one.
	var clock string
	var noneOff bool
	r.eval(ana, `$("#clock").value`, &clock)
	r.eval(ana, `$("#clock").querySelector('option[value="0"]').disabled`, &noneOff)
	if clock != "1500" || !noneOff {
		t.Errorf("with Rated ticked the clock is %q and \"no clock\" is offered (%v)", clock, !noneOff)
	}
	// The form names the pace of the clock chosen.
	paceDesc := func(v string) string {
		var desc string
		r.run(ana, "the clock "+v, chromedp.SetValue("#clock", v), chromedp.Evaluate(`$("#clock").dispatchEvent(new Event("change"))`, nil))
		r.eval(ana, `$("#rated-desc").textContent`, &desc)
		return desc[strings.LastIndex(desc, ". ")+2:]
	}
	for _, c := range [][2]string{{"180+2", "Blitz"}, {"600+5", "Rapid"}, {"d3", "Correspondence"}, {"1500", "Regular"}} {
		if got := paceDesc(c[0]); got != "Pace with this clock: "+c[1]+"." {
			t.Errorf("the clock %s: the form says %q", c[0], got)
		}
	}
	r.clickAt(ana, "#create")
	r.run(ana, "wait for the game", chromedp.WaitVisible(`#share`))
	id, tokA := r.pageGame(ana)
	if st := r.e.state(id, ""); !st.Rated || st.Seats[0].Name != "Ana" || !st.Seats[0].Account || st.Seats[1].Taken || st.Clock == nil || st.Clock.Seconds[0] != 1500 {
		t.Fatalf("the game made from the lobby: rated %v, seats %+v", st.Rated, st.Seats)
	}
	var tag string
	r.eval(ana, `$("#rated-tag").offsetParent ? $("#rated-tag").textContent : ""`, &tag)
	if !strings.HasPrefix(tag, "Rated") {
		t.Errorf("the rated game's page says %q, not that it is rated", tag)
	}

	// Another device, not signed in: the lobby marks the game rated; its
	// link asks to sign in before taking the seat.
	bo := r.newDevice()
	r.run(bo, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(bo, "the open game", fmt.Sprintf(`!!document.querySelector('#open-games a[href="/g/%s"]')`, id), 20*time.Second)
	var open string
	r.eval(bo, `$("#open-games li").textContent`, &open)
	if !strings.HasPrefix(open, "Rated · Regular Ana waits for a player") {
		t.Errorf("the open rated game reads %q", open)
	}
	r.run(bo, "the game's link", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#join-need`))
	var join struct {
		FormShown    bool
		Need, What   string
		SignInButton bool
	}
	r.eval(bo, `({FormShown: !!$("#join-form").offsetParent, Need: $("#join-need").textContent.trim(), What: $("#join-what").textContent,
		SignInButton: !!$("#join-signin").offsetParent})`, &join)
	if join.FormShown || !strings.HasPrefix(join.Need, "This is a rated game: sign in to take a seat.") || !join.SignInButton ||
		!strings.Contains(join.What, "A rated game") {
		t.Errorf("a rated game's join page, signed out: %+v", join)
	}
	if s := r.axe(bo, "the rated game's join page"); s < 90 {
		t.Errorf("the rated game's join page scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(bo, "29-rated-join-signed-out")
	// Boris signs up from there: a name too short, and one taken (in
	// another case), are refused.
	r.signInDialog(bo, "#join-signin", "Bo", "borisboris", "#signup-go")
	r.signInError(bo, "A name has 3 to 20 characters.")
	r.signInDialog(bo, "#join-signin", "ANA", "borisboris", "#signup-go")
	r.signInError(bo, `The name "ANA" is taken: choose another.`)
	r.signInDialog(bo, "#join-signin", "Boris", "borisboris", "#signup-go")
	r.poll(bo, "the join form for Boris", `!document.querySelector("#signin-dialog[open]") && !!$("#join-form").offsetParent && $("#join-need").hidden`, 10*time.Second)
	var joinAs string
	var focused bool
	r.eval(bo, `$("#join-as").textContent`, &joinAs)
	r.eval(bo, `document.activeElement === $("#join-button") && !$("#join-name").offsetParent`, &focused)
	if joinAs != "You play as Boris." || !focused {
		t.Errorf("signed in, the join form says %q (the Join button focused and no name asked: %v)", joinAs, focused)
	}
	r.clickAt(bo, "#join-button")
	r.run(bo, "Boris's game", chromedp.WaitVisible(`#rack .tile`))
	_, tokB := r.pageGame(bo)
	r.poll(ana, "Ana sees Boris sit down", `G.st.started && $("#scores").textContent.includes("Boris")`, 10*time.Second)
	var seats []string
	r.eval(bo, `[...document.querySelectorAll("#scores .seat")].map((s) => (s.querySelector(".acct") ? s.querySelector(".acct").getAttribute("aria-label") + ": " : "") + s.textContent)`, &seats)
	if strings.Join(seats, "|") != "signed-in player: ✓ Ana|signed-in player: ✓ Boris (you)" {
		t.Errorf("the seats on Boris's page: %q", seats)
	}

	// A move each, then Ana resigns.
	r.waitTurn(ana, 0, 0)
	r.playMove(ana, id, tokA, 0, false, false)
	r.waitTurn(bo, 1, 1)
	r.playMove(bo, id, tokB, 1, false, false)
	r.waitTurn(ana, 0, 2)
	// Meanwhile a visitor's lobby lists the game being played, to watch.
	vis := r.newDevice()
	r.run(vis, "a visitor's lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(vis, "the game being played", fmt.Sprintf(`!!document.querySelector('#playing-games a[href="/g/%s"]') && $("#playing-empty").hidden`, id), 20*time.Second)
	var watching string
	r.eval(vis, `$("#playing-games li").textContent`, &watching)
	st2 := r.e.state(id, "")
	// Each seat's time left, Ana's (on turn) running down.
	clocks := regexp.MustCompile(` \d+:\d\d`).FindAllString(watching, -1)
	watching = regexp.MustCompile(` \d+:\d\d`).ReplaceAllString(watching, "")
	if want := fmt.Sprintf("Rated · Regular ✓ Ana %d – ✓ Boris %d English · SOWPODS (international English) · 2 moves Watch", st2.Seats[0].Score, st2.Seats[1].Score); watching != want || len(clocks) != 2 {
		t.Errorf("the lobby's game being played reads %q with the clocks %q, want %q and two clocks", watching, clocks, want)
	}
	r.poll(vis, "Ana's clock running down", `(() => { const c = document.querySelectorAll("#playing-games .lobby-clock");
		return c.length === 2 && c[0].classList.contains("running") && !c[1].classList.contains("running") &&
			c[0].textContent !== (window.FIRST_CLOCK = window.FIRST_CLOCK || c[0].textContent); })()`, 5*time.Second)
	r.shot(vis, "36-lobby-now-playing")
	r.clickAt(ana, "#resign")
	r.poll(ana, "the resign dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.clickAt(ana, "#ask-ok")
	r.poll(ana, "the end", `G.st.over && !$("#result").hidden`, 10*time.Second)
	st := r.e.state(id, "")
	if !st.Over || len(st.RatingChanges) != 2 {
		t.Fatalf("after the resignation: over %v, rating changes %+v", st.Over, st.RatingChanges)
	}
	ch := st.RatingChanges
	if ch[0].Before != 1500 || ch[1].Before != 1500 || ch[0].After >= 1500 || ch[1].After <= 1500 {
		t.Fatalf("rating changes %+v: want Ana's down and Boris's up from 1500", ch)
	}
	want := []string{
		fmt.Sprintf("down Ana 1500 → %d (−%d)", ch[0].After, 1500-ch[0].After),
		fmt.Sprintf("up Boris 1500 → %d (+%d)", ch[1].After, ch[1].After-1500),
	}
	const changes = `[...document.querySelectorAll("#rating-changes li")].map((li) => li.className + " " + li.textContent)`
	for name, ctx := range map[string]context.Context{"Ana": ana, "Boris": bo} {
		r.poll(ctx, name+"'s page shows the rating changes", `G.st.over && !$("#result").hidden && document.querySelectorAll("#rating-changes li").length === 2`, 10*time.Second)
		var got []string
		r.eval(ctx, changes, &got)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s's result box lists the rating changes %q, want %q", name, got, want)
		}
	}
	var colours []string
	r.eval(ana, `["up", "down"].map((c) => getComputedStyle(document.querySelector("#rating-changes li." + c)).color)`, &colours)
	if colours[0] == colours[1] {
		t.Errorf("a rating up and one down have the same colour %s", colours[0])
	}
	r.shot(ana, "30-rated-game-over")

	// Boris asks for a rematch, Ana takes it: it is rated, and the seats
	// show the ratings.
	r.clickAt(bo, "#rematch-button")
	r.run(bo, "to the rematch", chromedp.Sleep(time.Second), chromedp.WaitVisible(`#board .sq`))
	r.poll(ana, "Ana is offered the rematch", `!!$("#rematch-button") && $("#result").textContent.includes("wants a rematch")`, 15*time.Second)
	r.clickAt(ana, "#rematch-button")
	r.run(ana, "to the rematch", chromedp.Sleep(time.Second), chromedp.WaitVisible(`#board .sq`))
	r.poll(ana, "the rematch starts", `G.st && G.st.id !== "`+id+`" && G.st.started && G.st.rated`, 10*time.Second)
	r.poll(bo, "Boris sees it start", `G.st.started && G.st.seats.every((s) => s.taken)`, 10*time.Second)
	r.eval(ana, `[...document.querySelectorAll("#scores .seat")].map((s) => s.textContent)`, &seats)
	if strings.Join(seats, "|") != fmt.Sprintf("✓ Boris (%d?)|✓ Ana (%d?) (you)", ch[1].After, ch[0].After) {
		t.Errorf("the rematch's seats on Ana's page: %q", seats)
	}

	// Boris's profile, as anyone sees it.
	r.run(ana, "Boris's profile", chromedp.Navigate(r.e.url+"/p/Boris"), chromedp.WaitVisible(`#profile-body`))
	r.poll(ana, "the profile", `document.querySelectorAll("#profile-games tbody tr").length === 1`, 10*time.Second)
	var prof struct {
		Name, Since string
		Ratings     [][]string
		Games       [][]string
		GameLink    string
		Opponent    string
	}
	r.eval(ana, `(() => {
		const rows = (sel) => [...document.querySelectorAll(sel + " tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent));
		return {Name: $("#profile-name").textContent, Since: $("#profile-since").textContent, Ratings: rows("#profile-ratings"), Games: rows("#profile-games"),
			GameLink: document.querySelector("#profile-games tbody a").getAttribute("href"),
			Opponent: document.querySelector("#profile-games tbody td:nth-child(3) a").getAttribute("href")};
	})()`, &prof)
	var final State
	r.e.do("GET", "/api/games/"+id, "", nil, &final)
	score := fmt.Sprintf("%d–%d", final.Seats[1].Score, final.Seats[0].Score)
	if prof.Name != "Boris" || !strings.HasPrefix(prof.Since, "Member since ") || len(prof.Ratings) != 1 || len(prof.Games) != 1 ||
		prof.Ratings[0][0] != "SOWPODS (international English)" || prof.Ratings[0][1] != "Regular" || !strings.HasPrefix(prof.Ratings[0][2], fmt.Sprintf("%d? ± ", ch[1].After)) ||
		prof.Ratings[0][3] != "1" || prof.Ratings[0][4] != "1–0–0" ||
		prof.Games[0][2] != "Ana" || prof.Games[0][3] != score || prof.Games[0][7] != "Win" ||
		prof.Games[0][8] != fmt.Sprintf("%d (+%d)", ch[1].After, ch[1].After-1500) || prof.GameLink != "/g/"+id || prof.Opponent != "/p/Ana" {
		t.Errorf("Boris's profile: %+v (want the score %s)", prof, score)
	}
	// His bingos and best move in the game, as the server counted them.
	var api Profile
	r.e.do("GET", "/api/players/Boris", "", nil, &api)
	if len(api.Games) != 1 || len(prof.Games) != 1 {
		t.Fatalf("Boris's games: %+v", api.Games)
	}
	for _, st := range api.Games[0].Seats {
		if st.Name != "Boris" {
			continue
		}
		want := []string{"", ""}
		if st.Turns > 0 {
			want = []string{fmt.Sprint(st.Bingos), fmt.Sprint(st.Best)}
		}
		if got := prof.Games[0][4:6]; !slices.Equal(got, want) {
			t.Errorf("Boris's bingos and best move on his page: %q, want %q (turns %d)", got, want, st.Turns)
		}
	}
	if s := r.axe(ana, "a player's profile"); s < 90 {
		t.Errorf("a player's profile scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(ana, "31-profile")
	// In Czech, no English is left on the profile.
	r.run(ana, "switch to Czech", chromedp.SetValue("#lang-select", "cs"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	if left := r.englishLeft(ana); len(left) > 0 {
		t.Errorf("English on the Czech profile: %q", left)
	}
	var csWords string
	r.eval(ana, `$("#signout").textContent + "|" + document.querySelector("#profile-games tbody td:nth-child(8)").textContent`, &csWords)
	if csWords != "Odhlásit se|Výhra" {
		t.Errorf("the Czech profile says %q", csWords)
	}
	r.run(ana, "back to English", chromedp.SetValue("#lang-select", "en"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	// The account keeps the language (the next page opens in it) once
	// the page's save has landed.
	waitFor(t, "English kept with the account", func() bool {
		text, err := r.e.st.Settings(t.Context(), AccountKey("Ana"))
		return err == nil && !strings.Contains(text, `"language":"cs"`)
	})
	r.run(ana, "nobody's profile", chromedp.Navigate(r.e.url+"/p/Nobody"), chromedp.WaitVisible(`#profile-missing`))
	var missing string
	r.eval(ana, `$("#profile-missing").textContent + "|" + $("#profile-body").hidden`, &missing)
	if missing != "No player is called Nobody.|true" {
		t.Errorf("an unknown player's profile says %q", missing)
	}

	// The leaderboard: Boris first.
	r.run(bo, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(bo, "the leaderboard", `document.querySelectorAll("#leaders tbody tr").length === 2`, 10*time.Second)
	var leaders []string
	r.eval(bo, `[...document.querySelectorAll("#leaders tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent).join(" ") + " " + tr.querySelector("a").getAttribute("href"))`, &leaders)
	// After one game each rating is provisional: marked, and explained
	// on hover.
	wantLeaders := fmt.Sprintf("1 Boris %d? 1 /p/Boris|2 Ana %d? 1 /p/Ana", ch[1].After, ch[0].After)
	if strings.Join(leaders, "|") != wantLeaders {
		t.Errorf("the leaderboard: %q, want %q", leaders, wantLeaders)
	}
	var title string
	r.eval(bo, `$("#leaders tbody tr").cells[2].title`, &title)
	if title != "Provisional: too few games yet for the rating to say much." {
		t.Errorf("a provisional rating's title: %q", title)
	}
	var caption string
	r.eval(bo, `$("#leaders-pace").value + " " + $("#leaders-caption").textContent`, &caption)
	if caption != "regular The highest ratings in SOWPODS (international English) (Regular)" {
		t.Errorf("the leaderboard's pace and caption: %q", caption)
	}
	if s := r.axe(bo, "the lobby signed in"); s < 90 {
		t.Errorf("the lobby signed in scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(bo, "32-lobby-leaderboard")
	// A game of 25 minutes a player is regular: nobody has a blitz
	// rating, and the page remembers the pace chosen.
	r.run(bo, "the blitz leaderboard", chromedp.SetValue("#leaders-pace", "blitz"), chromedp.Evaluate(`$("#leaders-pace").dispatchEvent(new Event("change"))`, nil))
	r.poll(bo, "no blitz ratings", `$("#leaders").hidden && $("#leaders-empty").textContent === "No rated games of this pace in this word list yet."`, 10*time.Second)
	r.run(bo, "the lobby again", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(bo, "the blitz leaderboard remembered", `$("#leaders-pace").value === "blitz" && !$("#leaders-empty").hidden`, 10*time.Second)
	r.run(bo, "back to regular", chromedp.SetValue("#leaders-pace", "regular"), chromedp.Evaluate(`$("#leaders-pace").dispatchEvent(new Event("change"))`, nil))
	r.poll(bo, "the regular leaderboard", `document.querySelectorAll("#leaders tbody tr").length === 2`, 10*time.Second)

	// Signing out and in again: a wrong password is refused.
	r.clickAt(bo, "#signout")
	r.poll(bo, "signed out", `!$("#signin-open").hidden && $("#me-link").hidden && !!$("#name").offsetParent && $("#rated").disabled`, 10*time.Second)
	var me map[string]any
	r.run(bo, "ask /api/me", chromedp.Evaluate(`fetch("/api/me").then((r) => r.json())`, &me,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if me["signed_in"] != false {
		t.Errorf("after signing out /api/me says %v", me)
	}
	r.signInDialog(bo, "#signin-open", "boris", "wrong-password", "#signin-go")
	r.signInError(bo, "Wrong name or password.")
	r.signInDialog(bo, "#signin-open", "boris", "borisboris", "#signin-go")
	r.poll(bo, "signed in again", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Boris"`, 10*time.Second)
}

// TestBrowserSeatOnTwoDevices: Ana makes her account on one device and
// starts a game against the computer from the lobby; on a second device
// she signs in to the same account: its lobby lists the game under "My
// games", and the game opens there on her seat, with no click (the page
// asks for a token of that device's own): its rack is the seat's, and a
// move played there shows on the first device, whose token keeps
// working. Once the seat is open on as many devices as the server
// allows, a third device where she signs in stays a spectator and says
// why.
func TestBrowserSeatOnTwoDevices(t *testing.T) {
	r := newRig(t)
	a := r.ctx
	r.run(a, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(a, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	r.signInDialog(a, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(a, "Ana signed in", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Ana"`, 10*time.Second)
	r.run(a, "choose the computer", chromedp.SetValue("#opponent", "computer:professional"),
		chromedp.Evaluate(`$("#opponent").dispatchEvent(new Event("change"))`, nil))
	r.seedNextGame(a, 3)
	r.clickAt(a, "#create")
	r.run(a, "the game", chromedp.WaitVisible(`#rack .tile`))
	id, tokA := r.pageGame(a)
	if st := r.e.state(id, ""); st.Seats[0].Name != "Ana" || !st.Seats[0].Account || st.Seats[1].Kind != "computer" || st.Moves != 0 {
		t.Fatalf("the game made from the lobby: seats %+v, %d moves", st.Seats, st.Moves)
	}

	// The second device: nothing of Ana's until she signs in.
	b := r.newDevice()
	r.run(b, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(b, "the form", `document.querySelectorAll("#opponent option").length > 3 && !$("#signin-open").hidden`, 20*time.Second)
	r.signInDialog(b, "#signin-open", "Ana", "anagrams1", "#signin-go")
	r.poll(b, "Ana signed in on the second device", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Ana"`, 10*time.Second)
	link := fmt.Sprintf(`#my-current li a[href="/g/%s"]`, id)
	r.poll(b, "My games lists the game", `!!document.querySelector('`+link+`')`, 10*time.Second)
	var mine struct {
		Rows, Buttons, Tokens int
		Text                  string
		EmptyShown            bool
	}
	r.eval(b, `({Rows: document.querySelectorAll("#my-current li, #my-finished li").length, Text: $("#my-current li").textContent,
		Buttons: $("#my-current li").querySelectorAll("button").length, EmptyShown: !$("#mine-empty").hidden,
		Tokens: Object.keys(localStorage).filter((k) => k.startsWith("atril:token:")).length})`, &mine)
	if mine.Rows != 1 || mine.Buttons != 0 || mine.Tokens != 0 || mine.EmptyShown ||
		!strings.HasPrefix(mine.Text, "you – Computer (Professional)") || !strings.Contains(mine.Text, "Your turn.") ||
		!strings.Contains(mine.Text, "through your account") {
		t.Errorf("the second device's My games: %+v", mine)
	}
	if s := r.axe(b, "the lobby listing a game of the account"); s < 90 {
		t.Errorf("the lobby listing a game of the account scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(b, "33-lobby-account-game")

	// Opened there, the game is Ana's seat with a token of the device's own.
	r.clickAt(b, link)
	r.run(b, "the game on the second device", chromedp.WaitVisible(`#rack .tile`))
	idB, tokB := r.pageGame(b)
	var kept bool
	r.eval(b, fmt.Sprintf(`localStorage.getItem("atril:token:%s") === G.token`, id), &kept)
	if idB != id || tokB == tokA || !kept {
		t.Fatalf("the second device holds game %s with its own token %v, kept %v", idB, tokB != tokA, kept)
	}
	r.waitTurn(b, 0, 0)
	stA, stB := r.e.state(id, tokA), r.e.state(id, tokB)
	if stA.You == nil || stB.You == nil || stB.You.Seat != 0 || fmt.Sprint(stA.You.Rack) != fmt.Sprint(stB.You.Rack) {
		t.Fatalf("the tokens' seats: the first device's %+v, the second's %+v", stA.You, stB.You)
	}
	var want []string
	for _, tl := range stB.You.Rack {
		if tl.Blank {
			want = append(want, "")
		} else {
			want = append(want, tl.Letter)
		}
	}
	var rack, seats []string
	r.eval(b, `[...document.querySelectorAll("#rack .tile .l")].map((x) => x.textContent)`, &rack)
	r.eval(b, `[...document.querySelectorAll("#scores .seat")].map((s) => s.textContent)`, &seats)
	sort.Strings(want)
	sort.Strings(rack)
	if strings.Join(rack, ",") != strings.Join(want, ",") || strings.Join(seats, "|") != "✓ Ana (you)|Computer (Professional)" {
		t.Errorf("the second device shows the rack %q (the seat's: %q) and the seats %q", rack, want, seats)
	}
	after, placed := r.playMove(b, id, tokB, 0, false, false)
	if !placed {
		t.Fatal("the second device found no word to place")
	}
	var played HistEntry
	for _, h := range after.History {
		if h.Kind == "place" && h.Seat == 0 {
			played = h
			break
		}
	}
	// The first device follows: the move in its list, its tiles on its board.
	r.poll(a, "the first device sees the move", fmt.Sprintf(`G.st.moves >= %d`, after.Moves), 20*time.Second)
	var list string
	r.eval(a, `$("#moves").textContent`, &list)
	if played.Move == "" || !strings.Contains(list, strings.NewReplacer("[", "", "]", "").Replace(played.Move)) {
		t.Errorf("the first device's move list %q lacks %q", list, played.Move)
	}
	for _, tl := range after.Board {
		var shown bool
		r.eval(a, fmt.Sprintf(`!!document.querySelector('#board .sq[data-r="%d"][data-c="%d"] .tile')`, *tl.Row, *tl.Col), &shown)
		if !shown {
			t.Errorf("the first device's board lacks the tile %s on %d,%d", tl.Letter, *tl.Row, *tl.Col)
		}
	}

	// The seat open on as many devices as it may be: a third device
	// signed in to the account watches, and says why.
	c := browser(t)
	if code := r.e.doWith(c, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "anagrams1"}, nil); code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	more := 0
	for ; more < maxSeatKeys+1; more++ {
		if code := r.e.doWith(c, "POST", "/api/games/"+id+"/seat", "", nil, nil); code != 200 {
			if code != 409 {
				t.Fatalf("a further token: %d", code)
			}
			break
		}
	}
	if more != maxSeatKeys-1 {
		t.Errorf("%d further tokens given after the second device's, want %d", more, maxSeatKeys-1)
	}
	third := r.newDevice()
	r.run(third, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(third, "#signin-open", "Ana", "anagrams1", "#signin-go")
	r.poll(third, "Ana signed in on the third device", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Ana"`, 10*time.Second)
	r.run(third, "the game on the third device", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#board .sq`))
	const why = "Your account's seat could not be opened on this device. This seat is open on 17 devices already."
	r.poll(third, "the third device watches", `!!G.st && $("#rack-area").hidden`, 10*time.Second)
	var watch struct {
		Token, Message, Class, Turn string
	}
	r.eval(third, `({Token: G.token, Message: $("#message").textContent, Class: $("#message").className, Turn: $("#turn").textContent})`, &watch)
	if watch.Token != "" || watch.Message != why || watch.Class != "error" || !strings.Contains(watch.Turn, "You are watching this game. "+why) {
		t.Errorf("the third device, refused the seat: %+v", watch)
	}
	if st := r.e.state(id, tokA); st.You == nil || st.You.Seat != 0 {
		t.Error("the first device's token stopped working")
	}
}

// TestBrowserAccountSettings: on her own player's page Ana changes her
// password (a wrong current one refused in the page's words), which
// signs out her second device; signed in there again with the new
// password, she signs out everywhere, and both devices are signed out.
func TestBrowserAccountSettings(t *testing.T) {
	r := newRig(t)
	a := r.ctx
	r.run(a, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(a, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(a, "Ana signed in", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Ana"`, 10*time.Second)
	b := r.newDevice()
	r.run(b, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(b, "#signin-open", "Ana", "anagrams1", "#signin-go")
	r.poll(b, "Ana signed in on the second device", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Ana"`, 10*time.Second)
	// The second device plays a game against the computer.
	r.poll(b, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	r.run(b, "choose the computer", chromedp.SetValue("#opponent", "computer:professional"),
		chromedp.Evaluate(`$("#opponent").dispatchEvent(new Event("change"))`, nil))
	r.clickAt(b, "#create")
	r.run(b, "the game", chromedp.WaitVisible(`#rack .tile`))
	gameID, _ := r.pageGame(b)

	r.run(a, "her page, from the header's link", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(a, "her page with its settings", `!$("#profile").hidden && !$("#profile-account").hidden && $("#password-user").value === "Ana"`, 10*time.Second)
	if s := r.axe(a, "the account's settings"); s < 90 {
		t.Errorf("the account's settings score %.0f in the accessibility checks, want at least 90", s)
	}
	// A few words and a country for her page, shown at once and to
	// others; a country listed by its name in the page's language.
	r.run(a, "write her bio", chromedp.SendKeys("#bio-about", "Club player in Brno."), chromedp.SetValue("#bio-country", "CZ"))
	r.clickAt(a, "#bio-go")
	r.poll(a, "the bio saved", `$("#bio-msg").textContent === "Saved." && !$("#profile-about").hidden`, 10*time.Second)
	var bio string
	r.eval(a, `$("#profile-about").textContent + "|" + $("#profile-country").textContent + "|" + $("#bio-country").selectedOptions[0].textContent`, &bio)
	if bio != "Club player in Brno.|Czechia|Czechia" {
		t.Errorf("her page after saving her bio: %q", bio)
	}
	var seen Profile
	if r.e.do("GET", "/api/players/ana", "", nil, &seen); seen.About != "Club player in Brno." || seen.Country != "CZ" {
		t.Errorf("her bio as others read it: %+v", seen)
	}
	r.shot(a, "53-bio")
	change := func(cur, pw string) string {
		t.Helper()
		r.run(a, "fill the password form", chromedp.Evaluate(`$("#password-current").value = $("#password-new").value = $("#password-msg").textContent = ""`, nil),
			chromedp.SendKeys("#password-current", cur), chromedp.SendKeys("#password-new", pw))
		r.clickAt(a, "#password-go")
		r.poll(a, "the form's answer", `$("#password-msg").textContent !== "" && !$("#password-go").disabled`, 10*time.Second)
		var msg string
		r.eval(a, `$("#password-msg").textContent`, &msg)
		return msg
	}
	if msg := change("not my password", "new password 2"); msg != "The current password is wrong." {
		t.Errorf("a wrong current password: the page says %q", msg)
	}
	r.shot(a, "34-account-settings")
	// This device gets push messages (the browser's subscription stood in
	// for), and so does another: the new password ends the other's, and
	// the page gives this one's again.
	pushed := func(device string) (*webpushtest.Browser, store.PushSubscription) {
		b, err := webpushtest.NewBrowser()
		if err != nil {
			t.Fatal(err)
		}
		j := b.JSON("https://fcm.googleapis.com/fcm/send/" + device)
		keys := j["keys"].(map[string]string)
		return b, store.PushSubscription{Account: AccountKey("Ana"), Endpoint: j["endpoint"].(string), P256dh: keys["p256dh"], Auth: keys["auth"], Created: time.Now()}
	}
	pa, subA := pushed("device-a")
	_, subB := pushed("device-b")
	for _, sub := range []store.PushSubscription{subA, subB} {
		if err := r.e.st.AddPushSubscription(t.Context(), sub); err != nil {
			t.Fatal(err)
		}
	}
	subJSON, _ := json.Marshal(pa.JSON(subA.Endpoint))
	r.run(a, "the browser's push subscription", chromedp.Evaluate(`PushManager.prototype.getSubscription = async () => {
		const j = `+string(subJSON)+`; return { endpoint: j.endpoint, toJSON: () => j, unsubscribe: async () => true }; }; true`, nil))
	if msg := change("anagrams1", "new password 2"); msg != "Password changed. Your other devices are signed out." {
		t.Errorf("the change: the page says %q", msg)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		subs, err := r.e.st.PushSubscriptions(t.Context(), AccountKey("Ana"))
		if err != nil {
			t.Fatal(err)
		}
		if len(subs) == 1 && subs[0].Endpoint == subA.Endpoint {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("push subscriptions after the new password: %+v, want this device's alone", subs)
		}
	}
	var cleared bool
	r.eval(a, `$("#password-current").value === "" && $("#password-new").value === "" && $("#me-link").textContent === "Ana"`, &cleared)
	if !cleared {
		t.Error("after the change the fields keep the passwords or the header lost the account")
	}

	// Another player's page blocks them, asked first; her own page lists
	// them and unblocks.
	r.e.signUp(browser(t), "Bodil", "battery staple")
	r.run(a, "Bodil's page", chromedp.Navigate(r.e.url+"/p/Bodil"))
	r.poll(a, "the block button", `!$("#profile-block").hidden && $("#profile-account").hidden && $("#block-btn").textContent === "Block"`, 10*time.Second)
	r.clickAt(a, "#block-btn")
	r.poll(a, "the question", `!!document.querySelector("#ask-dialog[open]") && $("#ask-text").textContent === "Block Bodil?"`, 5*time.Second)
	r.clickAt(a, "#ask-ok")
	r.poll(a, "Bodil blocked", `$("#block-msg").textContent === "You block Bodil." && $("#block-btn").textContent === "Unblock"`, 10*time.Second)
	// And reports them, saying what happened and in which game.
	r.run(a, "open the report", chromedp.Evaluate(`$("#report-box").open = true`, nil))
	r.clickAt(a, "#report-go")
	r.poll(a, "an empty report refused", `$("#report-msg").textContent === "Say what happened."`, 5*time.Second)
	r.run(a, "write the report", chromedp.SendKeys("#report-text", "Rude in the chat"), chromedp.SendKeys("#report-game", r.e.url+"/g/"+gameID))
	r.clickAt(a, "#report-go")
	r.poll(a, "the report sent", `$("#report-msg").textContent === "Your report was sent to the operators." && $("#report-text").value === ""`, 10*time.Second)
	r.shot(a, "43-block-and-report")
	if rs, err := r.e.st.Reports(context.Background(), AccountKey("Bodil"), false, 5); err != nil || len(rs) != 1 || rs[0].Reason != "Rude in the chat" || rs[0].Game != gameID || rs[0].ByName != "Ana" {
		t.Errorf("the report the page sent: %+v, %v", rs, err)
	}
	r.run(a, "her page", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(a, "the players she blocks", `!$("#profile-account").hidden && $("#profile-block").hidden && $("#blocked-none").hidden && $("#blocked-list li a").textContent === "Bodil"`, 10*time.Second)
	r.clickAt(a, "#blocked-list li button")
	r.poll(a, "Bodil unblocked", `!$("#blocked-none").hidden && !$("#blocked-list li") && $("#profile-msg").textContent === "You no longer block Bodil."`, 10*time.Second)
	if bs, err := r.e.st.Blocks(context.Background(), AccountKey("Ana")); err != nil || len(bs) != 0 {
		t.Errorf("Ana's blocks after the page's unblock: %+v, %v", bs, err)
	}

	// The second device was signed out, and its seat's token taken back:
	// its game's page opens again, watching.
	watched := fmt.Sprintf(`location.pathname === "/g/%s" && typeof G !== "undefined" && !!G.st && !G.token && !localStorage.getItem("atril:token:%s") && $("#rack-area").hidden`, gameID, gameID)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		// The page reloads on the way: an evaluation may meet it gone.
		var ok bool
		if err := chromedp.Run(b, chromedp.Evaluate(watched, &ok)); err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second device's game page did not turn to watching after its token was taken back")
		}
	}
	// The new password signs it in.
	r.run(b, "reload the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(b, "the second device signed out", `!$("#signin-open").hidden && $("#me-link").hidden`, 10*time.Second)
	r.signInDialog(b, "#signin-open", "Ana", "anagrams1", "#signin-go")
	r.signInError(b, "Wrong name or password.")
	r.signInDialog(b, "#signin-open", "Ana", "new password 2", "#signin-go")
	r.poll(b, "signed in with the new password", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Ana"`, 10*time.Second)

	// Sign out everywhere, asked first; this browser's push subscription
	// ends with the others' (or the page would say that it still gets
	// push messages when next signed in).
	r.run(b, "her page", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(b, "the settings", `!$("#profile-account").hidden`, 10*time.Second)
	r.run(b, "the browser's push subscription", chromedp.Evaluate(`PushManager.prototype.getSubscription = async () => {
		const j = `+string(subJSON)+`; return { endpoint: j.endpoint, toJSON: () => j, unsubscribe: async () => { window.unsubscribed = true; return true; } }; }; true`, nil))
	r.clickAt(b, "#signout-all")
	r.poll(b, "the question", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	var q string
	r.eval(b, `$("#ask-text").textContent + " / " + $("#ask-ok").textContent`, &q)
	if q != "Sign out on every device, this one included? / Sign out everywhere" {
		t.Errorf("the question reads %q", q)
	}
	r.clickAt(b, "#ask-ok")
	r.poll(b, "signed out everywhere", `$("#profile-msg").textContent !== ""`, 10*time.Second)
	var after struct {
		Msg                string
		Settings, SignedIn bool
	}
	r.eval(b, `({Msg: $("#profile-msg").textContent, Settings: !$("#profile-account").hidden, SignedIn: $("#signin-open").hidden})`, &after)
	if after.Msg != "Signed out of 2 sessions." || after.Settings || after.SignedIn {
		t.Errorf("after signing out everywhere: %+v", after)
	}
	var unsubscribed bool
	if r.eval(b, `window.unsubscribed === true`, &unsubscribed); !unsubscribed {
		t.Error("signed out everywhere, the browser kept its push subscription")
	}
	r.run(a, "reload the first device", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(a, "the first device signed out, no settings", `!$("#profile").hidden && !$("#profile-body").hidden && !$("#signin-open").hidden && $("#profile-account").hidden`, 10*time.Second)
}

// TestBrowserPuzzle: the lobby's puzzle card links today's puzzle; a
// puzzle's page shows the position with the rack on turn and only what
// a puzzle needs; the answer asked for lists the best plays, one of
// which, shown on the board and played, is right; a lower one is told
// its rank.
func TestBrowserPuzzle(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	today := puzzle.Today(time.Now())
	r.poll(c, "the puzzle card", `$("#puzzle-link").getAttribute("href") === "/puzzle/en-sowpods/today"`, 20*time.Second)
	var link string
	r.eval(c, `$("#puzzle-link").textContent`, &link)
	if link != fmt.Sprintf("Solve puzzle %d", today) {
		t.Errorf("the puzzle card's link reads %q", link)
	}
	// The day's position as a picture, drawn by the server, opening it.
	r.run(c, "to the card", chromedp.ScrollIntoView(`#puzzle-thumb`))
	r.poll(c, "the picture", fmt.Sprintf(`$("#puzzle-thumb").complete && $("#puzzle-thumb").naturalWidth === 1200 && $("#puzzle-thumb").getAttribute("src") === "/api/puzzles/en-sowpods/%d/board.png" && $("#puzzle-thumb-link").getAttribute("href") === "/puzzle/en-sowpods/today" && $("#puzzle-thumb").alt === "The position of puzzle %d"`, today, today), 20*time.Second)

	var sol PuzzleAnswer
	if code := r.e.do("POST", "/api/puzzles/en-sowpods/5/answer", "", map[string]any{"reveal": true}, &sol); code != 200 || len(sol.Best) < 2 {
		t.Fatalf("puzzle 5's solution: %d %+v", code, sol)
	}
	r.run(c, "puzzle 5", chromedp.Navigate(r.e.url+"/puzzle/en-sowpods/5"))
	r.poll(c, "the puzzle's page", `!$("#puzzle").hidden && document.querySelectorAll("#rack .tile").length === 7 && document.querySelectorAll("#board .sq .tile").length > 0`, 20*time.Second)
	var page struct {
		Title, Goal, Prev, Next string
		Hidden                  []bool
		Moves                   int
	}
	r.eval(c, `({Title: $("#puzzle-title").textContent, Goal: $("#puzzle-goal").textContent,
		Prev: $("#puzzle-prev").hidden ? "" : $("#puzzle-prev").getAttribute("href"), Next: $("#puzzle-next").hidden ? "" : $("#puzzle-next").getAttribute("href"),
		Hidden: ["#exchange", "#pass", "#resign", "#abort", "#chat-box", "#turn"].map((s) => !$(s).offsetParent),
		Moves: document.querySelectorAll("#moves li").length})`, &page)
	if !strings.HasPrefix(page.Title, "Puzzle 5 · ") || page.Goal != "Find the highest-scoring play: place your tiles and press Play." ||
		page.Prev != "/puzzle/en-sowpods/4" || page.Next != "/puzzle/en-sowpods/6" || slices.Contains(page.Hidden, false) || page.Moves < 3 {
		t.Errorf("the puzzle's page: %+v", page)
	}
	if s := r.axe(c, "a puzzle"); s < 90 {
		t.Errorf("a puzzle's page scores %.0f in the accessibility checks, want at least 90", s)
	}

	// The answer asked for.
	r.clickAt(c, "#puzzle-reveal")
	r.poll(c, "the solution", `document.querySelectorAll("#puzzle-result tbody tr").length > 1`, 10*time.Second)
	var line string
	var rows int
	r.eval(c, `$("#puzzle-result p").textContent`, &line)
	r.eval(c, `document.querySelectorAll("#puzzle-result tbody tr").length`, &rows)
	if want := fmt.Sprintf("The best play scores %d (%d plays in all).", sol.BestScore, sol.Moves); line != want || rows != len(sol.Best) {
		t.Errorf("the solution says %q with %d rows, want %q with %d", line, rows, want, len(sol.Best))
	}
	// The last play shown, on the board and played: its rank.
	last := sol.Best[len(sol.Best)-1]
	r.clickAt(c, fmt.Sprintf("#puzzle-result tbody tr:nth-child(%d) button", len(sol.Best)))
	r.poll(c, "its preview", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, last.Score), 10*time.Second)
	r.clickAt(c, "#submit")
	r.poll(c, "the answer", `!!$("#puzzle-result p") && !$("#puzzle-result p").textContent.startsWith("The best play")`, 10*time.Second)
	r.eval(c, `$("#puzzle-result p").textContent`, &line)
	if last.Score < sol.BestScore && !strings.Contains(line, fmt.Sprintf("scores %d: play ", last.Score)) ||
		!strings.HasSuffix(line, fmt.Sprintf("The best scores %d.", sol.BestScore)) && last.Score < sol.BestScore {
		t.Errorf("a lower play: the page says %q", line)
	}
	// The best one.
	r.clickAt(c, "#puzzle-result tbody tr:nth-child(1) button")
	r.poll(c, "its preview", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, sol.BestScore), 10*time.Second)
	r.shot(c, "35-puzzle")
	r.clickAt(c, "#submit")
	r.poll(c, "right", `$("#puzzle-result p").className === "ok"`, 10*time.Second)
	r.eval(c, `$("#puzzle-result p").textContent`, &line)
	if !strings.HasPrefix(line, "Right: ") || !strings.HasSuffix(line, fmt.Sprintf(" scores %d, the most of the %d plays.", sol.BestScore, sol.Moves)) {
		t.Errorf("the best play: the page says %q", line)
	}
	var g struct {
		Board, Rack int
		To          string
	}
	r.eval(c, `({Board: document.querySelectorAll("#board .sq .tile").length, Rack: document.querySelectorAll("#rack .tile").length,
		To: $("#puzzle-board").hidden ? "" : $("#puzzle-board").getAttribute("href")})`, &g)
	if g.Rack != 7 {
		t.Errorf("after answering the rack shows %d tiles, want 7", g.Rack)
	}
	if !strings.HasPrefix(g.To, "/analysis?cgp=") {
		t.Errorf("after answering the analysis board's link goes to %q", g.To)
	}
	// Signed in, the first answer counts: the solution asked for first.
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "puzzle 5, signed in", `$("#me-link").textContent === "Ana" && !$("#puzzle").hidden && document.querySelectorAll("#rack .tile").length === 7 && $("#puzzle-record").hidden`, 20*time.Second)
	r.clickAt(c, "#puzzle-reveal")
	r.poll(c, "the question", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.eval(c, `$("#ask-text").textContent`, &line)
	if line != "Show the answer? This puzzle will then count as not solved." {
		t.Errorf("the question before the answer reads %q", line)
	}
	r.clickAt(c, "#ask-ok")
	r.poll(c, "the answer recorded", `!$("#puzzle-record").hidden`, 10*time.Second)
	r.eval(c, `$("#puzzle-record").textContent`, &line)
	if line != "You looked at the answer to this one first." {
		t.Errorf("the record of a look at the solution reads %q", line)
	}
	r.eval(c, `$("#puzzle-result p.hint").textContent`, &line)
	if line != "Players with an account who answered it: 1; solved at the first try: 0." {
		t.Errorf("the puzzle's counts read %q", line)
	}
	// The look at the solution lost against the puzzle: both newcomers.
	lost, won, _ := rating.Game(rating.New(), rating.New(), 0)
	r.eval(c, `$("#puzzle-rating").hidden ? "" : $("#puzzle-rating").textContent`, &line)
	if want := fmt.Sprintf("Your puzzle rating: 1500 → %.0f (−%.0f) · this puzzle is rated %.0f (answers: 1)", lost.R, 1500-math.Round(lost.R), won.R); line != want {
		t.Errorf("the puzzle ratings read %q, want %q", line, want)
	}
	r.run(c, "Ana's page", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(c, "her puzzles", `!$("#profile-body").hidden && $("#profile-puzzles").textContent !== ""`, 10*time.Second)
	r.eval(c, `$("#profile-puzzles").textContent + " / " + $("#profile-puzzle-ratings").textContent`, &line)
	if want := fmt.Sprintf("0 solved of 1 answered (first tries) · 0 days in a row / SOWPODS (international English): puzzle rating %.0f? ± %.0f (0 solved of 1)", lost.R, lost.RD); line != want {
		t.Errorf("her page's puzzles read %q, want %q", line, want)
	}
	// A puzzle at her level, from the lobby: not puzzle 5, which she
	// answered; the others are all unrated, so today's.
	r.run(c, "the lobby", chromedp.Navigate(r.e.url+"/"))
	r.poll(c, "the puzzle card, signed in", `!$("#puzzle-level-row").hidden`, 20*time.Second)
	// The lobby's leaderboard of puzzle ratings.
	var picked bool
	r.eval(c, `(() => { const s = $("#leaders-kind"); s.value = "puzzles"; s.dispatchEvent(new Event("change")); return true; })()`, &picked)
	r.poll(c, "the puzzle leaderboard", `!$("#leaders").hidden && $("#leaders-count").textContent === "Puzzles" && $("#leaders-pace").hidden`, 10*time.Second)
	r.eval(c, `$("#leaders-caption").textContent + ": " + [...document.querySelectorAll("#leaders tbody td")].map((td) => td.textContent).join(" ")`, &line)
	if want := fmt.Sprintf("The highest puzzle ratings in SOWPODS (international English): 1 Ana %.0f? 1", lost.R); line != want {
		t.Errorf("the puzzle leaderboard reads %q, want %q", line, want)
	}
	r.run(c, "a puzzle at her level", chromedp.Click("#puzzle-level-lobby", chromedp.ByQuery), chromedp.WaitVisible("#puzzle-rating", chromedp.ByQuery))
	r.poll(c, "a puzzle at her level", fmt.Sprintf(`location.pathname === "/puzzle/en-sowpods/%d" && !$("#puzzle").hidden && !$("#puzzle-rating").hidden`, today), 20*time.Second)
	r.eval(c, `$("#puzzle-rating").textContent`, &line)
	if want := fmt.Sprintf("Your puzzle rating: %.0f? ± %.0f", lost.R, lost.RD); line != want {
		t.Errorf("an unanswered puzzle's rating line reads %q, want %q", line, want)
	}
	r.shot(c, "51-puzzle-level")

	// A Spanish puzzle speaks Spanish, its answer too.
	r.run(c, "a Spanish puzzle", chromedp.Navigate(r.e.url+"/puzzle/es-fise/5"))
	r.poll(c, "the Spanish puzzle", `!$("#puzzle").hidden && document.querySelectorAll("#rack .tile").length === 7`, 20*time.Second)
	r.clickAt(c, "#puzzle-reveal")
	r.poll(c, "the question, in Spanish", `!!document.querySelector("#ask-dialog[open]") && $("#ask-ok").textContent === "Ver la solución"`, 5*time.Second)
	r.clickAt(c, "#ask-ok")
	r.poll(c, "its solution", `document.querySelectorAll("#puzzle-result tbody tr").length > 0`, 10*time.Second)
	r.eval(c, `$("#puzzle-title").textContent + " / " + $("#puzzle-result p").textContent`, &line)
	if !strings.HasPrefix(line, "Problema 5 · ") || !strings.Contains(line, " / La mejor jugada puntúa ") {
		t.Errorf("the Spanish puzzle says %q", line)
	}
	if left := r.englishLeft(c); len(left) > 0 {
		t.Errorf("English on the Spanish puzzle's page: %q", left)
	}
}

// TestBrowserAnalysisBoard sets up positions on the analysis board: a
// rack typed in, the best moves asked for, one shown and played, taken
// back, a CGP line loaded, a bad one refused, a rack drawn.
func TestBrowserAnalysisBoard(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	var href string
	r.eval(c, `$("#board-link").getAttribute("href")`, &href)
	if href != "/analysis" {
		t.Errorf("the lobby's analysis board link goes to %q", href)
	}
	r.run(c, "the analysis board", chromedp.Navigate(r.e.url+"/analysis"))
	r.poll(c, "an empty board", `!$("#board-tools").hidden && !!G.st && G.st.board.length === 0 && document.querySelectorAll("#rack .tile").length === 0`, 20*time.Second)
	var hidden []bool
	r.eval(c, `["#resign", "#abort", "#chat-box", "#turn", "#share"].map((s) => !$(s).offsetParent)`, &hidden)
	if slices.Contains(hidden, false) {
		t.Errorf("a game's controls show on the analysis board: %v", hidden)
	}
	r.run(c, "a rack", chromedp.SendKeys("#board-rack", "aeinrst"))
	r.clickAt(c, "#board-set")
	r.poll(c, "the rack", `document.querySelectorAll("#rack .tile").length === 7`, 10*time.Second)
	var cgpLine string
	r.eval(c, `G.position.cgp`, &cgpLine)
	if !strings.Contains(cgpLine, " AEINRST/ 0/0 0 lex en-sowpods;") {
		t.Errorf("the position after the rack is set: %q", cgpLine)
	}
	var an AnalyzeResponse
	if code := r.e.do("POST", "/api/analyze", "", AnalyzeRequest{CGP: cgpLine, Top: 10}, &an); code != 200 || len(an.Candidates) == 0 {
		t.Fatalf("the position's analysis: %d %+v", code, an)
	}
	r.clickAt(c, "#board-analyze")
	r.poll(c, "the best moves", `document.querySelectorAll("#board-result tbody tr").length > 0`, 10*time.Second)
	var rows int
	r.eval(c, `document.querySelectorAll("#board-result tbody tr").length`, &rows)
	if rows != len(an.Candidates) {
		t.Errorf("the page lists %d moves, the analysis %d", rows, len(an.Candidates))
	}
	if s := r.axe(c, "the analysis board"); s < 90 {
		t.Errorf("the analysis board scores %.0f in the accessibility checks, want at least 90", s)
	}
	best := an.Candidates[0]
	r.clickAt(c, "#board-result tbody tr:nth-child(1) button")
	r.poll(c, "its preview", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, best.Score), 10*time.Second)
	r.shot(c, "37-analysis-board")
	r.clickAt(c, "#submit")
	r.poll(c, "played", fmt.Sprintf(`G.st.board.length === %d && document.querySelectorAll("#moves li").length === 1`, len(best.Tiles)), 10*time.Second)
	var after struct {
		Rack   int
		Scores []string
		Last   int
	}
	r.eval(c, `({Rack: document.querySelectorAll("#rack .tile").length, Scores: [...document.querySelectorAll("#scores .n")].map((x) => x.textContent),
		Last: document.querySelectorAll("#board .tile.last").length})`, &after)
	if after.Rack != 0 || len(after.Scores) != 2 || after.Scores[0] != "0" || after.Scores[1] != fmt.Sprint(best.Score) || after.Last != len(best.Tiles) {
		t.Errorf("after %s: %+v", best.Move, after)
	}
	var played string
	r.eval(c, `G.position.cgp`, &played)
	r.clickAt(c, "#board-undo")
	r.poll(c, "taken back", `G.st.board.length === 0 && document.querySelectorAll("#rack .tile").length === 7 && document.querySelectorAll("#moves li").length === 0`, 10*time.Second)

	// A line loaded, a bad one refused (the position stays), a rack
	// drawn.
	r.run(c, "open the CGP box", chromedp.Evaluate(`$("#board-cgp-box").open = true; $("#board-cgp").value = `+strconv.Quote(played), nil))
	r.clickAt(c, "#board-load")
	r.poll(c, "loaded", fmt.Sprintf(`G.st.board.length === %d && G.position.cgp === %s`, len(best.Tiles), strconv.Quote(played)), 10*time.Second)
	r.run(c, "a bad line", chromedp.Evaluate(`$("#board-cgp").value = "15/15 X/ 0/0 0"`, nil))
	r.clickAt(c, "#board-load")
	r.poll(c, "refused", `$("#message").textContent.startsWith("That position cannot be set up")`, 10*time.Second)
	var still string
	r.eval(c, `G.position.cgp`, &still)
	if still != played {
		t.Errorf("after a bad line the board holds %q, want %q", still, played)
	}
	r.clickAt(c, "#board-draw")
	r.poll(c, "a rack drawn", `document.querySelectorAll("#rack .tile").length === 7`, 10*time.Second)
	// The board edited: a word put outside the rules, a square cleared,
	// the clearing taken back.
	n := len(best.Tiles)
	r.run(c, "a word to put", chromedp.SendKeys("#board-put", "1A EE"))
	r.clickAt(c, "#board-put-go")
	r.poll(c, "put", fmt.Sprintf(`G.st.board.length === %d && $("#board-put").value === "" && document.querySelectorAll("#moves li").length === 1`, n+2), 10*time.Second)
	var entry string
	r.eval(c, `$("#moves li").textContent`, &entry)
	if entry != "board edited: + 1A EE" {
		t.Errorf("the edit is listed as %q", entry)
	}
	r.run(c, "a square to clear", chromedp.SendKeys("#board-put", "1a"))
	r.clickAt(c, "#board-clear-go")
	r.poll(c, "cleared", fmt.Sprintf(`G.st.board.length === %d && document.querySelectorAll("#moves li").length === 2`, n+1), 10*time.Second)
	r.clickAt(c, "#board-undo")
	r.poll(c, "the clearing taken back", fmt.Sprintf(`G.st.board.length === %d && document.querySelectorAll("#moves li").length === 1`, n+2), 10*time.Second)
	// The address holds the position: a reload shows it again.
	var now string
	r.eval(c, `G.position.cgp`, &now)
	r.run(c, "reload", chromedp.Reload())
	r.poll(c, "the same position", fmt.Sprintf(`!!G.position && G.position.cgp === %s`, strconv.Quote(now)), 20*time.Second)
}

// TestBrowserTournament: a signed-in player announces a tournament from
// the lobby (its games set up by the new game's form), two players
// register on its page, the director starts it, the round's game shows
// where it belongs, and a declined game ends the one-round tournament
// with the standings.
func TestBrowserTournament(t *testing.T) {
	r := newRig(t)
	ana, bo := r.ctx, r.newDevice()
	r.signUpPage(ana, "Tadeo")
	r.signUpPage(bo, "Ulla")
	r.run(ana, "a tournament's form", chromedp.SetValue("#clock", "300"), chromedp.Evaluate(`$("#clock").dispatchEvent(new Event("change"))`, nil),
		chromedp.Evaluate(`$("#tourney-new").open = true`, nil), chromedp.WaitVisible(`#tourney-name`),
		chromedp.SendKeys("#tourney-name", "Club Night"), chromedp.SetValue("#tourney-rounds", "1"))
	r.clickAt(ana, "#tourney-create")
	r.run(ana, "to the tournament", chromedp.Sleep(time.Second), chromedp.WaitVisible(`#t-register`))
	r.poll(ana, "the tournament's page", `location.pathname.startsWith("/t/") && $("#t-name").textContent === "Club Night" && !$("#t-register").hidden`, 10*time.Second)
	var path string
	r.eval(ana, `location.pathname`, &path)
	r.clickAt(ana, "#t-register")
	r.poll(ana, "Tadeo registered", `$("#t-players").textContent === "Tadeo" && $("#t-register").hidden && !$("#t-withdraw").hidden`, 10*time.Second)
	r.run(bo, "Ulla's view", chromedp.Navigate(r.e.url+path), chromedp.WaitVisible(`#t-register`))
	var startShown bool
	r.eval(bo, `!$("#t-start").hidden`, &startShown)
	if startShown {
		t.Error("Ulla, not the director, is offered to start the tournament")
	}
	r.clickAt(bo, "#t-register")
	r.poll(bo, "Ulla registered", `$("#t-players").textContent.includes("Ulla")`, 10*time.Second)
	// The director's page learns of her through the lobby's socket.
	r.poll(ana, "two players", `$("#t-state").textContent === "Registration open · 2 of 16 players" && !$("#t-start").hidden`, 10*time.Second)
	r.shot(ana, "40-tournament")
	if s := r.axe(ana, "a tournament's page"); s < 90 {
		t.Errorf("a tournament's page scores %.0f in the accessibility checks", s)
	}
	r.clickAt(ana, "#t-start")
	r.poll(ana, "round 1", `!$("#t-your").hidden && $("#t-state").textContent === "Being played · round 1 of 1" && $("#t-rounds").textContent.includes("Round 1")`, 10*time.Second)
	// The director may withdraw the other player (not himself: his own
	// Withdraw button does that).
	r.poll(ana, "the director's buttons", `[...document.querySelectorAll("#t-standings button")].map((b) => b.getAttribute("aria-label")).join() === "Withdraw Ulla" && !$("#t-withdraw").hidden`, 10*time.Second)
	var game string
	r.eval(ana, `$("#t-your-game").getAttribute("href")`, &game)
	r.poll(ana, "the game made", `fetch("`+strings.Replace(game, "/g/", "/api/games/", 1)+`").then((r) => r.ok)`, 10*time.Second)
	r.run(ana, "the game's page", chromedp.Navigate(r.e.url+game), chromedp.WaitVisible(`#join-button`))
	r.poll(ana, "the game to join", `$("#join-title").textContent === "Club Night, round 1"`, 10*time.Second)
	r.clickAt(ana, "#join-button")
	r.run(ana, "Tadeo's seat", chromedp.Sleep(time.Second), chromedp.WaitVisible(`#board .sq`))
	r.poll(ana, "the game's tournament", `!$("#tourney-tag").hidden && $("#tourney-link").textContent === "Club Night, round 1" && $("#abort").hidden`, 10*time.Second)

	// Ulla withdraws from the tournament's page: her game of the round
	// goes on.
	r.run(bo, "Ulla's tournament page", chromedp.Navigate(r.e.url+path), chromedp.WaitVisible(`#t-withdraw`))
	r.run(bo, "withdraw", chromedp.Evaluate(`window.confirm = () => true; $("#t-withdraw").click()`, nil))
	r.poll(bo, "Ulla withdrawn", `$("#t-withdraw").hidden && $("#t-state").textContent === "Being played · round 1 of 1 · you withdrew" &&
		$("#t-msg").textContent === "You withdrew: you are in no later round." && !$("#t-your").hidden`, 10*time.Second)

	// Ulla's lobby lists her game; she forfeits it: Tadeo wins it, and
	// with it the tournament.
	r.run(bo, "Ulla's lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(bo, "her game", `$("#my-current").textContent.includes("Club Night, round 1: your game is ready.")`, 10*time.Second)
	r.run(bo, "forfeit", chromedp.Evaluate(`window.confirm = () => true; [...$("#my-current").querySelectorAll("button")].find((b) => b.textContent === "Forfeit").click()`, nil))
	r.poll(bo, "the game gone", `!$("#my-current").textContent.includes("your game is ready")`, 10*time.Second)
	r.run(ana, "the tournament again", chromedp.Navigate(r.e.url+path), chromedp.WaitVisible(`#t-standings`))
	r.poll(ana, "over", `$("#t-state").textContent === "Over" && $("#t-standings tbody tr").textContent.startsWith("1Tadeo10+50") && $("#t-rounds").textContent.includes("won by forfeit: Tadeo") &&
		$("#t-standings").textContent.includes("Ulla (withdrawn)")`, 10*time.Second)
	r.shot(ana, "41-tournament-over")
}

// TestBrowserImport: a game played elsewhere, pasted into the lobby's
// form as GCG, opens for review with the computer's analysis of each
// move, marked as imported; a file that does not replay is refused with
// the reason, where the form is.
func TestBrowserImport(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	id := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{r.e.join(id).Token, r.e.join(id).Token}
	playOut(t, r.e, id, toks, 200)
	if code := r.e.do("POST", "/api/games/"+id+"/notes", toks[0], map[string]any{"entry": 0, "text": "a slow start"}, nil); code != 200 {
		t.Fatalf("note: %d", code)
	}
	text := r.e.gcgOf(id)
	moves := r.e.state(id, "").Moves

	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#import-form`))
	r.run(c, "a file that does not replay", chromedp.Evaluate(`$("#import-text").value = ">Ana: ABC 8H XYZ +3 3\n"`, nil))
	r.clickAt(c, "#import-go")
	r.poll(c, "refused", `$("#import-out").textContent.startsWith("That file cannot be read: ")`, 10*time.Second)
	r.run(c, "paste the game", chromedp.Evaluate(`$("#import-text").value = `+strconv.Quote(text), nil))
	r.clickAt(c, "#import-go")
	r.run(c, "the imported game's page", chromedp.WaitVisible(`#review`))
	r.poll(c, "its review", `location.pathname.startsWith("/g/") && !!G.review && !$("#review").hidden && document.querySelectorAll("#analysis tbody tr").length > 0`, 20*time.Second)
	var got struct {
		Tag, Pos string
		Imported bool
		Rack     int
	}
	r.eval(c, `({Tag: $("#imported-tag").hidden ? "" : $("#imported-tag").textContent, Pos: $("#review-pos").textContent,
		Imported: !!G.st.imported, Rack: document.querySelectorAll("#review-rack .tile").length})`, &got)
	if !got.Imported || !strings.Contains(got.Tag, "Imported") || got.Pos != fmt.Sprintf("Move 1 of %d", moves) || got.Rack != 7 {
		t.Errorf("the imported game's review: %+v (%d moves)", got, moves)
	}
	// The file's note on the first move, and no form to write one.
	var note string
	r.eval(c, `$("#review-notes").textContent + "|" + $("#note-form").hidden + "|" + document.querySelectorAll("#moves .noted").length`, &note)
	if want := "Note in the file: " + r.e.state(id, "").Seats[0].Name + ": a slow start|true|1"; note != want {
		t.Errorf("the imported game's note reads %q, want %q", note, want)
	}
	r.clickAt(c, "#rv-next")
	r.poll(c, "the second move's analysis", `G.review.k === 1 && document.querySelectorAll("#analysis tbody tr").length > 0`, 10*time.Second)
	r.shot(c, "42-imported-review")
	if s := r.axe(c, "an imported game's review"); s < 90 {
		t.Errorf("the imported game's review scores %.0f in the accessibility checks, want at least 90", s)
	}
}

// TestBrowserPlayerGames: Bob, signed in, opens Ana's page, which has 26
// rated games: what they add up to, the rating graph, the games by pages
// (Older games), the games with him alone, and a filter by a player who
// does not exist.
func TestBrowserPlayerGames(t *testing.T) {
	r := newRig(t)
	r.e.signUp(browser(t), "Ana", "correct horse")
	r.e.signUp(browser(t), "Cyd", "staple battery")
	b := r.ctx
	r.run(b, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(b, "#signin-open", "Bob", "anagrams1", "#signup-go")
	r.poll(b, "Bob signed in", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Bob"`, 10*time.Second)
	recordAnasGames(t, r.e.st, time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	// And a casual game in Spanish, won against the computer.
	if _, err := r.e.st.RecordGame(context.Background(), &store.RatedGame{Game: "00000000000000c1", Category: "es-fise/" + PaceRegular, Finished: time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC),
		Seats: []store.RatedSeat{{Seat: 0, Name: "Computer (adept)", Level: "adept", Score: 250}, {Seat: 1, Account: AccountKey("Ana"), Name: "Ana", Score: 330, Result: 1}}}); err != nil {
		t.Fatal(err)
	}

	r.run(b, "Ana's page", chromedp.Navigate(r.e.url+"/p/Ana"), chromedp.WaitVisible(`#profile-body`))
	r.poll(b, "her games", `document.querySelectorAll("#profile-games tbody tr").length === 20 && !$("#rating-graph").hidden`, 10*time.Second)
	var page struct {
		Lexicon, Pace, Stats, High, Best, Caption, H2H string
		Points                                         int
		More                                           bool
	}
	read := `(() => ({Lexicon: $("#games-lexicon").value, Pace: $("#games-pace").value, Stats: $("#profile-stats").textContent,
		High: ($("#profile-stats a") || {getAttribute: () => ""}).getAttribute("href"), Caption: $("#rating-caption").textContent,
		Best: ($("#profile-stats a:nth-of-type(2)") || {getAttribute: () => ""}).getAttribute("href"),
		H2H: $("#games-h2h").hidden ? "" : $("#games-h2h").textContent, Points: document.querySelectorAll("#rating-svg circle").length,
		More: !$("#games-more").hidden}))()`
	r.eval(b, read, &page)
	if page.Lexicon != "en-sowpods" || page.Stats != "Games: 26 · won 16, lost 9, drawn 1 (63%). Average score 407.7, opponents 376.9. Highest score: 424. "+
		"35.2 points a turn, 0.40 bingos a game (over the 5 games whose moves were counted). Best move: 100. "+
		"By the computer's static valuation, 54.2% of 48 moves were its top choice, and 2.5 points of equity were given up a move." ||
		page.High != "/g/0000000000000019" || page.Best != "/g/0000000000000017" || page.Points != 26 || !page.More || page.H2H != "Games with you" ||
		page.Caption != "Rating in SOWPODS (international English) · Rapid after each of the latest 26 games: from 1490 to 1570." || page.Pace != "rapid" {
		t.Errorf("Ana's page: %+v", page)
	}
	// The equity she gave up a move, game by game, in her four
	// analysed games.
	var accGraph string
	r.eval(b, `$("#accuracy-graph").hidden + "|" + document.querySelectorAll("#accuracy-svg circle").length + "|" + $("#accuracy-caption").textContent`, &accGraph)
	if accGraph != "false|4|Equity given up a move in each of the latest 4 games analysed: 2.5 in the first, 2.5 in the last." {
		t.Errorf("Ana's accuracy graph: %q", accGraph)
	}
	// Each game shows her bingos and best move where the server counted
	// her moves, and nothing where it did not.
	var cells [][]string
	r.eval(b, `[...document.querySelectorAll("#profile-games tbody tr")].map((tr) => [tr.querySelector("a").getAttribute("href"), tr.cells[4].textContent, tr.cells[5].textContent, tr.cells[6].textContent])`, &cells)
	var pg PlayerGames
	r.e.do("GET", "/api/players/Ana/games?lexicon=en-sowpods", "", nil, &pg)
	want := map[string][]string{}
	counted, analysed := 0, 0
	for _, g := range pg.Games {
		for _, st := range g.Seats {
			if st.Name == "Ana" {
				want["/g/"+g.ID] = []string{"", "", ""}
				if st.Turns > 0 {
					want["/g/"+g.ID] = []string{fmt.Sprint(st.Bingos), fmt.Sprint(st.Best), ""}
					counted++
				}
				if st.Analysed > 0 {
					want["/g/"+g.ID][2] = fmt.Sprintf("%d/%d", st.TopMoves, st.Analysed)
					analysed++
				}
			}
		}
	}
	if len(cells) != 20 || counted == 0 || counted == len(cells) || analysed != 4 {
		t.Errorf("%d rows, %d of them counted, %d analysed: want 20, some counted and some not, 4 analysed", len(cells), counted, analysed)
	}
	for _, c := range cells {
		if w, ok := want[c[0]]; !ok || !slices.Equal(c[1:], w) {
			t.Errorf("game %s: bingos, best move and top moves %q, want %q", c[0], c[1:], w)
		}
	}
	if s := r.axe(b, "a player's games"); s < 90 {
		t.Errorf("a player's games score %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(b, "44-player-games")
	r.clickAt(b, "#games-more")
	r.poll(b, "the older games", `document.querySelectorAll("#profile-games tbody tr").length === 26 && $("#games-more").hidden`, 10*time.Second)
	var last string
	r.eval(b, `document.querySelector("#profile-games tbody tr:last-child a").getAttribute("href")`, &last)
	if last != "/g/0000000000000001" {
		t.Errorf("the oldest game listed links to %q", last)
	}

	// Every pace: the same games, and no graph (ratings of different
	// paces are apart); blitz: none.
	r.run(b, "every pace", chromedp.SetValue("#games-pace", ""), chromedp.Evaluate(`$("#games-pace").dispatchEvent(new Event("change"))`, nil))
	r.poll(b, "Ana's games of every pace", `$("#profile-stats").textContent.startsWith("Games: 26 ") && $("#rating-graph").hidden`, 10*time.Second)
	r.run(b, "blitz", chromedp.SetValue("#games-pace", "blitz"), chromedp.Evaluate(`$("#games-pace").dispatchEvent(new Event("change"))`, nil))
	r.poll(b, "no blitz games", `$("#profile-stats").textContent === "No game matches." && $("#profile-games").hidden`, 10*time.Second)
	r.run(b, "rapid", chromedp.SetValue("#games-pace", "rapid"), chromedp.Evaluate(`$("#games-pace").dispatchEvent(new Event("change"))`, nil))
	r.poll(b, "the rapid games", `!$("#rating-graph").hidden`, 10*time.Second)

	// The games with Bob: no graph (a rating moves with every game).
	r.clickAt(b, "#games-h2h")
	r.poll(b, "the games with Bob", `$("#profile-stats").textContent.startsWith("Games: 25 ") && $("#rating-graph").hidden &&
		document.querySelectorAll("#profile-games tbody tr").length === 20`, 10*time.Second)
	var opp string
	r.eval(b, `$("#games-opponent").value + "|" + [...document.querySelectorAll("#profile-games tbody td:nth-child(3)")].every((td) => td.textContent === "Bob")`, &opp)
	if opp != "Bob|true" {
		t.Errorf("the games with Bob: opponent %q", opp)
	}
	r.run(b, "a player who does not exist", chromedp.Evaluate(`$("#games-opponent").value = "Nobody"`, nil))
	r.clickAt(b, `#games-filter button[type="submit"]`)
	r.poll(b, "the refusal", `$("#profile-stats").className === "error"`, 10*time.Second)
	var refusal string
	r.eval(b, `$("#profile-stats").textContent + "|" + document.querySelectorAll("#profile-games tbody tr").length`, &refusal)
	if !strings.Contains(refusal, `no player is named "Nobody"`) || !strings.HasSuffix(refusal, "|0") {
		t.Errorf("a filter by nobody: %q", refusal)
	}
	// The casual games, of every word list: the one against the computer.
	r.run(b, "the casual games", chromedp.Evaluate(`$("#games-opponent").value = ""; $("#games-lexicon").value = ""`, nil),
		chromedp.SetValue("#games-kind", "casual"), chromedp.Evaluate(`$("#games-kind").dispatchEvent(new Event("change"))`, nil))
	r.poll(b, "the casual game", `$("#profile-stats").textContent.startsWith("Games: 1 ") && document.querySelectorAll("#profile-games tbody tr").length === 1`, 10*time.Second)
	var casual string
	r.eval(b, `[...document.querySelectorAll("#profile-games tbody td")].map((td) => td.textContent).slice(1).join("|") +
		"|" + document.querySelectorAll("#profile-games tbody td:nth-child(3) a").length`, &casual)
	if casual != "FISE (Spanish) · Regular|Computer (Adept)|330–250||||Win|Casual|0" {
		t.Errorf("the casual game: %q", casual)
	}
	// In Spanish, all kinds, with all word lists: the same figures in
	// Spanish, and the casual game.
	r.run(b, "all word lists, in Spanish", chromedp.SetValue("#lang-select", "es"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil),
		chromedp.SetValue("#games-kind", ""), chromedp.Evaluate(`$("#games-kind").dispatchEvent(new Event("change"))`, nil))
	r.poll(b, "all Ana's games", `$("#profile-stats").textContent.startsWith("Partidas: 27 ") && $("#rating-graph").hidden`, 10*time.Second)
	if left := r.englishLeft(b); len(left) > 0 {
		t.Errorf("English on the Spanish page: %q", left)
	}
	r.run(b, "back to English", chromedp.SetValue("#lang-select", "en"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
}

// TestBrowserRatingRange: Ana offers a rated game for players rated
// 1600 or more; Bob, a newcomer (1500), sees the range in the lobby and
// on the game's page, and is refused the seat in words of the page.
func TestBrowserRatingRange(t *testing.T) {
	r := newRig(t)
	ana := r.ctx
	r.run(ana, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(ana, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(ana, "Ana signed in", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Ana"`, 10*time.Second)
	r.poll(ana, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	r.run(ana, "a game open to anyone", chromedp.SetValue("#opponent", "anyone"), chromedp.Evaluate(`$("#opponent").dispatchEvent(new Event("change"))`, nil))
	var hidden bool
	r.eval(ana, `$("#range-box").hidden`, &hidden)
	if !hidden {
		t.Error("the rating range is asked for before Rated is ticked")
	}
	r.clickAt(ana, "#rated")
	r.poll(ana, "the rating range", `!$("#range-box").hidden`, 5*time.Second)
	r.run(ana, "1600 or more", chromedp.SendKeys("#range-min", "1600"))
	r.clickAt(ana, "#create")
	r.run(ana, "wait for the game", chromedp.WaitVisible(`#share`))
	id, _ := r.pageGame(ana)
	if st := r.e.state(id, ""); !st.Rated || st.Seats[1].RatingMin != 1600 || st.Seats[1].RatingMax != 0 {
		t.Fatalf("the game made: %+v", st.Seats)
	}

	bo := r.newDevice()
	r.run(bo, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(bo, "#signin-open", "Bob", "battery1", "#signup-go")
	r.poll(bo, "Bob signed in", `!document.querySelector("#signin-dialog[open]") && $("#me-link").textContent === "Bob"`, 10*time.Second)
	r.poll(bo, "the open game", fmt.Sprintf(`!!document.querySelector('#open-games a[href="/g/%s"]')`, id), 20*time.Second)
	var open string
	r.eval(bo, `$("#open-games li").textContent`, &open)
	if !strings.Contains(open, " · for 1600 or more") {
		t.Errorf("the open game reads %q", open)
	}
	r.run(bo, "the game's page", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#join-button`))
	var what string
	r.eval(bo, `$("#join-what").textContent`, &what)
	if !strings.Contains(what, "The seat is kept for players rated 1600 or more.") {
		t.Errorf("the join page says %q", what)
	}
	r.clickAt(bo, "#join-button")
	r.poll(bo, "the refusal", `!!$("#join-msg").offsetParent && $("#join-msg").textContent.includes("1600")`, 10*time.Second)
	var refusal string
	r.eval(bo, `$("#join-msg").textContent`, &refusal)
	if !strings.Contains(refusal, "This seat is for players rated 1600 or more in this word list and pace; yours is 1500.") {
		t.Errorf("Bob is refused with %q", refusal)
	}
	r.shot(bo, "45-rating-range")
}

// TestBrowserQuick: quick pairing from the lobby. Ann, not signed in,
// picks a clock and waits in the game it makes; Bo's lobby shows her
// waiting on that clock's button, and his click seats him in her game,
// which starts on both pages. Correspondence is for accounts only.
func TestBrowserQuick(t *testing.T) {
	r := newRig(t)
	ann := r.ctx
	r.run(ann, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#quick-grid button`))
	var grid []string
	r.eval(ann, `[...document.querySelectorAll("#quick-grid button")].map((b) => b.dataset.clock + "=" + b.textContent + (b.disabled ? " (off)" : ""))`, &grid)
	want := "180+2=3 min + 2 sBlitz|300=5 minBlitz|600=10 minRapid|600+5=10 min + 5 sRapid|900=15 minRapid|1500=25 minRegular|d1=1 day a moveCorrespondence (off)|d3=3 days a moveCorrespondence (off)"
	if strings.Join(grid, "|") != want {
		t.Errorf("the quick pairing buttons:\n%s\nwant\n%s", strings.Join(grid, "|"), want)
	}
	var rated bool
	r.eval(ann, `$("#quick-rated").disabled`, &rated)
	if !rated {
		t.Error("Rated is offered to a person not signed in")
	}
	r.run(ann, "her name", chromedp.SetValue("#name", "Ann"))
	r.clickAt(ann, `#quick-grid button[data-clock="600"]`)
	r.run(ann, "her game waits", chromedp.WaitVisible(`#share`))
	id, _ := r.pageGame(ann)
	if st := r.e.state(id, ""); st.Seats[0].Name != "Ann" || st.Seats[1].Taken || st.Clock == nil {
		t.Fatalf("the game made: %+v", st.Seats)
	}

	bo := r.newDevice()
	r.run(bo, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#quick-grid button`))
	r.poll(bo, "Ann waiting on 10 min", `$('#quick-grid button[data-clock="600"] .quick-waiting')?.textContent === "waiting: 1"`, 20*time.Second)
	var others int
	r.eval(bo, `document.querySelectorAll("#quick-grid .quick-waiting").length`, &others)
	if others != 1 {
		t.Errorf("%d clocks show players waiting, want 1", others)
	}
	if s := r.axe(bo, "the lobby with a player waiting"); s < 90 {
		t.Errorf("the lobby scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.run(bo, "scroll to quick pairing", chromedp.ScrollIntoView(`#quick-card`))
	r.shot(bo, "54-quick")
	r.run(bo, "his name", chromedp.SetValue("#name", "Bo"))
	r.clickAt(bo, `#quick-grid button[data-clock="600"]`)
	r.run(bo, "the game", chromedp.WaitVisible(`#rack .tile`))
	got, _ := r.pageGame(bo)
	if got != id {
		t.Fatalf("Bo is in game %s, want Ann's %s", got, id)
	}
	r.run(ann, "the game starts on Ann's page", chromedp.WaitVisible(`#rack .tile`))
	if st := r.e.state(id, ""); st.Seats[1].Name != "Bo" || !st.Seats[1].Taken {
		t.Errorf("the seats: %+v", st.Seats)
	}
}

// TestBrowserFindPlayer: the lobby's search for players. Letters typed
// list the players whose names start with them, online ones marked; a
// name opens the player's page, which says they are online.
func TestBrowserFindPlayer(t *testing.T) {
	r := newRig(t)
	for _, n := range []string{"Ana", "Anabel", "Bob"} {
		c := browser(t)
		r.e.signUp(c, n, "correct horse")
		if n == "Ana" {
			r.e.doWith(c, "GET", "/api/lobby", "", nil, nil)
			// She offers a game in the lobby, which her page lists.
			var cr CreateResponse
			r.e.doWith(c, "POST", "/api/games", "", map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr)
			var j JoinResponse
			r.e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &j)
			if code := r.e.do("POST", "/api/games/"+cr.ID+"/list", j.Token, nil, nil); code != 200 {
				t.Fatalf("list: %d", code)
			}
		}
	}
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#find-name`))
	r.run(c, "type", chromedp.SendKeys("#find-name", "an"))
	r.poll(c, "the players found", `document.querySelectorAll("#find-out li").length === 2`, 10*time.Second)
	var found []string
	r.eval(c, `[...document.querySelectorAll("#find-out li")].map((li) => li.textContent)`, &found)
	if strings.Join(found, "|") != "Ana online now|Anabel" {
		t.Errorf("found %q", found)
	}
	r.run(c, "scroll to the search", chromedp.ScrollIntoView(`#players-card`))
	r.shot(c, "55-find-player")
	r.run(c, "more letters", chromedp.SendKeys("#find-name", "x"))
	r.poll(c, "none found", `$("#find-msg").textContent === "No player's name starts with “anx”."`, 10*time.Second)
	r.run(c, "fewer", chromedp.SetValue("#find-name", "an"), chromedp.Evaluate(`$("#find-name").dispatchEvent(new Event("input"))`, nil))
	r.poll(c, "found again", `document.querySelectorAll("#find-out li a").length === 2`, 10*time.Second)
	r.clickAt(c, `#find-out li a`)
	r.run(c, "Ana's page loads", chromedp.WaitVisible(`#profile-body`))
	r.poll(c, "Ana's page", `$("#profile-name").textContent === "Ana" && !$("#profile-seen").hidden`, 10*time.Second)
	var seen string
	r.eval(c, `$("#profile-seen").textContent`, &seen)
	if seen != "Online now" {
		t.Errorf("Ana's page says %q", seen)
	}
	var live []string
	r.eval(c, `$("#profile-live").hidden ? [] : [...document.querySelectorAll("#profile-live-games li")].map((li) => li.textContent)`, &live)
	if len(live) != 1 || !strings.HasPrefix(live[0], "Ana waits for a player · English · SOWPODS (international English)") || !strings.HasSuffix(live[0], "Join") {
		t.Errorf("Ana's page lists %q in the lobby now", live)
	}
	r.shot(c, "57-profile-live")
	// Signed in, a player's page invites them to a game from the lobby's
	// form; signed out, it does not.
	var hidden bool
	r.eval(c, `$("#profile-invite").hidden`, &hidden)
	if !hidden {
		t.Error("a visitor is offered to invite Ana")
	}
	r.signInDialog(c, "#signin-open", "Cleo", "correct horse", "#signup-go")
	r.poll(c, "Cleo signed in, the invitation", `$("#me-link").textContent === "Cleo" && !$("#profile-invite").hidden`, 10*time.Second)
	r.clickAt(c, "#profile-invite")
	r.run(c, "the lobby", chromedp.WaitVisible(`#invite-name`))
	r.poll(c, "the form invites Ana", `$("#opponent").value === "invite" && $("#invite-name").value === "Ana"`, 10*time.Second)
}

// TestBrowserWordFinder: the word finder, opened from the lobby: a
// rack's anagrams with their hooks, a pattern, a blank's letter marked,
// the question kept in the address (Back asks the one before), a bad
// pattern refused in the page's words, and the page in Czech.
func TestBrowserWordFinder(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#finder-link`))
	r.clickAt(c, "#finder-link")
	r.run(c, "the word finder", chromedp.WaitVisible(`#finder-form`))
	r.run(c, "anagrams", chromedp.SetValue("#finder-letters", "tca"), chromedp.Evaluate(`$("#finder-all").checked = true`, nil))
	r.clickAt(c, "#finder-go")
	r.poll(c, "the anagrams", `[...document.querySelectorAll("#finder-out strong")].map((s) => s.textContent).join() === "ACT,CAT"`, 10*time.Second)
	var got struct {
		Search, Msg, Heading, CatFront, CatBack string
	}
	read := `(() => { const cat = [...document.querySelectorAll("#finder-out li")].find((li) => li.querySelector("strong").textContent === "CAT");
		return {Search: location.search, Msg: $("#finder-msg").textContent, Heading: $("#finder-out h2").textContent,
			CatFront: cat ? cat.querySelector(".front").textContent : "", CatBack: cat ? cat.querySelector(".back").textContent : ""}; })()`
	r.eval(c, read, &got)
	if got.Search != "?lexicon=en-sowpods&letters=tca&all=1" || got.Msg != "2 words." || got.Heading != "3 letters (2)" ||
		!strings.Contains(got.CatFront, "s") || !strings.Contains(got.CatBack, "s") {
		t.Errorf("the anagrams of TCA: %+v", got)
	}
	r.shot(c, "46-word-finder")
	if s := r.axe(c, "the word finder"); s < 90 {
		t.Errorf("the word finder scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.run(c, "a pattern", chromedp.Evaluate(`$("#finder-letters").value = ""; $("#finder-pattern").value = "q?"`, nil))
	r.clickAt(c, "#finder-go")
	r.poll(c, "the pattern's words", `location.search === "?lexicon=en-sowpods&pattern=q%3F" && [...document.querySelectorAll("#finder-out strong")].some((s) => s.textContent === "QI") &&
		[...document.querySelectorAll("#finder-out strong")].every((s) => /^Q.$/.test(s.textContent))`, 10*time.Second)
	r.run(c, "back", chromedp.Evaluate(`history.back()`, nil))
	r.poll(c, "the anagrams again", `$("#finder-letters").value === "tca" && [...document.querySelectorAll("#finder-out strong")].map((s) => s.textContent).join() === "ACT,CAT"`, 10*time.Second)
	r.run(c, "a blank", chromedp.Evaluate(`$("#finder-letters").value = "ca?"; $("#finder-pattern").value = ""`, nil))
	r.clickAt(c, "#finder-go")
	r.poll(c, "a blank's letter marked", `[...document.querySelectorAll("#finder-out strong")].some((s) => s.textContent === "CAT" && s.querySelector(".bl") && s.querySelector(".bl").textContent === "T")`, 10*time.Second)
	r.run(c, "a bad pattern", chromedp.SetValue("#finder-pattern", "c[a"))
	r.clickAt(c, "#finder-go")
	r.poll(c, "refused", `$("#finder-msg").className === "error" && $("#finder-msg").textContent.includes("unclosed [") && $("#finder-out").textContent === ""`, 10*time.Second)
	r.run(c, "in Czech", chromedp.Navigate(r.e.url+"/words?lexicon=en-sowpods&letters=tca&all=1"), chromedp.WaitVisible(`#finder-form`),
		chromedp.SetValue("#lang-select", "cs"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "the Czech page", `$("#finder-msg").textContent === "Slov: 2." && $("#finder-go").textContent === "Hledat"`, 10*time.Second)
	if left := r.englishLeft(c); len(left) > 0 {
		t.Errorf("English on the Czech word finder: %q", left)
	}
}

// TestBrowserWordStudy runs an anagram drill from the lobby: a wrong
// answer, every word of the first alphagram typed, the words of the
// second shown, the third left, the summary, the drill again on the
// ones missed, and the page in Czech.
func TestBrowserWordStudy(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#study-link`))
	r.clickAt(c, "#study-link")
	r.run(c, "word study", chromedp.WaitVisible(`#study-form`),
		chromedp.Evaluate(`$("#study-length").value = "3"; $("#study-from").value = "1"; $("#study-to").value = "3"`, nil))
	r.clickAt(c, "#study-go")
	r.poll(c, "the first alphagram", `!$("#study-quiz").hidden && $("#study-tiles").children.length === 3`, 10*time.Second)
	var ans StudyAnswer
	if code := r.e.do("GET", "/api/study?lexicon=en-sowpods&length=3&from=1&to=3", "", nil, &ans); code != 200 || len(ans.Alphagrams) != 3 {
		t.Fatalf("the server's alphagrams: %d, %d", code, len(ans.Alphagrams))
	}
	first := ans.Alphagrams[0]
	var got struct{ Search, Progress, Letters, Need string }
	r.eval(c, `({Search: location.search, Progress: $("#study-progress").textContent,
		Letters: [...$("#study-tiles").querySelectorAll(".l")].map((x) => x.textContent).join(""), Need: $("#study-need").textContent})`, &got)
	wantProgress := fmt.Sprintf("Alphagram 1 of 3 · rank 1 · 1 rack in %s", humanInt(math.Round(1/first.Probability)))
	if got.Search != "?lexicon=en-sowpods&length=3&from=1&to=3" || got.Progress != wantProgress ||
		got.Letters != strings.Join(first.Letters, "") || got.Need != fmt.Sprintf("Words found: 0 of %d", len(first.Words)) {
		t.Errorf("the first alphagram: %+v, want %q, letters %v", got, wantProgress, first.Letters)
	}
	answer := func(word string) {
		t.Helper()
		r.run(c, "type "+word, chromedp.SendKeys("#study-answer", word+"\r"))
	}
	answer("qzx")
	r.poll(c, "a wrong answer", `$("#study-say").className === "error" && $("#study-say").textContent.startsWith("QZX is not an anagram")`, 5*time.Second)
	for i, w := range first.Words {
		answer(strings.ToLower(w.Word))
		r.poll(c, "found "+w.Word, fmt.Sprintf(`$("#study-need").textContent === "Words found: %d of %d"`, i+1, len(first.Words)), 5*time.Second)
	}
	r.poll(c, "all found", `$("#study-say").textContent.endsWith("that is all of them.") && document.activeElement === $("#study-next") && $("#study-answer").disabled`, 5*time.Second)
	var hooks []string
	r.eval(c, `[...$("#study-found").querySelectorAll("li")].map((li) => li.querySelector(".front").textContent + "|" + li.querySelector("strong").textContent + "|" + li.querySelector(".back").textContent)`, &hooks)
	if len(hooks) != len(first.Words) {
		t.Errorf("found list %q, want %d words", hooks, len(first.Words))
	}
	r.shot(c, "47-word-study")
	if s := r.axe(c, "word study"); s < 90 {
		t.Errorf("word study scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.key(c, kb.Enter)
	r.poll(c, "the second alphagram", `$("#study-progress").textContent.startsWith("Alphagram 2 of 3")`, 5*time.Second)
	r.clickAt(c, "#study-reveal")
	r.poll(c, "its words shown", fmt.Sprintf(`$("#study-found").querySelectorAll("li.missed").length === %d`, len(ans.Alphagrams[1].Words)), 5*time.Second)
	r.clickAt(c, "#study-next")
	r.poll(c, "the third alphagram", `$("#study-progress").textContent.startsWith("Alphagram 3 of 3") && $("#study-next").textContent === "Finish"`, 5*time.Second)
	r.clickAt(c, "#study-next")
	total := 0
	for _, a := range ans.Alphagrams {
		total += len(a.Words)
	}
	r.poll(c, "the summary", fmt.Sprintf(`!$("#study-summary").hidden && $("#study-quiz").hidden && $("#study-score").textContent === "Alphagrams solved: 1 of 3; words found: %d of %d." &&
		$("#study-missed h3").textContent === "To go over again (2)" && $("#study-missed").querySelectorAll("ul").length === 2`, len(first.Words), total), 5*time.Second)
	r.clickAt(c, "#study-again")
	r.poll(c, "again on the missed", fmt.Sprintf(`$("#study-progress").textContent.startsWith("Alphagram 1 of 2 · rank 2 ") &&
		[...$("#study-tiles").querySelectorAll(".l")].map((x) => x.textContent).join("") === %q`, strings.Join(ans.Alphagrams[1].Letters, "")), 5*time.Second)
	r.run(c, "a range too wide", chromedp.Evaluate(`$("#study-to").value = "400"`, nil))
	r.clickAt(c, "#study-go")
	r.poll(c, "refused", `$("#study-msg").className === "error" && $("#study-msg").textContent.includes("at most 200")`, 5*time.Second)
	// The cardbox: the first alphagram solved (second box, due in two
	// days), the other two missed (first box, due tomorrow).
	var boxes map[string][2]float64
	r.eval(c, `JSON.parse(localStorage.getItem("atril:cardbox:en-sowpods"))`, &boxes)
	var now float64
	r.eval(c, `Date.now()`, &now)
	const day = 24 * 3600 * 1000
	for i, a := range ans.Alphagrams {
		box, days := 0.0, 1.0
		if i == 0 {
			box, days = 1, 2
		}
		if b, ok := boxes[a.Spell]; !ok || b[0] != box || math.Abs(b[1]-now-days*day) > 60_000 {
			t.Errorf("cardbox of %s: %v (now %.0f), want box %.0f due in %.0f days", a.Spell, boxes[a.Spell], now, box, days)
		}
	}
	if len(boxes) != 3 {
		t.Errorf("cardbox %v, want 3 alphagrams", boxes)
	}
	// Three days on, all three are due, the longest due first: the
	// missed ones (due tomorrow), then the one solved.
	r.run(c, "three days on", chromedp.Evaluate(`(() => { const cb = JSON.parse(localStorage.getItem("atril:cardbox:en-sowpods"));
		for (const k in cb) { cb[k][1] -= 3 * 24 * 3600 * 1000; cb[k][2] -= 3 * 24 * 3600 * 1000; }
		localStorage.setItem("atril:cardbox:en-sowpods", JSON.stringify(cb)); })()`, nil),
		chromedp.Navigate(r.e.url+"/study"), chromedp.WaitVisible(`#study-form`))
	r.poll(c, "three due", `$("#cardbox-line").textContent === "Alphagrams in the cardbox: 3; due for review: 3." && $("#cardbox-go").textContent === "Review the due ones (3)"`, 5*time.Second)
	r.clickAt(c, "#cardbox-go")
	r.poll(c, "the review", fmt.Sprintf(`location.search === "?lexicon=en-sowpods&review=1" && $("#study-progress").textContent.startsWith("Alphagram 1 of 3 · rank 2 ") &&
		[...$("#study-tiles").querySelectorAll(".l")].map((x) => x.textContent).join("") === %q`, strings.Join(ans.Alphagrams[1].Letters, "")), 5*time.Second)
	for _, w := range ans.Alphagrams[1].Words {
		answer(w.Word)
	}
	r.poll(c, "solved on review", `$("#study-answer").disabled`, 5*time.Second)
	r.clickAt(c, "#study-next")
	r.poll(c, "filed up a box", fmt.Sprintf(`JSON.parse(localStorage.getItem("atril:cardbox:en-sowpods"))[%q][0] === 1 && $("#cardbox-line").textContent === "Alphagrams in the cardbox: 3; due for review: 2."`, ans.Alphagrams[1].Spell), 5*time.Second)
	// Signed up, the browser's cardbox moves into the account's, which
	// another device signed in as the account finds.
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "moved into the account", `localStorage.getItem("atril:cardbox:en-sowpods") === null &&
		Object.keys(JSON.parse(localStorage.getItem("atril:cardbox:@Ana:en-sowpods") || "{}")).length === 3`, 10*time.Second)
	cards, err := r.e.st.Cards(context.Background(), AccountKey("Ana"), "en-sowpods")
	if err != nil || len(cards) != 3 {
		t.Fatalf("the account's cardbox: %+v, %v", cards, err)
	}
	for _, cd := range cards {
		if want := map[bool]int{true: 1, false: 0}[cd.Letters == ans.Alphagrams[1].Spell || cd.Letters == ans.Alphagrams[0].Spell]; cd.Box != want {
			t.Errorf("the account's card %+v, want box %d", cd, want)
		}
	}
	d := r.newDevice()
	r.run(d, "word study on another device", chromedp.Navigate(r.e.url+"/study"), chromedp.WaitVisible(`#study-form`))
	r.poll(d, "an empty cardbox", `$("#cardbox-line").textContent.startsWith("The cardbox of this word list is empty")`, 10*time.Second)
	r.signInDialog(d, "#signin-open", "Ana", "anagrams1", "#signin-go")
	r.poll(d, "Ana's cardbox", `$("#cardbox-line").textContent === "Alphagrams in the cardbox: 3; due for review: 2."`, 10*time.Second)
	// Emptying the cardbox asks first.
	r.clickAt(c, "#cardbox-clear")
	r.poll(c, "asked", `!!document.querySelector("#ask-dialog[open]") && $("#ask-text").textContent.startsWith("Empty the cardbox of SOWPODS")`, 5*time.Second)
	r.run(c, "cancel", chromedp.Evaluate(`$("#ask-cancel").click()`, nil))
	r.poll(c, "kept", `!document.querySelector("#ask-dialog[open]") && Object.keys(JSON.parse(localStorage.getItem("atril:cardbox:@Ana:en-sowpods"))).length === 3`, 5*time.Second)
	r.clickAt(c, "#cardbox-clear")
	r.poll(c, "asked again", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.run(c, "empty it", chromedp.Evaluate(`$("#ask-ok").click()`, nil))
	r.poll(c, "emptied", `localStorage.getItem("atril:cardbox:@Ana:en-sowpods") === null && $("#cardbox-go").disabled &&
		$("#cardbox-line").textContent.startsWith("The cardbox of this word list is empty")`, 5*time.Second)
	if cards, err := r.e.st.Cards(context.Background(), AccountKey("Ana"), "en-sowpods"); err != nil || len(cards) != 0 {
		t.Errorf("the account's emptied cardbox: %+v, %v", cards, err)
	}
	r.run(c, "in Czech", chromedp.Navigate(r.e.url+"/study?lexicon=en-sowpods&length=3&from=1&to=2"), chromedp.WaitVisible(`#study-quiz`),
		chromedp.SetValue("#lang-select", "cs"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "the Czech page", `$("#study-progress").textContent.startsWith("Alfagram 1 z 2") && $("#study-check").textContent === "Zkontrolovat"`, 10*time.Second)
	if left := r.englishLeft(c); len(left) > 0 {
		t.Errorf("English on the Czech word study: %q", left)
	}
}

// humanInt writes a whole number as the page's English does (1,234).
func humanInt(x float64) string {
	s := strconv.FormatInt(int64(x), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// lobbyGame starts a game against the computer from the lobby's form,
// as name, on the bag of seed, and waits for the first turn; it returns
// the game's id and the seat's token.
func (r *rig) lobbyGame(ctx context.Context, name string, seed uint64) (id, tok string) {
	r.t.Helper()
	r.run(ctx, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(ctx, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	r.run(ctx, "name", chromedp.SendKeys("#name", name))
	r.seedNextGame(ctx, seed)
	r.clickAt(ctx, "#create")
	r.run(ctx, "the game", chromedp.WaitVisible(`#rack .tile`))
	id, tok = r.pageGame(ctx)
	r.waitTurn(ctx, 0, 0)
	return id, tok
}

// dragTo drags the element sel by mouse to the point (x, y) of the page.
func (r *rig) dragTo(ctx context.Context, sel string, x, y float64) {
	r.t.Helper()
	from := r.stablePoint(ctx, sel, false)
	acts := []chromedp.Action{chromedp.MouseEvent(input.MousePressed, from[0], from[1], chromedp.ButtonLeft)}
	for k := 1; k <= 8; k++ {
		f := float64(k) / 8
		acts = append(acts, chromedp.MouseEvent(input.MouseMoved, from[0]+(x-from[0])*f, from[1]+(y-from[1])*f, chromedp.ButtonLeft))
	}
	acts = append(acts, chromedp.MouseEvent(input.MouseReleased, x, y, chromedp.ButtonLeft))
	r.run(ctx, "drag "+sel, acts...)
}

// rackOrder is the page's rack in the order it shows, a blank as "?".
func (r *rig) rackOrder(ctx context.Context) string {
	r.t.Helper()
	var s string
	r.eval(ctx, `G.rack.map((x) => x.blank ? "?" : x.letter).join(",")`, &s)
	return s
}

// TestBrowserRackOrder arranges the rack by mouse, by keyboard and with
// Sort, and checks that the order outlasts a reload and a move (the
// tiles kept in their order, the ones drawn after them).
func TestBrowserRackOrder(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	id, tok := r.lobbyGame(ctx, "Ren", 9)
	start := strings.Split(r.rackOrder(ctx), ",")
	n := len(start)
	if n != 7 {
		t.Fatalf("a rack of %d tiles: %v", n, start)
	}

	// The first tile dragged past the last goes to the end.
	var end []float64
	r.eval(ctx, `(() => { const b = document.querySelector("#rack .tile:last-child").getBoundingClientRect(); return [b.right - 2, b.y + b.height/2]; })()`, &end)
	r.dragTo(ctx, `#rack .tile[data-i="0"]`, end[0], end[1])
	want := strings.Join(append(append([]string{}, start[1:]...), start[0]), ",")
	if got := r.rackOrder(ctx); got != want {
		t.Errorf("after dragging the first tile to the end the rack is %s, want %s", got, want)
	}
	var marks, pending int
	r.eval(ctx, `document.querySelectorAll("#rack .drop-before, #rack .drop-after, #board .drop").length`, &marks)
	r.eval(ctx, `G.pending.length`, &pending)
	if marks != 0 || pending != 0 {
		t.Errorf("after the drag: %d drop marks left, %d tiles on the board", marks, pending)
	}

	// Shift+Right on a focused tile carries it one place on; Right alone
	// only moves the focus.
	r.eval(ctx, `document.querySelector('#rack .tile[data-i="0"]').focus(); true`, nil)
	before := strings.Split(r.rackOrder(ctx), ",")
	r.run(ctx, "Shift+Right", chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(input.ModifierShift)))
	swapped := append([]string{before[1], before[0]}, before[2:]...)
	if got := r.rackOrder(ctx); got != strings.Join(swapped, ",") {
		t.Errorf("after Shift+Right the rack is %s, want %v", got, swapped)
	}
	var focus, msg string
	r.eval(ctx, `document.activeElement.dataset.i + "|" + $("#message").textContent`, &focus)
	focus, msg, _ = strings.Cut(focus, "|")
	if focus != "1" || msg != fmt.Sprintf("%s moved to place 2 of 7", map[bool]string{true: "blank", false: before[0]}[before[0] == "?"]) {
		t.Errorf("after Shift+Right the focus is on tile %s and the page says %q", focus, msg)
	}
	r.key(ctx, kb.ArrowRight)
	r.eval(ctx, `document.activeElement.dataset.i`, &focus)
	if got := r.rackOrder(ctx); focus != "2" || got != strings.Join(swapped, ",") {
		t.Errorf("after Right the focus is on tile %s and the rack is %s", focus, got)
	}

	// Sort: the alphabet's order, blanks last. On a phone its button
	// shows a sign, and keeps its name.
	var names string
	r.eval(ctx, `$("#shuffle").getAttribute("aria-label") + "|" + $("#sort").getAttribute("aria-label") + "|" + $("#sort").innerText`, &names)
	if names != "Shuffle|Sort|Sort" {
		t.Errorf("the rack's buttons: %q", names)
	}
	r.run(ctx, "a phone", chromedp.EmulateViewport(390, 844))
	r.eval(ctx, `$("#sort").innerText`, &names)
	if names != "A–Z" {
		t.Errorf("on a phone the Sort button reads %q", names)
	}
	r.run(ctx, "a laptop", chromedp.EmulateViewport(1280, 800))
	r.clickAt(ctx, "#sort")
	sorted := append([]string{}, start...)
	sort.Slice(sorted, func(a, b int) bool {
		if (sorted[a] == "?") != (sorted[b] == "?") {
			return sorted[b] == "?"
		}
		return sorted[a] < sorted[b]
	})
	if got := r.rackOrder(ctx); got != strings.Join(sorted, ",") {
		t.Errorf("after Sort the rack is %s, want %v", got, sorted)
	}
	// Back to an order of our own, which a reload keeps.
	r.dragTo(ctx, `#rack .tile[data-i="0"]`, end[0], end[1])
	mine := r.rackOrder(ctx)
	r.run(ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(`#rack .tile`))
	r.waitTurn(ctx, 0, 0)
	if got := r.rackOrder(ctx); got != mine {
		t.Errorf("after a reload the rack is %s, want %s", got, mine)
	}

	// A tile placed on the board and dragged back to the rack's first
	// place goes there, off the board.
	last := strings.Split(mine, ",")[n-1]
	r.clickAt(ctx, fmt.Sprintf(`#rack .tile[data-i="%d"]`, n-1))
	r.clickAt(ctx, `#board .sq[data-r="7"][data-c="7"]`)
	if last == "?" {
		r.poll(ctx, "the blank chooser", `!!document.querySelector("#blank-dialog[open]")`, 5*time.Second)
		r.clickAt(ctx, `#blank-letters button:nth-child(1)`)
	}
	r.poll(ctx, "the tile on the board", `G.pending.length === 1`, 5*time.Second)
	var first []float64
	r.eval(ctx, `(() => { const b = document.querySelector('#rack .tile[data-i="0"]').getBoundingClientRect(); return [b.x + 2, b.y + b.height/2]; })()`, &first)
	r.dragTo(ctx, `#board .sq[data-r="7"][data-c="7"] .tile`, first[0], first[1])
	r.eval(ctx, `G.pending.length`, &pending)
	got := strings.Split(r.rackOrder(ctx), ",")
	if pending != 0 || got[0] != last || strings.Join(got[1:], ",") != strings.Join(strings.Split(mine, ",")[:n-1], ",") {
		t.Errorf("the tile dragged back from the board: %d tiles on the board, the rack %v (was %s)", pending, got, mine)
	}

	// After a move the tiles kept stay in their order, the drawn ones
	// come after them.
	before = strings.Split(r.rackOrder(ctx), ",")
	tiles, _ := bestTiles(t, r.e.state(id, tok))
	if _, placed := r.playMove(ctx, id, tok, 0, false, false); !placed || tiles == nil {
		t.Fatal("no placement to play")
	}
	kept := append([]string{}, before...)
	var played []string
	for _, p := range tiles {
		if p.Blank {
			played = append(played, "?")
		} else {
			played = append(played, p.Letter)
		}
	}
	for _, l := range played {
		k := slices.Index(kept, l)
		if k < 0 {
			t.Fatalf("played %s, not on the rack %v", l, before)
		}
		kept = slices.Delete(kept, k, k+1)
	}
	r.waitTurn(ctx, 0, 2)
	got = strings.Split(r.rackOrder(ctx), ",")
	if len(got) < len(kept) || strings.Join(got[:len(kept)], ",") != strings.Join(kept, ",") {
		t.Errorf("after playing %v from %v the rack is %v: the kept tiles %v should lead", played, before, got, kept)
	}
	r.shot(ctx, "48-rack-order")
}

// TestBrowserLobbyChat: a visitor reads the lobby's chat and is asked to
// sign in to write; two signed-in players write in it from the form,
// each reading the other, the names linking to their pages.
func TestBrowserLobbyChat(t *testing.T) {
	r := newRig(t)
	visitor, ana, bo := r.ctx, r.newDevice(), r.newDevice()
	r.run(visitor, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#lobby-chat-card`))
	r.poll(visitor, "the chat, empty", `!$("#lobby-chat-empty").hidden && !$("#lobby-chat-signin").hidden && $("#lobby-chat-form").hidden`, 10*time.Second)
	var hint string
	r.eval(visitor, `$("#lobby-chat-signin").textContent`, &hint)
	if hint != "Sign in to write here." {
		t.Errorf("a visitor is told %q", hint)
	}
	r.signUpPage(ana, "Anabel")
	r.poll(ana, "the form", `!$("#lobby-chat-form").hidden && $("#lobby-chat-signin").hidden`, 10*time.Second)
	r.run(ana, "Anabel writes", chromedp.Click("#lobby-chat-text"), chromedp.SendKeys("#lobby-chat-text", "anyone for a game?\r"))
	r.poll(ana, "her line", `$("#lobby-chat-lines").textContent === "Anabel:anyone for a game?" && $("#lobby-chat-text").value === "" && $("#lobby-chat-empty").hidden`, 10*time.Second)
	var pending int
	r.eval(ana, `G.pending.length`, &pending)
	if pending != 0 {
		t.Errorf("typing in the lobby's chat put %d tiles down", pending)
	}
	r.signUpPage(bo, "Bodil")
	r.poll(bo, "Bodil reads it", `$("#lobby-chat-lines").textContent === "Anabel:anyone for a game?"`, 10*time.Second)
	r.run(bo, "Bodil answers", chromedp.Click("#lobby-chat-text"), chromedp.SendKeys("#lobby-chat-text", "me!"), chromedp.Click("#lobby-chat-send"))
	want := "Anabel:anyone for a game?Bodil:me!"
	r.poll(bo, "his line", fmt.Sprintf(`$("#lobby-chat-lines").textContent === %q`, want), 10*time.Second)
	// The other lobbies are told of his line through the lobby's
	// WebSocket, each open.
	if n := readMetrics(t, r.e)["atril_lobby_sockets"]; n < 3 {
		t.Errorf("atril_lobby_sockets %v with three lobbies open", n)
	}
	for _, c := range []context.Context{ana, visitor} {
		r.poll(c, "the lobby's socket", `!!LOBBY_WS && LOBBY_WS.readyState === 1`, 10*time.Second)
		r.poll(c, "both lines", fmt.Sprintf(`$("#lobby-chat-lines").textContent === %q`, want), 10*time.Second)
	}
	var links string
	r.eval(visitor, `[...document.querySelectorAll("#lobby-chat-lines a.who")].map((a) => a.getAttribute("href")).join(" ")`, &links)
	if links != "/p/Anabel /p/Bodil" {
		t.Errorf("the writers link to %q", links)
	}
	if s := r.axe(ana, "the lobby with its chat"); s < 90 {
		t.Errorf("the lobby with its chat scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(ana, "49-lobby-chat")
}

// TestBrowserBubbleClear lays every letter of the English, Spanish and Czech
// tile sets as the last (or first) tile of a word, on each side the
// preview's score can take (right, below, left at the board's right edge,
// above at its bottom edge), with a score of three digits and tiles of
// two-digit points, at 1280 and 390 px: the score must cover no letter
// and no points. (A wide last letter, W, under the score was a rare
// failure of the whole-game tests, whose racks are random.)
func TestBrowserBubbleClear(t *testing.T) {
	r := newRig(t)
	ctx := r.ctx
	for _, variant := range []string{"english", "spanish", "czech"} {
		var cr CreateResponse
		if code := r.e.do("POST", "/api/games", "", map[string]any{"variant": variant,
			"seats": []SeatRequest{{Kind: "human", Name: "Bea"}, {Kind: "computer", Level: "professional"}}}, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		a := r.e.join(cr.ID)
		r.run(ctx, "open "+variant, chromedp.Navigate(r.e.url+"/g/"+cr.ID+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
		r.waitTurn(ctx, 0, 0)
		for _, width := range []int64{1280, 390} {
			r.run(ctx, "viewport", chromedp.EmulateViewport(width, 844))
			var bad []string
			r.eval(ctx, `(() => {
				const out = [];
				const saved = [G.rack, G.pending, G.preview];
				const letters = G.st.letters.map((x) => x.letter).filter((l) => l !== "?");
				const layouts = {right: [[7, 7]], below: [[6, 7], [7, 7]], left: [[7, 14]], above: [[13, 7], [14, 7]]};
				for (const L of letters) {
					for (const [side, sqs] of Object.entries(layouts)) {
						G.rack = sqs.map(() => ({letter: L, score: 10, blank: false}));
						G.pending = sqs.map(([r, c], i) => ({i, row: r, col: c, letter: L, blank: false}));
						G.preview = {key: pendingKey(), data: {ok: true, score: 188}};
						renderBoard();
						const b = document.querySelector("#board .bubble");
						if (!b || !b.classList.contains(side)) { out.push(L + " " + side + ": no bubble there"); continue; }
						const q = b.getBoundingClientRect();
						for (const x of document.querySelectorAll("#board .tile .l, #board .tile .pts")) {
							const l = x.getBoundingClientRect();
							if (Math.min(l.right, q.right) - Math.max(l.left, q.left) > 1 && Math.min(l.bottom, q.bottom) - Math.max(l.top, q.top) > 1) {
								out.push(L + " " + side + ": covers " + x.className + " " + x.textContent);
							}
						}
					}
				}
				[G.rack, G.pending, G.preview] = saved;
				renderBoard();
				return out;
			})()`, &bad)
			if len(bad) > 0 {
				t.Errorf("%s at %d px: %q", variant, width, bad)
			}
		}
	}
}

// TestBrowserFollows: Anabel follows Bodil from his page (its count of
// followers goes up); her lobby lists him, in the lobby, with the game he
// offers there and Join; her own page lists him with Unfollow, which
// empties the list.
func TestBrowserFollows(t *testing.T) {
	r := newRig(t)
	ana, bo := r.ctx, r.newDevice()
	r.signUpPage(bo, "Bodil")
	r.signUpPage(ana, "Anabel")
	r.run(ana, "Bodil's page", chromedp.Navigate(r.e.url+"/p/Bodil"), chromedp.WaitVisible(`#follow-btn`))
	r.poll(ana, "Follow, no followers", `$("#follow-btn").textContent === "Follow" && $("#profile-followers").textContent === "Followers: 0"`, 10*time.Second)
	r.clickAt(ana, "#follow-btn")
	r.poll(ana, "followed", `$("#follow-btn").textContent === "Unfollow" && $("#profile-followers").textContent === "Followers: 1" &&
		$("#follow-msg").textContent === "You follow Bodil."`, 10*time.Second)
	offer := func() string {
		var id string
		r.run(bo, "Bodil offers a game", chromedp.Evaluate(`(async () => {
			const post = (u, b, tok) => fetch(u, {method: "POST", headers: tok ? {Authorization: "Bearer " + tok} : {}, body: JSON.stringify(b || {})}).then((x) => x.json());
			const cr = await post("/api/games", {variant: "english", seats: [{kind: "human"}, {kind: "human"}]});
			const j = await post("/api/games/" + cr.id + "/join", {seat: 0});
			await post("/api/games/" + cr.id + "/list", null, j.token);
			return cr.id;
		})()`, &id, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		return id
	}
	id := offer()
	r.run(ana, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#follows-card`))
	r.poll(ana, "Bodil among the follows", fmt.Sprintf(`$("#follows-lobby").textContent.startsWith("Bodil in the lobby · offers a game") &&
		$("#follows-lobby a.button").getAttribute("href") === "/g/%s"`, id), 10*time.Second)
	// Notifications on from the card: the lobby in the background tells
	// of Bodil's next game offered, once.
	r.run(ana, "allow notifications", cdpbrowser.GrantPermissions([]cdpbrowser.PermissionType{cdpbrowser.PermissionTypeNotifications}).WithOrigin(r.e.url))
	r.eval(ana, `showFollowsNotify(); true`, nil) // the button shows what the browser allows now
	r.clickAt(ana, "#follows-notify")
	r.poll(ana, "notifications on", `localStorage.getItem("atril:notify") === "on" && $("#follows-notify").textContent === "Notify: on"`, 5*time.Second)
	r.run(ana, "the lobby in the background", chromedp.Evaluate(`Object.defineProperty(document, "hidden", {get: () => true, configurable: true});
		window.NOTES = []; window.Notification = class extends Notification { constructor(title, o) { NOTES.push(title + "|" + o.body); super(title, o); } }`, nil))
	second := offer()
	r.eval(ana, `loadOpen(); true`, nil)
	r.poll(ana, "told of the game offered", fmt.Sprintf(`NOTES.join() === "atril: a game offered|Bodil offers a game in the lobby." && $("#follows-lobby").innerHTML.includes("/g/%s")`, second), 10*time.Second)
	r.eval(ana, `loadOpen(); true`, nil)
	time.Sleep(300 * time.Millisecond)
	var notes int
	r.eval(ana, `NOTES.length`, &notes)
	if notes != 1 {
		t.Errorf("the lobby read again told %d times of the game offered, want once", notes)
	}
	// A message from Bodil: the lobby in the background tells of it too.
	var sent int
	r.run(bo, "Bodil writes", chromedp.Evaluate(`fetch("/api/me/messages/Anabel", {method: "POST", body: JSON.stringify({text: "A game?"})}).then((x) => x.status)`,
		&sent, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if sent != 201 {
		t.Fatalf("Bodil's message: %d", sent)
	}
	r.eval(ana, `loadOpen(); true`, nil)
	r.poll(ana, "told of the message", `NOTES.length === 2 && NOTES[1] === "Messages|Unread messages: 1" && $("#messages-link .label").textContent === "Messages (1)"`, 10*time.Second)
	r.run(ana, "the lobby in front again", chromedp.Evaluate(`delete document.hidden; localStorage.setItem("atril:notify", "off"); showFollowsNotify(); true`, nil))
	// A followed player's timed game shows both clocks, the one on turn
	// running.
	var clocks string
	r.eval(ana, `(() => {
		showLobbyFollows([{name: "Bodil", since: "2026-11-01T00:00:00Z", playing: [{id: "00000000000000f1", variant: "english", lexicon: "en-sowpods",
			seats: [{name: "Bodil", kind: "human", score: 10}, {name: "Cyd", kind: "human", score: 5}],
			clock_state: {seconds: [600, 600], overtime: [60, 60], left_ms: [300000, 600000], running: 0}}]}]);
		LOBBY_CLOCKS_AT = performance.now(); tickLobbyClocks();
		return [...document.querySelectorAll("#follows-lobby .lobby-clock")].map((c) => c.textContent + (c.classList.contains("running") ? "*" : "")).join(" ");
	})()`, &clocks)
	if clocks != "5:00* 10:00" {
		t.Errorf("the clocks of a followed player's game: %q, want \"5:00* 10:00\"", clocks)
	}
	if s := r.axe(ana, "the lobby with the players followed"); s < 90 {
		t.Errorf("the lobby with the players followed scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(ana, "50-lobby-follows")
	r.run(ana, "her page", chromedp.Navigate(r.e.url+"/p/Anabel"), chromedp.WaitVisible(`#follows-list`))
	r.poll(ana, "Bodil in her list", `$("#follows-list").textContent === "Bodil Unfollow" && $("#follows-none").hidden && $("#profile-follow").hidden`, 10*time.Second)
	r.clickAt(ana, "#follows-list button")
	r.poll(ana, "no one followed", `$("#follows-list").textContent === "" && !$("#follows-none").hidden && $("#profile-msg").textContent === "You no longer follow Bodil."`, 10*time.Second)
}

// TestBrowserCloseAccount: Anabel closes her account from her own page:
// a wrong password is refused in the page's words, the right one (asked
// first) signs her out to the lobby, and her page then says the account
// was closed, with no Follow or Block.
func TestBrowserCloseAccount(t *testing.T) {
	r := newRig(t)
	ana, bo := r.ctx, r.newDevice()
	r.signUpPage(ana, "Anabel")
	r.signUpPage(bo, "Bodil")
	r.run(ana, "her page", chromedp.Navigate(r.e.url+"/p/Anabel"), chromedp.WaitVisible(`#profile-account`))
	// Her data first, by the page's link.
	var data string
	r.run(ana, "her data", chromedp.Evaluate(`fetch($("#data-link").href).then((x) => x.json()).then((d) => d.name + "|" + $("#data-link").textContent + "|" + $("#data-link").hasAttribute("download"))`, &data,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if data != "Anabel|Download your data|true" {
		t.Errorf("her data by the page's link: %q", data)
	}
	// Her games by the next link: a zip archive (empty: she has none).
	r.run(ana, "her games", chromedp.Evaluate(`fetch($("#games-zip-link").href).then((x) => x.status + " " + x.headers.get("Content-Type") + "|" + $("#games-zip-link").textContent)`, &data,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if data != "200 application/zip|Download your games" {
		t.Errorf("her games by the page's link: %q", data)
	}
	r.run(ana, "open Close your account", chromedp.Click("#close-box summary"), chromedp.WaitVisible(`#close-password`))
	r.run(ana, "a wrong password", chromedp.SendKeys("#close-password", "wrong horse"), chromedp.Click("#close-go"))
	r.poll(ana, "the question", `!!document.querySelector("#ask-dialog[open]") && $("#ask-text").textContent === "Close the account Anabel for good?"`, 5*time.Second)
	r.run(ana, "yes", chromedp.Click("#ask-ok"))
	r.poll(ana, "refused", `$("#close-msg").textContent === "The current password is wrong."`, 10*time.Second)
	if s := r.axe(ana, "closing the account"); s < 90 {
		t.Errorf("closing the account scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.run(ana, "the right one", chromedp.SetValue("#close-password", "correct horse"), chromedp.Click("#close-go"))
	r.poll(ana, "the question again", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.run(ana, "yes", chromedp.Click("#ask-ok"))
	waitFor(t, "the lobby's address", func() bool {
		var path string
		return chromedp.Run(ana, chromedp.Evaluate(`location.pathname`, &path)) == nil && path == "/"
	})
	r.run(ana, "the lobby", chromedp.WaitVisible(`#create`))
	r.poll(ana, "signed out in the lobby", `location.pathname === "/" && !!INFO && !ME.signed_in && !$("#signin-open").hidden`, 10*time.Second)
	r.run(bo, "her page, as Bodil", chromedp.Navigate(r.e.url+"/p/Anabel"), chromedp.WaitVisible(`#profile-body`))
	r.poll(bo, "closed", `!$("#profile-closed").hidden && $("#profile-closed").textContent === "This account was closed by its owner." && $("#profile-follow").hidden && $("#profile-block").hidden`, 10*time.Second)
}

// TestBrowserRush plays a guest's rush from the lobby's card to its end
// (a puzzle solved with a play laid on the board, three skips), then,
// signed in, a survival run ended by its holder, which the leaderboard
// and the player's page then show.
func TestBrowserRush(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(c, "the rush's link", `!!$("#rush-link").offsetParent && $("#rush-link").getAttribute("href") === "/rush"`, 20*time.Second)
	r.run(c, "the rush", chromedp.Navigate(r.e.url+"/rush"))
	r.poll(c, "the rush's page", `!$("#rush-start").hidden && $("#rush-lexicon").value === "en-sowpods" && !$("#rush-leaders-empty").hidden && !$("#rush-signin").hidden`, 20*time.Second)
	var line string
	r.eval(c, `$("#rush-leaders-empty").textContent + " / " + $("#rush-leaders-caption").textContent`, &line)
	if line != "No runs of this word list and mode yet. / The best runs in SOWPODS (international English), timed" {
		t.Errorf("the empty leaderboard reads %q", line)
	}
	r.clickAt(c, "#rush-go")
	r.poll(c, "puzzle 1", `!$("#rush").hidden && $("#rush-start").hidden && document.querySelectorAll("#rack .tile").length === 7 && $("#rush-goal").textContent !== ""`, 20*time.Second)
	var id string
	r.eval(c, `sessionStorage.getItem("atril:rush")`, &id)
	var run RushInfo
	if code := r.e.do("GET", "/api/rush/"+id, "", nil, &run); code != 200 {
		t.Fatalf("the run %q: %d", id, code)
	}
	var page struct{ Title, Status, Goal, Clock string }
	r.eval(c, `({Title: $("#rush-title").textContent, Status: $("#rush-score").textContent, Goal: $("#rush-goal").textContent, Clock: $("#rush-clock").textContent})`, &page)
	if !strings.HasPrefix(page.Title, "Rush · puzzle 1 · ") || page.Status != "Solved 0 · misses 0 of 3" ||
		page.Goal != fmt.Sprintf("Find a play of at least %d points: place your tiles and press Play.", run.Target) ||
		!regexp.MustCompile(`^[45]:\d\d left$`).MatchString(page.Clock) {
		t.Errorf("puzzle 1 of the rush: %+v", page)
	}
	if s := r.axe(c, "a rush"); s < 90 {
		t.Errorf("a rush's page scores %.0f in the accessibility checks, want at least 90", s)
	}
	// The top play, laid on the board and played.
	plays, scores := rushPlays(t, r.e, id)
	tiles, _ := json.Marshal(plays[0])
	r.eval(c, fmt.Sprintf(`(showCandidate({tiles: %s}), true)`, tiles), new(bool))
	r.poll(c, "its preview", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, scores[0]), 10*time.Second)
	r.shot(c, "58-rush")
	r.clickAt(c, "#submit")
	r.poll(c, "puzzle 2", `$("#rush-title").textContent.startsWith("Rush · puzzle 2 · ")`, 20*time.Second)
	r.eval(c, `$("#message").textContent + " / " + $("#rush-score").textContent`, &line)
	if !strings.HasPrefix(line, "Solved: ") || !strings.HasSuffix(line, fmt.Sprintf(" scores %d (at least %d asked). / Solved 1 · misses 0 of 3", scores[0], run.Target)) {
		t.Errorf("after the top play the page says %q", line)
	}
	// Three skips end it.
	for k := 1; k <= 3; k++ {
		r.clickAt(c, "#rush-skip")
		if k < 3 {
			r.poll(c, "a skip", fmt.Sprintf(`$("#rush-score").textContent === "Solved 1 · misses %d of 3"`, k), 20*time.Second)
		}
	}
	r.poll(c, "the run's end", `!$("#rush-start").hidden && $("#game").hidden && !$("#rush-summary").hidden`, 20*time.Second)
	var end struct {
		Head string
		Log  []string
		Go   string
	}
	r.eval(c, `({Head: $("#rush-summary h2").textContent, Log: [...document.querySelectorAll(".rush-log li")].map((li) => li.className), Go: $("#rush-go").textContent})`, &end)
	if end.Head != "The run is over: 1 solved." || strings.Join(end.Log, " ") != "ok error error error" || end.Go != "Another run" {
		t.Errorf("the run's end: %+v", end)
	}
	r.shot(c, "59-rush-over")

	// Signed in: a survival run, one puzzle solved, ended.
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Ana" && $("#rush-signin").hidden`, 20*time.Second)
	r.eval(c, `(() => { const m = document.querySelector("input[name=rush-mode][value=survival]"); m.checked = true; m.dispatchEvent(new Event("change")); return true; })()`, new(bool))
	r.clickAt(c, "#rush-go")
	r.poll(c, "a survival run", `!$("#rush").hidden && $("#rush-clock").hidden && $("#rush-title").textContent.startsWith("Rush · puzzle 1 · ")`, 20*time.Second)
	r.eval(c, `sessionStorage.getItem("atril:rush")`, &id)
	plays, _ = rushPlays(t, r.e, id)
	tiles, _ = json.Marshal(plays[0])
	r.eval(c, fmt.Sprintf(`(showCandidate({tiles: %s}), true)`, tiles), new(bool))
	r.clickAt(c, "#submit")
	r.poll(c, "puzzle 2", `$("#rush-title").textContent.startsWith("Rush · puzzle 2 · ")`, 20*time.Second)
	r.clickAt(c, "#rush-end")
	r.poll(c, "the question", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.clickAt(c, "#ask-ok")
	r.poll(c, "the leaderboard", `!$("#rush-summary").hidden && !$("#rush-leaders").hidden`, 20*time.Second)
	r.eval(c, `$("#rush-summary p").textContent + " / " + [...document.querySelectorAll("#rush-leaders tbody td")].map((td) => td.textContent).join(" ")`, &line)
	if line != "Your best yet: 1 solved (runs played: 1). / 1 Ana 1 1" {
		t.Errorf("the end of Ana's run reads %q", line)
	}
	r.run(c, "Ana's page", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(c, "her rush", `!$("#profile-body").hidden && $("#profile-puzzle-ratings").textContent !== ""`, 10*time.Second)
	r.eval(c, `$("#profile-puzzle-ratings").textContent`, &line)
	if line != "Puzzle rush in SOWPODS (international English), survival: best 1 solved (runs played: 1)." {
		t.Errorf("her page's rush reads %q", line)
	}
	// The daily rush: once a day.
	today := puzzle.Today(time.Now())
	r.run(c, "the rush again", chromedp.Navigate(r.e.url+"/rush"))
	r.poll(c, "the form", `!$("#rush-start").hidden && $("#me-link").textContent === "Ana"`, 20*time.Second)
	r.eval(c, `(() => { const m = document.querySelector("input[name=rush-mode][value=daily]"); m.checked = true; m.dispatchEvent(new Event("change")); return true; })()`, new(bool))
	r.clickAt(c, "#rush-go")
	r.poll(c, "the daily rush", fmt.Sprintf(`!$("#rush").hidden && $("#rush-title").textContent.startsWith("Daily rush %d · puzzle 1 · ") && !$("#rush-clock").hidden`, today), 20*time.Second)
	r.eval(c, `sessionStorage.getItem("atril:rush")`, &id)
	plays, _ = rushPlays(t, r.e, id)
	tiles, _ = json.Marshal(plays[0])
	r.eval(c, fmt.Sprintf(`(showCandidate({tiles: %s}), true)`, tiles), new(bool))
	r.clickAt(c, "#submit")
	r.poll(c, "the daily rush's puzzle 2", `$("#rush-title").textContent.includes(" · puzzle 2 · ")`, 20*time.Second)
	r.clickAt(c, "#rush-end")
	r.poll(c, "the question", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.clickAt(c, "#ask-ok")
	r.poll(c, "the end", `!$("#rush-summary").hidden && $("#rush-leaders-caption").textContent.startsWith("Today's")`, 20*time.Second)
	r.eval(c, `$("#rush-leaders-caption").textContent`, &line)
	if want := fmt.Sprintf("Today's best runs in SOWPODS (international English), daily rush %d", today); line != want {
		t.Errorf("the daily leaderboard's caption reads %q, want %q", line, want)
	}
	r.clickAt(c, "#rush-go")
	r.poll(c, "the refusal", `$("#rush-msg").textContent !== ""`, 20*time.Second)
	r.eval(c, `$("#rush-msg").textContent`, &line)
	if line != "You played today's daily rush in this word list: 1 solved. The next one opens at 00:00 UTC." {
		t.Errorf("a second daily rush: the page says %q", line)
	}
	// The lobby's puzzle card names the day's leader.
	r.run(c, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(c, "the daily leader", `!$("#rush-daily-line").hidden`, 20*time.Second)
	r.eval(c, `$("#rush-daily-line").textContent`, &line)
	if line != "Today's daily rush: Ana leads with 1 solved." {
		t.Errorf("the puzzle card's daily rush line reads %q", line)
	}
}

// TestBrowserMessages: a message from another player shows in the
// header's count; the messages page lists the conversation, opens it
// (read: the count goes), and sends a reply, which the other player
// reads; a player's page links to the conversation.
func TestBrowserMessages(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Ana" && !$("#messages-link").hidden && $("#messages-link .label").textContent === "Messages"`, 20*time.Second)
	bo := browser(t)
	r.e.signUp(bo, "Bo.B", "bobobobo1")
	if code := r.e.doWith(bo, "POST", "/api/me/messages/Ana", "", map[string]string{"text": "Hi Ana, a game tonight?"}, nil); code != 201 {
		t.Fatalf("Bo writes: %d", code)
	}
	r.run(c, "the lobby again", chromedp.Navigate(r.e.url+"/"))
	r.poll(c, "the unread count", `$("#messages-link .label").textContent === "Messages (1)" && $("#messages-link .envelope").textContent === "✉ 1"`, 20*time.Second)
	r.run(c, "the messages", chromedp.Navigate(r.e.url+"/messages"))
	r.poll(c, "the conversations", `document.querySelectorAll("#conversations-list li").length === 1`, 20*time.Second)
	var line string
	r.eval(c, `$("#conversations-list li").textContent`, &line)
	if line != "Bo.B 1 newHi Ana, a game tonight?" {
		t.Errorf("the conversation listed reads %q", line)
	}
	r.clickAt(c, "#conversations-list li a")
	r.poll(c, "the conversation", `!$("#conversation").hidden && document.querySelectorAll("#conversation-list li.theirs").length === 1 && $("#messages-link .label").textContent === "Messages"`, 20*time.Second)
	var path string
	r.eval(c, `location.pathname + " / " + $("#conversation-title").textContent + " / " + $("#conversation-list li .text").textContent`, &path)
	if path != "/messages/Bo.B / With Bo.B / Hi Ana, a game tonight?" {
		t.Errorf("the conversation: %q", path)
	}
	r.run(c, "write", chromedp.SendKeys("#message-text", "Yes, at nine!"))
	r.clickAt(c, "#message-go")
	r.poll(c, "the reply", `document.querySelectorAll("#conversation-list li.mine").length === 1 && $("#message-text").value === ""`, 20*time.Second)
	if s := r.axe(c, "the messages"); s < 90 {
		t.Errorf("the messages page scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(c, "60-messages")
	var page ConversationPage
	if code := r.e.doWith(bo, "GET", "/api/me/messages/ana", "", nil, &page); code != 200 || len(page.Messages) != 2 || page.Messages[1].Text != "Yes, at nine!" || page.Messages[1].Mine {
		t.Errorf("Bo reads: %d %+v", code, page)
	}
	// A conversation with nobody says so.
	r.run(c, "nobody's messages", chromedp.Navigate(r.e.url+"/messages/Nobody9"))
	r.poll(c, "the error", `$("#messages-error").textContent === 'Something went wrong: no player is named "Nobody9"' && $("#conversation").hidden`, 20*time.Second)
	// The lobby's search for players offers to write to them.
	r.run(c, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#find-name`))
	r.run(c, "look for Bo", chromedp.SendKeys("#find-name", "bo"))
	r.poll(c, "Bo found", `!!document.querySelector("#find-out li a.button[href='/messages/Bo.B']")`, 10*time.Second)
	var link string
	r.eval(c, `(() => { const a = document.querySelector("#find-out li a.button[href='/messages/Bo.B']"); return a.textContent + " / " + a.getAttribute("aria-label"); })()`, &link)
	if link != "Message / Send a message to Bo.B" {
		t.Errorf("the message link of a player found: %q", link)
	}
	// Bo's page links to the conversation.
	r.run(c, "Bo's page", chromedp.Navigate(r.e.url+"/p/Bo.B"))
	r.poll(c, "the message link", `!$("#profile-message").hidden`, 20*time.Second)
	r.eval(c, `$("#profile-message").getAttribute("href") + " " + $("#profile-message").textContent`, &line)
	if line != "/messages/Bo.B Send a message" {
		t.Errorf("the message link on Bo's page: %q", line)
	}
}

// TestBrowserPasskey adds a passkey from one's own page (Chrome's
// virtual authenticator standing in for the device's), signs out, and
// signs in again with the passkey alone.
func TestBrowserPasskey(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	// Passkeys are for a site's name: localhost, not an address.
	site := strings.Replace(r.e.url, "127.0.0.1", "localhost", 1)
	r.run(c, "a virtual authenticator", cdpwebauthn.Enable(), chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdpwebauthn.AddVirtualAuthenticator(&cdpwebauthn.VirtualAuthenticatorOptions{Protocol: cdpwebauthn.AuthenticatorProtocolCtap2,
			Transport: cdpwebauthn.AuthenticatorTransportInternal, HasResidentKey: true, HasUserVerification: true, IsUserVerified: true,
			AutomaticPresenceSimulation: true}).Do(ctx)
		return err
	}))
	r.run(c, "open the lobby", chromedp.Navigate(site+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Ana"`, 20*time.Second)
	r.run(c, "her page", chromedp.Navigate(site+"/p/Ana"))
	r.poll(c, "passkeys offered", `!$("#passkeys-box").hidden && !$("#passkeys-none").hidden && $("#passkeys-list").children.length === 0`, 10*time.Second)
	r.eval(c, `($("#passkey-name").value = "laptop", true)`, nil)
	r.clickAt(c, "#passkey-add")
	r.poll(c, "the password asked for", `$("#passkeys-msg").textContent === "Give your current password to add a passkey."`, 5*time.Second)
	r.run(c, "a wrong password", chromedp.SendKeys("#passkey-password", "anagrams2"))
	r.clickAt(c, "#passkey-add")
	r.poll(c, "refused", `$("#passkeys-msg").textContent === "The current password is wrong." && $("#passkeys-list").children.length === 0`, 5*time.Second)
	r.run(c, "her password", chromedp.Evaluate(`$("#passkey-password").value = ""`, nil), chromedp.SendKeys("#passkey-password", "anagrams1"))
	r.clickAt(c, "#passkey-add")
	r.poll(c, "the passkey listed", `$("#passkeys-msg").textContent === "The passkey is added." && $("#passkeys-none").hidden &&
		$("#passkeys-list li").textContent.startsWith("laptop, added ")`, 10*time.Second)
	r.shot(c, "68-passkeys")
	ps, err := r.e.st.Passkeys(t.Context(), AccountKey("Ana"))
	if err != nil || len(ps) != 1 || ps[0].Name != "laptop" || !ps[0].Used.IsZero() {
		t.Fatalf("the account's passkeys: %+v, %v", ps, err)
	}
	r.clickAt(c, "#signout")
	r.poll(c, "signed out", `!$("#signin-open").hidden`, 10*time.Second)
	r.clickAt(c, "#signin-open")
	r.poll(c, "the dialog", `!!document.querySelector("#signin-dialog[open]") && !$("#passkey-signin").hidden`, 5*time.Second)
	r.clickAt(c, "#passkey-go")
	r.poll(c, "signed in with the passkey", `$("#me-link").textContent === "Ana" && !document.querySelector("#signin-dialog[open]")`, 10*time.Second)
	if ps, _ := r.e.st.Passkeys(t.Context(), AccountKey("Ana")); len(ps) != 1 || ps[0].Used.IsZero() {
		t.Errorf("the passkey after signing in: %+v", ps)
	}
}

// TestBrowserRecovery makes recovery codes on one's own page (the
// password asked for), signs out, and sets a new password with a code
// from the sign-in dialog (a wrong code refused in the page's words).
func TestBrowserRecovery(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Ana"`, 20*time.Second)
	r.run(c, "her page", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(c, "no codes yet", `$("#recovery-left").textContent === "No recovery codes." && $("#recovery-codes").hidden`, 10*time.Second)
	r.run(c, "her password", chromedp.SendKeys("#recovery-password", "anagrams1"))
	r.clickAt(c, "#recovery-go")
	r.poll(c, "the codes", `!$("#recovery-codes").hidden && $("#recovery-codes").textContent.split("\n").length === 10 &&
		$("#recovery-left").textContent === "10 codes left." && $("#recovery-password").value === ""`, 10*time.Second)
	r.shot(c, "69-recovery-codes")
	var code string
	r.eval(c, `$("#recovery-codes").textContent.split("\n")[3]`, &code)
	r.clickAt(c, "#signout")
	r.poll(c, "signed out", `!$("#signin-open").hidden`, 10*time.Second)
	r.clickAt(c, "#signin-open")
	r.poll(c, "the dialog", `!!document.querySelector("#signin-dialog[open]")`, 5*time.Second)
	r.run(c, "her name", chromedp.SendKeys("#signin-name", "Ana"))
	r.clickAt(c, "#recover-box summary")
	r.run(c, "a wrong code", chromedp.SendKeys("#recover-code", "AAAA-BBBB-CCCC-DDDD"), chromedp.SendKeys("#recover-password", "a new password"))
	r.clickAt(c, "#recover-go")
	r.signInError(c, "Wrong name or recovery code.")
	r.run(c, "her code", chromedp.Evaluate(`$("#recover-code").value = ""`, nil), chromedp.SendKeys("#recover-code", strings.ToLower(code)))
	r.clickAt(c, "#recover-go")
	r.poll(c, "signed in with the new password", `$("#me-link").textContent === "Ana" && !document.querySelector("#signin-dialog[open]")`, 10*time.Second)
	a, err := r.e.st.Account(t.Context(), AccountKey("Ana"))
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := password.Check(a.Password, "a new password"); !ok {
		t.Error("the account's password is not the new one")
	}
	if n, _ := r.e.st.RecoveryCodesLeft(t.Context(), AccountKey("Ana")); n != 9 {
		t.Errorf("codes left: %d", n)
	}
}

// TestBrowserSettings chooses a dark theme, a board and tiles in the
// settings' dialog as a guest, checks the colours the page then shows and
// that a reload keeps them, signs up (the account takes the browser's
// settings), signs in on another device (which follows them), and lays a
// new rack out vowels first.
func TestBrowserSettings(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.clickAt(c, "#settings-open")
	r.poll(c, "the settings' dialog", `!!document.querySelector("#settings-dialog[open]") && $("#set-theme").value === "" && $("#set-sound").checked`, 5*time.Second)
	var line string
	r.eval(c, `$("#settings-where").textContent`, &line)
	if !strings.HasPrefix(line, "This browser keeps them.") {
		t.Errorf("a guest's settings say %q", line)
	}
	var hidden bool
	if r.eval(c, `$("#set-push").hidden`, &hidden); !hidden {
		t.Error("a guest is offered push messages")
	}
	choose := func(ctx context.Context, sel, value string) {
		t.Helper()
		r.eval(ctx, fmt.Sprintf(`($(%q).value = %q, $(%[1]q).dispatchEvent(new Event("change")), true)`, sel, value), nil)
	}
	// colours reads what the page shows: the page's background, the
	// triple word's and a plain square's swatches, a tile's and its letter.
	type colours struct{ Theme, Page, TW, Square, Tile, Letter string }
	colour := func(ctx context.Context) colours {
		t.Helper()
		var got colours
		r.eval(ctx, `(() => { const bg = (s) => getComputedStyle(document.querySelector(s)).backgroundColor;
			return {Theme: document.documentElement.dataset.theme || "", Page: bg("body"), TW: bg(".sw-tw"), Square: bg(".sw:not([class*=sw-]):not(.tile)"),
				Tile: bg(".sw.tile"), Letter: getComputedStyle(document.querySelector(".sw.tile")).color}; })()`, &got)
		return got
	}
	light := colour(c)
	if light != (colours{Page: "rgb(245, 241, 232)", TW: "rgb(179, 54, 47)", Square: "rgb(228, 220, 203)", Tile: "rgb(244, 210, 139)", Letter: "rgb(34, 34, 34)"}) {
		t.Errorf("the default colours: %+v", light)
	}
	choose(c, "#set-theme", "dark")
	choose(c, "#set-board", "felt")
	choose(c, "#set-tiles", "slate")
	want := colours{Theme: "dark", Page: "rgb(28, 30, 29)", TW: "rgb(169, 53, 46)", Square: "rgb(46, 59, 47)", Tile: "rgb(61, 73, 85)", Letter: "rgb(245, 245, 245)"}
	if got := colour(c); got != want {
		t.Errorf("dark, felt and slate: %+v, want %+v", got, want)
	}
	if s := r.axe(c, "the settings, dark"); s < 90 {
		t.Errorf("the settings' dialog in the dark theme scores %.0f in the accessibility checks, want at least 90", s)
	}
	r.shot(c, "61-settings")
	r.clickAt(c, `#settings-form button[type=submit]`)
	r.poll(c, "the dialog closed", `!document.querySelector("#settings-dialog[open]") && document.activeElement === $("#settings-open")`, 5*time.Second)
	// A reload opens in them (settings.js sets them before the page is drawn).
	r.run(c, "reload", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	if got := colour(c); got != want {
		t.Errorf("after a reload: %+v, want %+v", got, want)
	}
	// Signing up gives the account the browser's settings.
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Ana"`, 20*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for {
		text, err := r.e.st.Settings(t.Context(), AccountKey("Ana"))
		if err != nil {
			t.Fatal(err)
		}
		if text == `{"theme":"dark","board":"felt","tiles":"slate"}` {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the account's settings: %q", text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Another device follows the account once signed in, and says so.
	d := r.newDevice()
	r.run(d, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	if got := colour(d); got != light {
		t.Errorf("a new device before signing in: %+v, want the defaults %+v", got, light)
	}
	r.signInDialog(d, "#signin-open", "Ana", "anagrams1", "#signin-go")
	r.poll(d, "signed in on the device", `$("#me-link").textContent === "Ana" && document.documentElement.dataset.theme === "dark"`, 20*time.Second)
	if got := colour(d); got != want {
		t.Errorf("the device signed in: %+v, want %+v", got, want)
	}
	r.clickAt(d, "#settings-open")
	r.poll(d, "the dialog", `!!document.querySelector("#settings-dialog[open]") && $("#set-tiles").value === "slate"`, 5*time.Second)
	r.eval(d, `$("#settings-where").textContent`, &line)
	if line != "Your account keeps them: every device you sign in on follows them." {
		t.Errorf("a signed-in player's settings say %q", line)
	}
	// Signed in, the device may get push messages: the page's service
	// worker is active, and the settings offer to turn them on.
	r.poll(d, "push messages offered", `!$("#set-push").hidden && $("#set-push-state").textContent.startsWith("Turn them on") &&
		!$("#set-push-on").hidden && $("#set-push-off").hidden && $("#set-push-test").hidden`, 5*time.Second)
	r.eval(d, `(navigator.serviceWorker.ready.then((reg) => { window.swScope = reg.active && reg.scope; }), true)`, nil)
	r.poll(d, "the service worker", `window.swScope === location.origin + "/"`, 10*time.Second)
	r.shot(d, "67-notifications")
	// A push message delivered to the worker is shown in the player's
	// language, as a notification that opens the game.
	var mu sync.Mutex
	var regID serviceworker.RegistrationID
	chromedp.ListenTarget(d, func(ev any) {
		if e, ok := ev.(*serviceworker.EventWorkerRegistrationUpdated); ok {
			mu.Lock()
			for _, reg := range e.Registrations {
				if reg.ScopeURL == r.e.url+"/" && !reg.IsDeleted {
					regID = reg.RegistrationID
				}
			}
			mu.Unlock()
		}
	})
	r.run(d, "allow notifications", cdpbrowser.GrantPermissions([]cdpbrowser.PermissionType{cdpbrowser.PermissionTypeNotifications}).
		WithOrigin(r.e.url).WithBrowserContextID(chromedp.FromContext(d).BrowserContextID), serviceworker.Enable())
	waitFor(t, "the worker's registration", func() bool { mu.Lock(); defer mu.Unlock(); return regID != "" })
	mu.Lock()
	id := regID
	mu.Unlock()
	msg := `{"title":"Your move against Bo","body":"Bo passed. Score 10–20.","title_key":"pushTurnTitle","title_args":["Bo"],` +
		`"body_key":"pushPassed","body_args":["Bo","10","20"],"lang":"es","url":"/g/0123456789abcdef","tag":"g-0123456789abcdef"}`
	r.poll(d, "notifications allowed", `Notification.permission === "granted"`, 10*time.Second)
	// deliver delivers a push message to the worker and returns the
	// notifications of tag it shows (title|body|tag|address). The
	// browser's delivery through DevTools drops a message now and then
	// (about one run in eight): it is sent again, as a push service
	// would, and the tag keeps it one notification.
	deliver := func(msg, tag string) []string {
		t.Helper()
		count := fmt.Sprintf(`(navigator.serviceWorker.ready.then((reg) => reg.getNotifications({ tag: %q })).then((ns) => {
			window.shown = ns.map((n) => [n.title, n.body, n.tag, n.data && n.data.url].join("|")); }), (window.shown || []).length)`, tag)
		r.eval(d, `window.shown = null`, nil)
		for try := 0; ; try++ {
			r.run(d, "a push message", serviceworker.DeliverPushMessage(r.e.url, id, msg))
			n := 0
			for wait := time.Now().Add(3 * time.Second); n == 0 && time.Now().Before(wait); time.Sleep(100 * time.Millisecond) {
				r.eval(d, count, &n)
			}
			if n > 0 || try == 4 {
				break
			}
		}
		var shown []string
		r.eval(d, `window.shown || []`, &shown)
		return shown
	}
	if shown, want := deliver(msg, "g-0123456789abcdef"), "Te toca contra Bo|Bo pasó. Marcador 10–20.|g-0123456789abcdef|/g/0123456789abcdef"; len(shown) != 1 || shown[0] != want {
		t.Errorf("the notification shown: %q, want %q", shown, want)
	}
	// The computer's seat is named in the player's language, as the page
	// names it.
	msg = `{"title":"Your move against Computer (professional)","body":"Computer (professional) played H8 PIE for 10. Score 10–20.",` +
		`"title_key":"pushTurnTitle","title_args":["Computer (professional)"],"body_key":"pushPlaced",` +
		`"body_args":["Computer (professional)","H8 PIE","10","10","20"],"lang":"es","url":"/g/fedcba9876543210","tag":"g-fedcba9876543210"}`
	if shown, want := deliver(msg, "g-fedcba9876543210"), "Te toca contra Ordenador (Profesional)|Ordenador (Profesional) jugó H8 PIE por 10. Marcador 10–20.|g-fedcba9876543210|/g/fedcba9876543210"; len(shown) != 1 || shown[0] != want {
		t.Errorf("the notification of a game against the computer: %q, want %q", shown, want)
	}
	// Vowels first: a new rack is laid out so.
	choose(d, "#set-rack-order", "vowels")
	choose(d, "#set-theme", "")
	r.clickAt(d, `#settings-form button[type=submit]`)
	r.poll(d, "light again", `document.documentElement.dataset.theme === undefined && document.documentElement.dataset.board === "felt"`, 5*time.Second)
	deadline = time.Now().Add(10 * time.Second)
	for {
		text, _ := r.e.st.Settings(t.Context(), AccountKey("Ana"))
		if text == `{"board":"felt","tiles":"slate","rack_order":"vowels"}` {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the account's settings after the device's changes: %q", text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.run(d, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(d, "the form", `document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	r.seedNextGame(d, 9)
	r.clickAt(d, "#create")
	r.run(d, "the game", chromedp.WaitVisible(`#rack .tile`))
	r.waitTurn(d, 0, 0)
	rack := strings.Split(r.rackOrder(d), ",")
	vowels := 0
	for vowels < len(rack) && strings.Contains("AEIOU", rack[vowels]) {
		vowels++
	}
	r.shot(d, "62-board-felt-slate")
	rest := rack[vowels:]
	if q := slices.Index(rest, "?"); q >= 0 && q != len(rest)-1 {
		t.Errorf("the rack %v: a blank before the last place", rack)
	}
	for i, l := range rest {
		if strings.Contains("AEIOU", l) || i > 0 && l != "?" && l < rest[i-1] || !slices.IsSorted(rack[:vowels]) {
			t.Errorf("the rack %v is not laid out vowels first, each part in the alphabet's order", rack)
			break
		}
	}
}

// TestBrowserRatedComputer makes a rated game against the computer in
// the lobby, checks the game's page (rated, against the computer, the
// level's rating by its name), resigns it, and reads the player's one
// rating change, the rating on the player's page and the leaderboard of
// ratings against the computer.
func TestBrowserRatedComputer(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Ana" && document.querySelectorAll("#opponent option").length > 3`, 20*time.Second)
	r.run(c, "the inhuman level", chromedp.SetValue("#opponent", "computer:inhuman"), chromedp.Evaluate(`$("#opponent").dispatchEvent(new Event("change"))`, nil))
	r.clickAt(c, "#rated")
	var desc string
	r.eval(c, `$("#rated-desc").textContent`, &desc)
	if !strings.HasSuffix(desc, "Inhuman plays at a fixed rating of 1787.") {
		t.Errorf("the form says %q", desc)
	}
	r.clickAt(c, "#create")
	r.run(c, "the game", chromedp.WaitVisible(`#rack .tile`))
	id, _ := r.pageGame(c)
	var page struct{ Tag, Seats string }
	r.poll(c, "the seats", `document.querySelectorAll("#scores .seat").length === 2`, 10*time.Second)
	r.eval(c, `({Tag: $("#rated-tag").offsetParent ? $("#rated-badge").textContent : "", Seats: $("#scores").textContent})`, &page)
	if page.Tag != "Rated · Against the computer" || !strings.Contains(page.Seats, "(1787)") {
		t.Errorf("the rated game's page: %+v", page)
	}
	r.clickAt(c, "#resign")
	r.poll(c, "the resign dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.clickAt(c, "#ask-ok")
	r.poll(c, "the end", `G.st.over && !$("#result").hidden`, 10*time.Second)
	st := r.e.state(id, "")
	if len(st.RatingChanges) != 1 || st.RatingChanges[0].Before != 1500 || st.RatingChanges[0].After >= 1500 {
		t.Fatalf("rating changes %+v: want Ana's alone, down from 1500", st.RatingChanges)
	}
	after := st.RatingChanges[0].After
	var lines []string
	r.eval(c, `[...document.querySelectorAll("#rating-changes li")].map((li) => li.className + " " + li.textContent)`, &lines)
	if want := fmt.Sprintf("down Ana 1500 → %d (−%d)", after, 1500-after); len(lines) != 1 || lines[0] != want {
		t.Errorf("the page's rating changes %q, want %q", lines, want)
	}
	r.run(c, "Ana's page", chromedp.Navigate(r.e.url+"/p/Ana"))
	r.poll(c, "her ratings", `document.querySelectorAll("#profile-ratings tbody tr").length === 1`, 20*time.Second)
	var row string
	r.eval(c, `$("#profile-ratings tbody tr").textContent`, &row)
	if !strings.Contains(row, "Against the computer") || !strings.Contains(row, fmt.Sprint(after)) {
		t.Errorf("Ana's rating row reads %q", row)
	}
	// Her games against the computer, level by level.
	var level []string
	r.eval(c, `[...document.querySelectorAll("#profile-computer tbody td")].map((td) => td.textContent)`, &level)
	if sc := r.e.state(id, ""); len(level) != 4 || level[0] != "Inhuman" || level[1] != "1" || level[2] != "0–1–0" ||
		level[3] != fmt.Sprintf("%d.0 – %d.0", sc.Seats[0].Score, sc.Seats[1].Score) {
		t.Errorf("Ana's games against the computer: %q", level)
	}
	// Her games against one level, and what they add up to.
	r.poll(c, "the level filter", `[...$("#games-level").options].some((o) => o.value === "inhuman")`, 10*time.Second)
	r.run(c, "the games against inhuman", chromedp.SetValue("#games-level", "inhuman"), chromedp.Evaluate(`$("#games-level").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "the stats against inhuman", `$("#profile-stats").textContent.startsWith("Against Computer (Inhuman): Games: 1 · won 0, lost 1, drawn 0 (0%).")`, 10*time.Second)
	r.run(c, "the games against adept", chromedp.SetValue("#games-level", "adept"), chromedp.Evaluate(`$("#games-level").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "none against adept", `$("#profile-stats").textContent === "No game matches."`, 10*time.Second)
	r.run(c, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(c, "the leaderboard's paces", `[...$("#leaders-pace").options].some((o) => o.value === "computer")`, 20*time.Second)
	r.run(c, "the leaderboard against the computer", chromedp.SetValue("#leaders-pace", "computer"), chromedp.Evaluate(`$("#leaders-pace").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "Ana on it", `!$("#leaders").hidden && $("#leaders").textContent.includes("Ana")`, 20*time.Second)
}

// TestBrowserHint asks for hints in a casual game against the computer:
// the best play's score, then where it goes, then the play laid on the
// board (the same as the server's analysis, its preview the same score),
// played; the count of hints used on the button; and no Hint in a game
// between people.
func TestBrowserHint(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	id, tok := r.lobbyGame(c, "Ren", 9)
	var label string
	r.eval(c, `$("#hint").offsetParent ? $("#hint").textContent : ""`, &label)
	if label != "Hint" {
		t.Fatalf("the Hint button reads %q", label)
	}
	var an AnalyzeResponse
	if code := r.e.do("POST", "/api/analyze", tok, AnalyzeRequest{Game: id, Top: 1, Millis: 1000}, &an); code != 200 || len(an.Candidates) != 1 || an.Candidates[0].Kind != "place" {
		t.Fatalf("the server's analysis: %d %+v", code, an)
	}
	best := an.Candidates[0]
	msg := func() string {
		var m string
		r.eval(c, `$("#message").textContent`, &m)
		return m
	}
	r.clickAt(c, "#hint")
	r.poll(c, "the first hint", `$("#message").textContent.startsWith("Hint: the best play")`, 10*time.Second)
	if got, want := msg(), fmt.Sprintf("Hint: the best play scores %d points. Hint again shows where it goes.", best.Score); got != want {
		t.Errorf("the first hint reads %q, want %q", got, want)
	}
	r.eval(c, `$("#hint").textContent`, &label)
	if label != "Hint (1 used)" {
		t.Errorf("after a hint the button reads %q", label)
	}
	r.clickAt(c, "#hint")
	first := string(rune('A'+*best.Tiles[0].Col)) + fmt.Sprint(*best.Tiles[0].Row+1)
	dir := "down"
	if best.Move[0] >= '0' && best.Move[0] <= '9' {
		dir = "across"
	}
	if got, want := msg(), fmt.Sprintf("Hint: its first new tile goes on %s, %s, and it plays %d of your tiles. Hint again lays it on the board.", first, dir, len(best.Tiles)); got != want {
		t.Errorf("the second hint reads %q, want %q", got, want)
	}
	r.clickAt(c, "#hint")
	if got, want := msg(), fmt.Sprintf("Hint: %s for %d points, laid on the board: press Play to play it.", best.Move, best.Score); got != want {
		t.Errorf("the third hint reads %q, want %q", got, want)
	}
	var pending []PlacedTile
	r.eval(c, `G.pending.map((p) => ({row: p.row, col: p.col, letter: p.letter, blank: p.blank}))`, &pending)
	if len(pending) != len(best.Tiles) {
		t.Fatalf("the hint laid %+v, the analysis %+v", pending, best.Tiles)
	}
	for i, p := range pending {
		if bt := best.Tiles[i]; p.Row != *bt.Row || p.Col != *bt.Col || p.Letter != bt.Letter || p.Blank != bt.Blank {
			t.Errorf("tile %d laid %+v, the analysis's %+v", i, p, bt)
		}
	}
	r.poll(c, "its preview", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, best.Score), 10*time.Second)
	r.shot(c, "63-hint")
	r.clickAt(c, "#submit")
	r.waitTurn(c, 0, 2)
	if st := r.e.state(id, ""); st.Seats[0].Score != best.Score {
		t.Errorf("after playing the hint the score is %d, want %d", st.Seats[0].Score, best.Score)
	}
	r.eval(c, `$("#hint").textContent + "|" + $("#hint").disabled`, &label)
	if label != "Hint (1 used)|false" {
		t.Errorf("on the next turn the button reads %q", label)
	}
	r.clickAt(c, "#hint")
	r.poll(c, "a hint of the next turn", `$("#hint").textContent === "Hint (2 used)" && $("#message").textContent.startsWith("Hint: ")`, 10*time.Second)

	// Between people: no hints.
	pid := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a := r.e.join(pid)
	r.e.join(pid)
	r.run(c, "a game between people", chromedp.Navigate(r.e.url+"/g/"+pid+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	var shown bool
	r.eval(c, `!!$("#hint").offsetParent`, &shown)
	if shown {
		t.Error("a game between people offers hints")
	}
}

// TestBrowserWatchersNamed: a player's page names the signed-in
// watchers beside their count.
func TestBrowserWatchersNamed(t *testing.T) {
	watcherPeriods(t, 0, 0, 20*time.Second) // every read records and counts
	r := newRig(t)
	c := r.ctx
	id := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a := r.e.join(id)
	r.e.join(id)
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(c, "#signin-open", "Ana", "anagrams1", "#signup-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Ana"`, 20*time.Second)
	r.run(c, "watch the game", chromedp.Navigate(r.e.url+"/g/"+id), chromedp.WaitVisible(`#board`))
	p := r.newDevice()
	r.run(p, "the player's page", chromedp.Navigate(r.e.url+"/g/"+id+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	r.poll(p, "Ana named", `!$("#watching").hidden && $("#watching").textContent === "Watching: 1 (Ana)" && $("#watching a").getAttribute("href") === "/p/Ana"`, 10*time.Second)
}

// TestBrowserCoach turns the coach on in the settings and plays the
// computer's own choice in a game against it: the coach's verdict on the
// move shows under the message, the move the best found.
func TestBrowserCoach(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	id, tok := r.lobbyGame(c, "Ren", 9)
	r.clickAt(c, "#settings-open")
	r.poll(c, "the settings' dialog", `!!document.querySelector("#settings-dialog[open]")`, 5*time.Second)
	r.clickAt(c, "#set-coach")
	r.clickAt(c, `#settings-form button[type=submit]`)
	var an AnalyzeResponse
	if code := r.e.do("POST", "/api/analyze", tok, AnalyzeRequest{Game: id, Top: 1, Millis: 1000}, &an); code != 200 || len(an.Candidates) != 1 || an.Candidates[0].Kind != "place" {
		t.Fatalf("the server's analysis: %d %+v", code, an)
	}
	tiles, _ := json.Marshal(an.Candidates[0].Tiles)
	r.eval(c, fmt.Sprintf(`(showCandidate({tiles: %s}), true)`, tiles), new(bool))
	r.poll(c, "its preview", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, an.Candidates[0].Score), 10*time.Second)
	r.clickAt(c, "#submit")
	r.poll(c, "the coach's verdict", `!$("#coach").hidden && $("#coach").textContent.startsWith("Coach: The move played, ")`, 20*time.Second)
	var line string
	r.eval(c, `$("#coach").textContent`, &line)
	if !strings.Contains(line, "is the best found: ") && !strings.Contains(line, "points given up.") {
		t.Errorf("the coach says %q", line)
	}
	if !strings.Contains(line, an.Candidates[0].Move[strings.Index(an.Candidates[0].Move, " ")+1:]) {
		t.Errorf("the coach's verdict %q does not name the move played, %s", line, an.Candidates[0].Move)
	}
	r.shot(c, "64-coach")
	// A busy minute of analyses: the coach says it has no verdict.
	for k := 0; k < 8; k++ {
		r.e.do("POST", "/api/analyze", tok, AnalyzeRequest{Game: id, Millis: 100}, nil)
	}
	r.waitTurn(c, 0, 2)
	st := r.e.state(id, tok)
	req, _ := bestRequest(t, st)
	if code := r.e.do("POST", "/api/games/"+id+"/move", tok, req, nil); code != 200 {
		t.Fatalf("the second move: %d", code)
	}
	r.poll(c, "no verdict", `$("#coach").textContent === "Coach: no verdict on this move (at most 6 analyses a minute)."`, 20*time.Second)
}

// TestBrowserLeaves values leaves in the word tools' page: a whole rack's
// best and worst sub-leaves and best by tiles kept, then a leave's value.
func TestBrowserLeaves(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	r.run(c, "the word finder", chromedp.Navigate(r.e.url+"/words"), chromedp.WaitVisible(`#leaves-rack`))
	r.poll(c, "its word lists", `$("#finder-lexicon").value === "en-sowpods"`, 10*time.Second)
	r.run(c, "a rack", chromedp.SendKeys("#leaves-rack", "aeinrst"))
	r.clickAt(c, "#leaves-go")
	r.poll(c, "its sub-leaves", `$("#leaves-out").children.length === 4`, 10*time.Second)
	var lines []string
	r.eval(c, `[...$("#leaves-out").children].map((p) => p.textContent)`, &lines)
	want := []string{"AEINRST is a whole rack: what keeping part of it is worth.",
		"Best to keep: AEINST +30.50, AENRST +30.25, AEIRST +30.25, EINRST +28.50, AERST +26.75",
		"Worst to keep: I +0.75, N +1.00, T +1.00, AI +1.50, A +1.50",
		"Best by tiles kept: 1: S +8.00 · 2: ES +11.75 · 3: ERS +16.50 · 4: ERST +20.75 · 5: AERST +26.75 · 6: AEINST +30.50"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the leave tool says\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	r.run(c, "a leave", chromedp.Evaluate(`$("#leaves-rack").value = ""`, nil), chromedp.SendKeys("#leaves-rack", "qu?"))
	r.clickAt(c, "#leaves-go")
	r.poll(c, "its value", `$("#leaves-out p").textContent === "QU? is worth +27.50 points kept."`, 10*time.Second)
	r.run(c, "too many Qs", chromedp.Evaluate(`$("#leaves-rack").value = ""`, nil), chromedp.SendKeys("#leaves-rack", "qq"))
	r.clickAt(c, "#leaves-go")
	r.poll(c, "refused", `$("#leaves-msg").className === "error" && $("#leaves-msg").textContent.includes("the set holds 1") && $("#leaves-out").textContent === ""`, 10*time.Second)
}

// TestBrowserTakeback: in a game against the computer, Take back shows
// once the player has moved, takes back the move and the computer's
// reply to the position the move was made from, says so, and counts the
// game's takebacks; a game between people offers none.
func TestBrowserTakeback(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	id, tok := r.lobbyGame(c, "Ren", 9)
	var shown bool
	r.eval(c, `!!$("#takeback").offsetParent`, &shown)
	if shown {
		t.Error("Take back shows before the first move")
	}
	start := r.e.state(id, tok)
	req, _ := bestRequest(t, start)
	if code := r.e.do("POST", "/api/games/"+id+"/move", tok, req, nil); code != 200 {
		t.Fatalf("move: %d", code)
	}
	r.waitTurn(c, 0, 2)
	var label string
	r.poll(c, "the button", `!!$("#takeback").offsetParent`, 10*time.Second)
	r.eval(c, `$("#takeback").textContent`, &label)
	if label != "Take back" {
		t.Errorf("the button reads %q", label)
	}
	r.clickAt(c, "#takeback")
	r.poll(c, "the takeback", `G.st.moves === 0 && $("#message").textContent === "Your last move is taken back, with what followed it: your turn again."`, 10*time.Second)
	if got, want := positionOf(t, r.e.state(id, tok)), positionOf(t, start); got != want {
		t.Errorf("after the takeback:\n got %s\nwant %s", got, want)
	}
	var rack []string
	r.eval(c, `G.rack.map((x) => x.letter + (x.blank ? "?" : "")).sort()`, &rack)
	var want []string
	for _, tl := range start.You.Rack {
		if tl.Blank {
			tl.Letter += "?"
		}
		want = append(want, tl.Letter)
	}
	slices.Sort(want)
	if !slices.Equal(rack, want) {
		t.Errorf("the page's rack after the takeback: %v, want %v", rack, want)
	}
	r.eval(c, `!!$("#takeback").offsetParent`, &shown)
	if shown {
		t.Error("Take back shows with no move left to take back")
	}
	if code := r.e.do("POST", "/api/games/"+id+"/move", tok, req, nil); code != 200 {
		t.Fatalf("the move again: %d", code)
	}
	r.waitTurn(c, 0, 2)
	r.poll(c, "the count", `$("#takeback").textContent === "Take back (1 used)"`, 10*time.Second)
	r.shot(c, "65-takeback")
	// The end of the game says how many moves were taken back.
	if code := r.e.do("POST", "/api/games/"+id+"/resign", tok, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	r.poll(c, "the result", `!$("#result").hidden && $("#result").textContent.includes("Moves taken back in this game: 1.")`, 10*time.Second)

	pid := r.e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a := r.e.join(pid)
	r.e.join(pid)
	req, _ = bestRequest(t, r.e.state(pid, a.Token))
	if code := r.e.do("POST", "/api/games/"+pid+"/move", a.Token, req, nil); code != 200 {
		t.Fatalf("a move between people: %d", code)
	}
	// Seen by the player who moved.
	r.run(c, "a game between people", chromedp.Navigate(r.e.url+"/g/"+pid+"#seat="+a.Token), chromedp.WaitVisible(`#rack .tile`))
	r.eval(c, `!!$("#takeback").offsetParent`, &shown)
	if shown {
		t.Error("a game between people offers takebacks")
	}
}

// TestBrowserEndgame: the lobby's link to the endgame of the day, an
// endgame puzzle's page (its goal, Pass offered, the links to the
// others), the highest-scoring play answered wrong with what it and the
// best move gain, the best move then right, the line of play with Show,
// and the solution asked for.
func TestBrowserEndgame(t *testing.T) {
	r := newRigWith(t, func(cfg *Config) {
		// An endgame puzzle's searches cut the word list with a GADDAG.
		cfg.NewGenerator = func(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewGaddag(lex) }
	})
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.poll(c, "the endgame link", `$("#endgame-link").getAttribute("href") === "/endgame/en-sowpods/today" && $("#endgame-link").textContent === "Endgame of the day"`, 20*time.Second)
	// Signed in: the first answer is kept.
	r.signInDialog(c, "#signin-open", "Eve", "correct horse", "#signup-go")
	r.poll(c, "signed up", `!$("#me-link").hidden`, 10*time.Second)
	var sol EndgameAnswer
	if code := r.e.do("POST", "/api/endgames/en-sowpods/5/answer", "", map[string]any{"reveal": true}, &sol); code != 200 || len(sol.Line) == 0 || sol.Line[0].Kind != "place" {
		t.Fatalf("endgame 5's solution: %d %+v", code, sol)
	}
	r.run(c, "endgame 5", chromedp.Navigate(r.e.url+"/endgame/en-sowpods/5"))
	r.poll(c, "the endgame's page", `!$("#puzzle").hidden && document.querySelectorAll("#rack .tile").length >= 3 && document.querySelectorAll("#board .sq .tile").length > 0`, 30*time.Second)
	var page struct {
		Title, Goal, Prev, Next string
		Pass, Rating            bool
	}
	r.eval(c, `({Title: $("#puzzle-title").textContent, Goal: $("#puzzle-goal").textContent,
		Prev: $("#puzzle-prev").hidden ? "" : $("#puzzle-prev").getAttribute("href"), Next: $("#puzzle-next").hidden ? "" : $("#puzzle-next").getAttribute("href"),
		Pass: !!$("#pass").offsetParent, Rating: !!$("#puzzle-rating").offsetParent})`, &page)
	if !strings.HasPrefix(page.Title, "Endgame 5 · ") || !strings.HasPrefix(page.Goal, "The bag is empty") || page.Prev != "/endgame/en-sowpods/4" ||
		page.Next != "/endgame/en-sowpods/6" || !page.Pass || !page.Rating {
		t.Errorf("the endgame's page: %+v", page)
	}
	var ratingLine string
	r.eval(c, `$("#puzzle-rating").textContent`, &ratingLine)
	if ratingLine != "No endgame rating yet: your first answer gives you one" {
		t.Errorf("the endgame's rating line before an answer: %q", ratingLine)
	}
	if s := r.axe(c, "an endgame puzzle"); s < 90 {
		t.Errorf("an endgame puzzle's page scores %.0f in the accessibility checks, want at least 90", s)
	}
	// The highest-scoring play, laid by the page's Show, is wrong.
	play := func(m EndgameMove) {
		t.Helper()
		tiles, _ := json.Marshal(m.Tiles)
		r.run(c, "lay "+m.Move, chromedp.Evaluate(`showCandidate({tiles: `+string(tiles)+`})`, nil))
		r.poll(c, "its preview", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, m.Score), 10*time.Second)
		r.clickAt(c, "#submit")
	}
	play(sol.Top)
	r.poll(c, "the verdict", `$("#puzzle-result p.error") !== null`, 20*time.Second)
	var verdict string
	r.eval(c, `$("#puzzle-result").textContent`, &verdict)
	for _, want := range []string{fmt.Sprintf("gains %s to the end; the best move gains %s.", signed(sol.TopValue), signed(sol.Best)),
		fmt.Sprintf("The highest-scoring play, %s for %d, gains %s.", sol.Top.Move, sol.Top.Score, signed(sol.TopValue)), "The best line"} {
		if !strings.Contains(verdict, want) {
			t.Errorf("the verdict on the top play %q lacks %q", verdict, want)
		}
	}
	r.poll(c, "the first answer kept", fmt.Sprintf(`$("#puzzle-record").textContent === "Your first answer to this one gained %s to the end: not the most."`, signed(sol.TopValue)), 10*time.Second)
	r.eval(c, `$("#puzzle-result").textContent`, &verdict)
	if !strings.Contains(verdict, "Players with an account who answered it: 1; solved at the first try: 0.") {
		t.Errorf("the verdict %q lacks the counts", verdict)
	}
	// The answer is rated: a loss against the puzzle.
	r.poll(c, "the rating", `/^Your endgame rating: 1500 → 1[0-4][0-9][0-9] \(−[0-9]+\) · this puzzle is rated 1[5-9][0-9][0-9] \(answers: 1\)$/.test($("#puzzle-rating").textContent)`, 10*time.Second)
	r.shot(c, "66-endgame-wrong")
	// The best move, by the line's Show: right.
	r.clickAt(c, "#puzzle-result tbody tr:first-child button")
	r.poll(c, "the best move laid", fmt.Sprintf(`$("#preview").dataset.score === "%d"`, sol.Line[0].Score), 10*time.Second)
	r.clickAt(c, "#submit")
	r.poll(c, "right", `$("#puzzle-result p.ok") !== null`, 20*time.Second)
	r.eval(c, `$("#puzzle-result p.ok").textContent`, &verdict)
	if want := fmt.Sprintf("gains %s to the end, the most.", signed(sol.Best)); !strings.HasPrefix(verdict, "Right: ") || !strings.HasSuffix(verdict, want) {
		t.Errorf("the verdict on the best move: %q, want it to end %q", verdict, want)
	}
	r.clickAt(c, "#puzzle-reveal")
	r.poll(c, "the solution", fmt.Sprintf(`$("#puzzle-result p").textContent === "The best move gains %s to the end."`, signed(sol.Best)), 20*time.Second)
	var level string
	r.eval(c, `$("#puzzle-level").hidden ? "" : $("#puzzle-level").textContent`, &level)
	if level != "An endgame at your level" {
		t.Errorf("the endgame's level button says %q", level)
	}
	// The player's page counts it.
	r.run(c, "Eve's page", chromedp.Navigate(r.e.url+"/p/Eve"))
	r.poll(c, "her puzzles", `!$("#profile-body").hidden && $("#profile-puzzles").textContent === "Endgames: 0 solved of 1 answered (first tries)"`, 10*time.Second)
	r.poll(c, "her endgame rating", `/: endgame rating 1[0-4][0-9][0-9]\?? ± [0-9]+ \(0 solved of 1\)$/.test($("#profile-puzzle-ratings").textContent)`, 10*time.Second)
	// The lobby's leaderboard of endgame ratings lists her.
	r.run(c, "the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#create`))
	r.run(c, "endgame ratings", chromedp.SetValue("#leaders-kind", "endgames"), chromedp.Evaluate(`$("#leaders-kind").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "the endgame leaderboard", `$("#leaders-caption").textContent.startsWith("The highest endgame ratings in") && $("#leaders tbody").textContent.includes("Eve")`, 10*time.Second)
	// An endgame at her level, from the puzzle card: not the one she
	// answered (the others are all unrated: today's).
	r.run(c, "an endgame at her level", chromedp.Click("#endgame-level-lobby", chromedp.ByQuery), chromedp.WaitVisible("#puzzle-rating", chromedp.ByQuery))
	r.poll(c, "an endgame at her level", fmt.Sprintf(`location.pathname === "/endgame/en-sowpods/%d" && !$("#puzzle").hidden`, puzzle.Today(time.Now())), 20*time.Second)
}

// signed writes a spread as the page does.
func signed(n int) string {
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return "±0"
}

// TestBrowserWordListTitle: a word list of the operator's own shows under
// the title --word-list-title gave it, in the new game's form and the
// word judge, whatever the page's language.
func TestBrowserWordListTitle(t *testing.T) {
	list := filepath.Join(t.TempDir(), "tiny.txt")
	if err := os.WriteFile(list, []byte("cat\ndog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRigWith(t, func(cfg *Config) {
		cfg.WordLists = map[string]string{"en-tiny": list}
		cfg.WordListTitles = map[string]string{"en-tiny": "Tiny (a test list)"}
	})
	c := r.ctx
	r.run(c, "open the lobby", chromedp.Navigate(r.e.url+"/"), chromedp.WaitVisible(`#lexicon`))
	titles := `[...document.querySelectorAll("#lexicon option, #judge-lexicon option")].filter((o) => o.value === "en-tiny").map((o) => o.textContent).join("|")`
	r.poll(c, "the title in the forms", titles+` === "Tiny (a test list)|Tiny (a test list)"`, 10*time.Second)
	r.run(c, "in Spanish", chromedp.SetValue("#lang-select", "es"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "the title in Spanish", `[...document.querySelectorAll("#lexicon option")].some((o) => o.value === "en-sowpods" && o.textContent.includes("inglés")) && `+titles+` === "Tiny (a test list)|Tiny (a test list)"`, 10*time.Second)
}

// TestBrowserPractice: a finished game's summary links each player's
// mistakes; the link opens the position before the first one with the
// rack held then; the answer asked for lists the best moves and what the
// move played gave up; the best, shown and played, is right; the next
// mistake and the way back to the game are links; in Spanish nothing is
// left in English.
func TestBrowserPractice(t *testing.T) {
	r := newRig(t)
	c := r.ctx
	e := r.e
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	playOut(t, e, id, toks, 200)
	var sum Summary
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	seat := -1
	for _, ss := range sum.Seats {
		if len(ss.Mistakes) >= 2 {
			seat = ss.Seat
			break
		}
	}
	if seat < 0 {
		t.Fatalf("no player made two mistakes: %+v", sum.Seats)
	}
	ms := sum.Seats[seat].Mistakes
	r.run(c, "the finished game", chromedp.Navigate(e.url+"/g/"+id))
	r.poll(c, "the practice links", `document.querySelectorAll("#practice-links a").length > 0`, 20*time.Second)
	var links []string
	r.eval(c, `[...document.querySelectorAll("#practice-links a")].map((a) => a.getAttribute("href") + " " + a.textContent)`, &links)
	want := fmt.Sprintf("/g/%s/practice/%d Practise Ana's %d mistakes", id, ms[0].Move, len(ms))
	if !slices.Contains(links, want) {
		t.Fatalf("the practice links %q, want one %q", links, want)
	}
	r.run(c, "the link", chromedp.Navigate(e.url+strings.Fields(want)[0]))
	r.poll(c, "the practice page", `!$("#puzzle").hidden && document.querySelectorAll("#rack .tile").length > 0 && $("#puzzle-title").textContent !== ""`, 20*time.Second)
	var info PracticeInfo
	if code := e.do("GET", fmt.Sprintf("/api/games/%s/practice/%d", id, ms[0].Move), "", nil, &info); code != 200 {
		t.Fatalf("practice: %d", code)
	}
	var page struct {
		Title, Goal, Next, Back string
		Prev                    bool
		Rack, Board             int
	}
	r.eval(c, `({Title: $("#puzzle-title").textContent, Goal: $("#puzzle-goal").textContent, Prev: !$("#puzzle-prev").hidden,
		Next: $("#puzzle-next").hidden ? "" : $("#puzzle-next").getAttribute("href"), Back: $("#puzzle-today").getAttribute("href") + " " + $("#puzzle-today").textContent,
		Rack: document.querySelectorAll("#rack .tile").length, Board: document.querySelectorAll("#board .sq .tile").length})`, &page)
	if page.Title != fmt.Sprintf("Move %d of %d: Ana to play", ms[0].Move+1, info.Moves) || !strings.HasPrefix(page.Goal, "In the game ") ||
		page.Prev || page.Next != fmt.Sprintf("/g/%s/practice/%d", id, ms[1].Move) || page.Back != "/g/"+id+" Back to the game" ||
		page.Rack != len(info.State.You.Rack) || page.Board != len(info.State.Board) {
		t.Errorf("the practice page: %+v", page)
	}
	r.clickAt(c, "#puzzle-reveal")
	r.poll(c, "the solution", `document.querySelectorAll("#puzzle-result tbody tr").length > 0`, 10*time.Second)
	var lines []string
	r.eval(c, `[...document.querySelectorAll("#puzzle-result p")].map((p) => p.textContent)`, &lines)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "The best of ") || !strings.HasSuffix(lines[1], fmt.Sprintf("%.1f below the best.", ms[0].Lost)) {
		t.Errorf("the solution says %q", lines)
	}
	var firstKind string
	r.eval(c, `$("#puzzle-result tbody tr:nth-child(1) button") ? "place" : "other"`, &firstKind)
	if firstKind == "place" {
		r.clickAt(c, "#puzzle-result tbody tr:nth-child(1) button")
		r.poll(c, "its preview", `!!$("#preview").dataset.score`, 10*time.Second)
		r.clickAt(c, "#submit")
		r.poll(c, "right", `$("#puzzle-result p").className === "ok"`, 10*time.Second)
		r.eval(c, `$("#puzzle-result p").textContent`, &lines[0])
		if !strings.HasSuffix(lines[0], "as good as the best.") {
			t.Errorf("the best move: the page says %q", lines[0])
		}
	}
	r.shot(c, "60-practice")
	// A pass is an answer too (after the page's own question).
	var shown []bool
	r.eval(c, `[!!$("#exchange").offsetParent, !!$("#pass").offsetParent]`, &shown)
	if !slices.Equal(shown, []bool{true, true}) {
		t.Errorf("Exchange and Pass shown: %v", shown)
	}
	r.clickAt(c, "#pass")
	r.poll(c, "the pass dialog", `!!document.querySelector("#ask-dialog[open]")`, 5*time.Second)
	r.clickAt(c, "#ask-ok")
	r.poll(c, "the pass valued", `$("#puzzle-result p").textContent.startsWith("– : equity ") || $("#puzzle-result p").textContent.startsWith("–: equity ")`, 10*time.Second)
	r.run(c, "in Spanish", chromedp.SetValue("#lang-select", "es"), chromedp.Evaluate(`$("#lang-select").dispatchEvent(new Event("change"))`, nil))
	r.poll(c, "the Spanish page", `$("#puzzle-today").textContent === "Volver a la partida" && $("#puzzle-title").textContent.startsWith("Jugada ")`, 10*time.Second)
	if left := r.englishLeft(c); len(left) > 0 {
		t.Errorf("English on the Spanish practice page: %q", left)
	}
	r.run(c, "the next mistake", chromedp.Navigate(e.url+page.Next))
	r.poll(c, "the next mistake", fmt.Sprintf(`location.pathname === "/g/%s/practice/%d" && $("#puzzle-title").textContent.startsWith("Jugada %d ")`, id, ms[1].Move, ms[1].Move+1), 20*time.Second)
}

// TestBrowserPracticeOwnGames: on one's own page, a game whose moves gave
// up a mistake's worth of equity links its practice, which opens the
// first mistake of one's seat; a seat without mistakes says so.
func TestBrowserPracticeOwnGames(t *testing.T) {
	r := newRig(t)
	e := r.e
	ana, bob := browser(t), browser(t)
	e.signUp(ana, "Anna", "correct horse")
	e.signUp(bob, "Bobby", "battery staple")
	var cr CreateResponse
	if code := e.doWith(ana, "POST", "/api/games", "", map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "seed": 42}, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var ja, jb JoinResponse
	e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &ja)
	e.doWith(bob, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 1}, &jb)
	playOut(t, e, cr.ID, []string{ja.Token, jb.Token}, 200)
	waitAnalysed(t, e.st, cr.ID)
	var sum Summary
	if code := e.do("GET", "/api/games/"+cr.ID+"/summary", "", nil, &sum); code != 200 || len(sum.Seats[0].Mistakes) == 0 {
		t.Fatalf("summary: %d, Anna's mistakes %+v", code, sum.Seats)
	}
	c := r.ctx
	r.run(c, "the lobby", chromedp.Navigate(e.url+"/"), chromedp.WaitVisible(`#create`))
	r.signInDialog(c, "#signin-open", "Anna", "correct horse", "#signin-go")
	r.poll(c, "signed in", `$("#me-link").textContent === "Anna"`, 10*time.Second)
	r.run(c, "her page", chromedp.Navigate(e.url+"/p/Anna"), chromedp.WaitVisible(`#profile-body`))
	r.poll(c, "the practise link", `!!document.querySelector("#profile-games a.practise")`, 10*time.Second)
	var href string
	r.eval(c, `document.querySelector("#profile-games a.practise").getAttribute("href")`, &href)
	if href != "/g/"+cr.ID+"/practice?seat=0" {
		t.Fatalf("the practise link: %q", href)
	}
	r.run(c, "the link", chromedp.Navigate(e.url+href))
	r.poll(c, "the first mistake", fmt.Sprintf(`location.pathname === "/g/%s/practice/%d" && !$("#puzzle").hidden && $("#puzzle-title").textContent.endsWith(": Anna to play")`,
		cr.ID, sum.Seats[0].Mistakes[0].Move), 20*time.Second)
	// Bobby's page shows Anna no link; a seat without mistakes says so.
	r.run(c, "his page", chromedp.Navigate(e.url+"/p/Bobby"), chromedp.WaitVisible(`#profile-body`))
	r.poll(c, "his games", `document.querySelectorAll("#profile-games tbody tr").length === 1 && !document.querySelector("#profile-games a.practise")`, 10*time.Second)
	if len(sum.Seats[1].Mistakes) == 0 {
		r.run(c, "none", chromedp.Navigate(e.url+"/g/"+cr.ID+"/practice?seat=1"))
		r.poll(c, "no mistake", `$("#main").textContent.startsWith("No move of this player")`, 10*time.Second)
	}
	r.run(c, "no such seat", chromedp.Navigate(e.url+"/g/"+cr.ID+"/practice?seat=7"))
	r.poll(c, "no mistake", `$("#main").textContent.startsWith("No move of this player") && $("#main a").getAttribute("href") === "/g/`+cr.ID+`"`, 10*time.Second)
}
