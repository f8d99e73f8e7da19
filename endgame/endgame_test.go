package endgame

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// oracle is plain minimax over every move and pass, with no pruning and
// no table: the value for the side to move of the spread to the end.
func oracle(gen movegen.Generator, b *board.Board, racks [2]alphabet.Rack, side int, lastPass bool, scores []int) int {
	val := func(r *alphabet.Rack) int {
		n := 0
		for t, c := range r {
			if c > 0 {
				n += int(c) * scores[t]
			}
		}
		return n
	}
	opp := 1 - side
	best := 0
	if lastPass {
		best = val(&racks[opp]) - val(&racks[side])
	} else {
		best = -oracle(gen, b, racks, opp, true, scores)
	}
	for _, m := range movegen.All(gen, b, &racks[side]) {
		squares, tiles := m.Placed()
		r := racks
		for _, t := range tiles {
			r[side].Remove(t)
		}
		var v int
		if r[side].Len() == 0 {
			v = m.Score + 2*val(&r[opp])
		} else {
			b.Place(squares, tiles, 99)
			v = m.Score - oracle(gen, b, r, opp, false, scores)
			b.Remove(squares)
		}
		best = max(best, v)
	}
	return best
}

type position struct {
	name    string
	words   []string          // the lexicon
	placed  map[string]string // "8H" → across word already on the board
	me, opp string
}

func setup(t *testing.T, p position) (*variant.Variant, movegen.Generator, *board.Board, alphabet.Rack, alphabet.Rack) {
	t.Helper()
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, p.words...)
	if err != nil {
		t.Fatal(err)
	}
	b := board.New(v, lex)
	for pos, w := range p.placed {
		m, err := move.Parse(b, pos+" "+w)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		sq, tl := m.Placed()
		for i, s := range sq {
			b.SetTile(s[0], s[1], tl[i], 0)
		}
	}
	b.Recompute()
	me, err := v.Alphabet.ParseRack(p.me)
	if err != nil {
		t.Fatal(err)
	}
	opp, err := v.Alphabet.ParseRack(p.opp)
	if err != nil {
		t.Fatal(err)
	}
	// The GADDAG generator (cross-checked against the reference in
	// package movegen) keeps the oracle fast.
	return v, movegen.NewGaddagFrom(automaton.BuildGADDAG(lex)), b, me, opp
}

var words = []string{"AT", "TA", "ZA", "CAT", "ZAS", "AX", "XI", "OX", "EX", "TAX", "TO", "OE", "JO", "QI",
	"QAT", "ET", "TE", "ZO", "ZOA", "IT", "TI", "SAT", "AS", "IS", "SI", "OS", "SO", "TAXI", "ZEST", "SEZ", "JA"}

// TestGreedyLoses is a hand-made endgame. CAT lies at 8H–J8. I hold ACX,
// the opponent AZ, scores level, bag empty.
//
// Greedy plays J8 TAX (26, the top score), keeping C. The opponent then
// plays I7 ZA (21: Z on a double letter, through the A of CAT), I pass
// with C, and it goes out with 10I AX (9) for twice my C: 21+9+6 = 36
// against my 26, a loss by 10.
//
// The solver plays I8 AX (17) instead, keeping AC and leaving no place
// for the Z: the opponent's best is J7 AT (2), I answer J6 CAT (11), and
// the opponent, stuck with Z, passes, as do I: 17+11−1 against 2−10, a
// win by 35.
func TestGreedyLoses(t *testing.T) {
	p := position{name: "greedy loses", words: words, placed: map[string]string{"8H": "CAT"}, me: "ACX", opp: "AZ"}
	v, gen, b, me, opp := setup(t, p)
	res := Solve(gen, b, me, opp, false, Options{})
	if !res.Exact || res.Value != 35 {
		t.Fatalf("solver: value %d exact %v, want 35 exact", res.Value, res.Exact)
	}
	want := []string{"I8 AX", "J7 AT", "J6 CAT", "-", "-"}
	bb := b.Clone()
	for i, m := range res.PV {
		if i >= len(want) || m.String(bb) != want[i] {
			t.Fatalf("line: move %d is %s, want %v", i, m.String(bb), want)
		}
		if sq, tl := m.Placed(); len(sq) > 0 {
			bb.Place(sq, tl, 1)
		}
	}
	g, _ := movegen.Best(gen, b, &me)
	if g.String(b) != "J8 TAX" || g.Score != 26 {
		t.Fatalf("greedy move %s %d, want J8 TAX 26", g.String(b), g.Score)
	}
	sq, tl := g.Placed()
	b.Place(sq, tl, 1)
	left := me
	for _, x := range tl {
		left.Remove(x)
	}
	after := g.Score - oracle(gen, b, [2]alphabet.Rack{opp, left}, 0, false, v.Scores)
	if after != -10 {
		t.Errorf("greedy line: spread %d, want -10", after)
	}
}

// TestAgainstOracle compares the solver with plain minimax on small
// random endgames around CAT.
func TestAgainstOracle(t *testing.T) {
	letters := "AAEIOSTXZJQC"
	rng := rand.New(rand.NewPCG(7, 8))
	n := 100
	if testing.Short() {
		n = 30
	}
	for trial := 0; trial < n; trial++ {
		mk := func(k int) string {
			s := ""
			for i := 0; i < k; i++ {
				s += string(letters[rng.IntN(len(letters))])
			}
			return s
		}
		p := position{name: "random", words: words, placed: map[string]string{"8H": "CAT", "H6": "ZO"}, me: mk(1 + rng.IntN(3)), opp: mk(1 + rng.IntN(3))}
		p.placed = map[string]string{"8H": "CAT"}
		v, gen, b, me, opp := setup(t, p)
		lastPass := rng.IntN(4) == 0
		want := oracle(gen, b, [2]alphabet.Rack{me, opp}, 0, lastPass, v.Scores)
		// TableBits 4: a tiny table full of collisions. With Playout the
		// iterations before the last stop at playouts instead of
		// estimates; the exact answer must not change.
		// With Threads the helpers share the table (a tiny one: torn
		// and overwritten slots).
		for _, o := range []Options{{TableBits: 18}, {TableBits: 18, FullList: true}, {TableBits: 4}, {TableBits: 18, Playout: true}, {TableBits: 18, Threads: 2}, {TableBits: 4, Threads: 3}, {TableBits: 18, Playout: true, Threads: 2}} {
			res := Solve(gen, b, me, opp, lastPass, o)
			if !res.Exact || res.Value != want {
				t.Errorf("%s vs %s (last pass %v, %+v): solver %d exact %v, oracle %d",
					p.me, p.opp, lastPass, o, res.Value, res.Exact, want)
			}
			// The move returned must achieve the value.
			if got := valueOf(gen, b, me, opp, lastPass, &res.Move, v.Scores); got != want {
				t.Errorf("%s vs %s: move %s is worth %d, value %d", p.me, p.opp, res.Move.String(b), got, want)
			}
		}
		// The seed's restricted minimax may misjudge (it also limits the
		// opponent), but its move is legal and no better than the best.
		res := Solve(gen, b, me, opp, lastPass, Options{Width: 10})
		if got := valueOf(gen, b, me, opp, lastPass, &res.Move, v.Scores); got > want {
			t.Errorf("width 10 move %s is worth %d, more than the best %d", res.Move.String(b), got, want)
		}
	}
}

func valueOf(gen movegen.Generator, b *board.Board, me, opp alphabet.Rack, lastPass bool, m *move.Move, scores []int) int {
	val := func(r *alphabet.Rack) int {
		n := 0
		for t, c := range r {
			if c > 0 {
				n += int(c) * scores[t]
			}
		}
		return n
	}
	if m.Kind == move.Pass {
		if lastPass {
			return val(&opp) - val(&me)
		}
		return -oracle(gen, b, [2]alphabet.Rack{opp, me}, 0, true, scores)
	}
	sq, tl := m.Placed()
	for _, x := range tl {
		me.Remove(x)
	}
	if me.Len() == 0 {
		return m.Score + 2*val(&opp)
	}
	b.Place(sq, tl, 1)
	defer b.Remove(sq)
	return m.Score - oracle(gen, b, [2]alphabet.Rack{opp, me}, 0, false, scores)
}

// TestLimits checks that a node budget stops the search with a legal
// move and that the same budget gives the same answer twice.
func TestLimits(t *testing.T) {
	p := position{name: "limits", words: words, placed: map[string]string{"8H": "CAT"}, me: "ACXE", opp: "AZOS"}
	_, gen, b, me, opp := setup(t, p)
	r1 := Solve(gen, b, me, opp, false, Options{NodeLimit: 30})
	r2 := Solve(gen, b, me, opp, false, Options{NodeLimit: 30})
	if !r1.Stopped {
		t.Errorf("30 nodes should not be enough (searched %d, depth %d)", r1.Nodes, r1.Depth)
	}
	if r1.Move.Key() != r2.Move.Key() || r1.Value != r2.Value {
		t.Errorf("same budget, different answers: %s/%d vs %s/%d", r1.Move.String(b), r1.Value, r2.Move.String(b), r2.Value)
	}
	if r1.Move.Kind == move.Place {
		m := r1.Move
		if err := move.Validate(b, &me, &m, 0); err != nil {
			t.Errorf("stopped search returned an illegal move: %v", err)
		}
	}
	full := Solve(gen, b, me, opp, false, Options{})
	if !full.Exact {
		t.Errorf("no limit: not exact")
	}
	timed := Solve(gen, b, me, opp, false, Options{TimeLimit: time.Nanosecond})
	if timed.Move.Kind == move.Place {
		m := timed.Move
		if err := move.Validate(b, &me, &m, 0); err != nil {
			t.Errorf("timed-out search returned an illegal move: %v", err)
		}
	}
}

// BenchmarkSolve solves the endgame of TestGreedyLoses exactly.
func BenchmarkSolve(b *testing.B) {
	t := &testing.T{}
	p := position{name: "bench", words: words, placed: map[string]string{"8H": "CAT"}, me: "ACXE", opp: "AZOS"}
	_, gen, bd, me, opp := setup(t, p)
	for b.Loop() {
		Solve(gen, bd, me, opp, false, Options{})
	}
}

// TestStoppedInFirstPly stops the search inside its first iteration,
// when the copy of the board still holds the moves being tried: the
// fallback move must be legal on the real board.
func TestStoppedInFirstPly(t *testing.T) {
	p := position{name: "stopped", words: words, placed: map[string]string{"8H": "CAT"}, me: "AXE??", opp: "AZOS"}
	_, gen, b, me, opp := setup(t, p)
	for _, n := range []int64{1, 2, 3, 5, 8, 13} {
		res := Solve(gen, b, me, opp, false, Options{NodeLimit: n})
		if res.Depth != 0 {
			continue
		}
		if res.Move.Kind != move.Place {
			t.Fatalf("node limit %d: fallback %v, want the top-scoring placement", n, res.Move.Kind)
		}
		m := res.Move
		if err := move.Validate(b, &me, &m, 0); err != nil {
			t.Errorf("node limit %d: fallback move %s is illegal: %v", n, res.Move.String(b), err)
		}
	}
}

// TestPlayout checks the playout that values where a depth-limited search
// stops, by hand on CAT at 8H (CATS scores 6): going out earns twice the
// other rack; two passes in a row cost each side its own rack; and the
// board and racks are left as they were.
func TestPlayout(t *testing.T) {
	for _, c := range []struct {
		me, opp string
		want    int
	}{
		{"S", "Q", 6 + 2*10},     // CATS goes out; the opponent holds Q
		{"Q", "V", 4 - 10},       // neither can play: both pass
		{"SQ", "V", 6 + 4 - 10},  // CATS, then the V and the Q are stuck
		{"V", "SQ", -6 + 10 - 4}, // the same with the sides swapped
	} {
		p := position{name: "playout", words: []string{"CAT", "CATS"}, placed: map[string]string{"8H": "CAT"}, me: c.me, opp: c.opp}
		_, gen, b, me, opp := setup(t, p)
		before := b.String()
		s := newSolver(gen, b, me, opp, Options{Playout: true})
		if got := s.playout(0, false); got != c.want {
			t.Errorf("%s vs %s: playout %d, want %d", c.me, c.opp, got, c.want)
		}
		if b.String() != before || s.racks[0] != me || s.racks[1] != opp {
			t.Errorf("%s vs %s: the playout changed the board or the racks", c.me, c.opp)
		}
	}
}

// TestSearchOrder checks the order the search tries moves in: by score
// plus orderFace times the face value of the tiles played and orderTile
// a tile, plus the other rack twice when the move goes out, the pass
// last; candidates puts the first
// in place, and rest the others after the same first. I hold AS against a Z:
// K7 AS goes out (8 points, with CATS), K8 S keeps the A (6 points).
func TestSearchOrder(t *testing.T) {
	p := position{name: "order", words: []string{"CAT", "CATS", "AS", "SAT", "AT", "TA"}, placed: map[string]string{"8H": "CAT"}, me: "AS", opp: "Z"}
	v, gen, b, me, opp := setup(t, p)
	s := newSolver(gen, b, me, opp, Options{})
	out := 2 * opp.Value(v.Scores)
	for _, c := range []struct {
		move string
		want int
	}{
		{"K7 AS", 8 + 3*(1+1) + 6*2 + 2*10},
		{"K8 S", 6 + 3*1 + 6*1},
	} {
		m, err := move.Parse(b, c.move)
		if err != nil {
			t.Fatal(err)
		}
		m.Score = move.Score(b, m)
		if got := s.orderValue(m, me.Len(), out); got != c.want {
			t.Errorf("%s: order value %d, want %d", c.move, got, c.want)
		}
	}
	first := s.candidates(0, 0, 0, false)
	if len(first) != 1 {
		t.Fatalf("candidates put %d moves in place, want only the first", len(first))
	}
	firstMove := first[0].String(b)
	ms := s.rest(0)
	if ms[0].String(b) != firstMove {
		t.Errorf("rest starts with %s, candidates with %s", ms[0].String(b), firstMove)
	}
	if len(ms) < 3 || ms[len(ms)-1].Kind != move.Pass {
		t.Fatalf("%d candidates, the last %v: want several placements and the pass last", len(ms), ms[len(ms)-1].Kind)
	}
	for i := 1; i < len(ms)-1; i++ {
		if a, b0 := s.orderValue(&ms[i-1], me.Len(), out), s.orderValue(&ms[i], me.Len(), out); b0 > a {
			t.Errorf("%s (value %d) after %s (value %d)", ms[i].String(b), b0, ms[i-1].String(b), a)
		}
	}
	if ms[0].NewTiles() != me.Len() {
		t.Errorf("first move %s: want one going out", ms[0].String(b))
	}
	// The table's move comes first, in both.
	last := movegen.Clone(&ms[len(ms)-2])
	tt := moveHash(&last)
	if got := s.candidates(0, 0, tt, false); len(got) != 1 || moveHash(&got[0]) != tt {
		t.Errorf("candidates with the table's move %s: first %s", last.String(b), got[0].String(b))
	}
	if got := s.rest(0); moveHash(&got[0]) != tt || len(got) != len(ms) || got[len(got)-1].Kind != move.Pass {
		t.Errorf("rest with the table's move %s: first %s, %d moves (want %d)", last.String(b), got[0].String(b), len(got), len(ms))
	}
}

// TestReplyScoreShortcut checks the frontier's shortcut (the opponent's
// best reply found from the parent's listing and a search near the
// squares the last move changed) against a search of the whole board, at every
// frontier node of limited searches of real endgames (greedy English
// games, full word list, hundreds of moves a node).
func TestReplyScoreShortcut(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: needs the full English list")
	}
	games, gen := greedyEndgames(t, 4)
	checked := 0
	for _, g := range games {
		c := g.Current()
		s := newSolver(gen, g.Board.Clone(), g.Seats[c].Rack, g.Seats[1-c].Rack, Options{NodeLimit: 20000})
		s.checkReply = func(shortcut, searched int) {
			checked++
			if shortcut != searched {
				t.Fatalf("game %d: the shortcut found a best reply of %d, the whole board %d", g.Seed, shortcut, searched)
			}
		}
		for d := 1; ; d++ {
			if _, exact, done := s.root(d, false); !done || exact {
				break
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d reply scores checked", checked)
	}
}

// TestMoveValue compares MoveValue with plain minimax for every move of
// small random endgames around CAT, passes included: the value of each
// move, and the best of them is the solver's value.
func TestMoveValue(t *testing.T) {
	letters := "AAEIOSTXZJQC"
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 25 {
		mk := func(k int) string {
			s := ""
			for range k {
				s += string(letters[rng.IntN(len(letters))])
			}
			return s
		}
		p := position{name: "random", words: words, placed: map[string]string{"8H": "CAT"}, me: mk(1 + rng.IntN(3)), opp: mk(1 + rng.IntN(3))}
		v, gen, b, me, opp := setup(t, p)
		lastPass := trial%4 == 0
		moves := []move.Move{{Kind: move.Pass}}
		gen.Generate(b, &me, func(m *move.Move) {
			if m.Kind == move.Place {
				c := *m
				c.Tiles = slices.Clone(m.Tiles)
				moves = append(moves, c)
			}
		})
		best := Solve(gen, b, me, opp, lastPass, Options{})
		top := math.MinInt
		for _, m := range moves {
			got, exact := MoveValue(gen, b, me, opp, lastPass, m, Options{})
			want := valueOf(gen, b, me, opp, lastPass, &m, v.Scores)
			if got != want || !exact {
				t.Errorf("%s vs %s (last pass %v): %s is worth %d (exact %v), minimax says %d", p.me, p.opp, lastPass, m.String(b), got, exact, want)
			}
			top = max(top, got)
		}
		if top != best.Value {
			t.Errorf("%s vs %s: the best move is worth %d, the solver says %d", p.me, p.opp, top, best.Value)
		}
	}
}
