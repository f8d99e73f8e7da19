package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// stringTable is the field number of a profile's string table
// (profile.proto of pprof: repeated string string_table = 6).
const stringTable = 6

// trim returns the profile p (gzipped or not) with every string of its
// string table that is an absolute path cut to its last element, gzipped.
// Every other field is copied as it is.
func trim(p []byte) ([]byte, error) {
	if len(p) >= 2 && p[0] == 0x1f && p[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(p))
		if err != nil {
			return nil, fmt.Errorf("reading the gzipped profile: %w", err)
		}
		if p, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("reading the gzipped profile: %w", err)
		}
	}
	var out []byte
	for off := 0; off < len(p); {
		start := off
		key, n := binary.Uvarint(p[off:])
		if n <= 0 {
			return nil, fmt.Errorf("byte %d: bad field key", off)
		}
		off += n
		switch key & 7 {
		case 0: // varint
			if _, n = binary.Uvarint(p[off:]); n <= 0 {
				return nil, fmt.Errorf("byte %d: bad varint", off)
			}
			off += n
		case 1: // fixed64
			off += 8
		case 5: // fixed32
			off += 4
		case 2: // length-delimited
			l, n := binary.Uvarint(p[off:])
			if n <= 0 || l > uint64(len(p)-off-n) {
				return nil, fmt.Errorf("byte %d: bad length", off)
			}
			off += n
			if key>>3 == stringTable {
				s := trimPath(string(p[off : off+int(l)]))
				out = binary.AppendUvarint(out, key)
				out = binary.AppendUvarint(out, uint64(len(s)))
				out = append(out, s...)
				off += int(l)
				continue
			}
			off += int(l)
		default:
			return nil, fmt.Errorf("byte %d: unknown wire type %d", start, key&7)
		}
		if off > len(p) {
			return nil, errors.New("the profile ends inside a field")
		}
		out = append(out, p[start:off]...)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(out); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// trimPath cuts an absolute path to its last element; other strings
// (function names such as atril/movegen.(*Gaddag).Best) are kept.
func trimPath(s string) string {
	if strings.HasPrefix(s, "/") {
		return path.Base(s)
	}
	return s
}
