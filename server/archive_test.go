package server

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"testing"

	"atril/lexicon"
	"atril/variant"
)

// TestGamesArchive: a player's finished games come as GCG files in one
// zip archive, each the same as the game's own GCG file, whether the
// game is in the server's memory or only in the store; signed out, none.
func TestGamesArchive(t *testing.T) {
	st := newStore(t)
	e := newEnv(t, st)
	ana, bob := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bob, "Bob", "battery staple")
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "seed": 7}
	if code := e.doWith(ana, "POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var ja, jb JoinResponse
	e.doWith(ana, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &ja)
	e.doWith(bob, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 1}, &jb)
	playOut(t, e, cr.ID, []string{ja.Token, jb.Token}, 200)
	waitFor(t, "the result recorded", func() bool { _, err := st.RatedGame(context.Background(), cr.ID); return err == nil })
	resp, err := http.Get(e.url + "/api/games/" + cr.ID + "/gcg")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(want) == 0 {
		t.Fatalf("the game's GCG: %d", resp.StatusCode)
	}
	archive := func(e *testEnv, c *http.Client) map[string][]byte {
		t.Helper()
		resp, err := c.Get(e.url + "/api/me/games.zip")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zip" {
			t.Fatalf("the archive: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), data)
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			out[f.Name], _ = io.ReadAll(rc)
			rc.Close()
		}
		return out
	}
	name := regexp.MustCompile(`^\d{4}-\d\d-\d\d-Ana-Bob-` + cr.ID + `\.gcg$`)
	check := func(what string, files map[string][]byte) {
		t.Helper()
		if len(files) != 1 {
			t.Fatalf("%s: %d files, want 1", what, len(files))
		}
		for n, data := range files {
			if !name.MatchString(n) || !bytes.Equal(data, want) {
				t.Errorf("%s: %s of %d bytes, want the game's GCG file (%d bytes)\n%s", what, n, len(data), len(want), data)
			}
		}
	}
	check("Ana's archive", archive(e, ana))
	// Another server on the same store holds no game in memory: it
	// rebuilds the game from the store.
	e2 := newEnv(t, st)
	jar := ana.Jar
	check("Ana's archive from another server", archive(e2, &http.Client{Jar: jar}))
	// A server that can no longer read the game's word list leaves the
	// game out and says so.
	cfg := testConfig(st)
	cfg.LoadLexicon = func(*variant.Variant, string) (*lexicon.Lexicon, error) { return nil, errors.New("no such list here") }
	e3 := newEnvConfig(t, cfg)
	files := archive(e3, &http.Client{Jar: jar})
	if len(files) != 1 || !bytes.Contains(files["not-included.txt"], []byte(cr.ID)) {
		t.Errorf("the archive of a server without the game's list: %q", files)
	}
	// At most archivesPerHour an hour for an account (in a process).
	for range archivesPerHour - 1 {
		archive(e, ana)
	}
	if code := e.doWith(ana, "GET", "/api/me/games.zip", "", nil, nil); code != 429 {
		t.Errorf("one archive more in the hour: %d, want 429", code)
	}
	if code := e.do("GET", "/api/me/games.zip", "", nil, nil); code != 401 {
		t.Errorf("the archive signed out: %d, want 401", code)
	}
}
