package ext

import (
	"testing"

	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/segment"
)

// TestLateWatcherCountsTheMoves: a watcher who comes in after two moves is
// sent those moves, with their steps, before the position: its list is
// whole (nothing counted as earlier), and it counts on from there.
func TestLateWatcherCountsTheMoves(t *testing.T) {
	n := newHubNet(t, 3)
	a, b, w := n.login("Albert"), n.login("Beth"), n.login("Cindy")
	n.do(a)(a.Create("checkers", 2, 0, nil))
	n.do(b)(b.Join(a.Table().ID, segment.SeatAny, ""))
	n.do(a)(a.Ready())
	n.do(b)(b.Ready())
	n.do(a)(a.MoveText("11-15"))
	n.do(b)(b.MoveText("22-18"))
	n.do(w)(w.Watch(a.Table().ID, ""))
	g := w.Game()
	if g == nil || g.Earlier != 0 || len(g.Moves) != 2 || g.Played() != 2 || g.Moves[1].Notation != "22-18" || len(g.Steps(2)) == 0 {
		t.Fatalf("the watcher's game: %+v", g)
	}
	n.do(a)(a.MoveText("15x22"))
	if g := w.Game(); g.Played() != 3 || len(g.Moves) != 3 || g.Moves[2].Notation != "15x22" {
		t.Fatalf("after a third move the watcher has %d moves: %+v", g.Played(), g.Moves)
	}
	if g := a.Game(); g.Earlier != 0 || g.Played() != 3 {
		t.Fatalf("a player who saw every move counts %d earlier, %d in all", g.Earlier, g.Played())
	}
}

// TestStepsOfEachMove: the client keeps what each move did, by its
// sequence number: an Aeroplane Chess roll's face comes with it.
func TestStepsOfEachMove(t *testing.T) {
	n := newHubNet(t, 5)
	a, b := n.login("Albert"), n.login("Beth")
	n.do(a)(a.Create("aeroplane", 2, 0, nil))
	n.do(b)(b.Join(a.Table().ID, segment.SeatAny, ""))
	n.do(a)(a.Ready())
	n.do(b)(b.Ready())
	n.do(a)(a.MoveText("roll"))
	for _, c := range []*Client{a, b} {
		g := c.Game()
		st := g.Steps(g.Moves[0].Seq)
		if len(st) == 0 || st[0].Kind != aeroplane.StepRoll || st[0].A < 1 || st[0].A > 6 {
			t.Fatalf("%s: the roll's steps are %+v", c.User(), st)
		}
	}
}
