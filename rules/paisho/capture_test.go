package paisho

import (
	"errors"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestCaptureRestrictions(t *testing.T) {
	// The host Wheel on (0,0) eyes the guest tile on (2,2).
	wheel := H(Wheel, 0, 0)
	tests := []struct {
		name  string
		tiles []placed
		want  bool
	}{
		{"no flower capture before the capturer's lotus is out", []placed{wheel, G(Chrysanthemum, 2, 2), G(Lotus, 6, -3)}, false},
		{"flower capture once the capturer's lotus is out", []placed{wheel, G(Chrysanthemum, 2, 2), H(Lotus, -6, 3)}, true},
		{"no non-flower capture with only the capturer's lotus out", []placed{wheel, G(Badgermole, 2, 2), H(Lotus, -6, 3)}, false},
		{"no non-flower capture with only the victim's lotus out", []placed{wheel, G(Badgermole, 2, 2), G(Lotus, 6, -3)}, false},
		{"non-flower capture once both lotuses are out", []placed{wheel, G(Badgermole, 2, 2), H(Lotus, -6, 3), G(Lotus, 6, -3)}, true},
		{"a badgermole guards the flower beside it", []placed{wheel, G(FireLily, 2, 2), G(Badgermole, 2, 3), H(Lotus, -6, 3), G(Lotus, 6, -3)}, false},
		{"a badgermole does not guard diagonally", []placed{wheel, G(FireLily, 2, 2), G(Badgermole, 3, 3), H(Lotus, -6, 3), G(Lotus, 6, -3)}, true},
		{"a badgermole guards only its owner's flowers", []placed{wheel, G(FireLily, 2, 2), H(Badgermole, 2, 3), H(Lotus, -6, 3), G(Lotus, 6, -3)}, true},
		{"a badgermole does not guard non-flowers", []placed{wheel, G(Wheel, 2, 2), G(Badgermole, 2, 3), H(Lotus, -6, 3), G(Lotus, 6, -3)}, true},
		{"a guarded lotus is safe", []placed{wheel, G(Lotus, 2, 2), G(Badgermole, 1, 2), H(Lotus, -6, 3)}, false},
		{"own tiles are never captured", []placed{wheel, H(Chrysanthemum, 2, 2), H(Lotus, -6, 3), G(Lotus, 6, -3)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, host, tt.tiles...)
			if got := has(targets(t, g, Point{0, 0}), Point{2, 2}); got != tt.want {
				t.Errorf("wheel may capture on (2,2): %v, want %v", got, tt.want)
			}
			if !tt.want {
				if _, err := g.Play(host, MoveTile(Point{0, 0}, Point{2, 2}), nil); !errors.Is(err, rules.ErrIllegal) {
					t.Errorf("Play of the capture: err %v, want ErrIllegal", err)
				}
			}
		})
	}
}

func TestOnlyBisonWheelAndDragonCapture(t *testing.T) {
	both := []placed{H(Lotus, -6, 3), G(Lotus, 6, -3)}
	tests := []struct {
		capturer placed
		want     bool
	}{
		{H(SkyBison, 0, 0), true},
		{H(Wheel, 0, -1), true},
		{H(WhiteDragon, 0, 2), true},
		{H(Badgermole, 0, 0), false},
		{H(Chrysanthemum, 0, 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.capturer.tile.String(), func(t *testing.T) {
			// A Fire Lily on (-2,0) lets the Dragon reach (1,0).
			g := build(t, host, append([]placed{tt.capturer, G(Wheel, 1, 0), H(FireLily, -2, 0)}, both...)...)
			from := Point{tt.capturer.x, tt.capturer.y}
			if got := has(targets(t, g, from), Point{1, 0}); got != tt.want {
				t.Errorf("%v may capture on (1,0): %v, want %v", tt.capturer.tile, got, tt.want)
			}
		})
	}
	lotus := build(t, host, H(Lotus, 0, 0), G(Wheel, 1, 0), G(Lotus, 6, -3))
	if has(targets(t, lotus, Point{0, 0}), Point{1, 0}) {
		t.Error("the White Lotus captures")
	}
}

func TestSkyBisonCannotCaptureInsideAZone(t *testing.T) {
	both := []placed{H(Lotus, -6, 3), G(Lotus, 6, -3)}
	active := build(t, host, append([]placed{H(SkyBison, 0, 0), G(SkyBison, 0, 3)}, both...)...)
	if has(targets(t, active, Point{0, 0}), Point{0, 3}) {
		t.Error("a bison captures an active enemy bison, inside its zone")
	}
	temple := build(t, host, append([]placed{H(SkyBison, 0, 3), G(SkyBison, 0, 8)}, both...)...)
	if !has(targets(t, temple, Point{0, 3}), Point{0, 8}) {
		t.Error("a bison cannot capture an enemy bison sitting in its temple")
	}
}

func TestCaptureScoresAndSteps(t *testing.T) {
	g := build(t, host, H(Wheel, 0, 0), G(Chrysanthemum, 2, 2), H(Lotus, -6, 3))
	steps, err := g.Play(host, MoveTile(Point{0, 0}, Point{2, 2}), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []rules.Step{
		{Kind: StepMove, Player: host, A: int16(Wheel), B: PointCode(Point{0, 0}), C: PointCode(Point{2, 2})},
		{Kind: StepCapture, Player: host, A: int16(Chrysanthemum), B: PointCode(Point{2, 2}), C: int16(guest)},
	}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %+v, want %+v", steps, want)
	}
	if got := g.Scores(nil); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("scores %v, want [1 0]", got)
	}
	if tile, owner := g.TileAt(Point{2, 2}); tile != Wheel || owner != host {
		t.Errorf("(2,2) holds %v of seat %d", tile, owner)
	}
	if g.Outcome().Status != rules.Running {
		t.Error("capturing a Chrysanthemum ended the game")
	}
}

func TestLotusCaptureWins(t *testing.T) {
	for _, seat := range []rules.Player{host, guest} {
		other := 1 - seat
		g := build(t, seat,
			placed{seat, WhiteDragon, 3, 3}, placed{seat, FireLily, 3, 0}, placed{seat, Lotus, -6, 3},
			placed{other, Lotus, 2, -1}, placed{other, SkyBison, -8, 0})
		steps, err := g.Play(seat, MoveTile(Point{3, 3}, Point{2, -1}), nil)
		if err != nil {
			t.Fatal(err)
		}
		if steps[len(steps)-1].Kind != StepCapture || steps[len(steps)-1].A != int16(Lotus) {
			t.Errorf("steps %+v do not end with the Lotus capture", steps)
		}
		out := g.Outcome()
		if out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{seat}) || out.Reason == "" {
			t.Errorf("outcome %+v, want a win for seat %d", out, seat)
		}
		if len(g.ToMove(nil)) != 0 || len(g.Legal(other, nil)) != 0 {
			t.Error("moves remain after the Lotus fell")
		}
		if _, err := g.Play(other, MoveTile(Point{-8, 0}, Point{-7, 0}), nil); !errors.Is(err, rules.ErrGameOver) {
			t.Errorf("move after the end: err %v, want ErrGameOver", err)
		}
	}
}
