package webauthn

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The part of CBOR (Bormann and Hoffman, "Concise Binary Object
// Representation", RFC 8949) that authenticators write: integers, byte
// and text strings, arrays, maps, and the simple values false, true and
// null, all of definite length. Keys of maps are integers or texts.

// maxDepth bounds the nesting of arrays and maps.
const maxDepth = 16

var errShort = errors.New("cbor: data ends inside an item")

// decodeCBOR reads one item from the start of b and returns it with the
// number of bytes it took: an int64, []byte, string, []any, map[any]any
// (keys int64 or string), bool or nil.
func decodeCBOR(b []byte) (any, int, error) {
	return decodeItem(b, 0)
}

func decodeItem(b []byte, depth int) (any, int, error) {
	if depth > maxDepth {
		return nil, 0, fmt.Errorf("cbor: nested deeper than %d", maxDepth)
	}
	if len(b) == 0 {
		return nil, 0, errShort
	}
	major, info := b[0]>>5, b[0]&0x1f
	arg, n, err := argument(b, info)
	if err != nil {
		return nil, 0, err
	}
	switch major {
	case 0:
		if arg > 1<<63-1 {
			return nil, 0, errors.New("cbor: an integer beyond 64 bits signed")
		}
		return int64(arg), n, nil
	case 1:
		if arg > 1<<63-1 {
			return nil, 0, errors.New("cbor: an integer beyond 64 bits signed")
		}
		return -1 - int64(arg), n, nil
	case 2, 3:
		if arg > uint64(len(b)-n) {
			return nil, 0, errShort
		}
		s := b[n : n+int(arg)]
		if major == 3 {
			return string(s), n + int(arg), nil
		}
		return append([]byte(nil), s...), n + int(arg), nil
	case 4:
		if arg > uint64(len(b)-n) { // each item takes a byte at least
			return nil, 0, errShort
		}
		out := make([]any, 0, arg)
		for range arg {
			v, m, err := decodeItem(b[n:], depth+1)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, v)
			n += m
		}
		return out, n, nil
	case 5:
		if arg > uint64(len(b)-n)/2 {
			return nil, 0, errShort
		}
		out := make(map[any]any, arg)
		for range arg {
			k, m, err := decodeItem(b[n:], depth+1)
			if err != nil {
				return nil, 0, err
			}
			n += m
			switch k.(type) {
			case int64, string:
			default:
				return nil, 0, fmt.Errorf("cbor: a map key of type %T", k)
			}
			if _, dup := out[k]; dup {
				return nil, 0, fmt.Errorf("cbor: the map key %v twice", k)
			}
			v, m, err := decodeItem(b[n:], depth+1)
			if err != nil {
				return nil, 0, err
			}
			out[k] = v
			n += m
		}
		return out, n, nil
	case 7:
		switch info {
		case 20:
			return false, 1, nil
		case 21:
			return true, 1, nil
		case 22:
			return nil, 1, nil
		}
		return nil, 0, fmt.Errorf("cbor: simple value or float %d not taken", info)
	}
	return nil, 0, fmt.Errorf("cbor: major type %d (a tag) not taken", major)
}

// argument reads the argument of an item's head (info its low 5 bits)
// and returns it with the head's length.
func argument(b []byte, info byte) (uint64, int, error) {
	switch {
	case info < 24:
		return uint64(info), 1, nil
	case info == 24:
		if len(b) < 2 {
			return 0, 0, errShort
		}
		return uint64(b[1]), 2, nil
	case info == 25:
		if len(b) < 3 {
			return 0, 0, errShort
		}
		return uint64(binary.BigEndian.Uint16(b[1:])), 3, nil
	case info == 26:
		if len(b) < 5 {
			return 0, 0, errShort
		}
		return uint64(binary.BigEndian.Uint32(b[1:])), 5, nil
	case info == 27:
		if len(b) < 9 {
			return 0, 0, errShort
		}
		return binary.BigEndian.Uint64(b[1:]), 9, nil
	}
	return 0, 0, fmt.Errorf("cbor: additional information %d (indefinite length or reserved) not taken", info)
}
