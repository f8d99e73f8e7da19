package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Hand-written JSON encoders for what every move and state read writes
// (notifications, states): the same bytes as encoding/json's Marshal
// gives, field for field, without its reflection. TestJSONEncoders
// compares the two.

// appendString appends s as a JSON string, as encoding/json writes it:
// with <, > and & escaped when html is set (json.Marshal), as they are
// otherwise (an Encoder with SetEscapeHTML(false), as writeJSON).
func appendString(b []byte, s string, html bool) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			// Escapes or text beyond ASCII: encoding/json's rules.
			var q bytes.Buffer
			enc := json.NewEncoder(&q)
			enc.SetEscapeHTML(html)
			enc.Encode(s)
			return append(b, bytes.TrimSuffix(q.Bytes(), []byte{'\n'})...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendObjects appends a field (never the first) holding an array of
// one object per element of xs, whose fields (the first written with
// first set) fields appends.
func appendObjects[T any](b []byte, name string, xs []T, fields func(b []byte, x *T) []byte) []byte {
	b = append(appendKey(b, false, name), '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(fields(append(b, '{'), &xs[i]), '}')
	}
	return append(b, ']')
}

// appendKey appends ,"name": (no comma when first) and returns false.
func appendKey(b []byte, first bool, name string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

func appendIntField(b []byte, first bool, name string, v int) []byte {
	return strconv.AppendInt(appendKey(b, first, name), int64(v), 10)
}

func appendStringField(b []byte, first bool, name, v string, html bool) []byte {
	return appendString(appendKey(b, first, name), v, html)
}

func appendBoolField(b []byte, first bool, name string, v bool) []byte {
	return strconv.AppendBool(appendKey(b, first, name), v)
}

// appendInts appends a JSON array of numbers (null for a nil slice).
func appendInts(b []byte, xs []int) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendJSON appends t as encoding/json writes it (html: see appendString).
func (t *Tile) appendJSON(b []byte, html bool) []byte {
	b = append(b, '{')
	first := true
	if t.Row != nil {
		b, first = appendIntField(b, first, "row", *t.Row), false
	}
	if t.Col != nil {
		b, first = appendIntField(b, first, "col", *t.Col), false
	}
	b = appendStringField(b, first, "letter", t.Letter, html)
	if t.Blank {
		b = appendBoolField(b, false, "blank", true)
	}
	b = appendIntField(b, false, "score", t.Score)
	if t.Move != nil {
		b = appendIntField(b, false, "move", *t.Move)
	}
	return append(b, '}')
}

// appendTiles appends a JSON array of tiles (null for a nil slice).
func appendTiles(b []byte, ts []Tile, html bool) []byte {
	if ts == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range ts {
		if i > 0 {
			b = append(b, ',')
		}
		b = ts[i].appendJSON(b, html)
	}
	return append(b, ']')
}

// appendJSON appends n as json.Marshal writes it.
func (n *Notification) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendIntField(b, true, "seq", n.Seq)
	b = appendStringField(b, false, "type", n.Type, true)
	if n.Seat != nil {
		b = appendIntField(b, false, "seat", *n.Seat)
	}
	if n.Size != 0 {
		b = appendIntField(b, false, "size", n.Size)
	}
	if n.Move != "" {
		b = appendStringField(b, false, "move", n.Move, true)
	}
	if len(n.Tiles) > 0 {
		b = appendTiles(appendKey(b, false, "tiles"), n.Tiles, true)
	}
	if n.Points != nil {
		b = appendIntField(b, false, "points", *n.Points)
	}
	if n.Total != nil {
		b = appendIntField(b, false, "total", *n.Total)
	}
	if n.Count != 0 {
		b = appendIntField(b, false, "count", n.Count)
	}
	if n.Reason != "" {
		b = appendStringField(b, false, "reason", n.Reason, true)
	}
	if n.Game != "" {
		b = appendStringField(b, false, "game", n.Game, true)
	}
	if n.Text != "" {
		b = appendStringField(b, false, "text", n.Text, true)
	}
	if len(n.Scores) > 0 {
		b = appendInts(appendKey(b, false, "scores"), n.Scores)
	}
	if len(n.Adjustments) > 0 {
		b = appendObjects(b, "adjustments", n.Adjustments, func(b []byte, a *Adjustment) []byte {
			b = appendIntField(b, true, "seat", a.Seat)
			b = appendIntField(b, false, "points", a.Points)
			b = appendIntField(b, false, "total", a.Total)
			return appendStringField(b, false, "rack", a.Rack, true)
		})
	}
	if len(n.Winners) > 0 {
		b = appendInts(appendKey(b, false, "winners"), n.Winners)
	}
	if n.Valid {
		b = appendBoolField(b, false, "valid", true)
	}
	if len(n.Words) > 0 {
		b = appendStrings(appendKey(b, false, "words"), n.Words, true)
	}
	return append(b, '}')
}

// appendStrings appends a JSON array of strings.
func appendStrings(b []byte, ss []string, html bool) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s, html)
	}
	return append(b, ']')
}

// appendLetters appends a JSON array of letter infos (null for nil).
func appendLetters(b []byte, ls []LetterInfo) []byte {
	if ls == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, l := range ls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = appendStringField(b, true, "letter", l.Letter, false)
		b = appendIntField(b, false, "score", l.Score)
		b = appendIntField(b, false, "count", l.Count)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJSON appends st as writeJSON writes a stateWire of it: the
// State's fields in order, then premiums and letters, given as JSON.
func (st *State) appendJSON(b []byte, premiums, letters []byte) []byte {
	b = append(b, '{')
	b = appendStringField(b, true, "id", st.ID, false)
	b = appendStringField(b, false, "variant", st.Variant, false)
	b = appendStringField(b, false, "lexicon", st.Lexicon, false)
	b = appendIntField(b, false, "size", st.Size)
	b = appendIntField(b, false, "rack_size", st.RackSize)
	b = appendInts(appendKey(b, false, "start"), st.Start[:])
	b = appendKey(b, false, "seats")
	if st.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range st.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = appendStringField(b, true, "name", s.Name, false)
			b = appendStringField(b, false, "kind", s.Kind, false)
			if s.Level != "" {
				b = appendStringField(b, false, "level", s.Level, false)
			}
			b = appendBoolField(b, false, "taken", s.Taken)
			b = appendIntField(b, false, "score", s.Score)
			b = appendIntField(b, false, "tiles", s.Tiles)
			if s.Account {
				b = appendBoolField(b, false, "account", true)
			}
			if s.Rating != 0 {
				b = appendIntField(b, false, "rating", s.Rating)
			}
			if s.Provisional {
				b = appendBoolField(b, false, "provisional", true)
			}
			if s.Invited {
				b = appendBoolField(b, false, "invited", true)
			}
			if s.InvitedBy != "" {
				b = appendStringField(b, false, "invited_by", s.InvitedBy, false)
			}
			if s.RatingMin != 0 {
				b = appendIntField(b, false, "rating_min", s.RatingMin)
			}
			if s.RatingMax != 0 {
				b = appendIntField(b, false, "rating_max", s.RatingMax)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendBoolField(b, false, "started", st.Started)
	b = appendBoolField(b, false, "over", st.Over)
	b = appendIntField(b, false, "turn", st.Turn)
	b = appendIntField(b, false, "bag", st.Bag)
	b = appendTiles(appendKey(b, false, "board"), st.Board, false)
	b = appendKey(b, false, "history")
	if st.History == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, h := range st.History {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = appendIntField(b, true, "seat", h.Seat)
			b = appendStringField(b, false, "kind", h.Kind, false)
			if h.Move != "" {
				b = appendStringField(b, false, "move", h.Move, false)
			}
			if h.Count != 0 {
				b = appendIntField(b, false, "count", h.Count)
			}
			b = appendIntField(b, false, "points", h.Points)
			b = appendIntField(b, false, "total", h.Total)
			if h.Rack != "" {
				b = appendStringField(b, false, "rack", h.Rack, false)
			}
			if len(h.Words) > 0 {
				b = appendStrings(appendKey(b, false, "words"), h.Words, false)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(st.Winners) > 0 {
		b = appendInts(appendKey(b, false, "winners"), st.Winners)
	}
	if st.Abandoned {
		b = appendBoolField(b, false, "abandoned", true)
	}
	if st.Resigned != nil {
		b = appendIntField(b, false, "resigned", *st.Resigned)
	}
	if st.TimedOut != nil {
		b = appendIntField(b, false, "timed_out", *st.TimedOut)
	}
	if st.Clock != nil {
		// (Timed games only, and small: the standard encoder will do.)
		c, err := json.Marshal(st.Clock)
		if err != nil {
			panic(fmt.Sprintf("server: encode clock: %v", err))
		}
		b = append(appendKey(b, false, "clock"), c...)
	}
	if st.Aborted {
		b = appendBoolField(b, false, "aborted", true)
	}
	if st.Listed {
		b = appendBoolField(b, false, "listed", true)
	}
	if st.Challenge != "" {
		b = appendStringField(b, false, "challenge", st.Challenge, false)
	}
	if st.Challengeable != nil {
		b = appendIntField(b, false, "challengeable", *st.Challengeable)
	}
	if st.AwaitingChallenge {
		b = appendBoolField(b, false, "awaiting_challenge", true)
	}
	if st.Rated {
		b = appendBoolField(b, false, "rated", true)
	}
	if st.Pace != "" {
		b = appendStringField(b, false, "pace", st.Pace, false)
	}
	if len(st.RatingChanges) > 0 {
		c, err := json.Marshal(st.RatingChanges)
		if err != nil {
			panic(fmt.Sprintf("server: encode rating changes: %v", err))
		}
		b = append(appendKey(b, false, "rating_changes"), c...)
	}
	if st.Tournament != nil {
		c, err := json.Marshal(st.Tournament)
		if err != nil {
			panic(fmt.Sprintf("server: encode the tournament: %v", err))
		}
		b = append(appendKey(b, false, "tournament"), c...)
	}
	if st.Imported {
		b = appendBoolField(b, false, "imported", true)
	}
	if st.Takebacks != 0 {
		b = appendIntField(b, false, "takebacks", st.Takebacks)
	}
	b = appendIntField(b, false, "moves", st.Moves)
	b = appendIntField(b, false, "expected_clients", st.Expected)
	b = appendIntField(b, false, "connected_clients", st.Connected)
	if st.Watching != 0 {
		b = appendIntField(b, false, "watching", st.Watching)
	}
	if len(st.WatchingNames) > 0 {
		b = appendStrings(appendKey(b, false, "watching_names"), st.WatchingNames, false)
	}
	b = appendIntField(b, false, "seq", st.Seq)
	if len(st.Kibitz) > 0 {
		b = appendObjects(b, "kibitz", st.Kibitz, func(b []byte, c *KibitzLine) []byte {
			b = appendStringField(b, true, "name", c.Name, false)
			return appendStringField(b, false, "text", c.Text, false)
		})
	}
	if len(st.Notes) > 0 {
		b = appendObjects(b, "notes", st.Notes, func(b []byte, n *GameNote) []byte {
			b = appendIntField(b, true, "entry", n.Entry)
			b = appendIntField(b, false, "seat", n.Seat)
			return appendStringField(b, false, "text", n.Text, false)
		})
	}
	if st.You != nil {
		b = appendKey(b, false, "you")
		b = append(b, '{')
		b = appendIntField(b, true, "seat", st.You.Seat)
		b = appendTiles(appendKey(b, false, "rack"), st.You.Rack, false)
		b = appendLetters(appendKey(b, false, "unseen"), st.You.Unseen)
		if st.You.Rematch != "" {
			b = appendStringField(b, false, "rematch", st.You.Rematch, false)
		}
		if len(st.You.Chat) > 0 {
			b = appendObjects(b, "chat", st.You.Chat, func(b []byte, c *ChatLine) []byte {
				b = appendIntField(b, true, "seat", c.Seat)
				return appendStringField(b, false, "text", c.Text, false)
			})
		}
		b = append(b, '}')
	}
	b = append(append(appendKey(b, false, "premiums"), premiums...), ',')
	b = append(append(appendKey(b, true, "letters"), letters...), '}')
	return b
}

// appendJSON appends r as writeJSON writes it (without its newline).
func (r *MoveResponse) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendStringField(b, true, "move", r.Move, false)
	b = appendIntField(b, false, "score", r.Score)
	b = appendBoolField(b, false, "over", r.Over)
	return append(b, '}')
}
