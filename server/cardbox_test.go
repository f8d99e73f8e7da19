package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCardbox checks the cardbox kept with an account: sign-in needed,
// cards spelt as the word study spells them whatever order they come in,
// a later filing winning, every malformed card refused with what and
// where, the limit per request, each account's cardbox its own, and
// emptying.
func TestCardbox(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	e.signUp(bo, "Bob", "battery staple")
	now := time.Now().UnixMilli()
	day := int64(24 * 3600 * 1000)
	card := func(letters string, box int, due, filed int64) CardInfo {
		return CardInfo{Letters: letters, Box: box, Due: due, Filed: filed}
	}
	var cb Cardbox
	if code := e.do("GET", "/api/me/cardbox?lexicon=en-sowpods", "", nil, nil); code != 401 {
		t.Errorf("a guest's cardbox: %d, want 401", code)
	}
	body := map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("tear", 2, now+4*day, now), card("QI", 0, now+day, now)}}
	if code := e.do("PUT", "/api/me/cardbox", "", body, nil); code != 401 {
		t.Errorf("a guest files cards: %d, want 401", code)
	}
	var why struct{ Error string }
	if code := e.doWith(ana, "PUT", "/api/me/cardbox", "", body, &why); code != 200 {
		t.Fatalf("Ana files two cards: %d %+v", code, why)
	}
	// An earlier filing of the same alphagram changes nothing; a later
	// one replaces it.
	older := map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("RATE", 7, now+90*day, now-day), card("IQ", 3, now+7*day, now+1000)}}
	if code := e.doWith(ana, "PUT", "/api/me/cardbox", "", older, &cb); code != 200 || cb.Count != 2 {
		t.Fatalf("Ana files again: %d %+v", code, cb)
	}
	if code := e.doWith(ana, "GET", "/api/me/cardbox?lexicon=en-sowpods", "", nil, &cb); code != 200 || cb.Count != 2 ||
		fmt.Sprint(cb.Cards) != fmt.Sprint([]CardInfo{card("AERT", 2, now+4*day, now), card("IQ", 3, now+7*day, now+1000)}) {
		t.Errorf("Ana's cardbox: %d %+v", code, cb)
	}
	var bobs Cardbox
	if code := e.doWith(bo, "GET", "/api/me/cardbox?lexicon=en-sowpods", "", nil, &bobs); code != 200 || bobs.Count != 0 || len(bobs.Cards) != 0 {
		t.Errorf("Bob's cardbox: %d %+v", code, bobs)
	}
	if code := e.doWith(ana, "GET", "/api/me/cardbox?lexicon=es-fise", "", nil, nil); code != 400 {
		t.Errorf("a cardbox of a word list not offered: %d, want 400", code)
	}
	many := make([]CardInfo, MaxStudied+1)
	for i := range many {
		many[i] = card("QI", 0, now+day, now)
	}
	for _, c := range []struct {
		body any
		code int
		want string
	}{
		{map[string]any{"lexicon": "xx", "cards": []CardInfo{card("QI", 0, now, now)}}, 400, `word list "xx" is not offered`},
		{map[string]any{"lexicon": "en-sowpods"}, 400, "0 cards: send 1 to 200"},
		{map[string]any{"lexicon": "en-sowpods", "cards": many}, 400, "201 cards: send 1 to 200"},
		{map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("QI", 0, now, now), card("XYZZY", 0, now, now)}}, 400, `card 2 "XYZZY": no word of the list is made of these letters`},
		{map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("Q1", 0, now, now)}}, 400, `card 1 "Q1": `},
		{map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("QI", 8, now, now)}}, 400, `card 1 "QI": box 8: want 0 to 7`},
		{map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("QI", 1, now+3*day, now+2*day)}}, 400, `card 1 "QI": filed at a time to come`},
		{map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("QI", 1, now-day, now)}}, 400, `card 1 "QI": due before it was filed or more than 400 days after`},
		{map[string]any{"lexicon": "en-sowpods", "cards": []CardInfo{card("QI", 1, now+500*day, now)}}, 400, `card 1 "QI": due before it was filed`},
		{`{"lexicon": "en-sowpods", "cards": [`, 400, ""},
	} {
		var out struct{ Error string }
		if code := e.doWith(ana, "PUT", "/api/me/cardbox", "", c.body, &out); code != c.code || !strings.HasPrefix(out.Error, c.want) {
			t.Errorf("PUT %.80v: %d %q, want %d %q", c.body, code, out.Error, c.code, c.want)
		}
	}
	if code := e.doWith(ana, "GET", "/api/me/cardbox?lexicon=en-sowpods", "", nil, &cb); code != 200 || cb.Count != 2 {
		t.Errorf("Ana's cardbox after the refusals: %d %+v", code, cb)
	}
	if code := e.doWith(ana, "DELETE", "/api/me/cardbox?lexicon=en-sowpods", "", nil, &cb); code != 200 || cb.Count != 0 {
		t.Errorf("emptying: %d %+v", code, cb)
	}
	if code := e.doWith(ana, "GET", "/api/me/cardbox?lexicon=en-sowpods", "", nil, &cb); code != 200 || cb.Count != 0 {
		t.Errorf("Ana's emptied cardbox: %d %+v", code, cb)
	}
}
