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

// TestTakebackAsksComputer holds that a takeback hands the turn back to a
// computer seat: it is asked for its move in the rebuilt position and that
// move is played. The computer's policy refuses takebacks, so no takeback
// reaches this through the hub's inputs today; the test agrees the offer for
// every seat, as a policy that let it through would.
func TestTakebackAsksComputer(t *testing.T) {
	h := New(Config{Games: Catalogue()})
	e := h.games["dots"]
	g, err := e.Spec.New(3, rules.Options{"rows": "3", "cols": "3"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{id: 1, kind: e, opts: rules.Options{"rows": "3", "cols": "3"}, game: g, phase: phasePlaying,
		seats: []seatSlot{{name: "Albert"}, {name: "Beth"}, {bot: true, ready: true}}}
	h.tables[tb.id] = tb
	for range 3 { // each seat draws a line: no box closes, the turn goes round
		p := g.ToMove(nil)[0]
		if err := h.play(0, tb, p, g.Legal(p, nil)[0]); err != nil {
			t.Fatal(err)
		}
		h.askBots(tb)
	}
	h.Advance()
	tb.offer = &offer{what: offerTakeback, by: 0, agreed: []bool{true, true, true}}
	h.agree(0, tb) // the computer's line is taken back: its turn again
	bots := h.Ready().Bots
	if len(bots) != 1 || bots[0].Seat != 2 || bots[0].Seq != tb.seq {
		t.Fatalf("after the takeback the hub asks %+v, want the computer's seat 2 at update %d", bots, tb.seq)
	}
	seq := bots[0].Seq
	h.Advance()
	move := tb.game.FormatMove(tb.game.Legal(2, nil)[0])
	h.botMove(0, BotAnswer{Table: 1, Seat: 2, Seq: seq, Move: move})
	if len(tb.moves) != 3 || tb.moves[2].seat != 2 {
		t.Errorf("the computer's answer %q was not played: %d moves", move, len(tb.moves))
	}
}
