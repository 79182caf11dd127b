package dots

import (
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// greedy is the baseline opponent: it takes a box whenever it can, and
// otherwise draws a random line that hands no box over, if there is one.
type greedy struct{ rng rules.Rand }

func (gr greedy) Choose(s rules.Seat) (rules.Move, error) {
	gm := s.Game().(*Game)
	pos := position{b: gm.b, drawn: gm.drawn}
	if caps := pos.captures(); len(caps) > 0 {
		return gm.b.lineMove(caps[gr.rng.IntN(len(caps))]), nil
	}
	var safe, any []int
	for l := range gm.b.nLines {
		if gm.drawn.has(l) {
			continue
		}
		any = append(any, l)
		if pos.safe(l) {
			safe = append(safe, l)
		}
	}
	if len(safe) > 0 {
		return gm.b.lineMove(safe[gr.rng.IntN(len(safe))]), nil
	}
	return gm.b.lineMove(any[gr.rng.IntN(len(any))]), nil
}

// mustNew starts a game or fails the test.
func mustNew(t testing.TB, players, rows, cols int) *Game {
	t.Helper()
	g, err := newFromOptions(players, rules.Options{OptRows: itoa(rows), OptCols: itoa(cols)})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func itoa(n int) string { return string(rune('0' + n)) }

// play plays text moves (seat to move each time) and fails on any error.
func play(t testing.TB, g *Game, moves ...string) []rules.Step {
	t.Helper()
	var steps []rules.Step
	for _, text := range moves {
		m, err := g.ParseMove(g.turn, text)
		if err != nil {
			t.Fatalf("parse %q: %v", text, err)
		}
		if steps, err = g.Play(g.turn, m, steps[:0]); err != nil {
			t.Fatalf("play %q: %v", text, err)
		}
	}
	return steps
}

// match plays one game between bots seated in order and returns the scores.
func match(t testing.TB, g *Game, bots ...rules.Bot) []int {
	t.Helper()
	for !g.Over() {
		p := g.turn
		m, err := bots[p].Choose(rules.SeatOf(g, p))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatalf("bot %d chose %s: %v", p, g.FormatMove(m), err)
		}
	}
	return g.Scores(nil)
}

// botVersusGreedy plays games on 4x4 dots, the bot (searching at most
// budget positions a move) moving first in every other game, and returns
// the bot's wins.
func botVersusGreedy(t testing.TB, games int, budget int64) int {
	bot := NewBotBudget(rand.New(rand.NewPCG(1, 1)), budget)
	opp := greedy{rand.New(rand.NewPCG(2, 2))}
	wins := 0
	for i := range games {
		g := mustNew(t, 2, 4, 4)
		me := i % 2
		bots := []rules.Bot{bot, opp}
		if me == 1 {
			bots = []rules.Bot{opp, bot}
		}
		s := match(t, g, bots...)
		if s[me] > s[1-me] {
			wins++
		}
	}
	return wins
}
