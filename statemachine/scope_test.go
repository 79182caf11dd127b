package statemachine

import (
	"testing"

	"github.com/bomber-game/bomber/segment"
)

// TestReferenceMatchInputsConcernTheirMatch: a reference client's Bomber
// match is a table of two (TableOf), with an id of its own that no
// extended table has, so the relay's guesses count among the table inputs
// (bomber_inputs_applied_total) and could go to the match's shard; what
// its players say in the lobby concerns no table.
func TestReferenceMatchInputsConcernTheirMatch(t *testing.T) {
	r := loggedIn(t, 0, "Albert", "Beth", "Cindy", "Dora")
	h := r.h
	h.refStart(r.now, h.sessions[1], h.sessions[2])
	h.refStart(r.now, h.sessions[3], h.sessions[4])
	guess, err := segment.Raw(segment.SingleCoord, []byte("34"))
	if err != nil {
		t.Fatal(err)
	}
	of := func(c ConnID, seg segment.Segment) uint32 {
		return h.TableOf(&Input{Kind: InReceive, Conn: c, Seg: seg})
	}
	first, second := of(1, guess), of(3, guess)
	if first == 0 || second == 0 || first == second || of(2, guess) != first || of(4, guess) != second {
		t.Fatalf("guesses concern tables %d, %d, %d and %d; want the first two players' match, then the others'", of(1, guess), of(2, guess), of(3, guess), of(4, guess))
	}
	if first&refTableBase == 0 || first != h.sessions[1].table.id {
		t.Fatalf("the first match is %d, its players' table %d", first, h.sessions[1].table.id)
	}
	if lobby := of(1, segment.Name(segment.Invite, "Cindy")); lobby != 0 {
		t.Fatalf("an invitation concerns table %d, want none", lobby)
	}
}
