package winprob_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"atril/game"
	"atril/internal/testgame"
	"atril/movegen"
	"atril/player"
	"atril/winprob"
)

func TestWin(t *testing.T) {
	m := winprob.Model{Scale: 3.6, Power: 0.65, Turn: 20}
	if w := m.Win(0, 86); w <= 0.5 || w >= 0.7 {
		t.Errorf("level at the start: %.3f, want a little over half (on turn)", w)
	}
	even := winprob.Model{Scale: 3.6, Power: 0.65}
	for _, n := range []int{1, 14, 50, 93} {
		for _, s := range []float64{1, 10, 50, 200} {
			if a, b := even.Win(s, n), even.Win(-s, n); math.Abs(a+b-1) > 1e-12 || a <= 0.5 {
				t.Errorf("spread ±%.0f with %d tiles left: %.4f and %.4f", s, n, a, b)
			}
		}
	}
	// A lead counts for more as fewer tiles remain, and a larger lead
	// for more than a smaller one.
	if a, b := m.Win(30, 10), m.Win(30, 80); a <= b {
		t.Errorf("a 30-point lead: %.3f with 10 tiles left, %.3f with 80", a, b)
	}
	if a, b := m.Win(60, 40), m.Win(30, 40); a <= b {
		t.Errorf("with 40 tiles left: a 60-point lead %.3f, a 30-point one %.3f", a, b)
	}
	// No tiles left: the score decides.
	for _, tc := range []struct {
		spread float64
		want   float64
	}{{-25, 0}, {-20, 0.5}, {5, 1}} {
		if w := m.Win(tc.spread, 0); w != tc.want {
			t.Errorf("no tiles left, spread %.0f (turn worth 20): %.3f, want %.1f", tc.spread, w, tc.want)
		}
	}
}

// TestFitRecovers fits the model to positions drawn from a known one.
func TestFitRecovers(t *testing.T) {
	want := winprob.Model{Scale: 4, Power: 0.6, Turn: 15}
	r := rand.New(rand.NewPCG(1, 2))
	var samples []winprob.Sample
	for range 15000 {
		left := 1 + r.IntN(90)
		spread := int(r.NormFloat64() * 60)
		res := 0.0
		if r.Float64() < want.Win(float64(spread), left) {
			res = 1
		}
		samples = append(samples, winprob.Sample{Spread: spread, Left: left, Result: res})
	}
	got, loss := winprob.Fit(samples, winprob.Model{Scale: 10, Power: 0.5, Turn: 0})
	if math.Abs(got.Power-want.Power) > 0.08 || math.Abs(got.Turn-want.Turn) > 3 || math.Abs(got.Scale-want.Scale)/want.Scale > 0.3 {
		t.Errorf("fitted %+v, want about %+v", got, want)
	}
	if loss > want.LogLoss(samples)+1e-3 {
		t.Errorf("fitted loss %.5f above the true model's %.5f", loss, want.LogLoss(samples))
	}
	bins := got.Calibration(samples, 10)
	n := 0
	for _, b := range bins {
		n += b.Samples
		if b.Predicted < b.From || b.Predicted > b.To || math.Abs(b.Won-b.Predicted) > 0.05 {
			t.Errorf("bin %.1f–%.1f: predicted %.3f, won %.3f (%d)", b.From, b.To, b.Predicted, b.Won, b.Samples)
		}
	}
	if n != len(samples) {
		t.Errorf("the bins hold %d samples of %d", n, len(samples))
	}
}

// TestSamplesAndSeries follows real games: a sample before each move,
// the spread and tiles left as the game had them, and a series that
// starts near even and ends in the result.
func TestSamplesAndSeries(t *testing.T) {
	v, lex, err := testgame.ShortEnglish(4)
	if err != nil {
		t.Fatal(err)
	}
	m := winprob.Model{Scale: 3.6, Power: 0.65, Turn: 20}
	for seed := uint64(1); seed <= 4; seed++ {
		g, err := game.New(v, lex, []string{"1", "2"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		gen := movegen.NewBrute(lex)
		var bots [2]player.Player
		for i := range bots {
			if bots[i], err = player.New("professional", player.Options{Variant: v, Lexicon: lex, Generator: gen, Seed: seed}); err != nil {
				t.Fatal(err)
			}
		}
		var want []winprob.Sample
		placed := 0
		for !g.Over() {
			i := g.Current()
			want = append(want, winprob.Sample{Spread: g.Seats[i].Score - g.Seats[1-i].Score, Left: v.TotalTiles() - placed})
			mv := bots[i].Choose(player.ViewOf(g, i))
			placed += mv.NewTiles()
			if err := g.Play(mv); err != nil {
				t.Fatal(err)
			}
		}
		got, err := winprob.Samples(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(got) != g.MovesPlayed() {
			t.Fatalf("game %d: %d samples, %d moves", seed, len(got), g.MovesPlayed())
		}
		winners := g.Winners()
		for k := range got {
			mover := g.History[k].Player
			res := 0.0
			if len(winners) == 2 {
				res = 0.5
			} else if winners[0] == mover {
				res = 1
			}
			if got[k].Spread != want[k].Spread || got[k].Left != want[k].Left || got[k].Result != res {
				t.Fatalf("game %d, move %d: %+v, want %+v with result %.1f", seed, k, got[k], want[k], res)
			}
		}
		s := m.Series(g.History, v.TotalTiles(), winners)
		if len(s) != len(g.History)+1 || math.Abs(s[0]-m.Win(0, v.TotalTiles())) > 1e-12 {
			t.Errorf("game %d: series of %d for %d turns, first %.3f", seed, len(s), len(g.History), s[0])
		}
		if last := s[len(s)-1]; (len(winners) == 1 && last != map[int]float64{0: 1, 1: 0}[winners[0]]) || (len(winners) == 2 && last != 0.5) {
			t.Errorf("game %d: the series ends at %.3f, winners %v", seed, last, winners)
		}
		for k, w := range s {
			if w < 0 || w > 1 {
				t.Errorf("game %d: chance %.3f after turn %d", seed, w, k)
			}
		}
	}
	g, _ := game.New(v, lex, []string{"1", "2"}, 9)
	if _, err := winprob.Samples(g); err == nil {
		t.Error("the samples of a game not over: no error")
	}
}
