package statemachine

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// capturedGame is a game whose seats have captured so much.
type capturedGame struct {
	rules.Game
	captured []int
}

func (g capturedGame) Scores(buf []int) []int { return append(buf, g.captured...) }

// TestComputerAnswers holds the computer's documented answers to offers: a
// draw only while it has captured less than every other seat in the game, a
// rematch always, a takeback never.
func TestComputerAnswers(t *testing.T) {
	for _, c := range []struct {
		captured []int
		gone     bool // seat 2 left the game: its captures do not count
		draw     bool
	}{
		{[]int{3, 1, 5}, false, true},
		{[]int{1, 1, 5}, false, false},
		{[]int{0, 2, 5}, false, false},
		{[]int{3, 1, 0}, false, false},
		{[]int{3, 1, 0}, true, true},
	} {
		tb := &table{game: capturedGame{captured: c.captured}, seats: []seatSlot{{s: &session{}}, {bot: true, ready: true}, {s: &session{}, gone: c.gone}}}
		if c.gone {
			tb.seats[2].s = nil
		}
		if got := computerAgrees(tb, offerDraw, 1); got != c.draw {
			t.Errorf("captured %v (seat 2 gone %v): the computer agrees to a draw %v, want %v", c.captured, c.gone, got, c.draw)
		}
		if !computerAgrees(tb, offerRematch, 1) || computerAgrees(tb, offerTakeback, 1) {
			t.Errorf("captured %v: the computer must agree to a rematch and refuse a takeback", c.captured)
		}
	}
}
