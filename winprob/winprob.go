// Package winprob estimates the winning chances of a two-player game
// from its score and the tiles still to be played.
//
// The model: the player on turn, with a lead of spread points (negative
// when behind) and n tiles not yet on the board (the bag and both
// racks), wins with the chance 1/(1 + e^−z), z = (spread + Turn) /
// (Scale·n^Power): being on turn is worth Turn points, and a lead counts
// for more as fewer tiles remain. The three numbers are fitted by
// maximum likelihood to the positions of the computer's self-play (Fit),
// per variant, so the chances are those of two strong static players: a
// weaker player's lead is less safe. (A normal curve in place of the
// logistic one, or a spread fitted for each stretch of seven tiles in
// place of Scale·n^Power, fit no better: bench/results/winprob.txt.)
package winprob

import (
	"fmt"
	"math"
	"slices"

	"atril/game"
	"atril/move"
	"atril/variant"
)

// Model is a fitted model (see the package's comment).
type Model struct {
	Scale float64
	Power float64
	Turn  float64
}

// Win is the chance that the player on turn wins (a tie counting half),
// with spread its score less its opponent's and left the tiles not yet
// on the board.
func (m Model) Win(spread float64, left int) float64 {
	sd := m.Scale * math.Pow(float64(left), m.Power)
	if sd <= 0 {
		switch d := spread + m.Turn; {
		case d > 0:
			return 1
		case d < 0:
			return 0
		}
		return 0.5
	}
	z := (spread + m.Turn) / sd
	return 1 / (1 + math.Exp(-z))
}

// Models are the fitted models of the embedded variants, by name. Each
// was fitted to 20,000 games of inhuman self-play with its default leave
// table (about 450,000 positions) by `atril winprob --variant V --games
// 20000 --seed 1` (bench/results/winprob.txt, which holds the fits'
// calibration on games they did not see: within 1.2 points of the chance
// in every tenth of it, in English).
var Models = map[string]Model{
	"english": {Scale: 4.223, Power: 0.589, Turn: 19.79},
	"spanish": {Scale: 5.182, Power: 0.589, Turn: 20.75},
	"czech":   {Scale: 3.377, Power: 0.599, Turn: 12.42},
}

// For returns the model of variant v (false when none was fitted for
// it, or when it is not a two-player game's).
func For(v *variant.Variant, players int) (Model, bool) {
	m, ok := Models[v.Name]
	return m, ok && players == 2
}

// Rough returns the model of variant v, or, for a variant without one,
// the English one: a rough estimate where none was fitted (and, with
// more than two players, of the chance against the best of the others).
func Rough(v *variant.Variant) Model {
	if m, ok := Models[v.Name]; ok {
		return m
	}
	return Models["english"]
}

// Sample is a position before a move of a finished game: the spread of
// the player on turn, the tiles not yet on the board, and how the game
// ended for that player (1 won, 0.5 tied, 0 lost).
type Sample struct {
	Spread int
	Left   int
	Result float64
}

// position is a game's score and tiles on the board, followed turn by
// turn through its history.
type position struct {
	scores  [2]int
	onBoard int
}

// follow applies turn t.
func (p *position) follow(t *game.Turn) {
	p.scores[t.Player] = t.Total
	switch {
	case t.Kind == game.Played && t.Move.Kind == move.Place:
		p.onBoard += t.Move.NewTiles()
	case t.Kind == game.Withdrawn:
		p.onBoard -= t.Move.NewTiles()
	}
}

// results are how a finished two-player game ended for each seat.
func results(winners []int) ([2]float64, error) {
	var r [2]float64
	switch len(winners) {
	case 1:
		r[winners[0]] = 1
	case 2:
		r = [2]float64{0.5, 0.5}
	default:
		return r, fmt.Errorf("winprob: %d winners", len(winners))
	}
	return r, nil
}

// Samples returns the positions before the moves of a finished
// two-player game.
func Samples(g *game.Game) ([]Sample, error) {
	if len(g.Seats) != 2 || !g.Over() {
		return nil, fmt.Errorf("winprob: a finished game of two players is needed, not one of %d (over: %v)", len(g.Seats), g.Over())
	}
	res, err := results(g.Winners())
	if err != nil {
		return nil, err
	}
	total := g.Variant.TotalTiles()
	var p position
	var out []Sample
	for i := range g.History {
		t := &g.History[i]
		if t.Kind == game.Played {
			me := t.Player
			out = append(out, Sample{Spread: p.scores[me] - p.scores[1-me], Left: total - p.onBoard, Result: res[me]})
		}
		p.follow(t)
	}
	return out, nil
}

// Series returns the chance of seat 0 of a two-player game winning
// before its first move and after each turn of history, by model m, with
// total tiles in the game. When winners is not nil the game is over and
// the last figure is its result.
func (m Model) Series(history []game.Turn, total int, winners []int) []float64 {
	var p position
	onTurn := 0
	if k := slices.IndexFunc(history, func(t game.Turn) bool { return t.Kind == game.Played }); k >= 0 {
		onTurn = history[k].Player
	}
	chance := func() float64 {
		w := m.Win(float64(p.scores[onTurn]-p.scores[1-onTurn]), total-p.onBoard)
		if onTurn == 1 {
			w = 1 - w
		}
		return w
	}
	out := []float64{chance()}
	for i := range history {
		t := &history[i]
		p.follow(t)
		if t.Kind == game.Played || t.Kind == game.LostTurn {
			onTurn = 1 - t.Player
		}
		out = append(out, chance())
	}
	if winners != nil {
		if res, err := results(winners); err == nil {
			out[len(out)-1] = res[0]
		}
	}
	return out
}

// LogLoss is the mean log loss of model m's chances over samples (a tie
// scored as half a win and half a loss).
func (m Model) LogLoss(samples []Sample) float64 {
	const eps = 1e-9
	var sum float64
	for _, s := range samples {
		w := min(max(m.Win(float64(s.Spread), s.Left), eps), 1-eps)
		sum -= s.Result*math.Log(w) + (1-s.Result)*math.Log(1-w)
	}
	return sum / float64(len(samples))
}

// Fit returns the model of the least log loss over samples, searched
// coordinate by coordinate from start (golden-section searches, until no
// coordinate moves more than a thousandth of its range), and its loss.
func Fit(samples []Sample, start Model) (Model, float64) {
	m := start
	type coord struct {
		get    func(*Model) *float64
		lo, hi float64
	}
	coords := []coord{
		{func(m *Model) *float64 { return &m.Scale }, 1, 60},
		{func(m *Model) *float64 { return &m.Power }, 0.1, 1.5},
		{func(m *Model) *float64 { return &m.Turn }, -20, 60},
	}
	loss := m.LogLoss(samples)
	for range 30 {
		moved := false
		for _, c := range coords {
			f := func(x float64) float64 {
				t := m
				*c.get(&t) = x
				return t.LogLoss(samples)
			}
			x := golden(f, c.lo, c.hi, (c.hi-c.lo)/1000)
			if l := f(x); l < loss {
				if math.Abs(x-*c.get(&m)) > (c.hi-c.lo)/1000 {
					moved = true
				}
				*c.get(&m), loss = x, l
			}
		}
		if !moved {
			break
		}
	}
	return m, loss
}

// golden returns the x of [lo, hi] where f is least, to within tol, for
// an f with one minimum there.
func golden(f func(float64) float64, lo, hi, tol float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	a, b := lo, hi
	c, d := b-r*(b-a), a+r*(b-a)
	fc, fd := f(c), f(d)
	for b-a > tol {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - r*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + r*(b-a)
			fd = f(d)
		}
	}
	return (a + b) / 2
}

// Bin is a range of predicted chances: the samples whose chance fell in
// it, their mean chance and how often the player on turn won (ties
// half).
type Bin struct {
	From, To  float64
	Samples   int
	Predicted float64
	Won       float64
}

// Calibration sorts samples by model m's chance into n equal bins of
// chance and says, for each, how often the player on turn won.
func (m Model) Calibration(samples []Sample, n int) []Bin {
	bins := make([]Bin, n)
	for i := range bins {
		bins[i].From, bins[i].To = float64(i)/float64(n), float64(i+1)/float64(n)
	}
	for _, s := range samples {
		w := m.Win(float64(s.Spread), s.Left)
		k := min(int(w*float64(n)), n-1)
		bins[k].Samples++
		bins[k].Predicted += w
		bins[k].Won += s.Result
	}
	for i := range bins {
		if b := &bins[i]; b.Samples > 0 {
			b.Predicted /= float64(b.Samples)
			b.Won /= float64(b.Samples)
		}
	}
	return slices.DeleteFunc(bins, func(b Bin) bool { return b.Samples == 0 })
}
