package cgp

import (
	"fmt"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/internal/testgame"
	"atril/variant"
)

const emptyEnglish = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"

func TestParseEmptyBoard(t *testing.T) {
	v := variant.MustLoad("english")
	p, err := Parse(emptyEnglish+" AEINRS?/QZ 12/-3 2 lex NWL20; bb 0;", v)
	if err != nil {
		t.Fatal(err)
	}
	for i, sq := range p.Squares {
		if sq != board.Empty {
			t.Fatalf("square %d holds %d on an empty board", i, sq)
		}
	}
	if got := p.RackTiles[0].Len(); got != 7 {
		t.Errorf("rack on turn has %d tiles, want 7", got)
	}
	if got := p.RackTiles[0][alphabet.Blank]; got != 1 {
		t.Errorf("rack on turn has %d blanks, want 1", got)
	}
	if got := p.RackTiles[1].Len(); got != 2 {
		t.Errorf("other rack has %d tiles, want 2", got)
	}
	if p.Scores[0] != 12 || p.Scores[1] != -3 {
		t.Errorf("scores %v, want [12 -3]", p.Scores)
	}
	if p.ZeroTurns != 2 {
		t.Errorf("zero turns %d, want 2", p.ZeroTurns)
	}
	if p.Lexicon() != "NWL20" {
		t.Errorf("lexicon %q, want NWL20", p.Lexicon())
	}
	if len(p.Ops) != 2 || p.Ops[1].Name != "bb" || len(p.Ops[1].Args) != 1 || p.Ops[1].Args[0] != "0" {
		t.Errorf("unknown opcode not kept: %+v", p.Ops)
	}
	b, err := p.Board(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !b.IsEmpty() {
		t.Error("board is not empty")
	}
}

// tileAt reads a letter of the variant for comparisons.
func tile(t *testing.T, v *variant.Variant, s string) alphabet.Tile {
	t.Helper()
	tl, err := v.Alphabet.Letter(s, alphabet.WithBlanks)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestParseSquares(t *testing.T) {
	tests := []struct {
		variant string
		row     string // row 8 (index 7); other rows empty
		rack    string
		want    map[int]string // column → tile text (lowercase: blank)
		rackLen int
	}{
		{"english", "7CAT5", "ABC", map[int]string{7: "C", 8: "A", 9: "T", 6: "", 10: ""}, 3},
		{"english", "CAt12", "", map[int]string{0: "C", 1: "A", 2: "t", 3: ""}, 0},
		{"english", "9QUIZeS", "?", map[int]string{9: "Q", 13: "e", 14: "S", 8: ""}, 1},
		{"spanish", "6[CH]O[RR]O5", "[LL]A?", map[int]string{6: "CH", 7: "O", 8: "RR", 9: "O", 10: ""}, 3},
		// Outside brackets each character is one tile.
		{"spanish", "6CHORRO3", "LLA?", map[int]string{6: "C", 7: "H", 8: "O", 9: "R", 10: "R", 11: "O", 12: ""}, 4},
		{"spanish", "[ch]14", "[L]L", map[int]string{0: "ch", 1: ""}, 2},
		{"spanish", "[ll]l13", "[C]H[L]", map[int]string{0: "ll", 1: "l", 2: ""}, 3},
		{"spanish", "5ÑU8", "A", map[int]string{5: "Ñ", 6: "U"}, 1},
		{"czech", "3ŽÁBA8", "ŘČ?", map[int]string{3: "Ž", 4: "Á", 5: "B", 6: "A"}, 3},
		{"czech", "3řEKa8", "CH", map[int]string{3: "ř", 4: "E", 5: "K", 6: "a"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.variant+"/"+tc.row, func(t *testing.T) {
			v := variant.MustLoad(tc.variant)
			rows := strings.Split(emptyEnglish, "/")
			rows[7] = tc.row
			p, err := Parse(strings.Join(rows, "/")+" "+tc.rack+"/ 0/0 0", v)
			if err != nil {
				t.Fatal(err)
			}
			for col, s := range tc.want {
				want := board.Empty
				if s != "" {
					want = tile(t, v, s)
				}
				if got := p.At(7, col); got != want {
					t.Errorf("column %d: got %q, want %q", col+1, v.Alphabet.String(got), s)
				}
			}
			if got := p.RackTiles[0].Len(); got != tc.rackLen {
				t.Errorf("rack %q read as %d tiles, want %d", tc.rack, got, tc.rackLen)
			}
		})
	}
}

// TestWriteText checks how tiles are written: multi-letter tiles in
// brackets and nothing else, so that other engines, which read every
// character outside brackets as one tile, read the same tiles.
func TestWriteText(t *testing.T) {
	tests := []struct {
		variant string
		tiles   []string
		rack    string // RackText of the tiles
		row     string // the tiles as a board row from column A
	}{
		{"english", []string{"C", "A", "t"}, "AC?", "CAt12"},
		{"spanish", []string{"CH", "O", "RR", "O"}, "[CH]OO[RR]", "[CH]O[RR]O11"},
		{"spanish", []string{"L", "L", "C", "H"}, "CHLL", "LLCH11"},
		{"spanish", []string{"LL", "L", "ll", "l"}, "L[LL]??", "[LL]L[ll]l11"},
		{"spanish", []string{"c", "h", "R", "R", "R"}, "RRR??", "chRRR10"},
		{"spanish", []string{"ch", "L", "Ñ"}, "LÑ?", "[ch]LÑ12"},
		{"czech", []string{"C", "H", "Ř", "ž"}, "CHŘ?", "CHŘž11"},
	}
	for _, tc := range tests {
		t.Run(tc.variant+"/"+strings.Join(tc.tiles, "."), func(t *testing.T) {
			v := variant.MustLoad(tc.variant)
			var ts []alphabet.Tile
			for _, s := range tc.tiles {
				ts = append(ts, tile(t, v, s))
			}
			r := alphabet.RackOf(ts)
			if got := RackText(v.Alphabet, &r); got != tc.rack {
				t.Errorf("RackText: got %q, want %q", got, tc.rack)
			}
			// The tiles on a rack of an empty board, then on the board
			// with empty racks; each must read back the same.
			onRack := FromRacks(t, v, r)
			q, err := Parse(onRack, v)
			if err != nil {
				t.Fatalf("%q does not read back: %v", onRack, err)
			}
			if q.RackTiles[0] != r {
				t.Errorf("%q: rack reads back as %q, want %q", onRack, RackText(v.Alphabet, &q.RackTiles[0]), tc.rack)
			}
			p := &Position{V: v, Squares: make([]alphabet.Tile, v.Size*v.Size), Scores: []int{0, 0},
				RackTiles: []alphabet.Rack{{}, {}}}
			for i := range p.Squares {
				p.Squares[i] = board.Empty
			}
			copy(p.Squares, ts)
			onBoard := p.String()
			if got := strings.Split(onBoard, "/")[0]; got != tc.row {
				t.Errorf("row 1: got %q, want %q", got, tc.row)
			}
			q, err = Parse(onBoard, v)
			if err != nil {
				t.Fatalf("%q does not read back: %v", onBoard, err)
			}
			for i, x := range ts {
				if got := q.Squares[i]; got != x {
					t.Errorf("%q: column %d reads back as %q, want %q", onBoard, i+1, v.Alphabet.String(got), tc.tiles[i])
				}
			}
		})
	}
}

// TestSpanishLLCH is the case that other engines rejected in what this
// package used to write: a Spanish rack with two L tiles, a C and an H is
// written without brackets and reads back as the same four tiles, and the
// older bracketed form still reads the same.
func TestSpanishLLCH(t *testing.T) {
	v := variant.MustLoad("spanish")
	want := alphabet.RackOf([]alphabet.Tile{tile(t, v, "L"), tile(t, v, "L"), tile(t, v, "C"), tile(t, v, "H")})
	line := FromRacks(t, v, want)
	if !strings.Contains(line, " CHLL/") || strings.Contains(line, "[") {
		t.Fatalf("written as %q, want the rack CHLL without brackets", line)
	}
	for _, text := range []string{line, strings.Replace(line, " CHLL/", " [C]H[L]L/", 1)} {
		p, err := Parse(text, v)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if p.RackTiles[0] != want || p.RackTiles[0].Len() != 4 {
			t.Errorf("%q: rack reads as %q (%d tiles), want CHLL (4 tiles)", text, RackText(v.Alphabet, &p.RackTiles[0]), p.RackTiles[0].Len())
		}
	}
}

// FromRacks writes the CGP line of an empty board with rack r on turn.
func FromRacks(t *testing.T, v *variant.Variant, r alphabet.Rack) string {
	t.Helper()
	p := &Position{V: v, Squares: make([]alphabet.Tile, v.Size*v.Size), Scores: []int{0, 0},
		RackTiles: []alphabet.Rack{r, {}}}
	for i := range p.Squares {
		p.Squares[i] = board.Empty
	}
	return p.String()
}

func TestErrors(t *testing.T) {
	row := func(i int, s string) string {
		rows := strings.Split(emptyEnglish, "/")
		rows[i] = s
		return strings.Join(rows, "/")
	}
	tests := []struct {
		name, variant, cgp string
		want               []string // substrings of the error
	}{
		{"missing racks", "english", emptyEnglish, []string{"missing racks"}},
		{"missing scores", "english", emptyEnglish + " A/B", []string{"missing scores"}},
		{"missing zero turns", "english", emptyEnglish + " A/B 0/0", []string{"missing zero-turn"}},
		{"empty", "english", "", []string{"missing board"}},
		{"too few rows", "english", "15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/B 0/0 0", []string{"14 rows", "15×15"}},
		{"too many rows syntax", "english", strings.Repeat("15/", 26) + "15 A/B 0/0 0", []string{"27 rows"}},
		{"short row", "english", row(3, "14") + " A/B 0/0 0", []string{"row 4", "14 squares"}},
		{"long row", "english", row(3, "15A") + " A/B 0/0 0", []string{"row 4", "more than 15"}},
		{"long run", "english", row(3, "16") + " A/B 0/0 0", []string{"row 4", "more than 15"}},
		{"empty row", "english", row(2, "") + " A/B 0/0 0", []string{"row 3", "empty row"}},
		{"zero run", "english", row(2, "0A14") + " A/B 0/0 0", []string{"row 3", "run"}},
		{"unclosed bracket", "spanish", row(5, "[CH14") + " A/B 0/0 0", []string{"row 6", "unclosed"}},
		{"two tiles in brackets", "spanish", row(5, "[CHO]12") + " A/B 0/0 0", []string{"row 6", "CHO"}},
		{"spanish runs into 16 columns", "spanish", row(7, "6CHORRO4") + " A/B 0/0 0", []string{"row 8", "more than 15"}},
		{"unknown letter", "english", row(7, "7CAÑ5") + " A/B 0/0 0", []string{"row 8 column 10", "J8", "Ñ"}},
		{"unknown bracket letter", "english", row(0, "[XY]14") + " A/B 0/0 0", []string{"row 1 column 1", "XY"}},
		{"blank ? on board", "english", row(1, "3?11") + " A/B 0/0 0", []string{"row 2 column 4", "lowercase"}},
		{"one rack", "english", emptyEnglish + " AB 0 0", []string{"1 racks"}},
		{"five racks", "english", emptyEnglish + " A/B/C/D/E 0/0/0/0/0 0", []string{"5 racks"}},
		{"rack too long", "english", emptyEnglish + " ABCDEFGH/B 0/0 0", []string{"rack 1", "8 tiles", "rack size is 7"}},
		{"rack unknown letter", "english", emptyEnglish + " A/BÑ 0/0 0", []string{"rack 2", "Ñ"}},
		{"rack lowercase", "english", emptyEnglish + " A/Bc 0/0 0", []string{"rack 2", "?"}},
		{"rack digit", "english", emptyEnglish + " A1/B 0/0 0", []string{"rack 1", "digit"}},
		{"scores count", "english", emptyEnglish + " A/B 0 0", []string{"1 scores for 2 racks"}},
		{"bad score", "english", emptyEnglish + " A/B 0/x1 0", []string{"score 2", "x1"}},
		{"bad zero turns", "english", emptyEnglish + " A/B 0/0 -1", []string{"zero-turn count", "-1"}},
		{"lex without name", "english", emptyEnglish + " A/B 0/0 0 lex;", []string{"lex"}},
		{"too many Z", "english", row(7, "7ZZ6") + " Z/ 0/0 0", []string{"too many Z", "3", "has 1"}},
		{"too many blanks", "english", row(7, "7ab6") + " ?/ 0/0 0", []string{"too many blanks", "3", "has 2"}},
		{"spanish too many CH", "spanish", row(7, "7[CH][CH]6") + " A/ 0/0 0", []string{"too many CH", "has 1"}},
		{"czech unknown letter", "czech", row(7, "7ÄB6") + " A/ 0/0 0", []string{"row 8 column 8", "Ä"}},
		{"wrong size", "english", "5/5/5/5/5 A/B 0/0 0", []string{"5 rows"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := variant.MustLoad(tc.variant)
			_, err := Parse(tc.cgp, v)
			if err == nil {
				t.Fatalf("%q: no error", tc.cgp)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestCustomSize checks a board size other than 15 through a variant file.
func TestCustomSize(t *testing.T) {
	v, err := variant.Parse([]byte(`{"name":"tiny","board_size":5,"rack_size":3,
		"tiles":[{"tile":"A","count":4,"score":1},{"tile":"B","count":3,"score":3},{"tile":"?","count":2,"score":0}]}`), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	s := "5/5/1ABa1/5/5 AB?/B 3/0 0"
	p, err := Parse(s, v)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != s {
		t.Errorf("got %q, want %q", got, s)
	}
	if _, err := Parse("5/5/1ABa1/5/5 AB?/BBB 3/0 0", v); err == nil || !strings.Contains(err.Error(), "too many B") {
		t.Errorf("want too many B, got %v", err)
	}
}

// TestRoundTripGames exports the position before every move of games in
// the three languages, reads it back and checks that the board (tiles and
// cross-sets), racks and scores match the game and that writing it again
// gives the same text.
func TestRoundTripGames(t *testing.T) {
	for _, vn := range []string{"english", "spanish", "czech"} {
		if testing.Short() && vn != "english" {
			continue // loading the big Spanish and Czech lists takes seconds
		}
		seeds := uint64(1)
		if vn == "english" {
			seeds = 2
		}
		for seed := uint64(1); seed <= seeds; seed++ {
			v, lex := testgame.Sample(t, vn)
			positions := 0
			g := testgame.PlayGame(t, v, lex, []string{"Ana", "Bo", "Cy"}[:2+int(seed)%2], seed, 60, func(g *game.Game) {
				positions++
				s := FromGame(g).String()
				p, err := Parse(s, v)
				if err != nil {
					t.Fatalf("%s seed %d: %q: %v", vn, seed, s, err)
				}
				if again := p.String(); again != s {
					t.Fatalf("%s: export→import→export differs:\n%s\n%s", vn, s, again)
				}
				if p.Lexicon() != lex.Name {
					t.Errorf("lexicon %q, want %q", p.Lexicon(), lex.Name)
				}
				b, err := p.Board(lex)
				if err != nil {
					t.Fatal(err)
				}
				if msg := boardDiff(b, g.Board); msg != "" {
					t.Fatalf("%s: board read back from %q differs from the game's: %s", vn, s, msg)
				}
				k := len(g.Seats)
				for i := 0; i < k; i++ {
					pl := g.Seats[(g.Current()+i)%k]
					if p.RackTiles[i] != pl.Rack || p.Scores[i] != pl.Score {
						t.Fatalf("%s: %q: rack/score %d differ from player %s", vn, s, i, pl.Name)
					}
				}
				if p.ZeroTurns != g.ScorelessTurns() {
					t.Fatalf("zero turns %d, want %d", p.ZeroTurns, g.ScorelessTurns())
				}
			})
			if g.Board.Tiles() < 20 {
				t.Errorf("%s seed %d: only %d tiles played in %d positions; the test games are too short", vn, seed, g.Board.Tiles(), positions)
			}
		}
	}
}

// boardDiff describes the first difference between two boards in tiles,
// or in the cross-sets and cross scores of empty squares ("" if none).
func boardDiff(a, b *board.Board) string {
	if a.Size != b.Size || a.Tiles() != b.Tiles() {
		return fmt.Sprintf("size %d/%d, tiles %d/%d", a.Size, b.Size, a.Tiles(), b.Tiles())
	}
	for r := 0; r < a.Size; r++ {
		for c := 0; c < a.Size; c++ {
			if a.At(r, c) != b.At(r, c) {
				return fmt.Sprintf("square %s: tile %d/%d", variant.SquareName(r, c), a.At(r, c), b.At(r, c))
			}
			if a.At(r, c) != board.Empty {
				continue
			}
			for d := board.Across; d <= board.Down; d++ {
				or, oc := board.Orient(d, r, c)
				if a.Cross(d, or, oc) != b.Cross(d, or, oc) || a.CrossScore(d, or, oc) != b.CrossScore(d, or, oc) {
					return fmt.Sprintf("square %s %s: cross-set %x/%x, cross score %d/%d", variant.SquareName(r, c), d,
						a.Cross(d, or, oc), b.Cross(d, or, oc), a.CrossScore(d, or, oc), b.CrossScore(d, or, oc))
				}
			}
		}
	}
	return ""
}

// TestTextOnly checks that ParseText works without a variant and that an
// unresolved position writes its fields back.
func TestTextOnly(t *testing.T) {
	s := "  " + emptyEnglish + "\tAB/CD   1/2  0   lex   CSW21 ;foo a b"
	p, err := ParseText(s)
	if err != nil {
		t.Fatal(err)
	}
	want := emptyEnglish + " AB/CD 1/2 0 lex CSW21; foo a b;"
	if got := p.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	p.SetLexicon("NWL20")
	if p.Lexicon() != "NWL20" {
		t.Errorf("SetLexicon: %q", p.Lexicon())
	}
	p.SetLexicon("")
	if p.Lexicon() != "" || len(p.Ops) != 1 {
		t.Errorf("SetLexicon(\"\"): %+v", p.Ops)
	}
}

func FuzzParseCGP(f *testing.F) {
	f.Add("english", emptyEnglish+" AEINRS?/QZ 12/-3 2 lex NWL20;")
	f.Add("english", "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AB/ 0/0 0")
	f.Add("spanish", "15/15/15/15/15/15/15/6[CH]O[RR]O5/15/15/15/15/15/15/15 [LL]A?/[L]L 3/4 1 lex FISE;")
	f.Add("czech", "15/15/15/15/15/15/15/3ŽÁBa8/15/15/15/15/15/15/15 ŘČ?/CH 0/0 0")
	vs := map[string]*variant.Variant{}
	for _, n := range []string{"english", "spanish", "czech"} {
		vs[n] = variant.MustLoad(n)
	}
	f.Fuzz(func(t *testing.T, vn, s string) {
		v := vs[vn]
		if v == nil {
			v = vs["english"]
		}
		if p, err := ParseText(s); err == nil {
			if _, err := ParseText(p.String()); err != nil {
				t.Fatalf("text %q → %q does not read back: %v", s, p.String(), err)
			}
		}
		p, err := Parse(s, v)
		if err != nil {
			return
		}
		out := p.String()
		q, err := Parse(out, v)
		if err != nil {
			t.Fatalf("%q → %q does not read back: %v", s, out, err)
		}
		if again := q.String(); again != out {
			t.Fatalf("%q → %q → %q", s, out, again)
		}
		for i := range p.Squares {
			if p.Squares[i] != q.Squares[i] {
				t.Fatalf("%q → %q: square %d changed", s, out, i)
			}
		}
		for i := range p.RackTiles {
			if p.RackTiles[i] != q.RackTiles[i] {
				t.Fatalf("%q → %q: rack %d changed", s, out, i)
			}
		}
	})
}
