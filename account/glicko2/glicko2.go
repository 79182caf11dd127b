// Package glicko2 is Mark Glickman's Glicko-2 rating system ("Example of
// the Glicko-2 system", 2013): a rating, its deviation (how uncertain it
// is) and its volatility, updated from a rating period's results.
package glicko2

import "math"

// scale converts between the Glicko scale (1500-centred) and Glicko-2's.
const scale = 173.7178

// Defaults for a player with no rated games, and the bounds this server
// keeps a deviation within (as lichess does: a deviation never falls so
// low that ratings stop moving, nor rises above a new player's).
const (
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
	MinDeviation      = 45.0
	MaxDeviation      = DefaultDeviation
	// Tau constrains how fast volatility changes; Glickman suggests 0.3 to
	// 1.2, lichess uses 0.75.
	Tau = 0.75
	// ProvisionalDeviation is the deviation above which a rating is
	// provisional (as on lichess): the player has played too few rated
	// games, or not for a long time, for the rating to say much.
	ProvisionalDeviation = 110.0
)

// Rating is one player's rating on the Glicko scale.
type Rating struct {
	Rating     float64 // centred on 1500
	Deviation  float64 // RD: a 95% interval is Rating ± 2 RD
	Volatility float64 // σ: how erratic the player's results are
}

// New is a player's rating before any rated game.
func New() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// Result is one game's result against one opponent.
type Result struct {
	Opponent Rating  // the opponent's rating before the period
	Score    float64 // 1 win, 0.5 draw, 0 loss
}

// Idle is r after periods rating periods without games: the deviation
// grows by the volatility per period (step 6 of the paper), up to
// MaxDeviation. Fractions of a period count.
func Idle(r Rating, periods float64) Rating {
	if periods <= 0 {
		return r
	}
	phi := r.Deviation / scale
	phi = math.Sqrt(phi*phi + r.Volatility*r.Volatility*periods)
	r.Deviation = min(phi*scale, MaxDeviation)
	return r
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expect(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update is r after one rating period with these results (steps 2 to 8 of
// the paper) and volatility constraint tau. With no results only the
// deviation grows, as for an idle period. The deviation is not bounded
// here (Bounded does that), so the paper's example can be checked exactly.
func Update(r Rating, results []Result, tau float64) Rating {
	if len(results) == 0 {
		return Idle(r, 1)
	}
	mu, phi, sigma := (r.Rating-DefaultRating)/scale, r.Deviation/scale, r.Volatility
	var vinv, sum float64
	for _, res := range results {
		muj, phij := (res.Opponent.Rating-DefaultRating)/scale, res.Opponent.Deviation/scale
		gj, e := g(phij), expect(mu, muj, phij)
		vinv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	sigma = volatility(phi, sigma, v, delta, tau)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	return Rating{Rating: mu*scale + DefaultRating, Deviation: phi * scale, Volatility: sigma}
}

// Bounded is r with its deviation within MinDeviation..MaxDeviation.
func Bounded(r Rating) Rating {
	r.Deviation = min(max(r.Deviation, MinDeviation), MaxDeviation)
	return r
}

// volatility is the new σ (step 5 of the paper: the Illinois algorithm).
func volatility(phi, sigma, v, delta, tau float64) float64 {
	const epsilon = 0.000001
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
