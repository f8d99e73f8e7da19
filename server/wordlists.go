package server

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"atril/lexicon"
	"atril/variant"
)

// Word lists of the operator's own: a server offers the embedded lists
// and, by Config.WordLists, lists read from files under names of their
// own (a newer edition, or a list licensed where the server runs). A
// list's name begins with its language ("en-", "es-", "cs-"), which puts
// it with the variants whose default list speaks that language, as for
// the embedded lists. Each file is read at start, every line a word the
// variants' alphabet spells, so that a bad file stops the server with
// the line that is wrong instead of failing a game later. Games record
// the name of their list and are replayed with it: a new edition of a
// list takes a new name.

// wordListName is the form of a word list's name: a language, a dash,
// then letters, digits and dashes.
var wordListName = regexp.MustCompile(`^[a-z]{2}-[a-z0-9][a-z0-9-]{0,38}$`)

// addWordLists checks cfg's word lists of the operator's own, adds them
// to the lists offered and makes cfg's LoadLexicon read them from their
// files. Each is read once here with the alphabet of a variant that
// plays it.
func addWordLists(cfg *Config) error {
	for name, title := range cfg.WordListTitles {
		if _, ok := cfg.WordLists[name]; !ok {
			return fmt.Errorf("server: a title for word list %q, which is not one of the operator's lists (--word-list)", name)
		}
		if err := checkListTitle(title); err != nil {
			return fmt.Errorf("server: the title of word list %q: %w", name, err)
		}
	}
	if len(cfg.WordLists) == 0 {
		return nil
	}
	names := make([]string, 0, len(cfg.WordLists))
	for name := range cfg.WordLists {
		names = append(names, name)
	}
	sort.Strings(names)
	lang := func(n string) string { return strings.SplitN(n, "-", 2)[0] }
	for _, name := range names {
		path := cfg.WordLists[name]
		if !wordListName.MatchString(name) {
			return fmt.Errorf("server: word list name %q: want a language of two letters, a dash, then lowercase letters, digits and dashes (en-nwl2023)", name)
		}
		if slices.Contains(lexicon.Embedded(), name) {
			return fmt.Errorf("server: word list %q: the name of an embedded list; give the file's list a name of its own", name)
		}
		var v *variant.Variant
		for _, vn := range cfg.Variants {
			w, err := variant.Load(vn)
			if err == nil && lang(w.DefaultLexicon) == lang(name) {
				v = w
				break
			}
		}
		if v == nil {
			return fmt.Errorf("server: word list %q: no variant offered plays words of language %q", name, lang(name))
		}
		lex, err := openWordList(v, name, path)
		if err != nil {
			return err
		}
		if lex.Len() == 0 {
			return fmt.Errorf("server: word list %q (%s): no word in it", name, path)
		}
		if !slices.Contains(cfg.Lexicons, name) {
			cfg.Lexicons = append(cfg.Lexicons, name)
		}
	}
	load, files := cfg.LoadLexicon, maps.Clone(cfg.WordLists)
	cfg.LoadLexicon = func(v *variant.Variant, name string) (*lexicon.Lexicon, error) {
		if path, ok := files[name]; ok {
			return openWordList(v, name, path)
		}
		return load(v, name)
	}
	return nil
}

// openWordList reads the operator's word list name from its file for
// variant v, refusing any line v's alphabet cannot spell.
func openWordList(v *variant.Variant, name, path string) (*lexicon.Lexicon, error) {
	lex, err := lexicon.Open(path, v.Alphabet, lexicon.Options{MaxLen: v.Size, Strict: true})
	if err != nil {
		return nil, fmt.Errorf("server: word list %q (%s) for %s: %w", name, path, v.Name, err)
	}
	lex.Name = name
	return lex, nil
}

// maxListTitle bounds a word list's title, in characters.
const maxListTitle = 60

// checkListTitle says what is wrong with a word list's title, if
// anything.
func checkListTitle(title string) error {
	switch {
	case !utf8.ValidString(title):
		return errors.New("not UTF-8 text")
	case strings.TrimSpace(title) == "":
		return errors.New("empty")
	case utf8.RuneCountInString(title) > maxListTitle:
		return fmt.Errorf("%d characters: at most %d", utf8.RuneCountInString(title), maxListTitle)
	case strings.IndexFunc(title, unicode.IsControl) >= 0:
		return errors.New("a control character (a title is one line)")
	}
	return nil
}
