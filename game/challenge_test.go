package game_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/internal/testvariant"
	"atril/lexicon"
	"atril/move"
	"atril/variant"
)

// challengeGame starts a two-player game on a 7×7 board under rule, with
// the racks set as given.
func challengeGame(t *testing.T, v *variant.Variant, lex *lexicon.Lexicon, rule game.ChallengeRule, racks ...string) *game.Game {
	t.Helper()
	g, err := game.New(v, lex, []string{"ann", "bob"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetChallengeRule(rule); err != nil {
		t.Fatal(err)
	}
	for i, s := range racks {
		r, err := v.Alphabet.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.SetRack(i, r); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// play parses and plays a move for the player on turn.
func play(t *testing.T, g *game.Game, s string) {
	t.Helper()
	m, err := move.Parse(g.Board, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(*m); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
}

// sortedBag is the bag's tiles in order.
func sortedBag(g *game.Game) []alphabet.Tile {
	b := g.Bag()
	slices.Sort(b)
	return b
}

func TestChallengeRules(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 0, "A:6:1", "T:6:1", "X:2:8")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "TAT", "AX", "XA")
	tests := []struct {
		rule  game.ChallengeRule
		play  string
		phony bool
		// after the challenge: who is on turn, ann's score, the kinds
		// added to the history by the challenge
		turn  int
		score int
		kinds []game.TurnKind
	}{
		{game.Single, "4C TX", true, 1, 0, []game.TurnKind{game.Withdrawn}},
		{game.Double, "4C TX", true, 1, 0, []game.TurnKind{game.Withdrawn}},
		{game.FivePoint, "4C TX", true, 1, 0, []game.TurnKind{game.Withdrawn}},
		{game.TenPoint, "4C TX", true, 1, 0, []game.TurnKind{game.Withdrawn}},
		{game.Single, "4C AX", false, 1, 9, nil},
		{game.Double, "4C AX", false, 0, 9, []game.TurnKind{game.LostTurn}},
		{game.FivePoint, "4C AX", false, 1, 14, []game.TurnKind{game.ChallengeBonus}},
		{game.TenPoint, "4C AX", false, 1, 19, []game.TurnKind{game.ChallengeBonus}},
	}
	for _, tc := range tests {
		t.Run(tc.rule.String()+" "+tc.play, func(t *testing.T) {
			g := challengeGame(t, v, lex, tc.rule, "ATX", "AAT")
			rack, bag := g.Seats[0].Rack, sortedBag(g)
			play(t, g, tc.play)
			if k, ok := g.Challengeable(); !ok || k != 0 {
				t.Fatalf("Challengeable() = %d, %v after the first play", k, ok)
			}
			if got := g.History[0].Phonies; (len(got) > 0) != tc.phony {
				t.Fatalf("phonies %q", got)
			}
			if _, err := g.Challenge(0); err == nil {
				t.Error("the player who made the play challenged it")
			}
			n := len(g.History)
			phony, err := g.Challenge(1)
			if err != nil {
				t.Fatal(err)
			}
			if phony != tc.phony {
				t.Fatalf("challenge says phony %v", phony)
			}
			var kinds []game.TurnKind
			for _, tu := range g.History[n:] {
				kinds = append(kinds, tu.Kind)
			}
			if !slices.Equal(kinds, tc.kinds) || g.Current() != tc.turn || g.Seats[0].Score != tc.score {
				t.Errorf("after the challenge: kinds %v, player %d on turn, ann %d; want %v, %d, %d",
					kinds, g.Current(), g.Seats[0].Score, tc.kinds, tc.turn, tc.score)
			}
			if _, err := g.Challenge(g.Current()); err == nil {
				t.Error("a play was challenged twice")
			}
			if tc.phony {
				if g.Board.Tiles() != 0 || g.Seats[0].Rack != rack || !slices.Equal(sortedBag(g), bag) {
					t.Errorf("phony not taken back: %d tiles on the board, rack %v, bag %v (want %v, %v)",
						g.Board.Tiles(), g.Seats[0].Rack, sortedBag(g), rack, bag)
				}
				if g.ScorelessTurns() != 1 {
					t.Errorf("%d scoreless turns after a withdrawn play, want 1", g.ScorelessTurns())
				}
				// The board is open again: bob can play the first move.
				play(t, g, "4C TA")
			} else if g.Board.Tiles() != 2 {
				t.Errorf("%d tiles on the board after a valid play stood", g.Board.Tiles())
			}
			sum := []int{0, 0}
			for _, tu := range g.History {
				sum[tu.Player] += tu.Points
			}
			if sum[0] != g.Seats[0].Score || sum[1] != g.Seats[1].Score {
				t.Errorf("history sums %v, scores %d %d", sum, g.Seats[0].Score, g.Seats[1].Score)
			}
		})
	}
}

func TestChallengeRefusals(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 0, "A:6:1", "T:6:1", "X:2:8")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "TAT", "AX", "XA")
	g := challengeGame(t, v, lex, game.Void, "ATX", "AAT")
	m, _ := move.Parse(g.Board, "4C TX")
	if err := g.Play(*m); err == nil || !strings.Contains(err.Error(), "TX is not a word") {
		t.Errorf("void rule: phony TX gave %v", err)
	}
	play(t, g, "4C AX")
	if _, err := g.Challenge(1); err == nil || !strings.Contains(err.Error(), "void") {
		t.Errorf("challenge under the void rule: %v", err)
	}
	if err := g.SetChallengeRule(game.Double); err == nil {
		t.Error("rule changed after the first move")
	}
	g = challengeGame(t, v, lex, game.Double, "ATX", "AAT")
	play(t, g, "-")
	if _, err := g.Challenge(1); err == nil || !strings.Contains(err.Error(), "nothing to challenge") {
		t.Errorf("challenge of a pass: %v", err)
	}
	play(t, g, "4C AA")
	play(t, g, "-") // bob lets it stand by moving
	if _, err := g.Challenge(0); err == nil {
		t.Error("a play was challenged after the next move")
	}
	if err := g.Accept(0); err == nil {
		t.Error("accept with nothing to accept")
	}
	for _, s := range []string{"", "void", "single", "double", "5pt", "10pt"} {
		r, err := game.ParseChallengeRule(s)
		if err != nil || (s != "" && r.String() != s) {
			t.Errorf("ParseChallengeRule(%q) = %v, %v", s, r, err)
		}
	}
	if _, err := game.ParseChallengeRule("triple"); err == nil {
		t.Error("unknown rule accepted")
	}
}

// TestChallengeGoingOut: a play that empties the rack with the bag empty
// waits for the next player to challenge or accept it.
func TestChallengeGoingOut(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 0, "A:3:1", "T:3:1")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "ATA", "TAT")
	for _, tc := range []struct {
		name   string
		rule   game.ChallengeRule
		play   string
		answer string // accept or challenge
		over   bool
		ann    int // ann's final score
	}{
		{"accepted", game.Double, "4B ATA", "accept", true, 3 + 3},
		{"phony accepted", game.Double, "4B AAT", "accept", true, 3 + 3},
		{"valid challenged, double", game.Double, "4B ATA", "challenge", true, 3 + 3},
		{"valid challenged, 5pt", game.FivePoint, "4B ATA", "challenge", true, 3 + 5 + 3},
		{"phony challenged", game.Single, "4B AAT", "challenge", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := challengeGame(t, v, lex, tc.rule, "AAT", "ATT")
			if g.BagLen() != 0 {
				t.Fatalf("bag holds %d", g.BagLen())
			}
			play(t, g, tc.play)
			if g.Over() || !g.AwaitingChallenge() || g.Current() != 1 {
				t.Fatalf("after going out: over %v, awaiting %v, player %d on turn", g.Over(), g.AwaitingChallenge(), g.Current())
			}
			if err := g.Play(move.Move{Kind: move.Pass}); !errors.Is(err, game.ErrAwaitingChallenge) {
				t.Errorf("a pass while the out-play waits: %v", err)
			}
			if tc.answer == "accept" {
				if err := g.Accept(1); err != nil {
					t.Fatal(err)
				}
			} else if _, err := g.Challenge(1); err != nil {
				t.Fatal(err)
			}
			if g.Over() != tc.over || g.Seats[0].Score != tc.ann {
				t.Errorf("over %v, ann %d; want %v, %d", g.Over(), g.Seats[0].Score, tc.over, tc.ann)
			}
			if !tc.over {
				if g.AwaitingChallenge() || g.Seats[0].Rack.Len() != 3 || g.Current() != 1 {
					t.Errorf("phony out-play not taken back: awaiting %v, rack %d tiles, player %d on turn",
						g.AwaitingChallenge(), g.Seats[0].Rack.Len(), g.Current())
				}
				play(t, g, "4C AT")
			}
		})
	}
}

// TestChallengeScorelessTurns: withdrawn phonies and turns lost to
// challenges count toward the six scoreless turns that end a game.
func TestChallengeScorelessTurns(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Lexicon(t, v, "AT", "TA")
	g, err := game.New(v, lex, []string{"ann", "bob"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetChallengeRule(game.Double); err != nil {
		t.Fatal(err)
	}
	for turn := 0; !g.Over(); turn++ {
		if turn >= 6 {
			t.Fatalf("not over after %d withdrawn phonies", turn)
		}
		r := g.Seats[g.Current()].Rack
		tiles := r.Tiles()[:2]
		for k, tl := range tiles {
			if tl == alphabet.Blank {
				tiles[k] = alphabet.Tile(24) | alphabet.BlankBit
			}
		}
		m := move.Move{Kind: move.Place, Row: 7, Col: 7, Dir: 0, Tiles: tiles}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		if len(g.History[len(g.History)-1].Phonies) == 0 {
			t.Skip("the rack made a word of the tiny list")
		}
		if phony, err := g.Challenge(g.Current()); err != nil || !phony {
			t.Fatalf("challenge: %v, %v", phony, err)
		}
	}
	if g.ScorelessTurns() != 6 || g.Board.Tiles() != 0 {
		t.Errorf("%d scoreless turns, %d tiles on the board", g.ScorelessTurns(), g.Board.Tiles())
	}
}

// TestFollow steps a fresh game through the history of games with
// challenges and checks that it ends in the same state.
func TestFollow(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 0, "A:3:1", "T:3:1")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "ATA", "TAT")
	for _, tc := range []struct {
		rule  game.ChallengeRule
		moves []string // "!" challenges, "ok" accepts
	}{
		{game.Double, []string{"4B AAT", "!", "4C AT", "!", "-", "3D A"}},
		{game.FivePoint, []string{"4C AT", "!", "D4 .A", "-", "3C T", "-"}},
		{game.Single, []string{"4B ATA", "ok"}},
		{game.Double, []string{"4B ATA", "!"}},
		{game.TenPoint, []string{"4B ATA", "!"}},
	} {
		g := challengeGame(t, v, lex, tc.rule, "AAT", "ATT")
		for _, s := range tc.moves {
			var err error
			switch s {
			case "!":
				_, err = g.Challenge(g.Current())
			case "ok":
				err = g.Accept(g.Current())
			default:
				var m *move.Move
				if m, err = move.Parse(g.Board, s); err == nil {
					err = g.Play(*m)
				}
			}
			if err != nil {
				t.Fatalf("%v %v: %s: %v", tc.rule, tc.moves, s, err)
			}
		}
		f := challengeGame(t, v, lex, tc.rule, "AAT", "ATT")
		for k := range g.History {
			if err := f.Follow(&g.History[k]); err != nil {
				t.Fatalf("%v %v: follow entry %d: %v", tc.rule, tc.moves, k, err)
			}
		}
		if f.Over() != g.Over() || f.Current() != g.Current() || len(f.History) != len(g.History) ||
			f.Seats[0] != g.Seats[0] || f.Seats[1] != g.Seats[1] || f.Board.Tiles() != g.Board.Tiles() {
			t.Errorf("%v %v: followed game differs: over %v/%v, %d/%d entries, seats %v/%v", tc.rule, tc.moves,
				f.Over(), g.Over(), len(f.History), len(g.History), f.Seats, g.Seats)
		}
	}
}

// TestTallies: turns count placements, exchanges, passes and turns lost
// to a challenge; a placement withdrawn after a challenge is neither a
// bingo nor a best placement.
func TestTallies(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 10, "A:6:1", "T:6:1", "X:2:8")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "TAT", "AX", "XA")
	tests := []struct {
		name  string
		rule  game.ChallengeRule
		racks []string
		// the moves in turn; "?" challenges the last placement
		moves []string
		want  []game.Tally
	}{
		{"a bingo upheld, a turn lost", game.Double, []string{"ATT", "AAX"}, []string{"4C TAT", "?", "-", "-"},
			[]game.Tally{{Turns: 2, Bingos: 1, Best: 13}, {Turns: 2}}},
		{"a phony bingo withdrawn", game.Single, []string{"TTX", "AAT"}, []string{"4C TTX", "?", "4C TA"},
			[]game.Tally{{Turns: 1}, {Turns: 1, Best: 2}}},
		{"placements and an exchange", game.Void, []string{"ATX", "AAT"}, []string{"4C AX", "-A", "-"},
			[]game.Tally{{Turns: 2, Best: 9}, {Turns: 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := challengeGame(t, v, lex, tc.rule, tc.racks...)
			for _, m := range tc.moves {
				if m == "?" {
					if _, err := g.Challenge(g.Current()); err != nil {
						t.Fatal(err)
					}
					continue
				}
				play(t, g, m)
			}
			if got := g.Tallies(); !slices.Equal(got, tc.want) {
				t.Errorf("tallies %+v, want %+v", got, tc.want)
			}
		})
	}
}

// FuzzParseChallengeRule: a name read is the rule's own name (or "" for
// void), and every rule's name reads back to it.
func FuzzParseChallengeRule(f *testing.F) {
	for _, s := range []string{"", "void", "single", "double", "5pt", "10pt", "Double", "5", "pt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := game.ParseChallengeRule(s)
		if err != nil {
			return
		}
		if s == "" && r != game.Void || s != "" && r.String() != s {
			t.Fatalf("%q reads as %v", s, r)
		}
		back, err := game.ParseChallengeRule(r.String())
		if err != nil || back != r {
			t.Fatalf("%v writes %q, which reads as %v, %v", r, r.String(), back, err)
		}
	})
}
