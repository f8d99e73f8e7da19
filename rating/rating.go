// Package rating implements the Glicko-2 rating system.
//
// The algorithm follows Mark E. Glickman, "Example of the Glicko-2 system"
// (Boston University, 2013); the step numbers in the comments below are the
// steps of that paper. Ratings are kept on the original Glicko scale (a
// newcomer is 1500 with deviation 350) and converted to the Glicko-2 scale
// only while they are updated.
package rating

import (
	"fmt"
	"math"
)

// Rating is a player's rating on the Glicko scale: R is the rating itself
// (1500 for a newcomer), RD its rating deviation (how uncertain R is), and
// Vol its volatility (how erratic the player's results are).
type Rating struct{ R, RD, Vol float64 }

// Default values of a new rating, and bounds on the rating deviation.
const (
	// DefaultR is the rating of a newcomer.
	DefaultR = 1500
	// DefaultRD is the rating deviation of a newcomer.
	DefaultRD = 350
	// DefaultVol is the volatility of a newcomer.
	DefaultVol = 0.06
	// DefaultTau is the system constant that limits how fast volatility
	// changes; the paper suggests values between 0.3 and 1.2.
	DefaultTau = 0.5
	// MinRD is the lowest rating deviation an update can give, so that a
	// rating never becomes so certain that it stops moving.
	MinRD = 30
	// MaxRD is the highest rating deviation an update can give: that of a
	// newcomer, about whom nothing is known.
	MaxRD = 350
)

const (
	scale     = 173.7178 // ratio between the Glicko and Glicko-2 scales
	tolerance = 0.000001 // convergence tolerance of step 5
	maxIter   = 100      // iteration cap of the loops of step 5
)

// New returns the rating of a newcomer: 1500, with deviation 350 and
// volatility 0.06.
func New() Rating { return Rating{DefaultR, DefaultRD, DefaultVol} }

// Result is the outcome of one game against Opponent (the opponent's rating
// before the game). Score is 1 for a win, 0.5 for a draw and 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// ProvisionalRD is the rating deviation above which a rating is
// provisional: too uncertain yet to be read as the player's strength. A
// newcomer's falls under it after about ten games against established
// players; the pages mark a provisional rating with a "?".
const ProvisionalRD = 110

// Provisional reports whether r is provisional: its RD is above
// ProvisionalRD.
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// Conservative is R - 2*RD, a figure for leaderboards that ranks uncertain
// ratings lower.
func (r Rating) Conservative() float64 { return r.R - 2*r.RD }

// g is the g function of step 3, which discounts a game against an
// opponent whose rating is uncertain.
func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// e is the E function of step 3: the expected score of a player rated mu
// against an opponent rated muj with deviation phij (Glicko-2 scale).
func e(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Expected is a's expected score against b, between 0 and 1: the E function
// of the paper, which takes into account b's deviation but not a's.
func Expected(a, b Rating) float64 {
	return e((a.R-DefaultR)/scale, (b.R-DefaultR)/scale, b.RD/scale)
}

// Idle returns p after t rating periods without games: its deviation grows
// as in step 6, to sqrt(RD^2 + t*(scale*Vol)^2), capped at MaxRD, while R and
// Vol stay. t may be fractional; if t <= 0, p is returned unchanged.
func Idle(p Rating, t float64) Rating {
	if !(t > 0) {
		return p
	}
	phi, sigma := p.RD/scale, p.Vol
	p.RD = math.Min(scale*math.Sqrt(phi*phi+t*sigma*sigma), MaxRD)
	return p
}

// check reports whether r is a valid rating: finite, with positive deviation
// and volatility.
func check(what string, r Rating) error {
	for _, x := range []float64{r.R, r.RD, r.Vol} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("rating: %s %+v is not finite", what, r)
		}
	}
	if r.RD <= 0 || r.Vol <= 0 {
		return fmt.Errorf("rating: %s %+v has a deviation or volatility that is not positive", what, r)
	}
	return nil
}

// Update returns p's rating after one rating period in which p played the
// games of results (steps 1 to 8 of the paper). With no results only the
// deviation grows, as step 6 prescribes. tau is the system constant
// (DefaultTau if tau <= 0). The new deviation is kept between MinRD and
// MaxRD. Update returns an error if a Score is outside [0, 1], if any
// number is NaN or infinite, or if any rating has RD <= 0 or Vol <= 0.
func Update(p Rating, results []Result, tau float64) (Rating, error) {
	// Step 1: check the input and pick the system constant.
	if err := check("player", p); err != nil {
		return Rating{}, err
	}
	for i, res := range results {
		if err := check("opponent", res.Opponent); err != nil {
			return Rating{}, err
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return Rating{}, fmt.Errorf("rating: score %v of result %d is not between 0 and 1", res.Score, i)
		}
	}
	if math.IsNaN(tau) || math.IsInf(tau, 0) {
		return Rating{}, fmt.Errorf("rating: system constant %v is not finite", tau)
	}
	if tau <= 0 {
		tau = DefaultTau
	}
	if len(results) == 0 {
		// Step 6 alone: a player who does not compete only grows less certain.
		q := Idle(p, 1)
		q.RD = math.Max(q.RD, MinRD)
		return q, nil
	}

	// Step 2: convert to the Glicko-2 scale.
	mu, phi, sigma := (p.R-DefaultR)/scale, p.RD/scale, p.Vol

	// Steps 3 and 4: the estimated variance v of the rating from the game
	// outcomes alone, and the estimated improvement delta.
	var invV, sum float64
	for _, res := range results {
		muj, phij := (res.Opponent.R-DefaultR)/scale, res.Opponent.RD/scale
		gj, ej := g(phij), e(mu, muj, phij)
		invV += gj * gj * ej * (1 - ej)
		sum += gj * (res.Score - ej)
	}
	v := 1 / invV
	delta := v * sum

	// Step 5: the new volatility, solving f(x) = 0 with the Illinois
	// algorithm.
	// Step 5.1: a = ln(sigma^2), written so that a tiny sigma cannot
	// underflow to ln(0).
	a := 2 * math.Log(sigma)
	phi2, d2, tau2 := phi*phi, delta*delta, tau*tau
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := phi2 + v + ex
		return ex*(d2-phi2-v-ex)/(2*den*den) - (x-a)/tau2
	}
	// Step 5.2: initial bracket [A, B].
	A, B := a, 0.0
	if d2 > phi2+v {
		B = math.Log(d2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < maxIter {
			k++
		}
		B = a - k*tau
	}
	// Step 5.3.
	fA, fB := f(A), f(B)
	// Step 5.4: narrow the bracket until it is within the tolerance.
	for i := 0; i < maxIter && math.Abs(B-A) > tolerance && fA != fB; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	// Step 5.5.
	newSigma := math.Exp(A / 2)

	// Step 6: the pre-rating-period deviation.
	phiStar := math.Sqrt(phi2 + newSigma*newSigma)

	// Step 7: the new deviation and rating.
	newPhi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	newMu := mu + newPhi*newPhi*sum

	// Step 8: back to the Glicko scale.
	q := Rating{
		R:   scale*newMu + DefaultR,
		RD:  math.Min(math.Max(scale*newPhi, MinRD), MaxRD),
		Vol: newSigma,
	}
	if err := check("result", q); err != nil {
		return Rating{}, fmt.Errorf("rating: numerical failure updating %+v: %w", p, err)
	}
	return q, nil
}

// Game rates one game between a and b as a rating period of its own for
// both players, each updated against the other's rating before the game,
// with the system constant DefaultTau. scoreA is a's score (1, 0.5 or 0);
// b's score is 1-scoreA. It returns the new ratings of a and b.
func Game(a, b Rating, scoreA float64) (Rating, Rating, error) {
	na, err := Update(a, []Result{{Opponent: b, Score: scoreA}}, DefaultTau)
	if err != nil {
		return Rating{}, Rating{}, err
	}
	nb, err := Update(b, []Result{{Opponent: a, Score: 1 - scoreA}}, DefaultTau)
	if err != nil {
		return Rating{}, Rating{}, err
	}
	return na, nb, nil
}
