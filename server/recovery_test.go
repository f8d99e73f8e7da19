package server

import (
	"strings"
	"testing"
)

// TestRecoveryCodes: codes made with the password (ten, shown once),
// one of them setting a new password signed out (the other sessions
// ended), each code once, typed loosely; a wrong code counted as a failed
// sign-in; new codes replacing the old.
func TestRecoveryCodes(t *testing.T) {
	cfg := testConfig(newStore(t))
	cfg.AccountFailsPerHour = 8
	e := newEnvConfig(t, cfg)
	ana, other := browser(t), browser(t)
	e.signUp(ana, "Ana_rc", "correct horse")
	e.doWith(other, "POST", "/api/login", "", map[string]string{"name": "Ana_rc", "password": "correct horse"}, nil)
	var eb errorBody
	if code := e.doWith(ana, "POST", "/api/me/recovery-codes", "", map[string]string{"password": "wrong one"}, &eb); code != 403 {
		t.Errorf("codes with a wrong password: %d %q", code, eb.Error)
	}
	var rc RecoveryCodes
	if code := e.doWith(ana, "POST", "/api/me/recovery-codes", "", map[string]string{"password": "correct horse"}, &rc); code != 201 || len(rc.Codes) != 10 || rc.Left != 10 {
		t.Fatalf("codes: %d %+v", code, rc)
	}
	seen := map[string]bool{}
	for _, c := range rc.Codes {
		if len(c) != 19 || strings.Count(c, "-") != 3 || seen[c] {
			t.Errorf("code %q", c)
		}
		seen[c] = true
	}
	recover := func(name, code, pw string) (int, Me, string) {
		t.Helper()
		var out struct {
			Me
			Error string `json:"error"`
		}
		c := browser(t)
		got := e.doWith(c, "POST", "/api/login/recover", "", map[string]string{"name": name, "code": code, "password": pw}, &out)
		return got, out.Me, out.Error
	}
	if code, _, msg := recover("Ana_rc", "AAAA-AAAA-AAAA-AAAA", "new password 1"); code != 401 || !strings.Contains(msg, "recovery code") {
		t.Errorf("a wrong code: %d %q", code, msg)
	}
	if code, _, msg := recover("Nobody_rc", rc.Codes[0], "new password 1"); code != 401 || !strings.Contains(msg, "recovery code") {
		t.Errorf("no such account: %d %q", code, msg)
	}
	if code, _, msg := recover("Ana_rc", rc.Codes[0], "short"); code != 400 {
		t.Errorf("a short password: %d %q", code, msg)
	}
	// Typed loosely: small letters, spaces for dashes, a zero for an O.
	loose := strings.ToLower(strings.ReplaceAll(rc.Codes[0], "-", " "))
	loose = strings.ReplaceAll(strings.ReplaceAll(loose, "o", "0"), "i", "1")
	code, me, msg := recover("ana_RC", loose, "new password 1")
	if code != 200 || !me.SignedIn || me.Name != "Ana_rc" {
		t.Fatalf("recovered: %d %+v %q", code, me, msg)
	}
	// The other sessions ended; the new password signs in, the old not.
	var who Me
	if e.doWith(other, "GET", "/api/me", "", nil, &who); who.SignedIn {
		t.Error("another device still signed in")
	}
	if code := e.doWith(browser(t), "POST", "/api/login", "", map[string]string{"name": "Ana_rc", "password": "correct horse"}, &eb); code != 401 {
		t.Errorf("the old password: %d", code)
	}
	if code := e.doWith(other, "POST", "/api/login", "", map[string]string{"name": "Ana_rc", "password": "new password 1"}, nil); code != 200 {
		t.Errorf("the new password: %d", code)
	}
	if code, _, _ := recover("Ana_rc", rc.Codes[0], "new password 2"); code != 401 {
		t.Errorf("a code used twice: %d", code)
	}
	var left RecoveryCodes
	if code := e.doWith(other, "GET", "/api/me/recovery-codes", "", nil, &left); code != 200 || left.Left != 9 || len(left.Codes) != 0 {
		t.Errorf("codes left: %d %+v", code, left)
	}
	// New codes replace the old.
	var old RecoveryCodes
	e.doWith(other, "POST", "/api/me/recovery-codes", "", map[string]string{"password": "new password 1"}, &old)
	var fresh RecoveryCodes
	if code := e.doWith(other, "POST", "/api/me/recovery-codes", "", map[string]string{"password": "new password 1"}, &fresh); code != 201 {
		t.Fatalf("new codes: %d", code)
	}
	if code, _, _ := recover("Ana_rc", old.Codes[1], "new password 3"); code != 401 {
		t.Errorf("a replaced code: %d", code)
	}
	// Wrong codes count as failed sign-ins: past the account's bound,
	// even a right code waits.
	wrong := 0
	for ; wrong < 10; wrong++ {
		if code, _, _ := recover("Ana_rc", "BBBB-BBBB-BBBB-BBBB", "new password 3"); code == 429 {
			break
		}
	}
	if wrong == 10 {
		t.Fatal("ten wrong codes, none refused as too many")
	}
	if code, _, _ := recover("Ana_rc", fresh.Codes[0], "new password 3"); code != 429 {
		t.Errorf("a right code after %d wrong ones: %d, want 429", wrong, code)
	}
}
