package cluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// TestSnapshotsBoundTheLog: the leader snapshots the world every few
// entries and drops the log before the previous snapshot; a node that joins
// later starts from the snapshot (the log's beginning is gone), a player in
// the middle of a game moves to it and finishes there, and every node's
// world ends the same.
func TestSnapshotsBoundTheLog(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		cfg := fast
		cfg.SnapshotEvery = 25
		w := newWorldWith(t, nb(t), 2, cfg)
		r := servertest.NewRoom(t)
		a := r.Join("Albert", w.nodes[0].addr)
		b := r.Join("Beth", w.nodes[1].addr)
		r.StartCheckers(a, b)
		r.Until("twenty moves", servertest.Moves(a, 20))
		// games elsewhere meanwhile, so the log passes a few snapshots
		users := []string{"Novate", "Twofyw", "Larry"}
		for gi, e := range statemachine.Catalogue()[:3] {
			servertest.PlayTable(t, w.addrs(), e.Spec, small[e.Spec.Name], users[:2], gi)
		}
		// The leader drops the log before its previous snapshot, so two
		// of its saves must have ended; on a loaded machine saves are slow
		// (one at a time: a snapshot due meanwhile is skipped) and the
		// leader lease may move, so the games may end first. A login, a
		// few entries, keeps the log moving and the snapshots coming.
		ctx := context.Background()
		for deadline, i := time.Now().Add(20*time.Second), 0; ; i++ {
			info, err := w.nodes[0].n.stream.Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if info.State.FirstSeq > 1 {
				break // the log's beginning is gone
			}
			if time.Now().After(deadline) {
				t.Fatalf("no entry of the log was ever dropped (first %d, last %d)", info.State.FirstSeq, info.State.LastSeq)
			}
			if code := loginAs(t, w.nodes[i%2].addr, users[i%len(users)], "123"); code != 1 {
				t.Fatalf("%s's login: code %d", users[i%len(users)], code)
			}
		}
		late := w.start("late")
		if late.n.snapSeq == 0 {
			t.Fatal("the late node did not start from a snapshot")
		}
		r.Reconnect(a, late.addr)
		r.Until("Albert's seat back on the late node", func() bool { return r.Resumed(a) })
		r.Until("the end of the game", servertest.Over(a, b))
		sameWorld(t, w)
	})
}

// TestLogWithoutItsBeginningIsRefused: a node cannot join a world whose log
// lost entries no snapshot covers (the stream purged by hand): it says so
// instead of serving a different world.
func TestLogWithoutItsBeginningIsRefused(t *testing.T) {
	ns := embeddedNATS(t)
	w := newWorld(t, ns, 1)
	if code := login(t, w.nodes[0].addr, "123"); code != 1 {
		t.Fatalf("login: code %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.nodes[0].n.stream.Purge(ctx, jetstream.WithPurgeSequence(3)); err != nil {
		t.Fatal(err)
	}
	cfg := fast
	cfg.URL, cfg.World, cfg.Node = ns.url, w.name, "late"
	n, err := Join(ctx, cfg)
	if err == nil {
		n.Close()
		t.Fatal("a node joined a world whose log lost its beginning")
	}
	if !strings.Contains(err.Error(), "cannot be rebuilt") {
		t.Fatalf("joining: %v", err)
	}
}
