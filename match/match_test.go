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

// TestJudge checks Config.Judge: every move of both players judged, in
// pairs of games with the seats swapped too; inhuman, which ranks moves
// by the judge's own valuation, plays the top choice every time, and
// the professional, which takes the highest score whatever it keeps, does
// not; the report's table says so.
func TestJudge(t *testing.T) {
	for _, paired := range []bool{false, true} {
		c := config(t, "inhuman", "professional", 6, 7)
		c.Paired, c.Threads = paired, 2
		table, err := leave.Load(c.Variant, "default", 0)
		if err != nil || table == nil {
			t.Fatalf("the default table: %v", err)
		}
		c.Judge = table
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range r.Games {
			for k := range 2 {
				if g.Judged[k] != g.Turns[k] || g.Lost[k] < 0 || g.Top[k] > g.Judged[k] {
					t.Errorf("paired %v, game %d, player %d: %d turns, %d judged, %d top, %.2f lost", paired, i, k+1, g.Turns[k], g.Judged[k], g.Top[k], g.Lost[k])
				}
			}
			if g.Top[0] != g.Judged[0] || g.Lost[0] != 0 {
				t.Errorf("paired %v, game %d: inhuman played the top choice %d times of %d, gave up %.2f", paired, i, g.Top[0], g.Judged[0], g.Lost[0])
			}
		}
		s := r.Summaries()
		if s[0].TopPct != 100 || s[0].LostPerMove != 0 || s[1].TopPct >= 100 || s[1].LostPerMove <= 0 || s[1].Judged != s[1].Turns {
			t.Errorf("paired %v: summaries %+v", paired, s)
		}
		var b bytes.Buffer
		if err := r.WriteTable(&b); err != nil || !strings.Contains(b.String(), "| static top choice (%)  |      100.0 |") {
			t.Errorf("paired %v: the table lacks inhuman's top choices: %v\n%s", paired, err, b.String())
		}
	}
	// Without a judge, nothing is judged and the table has no such row.
	r, err := Run(config(t, "inhuman", "professional", 2, 7))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteTable(&b); err != nil || r.Games[0].Judged != [2]int{} || strings.Contains(b.String(), "top choice") {
		t.Errorf("without a judge: %+v, %v\n%s", r.Games[0], err, b.String())
	}
}
