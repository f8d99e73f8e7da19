package server

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxName bounds a player's name, in characters.
const maxName = 40

// maxMarks bounds the combining marks kept on one letter.
const maxMarks = 3

// checkName cleans a player's name as given in a request: NFC form;
// control, format (bidirectional controls, zero-width characters),
// private-use and invisible filler characters removed; runs of spaces
// made one space; at most maxMarks combining marks on a letter; at most
// maxName characters. A person's name may not pass for a computer seat's.
func checkName(n string, person bool) (string, error) {
	n, err := cleanText(n, "name", maxName)
	if err != nil {
		return "", err
	}
	if person && passesForComputer(n) {
		return "", &apiError{400, "a person's name may not look like a computer seat's"}
	}
	return n, nil
}

// cleanText cleans text a person wrote (what, in errors) as checkName
// says, and refuses it past most characters.
func cleanText(n, what string, most int) (string, error) {
	if !utf8.ValidString(n) {
		return "", &apiError{400, what + " is not UTF-8"}
	}
	var b strings.Builder
	space, marks := false, 0
	for _, r := range norm.NFC.String(n) {
		switch {
		case unicode.IsSpace(r) || unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp):
			// (Tabs and line breaks included, before the controls.)
			space = true
			continue
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) || invisible(r) || r == utf8.RuneError:
			continue
		case unicode.In(r, unicode.Mn, unicode.Me):
			if marks >= maxMarks {
				continue
			}
			marks++
		default:
			marks = 0
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	n = b.String()
	if utf8.RuneCountInString(n) > most {
		return "", &apiError{400, fmt.Sprintf("%s longer than %d characters", what, most)}
	}
	return n, nil
}

// invisible reports letters and symbols that show as blank space but are
// not spaces: the Hangul fillers, the braille blank, the combining
// grapheme joiner and the variation selectors.
func invisible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5:
		return true
	}
	return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF
}

// lookalikes maps characters that look like Latin letters (Cyrillic,
// Greek, digits, signs) to those letters, for comparing skeletons.
var lookalikes = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'к': 'k', 'м': 'm',
	'т': 't', 'в': 'b', 'н': 'h', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ս': 'u', 'г': 'r',
	'ο': 'o', 'α': 'a', 'ε': 'e', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'ν': 'v', 'κ': 'k', 'μ': 'm',
	'ι': 'i', 'χ': 'x', 'ς': 'c',
	'0': 'o', '1': 'l', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's', '|': 'l', '!': 'i',
}

// computerWords are the words a computer seat's name is made of, in the
// languages of the page, as skeletons.
var computerWords = []string{"computer", "computadora", "ordenador", "pocitac"}

// passesForComputer reports whether name, reduced to a skeleton (width
// and case folded, accents and lookalikes mapped to plain Latin letters,
// everything else dropped), holds a word of a computer seat's name.
func passesForComputer(name string) bool {
	var b strings.Builder
	for _, r := range norm.NFKD.String(name) {
		r = unicode.ToLower(r)
		if l, ok := lookalikes[r]; ok {
			r = l
		}
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	sk := strings.ReplaceAll(b.String(), "rn", "m")
	sk = strings.ReplaceAll(sk, "vv", "w")
	for _, w := range computerWords {
		if strings.Contains(sk, w) {
			return true
		}
	}
	return false
}
