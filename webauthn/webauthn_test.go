package webauthn_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"atril/webauthn"
	"atril/webauthn/webauthntest"
)

func dec(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var rp = &webauthn.RelyingParty{ID: "play.example.org", Origins: []string{"https://play.example.org"}}

// TestRegisterAndAssert: a passkey of each algorithm registered and used
// twice, its counter going up.
func TestRegisterAndAssert(t *testing.T) {
	for _, alg := range []int{webauthn.ES256, webauthn.EdDSA, webauthn.RS256} {
		a := webauthntest.New(rp.ID, rp.Origins[0])
		ch := []byte("challenge-of-registration-000001")
		r, err := a.Create(ch, []byte("user-1"), alg)
		if err != nil {
			t.Fatal(err)
		}
		c, err := rp.Register(ch, dec(t, r.ClientDataJSON), dec(t, r.AttestationObject))
		if err != nil {
			t.Fatalf("alg %d: register: %v", alg, err)
		}
		if c.Alg != alg || string(c.ID) != string(dec(t, r.ID)) || c.SignCount != 0 {
			t.Errorf("alg %d: credential %+v", alg, c)
		}
		for i := 1; i <= 2; i++ {
			ch := []byte("challenge-of-sign-in-00000000000" + string(rune('0'+i)))
			g, err := a.Get(ch, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			n, err := rp.Assert(c, ch, dec(t, g.ClientDataJSON), dec(t, g.AuthenticatorData), dec(t, g.Signature))
			if err != nil || n != uint32(i) {
				t.Fatalf("alg %d: assertion %d: %d, %v", alg, i, n, err)
			}
			c.SignCount = n
		}
		if got, err := webauthn.ChallengeOf(dec(t, r.ClientDataJSON)); err != nil || string(got) != "challenge-of-registration-000001" {
			t.Errorf("ChallengeOf: %q, %v", got, err)
		}
	}
}

// TestRefusals: what the relying party must refuse, each with its reason.
func TestRefusals(t *testing.T) {
	a := webauthntest.New(rp.ID, rp.Origins[0])
	ch := []byte("challenge-0000000000000000000001")
	r, _ := a.Create(ch, []byte("u"), webauthn.ES256)
	c, err := rp.Register(ch, dec(t, r.ClientDataJSON), dec(t, r.AttestationObject))
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, err error, want string) {
		t.Helper()
		var we *webauthn.Error
		if err == nil || !errors.As(err, &we) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a refusal saying %q", name, err, want)
		}
	}
	// Registration.
	_, err = rp.Register([]byte("another"), dec(t, r.ClientDataJSON), dec(t, r.AttestationObject))
	check("another challenge", err, "another challenge")
	other := &webauthn.RelyingParty{ID: rp.ID, Origins: []string{"https://evil.example"}}
	_, err = other.Register(ch, dec(t, r.ClientDataJSON), dec(t, r.AttestationObject))
	check("another origin", err, "not this site")
	elsewhere := &webauthn.RelyingParty{ID: "evil.example", Origins: rp.Origins}
	_, err = elsewhere.Register(ch, dec(t, r.ClientDataJSON), dec(t, r.AttestationObject))
	check("another RP ID", err, "another site")
	att := dec(t, r.AttestationObject)
	_, err = rp.Register(ch, dec(t, r.ClientDataJSON), att[:len(att)-3])
	check("cut short", err, "CBOR")
	g, _ := a.Get(ch, c.ID)
	_, err = rp.Register(ch, dec(t, g.ClientDataJSON), dec(t, r.AttestationObject))
	check("a get's client data", err, "type")
	// Assertion.
	ch2 := []byte("challenge-0000000000000000000002")
	g, _ = a.Get(ch2, c.ID)
	cd, ad, sig := dec(t, g.ClientDataJSON), dec(t, g.AuthenticatorData), dec(t, g.Signature)
	_, err = rp.Assert(c, []byte("x"), cd, ad, sig)
	check("another challenge", err, "another challenge")
	bad := append([]byte(nil), sig...)
	bad[len(bad)-1] ^= 1
	_, err = rp.Assert(c, ch2, cd, ad, bad)
	check("a changed signature", err, "does not verify")
	noUP := append([]byte(nil), ad...)
	noUP[32] &^= 1
	_, err = rp.Assert(c, ch2, cd, noUP, sig)
	check("user not present", err, "not present")
	_, err = rp.Assert(c, ch2, cd, ad[:36], sig)
	check("short data", err, "under 37")
	if _, err := rp.Assert(c, ch2, cd, ad, sig); err != nil {
		t.Fatalf("the assertion itself: %v", err)
	}
	// A copy: the counter does not go up.
	c.SignCount = 5
	a.SetCount(c.ID, 3)
	g, _ = a.Get(ch2, c.ID)
	_, err = rp.Assert(c, ch2, dec(t, g.ClientDataJSON), dec(t, g.AuthenticatorData), dec(t, g.Signature))
	check("a counter going down", err, "copied")
	// Another passkey's key does not verify this one's signature.
	r2, _ := a.Create(ch, []byte("u"), webauthn.ES256)
	c2, _ := rp.Register(ch, dec(t, r2.ClientDataJSON), dec(t, r2.AttestationObject))
	c2.ID = c.ID
	g, _ = a.Get(ch2, c.ID)
	_, err = rp.Assert(c2, ch2, dec(t, g.ClientDataJSON), dec(t, g.AuthenticatorData), dec(t, g.Signature))
	check("another key", err, "does not verify")
}

func TestParseKeyRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		cose []byte
		want string
	}{
		{"empty", nil, "CBOR"},
		{"not a map", []byte{0x01}, "not a map"},
		{"no alg", []byte{0xa1, 0x01, 0x02}, "no algorithm"},
		{"ES256 without a point", []byte{0xa2, 0x01, 0x02, 0x03, 0x26}, "P-256"},
		{"another algorithm", []byte{0xa2, 0x01, 0x02, 0x03, 0x38, 0x22}, "want ES256"},
		{"a float", []byte{0xa1, 0x03, 0xf9, 0x3c, 0x00}, "CBOR"},
		{"a tag", []byte{0xc2, 0x40}, "CBOR"},
		{"a key twice", []byte{0xa2, 0x03, 0x26, 0x03, 0x26}, "CBOR"},
		{"RS256 of 1024 bits in 256 bytes", rsaKey(append(make([]byte, 128), ones(128)...), []byte{1, 0, 1}), "2048"},
		{"RS256 of 8192 bits", rsaKey(ones(1024), []byte{1, 0, 1}), "4096"},
		{"RS256 with an exponent past 31 bits", rsaKey(ones(256), []byte{0xff, 0xff, 0xff, 0xff}), "exponent"},
	} {
		_, _, err := webauthn.ParseKey(tc.cose)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// rsaKey is an RS256 key in COSE form, its modulus n and exponent e.
func rsaKey(n, e []byte) []byte {
	out := []byte{0xa4, 0x01, 0x03, 0x03, 0x39, 0x01, 0x00, 0x20, 0x59, byte(len(n) >> 8), byte(len(n))}
	out = append(append(out, n...), 0x21, 0x40|byte(len(e)))
	return append(out, e...)
}

func ones(n int) []byte { return bytes.Repeat([]byte{0xff}, n) }

// TestParseKeyRSA: an RS256 key of 2048 to 4096 bits is taken.
func TestParseKeyRSA(t *testing.T) {
	for _, size := range []int{256, 512} {
		if alg, _, err := webauthn.ParseKey(rsaKey(ones(size), []byte{1, 0, 1})); err != nil || alg != webauthn.RS256 {
			t.Errorf("%d bits: %d, %v", size*8, alg, err)
		}
	}
}
