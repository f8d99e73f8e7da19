package review

import (
	"math"

	"atril/board"
	"atril/player"
)

// Judgement is a verdict on a move played (player.Judge) as a review
// shows it, on board b before the move: the move played and the best
// found with their values (the simulation's mean spread to its horizon
// plus the leave there, the endgame's spread to the end of the game, or
// static values) and, for a simulation, their chances of winning in
// percent; values to a hundredth of a point.
type Judgement struct {
	Phase     string   `json:"phase"`
	Played    string   `json:"played"`
	Value     *float64 `json:"value"`
	Win       *float64 `json:"win,omitempty"`
	Best      string   `json:"best"`
	BestValue *float64 `json:"best_value"`
	BestWin   *float64 `json:"best_win,omitempty"`
	// Lost is what the played move gave up against the best (0 when it
	// was as good), of the rounded values.
	Lost       float64 `json:"lost"`
	Iterations int     `json:"iterations,omitempty"`
	// Exact is set for an endgame whose searches reached the end.
	Exact bool `json:"exact,omitempty"`
}

// Judged is the judgement of verdict vd, on board b before the move.
func Judged(b *board.Board, vd *player.Verdict) *Judgement {
	j := &Judgement{Phase: vd.Phase, Played: Text(b, &vd.Played.Move), Value: Hundredths(vd.Played.Mean),
		Best: Text(b, &vd.Best.Move), BestValue: Hundredths(vd.Best.Mean), Iterations: vd.Iterations, Exact: vd.Exact}
	j.setLost()
	if vd.Phase == "simulation" {
		j.Win, j.BestWin = Hundredths(100*vd.Played.Win), Hundredths(100*vd.Best.Win)
	}
	return j
}

// StaticJudgement is the judgement of a ranking by static equity (for a
// position no search can say more of: nothing unseen).
func StaticJudgement(r *Ranking) *Judgement {
	j := &Judgement{Phase: "static", Played: r.Played.Text, Value: Hundredths(r.Played.Equity),
		Best: r.Best[0].Text, BestValue: Hundredths(r.Best[0].Equity)}
	j.setLost()
	return j
}

// setLost works out Lost from the rounded values.
func (j *Judgement) setLost() {
	if j.Value != nil && j.BestValue != nil {
		j.Lost = math.Round(max(0, *j.BestValue-*j.Value)*100) / 100
	}
}

// Hundredths rounds x to 1/100, or is nil for a value a search could not
// estimate (a simulation whose time ran out before an iteration).
func Hundredths(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	x = math.Round(100*x) / 100
	return &x
}
