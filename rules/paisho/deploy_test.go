package paisho

import (
	"errors"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestOpeningDeploys(t *testing.T) {
	g, _ := New(2, nil)
	temples := Temples()
	allTemples := pts(0, 8, 0, -8, 8, 0, -8, 0)
	nonTemples := within(Point{0, 0}, 16, temples[:]...)
	tests := []struct {
		tile Tile
		want []Point
	}{
		{Lotus, nonTemples},
		{SkyBison, allTemples},
		{Badgermole, nonTemples},
		{Wheel, nonTemples},
		{Chrysanthemum, nonTemples},
		{FireLily, nonTemples},
		{WhiteDragon, nil}, // no Fire Lily yet
	}
	for _, tt := range tests {
		if got := deploys(g, host, tt.tile); !slices.Equal(got, tt.want) {
			t.Errorf("%v deploys on %d points, want %d", tt.tile, len(got), len(tt.want))
		}
	}
	if n := len(nonTemples); n != 245 {
		t.Errorf("%d non-temple points, want 245", n)
	}
}

func TestDeployRules(t *testing.T) {
	tests := []struct {
		name  string
		tiles []placed
		tile  Tile
		want  []Point
	}{
		{"sky bison only onto empty temples", []placed{G(SkyBison, 0, 8), H(Lotus, 8, 1)}, SkyBison, pts(0, -8, 8, 0, -8, 0)},
		{"white dragon within 5 of its fire lily", []placed{H(FireLily, 0, 0)}, WhiteDragon, within(Point{0, 0}, 5, Point{0, 0})},
		{"white dragon ignores the enemy fire lily", []placed{G(FireLily, 0, 0)}, WhiteDragon, nil},
		{"white dragon never onto a temple or a tile", []placed{H(FireLily, 0, 6), G(Wheel, 1, 6)}, WhiteDragon,
			within(Point{0, 6}, 5, Point{0, 6}, Point{1, 6}, Point{0, 8})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, host, tt.tiles...)
			if got := deploys(g, host, tt.tile); !slices.Equal(got, tt.want) {
				t.Errorf("deploys %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDeployRefusals(t *testing.T) {
	tests := []struct {
		name string
		m    rules.Move
	}{
		{"lotus onto a temple", Deploy(Lotus, Point{0, 8})},
		{"sky bison off the temples", Deploy(SkyBison, Point{0, 0})},
		{"onto an occupied point", Deploy(Wheel, Point{1, 1})},
		{"a tile no longer in the library", Deploy(FireLily, Point{3, 3})},
		{"white dragon far from its fire lily", Deploy(WhiteDragon, Point{-6, 0})},
		{"off the board", Deploy(Wheel, Point{8, 8})},
		{"not a tile", Deploy(NoTile, Point{2, 2})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, host, H(FireLily, 1, 1))
			before := g.View(rules.Spectator)
			if _, err := g.Play(host, tt.m, nil); !errors.Is(err, rules.ErrIllegal) {
				t.Errorf("Play(%s): err %v, want ErrIllegal", MoveText(tt.m), err)
			}
			if g.View(rules.Spectator) != before {
				t.Error("a refused deploy changed the game")
			}
		})
	}
}

func TestDeployTakesFromLibrary(t *testing.T) {
	g, _ := New(2, nil)
	steps, err := g.Play(host, Deploy(SkyBison, Point{0, 8}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Library(host, SkyBison); got != 1 {
		t.Errorf("host has %d Sky Bisons left, want 1", got)
	}
	if tile, owner := g.TileAt(Point{0, 8}); tile != SkyBison || owner != host {
		t.Errorf("(0,8) holds %v of seat %d", tile, owner)
	}
	want := rules.Step{Kind: StepDeploy, Player: host, A: int16(SkyBison), B: PointCode(Point{0, 8})}
	if len(steps) != 1 || steps[0] != want {
		t.Errorf("steps %+v, want %+v", steps, want)
	}
	if g.ToMove(nil)[0] != guest {
		t.Error("the guest does not move second")
	}
}
