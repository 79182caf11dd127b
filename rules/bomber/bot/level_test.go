package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules/bomber"
)

// TestLevelsPlayWeakerInOrder: over the same 30 boards, easy needs more
// guesses than medium and medium more than hard; every level wins every
// game, and easy never guesses a whole plane.
func TestLevelsPlayWeakerInOrder(t *testing.T) {
	const games = 30
	mean := map[Level]float64{}
	for _, l := range []Level{Easy, Medium, Hard} {
		boards := rand.New(rand.NewPCG(1, 2))
		total := 0
		for i := range games {
			g := NewLevelGuesser(rand.New(rand.NewPCG(3, uint64(i))), l)
			n := Play(g, RandomBoard(boards))
			if n >= MaxGuesses {
				t.Fatalf("%v: game %d not won in %d guesses", l, i, MaxGuesses)
			}
			total += n
		}
		mean[l] = float64(total) / games
	}
	t.Logf("mean guesses: easy %.1f, medium %.1f, hard %.1f", mean[Easy], mean[Medium], mean[Hard])
	if !(mean[Easy] > mean[Medium]+10 && mean[Medium] > mean[Hard]+3) {
		t.Errorf("levels not in order: easy %.1f, medium %.1f, hard %.1f guesses a game", mean[Easy], mean[Medium], mean[Hard])
	}
}

// TestEasyGuessesSinglesOnly: a beginner never declares a plane, even when
// one is certain.
func TestEasyGuessesSinglesOnly(t *testing.T) {
	g := NewLevelGuesser(rand.New(rand.NewPCG(5, 6)), Easy)
	hidden := RandomBoard(rand.New(rand.NewPCG(7, 8)))
	game := bomber.New(0)
	game.SetBoard(0, hidden)
	game.SetBoard(1, hidden)
	for range 100 {
		q := g.Next()
		if q.Double {
			t.Fatalf("easy guessed a whole plane %v", q.Plane)
		}
		r, err := game.Single(0, q.Cell)
		if err != nil {
			t.Fatalf("single %v: %v (a repeated cell?)", q.Cell, err)
		}
		g.ObserveSingle(q.Cell, r)
		if _, over := game.Winner(); over {
			return
		}
		game.Miss(1)
	}
	t.Fatal("easy did not win in 100 singles")
}

func TestParseLevel(t *testing.T) {
	for _, l := range []Level{Easy, Medium, Hard} {
		if got, err := ParseLevel(l.String()); got != l || err != nil {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), got, err)
		}
	}
	if _, err := ParseLevel("expert"); err == nil {
		t.Error("ParseLevel(expert) accepted")
	}
}
