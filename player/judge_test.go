package player

import (
	"math"
	"testing"

	"atril/game"
	"atril/move"
	"atril/movegen"
)

// TestJudgeEndgame judges every move of endgame positions (the bag
// empty) and checks the values against the endgame's own: none is worth
// more than the best, the best of them is worth exactly the solved value
// (a negamax step over the position's moves, going out and passing
// included), and the solver's move loses nothing.
func TestJudgeEndgame(t *testing.T) {
	v, lex := small(t)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	checked, outs := 0, 0
	for seed := uint64(1); seed < 30 && checked < 12; seed++ {
		g, _ := game.New(v, lex, []string{"a", "b"}, seed)
		if !playToBag(t, g, pro, 0) {
			continue
		}
		// On to a small endgame: at most six tiles left on the racks.
		for !g.Over() && g.Seats[0].Rack.Len()+g.Seats[1].Rack.Len() > 6 {
			if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
				t.Fatal(err)
			}
		}
		if g.Over() {
			continue
		}
		for !g.Over() {
			view := ViewOf(g, g.Current())
			outs += judgeAll(t, view, quick(v, lex, 1))
			checked++
			if err := g.Play(pro.Choose(view)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if outs == 0 {
		t.Error("no position's best move went out")
	}
	if checked == 0 {
		t.Fatal("no game reached a small endgame")
	}
}

// judgeAll judges every move of an endgame position (see
// TestJudgeEndgame) and returns 1 when the best goes out, else 0.
func judgeAll(t *testing.T, view *View, o Options) int {
	t.Helper()
	o.EndgameNodes = 200_000
	b := view.Board
	moves := []move.Move{{Kind: move.Pass}}
	smallGen.Generate(b, &view.Rack, func(m *move.Move) { moves = append(moves, movegen.Clone(m)) })
	best, bestOf := math.Inf(-1), -1
	var first *Verdict
	for i, m := range moves {
		vd, err := Judge(view, m, o)
		if err != nil {
			t.Fatal(err)
		}
		if vd.Phase != "endgame" || !vd.Exact {
			t.Fatalf("%s judged by %s, exact %v", m.String(b), vd.Phase, vd.Exact)
		}
		if first == nil {
			first = vd
		}
		if vd.Best.Mean != first.Best.Mean {
			t.Fatalf("the best value moved from %.0f to %.0f", first.Best.Mean, vd.Best.Mean)
		}
		if vd.Played.Mean > vd.Best.Mean || vd.Lost() != vd.Best.Mean-vd.Played.Mean {
			t.Errorf("%s worth %.0f, the best %.0f", m.String(b), vd.Played.Mean, vd.Best.Mean)
		}
		if vd.Played.Mean > best {
			best, bestOf = vd.Played.Mean, i
		}
	}
	if best != first.Best.Mean {
		t.Errorf("rack %v: the best of %d moves (%s) is worth %.0f, the solved endgame %.0f", view.Rack.Tiles(), len(moves),
			moves[bestOf].String(b), best, first.Best.Mean)
	}
	if vd, _ := Judge(view, first.Best.Move, o); vd.Lost() != 0 {
		t.Errorf("the solver's move loses %.0f", vd.Lost())
	}
	if m := moves[bestOf]; m.Kind == move.Place && m.NewTiles() == view.Rack.Len() {
		return 1
	}
	return 0
}

// TestJudgeSimulation judges moves of a mid-game position by simulation:
// the played move is simulated even when it is far down the static
// list, the judgement is the simulation's own (the same with the best
// move played), and the worst placement gives up points.
func TestJudgeSimulation(t *testing.T) {
	v, lex := small(t)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	g, _ := game.New(v, lex, []string{"a", "b"}, 5)
	for i := 0; i < 4; i++ {
		if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
			t.Fatal(err)
		}
	}
	view := ViewOf(g, g.Current())
	o := quick(v, lex, 3)
	o.Candidates, o.Iterations = 6, 60
	var worst *move.Move
	smallGen.Generate(view.Board, &view.Rack, func(m *move.Move) {
		if worst == nil || m.Score < worst.Score {
			c := movegen.Clone(m)
			worst = &c
		}
	})
	if worst == nil {
		t.Fatal("no placement")
	}
	vd, err := Judge(view, *worst, o)
	if err != nil {
		t.Fatal(err)
	}
	if vd.Phase != "simulation" || vd.Played.Move.Key() != worst.Key() || vd.Played.Iterations == 0 || vd.Iterations == 0 {
		t.Fatalf("worst move: %+v", vd)
	}
	if vd.Lost() <= 0 {
		t.Errorf("the lowest-scoring placement %s (%.1f) loses nothing against %s (%.1f)",
			worst.String(view.Board), vd.Played.Mean, vd.Best.Move.String(view.Board), vd.Best.Mean)
	}
	again, err := Judge(view, vd.Best.Move, o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Lost() != 0 || again.Best.Move.Key() != vd.Best.Move.Key() {
		t.Errorf("the best move %s judged again loses %.1f against %s", vd.Best.Move.String(view.Board), again.Lost(),
			again.Best.Move.String(view.Board))
	}
	view.Scores = append(view.Scores, 0)
	if _, err := Judge(view, *worst, o); err == nil {
		t.Error("a three-player position was judged")
	}
}
