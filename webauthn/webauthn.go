// Package webauthn is the relying party's side of passkeys: it checks a
// browser's new public-key credential and its signed assertions, as the
// W3C's "Web Authentication: An API for accessing Public Key Credentials,
// Level 2", sections 7.1 (registering a new credential) and 7.2
// (verifying an authentication assertion), describe. It asks for no
// attestation and checks none: a passkey is trusted as the key the
// account registered, not as a kind of device.
//
// Keys are read from their COSE form (Schaad, "CBOR Object Signing and
// Encryption (COSE)", RFC 9052/9053): ES256 (P-256), EdDSA (Ed25519) and
// RS256 (RSA of 2048 to 4096 bits: a modulus of tens of thousands of bits
// would make checking each signature take a processor for a second).
package webauthn

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
)

// The algorithms a credential may sign with (COSE algorithm numbers),
// in the order a page offers them.
const (
	ES256 = -7
	EdDSA = -8
	RS256 = -257
)

// Algorithms are the algorithms taken, most preferred first.
var Algorithms = []int{ES256, EdDSA, RS256}

// MaxCredentialID bounds a credential id's length in bytes.
const MaxCredentialID = 1023

// RelyingParty is the site that passkeys are for.
type RelyingParty struct {
	// ID is the site's host name (the RP ID): a passkey made for it
	// signs for it only.
	ID string
	// Origins are the page's origins ("https://example.org") a
	// credential may be made or used from.
	Origins []string
}

// Credential is a registered passkey.
type Credential struct {
	ID []byte
	// PublicKey is the key in its COSE form, Alg its algorithm.
	PublicKey []byte
	Alg       int
	// SignCount is the authenticator's counter at the last use (0 for
	// authenticators that keep none).
	SignCount uint32
}

// Error is a credential or assertion refused, saying why.
type Error struct{ Reason string }

func (e *Error) Error() string { return "webauthn: " + e.Reason }

func refuse(format string, args ...any) error { return &Error{Reason: fmt.Sprintf(format, args...)} }

// The flags of authenticator data.
const (
	flagUP = 0x01 // the user was present
	flagUV = 0x04 // the user was verified
	flagAT = 0x40 // attested credential data follows
	flagED = 0x80 // extensions follow
)

// clientData is the part of CollectedClientData that is checked.
type clientData struct {
	Type        string `json:"type"`
	Challenge   string `json:"challenge"`
	Origin      string `json:"origin"`
	CrossOrigin bool   `json:"crossOrigin"`
}

// ChallengeOf returns the challenge a browser's clientDataJSON answers
// (the bytes the relying party gave), so that the relying party can look
// it up before verifying.
func ChallengeOf(clientDataJSON []byte) ([]byte, error) {
	var c clientData
	if err := json.Unmarshal(clientDataJSON, &c); err != nil {
		return nil, refuse("the client data is not JSON: %v", err)
	}
	ch, err := base64.RawURLEncoding.DecodeString(c.Challenge)
	if err != nil || len(ch) == 0 {
		return nil, refuse("the client data's challenge is not base64url")
	}
	return ch, nil
}

// checkClientData checks the client data of a ceremony of type typ.
func (rp *RelyingParty) checkClientData(clientDataJSON []byte, typ string, challenge []byte) error {
	var c clientData
	if err := json.Unmarshal(clientDataJSON, &c); err != nil {
		return refuse("the client data is not JSON: %v", err)
	}
	if c.Type != typ {
		return refuse("the client data is of type %q, want %q", c.Type, typ)
	}
	got, err := base64.RawURLEncoding.DecodeString(c.Challenge)
	if err != nil || subtle.ConstantTimeCompare(got, challenge) != 1 {
		return refuse("the client data answers another challenge")
	}
	if !slices.Contains(rp.Origins, c.Origin) {
		return refuse("the client data comes from %q, not this site", c.Origin)
	}
	if c.CrossOrigin {
		return refuse("the ceremony ran in a frame of another site")
	}
	return nil
}

// authData is authenticator data, read.
type authData struct {
	rpIDHash  []byte
	flags     byte
	signCount uint32
	credID    []byte
	key       []byte // COSE
}

// parseAuthData reads authenticator data (section 6.1).
func parseAuthData(b []byte) (*authData, error) {
	if len(b) < 37 {
		return nil, refuse("authenticator data of %d bytes, under 37", len(b))
	}
	a := &authData{rpIDHash: b[:32], flags: b[32], signCount: binary.BigEndian.Uint32(b[33:37])}
	rest := b[37:]
	if a.flags&flagAT != 0 {
		if len(rest) < 18 {
			return nil, refuse("attested credential data cut short")
		}
		n := int(binary.BigEndian.Uint16(rest[16:18]))
		rest = rest[18:]
		if n == 0 || n > MaxCredentialID || n > len(rest) {
			return nil, refuse("a credential id of %d bytes", n)
		}
		a.credID, rest = rest[:n], rest[n:]
		_, m, err := decodeCBOR(rest)
		if err != nil {
			return nil, refuse("the credential's key: %v", err)
		}
		a.key, rest = rest[:m], rest[m:]
	}
	if a.flags&flagED != 0 {
		_, m, err := decodeCBOR(rest)
		if err != nil {
			return nil, refuse("the extensions: %v", err)
		}
		rest = rest[m:]
	}
	if len(rest) != 0 {
		return nil, refuse("%d bytes after the authenticator data", len(rest))
	}
	return a, nil
}

// checkAuthData checks what every ceremony asks of authenticator data:
// made for this site, with the user present.
func (rp *RelyingParty) checkAuthData(a *authData) error {
	want := sha256.Sum256([]byte(rp.ID))
	if !bytes.Equal(a.rpIDHash, want[:]) {
		return refuse("the authenticator signed for another site than %s", rp.ID)
	}
	if a.flags&flagUP == 0 {
		return refuse("the user was not present")
	}
	return nil
}

// Register checks a new credential made for challenge (the browser's
// clientDataJSON and attestationObject, as it gives them) and returns
// it.
func (rp *RelyingParty) Register(challenge, clientDataJSON, attestationObject []byte) (*Credential, error) {
	if err := rp.checkClientData(clientDataJSON, "webauthn.create", challenge); err != nil {
		return nil, err
	}
	v, n, err := decodeCBOR(attestationObject)
	if err != nil || n != len(attestationObject) {
		return nil, refuse("the attestation object is not one CBOR item: %v", err)
	}
	att, ok := v.(map[any]any)
	if !ok {
		return nil, refuse("the attestation object is not a map")
	}
	raw, ok := att["authData"].([]byte)
	if !ok {
		return nil, refuse("the attestation object has no authenticator data")
	}
	if _, ok := att["fmt"].(string); !ok {
		return nil, refuse("the attestation object has no format")
	}
	a, err := parseAuthData(raw)
	if err != nil {
		return nil, err
	}
	if err := rp.checkAuthData(a); err != nil {
		return nil, err
	}
	if a.credID == nil {
		return nil, refuse("the authenticator data holds no credential")
	}
	alg, _, err := ParseKey(a.key)
	if err != nil {
		return nil, err
	}
	return &Credential{ID: a.credID, PublicKey: a.key, Alg: alg, SignCount: a.signCount}, nil
}

// Assert checks an assertion of cred for challenge (the browser's
// clientDataJSON, authenticatorData and signature) and returns the
// authenticator's new counter. A counter that did not go up, where the
// authenticator keeps one, is refused: the key may have been copied.
func (rp *RelyingParty) Assert(cred *Credential, challenge, clientDataJSON, authenticatorData, signature []byte) (uint32, error) {
	if err := rp.checkClientData(clientDataJSON, "webauthn.get", challenge); err != nil {
		return 0, err
	}
	a, err := parseAuthData(authenticatorData)
	if err != nil {
		return 0, err
	}
	if err := rp.checkAuthData(a); err != nil {
		return 0, err
	}
	_, key, err := ParseKey(cred.PublicKey)
	if err != nil {
		return 0, err
	}
	h := sha256.Sum256(clientDataJSON)
	signed := append(append([]byte(nil), authenticatorData...), h[:]...)
	if err := verify(key, cred.Alg, signed, signature); err != nil {
		return 0, err
	}
	if (a.signCount != 0 || cred.SignCount != 0) && a.signCount <= cred.SignCount {
		return 0, refuse("the authenticator's counter went from %d to %d: the passkey may have been copied", cred.SignCount, a.signCount)
	}
	return a.signCount, nil
}

// verify checks sig over msg with key of algorithm alg.
func verify(key crypto.PublicKey, alg int, msg, sig []byte) error {
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		h := sha256.Sum256(msg)
		if !ecdsa.VerifyASN1(k, h[:], sig) {
			return refuse("the signature does not verify")
		}
	case ed25519.PublicKey:
		if !ed25519.Verify(k, msg, sig) {
			return refuse("the signature does not verify")
		}
	case *rsa.PublicKey:
		h := sha256.Sum256(msg)
		if rsa.VerifyPKCS1v15(k, crypto.SHA256, h[:], sig) != nil {
			return refuse("the signature does not verify")
		}
	default:
		return refuse("a key of algorithm %d", alg)
	}
	return nil
}

// ParseKey reads a COSE public key and returns its algorithm and the key.
func ParseKey(cose []byte) (int, crypto.PublicKey, error) {
	v, n, err := decodeCBOR(cose)
	if err != nil || n != len(cose) {
		return 0, nil, refuse("the public key is not one CBOR item: %v", err)
	}
	m, ok := v.(map[any]any)
	if !ok {
		return 0, nil, refuse("the public key is not a map")
	}
	num := func(k int64) (int64, bool) { x, ok := m[k].(int64); return x, ok }
	octets := func(k int64) []byte { x, _ := m[k].([]byte); return x }
	kty, _ := num(1)
	alg, ok := num(3)
	if !ok {
		return 0, nil, refuse("the public key names no algorithm")
	}
	switch alg {
	case ES256:
		crv, _ := num(-1)
		x, y := octets(-2), octets(-3)
		if kty != 2 || crv != 1 || len(x) != 32 || len(y) != 32 {
			return 0, nil, refuse("an ES256 key that is not a P-256 point")
		}
		k, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
		if err != nil {
			return 0, nil, refuse("an ES256 key off the curve")
		}
		return ES256, k, nil
	case EdDSA:
		crv, _ := num(-1)
		x := octets(-2)
		if kty != 1 || crv != 6 || len(x) != ed25519.PublicKeySize {
			return 0, nil, refuse("an EdDSA key that is not an Ed25519 one")
		}
		return EdDSA, ed25519.PublicKey(x), nil
	case RS256:
		nb, eb := octets(-1), octets(-2)
		n := new(big.Int).SetBytes(nb)
		if kty != 3 || n.BitLen() < 2048 || n.BitLen() > 4096 || len(eb) == 0 || len(eb) > 4 {
			return 0, nil, refuse("an RS256 key of %d bits, not 2048 to 4096, or without its exponent", n.BitLen())
		}
		e := new(big.Int).SetBytes(eb)
		if e.Int64() < 3 || e.Int64()%2 == 0 || e.Int64() > 1<<31-1 {
			return 0, nil, refuse("an RS256 key with exponent %d", e.Int64())
		}
		return RS256, &rsa.PublicKey{N: n, E: int(e.Int64())}, nil
	}
	return 0, nil, refuse("a key of algorithm %d: want ES256, EdDSA or RS256", alg)
}
