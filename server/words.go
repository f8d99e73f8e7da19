package server

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"atril/alphabet"
	"atril/variant"
)

// The word judge: whether words are in a word list, as a player asks
// before or after a game (GET /api/words?lexicon=L&w=WORD&w=...).

// MaxJudgedWords bounds the words of one question.
const MaxJudgedWords = 20

// DefaultLookupPerMinute is how many questions to the word judge one
// client may ask a minute.
const DefaultLookupPerMinute = 60

// WordsAnswer is the answer of GET /api/words.
type WordsAnswer struct {
	Lexicon string       `json:"lexicon"`
	Words   []JudgedWord `json:"words"`
}

// JudgedWord is one word as asked (spaces trimmed) and whether the list
// holds it.
type JudgedWord struct {
	Word  string `json:"word"`
	Valid bool   `json:"valid"`
}

func (s *Server) handleWords(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := q.Get("lexicon")
	words := q["w"]
	if len(words) == 0 || len(words) > MaxJudgedWords {
		s.fail(w, &apiError{400, fmt.Sprintf("%d words: ask about 1 to %d (w=WORD&w=...)", len(words), MaxJudgedWords)})
		return
	}
	v, lr, err := s.wordQuestion(r, name)
	if err != nil {
		s.fail(w, err)
		return
	}
	ans := WordsAnswer{Lexicon: name, Words: make([]JudgedWord, 0, len(words))}
	for i, text := range words {
		text = strings.TrimSpace(text)
		ts, err := v.Alphabet.Parse(text, alphabet.Plain)
		if err == nil && (len(ts) < 1 || len(ts) > v.Size) {
			err = fmt.Errorf("%d letters: a word has 1 to %d", len(ts), v.Size)
		}
		if err != nil {
			s.fail(w, &apiError{400, fmt.Sprintf("word %d %q: %s", i+1, short(text, 20), short(err.Error(), 80))})
			return
		}
		ans.Words = append(ans.Words, JudgedWord{Word: text, Valid: lr.lex.Contains(ts)})
	}
	writeJSON(w, 200, ans)
}

// wordQuestion takes a question about the words of list name from the
// client's allowance and returns the list and its variant.
func (s *Server) wordQuestion(r *http.Request, name string) (*variant.Variant, *lexRes, error) {
	if ok, retry := s.lookLim.take(s.clientKey(r), time.Now()); !ok {
		return nil, nil, tooMany("word questions", retry)
	}
	v := s.variantOfLexicon(name)
	if v == nil {
		return nil, nil, &apiError{400, fmt.Sprintf("word list %q is not offered", short(name, 40))}
	}
	lr, err := s.lexiconFor(v, name)
	if err != nil {
		return nil, nil, err
	}
	return v, lr, nil
}

// variantOfLexicon is the first offered variant that offers word list
// name, or nil.
func (s *Server) variantOfLexicon(name string) *variant.Variant {
	for _, vn := range s.cfg.Variants {
		v, err := s.loadVariant(vn)
		if err == nil && s.lexiconAllowed(v, name) {
			return v
		}
	}
	return nil
}
