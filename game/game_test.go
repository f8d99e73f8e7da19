package game_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/internal/testvariant"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// playOut plays greedy moves (passing when stuck) until the game ends.
func playOut(t *testing.T, g *game.Game, gen movegen.Generator) {
	t.Helper()
	for i := 0; !g.Over(); i++ {
		if i > 500 {
			t.Fatal("game does not end")
		}
		m, ok := movegen.Best(gen, g.Board, &g.Seats[g.Current()].Rack)
		if !ok {
			m = move.Move{Kind: move.Pass}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
}

func TestEndOfGameAdjustment(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 5, "?:1:0", "A:8:1", "B:3:3", "T:8:1")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "BAT", "TAB", "AB", "BA", "TAT", "BAA", "ABA", "BABA", "ATT")
	gen := movegen.NewBrute(lex)
	wentOut := 0
	for seed := uint64(1); seed <= 20; seed++ {
		g, err := game.New(v, lex, []string{"ann", "bob", "cy"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		playOut(t, g, gen)
		// Sum of every player's turn points must equal the final scores,
		// and the adjustments must follow the rule.
		sums := make([]int, 3)
		out := -1
		for _, tu := range g.History {
			sums[tu.Player] += tu.Points
			if tu.Kind == game.OutBonus {
				out = tu.Player
			}
		}
		for i, p := range g.Seats {
			if sums[i] != p.Score {
				t.Errorf("seed %d: player %d history sums to %d, score %d", seed, i, sums[i], p.Score)
			}
		}
		left := 0
		for i := range g.Seats {
			left += g.RackValue(&g.Seats[i].Rack)
		}
		if out >= 0 {
			wentOut++
			if g.Seats[out].Rack.Len() != 0 || g.BagLen() != 0 {
				t.Errorf("seed %d: player %d went out holding tiles", seed, out)
			}
			bonus, penalty := 0, 0
			for _, tu := range g.History {
				switch tu.Kind {
				case game.OutBonus:
					bonus += tu.Points
				case game.RackPenalty:
					penalty -= tu.Points
				}
			}
			if bonus != left || penalty != left {
				t.Errorf("seed %d: bonus %d, penalties %d, racks left worth %d", seed, bonus, penalty, left)
			}
		}
	}
	if wentOut == 0 {
		t.Error("no game ended by a player going out")
	}
}

func TestReproducibleAndEndRules(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 30)
	gen := movegen.NewBrute(lex)
	a, _ := game.New(v, lex, []string{"a", "b"}, 42)
	b, _ := game.New(v, lex, []string{"a", "b"}, 42)
	c, _ := game.New(v, lex, []string{"a", "b"}, 43)
	for i := 0; i < 4; i++ {
		ma, _ := movegen.Best(gen, a.Board, &a.Seats[a.Current()].Rack)
		mb, _ := movegen.Best(gen, b.Board, &b.Seats[b.Current()].Rack)
		if ma.Key() != mb.Key() {
			t.Fatal("same seed, different games")
		}
		a.Play(ma)
		b.Play(mb)
	}
	if a.Seats[0].Rack == c.Seats[0].Rack && a.Seats[1].Rack == c.Seats[1].Rack {
		t.Error("different seeds gave the same racks")
	}
	// Six scoreless turns end an English game.
	g, _ := game.New(v, lex, []string{"a", "b"}, 7)
	for i := 0; i < 6; i++ {
		if g.Over() {
			t.Fatalf("over after %d passes", i)
		}
		if err := g.Play(move.Move{Kind: move.Pass}); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Over() {
		t.Error("not over after six scoreless turns")
	}
	if err := g.Play(move.Move{Kind: move.Pass}); err != game.ErrGameOver {
		t.Errorf("move after the end: %v", err)
	}
	// Czech: two rounds of passes by every player.
	cz := variant.MustLoad("czech")
	czl := testvariant.Lexicon(t, cz, "ŽÁBA")
	g, _ = game.New(cz, czl, []string{"a", "b", "c"}, 7)
	for i := 0; i < 5; i++ {
		g.Play(move.Move{Kind: move.Pass})
	}
	if g.Over() {
		t.Error("czech game over before two rounds of passes")
	}
	g.Play(move.Move{Kind: move.Pass})
	if !g.Over() {
		t.Error("czech game not over after two rounds of passes")
	}
}

func TestExchangeAndUnseen(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Lexicon(t, v, "AA")
	g, _ := game.New(v, lex, []string{"a", "b"}, 1)
	before := g.Seats[0].Rack
	ts := before.Tiles()[:3]
	if err := g.Play(move.Move{Kind: move.Exchange, Exchanged: ts}); err != nil {
		t.Fatal(err)
	}
	if g.BagLen() != 100-14 || g.Seats[0].Rack.Len() != 7 {
		t.Errorf("bag %d rack %d after exchange", g.BagLen(), g.Seats[0].Rack.Len())
	}
	u := g.Unseen(1)
	if u.Len() != 100-7 {
		t.Errorf("unseen %d, want 93", u.Len())
	}
	// Unseen plus own rack is the whole set when the board is empty.
	r := g.Seats[1].Rack
	for i, c := range v.Counts {
		if int(u[i])+int(r[i]) != c {
			t.Errorf("tile %s: unseen %d + rack %d != %d", v.Alphabet.String(alphabet.Tile(i)), u[i], r[i], c)
		}
	}
	if err := g.Play(move.Move{Kind: move.Exchange, Exchanged: []alphabet.Tile{26, 26, 26, 26}}); err == nil {
		t.Error("exchange of tiles not held accepted")
	}
	if g.Current() != 1 {
		t.Error("a rejected move changed the turn")
	}
}

// TestBagOrder checks that a new bag is filled in the order the embedded
// variant files listed their letters when games were first stored (tile
// codes followed that order), so that games stored then are dealt the
// same letters from their seed.
func TestBagOrder(t *testing.T) {
	stored := map[string]string{
		"english": "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z",
		"spanish": "A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z",
		"czech":   "A Á B C Č D Ď E É Ě F G H I Í J K L M N Ň O Ó P R Ř S Š T Ť U Ú Ů V X Y Ý Z Ž",
	}
	for name, want := range stored {
		for _, v := range []*variant.Variant{variant.MustLoad(name), reordered(t, name)} {
			var got []string
			for _, l := range v.Alphabet.Collated() {
				got = append(got, v.Alphabet.String(l))
			}
			if strings.Join(got, " ") != want {
				t.Errorf("%s: letters in bag order %s, want %s", name, strings.Join(got, " "), want)
			}
		}
	}
}

func reordered(t *testing.T, name string) *variant.Variant {
	_, v := testvariant.Reordered(t, name)
	return v
}

// TestReorderedVariantDeals checks that a variant file listing its tiles
// in another order deals the same letters from the same seed, before and
// after an exchange.
func TestReorderedVariantDeals(t *testing.T) {
	letters := func(v *variant.Variant, ts []alphabet.Tile) string {
		var out []string
		for _, tl := range ts {
			out = append(out, v.Alphabet.String(tl))
		}
		return strings.Join(out, " ")
	}
	rack := func(g *game.Game, i int) string {
		var out []string
		for _, tl := range g.Seats[i].Rack.Tiles() {
			out = append(out, g.Variant.Alphabet.String(tl))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	for _, name := range []string{"english", "spanish", "czech"} {
		v, r := variant.MustLoad(name), reordered(t, name)
		a, err := game.New(v, nil, []string{"a", "b", "c"}, 2026)
		if err != nil {
			t.Fatal(err)
		}
		b, err := game.New(r, nil, []string{"a", "b", "c"}, 2026)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 2; step++ {
			for i := range a.Seats {
				if rack(a, i) != rack(b, i) {
					t.Errorf("%s step %d: rack %d is %s, reordered %s", name, step, i, rack(a, i), rack(b, i))
				}
			}
			if letters(v, a.Bag()) != letters(r, b.Bag()) {
				t.Errorf("%s step %d: the bags differ", name, step)
			}
			// Exchange the same letters in both games: the bag is
			// shuffled again.
			ea := a.Seats[a.Current()].Rack.Tiles()[:3]
			var eb []alphabet.Tile
			for _, tl := range ea {
				x, err := r.Alphabet.Letter(v.Alphabet.String(tl), alphabet.WithBlanks)
				if err != nil {
					t.Fatal(err)
				}
				eb = append(eb, x)
			}
			if err := a.Play(move.Move{Kind: move.Exchange, Exchanged: ea}); err != nil {
				t.Fatal(err)
			}
			if err := b.Play(move.Move{Kind: move.Exchange, Exchanged: eb}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestResignAndAbort(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 30)
	gen := movegen.NewBrute(lex)
	type step struct {
		do   string // "play", "resign N", "abort"
		fail bool
	}
	tests := []struct {
		name     string
		players  int
		steps    []step
		winners  []int
		resigned int
		aborted  bool
	}{
		{"resign on turn", 2, []step{{"play", false}, {"resign 1", false}}, []int{0}, 1, false},
		{"resign off turn, leader loses", 2, []step{{"play", false}, {"resign 0", false}}, []int{1}, 0, false},
		{"three players: best of the others", 3, []step{{"play", false}, {"play", false}, {"resign 0", false}}, nil, 0, false},
		{"abort before the first move", 2, []step{{"abort", false}}, nil, -1, true},
		{"no abort after a move", 2, []step{{"play", false}, {"abort", true}}, nil, -1, false},
		{"nothing after a resignation", 2, []step{{"resign 0", false}, {"resign 1", true}, {"abort", true}, {"play", true}}, []int{1}, 0, false},
		{"no such player", 2, []step{{"resign 2", true}}, nil, -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := game.New(v, lex, []string{"a", "b", "c"}[:tc.players], 42)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.steps {
				var err error
				switch {
				case s.do == "play":
					m, ok := movegen.Best(gen, g.Board, &g.Seats[g.Current()].Rack)
					if !ok {
						m = move.Move{Kind: move.Pass}
					}
					err = g.Play(m)
				case s.do == "abort":
					err = g.Abort()
				default:
					var i int
					fmt.Sscanf(s.do, "resign %d", &i)
					err = g.Resign(i)
				}
				if (err != nil) != s.fail {
					t.Fatalf("%s: error %v, want failure %v", s.do, err, s.fail)
				}
			}
			if g.Resigned() != tc.resigned || g.Aborted() != tc.aborted {
				t.Errorf("resigned %d aborted %v, want %d %v", g.Resigned(), g.Aborted(), tc.resigned, tc.aborted)
			}
			if tc.resigned < 0 && !tc.aborted {
				return
			}
			if !g.Over() {
				t.Fatal("not over")
			}
			want := tc.winners
			if want == nil && !tc.aborted {
				// The highest score among the players who did not resign.
				best := -1 << 30
				for i, p := range g.Seats {
					if i != tc.resigned && p.Score > best {
						best = p.Score
					}
				}
				for i, p := range g.Seats {
					if i != tc.resigned && p.Score == best {
						want = append(want, i)
					}
				}
			}
			if fmt.Sprint(g.Winners()) != fmt.Sprint(want) {
				t.Errorf("winners %v, want %v (scores %d %d)", g.Winners(), want, g.Seats[0].Score, g.Seats[1].Score)
			}
		})
	}
}

// TestTimeOutAndPenalty checks a loss on time and the time penalties
// that come after the end of a game.
func TestTimeOutAndPenalty(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 30)
	gen := movegen.NewBrute(lex)
	g, err := game.New(v, lex, []string{"a", "b"}, 42)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PenalizeTime(0, 10); err == nil {
		t.Error("a time penalty before the end was accepted")
	}
	m, ok := movegen.Best(gen, g.Board, &g.Seats[0].Rack)
	if !ok {
		t.Fatal("no first move")
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	lead := g.Seats[0].Score
	if lead <= 0 {
		t.Fatalf("first move scored %d", lead)
	}
	if err := g.TimeOut(2); err == nil {
		t.Error("player 2 of 0..1 ran out of time")
	}
	// The leader runs out of time: the other player wins whatever the score.
	if err := g.TimeOut(0); err != nil {
		t.Fatal(err)
	}
	if !g.Over() || g.TimedOut() != 0 || g.Resigned() != -1 {
		t.Fatalf("over %v timed out %d resigned %d", g.Over(), g.TimedOut(), g.Resigned())
	}
	if fmt.Sprint(g.Winners()) != "[1]" {
		t.Errorf("winners %v, want [1]", g.Winners())
	}
	if err := g.TimeOut(1); err == nil {
		t.Error("a second loss on time after the end")
	}
	for _, bad := range []int{0, -10} {
		if err := g.PenalizeTime(1, bad); err == nil {
			t.Errorf("a time penalty of %d points was accepted", bad)
		}
	}
	if err := g.PenalizeTime(0, 20); err != nil {
		t.Fatal(err)
	}
	last := g.History[len(g.History)-1]
	if last.Kind != game.TimePenalty || last.Player != 0 || last.Points != -20 || last.Total != lead-20 || g.Seats[0].Score != lead-20 {
		t.Errorf("penalty entry %+v, score %d; want -20 from %d", last, g.Seats[0].Score, lead)
	}

	// A penalty can change the winner of a game that ended normally.
	g2, err := game.New(v, lex, []string{"a", "b"}, 42)
	if err != nil {
		t.Fatal(err)
	}
	for !g2.Over() {
		m, ok := movegen.Best(gen, g2.Board, &g2.Seats[g2.Current()].Rack)
		if !ok {
			m = move.Move{Kind: move.Pass}
		}
		if err := g2.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	w := g2.Winners()
	if len(w) != 1 {
		t.Skipf("tied game (winners %v)", w)
	}
	loser := 1 - w[0]
	gap := g2.Seats[w[0]].Score - g2.Seats[loser].Score
	if err := g2.PenalizeTime(w[0], gap+10); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(g2.Winners()) != fmt.Sprint([]int{loser}) {
		t.Errorf("winners %v after a penalty of %d, want [%d]", g2.Winners(), gap+10, loser)
	}
}

// TestTurnKept checks what a turn left on the rack, and whether the draw
// made it up, for a placement, an exchange, a placement the bag could
// not make up, a pass and a turn that was not played.
func TestTurnKept(t *testing.T) {
	v := variant.MustLoad("english")
	rack := func(s string) alphabet.Rack {
		r, err := v.Alphabet.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tiles := func(s string) []alphabet.Tile {
		r := rack(s)
		var out []alphabet.Tile
		for i, c := range r {
			for j := 0; j < int(c); j++ {
				out = append(out, alphabet.Tile(i))
			}
		}
		return out
	}
	place := move.Move{Kind: move.Place, Row: 7, Col: 7, Tiles: tiles("AT")}
	for _, c := range []struct {
		name string
		turn game.Turn
		left string
		ok   bool
	}{
		{"placement", game.Turn{Kind: game.Played, Rack: rack("AEIRSTT"), Move: place, Drawn: tiles("QU")}, "EIRST", true},
		{"exchange", game.Turn{Kind: game.Played, Rack: rack("AEIRSTT"), Move: move.Move{Kind: move.Exchange, Exchanged: tiles("TT")}, Drawn: tiles("QU")}, "AEIRS", true},
		{"bag short", game.Turn{Kind: game.Played, Rack: rack("AEIRSTT"), Move: place, Drawn: tiles("Q")}, "EIRST", false},
		{"pass", game.Turn{Kind: game.Played, Rack: rack("AEIRSTT"), Move: move.Move{Kind: move.Pass}}, "", false},
		{"not played", game.Turn{Kind: game.OutBonus, Rack: rack("AE"), Move: place}, "", false},
	} {
		left, ok := c.turn.Kept()
		if ok != c.ok || (c.left != "" && left != rack(c.left)) || (c.left == "" && left.Len() != 0) {
			t.Errorf("%s: kept %v (made up %v), want %s (%v)", c.name, left, ok, c.left, c.ok)
		}
	}
}

func TestFromPosition(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 5, "?:1:0", "A:8:1", "B:3:3", "T:8:1")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "BAT", "TAB", "AB", "BA", "TAT", "BAA", "ABA", "BABA", "ATT")
	gen := movegen.NewBrute(lex)
	n := v.Size
	for seed := uint64(1); seed <= 10; seed++ {
		g, err := game.New(v, lex, []string{"ann", "bob"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; !g.Over(); turn++ {
			// The position of the seat on turn, the others' racks unknown.
			cur := g.Current()
			sq := make([]alphabet.Tile, n*n)
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					sq[r*n+c] = g.Board.At(r, c)
				}
			}
			racks := []alphabet.Rack{g.Seats[cur].Rack, {}}
			scores := []int{g.Seats[cur].Score, g.Seats[1-cur].Score}
			p, err := game.FromPosition(v, lex, []string{"me", "you"}, sq, racks, scores, g.ScorelessTurns(), seed)
			if err != nil {
				t.Fatalf("seed %d turn %d: %v", seed, turn, err)
			}
			if p.Current() != 0 || p.BagLen() != g.BagLen() || p.Unseen(0) != g.Unseen(cur) || p.Seats[0].Rack != g.Seats[cur].Rack ||
				p.Seats[1].Rack.Len() != g.Seats[1-cur].Rack.Len() || p.ScorelessTurns() != g.ScorelessTurns() || p.Seats[1].Score != scores[1] {
				t.Fatalf("seed %d turn %d: the position's game differs: bag %d/%d, unseen %v/%v", seed, turn, p.BagLen(), g.BagLen(), p.Unseen(0), g.Unseen(cur))
			}
			if g.BagLen() == 0 && p.LastWasPass() != (g.ScorelessTurns() > 0) {
				t.Fatalf("seed %d turn %d: last was a pass: %v, scoreless turns %d", seed, turn, p.LastWasPass(), g.ScorelessTurns())
			}
			m, ok := movegen.Best(gen, g.Board, &g.Seats[cur].Rack)
			pm, pok := movegen.Best(gen, p.Board, &p.Seats[0].Rack)
			if ok != pok || ok && (m.Score != pm.Score || m.String(g.Board) != pm.String(p.Board)) {
				t.Fatalf("seed %d turn %d: best move %v %s, from the position %v %s", seed, turn, ok, m.String(g.Board), pok, pm.String(p.Board))
			}
			if !ok {
				m = move.Move{Kind: move.Pass}
			} else if err := p.Play(pm); err != nil {
				t.Fatalf("seed %d turn %d: the position's game refuses %s: %v", seed, turn, pm.String(p.Board), err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	empty := make([]alphabet.Tile, n*n) // board.Empty everywhere
	b, err := v.Alphabet.Parse("B", alphabet.Plain)
	if err != nil {
		t.Fatal(err)
	}
	tooMany := append([]alphabet.Tile(nil), empty...)
	for i := 0; i < 4; i++ {
		tooMany[i] = b[0] // the set holds 3
	}
	for _, tc := range []struct {
		name    string
		names   []string
		squares []alphabet.Tile
		racks   []alphabet.Rack
		want    string
	}{
		{"one player", []string{"a"}, empty, []alphabet.Rack{{}}, "2 to 4"},
		{"racks", []string{"a", "b"}, empty, []alphabet.Rack{{}}, "1 racks"},
		{"squares", []string{"a", "b"}, empty[1:], []alphabet.Rack{{}, {}}, "squares"},
		{"too many", []string{"a", "b"}, tooMany, []alphabet.Rack{{}, {}}, "more B"},
	} {
		scores := make([]int, len(tc.names))
		_, err := game.FromPosition(v, lex, tc.names, tc.squares, tc.racks, scores, 0, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestDealRecorded follows the history of games with exchanges, three
// players and an opening player other than the first in games with other
// seeds, which deal other tiles (DealRecorded, then Follow): before every move the follower's mover
// must see exactly what the original's mover saw.
func TestDealRecorded(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 30)
	gen := movegen.NewBrute(lex)
	for _, tc := range []struct {
		players int
		seed    uint64
		first   int
	}{{2, 1, 0}, {2, 2, 1}, {3, 3, 2}, {4, 4, 0}} {
		names := []string{"a", "b", "c", "d"}[:tc.players]
		orig, _ := game.New(v, lex, names, tc.seed)
		orig.SetCurrent(tc.first)
		for i := 0; !orig.Over(); i++ {
			if i > 500 {
				t.Fatal("game does not end")
			}
			rack := orig.Seats[orig.Current()].Rack
			m, ok := movegen.Best(gen, orig.Board, &rack)
			if i%5 == 4 && orig.BagLen() >= v.ExchangeMinBag {
				m, ok = move.Move{Kind: move.Exchange, Exchanged: rack.Tiles()[:2]}, true
			}
			if !ok {
				m = move.Move{Kind: move.Pass}
			}
			if err := orig.Play(m); err != nil {
				t.Fatalf("turn %d: %v", i, err)
			}
		}
		// same replays the original's history with Follow (as the
		// original saw it); other deals each recorded rack in a game of
		// another seed.
		same, _ := game.New(v, lex, names, tc.seed)
		same.SetCurrent(tc.first)
		other, _ := game.New(v, lex, names, tc.seed+100)
		moves := 0
		for k := range orig.History {
			h := &orig.History[k]
			if h.Kind == game.Played {
				moves++
			}
			ob, sb := len(other.History), len(same.History)
			err := other.DealRecorded(h)
			if err == nil {
				err = other.Follow(h)
			}
			if err != nil {
				t.Fatalf("%d players, entry %d: %v", tc.players, k, err)
			}
			if err := same.Follow(h); err != nil {
				t.Fatalf("%d players, entry %d: follow: %v", tc.players, k, err)
			}
			if h.Kind != game.Played {
				continue
			}
			o, s := &other.History[ob], &same.History[sb]
			if o.Rack != s.Rack || o.Notation != s.Notation || o.Points != s.Points || o.Total != s.Total {
				t.Fatalf("%d players, entry %d: followed %s %s %+d %d, recorded %s %s %+d %d", tc.players, k,
					v.Alphabet.RackString(&o.Rack), o.Notation, o.Points, o.Total, v.Alphabet.RackString(&s.Rack), s.Notation, s.Points, s.Total)
			}
			if other.BagLen() != same.BagLen() || other.Current() != same.Current() || !other.Board.Equal(same.Board) {
				t.Fatalf("%d players, entry %d: bag %d/%d, on turn %d/%d, boards equal %v", tc.players, k,
					other.BagLen(), same.BagLen(), other.Current(), same.Current(), other.Board.Equal(same.Board))
			}
			for j := range names {
				if same.Over() && (same.BagLen() > 0 || tc.players > 2) {
					break // which rack holds which tile is arbitrary
				}
				if other.Seats[j].Score != same.Seats[j].Score || other.Seats[j].Rack.Len() != same.Seats[j].Rack.Len() {
					t.Fatalf("%d players, entry %d: seat %d score %d/%d, %d/%d tiles", tc.players, k, j,
						other.Seats[j].Score, same.Seats[j].Score, other.Seats[j].Rack.Len(), same.Seats[j].Rack.Len())
				}
			}
		}
		if moves < 10 || !other.Over() {
			t.Errorf("%d players: %d moves, followed game over %v", tc.players, moves, other.Over())
		}
		if same.Seats[0].Rack == other.Seats[0].Rack && tc.players == 2 && same.BagLen() > 0 {
			t.Errorf("the other seed dealt the same racks")
		}
	}
}

// TestExchangeShortBag: in a variant that lets a player exchange with
// fewer tiles in the bag than a rack holds, an exchange draws as many
// tiles as it returns, so it may return no more than the bag holds.
func TestExchangeShortBag(t *testing.T) {
	v := testvariant.Small(t, 7, 3, 0, "A:4:1", "T:4:1")
	v.ExchangeMinBag = 1
	lex := testvariant.Lexicon(t, v, "AT", "TA")
	for _, tc := range []struct {
		n  int // tiles exchanged; the bag holds 2
		ok bool
	}{{1, true}, {2, true}, {3, false}} {
		g, err := game.New(v, lex, []string{"a", "b"}, 1)
		if err != nil {
			t.Fatal(err)
		}
		ts := g.Seats[0].Rack.Tiles()[:tc.n]
		err = g.Play(move.Move{Kind: move.Exchange, Exchanged: ts})
		if (err == nil) != tc.ok {
			t.Errorf("exchange of %d tiles with 2 in the bag: error %v, want ok %v", tc.n, err, tc.ok)
		}
		if n := g.Seats[0].Rack.Len(); n != 3 {
			t.Errorf("exchange of %d tiles with 2 in the bag: the rack holds %d tiles after it, want 3", tc.n, n)
		}
		if g.BagLen() != 2 {
			t.Errorf("exchange of %d tiles: the bag holds %d tiles after it, want 2", tc.n, g.BagLen())
		}
	}
}
