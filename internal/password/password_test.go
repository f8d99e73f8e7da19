package password

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func TestHashCheck(t *testing.T) {
	h, err := Hash("correct horse", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "pbkdf2-sha256$1000$") {
		t.Errorf("hash %q: want scheme and cost first", h)
	}
	h2, _ := Hash("correct horse", 1000)
	if h == h2 {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	for _, tc := range []struct {
		pw   string
		want bool
	}{{"correct horse", true}, {"correct hors", false}, {"Correct horse", false}, {"", false}} {
		ok, err := Check(h, tc.pw)
		if err != nil || ok != tc.want {
			t.Errorf("Check(%q) = %v, %v; want %v", tc.pw, ok, err, tc.want)
		}
	}
}

// TestKnownVector checks the key derivation against a published
// PBKDF2-HMAC-SHA256 test vector (password "password", salt "salt",
// 4096 iterations, 32 bytes).
func TestKnownVector(t *testing.T) {
	key, err := pbkdf2.Key(sha256.New, "password", []byte("salt"), 4096, 32)
	if err != nil {
		t.Fatal(err)
	}
	const want = "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"
	if hex.EncodeToString(key) != want {
		t.Fatalf("derived %x, want %s", key, want)
	}
	enc := "pbkdf2-sha256$4096$" + b64.EncodeToString([]byte("salt")) + "$" + b64.EncodeToString(key)
	if ok, err := Check(enc, "password"); !ok || err != nil {
		t.Errorf("Check of the vector: %v, %v", ok, err)
	}
}

func TestMalformed(t *testing.T) {
	good, _ := Hash("x", 10)
	parts := strings.Split(good, "$")
	for _, h := range []string{
		"", "plain", "bcrypt$10$a$b", "pbkdf2-sha256$0$" + parts[2] + "$" + parts[3],
		"pbkdf2-sha256$99999999999$" + parts[2] + "$" + parts[3], "pbkdf2-sha256$10$!!$" + parts[3],
		"pbkdf2-sha256$10$" + parts[2] + "$", "pbkdf2-sha256$10$" + parts[2], "pbkdf2-sha256$x$" + parts[2] + "$" + parts[3],
	} {
		if ok, err := Check(h, "x"); ok || !errors.Is(err, ErrMalformed) {
			t.Errorf("Check(%q) = %v, %v; want ErrMalformed", h, ok, err)
		}
	}
}

func FuzzCheck(f *testing.F) {
	good, _ := Hash("x", 10)
	f.Add(good, "x")
	f.Add("pbkdf2-sha256$1$$", "")
	f.Fuzz(func(t *testing.T, h, pw string) {
		if parts := strings.Split(h, "$"); len(parts) == 4 && len(parts[1]) > 4 {
			return // costs above 9999 would make the fuzzer slow, not find anything
		}
		Check(h, pw)
	})
}
