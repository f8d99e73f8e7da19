package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"testing"
)

// field appends a length-delimited field.
func field(b []byte, num int, s string) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// varint appends a varint field.
func varint(b []byte, num int, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3)
	return binary.AppendUvarint(b, v)
}

func gunzip(t *testing.T, p []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTrim(t *testing.T) {
	var in, want []byte
	in = varint(in, 9, 1234567) // time_nanos
	want = varint(want, 9, 1234567)
	in = field(in, 5, "\x08\x01\x10\x02") // a function, not a string
	want = field(want, 5, "\x08\x01\x10\x02")
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"atril/movegen.(*Gaddag).Best", "atril/movegen.(*Gaddag).Best"},
		{"/home/someone/src/atril/movegen/gaddag.go", "gaddag.go"},
		{"/usr/lib/go/src/runtime/proc.go", "proc.go"},
		{"/opt/builds/atril", "atril"},
		{"samples", "samples"},
	} {
		in = field(in, stringTable, c.in)
		want = field(want, stringTable, c.want)
	}
	in = binary.AppendUvarint(in, 12<<3|1) // fixed64 field
	in = binary.LittleEndian.AppendUint64(in, 99)
	want = binary.AppendUvarint(want, 12<<3|1)
	want = binary.LittleEndian.AppendUint64(want, 99)

	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(in)
	zw.Close()
	for name, p := range map[string][]byte{"plain": in, "gzipped": z.Bytes()} {
		out, err := trim(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := gunzip(t, out); !bytes.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}

func TestTrimRefusesBrokenProfiles(t *testing.T) {
	for name, p := range map[string][]byte{
		"length past the end": {stringTable<<3 | 2, 10, 'a'},
		"unknown wire type":   {6<<3 | 3},
		"cut varint":          {9 << 3, 0x80},
		"cut fixed64":         {12<<3 | 1, 1, 2},
		"bad gzip":            {0x1f, 0x8b, 0},
	} {
		if _, err := trim(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzTrim(f *testing.F) {
	f.Add(field(varint(nil, 9, 7), stringTable, "/a/b.go"))
	f.Add([]byte{stringTable<<3 | 2, 10, 'a'})
	f.Fuzz(func(t *testing.T, p []byte) {
		out, err := trim(p)
		if err != nil {
			return
		}
		// A trimmed profile trims to itself.
		again, err := trim(out)
		if err != nil {
			t.Fatalf("trimming the output: %v", err)
		}
		if !bytes.Equal(gunzip(t, again), gunzip(t, out)) {
			t.Fatal("trimming twice changed the profile")
		}
	})
}
