package server

import (
	"math"
	"testing"
)

// TestSummary plays a game of two people to the end and checks the
// summary against the per-move analysis.
func TestSummary(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, nil); code != 409 {
		t.Errorf("summary of a game in play: %d, want 409", code)
	}
	playOut(t, e, id, toks, 200)
	st := e.state(id, "")
	if !st.Over {
		t.Fatal("the game did not end")
	}
	var sum Summary
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	if len(sum.Seats) != 2 || sum.Seats[0].Moves+sum.Seats[1].Moves != st.Moves {
		t.Fatalf("summary %+v of a game of %d moves", sum, st.Moves)
	}
	for i, ss := range sum.Seats {
		if ss.Seat != i || ss.Best > ss.Moves || ss.Lost < 0 || (ss.Best < ss.Moves) != (ss.Worst != nil) {
			t.Errorf("seat %d: %+v", i, ss)
		}
		var lost float64
		for k := 0; k < st.Moves; k++ {
			var an Analysis
			if code := e.do("GET", "/api/games/"+id+"/analysis?move="+itoa(k)+"&n=1", "", nil, &an); code != 200 {
				t.Fatalf("analysis of move %d: %d", k, code)
			}
			if an.Seat != i {
				continue
			}
			d := an.Best[0].Equity - an.Played.Equity
			lost += d
			if ss.Worst != nil && ss.Worst.Move == k && (math.Abs(d-ss.Worst.Lost) > 0.011 || ss.Worst.Played != an.Played.Move || ss.Worst.Best != an.Best[0].Move) {
				t.Errorf("seat %d's worst move %+v; the analysis says %+v against %+v", i, ss.Worst, an.Played, an.Best[0])
			}
			if ss.Worst != nil && d > ss.Worst.Lost+0.011 {
				t.Errorf("seat %d: move %d gave up %.2f, more than the worst %+v", i, k, d, ss.Worst)
			}
		}
		if math.Abs(lost-ss.Lost) > 0.01*float64(ss.Moves)+0.01 {
			t.Errorf("seat %d lost %.2f by the analyses, %.2f by the summary", i, lost, ss.Lost)
		}
	}
	// A second ask is answered from the summary worked out once.
	var again Summary
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &again); code != 200 || mustJSON(again) != mustJSON(sum) {
		t.Errorf("second summary: %d %+v", code, again)
	}
}
