// Package webpush sends Web Push messages: the payload encrypted for the
// browser that subscribed (Thomson, "Message Encryption for Web Push",
// RFC 8291, over the "aes128gcm" content coding of Thomson, "Encrypted
// Content-Encoding for HTTP", RFC 8188), and the application server
// identified to the push service by a signed token (Thomson and
// Beverloo, "Voluntary Application Server Identification (VAPID) for
// Web Push", RFC 8292), delivered as Thomson, Damaggio and Raymor,
// "Generic Event Delivery Using HTTP Push", RFC 8030, section 5,
// describes.
//
// A Sender is safe for use by many goroutines.
package webpush

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Subscription is where and for whom a browser receives messages: what
// its PushSubscription.toJSON() gives.
type Subscription struct {
	// Endpoint is the push service's address for this subscription.
	Endpoint string
	// P256dh is the browser's public key, an uncompressed P-256 point
	// of 65 bytes.
	P256dh []byte
	// Auth is the browser's authentication secret, 16 bytes.
	Auth []byte
}

// MaxEndpoint bounds the length of an endpoint's address, in bytes.
const MaxEndpoint = 1024

// ParseSubscription checks a subscription as a browser sends it: an
// https endpoint, and its keys in unpadded base64url (padding is
// accepted too).
func ParseSubscription(endpoint, p256dh, auth string) (Subscription, error) {
	var s Subscription
	if len(endpoint) > MaxEndpoint {
		return s, fmt.Errorf("webpush: endpoint of %d bytes, over %d", len(endpoint), MaxEndpoint)
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return s, fmt.Errorf("webpush: endpoint: %w", err)
	}
	if u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" {
		return s, fmt.Errorf("webpush: endpoint %q: want an https address with a host, no user or fragment", short(endpoint))
	}
	key, err := decode64(p256dh)
	if err != nil {
		return s, fmt.Errorf("webpush: key p256dh: %w", err)
	}
	if _, err := ecdh.P256().NewPublicKey(key); err != nil || len(key) != 65 {
		return s, fmt.Errorf("webpush: key p256dh: not an uncompressed P-256 point (%d bytes)", len(key))
	}
	secret, err := decode64(auth)
	if err != nil {
		return s, fmt.Errorf("webpush: key auth: %w", err)
	}
	if len(secret) != 16 {
		return s, fmt.Errorf("webpush: key auth: %d bytes, want 16", len(secret))
	}
	return Subscription{Endpoint: endpoint, P256dh: key, Auth: secret}, nil
}

// short cuts a text for an error message.
func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// decode64 reads base64url, padded or not.
func decode64(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// encode64 writes unpadded base64url.
func encode64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// Keys is the application server's key pair (VAPID): its public half is
// the applicationServerKey a page subscribes with, and its private half
// signs every request, so a push service takes messages for a
// subscription only from the server it was made for.
type Keys struct {
	priv *ecdsa.PrivateKey
	pub  string // the public key, base64url

	mu     sync.Mutex
	tokens map[string]token // by audience
}

// token is a signed token and when it stops being used.
type token struct {
	jwt   string
	until time.Time
}

// NewKeys makes a new key pair.
func NewKeys() (*Keys, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("webpush: new keys: %w", err)
	}
	return keysOf(priv)
}

// ParseKeys reads a key pair written by Keys.Private.
func ParseKeys(private string) (*Keys, error) {
	d, err := decode64(private)
	if err != nil {
		return nil, fmt.Errorf("webpush: private key: %w", err)
	}
	priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
	if err != nil {
		return nil, fmt.Errorf("webpush: private key: %w", err)
	}
	return keysOf(priv)
}

func keysOf(priv *ecdsa.PrivateKey) (*Keys, error) {
	pub, err := priv.PublicKey.Bytes()
	if err != nil {
		return nil, fmt.Errorf("webpush: public key: %w", err)
	}
	return &Keys{priv: priv, pub: encode64(pub), tokens: map[string]token{}}, nil
}

// Public is the public key in unpadded base64url: the
// applicationServerKey of a page's pushManager.subscribe.
func (k *Keys) Public() string { return k.pub }

// Private is the private key in unpadded base64url (32 bytes), to keep
// and read back with ParseKeys.
func (k *Keys) Private() string {
	d, err := k.priv.Bytes()
	if err != nil {
		// A key made by NewKeys or ParseKeys always has its bytes.
		panic(fmt.Sprintf("webpush: private key: %v", err))
	}
	return encode64(d)
}

// tokenLife is how long a signed token is valid (RFC 8292, section 2:
// at most 24 hours), and tokenReuse how long one is used before a new
// one is signed.
const (
	tokenLife  = 12 * time.Hour
	tokenReuse = time.Hour
)

// Authorization is the value of the Authorization header of a request to
// endpoint: "vapid t=<token>, k=<public key>" (RFC 8292, section 3),
// the token a JWT signed with ES256 naming the endpoint's origin, an
// expiry 12 hours after now and subject, the server's contact (a
// mailto: or https: address). A token is used again for an hour.
func (k *Keys) Authorization(endpoint, subject string, now time.Time) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("webpush: endpoint: %w", err)
	}
	aud := origin(u)
	k.mu.Lock()
	defer k.mu.Unlock()
	if t, ok := k.tokens[aud]; ok && now.Before(t.until) {
		return "vapid t=" + t.jwt + ", k=" + k.pub, nil
	}
	jwt, err := k.sign(aud, subject, now.Add(tokenLife))
	if err != nil {
		return "", err
	}
	if len(k.tokens) > 64 {
		clear(k.tokens)
	}
	k.tokens[aud] = token{jwt: jwt, until: now.Add(tokenReuse)}
	return "vapid t=" + jwt + ", k=" + k.pub, nil
}

// origin is u's origin as RFC 6454, section 6.1, writes it: the host in
// lower case, the scheme's default port left out.
func origin(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if p := u.Port(); p != "" && !(p == "443" && u.Scheme == "https" || p == "80" && u.Scheme == "http") {
		host += ":" + p
	}
	return u.Scheme + "://" + host
}

// sign makes the JWT of Authorization.
func (k *Keys) sign(aud, subject string, exp time.Time) (string, error) {
	claims, err := json.Marshal(struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub,omitempty"`
	}{aud, exp.Unix(), subject})
	if err != nil {
		return "", fmt.Errorf("webpush: token: %w", err)
	}
	signed := encode64([]byte(`{"typ":"JWT","alg":"ES256"}`)) + "." + encode64(claims)
	h := sha256.Sum256([]byte(signed))
	r, s, err := ecdsa.Sign(rand.Reader, k.priv, h[:])
	if err != nil {
		return "", fmt.Errorf("webpush: token: %w", err)
	}
	var sig [64]byte
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signed + "." + encode64(sig[:]), nil
}

// recordSize is the record size written in a message's header. A
// message is one record, so this only bounds the payload.
const recordSize = 4096

// MaxPayload is the longest payload Encrypt takes: a push service need
// take no more than 4096 bytes of message (RFC 8291, section 4), of
// which the header holds 86 and the cipher's tag and the record's
// delimiter 17.
const MaxPayload = 4096 - 86 - 17

// Encrypt encrypts payload for sub as a message body of content coding
// aes128gcm: a new ephemeral key pair and salt each time.
func Encrypt(sub Subscription, payload []byte) ([]byte, error) {
	eph, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("webpush: ephemeral key: %w", err)
	}
	salt := make([]byte, 16)
	if _, err := io.ReadFull(rand.Reader, salt); err != nil {
		return nil, fmt.Errorf("webpush: salt: %w", err)
	}
	return encrypt(sub, payload, eph, salt)
}

// encrypt is Encrypt with the ephemeral key and salt given (RFC 8291,
// section 3.4, and RFC 8188, section 2): the shared secret of eph and
// the browser's key, mixed with the browser's secret and both public
// keys into the input keying material; from it and the salt the content
// key and nonce; the payload, its delimiter 2 (the last record), sealed
// with AES-128-GCM; all after a header of the salt, the record size and
// eph's public key.
func encrypt(sub Subscription, payload []byte, eph *ecdh.PrivateKey, salt []byte) ([]byte, error) {
	if len(payload) > MaxPayload {
		return nil, fmt.Errorf("webpush: payload of %d bytes, over %d", len(payload), MaxPayload)
	}
	ua, err := ecdh.P256().NewPublicKey(sub.P256dh)
	if err != nil {
		return nil, fmt.Errorf("webpush: browser's key: %w", err)
	}
	shared, err := eph.ECDH(ua)
	if err != nil {
		return nil, fmt.Errorf("webpush: shared secret: %w", err)
	}
	asPub := eph.PublicKey().Bytes()
	info := "WebPush: info\x00" + string(sub.P256dh) + string(asPub)
	ikm, err := hkdf.Key(sha256.New, shared, sub.Auth, info, 32)
	if err != nil {
		return nil, fmt.Errorf("webpush: keying material: %w", err)
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, fmt.Errorf("webpush: keying material: %w", err)
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, fmt.Errorf("webpush: content key: %w", err)
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, fmt.Errorf("webpush: nonce: %w", err)
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, fmt.Errorf("webpush: cipher: %w", err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("webpush: cipher: %w", err)
	}
	out := make([]byte, 0, 16+4+1+len(asPub)+len(payload)+1+gcm.Overhead())
	out = append(out, salt...)
	out = binary.BigEndian.AppendUint32(out, recordSize)
	out = append(out, byte(len(asPub)))
	out = append(out, asPub...)
	plain := append(append(make([]byte, 0, len(payload)+1), payload...), 2)
	return gcm.Seal(out, nonce, plain, nil), nil
}

// ErrGone reports that the push service no longer knows a subscription
// (404 or 410): forget it.
var ErrGone = errors.New("webpush: the subscription is gone")

// Message is what Send delivers.
type Message struct {
	// Payload is the data the browser's service worker receives.
	Payload []byte
	// TTL is how long the push service keeps the message for a
	// browser that is not reachable; 0 delivers it now or never.
	TTL time.Duration
	// Urgency is "very-low", "low", "normal" or "high" ("" for normal).
	Urgency string
	// Topic, when set, replaces a message of the same topic that the
	// push service still holds (at most 32 characters of base64url's
	// alphabet).
	Topic string
}

// Sender sends messages with its keys through Client.
type Sender struct {
	Keys *Keys
	// Subject is the server's contact in every token: a mailto: or
	// https: address.
	Subject string
	// Client makes the requests: it should have a timeout and follow no
	// redirect (nil: one that waits 10 s and follows none).
	Client *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

var defaultClient = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// topicOK reports whether a topic fits RFC 8030, section 5.4.
func topicOK(t string) bool {
	if len(t) > 32 {
		return false
	}
	for _, c := range t {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Send encrypts m for sub and posts it to sub's endpoint. It returns nil
// when the push service took the message (201 or another 2xx), ErrGone
// (wrapped) when the subscription is gone, and another error otherwise.
func (s *Sender) Send(ctx context.Context, sub Subscription, m Message) error {
	if !topicOK(m.Topic) {
		return fmt.Errorf("webpush: topic %q: at most 32 letters, digits, - or _", short(m.Topic))
	}
	body, err := Encrypt(sub, m.Payload)
	if err != nil {
		return err
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	auth, err := s.Keys.Authorization(sub.Endpoint, s.Subject, now())
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.Endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("webpush: request: %w", err)
	}
	h := req.Header
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Encoding", "aes128gcm")
	h.Set("TTL", strconv.Itoa(int(m.TTL/time.Second)))
	h.Set("Authorization", auth)
	if m.Urgency != "" {
		h.Set("Urgency", m.Urgency)
	}
	if m.Topic != "" {
		h.Set("Topic", m.Topic)
	}
	c := s.Client
	if c == nil {
		c = defaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		// Without the *url.Error around it, which names the whole
		// address.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("webpush: post to %s: %w", host(sub.Endpoint), err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return fmt.Errorf("%w (%s answered %s)", ErrGone, host(sub.Endpoint), resp.Status)
	default:
		return fmt.Errorf("webpush: %s answered %s: %s", host(sub.Endpoint), resp.Status, short(strings.TrimSpace(string(msg))))
	}
}

// host is an endpoint's host, for messages (the path is the secret of a
// subscription).
func host(endpoint string) string {
	if u, err := url.Parse(endpoint); err == nil {
		return u.Host
	}
	return "the push service"
}
