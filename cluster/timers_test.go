package cluster

import (
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/servertest"
)

// TestMoveClockRunsOutInACluster: time passes in a cluster as on one node
// (the leader puts ticks in the shared log like any other input). Two
// players on two of three nodes play checkers with a two-second move clock,
// then stop moving: the player to move loses on time after two seconds
// (within a tenth), on every node.
func TestMoveClockRunsOutInACluster(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		w := newWorld(t, nb(t), 3)
		r := servertest.NewRoom(t)
		r.Hold = 4
		a := r.Join("Albert", w.nodes[0].addr)
		b := r.Join("Beth", w.nodes[1].addr)
		r.StartTable(a, b, "checkers", []segment.KV{{Key: "clock.move", Value: "2"}})
		r.Until("four moves", servertest.Moves(a, 4))
		r.Until("four moves seen by Beth", servertest.Moves(b, 4))
		held := time.Now()
		r.Until("the end of the game", servertest.Over(a, b))
		waited := time.Since(held)
		if end := a.C.Game().End; end.Reason != "out of time" {
			t.Fatalf("the game ended %+v, want on time", end)
		}
		if waited < 1800*time.Millisecond || waited > 2200*time.Millisecond {
			t.Fatalf("the move clock of 2s ran out after %v", waited)
		}
	})
}
