package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/png"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"atril/boardimage"
)

// The page's files are served from memory, read once when the server
// starts: each with an ETag made from its content, so that a browser
// asks again with If-None-Match and gets 304 instead of the file; in
// gzip form, made once, to a client that accepts it (the page's
// JavaScript and text shrink to about a quarter); and the page itself
// (index.html) names its scripts and style sheet with their version
// (/static/app.js?v=…), which a browser may keep for a year without
// asking: a new version is a new address. Anything else is answered
// no-cache (kept, but checked each time).

// staticFile is one of the page's files, ready to serve.
type staticFile struct {
	name    string
	ctype   string
	data    []byte
	gz      []byte // nil when gzip saves nothing worth it
	etag    string // quoted, of data
	gzEtag  string // quoted, of gz
	version string // of data, for the page's addresses
}

// staticFiles are the page's files by name.
type staticFiles map[string]*staticFile

// immutableAge is how long a browser keeps a file asked for by its
// version.
const immutableAge = 365 * 24 * time.Hour

// newStaticFiles reads the files of fsys (its top directory) and makes
// them ready to serve; index.html is given its files' versions.
func newStaticFiles(fsys fs.FS) (staticFiles, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("the page's files: %w", err)
	}
	files := staticFiles{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("the page's files: %w", err)
		}
		files[e.Name()] = &staticFile{name: e.Name(), data: data}
	}
	for name, f := range files {
		if name != "index.html" {
			if err := f.prepare(); err != nil {
				return nil, err
			}
		}
	}
	if idx, ok := files["index.html"]; ok {
		// The page names each file by its version.
		for name, f := range files {
			if name != "index.html" {
				idx.data = bytes.ReplaceAll(idx.data, []byte(`"/static/`+name+`"`), []byte(`"/static/`+name+`?v=`+f.version+`"`))
			}
		}
		if err := idx.prepare(); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// prepare works out the file's type, version, ETags and gzip form.
func (f *staticFile) prepare() error {
	f.ctype = mime.TypeByExtension(path.Ext(f.name))
	if path.Ext(f.name) == ".webmanifest" {
		f.ctype = "application/manifest+json"
	}
	if f.ctype == "" {
		f.ctype = http.DetectContentType(f.data)
	}
	sum := sha256.Sum256(f.data)
	f.version = hex.EncodeToString(sum[:6])
	f.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(f.data); err != nil {
		return fmt.Errorf("gzip %s: %w", f.name, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("gzip %s: %w", f.name, err)
	}
	// Worth it when it saves a tenth and at least a packet's worth.
	if saved := len(f.data) - b.Len(); saved >= len(f.data)/10 && saved >= 1024 {
		f.gz = b.Bytes()
		f.gzEtag = `"` + hex.EncodeToString(sum[:12]) + `-gz"`
	}
	return nil
}

// serve answers a GET or HEAD of the file: 304 when the browser holds
// it, the gzip form to a client that accepts it (a range asks for the
// file itself), otherwise the file through http.ServeContent (ranges,
// HEAD).
func (f *staticFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if f.name != "index.html" && r.URL.Query().Get("v") == f.version {
		h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d, immutable", int(immutableAge.Seconds())))
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if f.gz != nil {
		h.Set("Vary", "Accept-Encoding")
	}
	if etagMatch(r.Header.Get("If-None-Match"), f.etag, f.gzEtag) {
		if f.gz != nil && acceptsGzip(r) {
			h.Set("ETag", f.gzEtag)
		} else {
			h.Set("ETag", f.etag)
		}
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.ctype)
	if f.gz != nil && acceptsGzip(r) && r.Header.Get("Range") == "" {
		h.Set("ETag", f.gzEtag)
		h.Set("Content-Encoding", "gzip")
		h.Set("Content-Length", fmt.Sprint(len(f.gz)))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(f.gz)
		}
		return
	}
	h.Set("ETag", f.etag)
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(f.data))
}

// etagMatch reports whether an If-None-Match header names one of the
// tags (or is "*").
func etagMatch(header string, tags ...string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" {
			return true
		}
		for _, tag := range tags {
			if tag != "" && t == tag {
				return true
			}
		}
	}
	return false
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip:
// named with a weight above 0, or not named and "*" is (RFC 9110,
// 12.5.3).
func acceptsGzip(r *http.Request) bool {
	gzipQ, starQ := -1.0, -1.0
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.ReplaceAll(strings.ToLower(params), " ", ""), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			gzipQ = q
		case "*":
			starQ = q
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

// serveStatic answers a request for the page's file name (404 for a
// file the page does not have).
func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request, name string) {
	f, ok := s.static[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f.serve(w, r)
}

// iconSizes are the sizes of the site's icon the page and its manifest
// name: an iPhone's home screen, and an installed app's.
var iconSizes = map[string]int{"180.png": 180, "192.png": 192, "512.png": 512}

// icons are the site's icons as PNG files, drawn once.
var icons = struct {
	once sync.Once
	m    map[string]*staticFile
	err  error
}{}

// handleIcon answers the site's icon of a size (GET /icons/192.png).
func (s *Server) handleIcon(w http.ResponseWriter, r *http.Request) {
	icons.once.Do(func() {
		icons.m = map[string]*staticFile{}
		for name, size := range iconSizes {
			img, err := boardimage.Icon(size)
			if err != nil {
				icons.err = err
				return
			}
			var b bytes.Buffer
			if err := png.Encode(&b, img); err != nil {
				icons.err = fmt.Errorf("icon %s: %w", name, err)
				return
			}
			f := &staticFile{name: name, data: b.Bytes()}
			if err := f.prepare(); err != nil {
				icons.err = err
				return
			}
			icons.m[name] = f
		}
	})
	if icons.err != nil {
		s.fail(w, icons.err)
		return
	}
	f, ok := icons.m[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f.serve(w, r)
}
