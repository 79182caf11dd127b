package statemachine

import (
	"os"
	"strings"
	"testing"
)

// TestSeatTransitionsDocumented holds docs/protocol.md's table of a seat's
// life to the transitions the hub makes.
func TestSeatTransitionsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, _ := strings.Cut(string(doc), "### 9.4 A seat's life")
	sec, _, _ = strings.Cut(sec, "\n## ") // the section ends at the next chapter
	rows := 0
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| from ") {
			rows++
		}
	}
	if rows != len(seatTransitions) {
		t.Errorf("docs list %d transitions, the hub makes %d", rows, len(seatTransitions))
	}
	for k, when := range seatTransitions {
		row := "| " + k[0].String() + " | " + k[1].String() + " | " + when + " |"
		if !strings.Contains(sec, row) {
			t.Errorf("docs/protocol.md 9.4 lacks %q", row)
		}
	}
}

// TestImpossibleSeatChangeIsRefused: a seat change its life does not allow
// leaves the seat as it was and is counted and told, instead of stopping
// the daemon (which would stop again at every restart replaying the same
// inputs).
func TestImpossibleSeatChangeIsRefused(t *testing.T) {
	h := New(Config{Games: Catalogue()})
	tb := &table{id: 7, seats: make([]seatSlot, 2)}
	tb.seats[1] = seatSlot{name: "Albert", gone: true}
	if h.seatTo(tb, 1, lifePerson, nil) {
		t.Fatal("a seat whose person left the game was given back to a person")
	}
	if tb.seats[1] != (seatSlot{name: "Albert", gone: true}) {
		t.Errorf("the refused change changed the seat: %+v", tb.seats[1])
	}
	if h.Stats().SeatsRefused != 1 {
		t.Errorf("SeatsRefused = %d, want 1", h.Stats().SeatsRefused)
	}
	rd := h.Ready()
	if len(rd.Notices) != 1 || rd.Notices[0].Kind != NoticeSeatRefused || !strings.Contains(rd.Notices[0].Detail, "gone to person") {
		t.Errorf("notices %+v, want one saying the seat cannot go from gone to person", rd.Notices)
	}
	if !h.seatTo(tb, 0, lifePerson, &session{name: "Beth"}) || tb.seats[0].name != "Beth" {
		t.Errorf("an empty seat did not take a person: %+v", tb.seats[0])
	}
}
