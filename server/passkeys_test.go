package server

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"atril/webauthn/webauthntest"
)

func unb64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPasskeys: a passkey registered by a signed-in player, signed in
// with instead of a password; each challenge answered once, and only by
// the account it was given to; a wrong signature, an unknown passkey, a
// removed one and a suspended account refused; another account cannot
// remove it.
func TestPasskeys(t *testing.T) {
	st := newStore(t)
	e := newEnv(t, st)
	var eb errorBody
	if code := e.doWith(browser(t), "POST", "/api/me/passkeys/options", "", map[string]string{"password": "x"}, &eb); code != 401 {
		t.Errorf("options signed out: %d", code)
	}
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana_pk", "correct horse")
	e.signUp(bo, "Bo_pk", "battery staple")
	auth := webauthntest.New("127.0.0.1", e.url)
	anaPW := map[string]string{"password": "correct horse"}
	var opt PasskeyOptions
	if code := e.doWith(ana, "POST", "/api/me/passkeys/options", "", map[string]string{"password": "wrong one"}, &eb); code != 403 {
		t.Errorf("options with a wrong password: %d %q", code, eb.Error)
	}
	if code := e.doWith(ana, "POST", "/api/me/passkeys/options", "", anaPW, &opt); code != 200 || opt.RPID != "127.0.0.1" || opt.UserName != "Ana_pk" ||
		len(opt.Algorithms) != 3 || opt.Algorithms[0] != -7 || len(unb64(t, opt.Challenge)) != 32 || len(opt.Exclude) != 0 || opt.UserID == "" {
		t.Fatalf("options: %d %+v", code, opt)
	}
	made, err := auth.Create(unb64(t, opt.Challenge), unb64(t, opt.UserID), webauthntest.ES256)
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]string{"name": "phone", "id": made.ID, "client_data_json": made.ClientDataJSON, "attestation_object": made.AttestationObject}
	var list PasskeyList
	if code := e.doWith(ana, "POST", "/api/me/passkeys", "", body, &list); code != 201 || len(list.Passkeys) != 1 || list.Passkeys[0].Name != "phone" ||
		list.Passkeys[0].ID != made.ID || list.Passkeys[0].Used != nil {
		t.Fatalf("add: %d %+v", code, list)
	}
	// The same answer again: its challenge is used.
	if code := e.doWith(ana, "POST", "/api/me/passkeys", "", body, &eb); code != 400 || !strings.Contains(eb.Error, "no challenge") {
		t.Errorf("the answer again: %d %q", code, eb.Error)
	}
	// Bo's challenge answered by Ana.
	var bopt PasskeyOptions
	e.doWith(bo, "POST", "/api/me/passkeys/options", "", map[string]string{"password": "battery staple"}, &bopt)
	m2, _ := auth.Create(unb64(t, bopt.Challenge), []byte("x"), webauthntest.ES256)
	if code := e.doWith(ana, "POST", "/api/me/passkeys", "", map[string]string{"id": m2.ID, "client_data_json": m2.ClientDataJSON,
		"attestation_object": m2.AttestationObject}, &eb); code != 400 || !strings.Contains(eb.Error, "no challenge of yours") {
		t.Errorf("another account's challenge: %d %q", code, eb.Error)
	}
	// A page of another site.
	e.doWith(ana, "POST", "/api/me/passkeys/options", "", anaPW, &opt)
	evil := webauthntest.New("127.0.0.1", "http://evil.example")
	m3, _ := evil.Create(unb64(t, opt.Challenge), []byte("x"), webauthntest.ES256)
	if code := e.doWith(ana, "POST", "/api/me/passkeys", "", map[string]string{"id": m3.ID, "client_data_json": m3.ClientDataJSON,
		"attestation_object": m3.AttestationObject}, &eb); code != 400 || !strings.Contains(eb.Error, "not this site") {
		t.Errorf("another site's page: %d %q", code, eb.Error)
	}
	if e.doWith(ana, "POST", "/api/me/passkeys/options", "", anaPW, &opt); len(opt.Exclude) != 1 || opt.Exclude[0] != made.ID {
		t.Errorf("options exclude %v", opt.Exclude)
	}

	var data AccountData
	if code := e.doWith(ana, "GET", "/api/me/data", "", nil, &data); code != 200 || len(data.Passkeys) != 1 || data.Passkeys[0].Name != "phone" {
		t.Errorf("the account's data: %d %+v", code, data.Passkeys)
	}
	// Signing in with it, on a new device.
	login := func(c *http.Client, id []byte, sig func([]byte) []byte) (int, Me, string) {
		t.Helper()
		var lo PasskeyLoginOptions
		if code := e.doWith(c, "POST", "/api/login/passkey/options", "", nil, &lo); code != 200 || lo.RPID != "127.0.0.1" {
			t.Fatalf("login options: %d %+v", code, lo)
		}
		g, err := auth.Get(unb64(t, lo.Challenge), id)
		if err != nil {
			t.Fatal(err)
		}
		s := g.Signature
		if sig != nil {
			s = base64.RawURLEncoding.EncodeToString(sig(unb64(t, s)))
		}
		var out struct {
			Me
			Error string `json:"error"`
		}
		code := e.doWith(c, "POST", "/api/login/passkey", "", map[string]string{"id": g.ID, "client_data_json": g.ClientDataJSON,
			"authenticator_data": g.AuthenticatorData, "signature": s}, &out)
		return code, out.Me, out.Error
	}
	dev := browser(t)
	if code, me, msg := login(dev, unb64(t, made.ID), nil); code != 200 || !me.SignedIn || me.Name != "Ana_pk" {
		t.Fatalf("sign in with the passkey: %d %+v %q", code, me, msg)
	}
	var me Me
	if e.doWith(dev, "GET", "/api/me", "", nil, &me); !me.SignedIn || me.Name != "Ana_pk" {
		t.Errorf("the device's session: %+v", me)
	}
	if e.doWith(ana, "GET", "/api/me/passkeys", "", nil, &list); len(list.Passkeys) != 1 || list.Passkeys[0].Used == nil || time.Since(*list.Passkeys[0].Used) > time.Minute {
		t.Errorf("after use: %+v", list)
	}
	if code, _, msg := login(browser(t), unb64(t, made.ID), func(s []byte) []byte { s[len(s)-1] ^= 1; return s }); code != 401 || !strings.Contains(msg, "verify") {
		t.Errorf("a changed signature: %d %q", code, msg)
	}
	// An assertion replayed: its challenge is used.
	var lo PasskeyLoginOptions
	e.doWith(dev, "POST", "/api/login/passkey/options", "", nil, &lo)
	g, _ := auth.Get(unb64(t, lo.Challenge), unb64(t, made.ID))
	assertion := map[string]string{"id": g.ID, "client_data_json": g.ClientDataJSON, "authenticator_data": g.AuthenticatorData, "signature": g.Signature}
	if code := e.doWith(browser(t), "POST", "/api/login/passkey", "", assertion, nil); code != 200 {
		t.Errorf("the assertion: %d", code)
	}
	if code := e.doWith(browser(t), "POST", "/api/login/passkey", "", assertion, &eb); code != 400 {
		t.Errorf("the assertion replayed: %d %q", code, eb.Error)
	}
	// Suspended: refused with the reason.
	if err := st.Suspend(t.Context(), AccountKey("Ana_pk"), "spam", time.Now()); err != nil {
		t.Fatal(err)
	}
	if code, _, msg := login(browser(t), unb64(t, made.ID), nil); code != 403 || !strings.Contains(msg, "spam") {
		t.Errorf("suspended: %d %q", code, msg)
	}
	if err := st.Unsuspend(t.Context(), AccountKey("Ana_pk")); err != nil {
		t.Fatal(err)
	}
	// Removed by its account only; then it signs in to nothing.
	if code := e.doWith(bo, "DELETE", "/api/me/passkeys/"+made.ID, "", nil, &eb); code != 404 {
		t.Errorf("Bo removing Ana's passkey: %d", code)
	}
	anaAgain := browser(t)
	e.doWith(anaAgain, "POST", "/api/login", "", map[string]string{"name": "Ana_pk", "password": "correct horse"}, nil)
	if code := e.doWith(anaAgain, "DELETE", "/api/me/passkeys/"+made.ID, "", nil, &list); code != 200 || len(list.Passkeys) != 0 {
		t.Errorf("Ana removing it: %d %+v", code, list)
	}
	if code, _, msg := login(browser(t), unb64(t, made.ID), nil); code != 401 || !strings.Contains(msg, "no account") {
		t.Errorf("a removed passkey: %d %q", code, msg)
	}
	for _, bad := range []map[string]string{{"id": "!!"}, {"id": made.ID, "client_data_json": "e30"}, {}} {
		if code := e.doWith(browser(t), "POST", "/api/login/passkey", "", bad, &eb); code != 400 {
			t.Errorf("%v: %d %q", bad, code, eb.Error)
		}
	}
}

// TestPasskeyIDOnce: a credential id registered by one account is
// refused to another, however its base64url is spelt (the bits after
// the last byte are free in an unpadded spelling); it signs in in any
// spelling.
func TestPasskeyIDOnce(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana_pk1", "correct horse")
	e.signUp(bo, "Bo_pk1", "battery staple")
	auth := webauthntest.New("127.0.0.1", e.url)
	var opt PasskeyOptions
	e.doWith(ana, "POST", "/api/me/passkeys/options", "", map[string]string{"password": "correct horse"}, &opt)
	made, err := auth.Create(unb64(t, opt.Challenge), unb64(t, opt.UserID), webauthntest.ES256)
	if err != nil {
		t.Fatal(err)
	}
	if code := e.doWith(ana, "POST", "/api/me/passkeys", "", map[string]string{"id": made.ID, "client_data_json": made.ClientDataJSON,
		"attestation_object": made.AttestationObject}, nil); code != 201 {
		t.Fatalf("Ana's passkey: %d", code)
	}
	// Bo's authenticator makes a passkey, which is given Ana's id.
	e.doWith(bo, "POST", "/api/me/passkeys/options", "", map[string]string{"password": "battery staple"}, &opt)
	m2, err := auth.Create(unb64(t, opt.Challenge), unb64(t, opt.UserID), webauthntest.ES256)
	if err != nil {
		t.Fatal(err)
	}
	att := bytes.Replace(unb64(t, m2.AttestationObject), unb64(t, m2.ID), unb64(t, made.ID), 1)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, made.ID[len(made.ID)-1])
	spelt := made.ID[:len(made.ID)-1] + alphabet[last+1:last+2]
	if string(unb64(t, spelt)) != string(unb64(t, made.ID)) || spelt == made.ID {
		t.Fatalf("%s is not another spelling of %s", spelt, made.ID)
	}
	var eb errorBody
	if code := e.doWith(bo, "POST", "/api/me/passkeys", "", map[string]string{"id": spelt, "client_data_json": m2.ClientDataJSON,
		"attestation_object": base64.RawURLEncoding.EncodeToString(att)}, &eb); code != 409 || !strings.Contains(eb.Error, "registered already") {
		t.Errorf("Ana's passkey id for Bo: %d %q", code, eb.Error)
	}
	// Signing in, the id is looked up in either spelling.
	var lo PasskeyLoginOptions
	e.doWith(browser(t), "POST", "/api/login/passkey/options", "", nil, &lo)
	g, err := auth.Get(unb64(t, lo.Challenge), unb64(t, made.ID))
	if err != nil {
		t.Fatal(err)
	}
	var me Me
	if code := e.doWith(browser(t), "POST", "/api/login/passkey", "", map[string]string{"id": spelt, "client_data_json": g.ClientDataJSON,
		"authenticator_data": g.AuthenticatorData, "signature": g.Signature}, &me); code != 200 || me.Name != "Ana_pk1" {
		t.Errorf("signing in with Ana's passkey spelt otherwise: %d %+v", code, me)
	}
}

// TestRelyingParty: the site passkeys are for is the public address's
// host and origin as browsers write them, or the request's.
func TestRelyingParty(t *testing.T) {
	for _, tc := range []struct {
		public, host, id, origin string
	}{
		{"https://Play.Example.ORG:443/atril", "x", "play.example.org", "https://play.example.org"},
		{"https://play.example.org:8443", "x", "play.example.org", "https://play.example.org:8443"},
		{"", "LocalHost:8080", "localhost", "http://localhost:8080"},
		{"", "example.org:80", "example.org", "http://example.org"},
		{"", "[::1]:8080", "::1", "http://[::1]:8080"},
	} {
		cfg := testConfig(newStore(t))
		cfg.PublicURL = tc.public
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := http.NewRequest("GET", "http://"+tc.host+"/", nil)
		r.Host = tc.host
		rp := s.relyingParty(r)
		if rp.ID != tc.id || len(rp.Origins) != 1 || rp.Origins[0] != tc.origin {
			t.Errorf("%q, Host %q: %+v, want %s and %s", tc.public, tc.host, rp, tc.id, tc.origin)
		}
		s.Close()
	}
}
