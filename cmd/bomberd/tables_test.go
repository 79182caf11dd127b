package main

import (
	"testing"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// TestEveryGameOverTCP: for each transport, scripted clients play each of
// the five games to the end against the real daemon, with a watcher, and
// every seat and the watcher see the same end.
func TestEveryGameOverTCP(t *testing.T) {
	users := []string{"Novate", "Twofyw", "Larry", "Albert", "Beth"}
	small := map[string][]segment.KV{"dots": {{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}, "paisho": {{Key: "move-limit", Value: "40"}}}
	for _, transport := range []string{"reactor", "net"} {
		t.Run(transport, func(t *testing.T) {
			d := startDaemon(t, "BOMBER_TRANSPORT="+transport, "BOMBER_LIMITS_SEGMENT_RATE=0")
			for gi, e := range statemachine.Catalogue() {
				t.Run(e.Spec.Name, func(t *testing.T) {
					servertest.PlayTable(t, []string{d.addr}, e.Spec, small[e.Spec.Name], users[:e.Spec.MaxPlayers], gi)
				})
			}
		})
	}
}
