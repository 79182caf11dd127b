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
// of the tables it owns, not the leader those of all. Twelve players, six
// on each of two nodes of three, each open a Dots and Boxes table against
// the computer. Each table's computer moves are played by one node, and
// every node plays some, the one without players too. That node is then
// killed mid-game: the moves its tables wait for are played by the
// survivors once the world declares it gone, and every game ends.
func TestComputerPlayersSpreadOverNodes(t *testing.T) {
	needNATS(t)
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
		p := r.Join(fmt.Sprintf("f%02d", i), w.nodes[i%2].addr)
		r.Call(p, func() (ext.Out, error) {
			return p.C.Create("dots", 2, 0, []segment.KV{{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}})
		})
		r.Until(p.Name+"'s table", func() bool { return p.C.Table() != nil })
		r.Call(p, func() (ext.Out, error) { return p.C.Bot(segment.SeatAny) })
		ps = append(ps, p)
	}
	for _, p := range ps {
		r.Until(p.Name+"'s first four moves", servertest.Moves(p, 4))
	}
	ran := map[string][]uint32{} // node → the tables whose computer it ran
	for _, p := range ps {
		id := p.C.Table().ID
		by := bots.nodes(id)
		if len(by) != 1 {
			t.Fatalf("table %d's computer moves were played by %v, want one node", id, by)
		}
		ran[by[0]] = append(ran[by[0]], id)
	}
	t.Logf("tables by the node that ran their computer players: %v", ran)
	for _, n := range w.nodes {
		if len(ran[n.name]) == 0 {
			t.Fatalf("%s ran no table's computer player: %v", n.name, ran)
		}
	}
	if slices.ContainsFunc(ps, func(p *servertest.Player) bool { return p.C.Game().Over() }) {
		t.Fatal("a game ended within four moves; the test needs them under way")
	}

	// node 2 dies; the players go on, and the moves node 2 owed are played
	// by the others
	w.crash(w.nodes[2])
	r.Hold = 0
	for _, p := range ps {
		r.Call(p, p.C.RequestView) // the answer wakes the players up
	}
	r.Until("every game's end", servertest.Over(ps...))
	for _, id := range ran["node2"] {
		if by := bots.nodes(id); len(by) != 2 || !slices.Contains(by, "node2") {
			t.Fatalf("table %d's computer moves were played by %v, want node2 and then one survivor", id, by)
		}
	}
	for _, p := range ps {
		if end := p.C.Game().End; end.Reason == "aborted" || end.Reason == "abandoned" {
			t.Fatalf("%s's game ended %+v", p.Name, end)
		}
	}
}
