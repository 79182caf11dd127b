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
