// Package webauthntest is an authenticator for tests: it makes passkeys
// for a site and signs assertions with them, writing what a browser
// hands the site (W3C, "Web Authentication, Level 2", sections 6.1 and
// 6.5), with "none" attestation.
package webauthntest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
)

// The COSE algorithms it makes keys for.
const (
	ES256 = -7
	EdDSA = -8
	RS256 = -257
)

// Authenticator holds passkeys for one site.
type Authenticator struct {
	RPID, Origin string
	// Counter makes the authenticator keep a signature counter (else it
	// reports 0 always).
	Counter bool
	creds   map[string]*cred
}

type cred struct {
	id     []byte
	signer crypto.Signer
	alg    int
	user   []byte
	count  uint32
}

// New is an authenticator for the site rpID, used from the page origin.
func New(rpID, origin string) *Authenticator {
	return &Authenticator{RPID: rpID, Origin: origin, Counter: true, creds: map[string]*cred{}}
}

// Response is what a browser gives the site from a ceremony, each part
// in unpadded base64url as the site's page sends it.
type Response struct {
	ID, ClientDataJSON, AttestationObject, AuthenticatorData, Signature, UserHandle string
}

var b64 = base64.RawURLEncoding.EncodeToString

// Create makes a passkey of algorithm alg for the user handle user, in
// answer to challenge.
func (a *Authenticator) Create(challenge, user []byte, alg int) (*Response, error) {
	c := &cred{id: make([]byte, 32), alg: alg, user: user}
	rand.Read(c.id)
	var key []byte
	switch alg {
	case ES256:
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		c.signer = k
		pt, _ := k.PublicKey.Bytes()
		key = encode(map[any]any{int64(1): int64(2), int64(3): int64(ES256), int64(-1): int64(1), int64(-2): pt[1:33], int64(-3): pt[33:]})
	case EdDSA:
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		c.signer = priv
		key = encode(map[any]any{int64(1): int64(1), int64(3): int64(EdDSA), int64(-1): int64(6), int64(-2): []byte(pub)})
	case RS256:
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			return nil, err
		}
		c.signer = k
		key = encode(map[any]any{int64(1): int64(3), int64(3): int64(RS256), int64(-1): k.N.Bytes(), int64(-2): big.NewInt(int64(k.E)).Bytes()})
	default:
		return nil, fmt.Errorf("webauthntest: algorithm %d", alg)
	}
	ad := a.authData(0x41, 0) // user present, attested credential data
	ad = append(ad, make([]byte, 16)...)
	ad = binary.BigEndian.AppendUint16(ad, uint16(len(c.id)))
	ad = append(ad, c.id...)
	ad = append(ad, key...)
	att := encode(map[any]any{"fmt": "none", "attStmt": map[any]any{}, "authData": ad})
	a.creds[string(c.id)] = c
	return &Response{ID: b64(c.id), ClientDataJSON: b64(a.clientData("webauthn.create", challenge)), AttestationObject: b64(att)}, nil
}

// Get signs an assertion for challenge with the passkey of id (nil: the
// one the authenticator holds, which must be one).
func (a *Authenticator) Get(challenge, id []byte) (*Response, error) {
	c := a.creds[string(id)]
	if id == nil && len(a.creds) == 1 {
		for _, x := range a.creds {
			c = x
		}
	}
	if c == nil {
		return nil, fmt.Errorf("webauthntest: no passkey %x", id)
	}
	if a.Counter {
		c.count++
	}
	ad := a.authData(0x05, c.count) // user present and verified
	cd := a.clientData("webauthn.get", challenge)
	h := sha256.Sum256(cd)
	msg := append(append([]byte(nil), ad...), h[:]...)
	var sig []byte
	var err error
	switch c.alg {
	case EdDSA:
		sig, err = c.signer.Sign(rand.Reader, msg, crypto.Hash(0))
	default:
		d := sha256.Sum256(msg)
		sig, err = c.signer.Sign(rand.Reader, d[:], crypto.SHA256)
	}
	if err != nil {
		return nil, err
	}
	return &Response{ID: b64(c.id), ClientDataJSON: b64(cd), AuthenticatorData: b64(ad), Signature: b64(sig), UserHandle: b64(c.user)}, nil
}

// SetCount sets the counter of the passkey of id (to replay an old one).
func (a *Authenticator) SetCount(id []byte, n uint32) { a.creds[string(id)].count = n }

func (a *Authenticator) authData(flags byte, count uint32) []byte {
	h := sha256.Sum256([]byte(a.RPID))
	out := append(h[:], flags)
	return binary.BigEndian.AppendUint32(out, count)
}

func (a *Authenticator) clientData(typ string, challenge []byte) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": b64(challenge), "origin": a.Origin, "crossOrigin": false})
	return b
}

// encode writes v as CBOR: int64, []byte, string, map[any]any (keys in
// the canonical order: shorter encodings first, then bytewise).
func encode(v any) []byte {
	switch x := v.(type) {
	case int64:
		if x >= 0 {
			return head(0, uint64(x))
		}
		return head(1, uint64(-1-x))
	case []byte:
		return append(head(2, uint64(len(x))), x...)
	case string:
		return append(head(3, uint64(len(x))), x...)
	case map[any]any:
		type kv struct{ k, v []byte }
		var kvs []kv
		for k, val := range x {
			kvs = append(kvs, kv{encode(k), encode(val)})
		}
		sort.Slice(kvs, func(i, j int) bool {
			if len(kvs[i].k) != len(kvs[j].k) {
				return len(kvs[i].k) < len(kvs[j].k)
			}
			return string(kvs[i].k) < string(kvs[j].k)
		})
		out := head(5, uint64(len(kvs)))
		for _, p := range kvs {
			out = append(append(out, p.k...), p.v...)
		}
		return out
	}
	panic(fmt.Sprintf("webauthntest: cannot encode %T", v))
}

func head(major byte, n uint64) []byte {
	switch {
	case n < 24:
		return []byte{major<<5 | byte(n)}
	case n < 1<<8:
		return []byte{major<<5 | 24, byte(n)}
	case n < 1<<16:
		return binary.BigEndian.AppendUint16([]byte{major<<5 | 25}, uint16(n))
	case n < 1<<32:
		return binary.BigEndian.AppendUint32([]byte{major<<5 | 26}, uint32(n))
	}
	return binary.BigEndian.AppendUint64([]byte{major<<5 | 27}, n)
}
