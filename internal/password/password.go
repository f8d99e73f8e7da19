// Package password hashes players' passwords for storage and checks a
// password against a stored hash: PBKDF2 with HMAC-SHA-256 (RFC 8018),
// a random 16-byte salt per password, and a cost (iterations) kept with
// the hash, so that the cost can be raised without losing old hashes.
package password

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// DefaultIterations is the cost of a new hash: the number of PBKDF2
// iterations recommended for HMAC-SHA-256 by OWASP's password storage
// guidance (2023).
const DefaultIterations = 600_000

// scheme names the encoding of a hash: scheme$iterations$salt$key.
const scheme = "pbkdf2-sha256"

const (
	saltLen = 16
	keyLen  = 32
	// maxIterations bounds the cost read from a stored hash, so that a
	// damaged or hostile hash cannot make a check run for hours.
	maxIterations = 10_000_000
)

// ErrMalformed is returned for a stored hash this package cannot read.
var ErrMalformed = errors.New("password: malformed hash")

var b64 = base64.RawStdEncoding

// Hash returns the encoded hash of pw with the given number of
// iterations (DefaultIterations if iterations <= 0).
func Hash(pw string, iterations int) (string, error) {
	if iterations <= 0 {
		iterations = DefaultIterations
	}
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password: salt: %w", err)
	}
	key, err := pbkdf2.Key(sha256.New, pw, salt, iterations, keyLen)
	if err != nil {
		return "", fmt.Errorf("password: %w", err)
	}
	return fmt.Sprintf("%s$%d$%s$%s", scheme, iterations, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Check reports whether pw matches the encoded hash, comparing in
// constant time. It returns ErrMalformed for a hash it cannot read.
func Check(encoded, pw string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 4 || parts[0] != scheme {
		return false, ErrMalformed
	}
	iterations, err := strconv.Atoi(parts[1])
	if err != nil || iterations <= 0 || iterations > maxIterations {
		return false, ErrMalformed
	}
	salt, err1 := b64.DecodeString(parts[2])
	want, err2 := b64.DecodeString(parts[3])
	if err1 != nil || err2 != nil || len(salt) == 0 || len(want) == 0 || len(want) > 64 {
		return false, ErrMalformed
	}
	key, err := pbkdf2.Key(sha256.New, pw, salt, iterations, len(want))
	if err != nil {
		return false, fmt.Errorf("password: %w", err)
	}
	return subtle.ConstantTimeCompare(key, want) == 1, nil
}
