package cluster

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
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

// TestCloseIsNotALinkDown: a node that leaves (a daemon's SIGTERM) closes
// its NATS link without warning that the link went down.
func TestCloseIsNotALinkDown(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		w := newWorld(t, nb(t), 0)
		core, logs := observer.New(zap.WarnLevel)
		cfg := w.cfg
		cfg.URL, cfg.World, cfg.Node, cfg.Logger = w.nats.url, w.name, "leaving", zap.New(core)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		n, err := Join(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		n.Close()
		if down := logs.FilterMessage("NATS link down"); down.Len() != 0 {
			t.Fatalf("closing the node logged %v", down.All())
		}
	})
}

// TestDeadlinesInACluster: the hub's other deadlines fire in a cluster of
// three nodes on a nats-server process as on one node (ticks in the shared
// log): a connection that never logs in is closed at login_timeout, an
// offer nobody answers expires after offer_ttl, and a seat held for a
// player who dropped is given up after resume_grace, ending the game.
// Each within a tenth of its setting (plus a tick).
func TestDeadlinesInACluster(t *testing.T) {
	needNATS(t)
	const d = 2 * time.Second
	w := newWorldHub(t, processNATS(t), 3, fast, func(c *statemachine.Config) {
		c.LoginTimeout, c.OfferTTL, c.ResumeGrace = d, d, d
	})
	within := func(what string, took time.Duration) {
		t.Helper()
		t.Logf("%s after %v", what, took)
		if took < d*9/10 || took > d*11/10+100*time.Millisecond {
			t.Errorf("%s after %v, want %v", what, took, d)
		}
	}

	// a connection that says nothing
	nc, err := net.Dial("tcp", w.nodes[2].addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	opened := time.Now()
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, nc); err != nil {
		t.Fatalf("the silent connection was not closed: %v", err)
	}
	within("the silent connection was closed", time.Since(opened))

	r := servertest.NewRoom(t)
	a := r.Join("Albert", w.nodes[0].addr)
	b := r.Join("Beth", w.nodes[1].addr)
	r.Hold = 2
	r.StartCheckers(a, b)
	r.Until("two moves", servertest.Moves(b, 2))

	// an offer nobody answers
	r.Call(a, func() (ext.Out, error) { return a.C.Offer(segment.OfferDraw, segment.OfferPropose) })
	r.Until("Beth sees the offer", func() bool { return len(b.Saw(ext.EvOffer)) > 0 })
	offered := time.Now()
	r.Until("the offer to expire", func() bool {
		for _, e := range b.Saw(ext.EvOffer) {
			if e.Offer.State == segment.OfferExpired {
				return true
			}
		}
		return false
	})
	within("the offer expired", time.Since(offered))

	// a player who drops and does not come back
	a.NC.Close()
	r.Until("Albert's seat held", func() bool { return len(b.Saw(ext.EvAway)) > 0 })
	away := time.Now()
	r.Until("the end of the game", servertest.Over(b))
	within("the held seat was given up", time.Since(away))
	if end := b.C.Game().End; end.Status == 0 || len(end.Winners) != 1 || end.Winners[0] != 1 {
		t.Fatalf("the game ended %+v, want Beth the winner", end)
	}
}
