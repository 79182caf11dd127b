package cluster

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bomber-game/bomber/server/servertest"
)

// needNATS skips a test that needs the nats-server binary when it is not
// installed (BOMBER_REQUIRE_NATS, set in CI, makes that a failure).
func needNATS(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath(natsBinary()); err != nil {
		if os.Getenv("BOMBER_REQUIRE_NATS") != "" {
			t.Fatalf("nats-server not found (%v); scripts/nats.sh installs it", err)
		}
		t.Skipf("nats-server not found (%v); scripts/nats.sh installs it", err)
	}
}

// TestRolledBackStoreIsPutBack: NATS (a nats-server process, replicas 1)
// starts again on a copy of its store taken some moves earlier, losing the
// log's tail: the moves since, a new table and its game. The nodes find
// the log ends before what they applied, put the lost entries back, and
// every game goes on to its end and is recorded once, the same on every
// node.
func TestRolledBackStoreIsPutBack(t *testing.T) {
	needNATS(t)
	ns := processNATS(t)
	w := newWorld(t, ns, 3)
	r, a, b := checkersUnderWay(t, w.nodes[0].addr, w.nodes[1].addr)
	ns.save()
	r.Until("ten more moves", servertest.Moves(a, 20))
	c := r.Join("Larry", w.nodes[2].addr)
	d := r.Join("Novate", w.nodes[0].addr)
	r.StartCheckers(c, d) // a table and a game the older store never saw
	r.Until("four moves of the new game", servertest.Moves(c, 4))
	ns.rollback()
	r.Until("the end of both games", servertest.Over(a, b, c, d))
	for _, p := range []*servertest.Player{a, c} {
		if p.C.Game().End.Status == 0 {
			t.Fatalf("%s's game ended without a result: %+v", p.Name, p.C.Game().End)
		}
	}
	if len(a.C.Game().Moves) != len(b.C.Game().Moves) || len(c.C.Game().Moves) != len(d.C.Game().Moves) {
		t.Fatalf("the players saw different games")
	}
	var rollbacks, restored uint64
	for _, n := range w.nodes {
		st := n.n.Stats()
		rollbacks, restored = rollbacks+st.Rollbacks, restored+st.Restored
		awaitNodeReady(t, n) // a node still checking the log under load is ready once it has
	}
	if rollbacks == 0 || restored == 0 {
		t.Fatalf("no node saw the log end early (%d) or put entries back (%d)", rollbacks, restored)
	}
	sameWorld(t, w)
	// The leader writes the records. The rolled-back store holds the
	// lease of the leader at the copy, so the world may have no leader
	// for up to LeaderTTL after NATS is back: the games are recorded once
	// a node takes the lease.
	for wait := time.After(20 * time.Second); w.recs.count() < 2; {
		select {
		case <-w.recs.added:
		case <-wait:
			t.Fatalf("%d records 20 s after the games ended, want 2", w.recs.count())
		}
	}
	for _, n := range w.nodes {
		w.stop(n) // waits for the records being written
	}
	if got := w.recs.count(); got != 2 {
		t.Fatalf("%d records, want 2 (each game once)", got)
	}
}

// TestForkedLogIsNotServed: NATS starts again on an older store and, before
// any node is back, something else appends to the log: what the nodes
// applied after the store's copy can no longer be put back. Every node
// stops following the log (not ready, saying why, and Errors tells the
// daemon to exit); a node started again rebuilds the world from the store,
// where the game begun before the copy is as it was then, its seats held.
func TestForkedLogIsNotServed(t *testing.T) {
	needNATS(t)
	ns := processNATS(t)
	w := newWorld(t, ns, 2)
	r, a, _ := checkersUnderWay(t, w.nodes[0].addr, w.nodes[1].addr)
	ns.save()
	r.Until("ten more moves", servertest.Moves(a, 20))
	for _, n := range w.nodes {
		n.via.cut()
	}
	ns.rollback()
	nc, err := nats.Connect(ns.url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := nc.Publish("bomber."+w.name+".log", nil); err != nil { // an empty entry: applied, it does nothing
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, n := range w.nodes {
		n.via.heal()
	}
	for _, n := range w.nodes {
		select {
		case err := <-n.n.Errors():
			if !strings.Contains(err.Error(), "not the one this node applied") {
				t.Fatalf("%s stopped: %v", n.name, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s went on following a forked log", n.name)
		}
		if err := n.n.Ready(); err == nil {
			t.Fatalf("%s says it is ready on a forked log", n.name)
		}
		if !n.n.Stats().Untrusted {
			t.Fatalf("%s's stats do not say the log is untrusted", n.name)
		}
	}
	for _, n := range w.nodes {
		w.crash(n) // the daemon exits
	}
	again := w.start("again")
	awaitNodeReady(t, again)
	// the world is the store's: the game as it was when the store was
	// copied, its player's seat held for them
	st, err := again.tr.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.GamesStarted != 1 || st.TableMoves < 10 || st.TableMoves >= 20 {
		t.Fatalf("the rebuilt world has %d games and %d moves, want the game with its first ten-odd moves", st.GamesStarted, st.TableMoves)
	}
	r.Reconnect(a, again.addr)
	r.Until("Albert's seat back", func() bool { return r.Resumed(a) })
}

// awaitNodeReady waits until an in-process node says it is ready.
func awaitNodeReady(t *testing.T, n *testNode) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for n.n.Ready() != nil {
		select {
		case <-ctx.Done():
			t.Fatalf("%s never became ready: %v", n.name, n.n.Ready())
		case <-time.After(20 * time.Millisecond): // readiness has no event to wait on
		}
	}
}
