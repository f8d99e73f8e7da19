package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"atril/store"
)

// Recovery codes: the site sends no e-mail, so a player who may lose
// the password makes, with the password, ten one-time codes to keep
// somewhere safe. Signed out, a name, one of its codes and a new
// password set the password and sign in; every other session of the
// account ends, as with a change of password. A code is 16 letters and
// digits of base32 (80 random bits), written in groups of four; the
// store keeps its SHA-256. Wrong codes count as failed sign-ins.

const (
	// recoveryCodes is how many codes are made at once.
	recoveryCodes = 10
	// recoveryCodeLen is a code's letters and digits.
	recoveryCodeLen = 16
)

// RecoveryCodes is the answer of POST /api/me/recovery-codes (Codes,
// shown this once) and of GET /api/me/recovery-codes (Left only).
type RecoveryCodes struct {
	Codes []string `json:"codes,omitempty"`
	// Left counts the codes not used.
	Left int `json:"left"`
}

// newRecoveryCode is a random code, in groups of four.
func newRecoveryCode() string {
	b := make([]byte, 10)
	rand.Read(b)
	s := base32.StdEncoding.EncodeToString(b) // 16 characters
	return s[:4] + "-" + s[4:8] + "-" + s[8:12] + "-" + s[12:]
}

// recoveryHash is the stored form of a code as a player types it: the
// groups' dashes and spaces dropped, letters in capitals, and 0, 1 and
// 8 (which base32 leaves out) read as O, I and B.
func recoveryHash(code string) (string, bool) {
	code = strings.Map(func(c rune) rune {
		switch {
		case c == '-' || c == ' ':
			return -1
		case c == '0':
			return 'O'
		case c == '1':
			return 'I'
		case c == '8':
			return 'B'
		}
		return c
	}, strings.ToUpper(strings.TrimSpace(code)))
	if len(code) != recoveryCodeLen {
		return "", false
	}
	for _, c := range code {
		if !('A' <= c && c <= 'Z' || '2' <= c && c <= '7') {
			return "", false
		}
	}
	h := sha256.Sum256([]byte("atril recovery code\x00" + code))
	return hex.EncodeToString(h[:]), true
}

func (s *Server) handleRecoveryCodesLeft(w http.ResponseWriter, r *http.Request) {
	a, err := s.requireSignIn(r, "sign in to see your recovery codes")
	if err != nil {
		s.fail(w, err)
		return
	}
	n, err := s.store.RecoveryCodesLeft(r.Context(), a.Key)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, RecoveryCodes{Left: n})
}

// handleNewRecoveryCodes makes the signed-in account's codes anew (the
// current password asked for): those made before are used no more.
func (s *Server) handleNewRecoveryCodes(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Password string `json:"password"`
	}
	a, ok := s.confirmed(w, r, "sign in to make recovery codes", &req, &req.Password, nil)
	if !ok {
		return
	}
	out := RecoveryCodes{Left: recoveryCodes}
	var hashes []string
	for range recoveryCodes {
		c := newRecoveryCode()
		h, _ := recoveryHash(c)
		out.Codes = append(out.Codes, c)
		hashes = append(hashes, h)
	}
	if err := s.store.SetRecoveryCodes(r.Context(), a.Key, hashes, time.Now().UTC()); err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, 201, out)
}

// recoverRequest is the body of POST /api/login/recover.
type recoverRequest struct {
	Name     string `json:"name"`
	Code     string `json:"code"`
	Password string `json:"password"`
}

// handleRecover sets a new password with a recovery code and signs in.
func (s *Server) handleRecover(w http.ResponseWriter, r *http.Request) {
	if s.loginLimited(w, r) {
		return
	}
	data, err := readBody(w, r)
	var req recoverRequest
	if err == nil {
		err = decodeJSON(data, &req)
	}
	if err == nil {
		err = checkPasswordLength(req.Password)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	refused := &apiError{401, "wrong name or recovery code"}
	a, err := s.store.Account(r.Context(), AccountKey(strings.TrimSpace(req.Name)))
	if errors.Is(err, store.ErrNotFound) || err == nil && a.Closed() {
		err = refused
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	if !s.spendGuess(w, r, a) {
		return
	}
	h, ok := recoveryHash(req.Code)
	if ok {
		err = s.store.UseRecoveryCode(r.Context(), a.Key, h)
		if errors.Is(err, store.ErrNotFound) {
			ok = false
		} else if err != nil {
			s.refundGuess(r, a)
			s.fail(w, err)
			return
		}
	}
	if !ok {
		s.fail(w, refused)
		return
	}
	s.refundGuess(r, a)
	if a.Suspended != "" {
		s.fail(w, &apiError{403, "this account is suspended: " + a.Suspended})
		return
	}
	hash, ok := s.setPassword(w, r, a, req.Password, "")
	if !ok {
		return
	}
	a.Password = hash
	s.startSession(w, r, a, 200)
}
