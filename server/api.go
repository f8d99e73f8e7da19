package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"unicode/utf8"
)

// maxBody bounds every request body.
const maxBody = 16 << 10

// apiError is an error the client caused (or may retry), with its status.
type apiError struct {
	code int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

// short cuts s to at most n characters, marking the cut: an answer
// quotes only a short prefix of what a client sent.
func short(s string, n int) string {
	k := 0
	for i := range s {
		if k == n {
			return s[:i] + "…"
		}
		k++
	}
	return s
}

// maxMessage bounds the text of an error answer or a refusal.
const maxMessage = 300

// errorBody is the JSON of every error answer.
type errorBody struct {
	Error string `json:"error"`
}

// writeJSON answers v as JSON with the status code. The answer is
// encoded whole first and sent with its length in one
// write: a state is larger than the connection's buffer, and streaming
// it would cost a chunked answer and a second write.
func writeJSON(w http.ResponseWriter, code int, v any) {
	buf := jsonBufs.Get().(*bytes.Buffer)
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		code = http.StatusInternalServerError
		fmt.Fprintf(buf, "{\"error\":%q}\n", "encoding the answer: "+err.Error())
	}
	writeBody(w, code, buf.Bytes())
	if buf.Cap() <= 64<<10 {
		jsonBufs.Put(buf)
	}
}

// jsonBufs holds the buffers of writeJSON.
var jsonBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Header values every answer shares, set without an allocation each
// (net/http only reads them; Add makes a new slice).
var (
	hdrJSON     = []string{"application/json; charset=utf-8"}
	hdrNoStore  = []string{"no-store"}
	hdrNosniff  = []string{"nosniff"}
	hdrNoReferr = []string{"no-referrer"}
	// hdrCSP is the page's content security policy: its scripts, style
	// sheets, images and connections (the API, the WebSocket) from this
	// server only, no inline script or style, no plugin, no other site
	// framing it. A script slipped into a chat line or a bio by a bug
	// would not run.
	hdrCSP = []string{"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"}
	hdrFrames = []string{"DENY"}
)

// writeBody answers with body, JSON ending in a newline, in one write.
func writeBody(w http.ResponseWriter, code int, body []byte) {
	h := w.Header()
	h["Content-Type"], h["Cache-Control"] = hdrJSON, hdrNoStore
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(code)
	w.Write(body)
}

// writeRawJSON answers with data, which is already JSON.
func writeRawJSON(w http.ResponseWriter, code int, data []byte) {
	body := make([]byte, 0, len(data)+1)
	writeBody(w, code, append(append(body, data...), '\n'))
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	var tm *tooManyError
	if errors.As(err, &tm) {
		w.Header().Set("Retry-After", strconv.Itoa(tm.retry))
		writeJSON(w, 429, errorBody{tm.msg})
		return
	}
	var ae *apiError
	if errors.As(err, &ae) {
		writeJSON(w, ae.code, errorBody{short(ae.msg, maxMessage)})
		return
	}
	s.logf("server: %v", err)
	writeJSON(w, http.StatusInternalServerError, errorBody{"internal error; nothing was changed"})
}

// decodeJSON reads exactly one JSON object of at most maxBody bytes into
// v, refusing unknown fields.
func decodeJSON(data []byte, v any) error {
	if len(data) > maxBody {
		return &apiError{413, fmt.Sprintf("request body over %d bytes", maxBody)}
	}
	if !utf8.Valid(data) {
		return &apiError{400, "request body is not UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &apiError{400, "bad JSON body: " + short(err.Error(), 120)}
	}
	if dec.More() {
		return &apiError{400, "bad JSON body: more than one value"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &apiError{400, "bad JSON body: trailing data"}
	}
	return nil
}

func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &apiError{413, fmt.Sprintf("request body over %d bytes", maxBody)}
		}
		return nil, &apiError{400, "cannot read request body: " + short(err.Error(), 120)}
	}
	return data, nil
}
