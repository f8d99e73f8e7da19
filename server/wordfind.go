package server

import (
	"fmt"
	"net/http"
	"strings"

	"atril/alphabet"
	"atril/lexicon/automaton"
	"atril/wordfind"
)

// The word finder: the words of a list that a rack makes (all its tiles,
// or some), or that match a pattern, or both, with their hooks
// (GET /api/find?lexicon=L&letters=RACK&all=1&pattern=P&min=N&max=N).

// Bounds of a question to the word finder.
const (
	// MaxFound is the most words one answer lists.
	MaxFound = 500
	// maxFindSteps bounds the DAWG states one question visits: about
	// 40 ms (wordfind's BenchmarkFind: 36 ns a state), more than a walk
	// of the whole English list takes (589,315 states), so a pattern
	// that reads a larger list costs no more.
	maxFindSteps = 1_000_000
)

// FindAnswer is the answer of GET /api/find.
type FindAnswer struct {
	Lexicon string      `json:"lexicon"`
	Words   []FoundWord `json:"words"`
	// Cut is set when the list stops at MaxFound words or the search at
	// its bound of work: there may be more.
	Cut bool `json:"cut,omitempty"`
}

// FoundWord is a word found, a blank's letter in lowercase, its length
// in tiles, and the letters that make a word put before it (Front) and
// after it (Back).
type FoundWord struct {
	Word  string   `json:"word"`
	Tiles int      `json:"tiles"`
	Front []string `json:"front"`
	Back  []string `json:"back"`
}

func (s *Server) handleFind(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := q.Get("lexicon")
	v, lr, err := s.wordQuestion(r, name)
	if err != nil {
		s.fail(w, err)
		return
	}
	fq := wordfind.Query{Limit: MaxFound, MaxSteps: maxFindSteps}
	if text := strings.TrimSpace(q.Get("letters")); text != "" {
		ts, err := v.Alphabet.Parse(strings.ToUpper(text), alphabet.WithBlanks)
		if err != nil {
			s.fail(w, &apiError{400, "letters: " + short(err.Error(), 100)})
			return
		}
		if len(ts) > v.Size {
			s.fail(w, &apiError{400, fmt.Sprintf("letters: %d tiles, at most %d", len(ts), v.Size)})
			return
		}
		fq.Rack = ts
		fq.AllTiles = q.Get("all") == "1" || q.Get("all") == "true"
	}
	if text := q.Get("pattern"); strings.TrimSpace(text) != "" {
		if fq.Pattern, err = wordfind.ParsePattern(v.Alphabet, text); err != nil {
			s.fail(w, &apiError{400, short(err.Error(), 140)})
			return
		}
	}
	if fq.Rack == nil && fq.Pattern == nil {
		s.fail(w, &apiError{400, "give letters, a pattern, or both"})
		return
	}
	if fq.MinLen, err = queryInt(q, "min", 0, 0, v.Size); err == nil {
		fq.MaxLen, err = queryInt(q, "max", 0, 0, v.Size)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	// As the generators load theirs: a cache problem is logged, and the
	// automaton is good regardless.
	d := automaton.CachedDAWG(lr.lex)
	found, err := wordfind.Find(d, v.Alphabet, fq)
	if err != nil {
		s.fail(w, err)
		return
	}
	ans := FindAnswer{Lexicon: name, Words: make([]FoundWord, 0, len(found.Words)), Cut: found.Cut}
	for _, word := range found.Words {
		ans.Words = append(ans.Words, foundWord(d, v.Alphabet, word))
	}
	writeJSON(w, 200, ans)
}

// foundWord is a word as the answers about words give it: with its
// length in tiles and its hooks in DAWG d.
func foundWord(d *automaton.Automaton, a *alphabet.Alphabet, word []alphabet.Tile) FoundWord {
	front, back := wordfind.Hooks(d, a, word)
	return FoundWord{Word: a.Word(word), Tiles: len(word), Front: wordfind.Letters(a, front), Back: wordfind.Letters(a, back)}
}
