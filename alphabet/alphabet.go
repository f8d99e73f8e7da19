// Package alphabet turns text into tiles and back.
//
// A tile is a small integer code. Code 0 is the blank as it sits on a rack
// (no letter chosen yet); codes 1..Size() are the letters of the alphabet in
// the order the variant lists them. A blank that has been given a letter (on
// the board, or in a move) is the letter's code with the BlankBit set.
//
// Letters may be written with more than one character (Spanish CH, LL, RR).
// Text is read greedily, longest letter first, so "CHORRO" is CH·O·RR·O in
// Spanish and C·H·O·R·R·O in an alphabet without those tiles; that is how
// word lists and what people type are read, and Spell writes text that
// reads back this way. A letter can also be written in brackets, "[CH]".
// File formats such as CGP read differently: ParseBracketed takes every
// character outside brackets as one tile, and Bracketed writes for it.
// Lowercase text stands for a blank designated as that letter; "?" is an
// undesignated blank.
package alphabet

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Tile is a tile code: 0 is the blank, 1..Size() are letters, and a letter
// with BlankBit set is a blank standing for that letter.
type Tile uint8

const (
	// Blank is the undesignated blank tile, as held on a rack.
	Blank Tile = 0
	// BlankBit marks a letter code that is played by a blank.
	BlankBit Tile = 0x40
	// MaxLetters is the largest alphabet supported: letter codes and a
	// letter bitmask must fit in a uint64 together with the blank.
	MaxLetters = 63
)

// IsBlanked reports whether t is a blank designated as a letter.
func (t Tile) IsBlanked() bool { return t&BlankBit != 0 }

// Letter returns the letter code of t with the blank mark removed.
func (t Tile) Letter() Tile { return t &^ BlankBit }

// Alphabet maps letters (one or more runes each) to tile codes.
type Alphabet struct {
	letters []string // letters[code] for code 1..n; letters[0] = "?"
	lower   []string // lowercase spelling of each letter
	byText  map[string]Tile
	maxLen  int // longest letter in bytes
	// ascii[b] is 1 + the letter an ASCII byte b spells on its own (0:
	// none), for bytes that start no longer letter; asciiLower[b] says it
	// is a lowercase spelling (a designated blank in WithBlanks mode).
	// They let AppendParse read a word list's plain letters without a
	// map lookup each.
	ascii      [utf8.RuneSelf]uint8
	asciiLower [utf8.RuneSelf]bool
}

// New builds an alphabet from its letters, in tile-code order. Letters are
// uppercase strings of one or more runes; "?" must not be among them.
func New(letters []string) (*Alphabet, error) {
	if len(letters) == 0 {
		return nil, fmt.Errorf("alphabet: no letters")
	}
	if len(letters) > MaxLetters {
		return nil, fmt.Errorf("alphabet: %d letters, at most %d supported", len(letters), MaxLetters)
	}
	a := &Alphabet{
		letters: append([]string{"?"}, letters...),
		lower:   make([]string, len(letters)+1),
		byText:  make(map[string]Tile, len(letters)),
	}
	a.lower[0] = "?"
	for i, l := range letters {
		if l == "" || l == "?" || strings.ContainsAny(l, "[]/ \t\n.") {
			return nil, fmt.Errorf("alphabet: letter %d: %q cannot be a letter", i+1, l)
		}
		if l != strings.ToUpper(l) {
			return nil, fmt.Errorf("alphabet: letter %q is not uppercase", l)
		}
		if _, dup := a.byText[l]; dup {
			return nil, fmt.Errorf("alphabet: letter %q listed twice", l)
		}
		code := Tile(i + 1)
		a.byText[l] = code
		a.lower[code] = strings.ToLower(l)
		if len(l) > a.maxLen {
			a.maxLen = len(l)
		}
	}
	var multi [utf8.RuneSelf]bool // starts a letter of more than one byte
	for _, l := range a.letters[1:] {
		for _, sp := range []string{l, strings.ToLower(l)} {
			if len(sp) > 1 && sp[0] < utf8.RuneSelf {
				multi[sp[0]] = true
			}
		}
	}
	for b := range utf8.RuneSelf {
		if multi[b] {
			continue
		}
		if t, ok := a.lookup(string(rune(b)), Plain); ok {
			a.ascii[b] = uint8(t) + 1
			_, upper := a.byText[string(rune(b))]
			a.asciiLower[b] = !upper
		}
	}
	return a, nil
}

// Size is the number of letters (not counting the blank).
func (a *Alphabet) Size() int { return len(a.letters) - 1 }

// Letters returns the letters in code order (code 1 first).
func (a *Alphabet) Letters() []string { return append([]string(nil), a.letters[1:]...) }

// String returns the text of one tile: uppercase for a letter, lowercase for
// a designated blank, "?" for the undesignated blank.
func (a *Alphabet) String(t Tile) string {
	l := int(t.Letter())
	if l >= len(a.letters) {
		return fmt.Sprintf("<bad tile %d>", t)
	}
	if t.IsBlanked() {
		return a.lower[l]
	}
	return a.letters[l]
}

// Word renders tiles as text. Multi-character letters are written plainly
// ("CHORRO"); use Spell for text that Parse must read back, Bracketed for
// text that ParseBracketed must read back.
func (a *Alphabet) Word(tiles []Tile) string {
	var b strings.Builder
	for _, t := range tiles {
		b.WriteString(a.String(t))
	}
	return b.String()
}

// Bracketed renders tiles the way file formats such as CGP write them:
// a multi-character letter goes in brackets ("[CH]O[RR]O", a blank CH
// "[ch]") and nothing else does, so that every character outside brackets
// is one tile (two L tiles are "LL", one LL tile "[LL]"). ParseBracketed
// reads it back.
func (a *Alphabet) Bracketed(tiles []Tile) string {
	var b strings.Builder
	for _, t := range tiles {
		s := a.String(t)
		if utf8.RuneCountInString(s) > 1 {
			b.WriteString("[" + s + "]")
		} else {
			b.WriteString(s)
		}
	}
	return b.String()
}

// Spell renders tiles as text that the greedy Parse reads back to the same
// tiles, the way a person would type them: multi-character letters in
// brackets ("[CH]O[RR]O"), and also a one-character letter that would
// otherwise run together with the text after it (in Spanish two L tiles
// are "[L]L", not "LL", which Parse reads as one LL; C followed by H is
// "[C]H").
func (a *Alphabet) Spell(tiles []Tile) string {
	parts := make([]string, len(tiles))
	for i := len(tiles) - 1; i >= 0; i-- {
		t := tiles[i]
		s := a.String(t)
		switch {
		case t == Blank:
			parts[i] = s
		case utf8.RuneCountInString(s) > 1:
			parts[i] = "[" + s + "]"
		default:
			parts[i] = s
			if i+1 < len(tiles) && a.maxLen > len(s) {
				// Does the letter run together with what follows? The
				// parts after it are final, and no letter spans more than
				// a few of them.
				probe := s + strings.Join(parts[i+1:min(i+4, len(tiles))], "")
				got, err := a.Parse(probe, WithBlanks)
				if err != nil || len(got) == 0 || got[0] != t {
					parts[i] = "[" + s + "]"
				}
			}
		}
	}
	return strings.Join(parts, "")
}

// Error is returned for text the alphabet cannot read. Pos is the byte
// offset of the offending character within the text.
type Error struct {
	Text   string
	Pos    int
	Letter string
	Reason string
}

func (e *Error) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%q at byte %d: %s", e.Text, e.Pos, e.Reason)
	}
	return fmt.Sprintf("unknown letter %q in %q at byte %d", e.Letter, e.Text, e.Pos)
}

// Mode says what kinds of tiles a piece of text may hold.
type Mode int

const (
	// Plain text holds uppercase letters only (a word of a word list).
	Plain Mode = iota
	// WithBlanks text may also hold lowercase letters (designated blanks)
	// and "?" (the undesignated blank), as racks and board rows do.
	WithBlanks
)

// Parse reads text into tiles. In Plain mode lowercase letters are read as
// uppercase. In WithBlanks mode lowercase letters are designated blanks and
// "?" is the blank itself.
func (a *Alphabet) Parse(text string, mode Mode) ([]Tile, error) {
	return a.AppendParse(nil, text, mode)
}

// AppendParse is Parse appending to dst.
func (a *Alphabet) AppendParse(dst []Tile, text string, mode Mode) ([]Tile, error) {
	i := 0
	for i < len(text) {
		if t, ok := a.plainASCII(text, i, mode); ok {
			dst = append(dst, t)
			i++
			continue
		}
		if t, n, err := a.marked(text, i, mode); err != nil {
			return dst, err
		} else if n > 0 {
			dst = append(dst, t)
			i += n
			continue
		}
		// Longest match first.
		found := false
		for n := min(a.maxLen*2, len(text)-i); n > 0; n-- {
			if !utf8.ValidString(text[i:i+n]) || !utf8.RuneStart(text[i]) || (i+n < len(text) && !utf8.RuneStart(text[i+n])) {
				continue
			}
			if t, ok := a.lookup(text[i:i+n], mode); ok {
				dst = append(dst, t)
				i += n
				found = true
				break
			}
		}
		if !found {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size <= 1 {
				return dst, &Error{Text: text, Pos: i, Letter: text[i : i+1], Reason: "invalid UTF-8"}
			}
			return dst, &Error{Text: text, Pos: i, Letter: string(r)}
		}
	}
	return dst, nil
}

// plainASCII reads the tile at byte i of text from the ASCII table: a
// letter that starts no longer one, not followed by a stray UTF-8
// continuation byte (the general path declines such a letter, and so
// does this one). It reports false when the general path must read it.
func (a *Alphabet) plainASCII(text string, i int, mode Mode) (Tile, bool) {
	b := text[i]
	if b >= utf8.RuneSelf || a.ascii[b] == 0 || i+1 < len(text) && !utf8.RuneStart(text[i+1]) {
		return 0, false
	}
	t := Tile(a.ascii[b] - 1)
	if a.asciiLower[b] && mode == WithBlanks {
		t |= BlankBit
	}
	return t, true
}

// AppendPlainASCII appends the tiles of a word written in ASCII letters
// that start no longer letter (the common case of a word list), as
// AppendParse would in Plain mode, and reports true; it reports false,
// with dst unspecified past its length, when some byte is not such a
// letter, and the caller should use AppendParse.
func (a *Alphabet) AppendPlainASCII(dst []Tile, text []byte) ([]Tile, bool) {
	for _, b := range text {
		if b >= utf8.RuneSelf || a.ascii[b] == 0 {
			return dst, false
		}
		dst = append(dst, Tile(a.ascii[b]-1))
	}
	return dst, true
}

// marked reads the tile at byte offset i of text when it is written with
// a mark: "?" for a blank, or a letter in brackets. n is the bytes it
// takes, 0 when text[i] starts no mark.
func (a *Alphabet) marked(text string, i int, mode Mode) (t Tile, n int, err error) {
	switch text[i] {
	case '?':
		if mode != WithBlanks {
			return 0, 0, &Error{Text: text, Pos: i, Letter: "?", Reason: "a blank is not allowed here"}
		}
		return Blank, 1, nil
	case '[':
		end := strings.IndexByte(text[i:], ']')
		if end < 0 {
			return 0, 0, &Error{Text: text, Pos: i, Letter: "[", Reason: "unclosed ["}
		}
		inner := text[i+1 : i+end]
		t, ok := a.lookup(inner, mode)
		if !ok {
			return 0, 0, &Error{Text: text, Pos: i, Letter: inner}
		}
		return t, end + 1, nil
	}
	return 0, 0, nil
}

// lookup finds a single letter spelled s (upper or lower case).
func (a *Alphabet) lookup(s string, mode Mode) (Tile, bool) {
	if t, ok := a.byText[s]; ok {
		return t, true
	}
	up := strings.ToUpper(s)
	if up == s {
		return 0, false
	}
	// Mixed case such as "Ch" is not a letter.
	if strings.ToLower(s) != s {
		return 0, false
	}
	t, ok := a.byText[up]
	if !ok {
		return 0, false
	}
	if mode == WithBlanks {
		t |= BlankBit
	}
	return t, true
}

// Letter parses exactly one tile.
func (a *Alphabet) Letter(text string, mode Mode) (Tile, error) {
	ts, err := a.Parse(text, mode)
	if err != nil {
		return 0, err
	}
	if len(ts) != 1 {
		return 0, &Error{Text: text, Reason: fmt.Sprintf("want one tile, got %d", len(ts))}
	}
	return ts[0], nil
}

// ParseBracketed reads text written the way Bracketed writes it, as file
// formats such as CGP do: every character outside brackets is one tile
// (lowercase for a designated blank in WithBlanks mode, "?" for the
// blank), and a bracket holds exactly one letter of any length ("[CH]",
// "[ch]"; a one-character letter in brackets, "[L]", is accepted too).
// Unlike Parse it never joins characters into a multi-character letter:
// in Spanish "LL" is two L tiles.
func (a *Alphabet) ParseBracketed(text string, mode Mode) ([]Tile, error) {
	var dst []Tile
	i := 0
	for i < len(text) {
		if t, ok := a.plainASCII(text, i, mode); ok {
			dst = append(dst, t)
			i++
			continue
		}
		if t, n, err := a.marked(text, i, mode); err != nil {
			return dst, err
		} else if n > 0 {
			dst = append(dst, t)
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return dst, &Error{Text: text, Pos: i, Letter: text[i : i+1], Reason: "invalid UTF-8"}
		}
		t, ok := a.lookup(text[i:i+size], mode)
		if !ok {
			if l := a.letterAround(text, i); l != "" {
				return dst, &Error{Text: text, Pos: i, Letter: string(r),
					Reason: fmt.Sprintf("%q is not a tile; write the tile %s in brackets, [%s]", string(r), l, l)}
			}
			return dst, &Error{Text: text, Pos: i, Letter: string(r)}
		}
		dst = append(dst, t)
		i += size
	}
	return dst, nil
}

// letterAround returns a multi-character letter that the text spells
// (ignoring case) across byte offset i, or "" if there is none.
func (a *Alphabet) letterAround(text string, i int) string {
	for _, l := range a.letters[1:] {
		if utf8.RuneCountInString(l) < 2 {
			continue
		}
		for j := max(0, i-len(l)+1); j <= i && j+len(l) <= len(text); j++ {
			if strings.EqualFold(text[j:j+len(l)], l) {
				return l
			}
		}
	}
	return ""
}

// SortTiles sorts tiles by code, blanks first; handy for racks.
func SortTiles(ts []Tile) {
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
}
