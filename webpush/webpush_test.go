package webpush

import (
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"atril/webpush/webpushtest"
)

// The worked example of RFC 8291, Appendix A.
const (
	rfcPlain     = "When I grow up, I want to be a watermelon"
	rfcASPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
	rfcASPublic  = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
	rfcUAPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
	rfcUAPublic  = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
	rfcSalt      = "DGv6ra1nlYgDCS1FRnbzlw"
	rfcAuth      = "BTBZMqHH6r4Tts7J_aSIgg"
	rfcBody      = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
)

func must64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := decode64(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEncryptRFC8291(t *testing.T) {
	sub, err := ParseSubscription("https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV", rfcUAPublic, rfcAuth)
	if err != nil {
		t.Fatal(err)
	}
	eph, err := ecdh.P256().NewPrivateKey(must64(t, rfcASPrivate))
	if err != nil {
		t.Fatal(err)
	}
	if got := encode64(eph.PublicKey().Bytes()); got != rfcASPublic {
		t.Fatalf("the example's public key: %s", got)
	}
	body, err := encrypt(sub, []byte(rfcPlain), eph, must64(t, rfcSalt))
	if err != nil {
		t.Fatal(err)
	}
	if got := encode64(body); got != rfcBody {
		t.Errorf("body\n got %s\nwant %s", got, rfcBody)
	}
	// The tests' browser opens the example's body.
	ua, err := webpushtest.BrowserOf(must64(t, rfcUAPrivate), must64(t, rfcAuth))
	if err != nil {
		t.Fatal(err)
	}
	if encode64(ua.P256dh()) != rfcUAPublic {
		t.Errorf("the browser's public key %s", encode64(ua.P256dh()))
	}
	if plain, err := ua.Open(must64(t, rfcBody)); err != nil || string(plain) != rfcPlain {
		t.Errorf("the browser opened %q, %v", plain, err)
	}
}

func newBrowser(t *testing.T) *webpushtest.Browser {
	t.Helper()
	b, err := webpushtest.NewBrowser()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func subscriptionOf(b *webpushtest.Browser, endpoint string) Subscription {
	return Subscription{Endpoint: endpoint, P256dh: b.P256dh(), Auth: b.Auth()}
}

func TestEncryptRoundTrip(t *testing.T) {
	b := newBrowser(t)
	sub := subscriptionOf(b, "https://push.example.net/x")
	for _, n := range []int{0, 1, 100, MaxPayload} {
		payload := make([]byte, n)
		rand.Read(payload)
		body, err := Encrypt(sub, payload)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if len(body) > 4096 {
			t.Errorf("%d bytes: a body of %d bytes, over 4096", n, len(body))
		}
		got, err := b.Open(body)
		if err != nil {
			t.Fatalf("%d bytes: open: %v", n, err)
		}
		if string(got) != string(payload) {
			t.Errorf("%d bytes: the payload changed", n)
		}
		// A flipped bit fails the tag.
		body[len(body)-1] ^= 1
		if _, err := b.Open(body); err == nil {
			t.Errorf("%d bytes: a changed body opened", n)
		}
	}
	// Two messages never share a salt or a key.
	x, _ := Encrypt(sub, []byte("a"))
	y, _ := Encrypt(sub, []byte("a"))
	if string(x[:86]) == string(y[:86]) {
		t.Error("two messages with the same header")
	}
	if _, err := Encrypt(sub, make([]byte, MaxPayload+1)); err == nil {
		t.Error("a payload over the bound was taken")
	}
}

func TestParseSubscription(t *testing.T) {
	b := newBrowser(t)
	key, auth := encode64(b.P256dh()), encode64(b.Auth())
	tests := []struct {
		name, endpoint, key, auth, err string
	}{
		{"ok", "https://fcm.googleapis.com/fcm/send/abc", key, auth, ""},
		{"padded", "https://fcm.googleapis.com/fcm/send/abc", key + "=", auth + "==", ""},
		{"http", "http://fcm.googleapis.com/x", key, auth, "https"},
		{"no host", "https:///x", key, auth, "https"},
		{"user", "https://a:b@push.example.net/x", key, auth, "https"},
		{"bad url", "https://%zz", key, auth, "endpoint"},
		{"long", "https://push.example.net/" + strings.Repeat("a", MaxEndpoint), key, auth, "over"},
		{"key not base64", "https://push.example.net/x", "!!", auth, "p256dh"},
		{"key short", "https://push.example.net/x", key[:40], auth, "p256dh"},
		{"key off the curve", "https://push.example.net/x", encode64(append([]byte{4}, make([]byte, 64)...)), auth, "p256dh"},
		{"auth short", "https://push.example.net/x", key, auth[:10], "auth"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSubscription(tc.endpoint, tc.key, tc.auth)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.err != "" && err == nil:
				t.Fatal("taken")
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Fatalf("error %q does not say %q", err, tc.err)
			}
		})
	}
}

func TestKeys(t *testing.T) {
	k, err := NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseKeys(k.Private())
	if err != nil {
		t.Fatal(err)
	}
	if again.Public() != k.Public() || len(must64(t, k.Public())) != 65 {
		t.Errorf("public key %s after a round trip, was %s", again.Public(), k.Public())
	}
	for _, bad := range []string{"", "!!", encode64(make([]byte, 32)), encode64(make([]byte, 31))} {
		if _, err := ParseKeys(bad); err == nil {
			t.Errorf("ParseKeys(%q) took it", bad)
		}
	}
}

// checkToken verifies an Authorization header against the public key and
// returns its claims.
func checkToken(t *testing.T, header, public string) map[string]any {
	t.Helper()
	rest, ok := strings.CutPrefix(header, "vapid t=")
	if !ok {
		t.Fatalf("authorization %q", header)
	}
	jwt, k, ok := strings.Cut(rest, ", k=")
	if !ok || k != public {
		t.Fatalf("authorization %q: key %q, want %q", header, k, public)
	}
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q", jwt)
	}
	var head map[string]string
	if err := json.Unmarshal(must64(t, parts[0]), &head); err != nil || head["alg"] != "ES256" || head["typ"] != "JWT" {
		t.Fatalf("token header %s: %v", must64(t, parts[0]), err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), must64(t, public))
	if err != nil {
		t.Fatal(err)
	}
	sig := must64(t, parts[2])
	h := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(pub, h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("the token's signature does not verify")
	}
	var claims map[string]any
	if err := json.Unmarshal(must64(t, parts[1]), &claims); err != nil {
		t.Fatal(err)
	}
	return claims
}

func TestAuthorization(t *testing.T) {
	k, _ := NewKeys()
	now := time.Unix(1_800_000_000, 0)
	a, err := k.Authorization("https://push.example.net:8443/send/abc?x=1", "mailto:ops@example.org", now)
	if err != nil {
		t.Fatal(err)
	}
	c := checkToken(t, a, k.Public())
	if c["aud"] != "https://push.example.net:8443" || c["sub"] != "mailto:ops@example.org" || c["exp"] != float64(now.Add(12*time.Hour).Unix()) {
		t.Errorf("claims %v", c)
	}
	// Used again within the hour, for the same origin only.
	if b, _ := k.Authorization("https://push.example.net:8443/send/other", "mailto:ops@example.org", now.Add(30*time.Minute)); b != a {
		t.Error("a new token within the hour")
	}
	if b, _ := k.Authorization("https://push.example.net:8443/send/abc", "mailto:ops@example.org", now.Add(61*time.Minute)); b == a {
		t.Error("the same token after an hour")
	}
	if b, _ := k.Authorization("https://other.example.net/send/abc", "mailto:ops@example.org", now); b == a {
		t.Error("one token for two origins")
	}
}

func TestSend(t *testing.T) {
	k, _ := NewKeys()
	b := newBrowser(t)
	svc := webpushtest.NewService()
	defer svc.Close()
	client := svc.Client()
	client.CheckRedirect = defaultClient.CheckRedirect
	s := &Sender{Keys: k, Subject: "https://atril.example", Client: client}
	sub := subscriptionOf(b, svc.URL+"/push/abc")
	m := Message{Payload: []byte(`{"title":"Your move"}`), TTL: 2 * time.Hour, Urgency: "high", Topic: "g-abc123"}
	if err := s.Send(context.Background(), sub, m); err != nil {
		t.Fatal(err)
	}
	got := svc.Messages()
	if len(got) != 1 || got[0].Path != "/push/abc" {
		t.Fatalf("the service got %+v", got)
	}
	plain, err := b.Open(got[0].Body)
	if err != nil || string(plain) != string(m.Payload) {
		t.Fatalf("the service got %q (%v)", plain, err)
	}
	hdr := got[0].Header
	for h, want := range map[string]string{"Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream",
		"Ttl": "7200", "Urgency": "high", "Topic": "g-abc123"} {
		if hdr.Get(h) != want {
			t.Errorf("header %s: %q, want %q", h, hdr.Get(h), want)
		}
	}
	if c := checkToken(t, hdr.Get("Authorization"), k.Public()); c["aud"] != svc.URL || c["sub"] != "https://atril.example" {
		t.Errorf("claims %v", c)
	}
	for _, tc := range []struct {
		status int
		gone   bool
	}{{http.StatusNotFound, true}, {http.StatusGone, true}, {http.StatusTooManyRequests, false}, {http.StatusFound, false}, {http.StatusInternalServerError, false}} {
		svc.SetStatus("/push/abc", tc.status)
		err := s.Send(context.Background(), sub, m)
		if err == nil || errors.Is(err, ErrGone) != tc.gone {
			t.Errorf("status %d: error %v", tc.status, err)
		}
		if err != nil && strings.Contains(err.Error(), "/push/abc") {
			t.Errorf("status %d: the error %q names the subscription's path", tc.status, err)
		}
	}
	if err := s.Send(context.Background(), sub, Message{Topic: "no spaces"}); err == nil {
		t.Error("a bad topic was sent")
	}
}

// FuzzParseSubscription: any subscription a client sends is refused with
// an error or taken with an https endpoint and keys that encrypt.
func FuzzParseSubscription(f *testing.F) {
	f.Add("https://push.example.net/x", rfcUAPublic, rfcAuth)
	f.Add("https://push.example.net:8443/a?b=c", rfcUAPublic+"=", rfcAuth+"==")
	f.Add("http://x", "", "")
	f.Add("https://%zz", "!!", "AAAA")
	f.Fuzz(func(t *testing.T, endpoint, key, auth string) {
		sub, err := ParseSubscription(endpoint, key, auth)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "webpush: ") {
				t.Errorf("error %q", err)
			}
			return
		}
		if !strings.HasPrefix(sub.Endpoint, "https://") || len(sub.P256dh) != 65 || len(sub.Auth) != 16 {
			t.Fatalf("taken: %+v", sub)
		}
		if _, err := Encrypt(sub, []byte("x")); err != nil {
			t.Errorf("a taken subscription does not encrypt: %v", err)
		}
	})
}

// TestSendFailureNamesNoPath: a post that gets no answer (no server
// there; no answer in time) fails with an error that names the push
// service's host but not the subscription's path, its secret.
func TestSendFailureNamesNoPath(t *testing.T) {
	k, _ := NewKeys()
	b := newBrowser(t)
	svc := webpushtest.NewService()
	client := svc.Client()
	addr := svc.URL
	svc.Close()
	s := &Sender{Keys: k, Subject: "https://atril.example", Client: client}
	m := Message{Payload: []byte(`{"title":"Your move"}`), TTL: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, ctx := range map[string]context.Context{"refused": context.Background(), "cancelled": ctx} {
		err := s.Send(ctx, subscriptionOf(b, addr+"/push/secret-path"), m)
		if err == nil {
			t.Fatalf("%s: sent", name)
		}
		if strings.Contains(err.Error(), "secret-path") || !strings.Contains(err.Error(), strings.TrimPrefix(addr, "https://")) {
			t.Errorf("%s: the error %q names the subscription's path, or not its host", name, err)
		}
	}
}

// TestAuthorizationOrigin: the token's audience is the endpoint's origin
// as RFC 6454 writes it (RFC 8292, section 2), the host in lower case and
// https's port left out, however the endpoint writes them.
func TestAuthorizationOrigin(t *testing.T) {
	k, _ := NewKeys()
	now := time.Unix(1_800_000_000, 0)
	for endpoint, want := range map[string]string{
		"https://push.example.net/send/a":            "https://push.example.net",
		"https://push.example.net:443/send/a":        "https://push.example.net",
		"https://Push.Example.NET/send/a":            "https://push.example.net",
		"HTTPS://PUSH.example.net:443/send/a":        "https://push.example.net",
		"https://push.example.net:8443/send/a":       "https://push.example.net:8443",
		"https://[2001:db8::1]:443/send/a":           "https://[2001:db8::1]",
		"https://[2001:DB8::1]:8443/send/a":          "https://[2001:db8::1]:8443",
		"https://push.example.net:/send/a":           "https://push.example.net",
		"https://PUSH.example.net:8443/send/a?x=1#y": "https://push.example.net:8443",
	} {
		a, err := k.Authorization(endpoint, "mailto:ops@example.org", now)
		if err != nil {
			t.Fatal(err)
		}
		if c := checkToken(t, a, k.Public()); c["aud"] != want {
			t.Errorf("%s: audience %v, want %s", endpoint, c["aud"], want)
		}
	}
}
