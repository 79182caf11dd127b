package main

import (
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// TestTablesPlayNow: through the real hub, Albert and Beth each press p and
// ask for dots with 3 minutes each; the lobby says whom Albert is looking
// for while he waits, and the pairing round seats both at one table of
// Dots and Boxes. Cindy asks, then stops looking with x.
func TestTablesPlayNow(t *testing.T) {
	l := newHubLink(t)
	a, b, c := l.model("Albert"), l.model("Beth"), l.model("Cindy")
	typeLine := func(m *tmodel, text string) {
		l.press(m, "p")
		for _, k := range text {
			l.press(m, string(k))
		}
		l.press(m, "enter")
	}
	typeLine(a, "dots 3")
	shows(t, a, "seeking casual dots vs 1300-1700 (you: 1500?), 0 s  x stops")
	typeLine(b, "dots 3")
	l.now += int64(time.Second)
	for _, in := range l.hub.TickInputs(l.now, nil) {
		l.hub.Step(l.now, in)
	}
	l.pump()
	shows(t, a, "table #1 Dots and Boxes")
	shows(t, b, "table #1 Dots and Boxes")
	typeLine(c, "checkers 10+5 rated")
	shows(t, c, "seeking rated checkers vs 1300-1700")
	l.press(c, "x")
	if s := shows(t, c, "no longer looking for a game"); c.c.Seeking() != nil {
		t.Errorf("Cindy still seeks:\n%s", s)
	}
}

// TestPlayRequest: the prompt's and --play's words make the seek.
func TestPlayRequest(t *testing.T) {
	game, clock, rated, err := playRequest("checkers 10+5 rated")
	want := []segment.KV{{Key: "clock.total", Value: "600"}, {Key: "clock.increment", Value: "5"}}
	if err != nil || game != "checkers" || !rated || len(clock) != 2 || clock[0] != want[0] || clock[1] != want[1] {
		t.Errorf("checkers 10+5 rated: %q %v %v %v", game, clock, rated, err)
	}
	if _, _, _, err := playRequest("dots soon"); err == nil {
		t.Error("dots soon: no error")
	}
}
