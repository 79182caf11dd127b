package cluster

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// botLog notes which nodes played each table's computer moves.
type botLog struct {
	mu sync.Mutex
	by map[uint32]map[string]int // table id → node name → moves played
}

// wrap counts node's computer moves, then plays them as a daemon does.
func (l *botLog) wrap(node string) func(statemachine.BotRequest) (statemachine.BotAnswer, error) {
	return func(req statemachine.BotRequest) (statemachine.BotAnswer, error) {
		l.mu.Lock()
		if l.by[req.Table] == nil {
			l.by[req.Table] = map[string]int{}
		}
		l.by[req.Table][node]++
		l.mu.Unlock()
		return statemachine.RunBot(req)
	}
}

// nodes lists, in order, the nodes that played table t's computer moves.
func (l *botLog) nodes(t uint32) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(maps.Keys(l.by[t]))
}

// TestComputerPlayersSpreadOverNodes: every node runs the computer players
// of the tables opened on it, not the leader those of all. Twelve players,
// four on each of three nodes, each open a Dots and Boxes table against
// the computer: each table's computer moves are played by its player's
// node. Then one node is killed mid-game (or drained): its players
// reconnect to the others and resume, the computer moves their tables wait
// for are played by the survivors once the world declares the node gone
// (or it says goodbye), each table's by one of them, and every game ends.
func TestComputerPlayersSpreadOverNodes(t *testing.T) {
	needNATS(t)
	for _, strike := range []struct {
		name string
		do   func(w *world, n *testNode)
	}{{"kill -9", (*world).crash}, {"drain", (*world).stop}} {
		t.Run(strike.name, func(t *testing.T) { computersAcrossNodes(t, strike.do) })
	}
}

// computersAcrossNodes is TestComputerPlayersSpreadOverNodes with node 2
// taken out by strike.
func computersAcrossNodes(t *testing.T, strike func(w *world, n *testNode)) {
	bots := &botLog{by: map[uint32]map[string]int{}}
	w := newWorldHub(t, processNATS(t), 0, fast, nil)
	w.bot = bots.wrap
	for i := range 3 {
		w.start(fmt.Sprintf("node%d", i))
	}
	r := servertest.NewRoom(t)
	r.Hold = 4
	var ps []*servertest.Player
	for i := range 12 {
		p := r.Join(fmt.Sprintf("f%02d", i), w.nodes[i%3].addr)
		r.Call(p, func() (ext.Out, error) {
			return p.C.Create("dots", 2, 0, []segment.KV{{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}})
		})
		r.Until(p.Name+"'s table", func() bool { return p.C.Table() != nil })
		r.Call(p, func() (ext.Out, error) { return p.C.Bot(segment.SeatAny) })
		ps = append(ps, p)
	}
	for _, p := range ps {
		r.Until(p.Name+"'s first four moves", servertest.Moves(p, 4))
		if p.C.Game().Over() {
			t.Fatalf("%s's game ended within four moves; the test needs it under way", p.Name)
		}
	}
	for i, p := range ps {
		if by, want := bots.nodes(p.C.Table().ID), w.nodes[i%3].name; !slices.Equal(by, []string{want}) {
			t.Fatalf("%s's table's computer moves were played by %v, want by %s, where it was opened", p.Name, by, want)
		}
	}

	// node 2 goes; its players come back on the others, and the moves
	// their tables wait for are played there
	strike(w, w.nodes[2])
	r.Hold = 0
	for i, p := range ps {
		if i%3 == 2 {
			r.Reconnect(p, w.nodes[i%2].addr)
		} else {
			r.Call(p, p.C.RequestView) // the answer wakes the player up
		}
	}
	r.Until("every game's end", servertest.Over(ps...))
	for i, p := range ps {
		if end := p.C.Game().End; end.Reason == "aborted" || end.Reason == "abandoned" {
			t.Fatalf("%s's game ended %+v", p.Name, end)
		}
		if by := bots.nodes(p.C.Table().ID); i%3 == 2 && (len(by) != 2 || !slices.Contains(by, "node2")) {
			t.Fatalf("%s's table's computer moves were played by %v, want node2's and then one survivor's", p.Name, by)
		}
	}
}
