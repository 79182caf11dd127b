package checkers

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// playBotVsRandom plays one default-rules game between b (in seat botSeat)
// and a uniform random mover over the board moves, and returns the outcome
// and the number of plies played.
func playBotVsRandom(t testing.TB, b *Bot, botSeat rules.Player, seed uint64) (rules.Outcome, int) {
	t.Helper()
	g := mustNew(t, nil)
	rng := rand.New(rand.NewPCG(seed, 99))
	plies := 0
	for ; plies < 1000 && g.Outcome().Status == rules.Running; plies++ {
		p := g.ToMove(nil)[0]
		var m rules.Move
		if p == botSeat {
			var err error
			if m, err = b.Choose(rules.SeatOf(g, p)); err != nil {
				t.Fatalf("bot: %v", err)
			}
		} else {
			legal := boardMoves(g.Legal(p, nil))
			m = legal[rng.IntN(len(legal))]
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatalf("seed %d: %s refused: %v", seed, g.FormatMove(m), err)
		}
	}
	return g.Outcome(), plies
}

func boardMoves(ms []rules.Move) []rules.Move {
	var out []rules.Move
	for _, m := range ms {
		if m.Kind == KindMove || m.Kind == KindJump {
			out = append(out, m)
		}
	}
	return out
}

// botWins plays games alternating the bot's colour and counts its wins.
func botWins(t testing.TB, games int, newBot func(seed uint64) *Bot) (wins int, plies int) {
	for i := range games {
		seat := rules.Player(i % 2)
		out, n := playBotVsRandom(t, newBot(uint64(i)), seat, uint64(i))
		plies += n
		if out.Status == rules.Won && out.Winners[0] == seat {
			wins++
		} else {
			t.Logf("game %d (bot as %s): %v %s", i, colourName[seat], out.Status, out.Reason)
		}
	}
	return wins, plies
}

// TestBotBeatsRandom plays 100 games against a random mover with the bot
// cut to a tenth of its default node budget, to keep the test fast under
// the race detector; BenchmarkBotVsRandom runs the default bot.
func TestBotBeatsRandom(t *testing.T) {
	const games, need = 100, 95
	wins, _ := botWins(t, games, func(seed uint64) *Bot {
		b := NewBot(seed)
		b.MaxNodes = DefaultBotNodes / 10
		return b
	})
	t.Logf("won %d of %d", wins, games)
	if wins < need {
		t.Errorf("the bot won %d of %d games against a random mover, want at least %d", wins, games, need)
	}
}

func TestBotDeterministic(t *testing.T) {
	play := func(seed uint64) []rules.Move {
		g := mustNew(t, nil)
		bots := [2]*Bot{NewBot(seed), NewBot(seed + 1)}
		for _, b := range bots {
			b.MaxNodes = 3000
		}
		var moves []rules.Move
		for range 30 {
			if g.Outcome().Status != rules.Running {
				break
			}
			p := g.ToMove(nil)[0]
			m, err := bots[p].Choose(rules.SeatOf(g, p))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.Play(p, m, nil); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, m)
		}
		return moves
	}
	a, b := play(7), play(7)
	if len(a) != len(b) {
		t.Fatalf("same seed, different game lengths %d and %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different move %d: %s and %s", i+1, formatMove(a[i]), formatMove(b[i]))
		}
	}
}

func TestBotChoosesForcedAndWinningMoves(t *testing.T) {
	tests := []struct {
		name, fen, want string
	}{
		// Black's only piece must jump.
		{"forced jump", "B:W14,K30:B10", "10x17"},
		// Black can take both white pieces at once and win.
		{"double jump wins", "B:W15,23:B11", "11x18x27"},
		// The king jumps the last piece rather than walking away.
		{"king takes the last piece", "W:WK18:B14,K1", "18x9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, rules.Options{OptFEN: tt.fen})
			p := g.ToMove(nil)[0]
			m, err := NewBot(1).Choose(rules.SeatOf(g, p))
			if err != nil {
				t.Fatal(err)
			}
			if got := g.FormatMove(m); got != tt.want {
				t.Errorf("bot chose %s in %s, want %s", got, tt.fen, tt.want)
			}
		})
	}
}

func TestBotAnswersDrawOffers(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want string
	}{
		{"accepts when lost", "W:WK20,K21,K22:B1", "draw-accept"},
		{"declines when winning", "W:W32:BK1,K2,K3", "draw-decline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, rules.Options{OptFEN: tt.fen})
			playText(t, g, "draw-offer")
			m, err := NewBot(1).Choose(rules.SeatOf(g, 0))
			if err != nil {
				t.Fatal(err)
			}
			if got := g.FormatMove(m); got != tt.want {
				t.Errorf("Black's answer %s, want %s", got, tt.want)
			}
		})
	}
}

func TestBotRefusesWhenNotToMove(t *testing.T) {
	g := mustNew(t, nil)
	if _, err := NewBot(1).Choose(rules.SeatOf(g, 1)); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("bot for White at the start: err %v, want ErrNotYourTurn", err)
	}
}

// BenchmarkBotVsRandom plays 100 games of the default bot against a random
// mover and reports the bot's wins.
func BenchmarkBotVsRandom(b *testing.B) {
	for b.Loop() {
		wins, plies := botWins(b, 100, NewBot)
		b.ReportMetric(float64(wins), "wins/100")
		b.ReportMetric(float64(plies)/100, "plies/game")
	}
}

// BenchmarkBotMove measures one default-bounded choice from the opening.
func BenchmarkBotMove(b *testing.B) {
	g := mustNew(b, nil)
	bot := NewBot(1)
	for b.Loop() {
		if _, err := bot.Choose(rules.SeatOf(g, 0)); err != nil {
			b.Fatal(err)
		}
	}
}
