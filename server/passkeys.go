package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"atril/store"
	"atril/webauthn"
)

// Passkeys (package webauthn): a signed-in player registers the passkeys
// of its devices (or of its password manager), and then signs in with
// one of them instead of its name and password. The site asks for
// discoverable credentials, so that signing in needs no name: the
// browser offers the passkeys it holds for the site. Each ceremony
// answers a challenge the server handed out, kept in the store for five
// minutes and used once.

const (
	// challengeLife is how long a ceremony may take.
	challengeLife = 5 * time.Minute
	// maxPasskeyName bounds what a player calls a passkey.
	maxPasskeyName = 40
)

var b64 = base64.RawURLEncoding

// relyingParty is the site as passkeys know it: the host and origin of
// PublicURL, or of the request.
func (s *Server) relyingParty(r *http.Request) *webauthn.RelyingParty {
	u, err := url.Parse(s.publicBase(r))
	if err != nil {
		return &webauthn.RelyingParty{}
	}
	host := canonicalHost(u.Scheme, u.Host)
	return &webauthn.RelyingParty{ID: strings.ToLower(u.Hostname()), Origins: []string{u.Scheme + "://" + host}}
}

// newChallenge hands out a challenge for purpose (to account, "" for
// none) and returns it.
func (s *Server) newChallenge(r *http.Request, purpose, account string) ([]byte, error) {
	ch := make([]byte, 32)
	rand.Read(ch)
	now := time.Now()
	err := s.store.PutChallenge(r.Context(), &store.Challenge{Value: b64.EncodeToString(ch), Purpose: purpose, Account: account,
		Expires: now.Add(challengeLife)}, now)
	return ch, err
}

// PasskeyOptions is the answer of POST /api/me/passkeys/options: what the
// page's navigator.credentials.create asks for (bytes in unpadded
// base64url).
type PasskeyOptions struct {
	Challenge string `json:"challenge"`
	RPID      string `json:"rp_id"`
	RPName    string `json:"rp_name"`
	// UserID is the account's handle for authenticators (not its key),
	// UserName its name.
	UserID   string `json:"user_id"`
	UserName string `json:"user_name"`
	// Algorithms are the COSE algorithms taken, most preferred first.
	Algorithms []int `json:"algorithms"`
	// Exclude are the account's passkeys, which an authenticator
	// holding one does not make again.
	Exclude   []string `json:"exclude"`
	TimeoutMS int      `json:"timeout_ms"`
}

// PasskeyLoginOptions is the answer of POST /api/login/passkey/options.
type PasskeyLoginOptions struct {
	Challenge string `json:"challenge"`
	RPID      string `json:"rp_id"`
	TimeoutMS int    `json:"timeout_ms"`
}

// PasskeyInfo is one of an account's passkeys.
type PasskeyInfo struct {
	ID      string     `json:"id"`
	Name    string     `json:"name"`
	Created time.Time  `json:"created"`
	Used    *time.Time `json:"used,omitempty"`
}

// PasskeyList is an account's passkeys, oldest first.
type PasskeyList struct {
	Passkeys []PasskeyInfo `json:"passkeys"`
}

// passkeyRequest is the body of POST /api/me/passkeys (a new passkey:
// ID, ClientDataJSON, AttestationObject, Name) and of POST
// /api/login/passkey (an assertion: ID, ClientDataJSON,
// AuthenticatorData, Signature), bytes in base64url.
type passkeyRequest struct {
	Name              string `json:"name"`
	ID                string `json:"id"`
	ClientDataJSON    string `json:"client_data_json"`
	AttestationObject string `json:"attestation_object"`
	AuthenticatorData string `json:"authenticator_data"`
	Signature         string `json:"signature"`
	UserHandle        string `json:"user_handle"`
}

// decodePasskey reads a passkeyRequest and the bytes of the fields
// named (the id always).
func decodePasskey(data []byte, fields ...string) (*passkeyRequest, map[string][]byte, error) {
	var req passkeyRequest
	if err := decodeJSON(data, &req); err != nil {
		return nil, nil, err
	}
	all := map[string]string{"id": req.ID, "client_data_json": req.ClientDataJSON, "attestation_object": req.AttestationObject,
		"authenticator_data": req.AuthenticatorData, "signature": req.Signature}
	out := map[string][]byte{}
	for _, f := range append([]string{"id"}, fields...) {
		b, err := b64.DecodeString(all[f])
		if err != nil || len(b) == 0 || len(b) > 16<<10 {
			return nil, nil, &apiError{400, f + ": base64url of 1 byte to 16 KB is needed"}
		}
		out[f] = b
	}
	return &req, out, nil
}

// userHandle is the handle an account's passkeys carry: derived from its
// key, which it does not show.
func userHandle(key string) string {
	h := sha256.Sum256([]byte("atril passkey user\x00" + key))
	return b64.EncodeToString(h[:16])
}

func passkeyList(ps []store.Passkey) PasskeyList {
	out := PasskeyList{Passkeys: []PasskeyInfo{}}
	for _, p := range ps {
		pi := PasskeyInfo{ID: p.ID, Name: p.Name, Created: p.Created}
		if !p.Used.IsZero() {
			u := p.Used
			pi.Used = &u
		}
		out.Passkeys = append(out.Passkeys, pi)
	}
	return out
}

func (s *Server) writePasskeys(w http.ResponseWriter, r *http.Request, key string, code int) {
	ps, err := s.store.Passkeys(r.Context(), key)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, code, passkeyList(ps))
}

func (s *Server) handlePasskeys(w http.ResponseWriter, r *http.Request) {
	a, err := s.requireSignIn(r, "sign in to see your passkeys")
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writePasskeys(w, r, a.Key, 200)
}

// handlePasskeyOptions hands out the challenge for a new passkey. The
// current password is asked for, as for a new password: a passkey is a
// way in that outlives the session, so a session taken from a device
// does not make one.
func (s *Server) handlePasskeyOptions(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Password string `json:"password"`
	}
	a, ok := s.confirmed(w, r, "sign in to add a passkey", &req, &req.Password, nil)
	if !ok {
		return
	}
	ps, err := s.store.Passkeys(r.Context(), a.Key)
	if err != nil {
		s.fail(w, err)
		return
	}
	if len(ps) >= store.MaxPasskeys {
		s.fail(w, &apiError{409, fmt.Sprintf("you have %d passkeys, as many as you may: remove one first", len(ps))})
		return
	}
	ch, err := s.newChallenge(r, "register", a.Key)
	if err != nil {
		s.fail(w, err)
		return
	}
	rp := s.relyingParty(r)
	out := PasskeyOptions{Challenge: b64.EncodeToString(ch), RPID: rp.ID, RPName: "atril", UserID: userHandle(a.Key), UserName: a.Name,
		Algorithms: webauthn.Algorithms, Exclude: []string{}, TimeoutMS: int(challengeLife / time.Millisecond)}
	for _, p := range ps {
		out.Exclude = append(out.Exclude, p.ID)
	}
	writeJSON(w, 200, out)
}

func (s *Server) handleAddPasskey(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.joinLim, "passkeys made")
	if !ok {
		return
	}
	a, err := s.requireSignIn(r, "sign in to add a passkey")
	if err != nil {
		s.fail(w, err)
		return
	}
	req, raw, err := decodePasskey(data, "client_data_json", "attestation_object")
	if err != nil {
		s.fail(w, err)
		return
	}
	name, err := cleanText(req.Name, "the passkey's name", maxPasskeyName)
	if err != nil {
		s.fail(w, err)
		return
	}
	if name == "" {
		name = "passkey"
	}
	ch, err := s.takeChallenge(r, raw["client_data_json"], "register", a.Key)
	if err != nil {
		s.fail(w, err)
		return
	}
	cred, err := s.relyingParty(r).Register(ch, raw["client_data_json"], raw["attestation_object"])
	if err != nil {
		s.fail(w, &apiError{400, err.Error()})
		return
	}
	if string(cred.ID) != string(raw["id"]) {
		s.fail(w, &apiError{400, "id: not the id of the credential made"})
		return
	}
	// Kept in one spelling, so that an id is registered once.
	err = s.store.AddPasskey(r.Context(), &store.Passkey{ID: b64.EncodeToString(cred.ID), Account: a.Key, PublicKey: b64.EncodeToString(cred.PublicKey),
		Alg: cred.Alg, SignCount: cred.SignCount, Name: name, Created: time.Now().UTC()})
	var le *store.LimitError
	switch {
	case errors.As(err, &le):
		err = &apiError{409, fmt.Sprintf("you have %d passkeys, as many as you may: remove one first", le.Have)}
	case errors.Is(err, store.ErrConflict):
		err = &apiError{409, "this passkey is registered already"}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writePasskeys(w, r, a.Key, 201)
}

// takeChallenge takes, once, the challenge that clientDataJSON answers,
// handed out for purpose to account.
func (s *Server) takeChallenge(r *http.Request, clientDataJSON []byte, purpose, account string) ([]byte, error) {
	ch, err := webauthn.ChallengeOf(clientDataJSON)
	if err != nil {
		return nil, &apiError{400, err.Error()}
	}
	who, err := s.store.TakeChallenge(r.Context(), b64.EncodeToString(ch), purpose, time.Now())
	if errors.Is(err, store.ErrNotFound) || err == nil && who != account {
		return nil, &apiError{400, "the passkey answers no challenge of yours that is still open: try again"}
	}
	return ch, err
}

func (s *Server) handleRemovePasskey(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.limitedBody(w, r, s.joinLim, "passkeys removed"); !ok {
		return
	}
	a, err := s.requireSignIn(r, "sign in to remove a passkey")
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := s.store.RemovePasskey(r.Context(), a.Key, r.PathValue("id")); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = &apiError{404, "you have no such passkey"}
		}
		s.fail(w, err)
		return
	}
	s.writePasskeys(w, r, a.Key, 200)
}

func (s *Server) handlePasskeyLoginOptions(w http.ResponseWriter, r *http.Request) {
	if s.loginLimited(w, r) {
		return
	}
	if _, err := readBody(w, r); err != nil {
		s.fail(w, err)
		return
	}
	ch, err := s.newChallenge(r, "login", "")
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, PasskeyLoginOptions{Challenge: b64.EncodeToString(ch), RPID: s.relyingParty(r).ID, TimeoutMS: int(challengeLife / time.Millisecond)})
}

func (s *Server) handlePasskeyLogin(w http.ResponseWriter, r *http.Request) {
	if s.loginLimited(w, r) {
		return
	}
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	_, raw, err := decodePasskey(data, "client_data_json", "authenticator_data", "signature")
	if err != nil {
		s.fail(w, err)
		return
	}
	ch, err := s.takeChallenge(r, raw["client_data_json"], "login", "")
	if err != nil {
		s.fail(w, err)
		return
	}
	refused := &apiError{401, "this passkey signs in to no account here"}
	pk, err := s.store.PasskeyByID(r.Context(), b64.EncodeToString(raw["id"]))
	if errors.Is(err, store.ErrNotFound) {
		err = refused
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	a, err := s.store.Account(r.Context(), pk.Account)
	if errors.Is(err, store.ErrNotFound) || err == nil && a.Closed() {
		err = refused
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	key, err := b64.DecodeString(pk.PublicKey)
	if err != nil {
		s.fail(w, fmt.Errorf("passkey %s: the stored key: %w", pk.ID, err))
		return
	}
	count, err := s.relyingParty(r).Assert(&webauthn.Credential{ID: raw["id"], PublicKey: key, Alg: pk.Alg, SignCount: pk.SignCount},
		ch, raw["client_data_json"], raw["authenticator_data"], raw["signature"])
	if err != nil {
		s.fail(w, &apiError{401, err.Error()})
		return
	}
	if a.Suspended != "" {
		s.fail(w, &apiError{403, "this account is suspended: " + a.Suspended})
		return
	}
	if err := s.store.PasskeyUsed(r.Context(), pk.ID, count, time.Now().UTC()); err != nil {
		if errors.Is(err, store.ErrConflict) {
			err = &apiError{401, "this passkey's counter did not move on: try again"}
		}
		s.fail(w, err)
		return
	}
	s.startSession(w, r, a, 200)
}
