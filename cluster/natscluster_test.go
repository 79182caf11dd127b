package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"go.uber.org/zap/zaptest"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/servertest"
)

// TestNATSClusterLosesAServer: NATS is a cluster of three nats-server
// processes and the world's stream and buckets have three replicas. For
// each server (one after the other, each in a cluster of its own: three
// clusters at once starve a loaded 2-CPU CI machine), two players on
// two of three nodes play checkers; the server is killed (SIGKILL)
// mid-game, and a fourth node starts at once, while the streams and
// buckets the server led elect new leaders (as systemd restarts a node
// that went down with its NATS server's machine); the game goes on through
// the other two with no move lost and every node's world the same. With
// the server still down, a game with a two-second move clock on the new
// node whose players stop moving ends on time after two seconds (within a
// tenth).
func TestNATSClusterLosesAServer(t *testing.T) {
	needNATS(t)
	for victim := range 3 {
		t.Run(fmt.Sprintf("s%d", victim), func(t *testing.T) {
			nc := processNATSCluster(t, 3)
			// a NATS cluster that lost a server takes seconds to elect
			// new leaders (over ten on a loaded machine), during which
			// heartbeats are not stored: the nodes wait for each other
			// longer than that, as docs/operations.md advises for a NATS
			// cluster (15 s), so nobody is declared gone
			cfg := Config{Heartbeat: 300 * time.Millisecond, NodeTTL: 15 * time.Second, LeaderTTL: 1500 * time.Millisecond, Replicas: 3}
			w := newWorldWith(t, &natsBackend{kind: "cluster", url: nc.url()}, 3, cfg)
			r := servertest.NewRoom(t)
			a := r.Join("Albert", w.nodes[0].addr)
			b := r.Join("Beth", w.nodes[1].addr)
			r.StartCheckers(a, b)
			r.Until("six moves", servertest.Moves(a, 6))
			nc.kill(victim)
			late := w.start("node3")
			// the stream's and the buckets' groups elect leaders one by
			// one: about ten seconds on an idle machine, and up to 36 s
			// (the leader lease's group) while make test ran the other
			// packages' tests beside this one
			r.UntilWithin(90*time.Second, "ten more moves with a NATS server down", servertest.Moves(a, 16))
			// a move clock, with the server still down: the players stop
			// moving (the first game waits too). The clocked game starts
			// once every stream has its new leader: a move sent during an
			// election reaches the log seconds late, after the leader's
			// tick that ends the game on time.
			nc.awaitLeaders(victim)
			c := r.Join("Larry", late.addr)
			d := r.Join("Novate", w.nodes[0].addr)
			r.Hold = 4
			r.StartTable(c, d, "checkers", []segment.KV{{Key: "clock.move", Value: "2"}})
			r.Until("four moves", servertest.Moves(c, 4))
			r.Until("four moves seen by Novate", servertest.Moves(d, 4))
			held := time.Now()
			r.Until("the end of the clocked game", servertest.Over(c, d))
			waited := time.Since(held)
			if end := c.C.Game().End; end.Reason != "out of time" {
				t.Fatalf("the clocked game ended %+v, want on time", end)
			}
			if waited < 1800*time.Millisecond || waited > 2200*time.Millisecond {
				t.Fatalf("the move clock of 2s ran out after %v", waited)
			}
			if ma, mb := len(a.C.Game().Moves), len(b.C.Game().Moves); ma != mb || ma < 16 {
				t.Fatalf("the first game's players saw %d and %d moves", ma, mb)
			}
			sameWorld(t, w)
		})
	}
}

// TestNATSWithoutJetStreamReportedAtOnce: a node pointed at a NATS server
// that runs without JetStream (a mistake in its set-up) says so and stops
// at once, rather than asking again all its start-up long as it does while
// a NATS cluster elects leaders.
func TestNATSWithoutJetStreamReportedAtOnce(t *testing.T) {
	ns := embeddedNATSWith(t, &natsserver.Options{JetStream: false})
	cfg := fast
	cfg.URL, cfg.World, cfg.Node, cfg.Logger = ns.url, "nojs", "node0", zaptest.NewLogger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	n, err := Join(ctx, cfg)
	if err == nil {
		n.Close()
		t.Fatal("joined a world on a NATS server without JetStream")
	}
	if !errors.Is(err, ErrNoNATS) || !strings.Contains(err.Error(), "no JetStream") {
		t.Fatalf("Join: %v, want NATS unavailable: no JetStream", err)
	}
	if took := time.Since(start); took >= askWithin {
		t.Fatalf("Join took %v to report it, as long as waiting for an answer that never comes", took)
	}
}
