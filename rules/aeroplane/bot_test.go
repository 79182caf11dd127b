package aeroplane

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// botVersusRandom plays games two-player games, the bot taking yellow in
// even games and blue in odd ones, and returns the bot's wins.
func botVersusRandom(t testing.TB, games int, seed uint64) int {
	t.Helper()
	wins := 0
	for i := range games {
		s := seed + uint64(i)
		g, err := New(2, nil, rand.New(rand.NewPCG(s, 2)))
		if err != nil {
			t.Fatal(err)
		}
		botSeat := rules.Player(i % 2)
		bot := NewBot(s)
		mover := rand.New(rand.NewPCG(s, 3))
		var legal []rules.Move
		for plies := 0; g.Outcome().Status == rules.Running; plies++ {
			if plies > 20000 {
				t.Fatalf("game %d does not end", i)
			}
			p := g.Turn()
			var m rules.Move
			if p == botSeat {
				if m, err = bot.Choose(rules.SeatOf(g, p)); err != nil {
					t.Fatal(err)
				}
			} else {
				legal = g.Legal(p, legal[:0])
				m = legal[mover.IntN(len(legal))]
			}
			if _, err := g.Play(p, m, nil); err != nil {
				t.Fatalf("game %d: %s %s: %v", i, ColourName(p), formatMove(m), err)
			}
		}
		if g.Outcome().Winners[0] == botSeat {
			wins++
		}
	}
	return wins
}

func TestBotBeatsRandomMover(t *testing.T) {
	const games = 100
	wins := botVersusRandom(t, games, 1000)
	t.Logf("bot won %d of %d two-player games against a random mover", wins, games)
	if wins < 70 {
		t.Fatalf("bot won %d of %d games, want at least 70", wins, games)
	}
}

func TestBotPriorities(t *testing.T) {
	tests := []struct {
		name   string
		yellow []int
		blue   []int
		face   int
		want   int // piece the bot moves
	}{
		// Piece 1 at 53 finishes with a 6; piece 0 could launch.
		{"finish before launch", []int{Camp, 53}, nil, 6, 1},
		// Piece 1 from 5 lands on 9 = track 8 = blue progress 48.
		{"capture", []int{20, 5}, []int{48}, 4, 1},
		// Piece 1 from 15 lands on the shortcut and flies.
		{"fly", []int{20, 15}, nil, 3, 1},
		{"launch", []int{20, Camp}, nil, 6, 1},
		// Piece 0 at 21 (track 20) has a blue piece 2 behind it (blue progress 6, track 18).
		{"run from danger", []int{21, 3}, []int{6}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := scripted(t, 2, nil, tt.face)
			place(g, Yellow, tt.yellow...)
			place(g, Blue, tt.blue...)
			mustPlay(t, g, Yellow, Roll())
			m, err := NewBot(1).Choose(rules.SeatOf(g, Yellow))
			if err != nil {
				t.Fatal(err)
			}
			if m != MovePiece(tt.want) {
				t.Fatalf("bot chose %s, want move %d", formatMove(m), tt.want)
			}
		})
	}
}

func TestBotRefusesWhenNotToMove(t *testing.T) {
	g, _ := scripted(t, 2, nil)
	if _, err := NewBot(1).Choose(rules.SeatOf(g, Blue)); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("bot for the wrong seat: %v", err)
	}
}

func TestBotIsDeterministicForASeed(t *testing.T) {
	a, _ := botGame(t, 3, nil, 99)
	b, _ := botGame(t, 3, nil, 99)
	if a.Record().String() != b.Record().String() {
		t.Fatal("two bot games from the same seeds differ")
	}
}

// BenchmarkBotVersusRandom reports the bot's wins per 100 two-player games.
func BenchmarkBotVersusRandom(b *testing.B) {
	wins, games := 0, 0
	for i := 0; b.Loop(); i++ {
		wins += botVersusRandom(b, 100, uint64(i)*100+50000)
		games += 100
	}
	b.ReportMetric(float64(wins)*100/float64(games), "wins/100")
}
