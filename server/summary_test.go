package server

import (
	"math"
	"slices"
	"testing"

	"atril/alphabet"
	"atril/move"
	"atril/review"
	"atril/variant"
	"atril/winprob"
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
	// Seat 0's winning chances: near even at the start, the result at
	// the end, the model's at every entry of the history.
	v, err := variant.Load("english")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := winprob.For(v, 2)
	if !ok {
		t.Fatal("no model for English")
	}
	if len(sum.Win) != len(st.History)+1 || math.Abs(sum.Win[0]-m.Win(0, 100)) > 0.001 {
		t.Fatalf("the winning chances: %d for %d entries, first %v", len(sum.Win), len(st.History), sum.Win)
	}
	want := 0.5
	if st.Seats[0].Score > st.Seats[1].Score {
		want = 1
	} else if st.Seats[0].Score < st.Seats[1].Score {
		want = 0
	}
	if last := sum.Win[len(sum.Win)-1]; last != want {
		t.Errorf("the chances end at %v, scores %d and %d", last, st.Seats[0].Score, st.Seats[1].Score)
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
	// The missed bingos: moves of the seat, not bingos themselves,
	// whose bingos score no more than the best move's equity allows.
	for i, ss := range sum.Seats {
		if ss.MissedBingos == nil {
			t.Errorf("seat %d: missed bingos null, want a list", i)
		}
		for _, mb := range ss.MissedBingos {
			var an Analysis
			if code := e.do("GET", "/api/games/"+id+"/analysis?move="+itoa(mb.Move)+"&n=1", "", nil, &an); code != 200 || an.Seat != i {
				t.Fatalf("analysis of move %d: %d, seat %d", mb.Move, code, an.Seat)
			}
			if len(mb.Bingos) == 0 || mb.Played != an.Played.Move || len(an.Played.Tiles) == 7 || mb.Bingos[0].Equity > an.Best[0].Equity+0.001 ||
				len(an.Bingos) != len(mb.Bingos) || an.Bingos[0].Move != mb.Bingos[0].Move {
				t.Errorf("seat %d's missed bingo %+v; the analysis says %+v, best %+v", i, mb, an.Played, an.Best[0])
			}
		}
	}
	// A second ask is answered from the summary worked out once.
	var again Summary
	if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &again); code != 200 || mustJSON(again) != mustJSON(sum) {
		t.Errorf("second summary: %d %+v", code, again)
	}
}

// TestBingoOf checks how a bingo is written: its main word as played
// (a blank in lowercase) and the word's alphagram as the word study
// spells it (a blank as its letter, Spanish digraphs as one tile).
func TestBingoOf(t *testing.T) {
	for _, tc := range []struct{ variant, word, wantWord, wantAlphagram string }{
		{"english", "RETINAs", "RETINAs", "AEINRST"},
		{"english", "QUIXOTE", "QUIXOTE", "EIOQTUX"},
		{"spanish", "CHALECOs", "CHALECOs", "AC[CH]ELOS"},
		{"spanish", "LLAMAR[RR]", "LLAMARRR", ""},
	} {
		v := variant.MustLoad(tc.variant)
		ts, err := v.Alphabet.Parse(tc.word, alphabet.WithBlanks)
		if err != nil {
			t.Fatalf("%s: %v", tc.word, err)
		}
		b := bingoOf(v, &review.Candidate{Word: ts, Text: "8D " + tc.word, Equity: 81.5, Move: move.Move{Score: 76}})
		if b.Word != tc.wantWord || tc.wantAlphagram != "" && b.Alphagram != tc.wantAlphagram || b.Score != 76 || b.Equity != 81.5 || b.Move != "8D "+tc.word {
			t.Errorf("%s %s: %+v, want word %q and alphagram %q", tc.variant, tc.word, b, tc.wantWord, tc.wantAlphagram)
		}
		// The alphagram reads back as the word's letters, sorted.
		back, err := v.Alphabet.Parse(b.Alphagram, alphabet.Plain)
		if err != nil || len(back) != len(ts) || !slices.IsSorted(back) {
			t.Errorf("%s: alphagram %q reads back as %v, %v", tc.word, b.Alphagram, back, err)
		}
	}
}
