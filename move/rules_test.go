package move

import (
	"strings"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/variant"
)

// setup builds a board for the variant with a tiny lexicon and plays the
// given moves (in notation) on it without checking racks.
func setup(t *testing.T, vname string, words []string, moves ...string) *board.Board {
	t.Helper()
	v := variant.MustLoad(vname)
	lex, err := lexicon.FromWords(v.Alphabet, words...)
	if err != nil {
		t.Fatal(err)
	}
	b := board.New(v, lex)
	for i, s := range moves {
		m, err := Parse(b, s)
		if err != nil {
			t.Fatalf("setup move %q: %v", s, err)
		}
		all := alphabet.RackOf(nil)
		all[alphabet.Blank] = 15
		for l := 1; l <= v.Alphabet.Size(); l++ {
			all[l] = 15
		}
		if err := Validate(b, &all, m, 100); err != nil {
			t.Fatalf("setup move %q: %v", s, err)
		}
		sq, ts := m.Placed()
		b.Place(sq, ts, i)
	}
	return b
}

var enWords = []string{"CAT", "CATS", "AT", "TA", "AX", "XI", "ACT", "SCAT", "QI", "ZA", "ZAS", "AS",
	"AA", "BA", "AB", "TAX", "RETAINS", "STAINER", "CATTIER", "TI", "IT", "ATT"}

func rack(t *testing.T, a *alphabet.Alphabet, s string) *alphabet.Rack {
	t.Helper()
	r, err := a.ParseRack(s)
	if err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestValidateRejections(t *testing.T) {
	tests := []struct {
		name  string
		moves []string // already on the board
		rack  string
		play  string
		want  string
	}{
		{"off board", nil, "CATS", "8M CATS", "runs off the"},
		{"first move off start", nil, "CAT", "1A CAT", "start square H8"},
		{"first move one tile", []string{}, "C", "8H C", "at least two letters"},
		{"not on rack", nil, "CA", "8H CAT", "tile T is not on the rack"},
		{"no blank for lowercase", nil, "CA", "8H CAt", "no blank on the rack"},
		{"not connected", []string{"8H CAT"}, "AT", "1A AT", "not connected"},
		{"word continues before", []string{"8H CAT"}, "S", "8K S", "continues before"},
		{"word continues after", []string{"8H CAT"}, "S", "8G S", "continues past its end"},
		{"not a word", []string{"8H CAT"}, "TT", "9I TT", "is not a word"},
		{"cross word", []string{"8H CAT"}, "ZQ", "9H ZQ", "is not a word"},
		{"cross word named", []string{"8H CAT"}, "AS", "9I AS", "(formed at J9) is not a word"},
		{"no new tile", []string{"8H CAT"}, "AS", "8H CAT", "places no tile"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := setup(t, "english", enWords, tc.moves...)
			m, err := Parse(b, tc.play)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			err = Validate(b, rack(t, b.Variant.Alphabet, tc.rack), m, 80)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: got %v, want error containing %q", tc.play, err, tc.want)
			}
		})
	}
}

func TestValidateOccupiedAndBlank(t *testing.T) {
	b := setup(t, "english", enWords, "8H CAT")
	r := rack(t, b.Variant.Alphabet, "AT?")
	// A square already holding a tile cannot take another.
	m := &Move{Kind: Place, Row: 7, Col: 7, Dir: board.Down, Tiles: []alphabet.Tile{1, 1}}
	if err := Validate(b, r, m, 80); err == nil || !strings.Contains(err.Error(), "H8 already holds C") {
		t.Errorf("occupied: %v", err)
	}
	m = &Move{Kind: Place, Row: 8, Col: 8, Dir: board.Across, Tiles: []alphabet.Tile{alphabet.Blank, 20}}
	if err := Validate(b, r, m, 80); err == nil || !strings.Contains(err.Error(), "has no letter") {
		t.Errorf("undesignated blank: %v", err)
	}
	// A gap in the word: a played-through square that is empty.
	m = &Move{Kind: Place, Row: 8, Col: 8, Dir: board.Across, Tiles: []alphabet.Tile{1, PlayThrough, 20}}
	if err := Validate(b, r, m, 80); err == nil || !strings.Contains(err.Error(), "J9 is empty") {
		t.Errorf("gap: %v", err)
	}
	// Exchanges.
	ex, _ := Parse(b, "-AT")
	if err := Validate(b, r, ex, 6); err == nil || !strings.Contains(err.Error(), "at least 7") {
		t.Errorf("exchange with small bag: %v", err)
	}
	ex, _ = Parse(b, "-AZ")
	if err := Validate(b, r, ex, 50); err == nil || !strings.Contains(err.Error(), "Z is not on the rack") {
		t.Errorf("exchange of missing tile: %v", err)
	}
	ex, _ = Parse(b, "-A?")
	if err := Validate(b, r, ex, 50); err != nil {
		t.Errorf("legal exchange: %v", err)
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		name    string
		variant string
		words   []string
		moves   []string
		rack    string
		play    string
		score   int
	}{
		{"first move doubles", "english", enWords, nil, "CAT", "8H CAT", 10},
		{"premium under old tile ignored", "english", enWords, []string{"8H CAT"}, "AT", "H8 CAT", 5},
		{"one tile, cross word only, double letter", "english", enWords, []string{"8H CAT"}, "X", "I8 AX", 17},
		{"hook scores both words", "english", enWords, []string{"8H CAT"}, "S", "8H CATS", 6},
		{"parallel play", "english", enWords, []string{"8H CAT"}, "TI", "9I TI", 3 + 3 + 2},
		{"blank on double word scores zero", "english", enWords, nil, "C?T", "8H CaT", 8},
		{"blank letter premium", "english", enWords, []string{"8H CAT"}, "?", "I8 Ax", 1},
		{"bingo", "english", enWords, nil, "AEINRST", "8B RETAINS", 8*2 + 50},
		{"bingo with blank through premium", "english", enWords, nil, "AEINRT?", "8H sTAINER", (0+1+1+1+1+2+1)*2 + 50},
		{"spanish digraphs", "spanish", []string{"CHORRO", "LLAMA", "LLAMAS"}, nil, "CHORRO", "8H CHORRO", (5 + 1 + 8 + 1) * 2},
		{"spanish LL", "spanish", []string{"CHORRO", "LLAMA", "LLAMAS"}, []string{"8H LLAMA"}, "S", "8H LLAMAS", 8 + 1 + 3 + 1 + 2},
		{"czech diacritics", "czech", []string{"ŽÁBA", "ŽÁBY", "ŤUK"}, nil, "ŽÁBA", "8H ŽÁBA", (4 + 2 + 3 + 1) * 2},
		{"czech blank ť", "czech", []string{"ŽÁBA", "ŽÁBY", "ŤUK"}, nil, "?UK", "H7 ťUK", (0 + 2 + 1) * 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := setup(t, tc.variant, tc.words, tc.moves...)
			m, err := Parse(b, tc.play)
			if err != nil {
				t.Fatalf("parse %q: %v", tc.play, err)
			}
			if err := Validate(b, rack(t, b.Variant.Alphabet, tc.rack), m, 80); err != nil {
				t.Fatalf("%s: %v", tc.play, err)
			}
			if m.Score != tc.score {
				t.Errorf("%s scores %d, want %d", tc.play, m.Score, tc.score)
			}
		})
	}
}

func TestNotation(t *testing.T) {
	b := setup(t, "spanish", []string{"CHORRO", "CHORROS", "OCHO"}, "8H CHORRO")
	tests := []struct {
		in, want string
		dir      board.Dir
		newTiles int
	}{
		{"8H CHORROS", "8H [CH]O[RR]OS", board.Across, 1},
		{"8H ....S", "8H [CH]O[RR]OS", board.Across, 1},
		{"8H (CHORRO)S", "8H [CH]O[RR]OS", board.Across, 1},
		{"H7 OCHO", "H7 O[CH]O", board.Down, 2},
		{"h7 oCHO", "H7 o[CH]O", board.Down, 2},
		{"h7 o.O", "H7 o[CH]O", board.Down, 2},
	}
	for _, tc := range tests {
		m, err := Parse(b, tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := m.String(b); got != tc.want || m.Dir != tc.dir || m.NewTiles() != tc.newTiles {
			t.Errorf("Parse(%q) → %q dir %v new %d; want %q %v %d", tc.in, got, m.Dir, m.NewTiles(), tc.want, tc.dir, tc.newTiles)
		}
	}
	for _, bad := range []string{"8H", "Z9 AB", "8H CH(OR", "8H KIWI", "8H AORRO", "8H ?A", "-ab", "9H .A", "8H (CHORRA)", "7H O(CH)"} {
		if _, err := Parse(b, bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if m, err := Parse(b, "-"); err != nil || m.Kind != Pass {
		t.Errorf("pass: %v", err)
	}
	if m, err := Parse(b, "-CH?"); err != nil || m.Kind != Exchange || len(m.Exchanged) != 2 {
		t.Errorf("exchange: %v %v", m, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"8H CHORRO", "H8 ch.O", "-", "-CH?", "15O A", "A1 (LL)A", "exchange ABC"} {
		f.Add(s)
	}
	v := variant.MustLoad("spanish")
	lex, _ := lexicon.FromWords(v.Alphabet, "CHORRO", "LLAMA")
	b := board.New(v, lex)
	m0, _ := Parse(b, "8H CHORRO")
	sq, ts := m0.Placed()
	b.Place(sq, ts, 0)
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(b, s)
		if err != nil {
			return
		}
		var all alphabet.Rack
		for i := range all {
			all[i] = 9
		}
		_ = Validate(b, &all, m, 50)
		if m.Kind == Place {
			// The rendered move parses back to the same move.
			back, err := Parse(b, m.String(b))
			if err != nil || back.Key() != m.Key() {
				t.Fatalf("%q → %q → %v", s, m.String(b), err)
			}
		}
	})
}

// TestValidateAllocs checks that a legal placement is checked with one
// allocation at most (the buffer of the words, which the word set's
// interface call takes to the heap): every move of a computer player
// goes through Validate. Its messages are made only when a check fails.
func TestValidateAllocs(t *testing.T) {
	b := setup(t, "english", enWords, "8H CAT")
	r := rack(t, b.Variant.Alphabet, "ASTX")
	for _, play := range []string{"I7 TAX", "8H (CAT)S", "7J AT"} {
		m, err := Parse(b, play)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(b, r, m, 80); err != nil {
			t.Fatalf("%s: %v", play, err)
		}
		if n := testing.AllocsPerRun(20, func() { _ = Validate(b, r, m, 80) }); n > 1 {
			t.Errorf("%s: %.0f allocations", play, n)
		}
	}
}

// TestValidateUnjudged checks play under a challenge rule: words missing
// from the list are listed, main word first, and every other rule still
// refuses the move.
func TestValidateUnjudged(t *testing.T) {
	tests := []struct {
		name  string
		moves []string
		rack  string
		play  string
		want  string // phonies joined by spaces, or "error: ..." for a refusal
	}{
		{"valid", []string{"8H CAT"}, "S", "K8 S", ""},
		{"main word and a cross word", []string{"8H CAT"}, "TT", "9I TT", "TT TT"},
		{"main word only", []string{"8H CAT"}, "TT", "8H ...TT", "CATTT"},
		{"main and cross", []string{"8H CAT"}, "ZQ", "9H ZQ", "ZQ CZ AQ"},
		{"cross only", []string{"8H CAT"}, "AS", "9I AS", "TS"},
		{"score kept", nil, "ZZZ", "8H ZZZ", "ZZZ"},
		{"geometry still refused", []string{"8H CAT"}, "AT", "1A AT", "error: not connected"},
		{"rack still refused", []string{"8H CAT"}, "A", "9I AS", "error: tile S is not on the rack"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := setup(t, "english", enWords, tc.moves...)
			m, err := Parse(b, tc.play)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			phonies, err := ValidateUnjudged(b, rack(t, b.Variant.Alphabet, tc.rack), m, 80)
			if msg, ok := strings.CutPrefix(tc.want, "error: "); ok {
				if err == nil || !strings.Contains(err.Error(), msg) {
					t.Fatalf("got %v, want an error containing %q", err, msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(phonies, " "); got != tc.want {
				t.Errorf("phonies %q, want %q", got, tc.want)
			}
			if m.Score != Score(b, m) || m.Score == 0 {
				t.Errorf("score %d, want %d", m.Score, Score(b, m))
			}
			if tc.want != "" && Validate(b, rack(t, b.Variant.Alphabet, tc.rack), m, 80) == nil {
				t.Errorf("Validate accepts %s with phonies %s", tc.play, tc.want)
			}
		})
	}
}
