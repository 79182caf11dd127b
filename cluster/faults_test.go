package cluster

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/server/servertest"
)

// TestFaultFigures measures the cluster through a set of faults, each in a
// world of its own: eight checkers games between players on different
// nodes, the fault struck once every game has six moves, and the players
// reconnecting to a running node (and resuming) whenever their connection
// drops. It logs games finished, games whose two players or whose record
// saw different moves, refused moves, and resume times. It takes minutes:
// BOMBER_FAULT_FIGURES=1 runs it.
func TestFaultFigures(t *testing.T) {
	if os.Getenv("BOMBER_FAULT_FIGURES") == "" {
		t.Skip("BOMBER_FAULT_FIGURES=1 runs it")
	}
	needNATS(t)
	leader := func(w *world) *testNode {
		for _, n := range w.nodes {
			if !n.done && n.n.Leader() {
				return n
			}
		}
		return w.nodes[0]
	}
	faults := []struct {
		name    string
		cluster bool
		strike  func(t *testing.T, w *world, nb *natsBackend, nc *natsCluster, r *servertest.Room, ps []*servertest.Player)
	}{
		{"kill -9 leader", false, func(t *testing.T, w *world, _ *natsBackend, _ *natsCluster, _ *servertest.Room, _ []*servertest.Player) {
			w.crash(leader(w))
		}},
		{"drain", false, func(t *testing.T, w *world, _ *natsBackend, _ *natsCluster, _ *servertest.Room, _ []*servertest.Player) {
			w.stop(w.nodes[1])
		}},
		{"rolling restart", false, func(t *testing.T, w *world, _ *natsBackend, _ *natsCluster, r *servertest.Room, ps []*servertest.Player) {
			for i := range 3 {
				w.stop(w.nodes[i])
				w.start(fmt.Sprintf("again%d", i))
				r.Until("the players back", func() bool { return reconnect(r, w, ps) })
			}
		}},
		{"node cut off 10s", false, func(t *testing.T, w *world, _ *natsBackend, _ *natsCluster, r *servertest.Room, ps []*servertest.Player) {
			w.nodes[2].via.cut()
			r.During(10*time.Second, func() { reconnect(r, w, ps) })
			w.nodes[2].via.heal()
		}},
		{"NATS server loss (3, replicas 3)", true, func(t *testing.T, _ *world, _ *natsBackend, nc *natsCluster, _ *servertest.Room, _ []*servertest.Player) {
			nc.kill(0)
		}},
		{"rolled-back store", false, func(t *testing.T, _ *world, nb *natsBackend, _ *natsCluster, r *servertest.Room, ps []*servertest.Player) {
			nb.save()
			r.Hold = 0
			moves := len(ps[0].C.Game().Moves) + 6
			r.Until("six more moves", servertest.Moves(ps[0], moves))
			t.Logf("before the rollback: game 0 has %d moves, over %v", len(ps[0].C.Game().Moves), ps[0].C.Game().Over())
			nb.rollback()
		}},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			var nb *natsBackend
			var nc *natsCluster
			cfg := fast
			if f.cluster {
				nc = processNATSCluster(t, 3)
				nb = &natsBackend{kind: "cluster", url: nc.url()}
				cfg = Config{Heartbeat: 300 * time.Millisecond, NodeTTL: 6 * time.Second, LeaderTTL: 1500 * time.Millisecond, Replicas: 3}
			} else {
				nb = processNATS(t)
			}
			w := newWorldWith(t, nb, 3, cfg)
			r := servertest.NewRoom(t)
			var ps []*servertest.Player
			r.Hold = 10 // every game in its middle when the fault strikes
			for g := range 8 {
				a := r.Join(fmt.Sprintf("f%02d", 2*g), w.nodes[g%3].addr)
				b := r.Join(fmt.Sprintf("f%02d", 2*g+1), w.nodes[(g+1)%3].addr)
				r.StartCheckers(a, b)
				ps = append(ps, a, b)
			}
			for i := 0; i < len(ps); i += 2 {
				r.Until("ten moves", servertest.Moves(ps[i], 10))
			}
			t0 := time.Now()
			t.Logf("before the fault: game 0 has %d moves, over %v", len(ps[0].C.Game().Moves), ps[0].C.Game().Over())
			f.strike(t, w, nb, nc, r, ps)
			r.Hold = 0
			deadline := time.Now().Add(60 * time.Second)
			over := func() bool {
				reconnect(r, w, ps)
				return servertest.Over(ps...)() || time.Now().After(deadline)
			}
			for !over() {
				r.Until("the games to end", over)
			}
			took := time.Since(t0)
			// the records (a new leader writes those a dead one may not have)
			for wait := time.After(20 * time.Second); w.recs.count() < finished(ps); {
				select {
				case <-w.recs.added:
				case <-wait:
					t.Logf("records still missing")
					wait = nil
				}
				if wait == nil {
					break
				}
			}
			differ, refused := 0, 0
			for i := 0; i < len(ps); i += 2 {
				a, b := ps[i], ps[i+1]
				if !slices.Equal(a.C.Game().Moves, b.C.Game().Moves) {
					differ++
				}
				refused += len(a.C.Errors) + len(b.C.Errors)
			}
			var restored uint64
			for _, n := range w.nodes {
				if !n.done {
					restored += n.n.Stats().Restored
				}
				w.stop(n)
			}
			recorded := 0
			w.recs.mu.Lock()
			for _, g := range w.recs.games {
				for i := 0; i < len(ps); i += 2 {
					if ps[i].C.Game().Over() && g.Seats[0].Name == ps[i].Name && len(g.Moves) != len(ps[i].C.Game().Moves) {
						differ++
					}
				}
				recorded++
			}
			w.recs.mu.Unlock()
			var resumes []time.Duration
			for _, p := range ps {
				resumes = append(resumes, resumeTimes[p]...)
			}
			slices.Sort(resumes)
			rs := "none"
			if len(resumes) > 0 {
				rs = fmt.Sprintf("%d, %v-%v (median %v)", len(resumes), resumes[0].Round(time.Millisecond), resumes[len(resumes)-1].Round(time.Millisecond), resumes[len(resumes)/2].Round(time.Millisecond))
			}
			t.Logf("FIGURES %s: %d/8 games finished, %d records, %d games seen differently (players or record), %d refused moves, resumes %s, all over %v after the fault, %d log entries put back",
				f.name, finished(ps), recorded, differ, refused, rs, took.Round(100*time.Millisecond), restored)
		})
	}
}

// finished counts the games both players saw end.
func finished(ps []*servertest.Player) int {
	n := 0
	for i := 0; i < len(ps); i += 2 {
		if servertest.Over(ps[i], ps[i+1])() {
			n++
		}
	}
	return n
}

// resumeTimes are each player's times from a dropped connection to its
// seat back; dropped when its connection dropped (zero: none pending).
var (
	resumeTimes = map[*servertest.Player][]time.Duration{}
	dropped     = map[*servertest.Player]time.Time{}
	resumes     = map[*servertest.Player]int{}
)

// reconnect moves every player whose connection dropped to a running node,
// and notes the resume times; it reports whether every player is connected
// with its seat back.
func reconnect(r *servertest.Room, w *world, ps []*servertest.Player) bool {
	all := true
	var addrs []string
	for _, n := range w.nodes {
		if !n.done && n.n.Ready() == nil && (n.via == nil || !n.via.isCut()) {
			addrs = append(addrs, n.addr)
		}
	}
	if len(addrs) == 0 {
		return false
	}
	for i, p := range ps {
		if p.NC == nil && !p.C.Game().Over() {
			if _, ok := dropped[p]; !ok {
				dropped[p] = time.Now()
			}
			r.Reconnect(p, addrs[i%len(addrs)])
			all = false
			continue
		}
		if n := len(p.Saw(ext.EvResumed)); n > resumes[p] {
			resumes[p] = n
			if at, ok := dropped[p]; ok {
				resumeTimes[p] = append(resumeTimes[p], time.Since(at))
				delete(dropped, p)
			}
		}
		if _, ok := dropped[p]; ok {
			all = false
		}
	}
	return all
}
