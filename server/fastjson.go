package server

// A strict reader of move requests in the shape clients send them
// (exact lowercase keys, plain ASCII strings, small integers). It gives
// up on anything else, which decodeJSON then reads with encoding/json
// and its error messages; what it accepts it reads exactly as
// encoding/json with unknown fields refused would (FuzzFastMoveRequest
// compares the two).

// jsonScan is a position in a JSON text being read.
type jsonScan struct {
	data []byte
	i    int
}

func (s *jsonScan) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte reads c, after white space.
func (s *jsonScan) byte(c byte) bool {
	s.space()
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// peek reports whether c comes next, after white space.
func (s *jsonScan) peek(c byte) bool {
	s.space()
	return s.i < len(s.data) && s.data[s.i] == c
}

// str reads a string of printable ASCII with no escapes.
func (s *jsonScan) str() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.i
	for ; s.i < len(s.data); s.i++ {
		switch c := s.data[s.i]; {
		case c == '"':
			s.i++
			return string(s.data[start : s.i-1]), true
		case c < 0x20 || c > 0x7e || c == '\\':
			return "", false
		}
	}
	return "", false
}

// int reads an integer of at most 9 digits, in JSON's form.
func (s *jsonScan) int() (int, bool) {
	s.space()
	neg := s.i < len(s.data) && s.data[s.i] == '-'
	if neg {
		s.i++
	}
	start, n := s.i, 0
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		n = n*10 + int(s.data[s.i]-'0')
		s.i++
	}
	d := s.i - start
	if d == 0 || d > 9 || d > 1 && s.data[start] == '0' {
		return 0, false
	}
	// A fraction or an exponent is not an integer (encoding/json
	// refuses it for an int field): give up.
	if s.i < len(s.data) && (s.data[s.i] == '.' || s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// bool reads true or false.
func (s *jsonScan) bool() (bool, bool) {
	s.space()
	rest := s.data[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// object reads an object, calling field for each key (seen once at most:
// a key twice gives up) to read its value.
func (s *jsonScan) object(keys []string, field func(k int) bool) bool {
	if !s.byte('{') {
		return false
	}
	if s.byte('}') {
		return true
	}
	var seen uint32
	for {
		key, ok := s.str()
		if !ok || !s.byte(':') {
			return false
		}
		k := -1
		for j, name := range keys {
			if key == name {
				k = j
			}
		}
		if k < 0 || seen&(1<<k) != 0 || !field(k) {
			return false
		}
		seen |= 1 << k
		if s.byte('}') {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

// array reads an array, calling elem for each element.
func (s *jsonScan) array(elem func() bool) bool {
	if !s.byte('[') {
		return false
	}
	if s.byte(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.byte(']') {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

var (
	moveKeys = []string{"kind", "notation", "tiles", "exchange"}
	tileKeys = []string{"row", "col", "letter", "blank"}
)

// fastMoveRequest reads a move request of the usual shape; ok is false
// when it gives up (the request may still be good: decodeJSON decides).
func fastMoveRequest(data []byte) (req moveRequest, ok bool) {
	s := &jsonScan{data: data}
	ok = s.object(moveKeys, func(k int) bool {
		var ok bool
		switch k {
		case 0:
			req.Kind, ok = s.str()
		case 1:
			req.Notation, ok = s.str()
		case 2:
			if s.peek('[') {
				req.Tiles = make([]PlacedTile, 0, 7)
			}
			ok = s.array(func() bool {
				var t PlacedTile
				ok := s.object(tileKeys, func(k int) bool {
					var ok bool
					switch k {
					case 0:
						t.Row, ok = s.int()
					case 1:
						t.Col, ok = s.int()
					case 2:
						t.Letter, ok = s.str()
					case 3:
						t.Blank, ok = s.bool()
					}
					return ok
				})
				req.Tiles = append(req.Tiles, t)
				return ok
			})
		case 3:
			if s.peek('[') {
				req.Exchange = []string{}
			}
			ok = s.array(func() bool {
				x, ok := s.str()
				req.Exchange = append(req.Exchange, x)
				return ok
			})
		}
		return ok
	})
	s.space()
	return req, ok && s.i == len(data)
}
