// Package webpushtest provides the other two parties of Web Push for
// tests: a browser, which holds a subscription's keys and opens what it
// receives (Thomson, "Message Encryption for Web Push", RFC 8291,
// section 3.4, and "Encrypted Content-Encoding for HTTP", RFC 8188,
// section 2, written apart from the sender's side), and a push service,
// an https server that keeps every message posted to it.
package webpushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Browser is a browser's side of a subscription.
type Browser struct {
	priv *ecdh.PrivateKey
	auth []byte
}

// NewBrowser makes a browser with new keys.
func NewBrowser() (*Browser, error) {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	auth := make([]byte, 16)
	if _, err := io.ReadFull(rand.Reader, auth); err != nil {
		return nil, err
	}
	return &Browser{priv: priv, auth: auth}, nil
}

// BrowserOf is the browser of a private key and authentication secret
// (each as bytes).
func BrowserOf(private, auth []byte) (*Browser, error) {
	priv, err := ecdh.P256().NewPrivateKey(private)
	if err != nil {
		return nil, err
	}
	return &Browser{priv: priv, auth: auth}, nil
}

// P256dh is the browser's public key, an uncompressed point.
func (b *Browser) P256dh() []byte { return b.priv.PublicKey().Bytes() }

// Auth is the browser's authentication secret.
func (b *Browser) Auth() []byte { return b.auth }

// JSON is the subscription at endpoint as a page sends it
// (PushSubscription.toJSON()).
func (b *Browser) JSON(endpoint string) map[string]any {
	enc := base64.RawURLEncoding.EncodeToString
	return map[string]any{"endpoint": endpoint, "expirationTime": nil,
		"keys": map[string]string{"p256dh": enc(b.P256dh()), "auth": enc(b.auth)}}
}

// Open decrypts a message body of content coding aes128gcm sent to b.
func (b *Browser) Open(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("webpushtest: a body shorter than its header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen {
		return nil, errors.New("webpushtest: a body shorter than its key id")
	}
	keyID, record := body[21:21+idlen], body[21+idlen:]
	if uint32(len(record)) > rs {
		return nil, fmt.Errorf("webpushtest: a record of %d bytes, over the record size %d", len(record), rs)
	}
	asPub, err := ecdh.P256().NewPublicKey(keyID)
	if err != nil {
		return nil, fmt.Errorf("webpushtest: the sender's key: %w", err)
	}
	secret, err := b.priv.ECDH(asPub)
	if err != nil {
		return nil, err
	}
	prk1, err := hkdf.Extract(sha256.New, secret, b.auth)
	if err != nil {
		return nil, err
	}
	ikm, err := hkdf.Expand(sha256.New, prk1, "WebPush: info\x00"+string(b.P256dh())+string(keyID), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	blk, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(blk)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, fmt.Errorf("webpushtest: open the record: %w", err)
	}
	i := len(plain) - 1
	for i >= 0 && plain[i] == 0 {
		i--
	}
	if i < 0 || plain[i] != 2 {
		return nil, errors.New("webpushtest: no last-record delimiter")
	}
	return plain[:i], nil
}

// Message is a message a Service received.
type Message struct {
	Path   string
	Header http.Header
	Body   []byte
}

// Service is a push service: an https server (httptest's, whose Client
// trusts it) that answers every POST with 201, or with the status set
// for its path, and keeps the message.
type Service struct {
	*httptest.Server

	mu     sync.Mutex
	msgs   []Message
	status map[string]int
	more   chan struct{}
}

// NewService starts a push service; Close stops it.
func NewService() *Service {
	s := &Service{status: map[string]int{}, more: make(chan struct{})}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		code, ok := s.status[r.URL.Path]
		if !ok {
			code = http.StatusCreated
		}
		s.msgs = append(s.msgs, Message{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		close(s.more)
		s.more = make(chan struct{})
		s.mu.Unlock()
		w.WriteHeader(code)
	}))
	return s
}

// SetStatus makes the service answer code to messages for path.
func (s *Service) SetStatus(path string, code int) {
	s.mu.Lock()
	s.status[path] = code
	s.mu.Unlock()
}

// Messages returns the messages received so far.
func (s *Service) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Wait returns the messages once there are at least n, or what there is
// after timeout.
func (s *Service) Wait(n int, timeout time.Duration) []Message {
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		if len(s.msgs) >= n {
			out := append([]Message(nil), s.msgs...)
			s.mu.Unlock()
			return out
		}
		more := s.more
		s.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			return s.Messages()
		}
	}
}
