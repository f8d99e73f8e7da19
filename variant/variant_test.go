package variant

import (
	"fmt"
	"strings"
	"testing"
)

func TestEmbedded(t *testing.T) {
	tests := []struct {
		name           string
		letters, tiles int
		scoreless      int
		passingRounds  int
	}{
		{"english", 26, 100, 6, 0},
		{"spanish", 28, 100, 0, 1},
		{"czech", 39, 100, 0, 2},
	}
	for _, tc := range tests {
		v, err := Load(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if v.Alphabet.Size() != tc.letters || v.TotalTiles() != tc.tiles {
			t.Errorf("%s: %d letters, %d tiles; want %d, %d", tc.name, v.Alphabet.Size(), v.TotalTiles(), tc.letters, tc.tiles)
		}
		if v.ScorelessTurns != tc.scoreless || v.PassingRounds != tc.passingRounds {
			t.Errorf("%s: end rules %d/%d", tc.name, v.ScorelessTurns, v.PassingRounds)
		}
		if v.StartRow != 7 || v.StartCol != 7 || v.Premium(7, 7).WordMul != 2 || v.Premium(0, 0).WordMul != 3 ||
			v.Premium(0, 3).LetterMul != 2 || v.Premium(1, 5).LetterMul != 3 {
			t.Errorf("%s: layout wrong", tc.name)
		}
	}
	es := MustLoad("spanish")
	ch, err := es.Alphabet.Letter("CH", 0)
	if err != nil || es.Score(ch) != 5 || es.Counts[ch] != 1 {
		t.Errorf("Spanish CH: %v score %d", err, es.Score(ch))
	}
}

func TestParseErrors(t *testing.T) {
	base := `{"name":"x","board_size":%d,"rack_size":%d,"premium_layout":%s,"tiles":[%s]}`
	good := `{"tile":"?","count":2,"score":0},{"tile":"A","count":20,"score":1}`
	tests := []struct {
		json, want string
	}{
		{`{`, "unexpected end"},
		{sprintf(base, 4, 7, "[]", good), "board_size 4"},
		{sprintf(base, 26, 7, "[]", good), "board_size 26"},
		{sprintf(base, 5, 0, "[]", good), "rack_size 0"},
		{sprintf(base, 5, 7, `["....."]`, good), "1 rows"},
		{sprintf(base, 5, 7, `[".....",".....","..X..",".....","....."]`, good), "row 3 column 3"},
		{sprintf(base, 5, 7, `[".....","....",".....",".....","....."]`, good), "row 2 has 4"},
		{sprintf(base, 5, 7, "[]", `{"tile":"A","count":2,"score":1}`), "too few"},
		{sprintf(base, 5, 7, "[]", `{"tile":"A","count":20,"score":1},{"tile":"A","count":2,"score":1}`), "twice"},
		{sprintf(base, 5, 7, "[]", `{"tile":"1","count":20,"score":1}`), "not made of letters"},
		{sprintf(base, 5, 7, "[]", `{"tile":"A","count":-1,"score":1}`), "negative count"},
		{`{"name":"x","board_size":5,"rack_size":3,"start_square":"Z9","tiles":[` + good + `]}`, "off the"},
	}
	for _, tc := range tests {
		_, err := Parse([]byte(tc.json), "test.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "test.json") {
			t.Errorf("Parse(%s): %v, want error containing %q", tc.json, err, tc.want)
		}
	}
	v, err := Parse([]byte(sprintf(base, 5, 3, "[]", good)), "ok")
	if err != nil || v.Size != 5 || v.StartRow != 2 || v.ScorelessTurns != 6 {
		t.Errorf("small variant: %v %+v", err, v)
	}
}

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

func TestParseSquare(t *testing.T) {
	for _, tc := range []struct {
		in       string
		row, col int
		ok       bool
	}{{"H8", 7, 7, true}, {"8H", 7, 7, true}, {"a1", 0, 0, true}, {"15O", 14, 14, true}, {"O15", 14, 14, true}, {"H", 0, 0, false}, {"88", 0, 0, false}, {"H0", 0, 0, false}} {
		r, c, err := ParseSquare(tc.in)
		if (err == nil) != tc.ok || (tc.ok && (r != tc.row || c != tc.col)) {
			t.Errorf("ParseSquare(%q) = %d,%d,%v", tc.in, r, c, err)
		}
	}
}

// TestInSet: tiles within the set pass; one tile more than the set holds
// is named with the count.
func TestInSet(t *testing.T) {
	en := MustLoad("english")
	for _, tc := range []struct{ rack, want string }{
		{"QU??", ""}, {"EEEEEEEEEEEE", ""}, {"QQ", "2 × Q, the set holds 1"}, {"???", "3 × ?, the set holds 2"}, {"EEEEEEEEEEEEE", "13 × E, the set holds 12"},
	} {
		r, err := en.Alphabet.ParseRack(tc.rack)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := en.InSet(&r); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.rack, got, tc.want)
		}
	}
}
