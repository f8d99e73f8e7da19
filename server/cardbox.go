package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"atril/store"
	"atril/variant"
)

// Cardboxes kept for accounts: the alphagrams a signed-in player drilled
// in word study, per word list, each in a box of Leitner's scheme with
// the time it is due again, so that study goes on from any device.
// GET /api/me/cardbox?lexicon=L lists the cardbox, PUT /api/me/cardbox
// files up to MaxStudied cards (a card replaces the one kept only if
// filed later, so devices that studied apart agree once each has sent
// its cards), DELETE /api/me/cardbox?lexicon=L empties it. The page
// keeps a copy in the browser and merges the two.

// MaxCards is the most alphagrams a cardbox holds, per word list.
const MaxCards = 50000

// cardBoxes is the number of boxes: 0 to cardBoxes−1.
const cardBoxes = 8

// maxCardDays bounds how far after its filing a card may be due.
const maxCardDays = 400

// CardInfo is a card of a cardbox: an alphagram spelt as the word
// study's answers spell it, its box (0 the first), and when it is due
// and was filed, in milliseconds since 1970 (as the page's clock
// counts).
type CardInfo struct {
	Letters string `json:"letters"`
	Box     int    `json:"box"`
	Due     int64  `json:"due"`
	Filed   int64  `json:"filed"`
}

// Cardbox is the answer of GET, PUT and DELETE /api/me/cardbox: the
// word list, the cards (GET only, the earliest due first) and how many
// the cardbox holds (after the change, for PUT and DELETE).
type Cardbox struct {
	Lexicon string     `json:"lexicon"`
	Cards   []CardInfo `json:"cards,omitempty"`
	Count   int        `json:"count"`
}

// cardboxPut is the body of PUT /api/me/cardbox.
type cardboxPut struct {
	Lexicon string     `json:"lexicon"`
	Cards   []CardInfo `json:"cards"`
}

// cardboxAccount returns the signed-in account asking about its cardbox
// of word list lex, with the list and its variant, once the client's
// allowance of word questions and the word list are checked.
func (s *Server) cardboxAccount(r *http.Request, lex string) (*store.Account, *variant.Variant, *lexRes, error) {
	v, lr, err := s.wordQuestion(r, lex)
	if err != nil {
		return nil, nil, nil, err
	}
	a, err := s.requireSignIn(r, "sign in to keep a cardbox with your account")
	return a, v, lr, err
}

func (s *Server) handleCardbox(w http.ResponseWriter, r *http.Request) {
	lex := r.URL.Query().Get("lexicon")
	a, _, _, err := s.cardboxAccount(r, lex)
	if err != nil {
		s.fail(w, err)
		return
	}
	cs, err := s.store.Cards(r.Context(), a.Key, lex)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, cardbox(lex, cs))
}

// cardbox is the cardbox of word list lex holding the cards cs, as the
// API answers it.
func cardbox(lex string, cs []store.Card) Cardbox {
	out := Cardbox{Lexicon: lex, Cards: make([]CardInfo, 0, len(cs)), Count: len(cs)}
	for _, c := range cs {
		out.Cards = append(out.Cards, CardInfo{Letters: c.Letters, Box: c.Box, Due: c.Due.UnixMilli(), Filed: c.Filed.UnixMilli()})
	}
	return out
}

func (s *Server) handleCardboxPut(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	var req cardboxPut
	if err := decodeJSON(data, &req); err != nil {
		s.fail(w, err)
		return
	}
	a, v, lr, err := s.cardboxAccount(r, req.Lexicon)
	if err != nil {
		s.fail(w, err)
		return
	}
	if len(req.Cards) == 0 || len(req.Cards) > MaxStudied {
		s.fail(w, &apiError{400, fmt.Sprintf("%d cards: send 1 to %d", len(req.Cards), MaxStudied)})
		return
	}
	ix, err := lr.studyIndex(v.Counts)
	if err != nil {
		s.fail(w, err)
		return
	}
	latest := time.Now().Add(24 * time.Hour).UnixMilli()
	cards := make([]store.Card, len(req.Cards))
	for i, c := range req.Cards {
		bad := func(why string) {
			s.fail(w, &apiError{400, fmt.Sprintf("card %d %q: %s", i+1, short(c.Letters, 20), why)})
		}
		ag, ok, err := alphagramOf(v, ix, c.Letters)
		if err != nil {
			bad(short(err.Error(), 100))
			return
		}
		if !ok {
			bad("no word of the list is made of these letters")
			return
		}
		switch {
		case c.Box < 0 || c.Box >= cardBoxes:
			bad(fmt.Sprintf("box %d: want 0 to %d", c.Box, cardBoxes-1))
			return
		case c.Filed <= 0 || c.Filed > latest:
			bad("filed at a time to come")
			return
		case c.Due < c.Filed || c.Due > c.Filed+maxCardDays*24*3600*1000:
			bad(fmt.Sprintf("due before it was filed or more than %d days after", maxCardDays))
			return
		}
		cards[i] = store.Card{Letters: v.Alphabet.Spell(ag.Tiles), Box: c.Box, Due: time.UnixMilli(c.Due).UTC(), Filed: time.UnixMilli(c.Filed).UTC()}
	}
	n, err := s.store.PutCards(r.Context(), a.Key, req.Lexicon, cards, MaxCards)
	if errors.Is(err, store.ErrFull) {
		err = &apiError{409, fmt.Sprintf("a cardbox holds at most %d alphagrams a word list", MaxCards)}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, Cardbox{Lexicon: req.Lexicon, Count: n})
}

func (s *Server) handleCardboxClear(w http.ResponseWriter, r *http.Request) {
	lex := r.URL.Query().Get("lexicon")
	a, _, _, err := s.cardboxAccount(r, lex)
	if err != nil {
		s.fail(w, err)
		return
	}
	if _, err := s.store.ClearCards(r.Context(), a.Key, lex); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, Cardbox{Lexicon: lex})
}
