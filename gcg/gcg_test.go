package gcg

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/internal/testgame"
	"atril/lexicon"
	"atril/move"
	"atril/variant"
)

// Hand-written games whose scores were worked out from the premium
// layouts and tile values (not from this package's output).

// englishGame: RETAINS on the centre double-word square with D8 a double
// letter: (2+6)×2+50 = 66. A blank h on the triple-letter F6 scores 0, so
// hAT is 0+1+1 = 2 and hOLE through it is 0+1+1+1 = 3. Six scoreless turns
// end the game; each player loses the value of their rack:
// EGIRTUV = 1+2+1+1+1+1+4 = 11, DEHMOXY = 2+1+4+3+1+8+4 = 23.
const englishGame = `#character-encoding UTF-8
#player1 Ana Ana García
#player2 Bo Bo
#lexicon tiny-english
#title A test game
#description hand-written
#id test 1
>Ana: AEINRST 8D RETAINS +66 66
>Bo: ADEIOU? -IOU +0 0
>Ana: EEGILOT - +0 66
>Bo: ADEHMO? F6 hAT +2 2
>Ana: EEGILOT 6F hOLE +3 69
>Bo: DEHMOXY - +0 2
>Ana: EGIRTUV - +0 69
>Bo: DEHMOXY - +0 2
>Ana: EGIRTUV - +0 69
>Bo: DEHMOXY - +0 2
>Ana: EGIRTUV - +0 69
>Ana: (EGIRTUV) -11 58
>Bo: (DEHMOXY) -23 -21
`

var englishWords = []string{"RETAINS", "HAT", "HOLE", "AT", "TA"}

// tinyGame is played on a 7×7 board with 3-tile racks and seven tiles, so
// that the bag empties and Ana goes out: TAB = 1+1+3, BA = 3+1, BAT
// through B and A = 3+1+1; Ana gains Bo's AA (2) and Bo loses it.
const tinyGame = `#character-encoding UTF-8
#player1 Ana Ana
#player2 Bo Bo
#lexicon tiny
>Ana: ABT 4C TAB +5 5
>Bo: AAB D3 BA +4 4
>Ana: T D3 BAT +5 10
>Ana: (AA) +2 12
>Bo: (AA) -2 2
`

const tinyVariant = `{"name":"tiny","board_size":7,"rack_size":3,"bingo_bonus":0,
	"tiles":[{"tile":"A","count":3,"score":1},{"tile":"B","count":2,"score":3},{"tile":"T","count":2,"score":1}]}`

// spanishGame: CH·O·RR·O on E8-H8 with H8 double word: (5+1+8+1)×2 = 30;
// LL·A·M down to the O on H8: 8+1+3+1 = 13. A round of passes ends the
// game: ADEINST = 8, BEINSUZ = 3+1+1+1+1+1+10 = 18.
const spanishGame = `#character-encoding UTF-8
#player1 Ana Ana
#player2 Bo Bo
#lexicon tiny-spanish
>Ana: A[CH]EOO[RR]S 8E [CH]O[RR]O +30 30
>Bo: AEI[LL]MNS H5 [LL]AMO +13 13
>Ana: ADEINST - +0 30
>Bo: BEINSUZ - +0 13
>Ana: (ADEINST) -8 22
>Bo: (BEINSUZ) -18 -5
`

var spanishWords = []string{"CHORRO", "LLAMO"}

var czechWords = []string{"ŽÁBA", "ŘEKA"}

func lexOf(t testing.TB, v *variant.Variant, name string, words []string) *lexicon.Lexicon {
	t.Helper()
	lex, err := lexicon.FromWords(v.Alphabet, words...)
	if err != nil {
		t.Fatal(err)
	}
	lex.Name = name
	return lex
}

// roundTrip reads text, checks that writing the game back gives the same
// text, and returns the game.
func roundTrip(t *testing.T, text string, v *variant.Variant, lex *lexicon.Lexicon) *game.Game {
	t.Helper()
	g, h, err := ReadHeader(strings.NewReader(text), v, lex)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteHeader(&buf, g, h); err != nil {
		t.Fatal(err)
	}
	if buf.String() != text {
		t.Errorf("written back differently:\n--- read\n%s--- written\n%s", text, buf.String())
	}
	return g
}

func checkScores(t *testing.T, g *game.Game, want ...int) {
	t.Helper()
	for i, w := range want {
		if g.Seats[i].Score != w {
			t.Errorf("player %d (%s) has %d, want %d", i+1, g.Seats[i].Name, g.Seats[i].Score, w)
		}
	}
}

func TestHandWritten(t *testing.T) {
	en := variant.MustLoad("english")
	g := roundTrip(t, englishGame, en, lexOf(t, en, "tiny-english", englishWords))
	if !g.Over() {
		t.Error("the English game is not over after six scoreless turns")
	}
	checkScores(t, g, 58, -21)
	if g.Seats[0].Name != "Ana García" {
		t.Errorf("player 1 name %q", g.Seats[0].Name)
	}

	tv, err := variant.Parse([]byte(tinyVariant), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	g = roundTrip(t, tinyGame, tv, lexOf(t, tv, "tiny", []string{"TAB", "BA", "BAT", "AB"}))
	if !g.Over() {
		t.Error("the tiny game is not over after Ana went out")
	}
	checkScores(t, g, 12, 2)

	es := variant.MustLoad("spanish")
	g = roundTrip(t, spanishGame, es, lexOf(t, es, "tiny-spanish", spanishWords))
	checkScores(t, g, 22, -5)
	if !g.Over() {
		t.Error("the Spanish game is not over after a round of passes")
	}
	ch, err := es.Alphabet.Letter("CH", alphabet.Plain)
	if err != nil {
		t.Fatal(err)
	}
	if g.Board.At(7, 4) != ch {
		t.Errorf("E8 holds %q, want the CH tile", es.Alphabet.String(g.Board.At(7, 4)))
	}
}

func TestCzech(t *testing.T) {
	cs := variant.MustLoad("czech")
	lex := lexOf(t, cs, "tiny-czech", czechWords)
	text := `#character-encoding UTF-8
#player1 Ana Ana
#player2 Bo Bo
#lexicon tiny-czech
>Ana: AÁBDMSŽ 8E ŽÁBA +20 20
>Bo: EIJKLŘU H5 ŘEKA +7 7
>Ana: ČDEMOSÝ - +0 20
>Bo: EIJLNOU - +0 7
>Ana: ČDEMOSÝ - +0 20
>Bo: EIJLNOU - +0 7
>Ana: (ČDEMOSÝ) -14 6
>Bo: (EIJLNOU) -9 -2
`
	g := roundTrip(t, text, cs, lex)
	if !g.Over() {
		t.Error("the Czech game is not over after two rounds of passes")
	}
	checkScores(t, g, 6, -2)
}

// TestWriteFromGame builds a game by playing moves (not from a file) and
// checks the header written from it.
func TestWriteFromGame(t *testing.T) {
	en := variant.MustLoad("english")
	lex := lexOf(t, en, "tiny-english", englishWords)
	g, err := game.New(en, lex, []string{"Ana García", "Ana García", ""}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	want := "#character-encoding UTF-8\n#player1 Ana_García Ana García\n#player2 Ana_García_2 Ana García\n#player3 player3 player3\n#lexicon tiny-english\n"
	if !strings.HasPrefix(buf.String(), want) {
		t.Errorf("header:\n%s\nwant:\n%s", buf.String(), want)
	}
	// An unfinished game records the racks, and reading it back restores them.
	if !strings.Contains(buf.String(), "#rack3 ") {
		t.Errorf("no #rack3 pragma for an unfinished game:\n%s", buf.String())
	}
	g2, err := Read(strings.NewReader(buf.String()), en, lex)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Seats {
		if g2.Seats[i].Rack != g.Seats[i].Rack {
			t.Errorf("player %d rack %s, want %s", i+1, en.Alphabet.RackString(&g2.Seats[i].Rack), en.Alphabet.RackString(&g.Seats[i].Rack))
		}
	}
}

// TestRoundTripGames plays games with greedy players in three languages,
// writes them, reads them back and writes them again: the texts must be
// identical, and the replayed game must reach the same board and scores.
func TestRoundTripGames(t *testing.T) {
	type tc struct {
		variant string
		players int
		seed    uint64
		moves   int
	}
	cases := []tc{
		{"english", 2, 1, 200}, {"english", 3, 2, 200}, {"english", 4, 3, 200},
		{"english", 2, 4, 12}, // unfinished
		{"spanish", 2, 5, 200}, {"czech", 3, 6, 200},
	}
	names := []string{"Ana María", "Bo", "Cy", "Dee"}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%dp/seed%d", c.variant, c.players, c.seed), func(t *testing.T) {
			if testing.Short() && c.variant != "english" {
				t.Skip("loading the big Spanish and Czech lists takes seconds")
			}
			v, lex := testgame.Sample(t, c.variant)
			g := testgame.PlayGame(t, v, lex, names[:c.players], c.seed, c.moves, nil)
			var first bytes.Buffer
			if err := Write(&first, g); err != nil {
				t.Fatal(err)
			}
			g2, h, err := ReadHeader(bytes.NewReader(first.Bytes()), v, lex)
			if err != nil {
				t.Fatalf("%v\n%s", err, first.String())
			}
			var second bytes.Buffer
			if err := WriteHeader(&second, g2, h); err != nil {
				t.Fatal(err)
			}
			if first.String() != second.String() {
				t.Fatalf("export→import→export differs:\n--- first\n%s--- second\n%s", first.String(), second.String())
			}
			if g2.Over() != g.Over() {
				t.Errorf("replayed game over=%v, original %v", g2.Over(), g.Over())
			}
			for i := range g.Seats {
				if g2.Seats[i].Score != g.Seats[i].Score || g2.Seats[i].Name != g.Seats[i].Name {
					t.Errorf("player %d: replayed %s %d, original %s %d", i+1, g2.Seats[i].Name, g2.Seats[i].Score, g.Seats[i].Name, g.Seats[i].Score)
				}
				if !g.Over() && g2.Seats[i].Rack != g.Seats[i].Rack {
					t.Errorf("player %d: rack differs after replay", i+1)
				}
			}
			if g2.BagLen() != g.BagLen() {
				t.Errorf("bag holds %d tiles after replay, %d in the original", g2.BagLen(), g.BagLen())
			}
			for r := 0; r < v.Size; r++ {
				for col := 0; col < v.Size; col++ {
					if g2.Board.At(r, col) != g.Board.At(r, col) {
						t.Fatalf("square %s differs after replay", variant.SquareName(r, col))
					}
				}
			}
			switch text := first.String(); {
			case c.variant == "spanish" && !strings.Contains(text, "["):
				t.Errorf("the Spanish game shows no multi-letter tile [..]")
			case c.variant == "czech" && !strings.ContainsAny(text, "ÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ"):
				t.Errorf("the Czech game shows no letter with a diacritic")
			}
			if c.moves >= 200 && !g.Over() {
				t.Errorf("the game did not end in %d moves", c.moves)
			}
			var ex, pass, place int
			for _, tn := range g.History {
				switch {
				case tn.Kind != game.Played:
				case tn.Move.Kind == move.Place:
					place++
				case tn.Move.Kind == move.Exchange:
					ex++
				default:
					pass++
				}
			}
			t.Logf("%d placements, %d exchanges, %d passes; scores %v", place, ex, pass, scores(g))
		})
	}
}

func scores(g *game.Game) []int {
	var s []int
	for _, p := range g.Seats {
		s = append(s, p.Score)
	}
	return s
}

// TestErrors changes one thing in a good file and checks that reading it
// fails with an error naming the line and the problem.
func TestErrors(t *testing.T) {
	en := variant.MustLoad("english")
	lex := lexOf(t, en, "tiny-english", englishWords)
	tests := []struct {
		name     string
		old, new string // replace old by new in englishGame
		want     []string
	}{
		{"wrong score", "RETAINS +66 66", "RETAINS +67 67", []string{"line 8", "+67", "scores 66"}},
		{"wrong total", "hAT +2 2", "hAT +2 3", []string{"line 11", "total 3"}},
		{"word not in lexicon", "8D RETAINS +66", "8D RETINAS +66", []string{"line 8", "RETINAS", "not a word"}},
		{"tile not on rack", ">Ana: AEINRST 8D", ">Ana: AEINRSX 8D", []string{"line 8", "T", "not on the rack"}},
		{"off the board", "8D RETAINS", "8J RETAINS", []string{"line 8", "board"}},
		{"bad position", "8D RETAINS", "8Z RETAINS", []string{"line 8", "8Z"}},
		{"unknown letter", "hOLE +3", "hÖLE +3", []string{"line 12", "Ö"}},
		{"unknown player", ">Bo: ADEIOU?", ">Cy: ADEIOU?", []string{"line 9", "unknown player", "Cy"}},
		{"out of turn", ">Bo: ADEIOU? -IOU +0 0", ">Ana: ADEIOU? -IOU +0 66", []string{"line 9", "Bo's turn"}},
		{"phony withdrawn", ">Ana: EEGILOT - +0 66", ">Ana: EEGILOT -- +0 66", []string{"line 10", "withdrawn", "not a placement"}},
		{"challenge bonus", ">Ana: EEGILOT - +0 66", ">Ana: EEGILOT (challenge) +5 71", []string{"line 10", "challenge", "not a placement"}},
		{"exchange of a count", "-IOU +0 0", "-3 +0 0", []string{"line 9", "unknown tiles"}},
		{"exchange not on rack", "-IOU +0 0", "-IOX +0 0", []string{"line 9", "X"}},
		{"bad score", "RETAINS +66 66", "RETAINS +6x6 66", []string{"line 8", "score", "6x6"}},
		{"bad total", "RETAINS +66 66", "RETAINS +66 six", []string{"line 8", "total", "six"}},
		{"too few fields", ">Ana: AEINRST 8D RETAINS +66 66", ">Ana: AEINRST +66", []string{"line 8", "too few fields"}},
		{"no colon", ">Ana: AEINRST", ">Ana AEINRST", []string{"line 8", "nick"}},
		{"neither pragma nor turn", ">Bo: ADEIOU?", "Bo: ADEIOU?", []string{"line 9", "neither a pragma"}},
		{"encoding", "#character-encoding UTF-8", "#character-encoding ISO-8859-1", []string{"line 1", "UTF-8"}},
		{"player gap", "#player2 Bo Bo", "#player3 Bo Bo", []string{"#player2", "missing"}},
		{"player number", "#player2 Bo Bo", "#player7 Bo Bo", []string{"line 3", "#player1 to #player4"}},
		{"player nick missing", "#player2 Bo Bo", "#player2", []string{"line 3", "nickname"}},
		{"duplicate nick", "#player2 Bo Bo", "#player2 Ana Bo", []string{"Ana", "twice"}},
		{"rack too long", ">Ana: AEINRST 8D", ">Ana: AEINRSTT 8D", []string{"line 8", "8 tiles"}},
		{"lowercase on rack", ">Ana: AEINRST 8D", ">Ana: AEINRSt 8D", []string{"line 8", "write a blank as ?"}},
		{"too many tiles", ">Bo: ADEIOU? -IOU", ">Bo: ADEIOZZ -IOU", []string{"line 8", "ADEIOZZ", "line 9"}},
		{"kept tiles missing", ">Ana: EEGILOT 6F", ">Ana: EEGILOS 6F", []string{"line 12", "kept after line 10"}},
		{"end line too early", ">Bo: DEHMOXY - +0 2\n>Ana: EGIRTUV - +0 69\n>Bo: DEHMOXY - +0 2\n>Ana: EGIRTUV - +0 69\n>Bo: DEHMOXY - +0 2\n>Ana: EGIRTUV - +0 69\n",
			">Bo: DEHMOXY - +0 2\n", []string{"line 14", "not over"}},
		{"move after the end", ">Ana: (EGIRTUV) -11 58", ">Bo: DEHMOXY - +0 2\n>Ana: (EGIRTUV) -11 58", []string{"line 19", "after the end"}},
		{"wrong penalty", ">Ana: (EGIRTUV) -11 58", ">Ana: (EGIRTUV) -12 57", []string{"line 19", "worth 11"}},
		{"wrong end rack", ">Ana: (EGIRTUV) -11 58", ">Ana: (EGIRTUU) -11 58", []string{"line 19", "no such end-of-game adjustment", "EGIRTUV"}},
		{"wrong end total", ">Bo: (DEHMOXY) -23 -21", ">Bo: (DEHMOXY) -23 -20", []string{"line 20", "total -20", "-21"}},
		{"end rack and rack differ", ">Ana: (EGIRTUV) -11 58", ">Ana: EGIRTUV (EGIRTU) -11 58", []string{"line 19", "differ"}},
		{"unclosed bracket", "hOLE +3", "h[OLE +3", []string{"line 12", "unclosed"}},
		{"played-through mismatch", "6F hOLE +3", "6F xOLE +3", []string{"line 12", "F6"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(englishGame, tc.old) {
				t.Fatalf("test text %q not in the game", tc.old)
			}
			text := strings.Replace(englishGame, tc.old, tc.new, 1)
			_, err := Read(strings.NewReader(text), en, lex)
			if err == nil {
				t.Fatalf("no error for\n%s", text)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	if _, err := Read(strings.NewReader("#player1 A A\n#player2 B B\n>A: AB\xff 8D AB +1 1\n"), en, lex); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if _, err := Read(strings.NewReader("#player1 A A\n"), en, lex); err == nil || !strings.Contains(err.Error(), "1 players") {
		t.Errorf("one player: %v", err)
	}
}

// TestLenient reads a file with untidy white space, "." for played-through
// letters, players only named in turn lines and unknown pragmas.
func TestLenient(t *testing.T) {
	en := variant.MustLoad("english")
	lex := lexOf(t, en, "tiny-english", englishWords)
	text := "\uFEFF>Ana:   AEINRST\t8D RETAINS   +66 66  \r\n\n#note nice\n  and long\n>Bo:ADEIOU? -IOU 0 0\n>Ana: EEGILOT - +0 66\n>Bo: ADEHMO? F6 hA. +2 2\n>Ana: EEGILOT 6F .OLE +3 69\n"
	g, h, err := ReadHeader(strings.NewReader(text), en, lex)
	if err != nil {
		t.Fatal(err)
	}
	checkScores(t, g, 69, 2)
	if len(h.Extra) != 1 || h.Extra[0] != "note nice\nand long" {
		t.Errorf("extra pragmas %q", h.Extra)
	}
	f, err := Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Replay(en, lex, 0); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.EntryNotes()); got != "map[0:[nice\nand long]]" {
		t.Errorf("the note of the first move: %q", got)
	}
	var buf bytes.Buffer
	if err := WriteHeader(&buf, g, h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#player1 Ana Ana\n", ">Bo: ADEHMO? F6 hAT +2 2\n", ">Ana: EEGILOT 6F hOLE +3 69\n", "#note nice and long\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
}

func FuzzReadGCG(f *testing.F) {
	en := variant.MustLoad("english")
	es := variant.MustLoad("spanish")
	tv, err := variant.Parse([]byte(tinyVariant), "tiny")
	if err != nil {
		f.Fatal(err)
	}
	lexs := []*lexicon.Lexicon{}
	vs := []*variant.Variant{en, tv, es}
	for i, words := range [][]string{englishWords, {"TAB", "BA", "BAT", "AB"}, spanishWords} {
		lex, err := lexicon.FromWords(vs[i].Alphabet, words...)
		if err != nil {
			f.Fatal(err)
		}
		lexs = append(lexs, lex)
	}
	sv, slex := smallChallenge(f) // challenge rules
	vs, lexs = append(vs, sv), append(lexs, slex)
	f.Add(uint8(0), englishGame)
	f.Add(uint8(1), tinyGame)
	f.Add(uint8(2), spanishGame)
	f.Add(uint8(0), ">Ana: AEINRST 8D RETAINS +66 66\n>Bo: ADEIOU? -IOU +0 0\n#rack1 EEGILOT\n")
	f.Add(uint8(0), ">Ana: AEINRST 8D RETAINS +66 66\n>Ana: EEGILOT (time) -10 56\n#timeout Bo\n#rack1 EEGILOT\n")
	f.Add(uint8(0), ">Ana: AEINRST 8D RETINAS +66 66\n>Ana: AEINRST -- -66 0\n>Bo: ADEIOU? -IOU +0 0\n#rack1 AEINRST\n")
	f.Add(uint8(3), challengedGame)
	f.Add(uint8(3), strings.Replace(challengedGame, ">bob: (AAT) +3 30\n", ">bob: (challenge) +5 32\n>bob: (AAT) +3 35\n", 1))
	f.Add(uint8(3), "#player1 ann ann\n#player2 bob bob\n#challenge double\n>ann: ATX 4C AX +9 9\n>ann: ATT (challenge) +0 9\n")
	f.Add(uint8(0), "#note before\n>Ana: AEINRST 8D RETAINS +66 66\n#note first\n and more\n>Bo: ADEIOU? -IOU +0 0\n#note second\n#rack1 EEGILOT\n")
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		i := int(which) % len(vs)
		g, h, err := ReadHeader(strings.NewReader(text), vs[i], lexs[i])
		if err != nil {
			return
		}
		// Every note read goes on an entry of the game.
		if pf, err := Parse(strings.NewReader(text)); err != nil {
			t.Fatalf("parsed once, not twice: %v", err)
		} else if _, err := pf.Replay(vs[i], lexs[i], 0); err != nil {
			t.Fatalf("replayed once, not twice: %v", err)
		} else {
			for e := range pf.EntryNotes() {
				if e < 0 || e >= len(g.History) {
					t.Fatalf("a note on entry %d of %d", e, len(g.History))
				}
			}
		}
		var first bytes.Buffer
		if err := WriteHeader(&first, g, h); err != nil {
			t.Fatal(err)
		}
		g2, h2, err := ReadHeader(bytes.NewReader(first.Bytes()), vs[i], lexs[i])
		if err != nil {
			t.Fatalf("%q → %q does not read back: %v", text, first.String(), err)
		}
		var second bytes.Buffer
		if err := WriteHeader(&second, g2, h2); err != nil {
			t.Fatal(err)
		}
		if first.String() != second.String() {
			t.Fatalf("%q:\n--- first\n%s--- second\n%s", text, first.String(), second.String())
		}
	})
}

// TestResignedAndAborted writes games ended by a resignation or called
// off, reads them back and writes them again: the end is kept, with the
// racks of the resigned game.
func TestResignedAndAborted(t *testing.T) {
	v, lex := testgame.Sample(t, "english")
	cases := []struct {
		name  string
		moves int
		end   func(g *game.Game) error
		want  string
	}{
		{"resigned", 6, func(g *game.Game) error { return g.Resign(1) }, "#resigned Bo\n"},
		{"resigned before moving", 0, func(g *game.Game) error { return g.Resign(0) }, "#resigned Ana\n"},
		{"aborted", 0, func(g *game.Game) error { return g.Abort() }, "#aborted\n"},
		{"lost on time", 6, func(g *game.Game) error {
			if err := g.TimeOut(0); err != nil {
				return err
			}
			return g.PenalizeTime(0, 20)
		}, "#timeout Ana\n"},
		{"time penalty at the end", 1000, func(g *game.Game) error {
			if !g.Over() {
				return fmt.Errorf("the game did not end")
			}
			if err := g.PenalizeTime(1, 10); err != nil {
				return err
			}
			return g.PenalizeTime(0, 30)
		}, " (time) -30 "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testgame.PlayGame(t, v, lex, []string{"Ana", "Bo"}, 9, c.moves, nil)
			if err := c.end(g); err != nil {
				t.Fatal(err)
			}
			var first bytes.Buffer
			if err := Write(&first, g); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(first.String(), c.want) {
				t.Fatalf("no %q in\n%s", c.want, first.String())
			}
			g2, h, err := ReadHeader(bytes.NewReader(first.Bytes()), v, lex)
			if err != nil {
				t.Fatalf("%v\n%s", err, first.String())
			}
			if !g2.Over() || g2.Resigned() != g.Resigned() || g2.Aborted() != g.Aborted() || g2.TimedOut() != g.TimedOut() {
				t.Errorf("read back: over %v resigned %d timed out %d aborted %v; written: resigned %d timed out %d aborted %v",
					g2.Over(), g2.Resigned(), g2.TimedOut(), g2.Aborted(), g.Resigned(), g.TimedOut(), g.Aborted())
			}
			if fmt.Sprint(scores(g2)) != fmt.Sprint(scores(g)) {
				t.Errorf("scores %v, want %v", scores(g2), scores(g))
			}
			if fmt.Sprint(g2.Winners()) != fmt.Sprint(g.Winners()) {
				t.Errorf("winners %v, want %v", g2.Winners(), g.Winners())
			}
			for i := range g.Seats {
				if (g.Resigned() >= 0 || g.TimedOut() >= 0) && g2.Seats[i].Rack != g.Seats[i].Rack {
					t.Errorf("player %d: rack not kept", i+1)
				}
			}
			var second bytes.Buffer
			if err := WriteHeader(&second, g2, h); err != nil {
				t.Fatal(err)
			}
			if first.String() != second.String() {
				t.Errorf("export→import→export differs:\n--- first\n%s--- second\n%s", first.String(), second.String())
			}
		})
	}
	for _, bad := range []string{"#resigned\n", "#resigned Cy\n", "#resigned Ana\n#aborted\n",
		"#timeout\n", "#timeout Cy\n", "#timeout Ana\n#resigned Bo\n",
		// A time penalty before the end, one that adds points, and one
		// whose total is wrong.
		">Ana: (time) -10 -10\n", "#resigned Bo\n>Ana: (time) +10 10\n", "#resigned Bo\n>Ana: (time) -10 0\n",
		"#resigned Bo\n>Ana: (time) -0 0\n",
	} {
		text := "#player1 Ana Ana\n#player2 Bo Bo\n" + bad
		if _, err := Read(strings.NewReader(text), v, lex); err == nil {
			t.Errorf("%q read without error", bad)
		}
	}
}

// TestPragmaSpaces: a pragma's name ends at any white space, multi-byte
// ones too, and what follows is its value.
func TestPragmaSpaces(t *testing.T) {
	v, lex := testgame.Sample(t, "english")
	for _, sp := range []string{" ", "\t", "\r ", "\u00a0", "\u3000", "\u0085"} {
		text := "#player1 Ana Ana\n#player2 Bo Bo\n#description" + sp + "hello\n"
		_, h, err := ReadHeader(strings.NewReader(text), v, lex)
		if err != nil {
			t.Errorf("%q: %v", sp, err)
			continue
		}
		if h.Description != "hello" {
			t.Errorf("%q: description %q, want %q", sp, h.Description, "hello")
		}
	}
}

// TestReadOtherWriters reads what other programs write: the North
// American end of the game (twice the rack left to the player who went
// out, nothing taken off), a challenge of a play that went out which
// stood, written as the challenger's pass, and, with PartialRacks, a
// record kept by one player, whose opponent's racks show only the tiles
// played.
func TestReadOtherWriters(t *testing.T) {
	tv, err := variant.Parse([]byte(tinyVariant), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	lex := lexOf(t, tv, "tiny", []string{"TAB", "BA", "BAT", "AB"})
	twice := strings.Replace(strings.Replace(tinyGame, ">Ana: (AA) +2 12\n>Bo: (AA) -2 2\n", ">Ana: (AA) +4 14\n", 1), "#lexicon tiny\n", "#lexicon tiny\n#challenge double\n", 1)
	passOut := strings.Replace(twice, ">Ana: (AA) +4 14\n", ">Bo: AA - +0 4\n>Ana: (AA) +4 14\n", 1)
	for _, tc := range []struct {
		name, text string
		scores     []int
	}{{"twice", twice, []int{14, 4}}, {"challenged out play", passOut, []int{14, 4}}} {
		f, err := Parse(strings.NewReader(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		g, err := f.Replay(tv, lex, 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !g.Over() || g.EndRule() != game.OutTwice {
			t.Errorf("%s: over %v, end rule %v", tc.name, g.Over(), g.EndRule())
		}
		checkScores(t, g, tc.scores...)
		var buf bytes.Buffer
		if err := Write(&buf, g); err != nil || !strings.Contains(buf.String(), ">Ana: (AA) +4 14\n") || strings.Contains(buf.String(), "-2") {
			t.Errorf("%s: written back as\n%s", tc.name, buf.String())
		}
	}
	// Bo's second rack shows only the tiles Bo played (?A), not the ADE?
	// Bo kept from the exchange.
	en := variant.MustLoad("english")
	partial := "#player1 Ana Ana\n#player2 Bo Bo\n>Ana: AEINRST 8D RETAINS +66 66\n>Bo: ADEIOU? -IOU +0 0\n>Ana: EEGILOT - +0 66\n>Bo: ?A F6 hA. +2 2\n>Ana: EEGILOT 6F .OLE +3 69\n"
	f, err := Parse(strings.NewReader(partial))
	if err != nil {
		t.Fatal(err)
	}
	enLex := lexOf(t, en, "tiny-english", englishWords)
	if _, err := f.Replay(en, enLex, 1); err == nil || !strings.Contains(err.Error(), "kept") {
		t.Errorf("strict replay of a partial record: %v", err)
	}
	f.PartialRacks = true
	g, err := f.Replay(en, enLex, 1)
	if err != nil {
		t.Fatalf("partial racks: %v", err)
	}
	checkScores(t, g, 69, 2)
}

// TestWriteNotes checks that the notes of history entries follow their
// entries' lines, on one line each, and that the file still replays to
// the same game.
func TestWriteNotes(t *testing.T) {
	v, lex := testgame.Sample(t, "english")
	g := testgame.PlayGame(t, v, lex, []string{"Ana", "Bo"}, 7, 200, nil)
	last := len(g.History) - 1
	h := &Header{Notes: map[int][]string{0: {"a slow start"}, 2: {"should have\nexchanged", "agreed"}, last: {"the end"}}}
	var buf bytes.Buffer
	if err := WriteHeader(&buf, g, h); err != nil {
		t.Fatal(err)
	}
	var turns, notes []int // the index of each turn line; the turn each note follows
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		switch {
		case strings.HasPrefix(line, ">"):
			turns = append(turns, len(turns))
		case strings.HasPrefix(line, "#note "):
			notes = append(notes, len(turns)-1)
		}
	}
	if want := []int{0, 2, 2, last}; fmt.Sprint(notes) != fmt.Sprint(want) {
		t.Errorf("notes follow turn lines %v, want %v:\n%s", notes, want, buf.String())
	}
	if !strings.Contains(buf.String(), "#note should have exchanged\n#note agreed\n") {
		t.Errorf("a note of two lines is not on one:\n%s", buf.String())
	}
	f, err := Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	g2, err := f.Replay(v, lex, 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	// Read back, each note is on the entry it was written after.
	if got, want := fmt.Sprint(f.EntryNotes()), fmt.Sprint(map[int][]string{0: {"a slow start"}, 2: {"should have exchanged", "agreed"}, last: {"the end"}}); got != want {
		t.Errorf("the notes read back: %s, want %s", got, want)
	}
	if len(g2.History) != len(g.History) || g2.Seats[0].Score != g.Seats[0].Score || g2.Seats[1].Score != g.Seats[1].Score {
		t.Errorf("replayed with notes: %d entries, scores %d %d; want %d, %d %d", len(g2.History), g2.Seats[0].Score, g2.Seats[1].Score,
			len(g.History), g.Seats[0].Score, g.Seats[1].Score)
	}
}

// TestNicknameSpaces: a turn line's nickname holds no white space of any
// kind, as a #player pragma's cannot (its nickname ends at the first),
// so a file whose players are named only by its turn lines writes
// #player pragmas that read back to the same players.
func TestNicknameSpaces(t *testing.T) {
	v, lex := testgame.Sample(t, "english")
	for _, sp := range []string{" ", "\t", "\v", "\f", "\u00a0", "\u3000", "\u0085"} {
		text := ">Ana: - +0 0\n>B" + sp + "o: - +0 0\n"
		_, err := Read(strings.NewReader(text), v, lex)
		if err == nil || !strings.Contains(err.Error(), "nick") {
			t.Errorf("nickname %q: error %v, want one about the nickname", "B"+sp+"o", err)
		}
	}
}
