package glicko2

import (
	"math"
	"testing"
)

// The worked example of Glickman's "Example of the Glicko-2 system": a
// 1500/200 player beats a 1400/30 player and loses to 1550/100 and
// 1700/300 players, with tau 0.5.
func TestPaperExample(t *testing.T) {
	r := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := Update(r, []Result{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	}, 0.5)
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.Deviation-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 0.00001 {
		t.Fatalf("got %.2f/%.2f/%.5f, the paper has 1464.06/151.52/0.05999", got.Rating, got.Deviation, got.Volatility)
	}
}

func TestWinnerGainsLoserLoses(t *testing.T) {
	a, b := New(), New()
	a2 := Update(a, []Result{{Opponent: b, Score: 1}}, Tau)
	b2 := Update(b, []Result{{Opponent: a, Score: 0}}, Tau)
	if a2.Rating <= a.Rating || b2.Rating >= b.Rating {
		t.Fatalf("winner %v, loser %v", a2, b2)
	}
	if math.Abs((a2.Rating-1500)+(b2.Rating-1500)) > 1e-9 {
		t.Fatalf("equal players do not move symmetrically: %v %v", a2, b2)
	}
	if a2.Deviation >= a.Deviation {
		t.Fatalf("a game did not make the rating surer: %v", a2)
	}
	d := Update(a, []Result{{Opponent: b, Score: 0.5}}, Tau)
	if math.Abs(d.Rating-1500) > 1e-9 {
		t.Fatalf("a draw between equals moved the rating: %v", d)
	}
}

func TestIdleAndBounds(t *testing.T) {
	r := Rating{Rating: 1800, Deviation: 50, Volatility: 0.06}
	if got := Idle(r, 30); got.Deviation <= 50 || got.Rating != 1800 {
		t.Fatalf("30 idle periods: %v", got)
	}
	if got := Idle(r, 1e9); got.Deviation != MaxDeviation {
		t.Fatalf("a very long absence: %v", got)
	}
	if got := Bounded(Rating{Deviation: 10}); got.Deviation != MinDeviation {
		t.Fatalf("bounded: %v", got)
	}
	if got := Update(r, nil, Tau); got.Deviation <= 50 {
		t.Fatalf("a period without games: %v", got)
	}
}

func BenchmarkUpdate(b *testing.B) {
	r, o := New(), Rating{Rating: 1600, Deviation: 80, Volatility: 0.06}
	res := []Result{{Opponent: o, Score: 1}}
	for b.Loop() {
		r = Bounded(Update(r, res, Tau))
	}
}
