package webauthn

import "testing"

// FuzzDecodeCBOR: any bytes are read as one item or refused, never
// beyond their end.
func FuzzDecodeCBOR(f *testing.F) {
	for _, s := range [][]byte{{0xa2, 0x01, 0x02, 0x03, 0x26}, {0x83, 0x01, 0x02, 0x03}, {0x5a, 0xff, 0xff, 0xff, 0xff}, {0x9f}, {0xf5}, {0x64, 'a', 'b', 'c', 'd'}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, n, err := decodeCBOR(b)
		if err == nil && (n < 1 || n > len(b)) {
			t.Fatalf("read %d of %d bytes", n, len(b))
		}
	})
}

func TestDecodeCBOR(t *testing.T) {
	v, n, err := decodeCBOR([]byte{0xa3, 0x01, 0x02, 0x20, 0x43, 1, 2, 3, 0x61, 'k', 0x82, 0xf5, 0xf6, 0xff})
	m, ok := v.(map[any]any)
	if err != nil || n != 13 || !ok || m[int64(1)] != int64(2) || string(m[int64(-1)].([]byte)) != "\x01\x02\x03" || len(m["k"].([]any)) != 2 {
		t.Fatalf("%v %d %v", v, n, err)
	}
}
