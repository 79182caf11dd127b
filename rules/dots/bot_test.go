package dots

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// TestBotBeatsGreedy: 100 games on 4x4 dots against a greedy box-taker,
// each side moving first in half of them; the bot must win at least 90.
func TestBotBeatsGreedy(t *testing.T) {
	if wins := botVersusGreedy(t, 100, DefaultBotBudget); wins < 90 {
		t.Errorf("bot won %d of 100 games against greedy, want at least 90", wins)
	}
}

// TestBotPlaysOptimally: wherever the bot solves, its move keeps the
// position's value as brute force computes it.
func TestBotPlaysOptimally(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range 30 {
		g := mustNew(t, 2, 4, 4)
		opp := greedy{rng}
		for g.left > 12+i%6 {
			m, _ := opp.Choose(rules.SeatOf(g, g.turn))
			play(t, g, g.FormatMove(m))
		}
		bf := bruteForce{g: gridGraph(g.b), memo: map[uint64]int{}}
		want := bf.value(g.drawn[0])
		m, err := NewBot(rng).Choose(rules.SeatOf(g, g.turn))
		if err != nil {
			t.Fatal(err)
		}
		mover := g.turn
		before := g.scores[mover]
		play(t, g, g.FormatMove(m))
		got := g.scores[mover] - before
		if g.turn == mover {
			got += bf.value(g.drawn[0])
		} else {
			got -= bf.value(g.drawn[0])
		}
		if got != want {
			t.Fatalf("bot's %s is worth %d, the best move %d", g.FormatMove(m), got, want)
		}
	}
}

// TestBotDoubleDeals: with three 3-box chains left, the strategy answers an
// opened chain by taking one box and declining the last two, so the
// opponent must open the next chain.
func TestBotDoubleDeals(t *testing.T) {
	for _, budget := range []int64{0, DefaultBotBudget} {
		g := mustNew(t, 2, 4, 4)
		for r := 1; r <= 4; r++ { // every horizontal line: three rows of 3-chains
			for c := 'a'; c < 'd'; c++ {
				play(t, g, string(c)+itoa(r)+"-"+string(c+1)+itoa(r))
			}
		}
		play(t, g, "a1-a2") // seat 0 opens the top chain at its left end
		bot := NewBotBudget(rand.New(rand.NewPCG(1, 2)), budget)
		m, err := bot.Choose(rules.SeatOf(g, 1))
		if err != nil {
			t.Fatal(err)
		}
		if text := g.FormatMove(m); text != "b1-b2" {
			t.Fatalf("budget %d: bot plays %s, want the capture b1-b2", budget, text)
		}
		play(t, g, "b1-b2")
		m, _ = bot.Choose(rules.SeatOf(g, 1))
		if text := g.FormatMove(m); text != "d1-d2" {
			t.Errorf("budget %d: bot plays %s, want the double deal d1-d2", budget, text)
		}
	}
}

// TestBotManyPlayers: bots fill every seat of three- and four-player games
// on several boards, play only legal moves and finish.
func TestBotManyPlayers(t *testing.T) {
	for players := 2; players <= 4; players++ {
		for _, dims := range [][2]int{{3, 3}, {5, 6}, {8, 8}} {
			g := mustNew(t, players, dims[0], dims[1])
			bots := make([]rules.Bot, players)
			for i := range bots {
				bots[i] = NewBot(rand.New(rand.NewPCG(uint64(i), 1)))
			}
			s := match(t, g, bots...)
			total := 0
			for _, n := range s {
				total += n
			}
			if total != g.b.nBoxes || g.Outcome().Status == rules.Running {
				t.Errorf("%d players on %v: scores %v of %d boxes, outcome %+v", players, dims, s, g.b.nBoxes, g.Outcome())
			}
		}
	}
}

// TestBotDeterministic: the same seeds play the same game.
func TestBotDeterministic(t *testing.T) {
	record := func(players, rows, cols int) string {
		g := mustNew(t, players, rows, cols)
		bots := make([]rules.Bot, players)
		for i := range bots {
			bots[i] = NewBot(rand.New(rand.NewPCG(9, uint64(i))))
		}
		match(t, g, bots...)
		return g.Record()
	}
	for _, c := range [][3]int{{2, 5, 5}, {3, 6, 5}} {
		if a, b := record(c[0], c[1], c[2]), record(c[0], c[1], c[2]); a != b {
			t.Errorf("two games from the same seeds differ:\n%s\n%s", a, b)
		}
	}
}

func TestBotErrors(t *testing.T) {
	bot := NewBot(rand.New(rand.NewPCG(1, 1)))
	g := mustNew(t, 2, 3, 3)
	if _, err := bot.Choose(rules.SeatOf(g, 1)); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("seat not to move: %v", err)
	}
	g.left = 0
	if _, err := bot.Choose(rules.SeatOf(g, 0)); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("game over: %v", err)
	}
	if _, err := bot.Choose(rules.Seat{}); err == nil {
		t.Error("no game: no error")
	}
}
