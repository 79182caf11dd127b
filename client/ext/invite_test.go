package ext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

// TestReferenceInvitationRefused: a Bomber duel invitation the reference
// way, which a client of tables cannot play, is refused at once (so the
// inviter is not left waiting) and the user is told.
func TestReferenceInvitationRefused(t *testing.T) {
	n := newHubNet(t, 1)
	c := n.login("Albert")
	o := c.Receive(segment.Name(segment.RecvInvit, "Beth"))
	want := segment.Code(segment.InvitResponse, segment.CodeRefused)
	if len(o.Send) != 1 || o.Send[0].Type != want.Type || !bytes.Equal(o.Send[0].Payload(), want.Payload()) {
		t.Fatalf("sent %v, want one InvitResponse refused", o.Send)
	}
	evs := kinds(o.Events, EvInvited)
	if len(evs) != 1 || !strings.Contains(evs[0].Text, "Beth invited you to a Bomber duel") {
		t.Fatalf("events %+v: want one telling of Beth's duel", o.Events)
	}
}
