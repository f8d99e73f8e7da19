package gcg

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/internal/testgame"
	"atril/internal/testvariant"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// smallChallenge is the 7×7 variant of the challenge tests (no premiums,
// racks of three, A and T worth 1, X 8) and its word list, in which TX,
// ATA and TXA are phonies.
func smallChallenge(t testing.TB) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	v := testvariant.Small(t, 7, 3, 0, "A:6:1", "T:6:1", "X:2:8")
	return v, testvariant.Lexicon(t, v, "AT", "TA", "TAT", "AX", "XA", "TAX", "ATT", "TAA")
}

// challengedGame is a game of the small variant under the 5-point rule,
// worked out by hand: ann's phony TX (1+8) is withdrawn; bob's TA (2) is
// challenged and gains 5; bob's phony ATA (3) stands; bob goes out with
// TAX (10, and AT and TA down: 2+2) and ann accepts it, so bob gains
// ann's AAT (3) and ann loses it.
const challengedGame = `#character-encoding UTF-8
#player1 ann ann
#player2 bob bob
#challenge 5pt
>ann: ATX 4C TX +9 9
>ann: ATX -- -9 0
>bob: AAT 4C TA +2 2
>bob: AAT (challenge) +5 7
>ann: ATX D3 XA +9 9
>bob: AAT 4B ATA +3 10
>ann: AAT - +0 9
>bob: ATT B4 ATT +3 13
>ann: AAT 6B TAT +3 12
>bob: ATX 7C TAX +14 27
>bob: (AAT) +3 30
>ann: (AAT) -3 9
`

// playMove parses and plays a move for the player on turn.
func playMove(t *testing.T, g *game.Game, s string) {
	t.Helper()
	m, err := move.Parse(g.Board, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(*m); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
}

// setRack gives player i the rack s, as if they had drawn its tiles.
func setRack(t *testing.T, g *game.Game, i int, s string) {
	t.Helper()
	r, err := g.Variant.Alphabet.ParseRack(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetRack(i, r); err != nil {
		t.Fatalf("rack %s for player %d: %v", s, i, err)
	}
}

// challengeOrAccept answers the last placement as player i: it
// challenges it (and checks that the challenge finds it phony or not) or
// accepts it.
func challengeOrAccept(t *testing.T, g *game.Game, i int, challenge, phony bool) {
	t.Helper()
	if !challenge {
		if err := g.Accept(i); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := g.Challenge(i)
	if err != nil {
		t.Fatal(err)
	}
	if got != phony {
		t.Fatalf("challenge says phony %v, want %v", got, phony)
	}
}

// readBack writes g, reads it back, checks that the replayed game is the
// same as g and that writing it again gives the same text, and returns
// the text.
func readBack(t *testing.T, g *game.Game, lex *lexicon.Lexicon) string {
	t.Helper()
	var first bytes.Buffer
	if err := Write(&first, g); err != nil {
		t.Fatal(err)
	}
	g2, h, err := ReadHeader(bytes.NewReader(first.Bytes()), g.Variant, lex)
	if err != nil {
		t.Fatalf("%v\n%s", err, first.String())
	}
	sameGame(t, g2, g)
	var second bytes.Buffer
	if err := WriteHeader(&second, g2, h); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("export→import→export differs:\n--- first\n%s--- second\n%s", first.String(), second.String())
	}
	return first.String()
}

// sameGame checks that a replayed game is the game that was written:
// rule, scores, racks, board, turn, end and every history entry. A turn
// lost to a challenge is written and replayed as a pass, which counts
// the same toward the end of the game but is one more move played.
func sameGame(t *testing.T, got, want *game.Game) {
	t.Helper()
	if got.ChallengeRule() != want.ChallengeRule() {
		t.Errorf("rule %v, want %v", got.ChallengeRule(), want.ChallengeRule())
	}
	if len(got.History) != len(want.History) {
		t.Fatalf("%d history entries, want %d", len(got.History), len(want.History))
	}
	lost := 0
	for k := range want.History {
		g, w := &got.History[k], &want.History[k]
		kind, notation := w.Kind, w.Notation
		if kind == game.LostTurn {
			kind, notation = game.Played, "-"
			lost++
		}
		if g.Kind != kind || g.Player != w.Player || g.Points != w.Points || g.Total != w.Total ||
			g.Rack != w.Rack || g.Notation != notation || !slices.Equal(g.Phonies, w.Phonies) {
			t.Errorf("history %d: kind %d player %d %s %+d %d rack %v phonies %q; want kind %d player %d %s %+d %d rack %v phonies %q",
				k, g.Kind, g.Player, g.Notation, g.Points, g.Total, g.Rack, g.Phonies,
				w.Kind, w.Player, w.Notation, w.Points, w.Total, w.Rack, w.Phonies)
		}
	}
	for i := range want.Seats {
		if got.Seats[i].Score != want.Seats[i].Score || got.Seats[i].Rack != want.Seats[i].Rack {
			t.Errorf("player %d: %d with %v, want %d with %v", i+1, got.Seats[i].Score, got.Seats[i].Rack,
				want.Seats[i].Score, want.Seats[i].Rack)
		}
	}
	if got.Over() != want.Over() || got.AwaitingChallenge() != want.AwaitingChallenge() ||
		(!want.Over() && got.Current() != want.Current()) {
		t.Errorf("over %v, awaiting a challenge %v, player %d on turn; want %v, %v, %d",
			got.Over(), got.AwaitingChallenge(), got.Current(), want.Over(), want.AwaitingChallenge(), want.Current())
	}
	if got.BagLen() != want.BagLen() || got.ScorelessTurns() != want.ScorelessTurns() ||
		got.MovesPlayed() != want.MovesPlayed()+lost {
		t.Errorf("bag %d, %d scoreless turns, %d moves; want %d, %d, %d+%d lost turns",
			got.BagLen(), got.ScorelessTurns(), got.MovesPlayed(), want.BagLen(), want.ScorelessTurns(), want.MovesPlayed(), lost)
	}
	if fmt.Sprint(got.Winners()) != fmt.Sprint(want.Winners()) {
		t.Errorf("winners %v, want %v", got.Winners(), want.Winners())
	}
	for r := 0; r < want.Variant.Size; r++ {
		for c := 0; c < want.Variant.Size; c++ {
			if got.Board.At(r, c) != want.Board.At(r, c) {
				t.Fatalf("square %s differs after replay", variant.SquareName(r, c))
			}
		}
	}
}

// TestChallengeRoundTrip plays, under each challenge rule, a game with a
// phony withdrawn, a valid play challenged, a phony that stands and a
// play that goes out, answered in four ways; it writes the game, reads
// it back and compares.
func TestChallengeRoundTrip(t *testing.T) {
	v, lex := smallChallenge(t)
	endings := []struct {
		name string
		out  string // bob's play going out
		// ann's answer, and whether the play is a phony
		challenge, phony bool
	}{
		{"valid out accepted", "7C TAX", false, false},
		{"valid out challenged", "7C TAX", true, false},
		{"phony out accepted", "7C TXA", false, true},
		{"phony out challenged", "7C TXA", true, true},
	}
	for _, rule := range []game.ChallengeRule{game.Single, game.Double, game.FivePoint, game.TenPoint} {
		for _, end := range endings {
			t.Run(rule.String()+"/"+end.name, func(t *testing.T) {
				g, err := game.New(v, lex, []string{"ann", "bob"}, 1)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.SetChallengeRule(rule); err != nil {
					t.Fatal(err)
				}
				setRack(t, g, 0, "ATX")
				setRack(t, g, 1, "AAT")
				playMove(t, g, "4C TX") // phony: 9
				challengeOrAccept(t, g, 1, true, true)
				playMove(t, g, "4C TA") // valid: 2
				setRack(t, g, 1, "AAT")
				challengeOrAccept(t, g, 0, true, false)
				if rule != game.Double {
					playMove(t, g, "-") // ann did not lose the turn
				}
				playMove(t, g, "4B ATA") // phony, stands: 3
				playMove(t, g, "D3 XA")  // 9
				setRack(t, g, 0, "AAT")
				setRack(t, g, 1, "ATT")
				playMove(t, g, "B4 ATT") // 3
				setRack(t, g, 1, "ATX")
				playMove(t, g, "6B TAT") // 3; the bag is empty
				if g.BagLen() != 0 {
					t.Fatalf("the bag holds %d tiles", g.BagLen())
				}
				playMove(t, g, end.out)
				if !g.AwaitingChallenge() {
					t.Fatal("the game does not wait for an answer to the play going out")
				}
				challengeOrAccept(t, g, 0, end.challenge, end.phony)
				if end.challenge && end.phony {
					// Taken back: ann goes out and bob challenges.
					playMove(t, g, "7C TAA")
					challengeOrAccept(t, g, 1, true, false)
				}
				if !g.Over() {
					t.Fatal("the game is not over")
				}
				text := readBack(t, g, lex)
				var want []string
				if bonus := map[game.ChallengeRule]int{game.FivePoint: 5, game.TenPoint: 10}[rule]; bonus > 0 {
					want = append(want, fmt.Sprintf(" (challenge) +%d %d\n", bonus, 2+bonus))
				}
				if end.challenge && end.phony {
					want = append(want, "\n>bob: ATX -- -21 ")
				}
				for _, w := range append(want, "#challenge "+rule.String()+"\n", "\n>ann: ATX -- -9 0\n", " 4B ATA +3 ", " "+end.out+" ") {
					if !strings.Contains(text, w) {
						t.Errorf("no %q in\n%s", w, text)
					}
				}
			})
		}
	}
}

// TestChallengeHandWritten reads games worked out by hand and writes
// them back the same.
func TestChallengeHandWritten(t *testing.T) {
	v, lex := smallChallenge(t)
	g := roundTrip(t, challengedGame, v, lex)
	checkScores(t, g, 9, 30)
	if !g.Over() || g.ChallengeRule() != game.FivePoint {
		t.Errorf("over %v, rule %v", g.Over(), g.ChallengeRule())
	}
	kinds := []game.TurnKind{game.Played, game.Withdrawn, game.Played, game.ChallengeBonus}
	for k, kind := range kinds {
		if g.History[k].Kind != kind {
			t.Errorf("history %d: kind %d, want %d", k, g.History[k].Kind, kind)
		}
	}
	if ph := g.History[5].Phonies; !slices.Equal(ph, []string{"ATA"}) {
		t.Errorf("the phony that stood has phonies %q", ph)
	}
	// A bonus going out, with no rack.
	out := strings.Replace(challengedGame, ">bob: (AAT) +3 30\n>ann: (AAT) -3 9\n",
		">bob: (challenge) +5 32\n>bob: (AAT) +3 35\n>ann: (AAT) -3 9\n", 1)
	g = roundTrip(t, out, v, lex)
	checkScores(t, g, 9, 35)
}

// TestChallengeRuleInferred reads files without the #challenge pragma:
// their lines imply the rule, and the game is written back with it. It
// also reads a turn lost under the double rule, written back as a pass.
func TestChallengeRuleInferred(t *testing.T) {
	v, lex := smallChallenge(t)
	const start = "#player1 ann ann\n#player2 bob bob\n>ann: ATX 4C TX +9 9\n"
	const withdrawn = start + ">ann: ATX -- -9 0\n>bob: AAT 4C TA +2 2\n"
	for _, tc := range []struct {
		text string
		rule game.ChallengeRule
	}{
		{withdrawn, game.Single},
		{withdrawn + ">bob: AAT (challenge) +0 2\n", game.Single},
		{withdrawn + ">bob: AAT (challenge) +5 7\n", game.FivePoint},
		{withdrawn + ">bob: AAT (challenge) +10 12\n", game.TenPoint},
		{"#challenge double\n" + withdrawn + ">bob: AAT (challenge) +0 2\n#rack1 ATX\n", game.Double},
	} {
		g, h, err := ReadHeader(strings.NewReader(tc.text), v, lex)
		if err != nil {
			t.Errorf("%v: %v", tc.rule, err)
			continue
		}
		if g.ChallengeRule() != tc.rule {
			t.Errorf("%q: rule %v, want %v", tc.text, g.ChallengeRule(), tc.rule)
		}
		var buf bytes.Buffer
		if err := WriteHeader(&buf, g, h); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "\n#challenge "+tc.rule.String()+"\n") {
			t.Errorf("written without #challenge %v:\n%s", tc.rule, buf.String())
		}
		if tc.rule == game.Double {
			// The turn lost to the challenge, written as a pass.
			if k := g.History[len(g.History)-1]; k.Kind != game.LostTurn || k.Player != 0 {
				t.Errorf("last entry: kind %d of player %d, want a turn lost by ann", k.Kind, k.Player)
			}
			if !strings.HasSuffix(buf.String(), "\n>ann: ATX - +0 0\n#rack1 ATX\n#rack2 AAT\n") {
				t.Errorf("the lost turn is not written as a pass:\n%s", buf.String())
			}
			// A challenger whose rack the file does not give (bob never
			// moves) loses the turn with none: a pass with no rack.
			text := "#player1 ann ann\n#player2 bob bob\n#challenge double\n>ann: ATX 4C AX +9 9\n>ann: ATT (challenge) +0 9\n"
			g, h, err := ReadHeader(strings.NewReader(text), v, lex)
			if err != nil {
				t.Fatal(err)
			}
			buf.Reset()
			if err := WriteHeader(&buf, g, h); err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(buf.String(), "\n>bob: - +0 0\n#rack1 ATT\n") {
				t.Errorf("the lost turn with no rack is not written as a pass with none:\n%s", buf.String())
			}
			roundTrip(t, buf.String(), v, lex)
		}
	}
	// With no challenge line, the void rule refuses a phony, as before.
	_, err := Read(strings.NewReader(start), v, lex)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "TX") {
		t.Errorf("phony under the void rule: %v", err)
	}
}

// TestChallengeErrors changes one thing in challengedGame and checks
// that reading it fails with an error naming the line and the problem.
func TestChallengeErrors(t *testing.T) {
	v, lex := smallChallenge(t)
	const end = ">bob: (AAT) +3 30\n>ann: (AAT) -3 9\n"
	tests := []struct {
		name     string
		old, new string // replace old by new in challengedGame
		want     []string
	}{
		{"withdrawn score", "-- -9 0", "-- -8 1", []string{"line 6", "recorded -8", "scored 9"}},
		{"withdrawn total", "-- -9 0", "-- -9 1", []string{"line 6", "total 1"}},
		{"withdrawn rack", ">ann: ATX -- -9 0", ">ann: AAT -- -9 0", []string{"line 6", "rack AAT", "line 5", "ATX"}},
		{"withdrawn by another", ">ann: ATX -- -9 0", ">bob: ATX -- -9 0", []string{"line 6", "ann's", "line 5", "not bob's"}},
		{"withdrawn score added", "-- -9 0", "-- +9 18", []string{"line 6", "takes its score off"}},
		{"withdrawn valid play", ">bob: AAT (challenge) +5 7", ">bob: AAT -- -2 0", []string{"line 8", "line 7", "only words of the list"}},
		{"withdrawn after a pass", ">ann: AAT - +0 9\n", ">ann: AAT - +0 9\n>ann: AAT -- -0 9\n", []string{"line 12", "not a placement"}},
		{"bonus for a phony", ">ann: ATX -- -9 0", ">ann: ATX (challenge) +5 14", []string{"line 6", "line 5", "TX", "taken back"}},
		{"wrong bonus", "(challenge) +5 7", "(challenge) +10 12", []string{"line 8", "+10", "5pt rule", "gains 5"}},
		{"bonus total", "(challenge) +5 7", "(challenge) +5 8", []string{"line 8", "total 8"}},
		{"bonus taken off", "(challenge) +5 7", "(challenge) -5 -3", []string{"line 8", "adds points"}},
		{"bonus rack", ">bob: AAT (challenge)", ">bob: TTT (challenge)", []string{"line 8", "rack TTT", "bob holds"}},
		{"bonus rack not kept", ">bob: AAT (challenge)", ">bob: ATT (challenge)", []string{"line 10", "kept after line 8"}},
		{"unknown rule", "#challenge 5pt", "#challenge triple", []string{"line 4", "triple"}},
		{"no rule", "#challenge 5pt", "#challenge", []string{"line 4", "needs a rule"}},
		{"void rule", "#challenge 5pt", "#challenge void", []string{"line 5", "TX is not a word"}},
		{"move while awaiting", end, ">ann: AAT - +0 12\n", []string{"line 15", "accept"}},
		{"bonus after the end", end, ">bob: (AAT) +3 30\n>bob: (challenge) +5 35\n>ann: (AAT) -3 9\n", []string{"line 16", "after the end"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(challengedGame, tc.old) {
				t.Fatalf("test text %q not in the game", tc.old)
			}
			text := strings.Replace(challengedGame, tc.old, tc.new, 1)
			_, err := Read(strings.NewReader(text), v, lex)
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
	// Under the void rule there is nothing to challenge.
	text := "#player1 ann ann\n#player2 bob bob\n#challenge void\n>ann: ATX 4C AX +9 9\n>ann: TTX -- -9 0\n"
	if _, err := Read(strings.NewReader(text), v, lex); err == nil || !strings.Contains(err.Error(), "line 5") || !strings.Contains(err.Error(), "void rule") {
		t.Errorf("a challenge under the void rule: %v", err)
	}
}

// TestChallengeRandomGames plays English games under each challenge rule
// between greedy players who now and then change a letter of their best
// play for another of their rack (often making a phony) and who
// challenge, let stand or accept the plays at random; each game must
// read back as it was played.
func TestChallengeRandomGames(t *testing.T) {
	v, lex := testgame.Sample(t, "english")
	gen := movegen.NewBrute(lex)
	for k, rule := range []game.ChallengeRule{game.Single, game.Double, game.FivePoint, game.TenPoint} {
		seed := uint64(k + 1)
		t.Run(fmt.Sprintf("%v/seed%d", rule, seed), func(t *testing.T) {
			g, err := game.New(v, lex, []string{"Ana", "Bo"}, seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.SetChallengeRule(rule); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 11))
			for i := 0; i < 400 && !g.Over(); i++ {
				if _, ok := g.Challengeable(); ok && rng.IntN(2) == 0 {
					if _, err := g.Challenge(g.Current()); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if g.AwaitingChallenge() {
					if err := g.Accept(g.Current()); err != nil {
						t.Fatal(err)
					}
					continue
				}
				rack := g.Seats[g.Current()].Rack
				m, ok := movegen.Best(gen, g.Board, &rack)
				switch {
				case !ok && g.BagLen() >= v.ExchangeMinBag:
					m = move.Move{Kind: move.Exchange, Exchanged: rack.Tiles()}
				case !ok:
					m = move.Move{Kind: move.Pass}
				case rng.IntN(3) == 0:
					swapLetter(&m, rack, rng)
				}
				if err := g.Play(m); err != nil {
					t.Fatalf("move %d: %v", i, err)
				}
			}
			counts := map[game.TurnKind]int{}
			phonies := 0
			for _, tu := range g.History {
				counts[tu.Kind]++
				if tu.Kind == game.Played && len(tu.Phonies) > 0 {
					phonies++
				}
			}
			t.Logf("%d phonies played, %d withdrawn, %d bonuses, %d lost turns; over %v, scores %v",
				phonies, counts[game.Withdrawn], counts[game.ChallengeBonus], counts[game.LostTurn], g.Over(), scores(g))
			if counts[game.Withdrawn] == 0 || phonies == counts[game.Withdrawn] {
				t.Errorf("no phony withdrawn, or none that stood")
			}
			readBack(t, g, lex)
		})
	}
}

// swapLetter changes one tile that m places for another letter of the
// rack that m leaves, which often makes a phony.
func swapLetter(m *move.Move, rack alphabet.Rack, rng *rand.Rand) {
	if m.Kind != move.Place {
		return
	}
	var at []int
	for i, tl := range m.Tiles {
		if tl != move.PlayThrough && !tl.IsBlanked() {
			at = append(at, i)
		}
	}
	left := m.Kept(rack)
	var others []alphabet.Tile
	for _, tl := range left.Tiles() {
		if tl != alphabet.Blank {
			others = append(others, tl)
		}
	}
	if len(at) == 0 || len(others) == 0 {
		return
	}
	m.Tiles = slices.Clone(m.Tiles)
	m.Tiles[at[rng.IntN(len(at))]] = others[rng.IntN(len(others))]
}
