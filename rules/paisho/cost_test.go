package paisho

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// A table relays every move with its text, so writing one must not cost
// an allocation per point.
func TestMoveTextAllocatesOnce(t *testing.T) {
	for _, m := range []rules.Move{Deploy(WhiteDragon, Point{-8, 0}), MoveTile(Point{-8, 0}, Point{-6, -3})} {
		want := MoveText(m)
		if n := testing.AllocsPerRun(100, func() {
			if MoveText(m) != want {
				t.Fatal("text changed between calls")
			}
		}); n > 1 {
			t.Errorf("MoveText(%s) makes %v allocations, want at most 1", want, n)
		}
	}
}

// The checks Play makes on every move (may this deploy be made, has the
// next player any move left) answer as the full listings do, in positions
// of random games: deploys of every tile on every point, and both players.
func TestQuickChecksAgreeWithListings(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var tmp [cells]int16
	positions := 0
	for range 40 {
		g, _ := New(2, nil)
		for g.out.Status == rules.Running && g.pos.plies < 300 {
			ps := &g.pos
			for p := host; p <= guest; p++ {
				if got, want := ps.hasBoardMove(p), len(ps.appendBoardMoves(p, nil)) > 0; got != want {
					t.Fatalf("after %d plies seat %d: hasBoardMove %v, listing %v", ps.plies, p, got, want)
				}
				for tile := Lotus; tile < tileKinds; tile++ {
					targets := ps.deployTargets(p, tile, tmp[:0])
					if got, want := ps.canDeploy(p, tile, &tmp), len(targets) > 0; got != want {
						t.Fatalf("after %d plies seat %d %v: canDeploy %v, listing %v", ps.plies, p, tile, got, want)
					}
					targets = ps.deployTargets(p, tile, tmp[:0])
					for _, i := range geo.points {
						if got, want := ps.canDeployAt(p, tile, int(i)), slices.Contains(targets, i); got != want {
							t.Fatalf("after %d plies seat %d %v on %v: canDeployAt %v, listing %v", ps.plies, p, tile, pointOf(int(i)), got, want)
						}
					}
				}
			}
			positions++
			ms := ps.appendBoardMoves(ps.turn, nil)
			if len(ms) == 0 {
				break
			}
			if _, err := g.Play(ps.turn, ms[r.IntN(len(ms))], nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if positions < 1000 {
		t.Fatalf("only %d positions checked", positions)
	}
}
