package server

import (
	"fmt"
	"net/http"
	"strings"

	"atril/alphabet"
	"atril/lexicon/automaton"
	"atril/study"
	"atril/variant"
)

// Word study: a word list's alphagrams of one length in probability
// order, each with its words and their hooks, for anagram drills
// (GET /api/study?lexicon=L&length=N&from=A&to=B), or the alphagrams of
// racks (GET /api/study?lexicon=L&letters=RACK&letters=...), as a
// cardbox of alphagrams due for review asks for them.

// MaxStudied is the most alphagrams one answer lists.
const MaxStudied = 200

// StudyAnswer is the answer of GET /api/study.
type StudyAnswer struct {
	Lexicon string `json:"lexicon"`
	// Length is the length asked, and Count the number of alphagrams of
	// that length in the list (both 0 when racks are asked).
	Length     int                `json:"length"`
	Count      int                `json:"count"`
	Alphagrams []StudiedAlphagram `json:"alphagrams"`
}

// StudiedAlphagram is one alphagram: its rank by probability (1 the
// likeliest) among the Of alphagrams of its length, its letters in the
// alphabet's order and their points, the letters spelt so that the
// letters parameter reads them back (Spanish two L tiles "[L]L"), the
// chance that a draw of as many tiles from a full bag can spell it
// (blanks standing in), and its words.
type StudiedAlphagram struct {
	Rank        int         `json:"rank"`
	Of          int         `json:"of"`
	Letters     []string    `json:"letters"`
	Spell       string      `json:"spell"`
	Scores      []int       `json:"scores"`
	Probability float64     `json:"probability"`
	Words       []FoundWord `json:"words"`
}

func (s *Server) handleStudy(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := q.Get("lexicon")
	v, lr, err := s.wordQuestion(r, name)
	if err != nil {
		s.fail(w, err)
		return
	}
	ix, err := lr.studyIndex(v.Counts)
	if err != nil {
		s.fail(w, err)
		return
	}
	d := automaton.CachedDAWG(lr.lex) // a cache problem is logged
	answer := func(a study.Alphagram) StudiedAlphagram {
		sa := StudiedAlphagram{Rank: a.Rank, Of: ix.Count(len(a.Tiles)), Probability: a.Probability, Words: make([]FoundWord, len(a.Words))}
		sa.Spell = v.Alphabet.Spell(a.Tiles)
		for _, t := range a.Tiles {
			sa.Letters = append(sa.Letters, v.Alphabet.String(t))
			sa.Scores = append(sa.Scores, v.Scores[t])
		}
		for i, word := range a.Words {
			sa.Words[i] = foundWord(d, v.Alphabet, word)
		}
		return sa
	}
	ans := StudyAnswer{Lexicon: name, Alphagrams: []StudiedAlphagram{}}
	if racks := q["letters"]; len(racks) > 0 {
		if len(racks) > MaxStudied {
			s.fail(w, &apiError{400, fmt.Sprintf("%d racks: ask about at most %d", len(racks), MaxStudied)})
			return
		}
		for i, text := range racks {
			a, ok, err := alphagramOf(v, ix, text)
			if err != nil {
				s.fail(w, &apiError{400, fmt.Sprintf("letters %d %q: %s", i+1, short(text, 20), short(err.Error(), 100))})
				return
			}
			// A rack no word is made of is left out.
			if ok {
				ans.Alphagrams = append(ans.Alphagrams, answer(a))
			}
		}
		writeJSON(w, 200, ans)
		return
	}
	length, err := queryInt(q, "length", 7, 1, v.Size)
	if err != nil {
		s.fail(w, err)
		return
	}
	from, err := queryInt(q, "from", 1, 1, 1<<30)
	if err != nil {
		s.fail(w, err)
		return
	}
	to, err := queryInt(q, "to", from+49, from, from+MaxStudied-1)
	if err != nil {
		s.fail(w, err)
		return
	}
	ans.Length, ans.Count = length, ix.Count(length)
	for rank := from; rank <= min(to, ans.Count); rank++ {
		ans.Alphagrams = append(ans.Alphagrams, answer(ix.Rank(length, rank)))
	}
	writeJSON(w, 200, ans)
}

// alphagramOf reads letters typed as a rack (any order and case) and
// finds their alphagram in ix: an error when they are not 1 to v.Size
// letters of the alphabet, false when no word of the list is made of
// them.
func alphagramOf(v *variant.Variant, ix *study.Index, text string) (study.Alphagram, bool, error) {
	ts, err := v.Alphabet.Parse(strings.ToUpper(strings.TrimSpace(text)), alphabet.Plain)
	if err == nil && (len(ts) < 1 || len(ts) > v.Size) {
		err = fmt.Errorf("%d tiles, give 1 to %d", len(ts), v.Size)
	}
	if err != nil {
		return study.Alphagram{}, false, err
	}
	a, ok := ix.Find(ts)
	return a, ok, nil
}

// studyIndex is the list's alphagrams in probability order for a bag of
// counts, built at the first question.
func (r *lexRes) studyIndex(counts []int) (*study.Index, error) {
	r.studyOnce.Do(func() {
		if r.study, r.studyErr = study.Build(r.lex, counts); r.studyErr != nil {
			r.studyErr = fmt.Errorf("word study: %w", r.studyErr)
		}
	})
	return r.study, r.studyErr
}
