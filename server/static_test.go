package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"atril/store"
	"atril/web"
)

// pageEnv starts a test server that serves the embedded page.
func pageEnv(t *testing.T) *testEnv {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := testConfig(st)
	cfg.Static = web.FS()
	return newEnvConfig(t, cfg)
}

// TestStaticFiles checks how the page's files are served: gzip to a
// client that accepts it (and the file itself to one that does not, or
// asks for a range), an ETag that a second request sends back for a 304
// without the file, the page naming its files by version, a file asked
// for by its version kept for a year and anything else checked each
// time, HEAD without a body, and 404 for a file the page lacks.
func TestStaticFiles(t *testing.T) {
	e := pageEnv(t)
	// A client that shows the bytes as sent.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(method, path string, hdr ...string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, e.url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	gunzip := func(b []byte) []byte {
		t.Helper()
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("not gzip: %v", err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	app, err := fs.ReadFile(web.FS(), "app.js")
	if err != nil {
		t.Fatal(err)
	}

	// The page, gzipped, names its files by version.
	resp, body := get("GET", "/", "Accept-Encoding", "gzip, deflate, br")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Cache-Control") != "no-cache" ||
		resp.Header.Get("Vary") != "Accept-Encoding" || resp.Header.Get("ETag") == "" {
		t.Fatalf("GET / with gzip: %d %v", resp.StatusCode, resp.Header)
	}
	page := gunzip(body)
	if len(body) >= len(page)/2 {
		t.Errorf("the page gzipped: %d bytes of %d", len(body), len(page))
	}
	m := regexp.MustCompile(`"/static/app\.js\?v=([0-9a-f]{12})"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("the page does not name app.js by version")
	}
	for _, name := range []string{"i18n.js", "settings.js", "style.css"} {
		if !regexp.MustCompile(`"/static/` + regexp.QuoteMeta(name) + `\?v=[0-9a-f]{12}"`).Match(page) {
			t.Errorf("the page does not name %s by version", name)
		}
	}
	versioned := "/static/app.js?v=" + string(m[1])

	// By its version: kept a year; as it is to a client without gzip.
	resp, body = get("GET", versioned)
	if resp.StatusCode != 200 || !bytes.Equal(body, app) || resp.Header.Get("Content-Encoding") != "" ||
		resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.Contains(resp.Header.Get("Content-Type"), "javascript") {
		t.Errorf("GET %s without gzip: %d %v, %d bytes (want %d)", versioned, resp.StatusCode, resp.Header, len(body), len(app))
	}
	plainTag := resp.Header.Get("ETag")
	// With gzip: smaller, the same once unzipped, its own ETag.
	resp, body = get("GET", versioned, "Accept-Encoding", "gzip")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(body), app) || len(body) > len(app)/3 {
		t.Errorf("GET %s with gzip: %d %v, %d bytes of %d", versioned, resp.StatusCode, resp.Header, len(body), len(app))
	}
	gzTag := resp.Header.Get("ETag")
	if gzTag == "" || gzTag == plainTag {
		t.Errorf("ETags: %q plain, %q gzipped", plainTag, gzTag)
	}
	// Another version, or none: checked each time.
	for _, path := range []string{"/static/app.js", "/static/app.js?v=000000000000"} {
		if resp, body := get("GET", path); resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" || !bytes.Equal(body, app) {
			t.Errorf("GET %s: %d %v", path, resp.StatusCode, resp.Header)
		}
	}
	// Sent back: 304 and no file, whichever form was kept.
	for _, c := range []struct{ tag, enc string }{{plainTag, ""}, {gzTag, "gzip"}, {gzTag, ""}, {`W/` + plainTag + `, "x"`, "gzip"}} {
		resp, body := get("GET", "/static/app.js", "If-None-Match", c.tag, "Accept-Encoding", c.enc)
		if resp.StatusCode != 304 || len(body) != 0 || resp.Header.Get("ETag") == "" {
			t.Errorf("If-None-Match %s, Accept-Encoding %q: %d, %d bytes", c.tag, c.enc, resp.StatusCode, len(body))
		}
	}
	if resp, _ := get("GET", "/static/app.js", "If-None-Match", `"other"`); resp.StatusCode != 200 {
		t.Errorf("If-None-Match of another file: %d", resp.StatusCode)
	}
	// gzip refused by weight, or a range: the file itself.
	for _, enc := range []string{"gzip;q=0", "gzip;q=0, *", "identity", "*;q=0"} {
		if resp, body := get("GET", "/static/app.js", "Accept-Encoding", enc); resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, app) {
			t.Errorf("Accept-Encoding %q: %v, %d bytes", enc, resp.Header, len(body))
		}
	}
	if resp, body := get("GET", "/static/app.js", "Accept-Encoding", "*"); resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(body), app) {
		t.Errorf("Accept-Encoding *: %v", resp.Header)
	}
	resp, body = get("GET", "/static/app.js", "Accept-Encoding", "gzip", "Range", "bytes=0-99")
	if resp.StatusCode != 206 || !bytes.Equal(body, app[:100]) || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("a range: %d %v, %q", resp.StatusCode, resp.Header, body)
	}
	// HEAD: the headers alone.
	for _, enc := range []string{"", "gzip"} {
		resp, body := get("HEAD", "/static/app.js", "Accept-Encoding", enc)
		if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Length") == "" {
			t.Errorf("HEAD with Accept-Encoding %q: %d %v, %d bytes", enc, resp.StatusCode, resp.Header, len(body))
		}
	}
	// A small file is not gzipped; what the page lacks is 404.
	if resp, _ := get("GET", "/static/settings.js", "Accept-Encoding", "gzip"); resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Vary") != "" {
		t.Errorf("settings.js: %v", resp.Header)
	}
	for _, path := range []string{"/static/nothing.js", "/static/", "/static/..%2fserver.go"} {
		if resp, _ := get("GET", path); resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
}
