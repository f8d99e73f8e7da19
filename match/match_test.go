package match

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"atril/internal/testgame"
	"atril/movegen"
	"atril/player"
	"atril/player/leave"
)

func config(t *testing.T, p1, p2 string, games int, seed uint64) Config {
	t.Helper()
	v, lex, err := testgame.ShortEnglish(3)
	if err != nil {
		t.Fatal(err)
	}
	o := player.Options{EndgameNodes: 200, Candidates: 3, Iterations: 4}
	return Config{Variant: v, Lexicon: lex, Generator: movegen.NewBrute(lex), Players: [2]string{p1, p2},
		Options: [2]player.Options{o, o}, Games: games, Seed: seed}
}

// TestReproducible plays the same short match with one and two threads
// and with a different seed.
func TestReproducible(t *testing.T) {
	c := config(t, "inhuman", "professional", 4, 42)
	c.Threads = 1
	c.Leaves = true
	a, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Threads = 2
	b, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Games {
		x, y := a.Games[i], b.Games[i]
		if x.Score != y.Score || x.Turns != y.Turns || x.Moves != y.Moves || x.First != y.First {
			t.Errorf("game %d differs between 1 and 2 threads: %+v vs %+v", i, x, y)
		}
		if x.First != i%2 {
			t.Errorf("game %d: player %d started, want alternating", i, x.First+1)
		}
	}
	c.Seed = 43
	d, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for i := range a.Games {
		same = same && a.Games[i].Score == d.Games[i].Score
	}
	if same {
		t.Error("seeds 42 and 43 gave the same games")
	}
	if len(a.Samples) == 0 {
		t.Error("no leave samples collected")
	}
	var buf bytes.Buffer
	if err := a.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wins (%)", "points/turn", "bingos/game", "95% CI", "spread"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := a.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 5 {
		t.Errorf("csv has %d lines, want a header and 4 games", n)
	}
	png := filepath.Join(t.TempDir(), "scores.png")
	if err := a.Plot(png); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(png); err != nil || fi.Size() < 1000 {
		t.Errorf("plot not written: %v", err)
	}
	if _, err := leave.Learn("t", c.Variant.Alphabet, a.Samples, 1); err != nil {
		t.Error(err)
	}
}

// TestEndgameGenerator plays godlike games with a second generator for
// the endgame searches, forked per thread (run under the race detector
// in CI): the same games as with one generator.
func TestEndgameGenerator(t *testing.T) {
	c := config(t, "godlike", "inhuman", 4, 44)
	c.Threads = 2
	a, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	c.EndgameGenerator = movegen.NewGaddag(c.Lexicon)
	b, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Games {
		x, y := a.Games[i], b.Games[i]
		if x.Score != y.Score || x.Turns != y.Turns || x.Moves != y.Moves {
			t.Errorf("game %d differs with the endgame generator: %+v vs %+v", i, x, y)
		}
	}
}

func TestSummaries(t *testing.T) {
	r := &Report{Config: Config{Players: [2]string{"a", "b"}}, Games: []Game{
		{Score: [2]int{300, 200}, Turns: [2]int{10, 10}, Bingos: [2]int{1, 0}},
		{Score: [2]int{250, 250}, Turns: [2]int{10, 10}},
		{Score: [2]int{100, 400}, Turns: [2]int{10, 10}},
	}}
	s := r.Summaries()
	if s[0].Wins != 1 || s[1].Wins != 1 || s[0].Ties != 1 {
		t.Errorf("wins %d/%d ties %d", s[0].Wins, s[1].Wins, s[0].Ties)
	}
	if s[0].PointsTurn != 650.0/30 {
		t.Errorf("points/turn %v", s[0].PointsTurn)
	}
	rate, lo, hi := r.WinRate()
	if rate != 0.5 || !(lo < 0.5 && hi > 0.5) {
		t.Errorf("win rate %v [%v, %v]", rate, lo, hi)
	}
	mean, _ := r.Spread()
	if mean != -200.0/3 {
		t.Errorf("spread %v", mean)
	}
}

func TestWilson(t *testing.T) {
	// 50 of 100: the interval is about ±9.7 points.
	_, lo, hi := Wilson(50, 100)
	if lo < 0.40 || lo > 0.41 || hi < 0.59 || hi > 0.60 {
		t.Errorf("Wilson(50,100) = [%v, %v], want about [0.404, 0.596]", lo, hi)
	}
	if _, lo, _ := Wilson(0, 10); lo != 0 {
		t.Errorf("Wilson(0,10) lower bound %v, want 0", lo)
	}
}
