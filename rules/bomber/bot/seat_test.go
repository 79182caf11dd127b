package bot

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/rulestest"
)

// duel plays a whole game between two SeatBots on the real rules, each
// given only rules.SeatOf, and returns the finished game.
func duel(t *testing.T, seed uint64) *bomber.Game {
	t.Helper()
	g := bomber.New(rules.Player(seed % 2))
	bots := [2]*SeatBot{NewSeatBot(rand.New(rand.NewPCG(seed, 0))), NewSeatBot(rand.New(rand.NewPCG(seed, 1)))}
	for range 2 * MaxGuesses {
		to := g.ToMove(nil)
		if len(to) == 0 {
			return g
		}
		p := to[0]
		m, err := bots[p].Choose(rules.SeatOf(g, p))
		if err != nil {
			t.Fatalf("seed %d: bot %d: %v", seed, p, err)
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatalf("seed %d: bot %d's move %q refused: %v", seed, p, g.FormatMove(m), err)
		}
	}
	t.Fatalf("seed %d: no winner after %d guesses each", seed, MaxGuesses)
	return nil
}

func TestSeatBotWinsWholeGames(t *testing.T) {
	const games = 12
	total := 0
	for i := range games {
		g := duel(t, uint64(i))
		w, over := g.Winner()
		if !over || g.Revealed(1-w).Len() != bomber.WinCells {
			t.Fatalf("game %d: winner %d over %v with %d cells revealed", i, w, over, g.Revealed(1-w).Len())
		}
		n := g.Guesses(w)
		// A sweep of singles alone needs up to 100 guesses; the Guesser
		// averages about 14 on its own.
		if n > 40 {
			t.Errorf("game %d: the winner needed %d guesses", i, n)
		}
		total += n
	}
	if mean := float64(total) / games; mean > 18 {
		t.Errorf("winners needed %.1f guesses on average, want a Guesser's ~14", mean)
	}
}

// The bot rebuilds its observations from the redacted game alone: they must
// be those a Guesser told every result as it came would hold.
func TestObservedMatchesAGuesserToldEachResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for game := range 6 {
		g := bomber.New(0)
		g.SetBoard(0, RandomBoard(rng))
		g.SetBoard(1, RandomBoard(rng))
		told := NewGuesser(rand.New(rand.NewPCG(uint64(game), 3)))
		for g.Phase() == bomber.Guessing {
			q := told.Next()
			if q.Double {
				right, err := g.Double(0, q.Plane.Head, q.Plane.Tail)
				if err != nil {
					t.Fatal(err)
				}
				told.ObserveDouble(q.Plane, right)
			} else {
				r, err := g.Single(0, q.Cell)
				if err != nil {
					t.Fatal(err)
				}
				told.ObserveSingle(q.Cell, r)
			}
			seat := rules.SeatOf(g, 0).Game().(*bomber.Game)
			got := Observed(seat, 0, rand.New(rand.NewPCG(1, 1)))
			if got.Candidates() != told.Candidates() || got.Done() != told.Done() || got.revealed != told.revealed || got.tried != told.tried {
				t.Fatalf("game %d after %d guesses: rebuilt guesser has %d candidates (done %v), the one told each result %d (done %v)",
					game, g.Guesses(0), got.Candidates(), got.Done(), told.Candidates(), told.Done())
			}
			if g.Phase() == bomber.Guessing {
				g.Miss(1)
			}
		}
	}
}

func TestSeatBotRefusesWhenNotToMove(t *testing.T) {
	g := bomber.New(0)
	b := NewSeatBot(rand.New(rand.NewPCG(1, 2)))
	m, err := b.Choose(rules.SeatOf(g, 1))
	if err != nil || m.Kind != bomber.KindBoard {
		t.Fatalf("drawing: %+v %v, want a board", m, err)
	}
	if _, err := g.Play(1, m, nil); err != nil {
		t.Fatalf("the bot's board was refused: %v", err)
	}
	if _, err := b.Choose(rules.SeatOf(g, 1)); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("board placed, other seat drawing: err %v, want ErrNotYourTurn", err)
	}
	g.Play(1, rules.Move{Kind: rules.KindResign}, nil)
	if _, err := b.Choose(rules.SeatOf(g, 0)); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("after the end: err %v, want ErrGameOver", err)
	}
}

func TestConformanceWithSeatBots(t *testing.T) {
	rulestest.Conformance(t, bomber.Spec(), rulestest.Config{Games: 1, BotGames: 2, Seed: 900,
		Bot: func(p rules.Player, seed uint64) rules.Bot {
			return NewSeatBot(rand.New(rand.NewPCG(seed, uint64(p))))
		}})
}
