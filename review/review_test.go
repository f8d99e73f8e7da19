package review

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/game"
	"atril/internal/testvariant"
	"atril/move"
	"atril/movegen"
	"atril/player/leave"
	"atril/variant"
)

// TestRank checks a ranking at every position of a game against the brute
// oracle valued by hand: the number of moves (placements, exchanges, the
// pass), the best equity, the order of the list, and the played move's
// rank and equity; a withdrawn placement is valued as a pass with no
// rank.
func TestRank(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 4)
	table, err := leave.Load(v, "v2", 0)
	if err != nil {
		t.Fatal(err)
	}
	gaddag, err := movegen.New("gaddag", lex)
	if err != nil {
		t.Fatal(err)
	}
	rk := &Ranker{Gen: gaddag, Leave: table}
	brute := movegen.NewBrute(lex)
	outs := 0   // positions where a placement goes out with the bag empty
	bingos := 0 // positions that offer a bingo
	for seed := uint64(1); seed <= 4; seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		rankGame(t, g, rk, brute, table, &outs, &bingos)
	}
	if outs == 0 {
		t.Error("no position offered a placement going out with the bag empty")
	}
	if bingos == 0 {
		t.Error("no position offered a bingo")
	}
}

// rankGame plays g, each player making its second best placement by
// score (the best with the bag empty), and checks the ranking of every
// position (see TestRank), its bingos included (counted in bingos).
func rankGame(t *testing.T, g *game.Game, rk *Ranker, brute *movegen.Brute, table leave.Evaluator, outs, bingos *int) {
	t.Helper()
	v := g.Variant
	for turn := 0; !g.Over(); turn++ {
		me := g.Current()
		rack := g.Seats[me].Rack
		bag := g.BagLen()
		value := func(m *move.Move) float64 {
			kept := m.Kept(rack)
			switch {
			case bag == 0 && m.Kind == move.Place && kept.Len() == 0:
				u := g.Unseen(me)
				return float64(m.Score + 2*u.Value(v.Scores))
			case bag == 0:
				return float64(m.Score - kept.Value(v.Scores))
			}
			return float64(m.Score) + table.Eval(&kept)
		}
		placements, best := 0, value(&move.Move{Kind: move.Pass})
		var top, second *move.Move
		var bingoValues []float64
		words := map[float64][]string{} // the bingos' main words by value
		brute.Generate(g.Board, &rack, func(m *move.Move) {
			placements++
			if m.NewTiles() == v.RackSize {
				val := math.Round(value(m)*100) / 100
				bingoValues = append(bingoValues, val)
				words[val] = append(words[val], m.Word(g.Board, false))
			}
			if bag == 0 && m.NewTiles() == rack.Len() {
				*outs++
			}
			best = max(best, value(m))
			c := movegen.Clone(m)
			switch {
			case top == nil || m.Score > top.Score:
				second, top = top, &c
			case second == nil || m.Score > second.Score:
				second = &c
			}
		})
		exchanges := 0
		if bag >= v.ExchangeMinBag {
			rack.SubRacks(func(keep *alphabet.Rack) {
				if keep.Len() < rack.Len() {
					exchanges++
					kept := *keep
					best = max(best, table.Eval(&kept))
				}
			})
		}
		played := move.Move{Kind: move.Pass}
		switch {
		case second != nil && bag > 0:
			played = *second
		case top != nil:
			played = *top
		}
		r, err := rk.Rank(g, Move{Move: played}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if r.Moves != placements+exchanges+1 {
			t.Errorf("turn %d: %d moves ranked, want %d placements, %d exchanges and the pass", turn, r.Moves, placements, exchanges)
		}
		if math.Abs(r.Best[0].Equity-best) > 0.006 {
			t.Errorf("turn %d: best equity %.3f, want %.3f", turn, r.Best[0].Equity, best)
		}
		for i := 1; i < len(r.Best); i++ {
			if r.Best[i].Equity > r.Best[i-1].Equity {
				t.Errorf("turn %d: best moves out of order: %v", turn, r.Best)
			}
		}
		if want := math.Round(value(&played)*100) / 100; r.Played.Equity != want || r.Rank < 1 || r.Rank > r.Moves {
			t.Errorf("turn %d: played %s valued %.2f at rank %d, want %.2f", turn, r.Played.Text, r.Played.Equity, r.Rank, want)
		}
		if lost := r.Lost(); lost < 0 || (lost == 0) != (r.Best[0].Equity == r.Played.Equity) {
			t.Errorf("turn %d: lost %.2f", turn, lost)
		}
		slices.SortFunc(bingoValues, func(a, b float64) int { return cmp.Compare(b, a) })
		if len(bingoValues) > 0 {
			*bingos++
		}
		if len(r.Bingos) != min(len(bingoValues), MaxBingos) {
			t.Errorf("turn %d: %d bingos listed, want %d of %d", turn, len(r.Bingos), min(len(bingoValues), MaxBingos), len(bingoValues))
		}
		for i, b := range r.Bingos {
			if i < len(bingoValues) && b.Equity != bingoValues[i] || !b.Bingo(v.RackSize) ||
				!slices.Contains(words[b.Equity], v.Alphabet.Word(b.Word)) || b.Text != b.Move.String(g.Board) {
				t.Errorf("turn %d: bingo %d is %s (%q, %.2f), want one of %q at %.2f", turn, i, b.Text, v.Alphabet.Word(b.Word), b.Equity,
					words[bingoValues[min(i, len(bingoValues)-1)]], bingoValues[min(i, len(bingoValues)-1)])
			}
		}
		var sum Summary
		sum.Seats = make([]SeatSummary, len(g.Seats))
		sum.AddBingos(turn, v.RackSize, r)
		missed := sum.Seats[me].MissedBingos
		if want := len(bingoValues) > 0 && played.NewTiles() != v.RackSize; (len(missed) == 1) != want ||
			want && (missed[0].Move != turn || missed[0].Rack != rack || len(missed[0].Bingos) != len(r.Bingos)) {
			t.Errorf("turn %d: missed bingos %+v, want one: %v", turn, missed, want)
		}
		if played.Kind == move.Place {
			w, err := rk.Rank(g, Move{Move: played, Withdrawn: true}, 1)
			if err != nil {
				t.Fatal(err)
			}
			pass := value(&move.Move{Kind: move.Pass})
			if w.Rank != 0 || !w.Played.Withdrawn || w.Played.Move.Score != 0 || w.Played.Equity != math.Round(pass*100)/100 {
				t.Errorf("turn %d: withdrawn %s: rank %d, score %d, equity %.2f, want no rank, 0 and %.2f", turn,
					w.Played.Text, w.Rank, w.Played.Move.Score, w.Played.Equity, pass)
			}
		}
		if err := g.Play(played); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAdvance steps a copy of a game through its record and checks each
// position against the original's, dealt as recorded or by the seed, and
// that a move out of range or behind the position is refused.
func TestAdvance(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 8)
	gen, err := movegen.New("gaddag", lex)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(v, lex, []string{"a", "b", "c"}, 11)
	if err != nil {
		t.Fatal(err)
	}
	type pos struct {
		rack  alphabet.Rack
		bag   int
		board string
		all   []alphabet.Rack // every seat's
	}
	var before []pos
	for !g.Over() {
		me := g.Current()
		var all []alphabet.Rack
		for _, st := range g.Seats {
			all = append(all, st.Rack)
		}
		before = append(before, pos{g.Seats[me].Rack, g.BagLen(), g.Board.String(), all})
		m := move.Move{Kind: move.Pass}
		rack := g.Seats[me].Rack
		gen.Generate(g.Board, &rack, func(c *move.Move) {
			if m.Kind != move.Place || c.Score > m.Score {
				m = movegen.Clone(c)
			}
		})
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, recorded := range []bool{false, true} {
		seed := uint64(11)
		if recorded {
			seed = 99 // another bag: the racks come from the record
		}
		f, err := game.New(v, lex, []string{"a", "b", "c"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		rec := NewRecord(g.History, recorded)
		if len(rec.Moves) != len(before) {
			t.Fatalf("%d moves in the record, %d played", len(rec.Moves), len(before))
		}
		// What each seat held at each move: its rack then, known while it
		// moves again.
		for k := range rec.Moves {
			for seat, want := range before[k].all {
				moves := false
				for j := k; j < len(rec.Moves); j++ {
					moves = moves || rec.History[rec.Moves[j].At].Player == seat
				}
				if got, ok := rec.HeldAt(seat, k); ok != moves || ok && got != want {
					t.Errorf("HeldAt(%d, %d): %v %v, want %v %v", seat, k, got, ok, want, moves)
				}
			}
		}
		if _, ok := rec.HeldAt(0, len(rec.Moves)); ok {
			t.Error("HeldAt past the last move")
		}
		at := 0
		for k := range rec.Moves {
			if at, err = rec.Advance(f, at, k); err != nil {
				t.Fatalf("recorded %v, move %d: %v", recorded, k, err)
			}
			p := before[k]
			if f.Seats[f.Current()].Rack != p.rack || f.BagLen() != p.bag || f.Board.String() != p.board {
				t.Fatalf("recorded %v, move %d: position differs from the game's", recorded, k)
			}
		}
		if _, err := rec.Advance(f, at, len(rec.Moves)); err == nil || !strings.Contains(err.Error(), "has moves") {
			t.Errorf("a move past the end: %v", err)
		}
		if _, err := rec.Advance(f, at, 0); err == nil || !strings.Contains(err.Error(), "behind") {
			t.Errorf("a move behind the position: %v", err)
		}
	}
}

// TestSummaryMistakes: a move counts among the mistakes when it gives up
// at least MistakeLoss; past MaxMistakes the least costly go, and the
// rest stay in the order of the game.
func TestSummaryMistakes(t *testing.T) {
	var c Candidate
	for _, tc := range []struct {
		name  string
		lost  []float64
		moves []int // the mistakes' move numbers
	}{
		{"none", []float64{0, 1, 4.99}, nil},
		{"at the threshold", []float64{0, 5, 2, 30}, []int{1, 3}},
		{"more than the cap", []float64{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 5, 20, 6},
			[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13}},
	} {
		sum := &Summary{Seats: make([]SeatSummary, 2)}
		for k, l := range tc.lost {
			sum.Add(k, 1, &c, &c, l)
		}
		var got []int
		for _, m := range sum.Seats[1].Mistakes {
			got = append(got, m.Move)
			if m.Lost != tc.lost[m.Move] {
				t.Errorf("%s: move %d lost %v, want %v", tc.name, m.Move, m.Lost, tc.lost[m.Move])
			}
		}
		if !slices.Equal(got, tc.moves) || len(sum.Seats[0].Mistakes) != 0 {
			t.Errorf("%s: mistakes %v, want %v", tc.name, got, tc.moves)
		}
	}
}
