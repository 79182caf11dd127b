package paisho

import (
	"slices"
	"testing"
)

func TestTileMovement(t *testing.T) {
	tests := []struct {
		name  string
		tiles []placed
		from  Point
		want  []Point
	}{
		{"lotus steps one point", []placed{H(Lotus, 0, 0)}, Point{0, 0}, pts(1, 0, -1, 0, 0, 1, 0, -1)},
		{"lotus never onto an empty temple", []placed{H(Lotus, 0, 7)}, Point{0, 7}, pts(1, 7, -1, 7, 0, 6)},
		{"lotus does not capture", []placed{H(Lotus, 0, 0), G(Lotus, 1, 0), H(Badgermole, -1, 0)}, Point{0, 0}, pts(0, 1, 0, -1)},
		{"badgermole steps one point", []placed{H(Badgermole, 0, 0)}, Point{0, 0}, pts(1, 0, -1, 0, 0, 1, 0, -1)},
		{"badgermole leaps beside flowers in sight, either player's",
			[]placed{H(Badgermole, 0, 0), H(Chrysanthemum, 0, 5), G(FireLily, -4, 0), H(Wheel, 3, 0), G(Lotus, 0, -6), H(Wheel, 0, -3)},
			Point{0, 0}, pts(1, 0, -1, 0, -3, 0, 0, 1, 0, 4, 0, -1)},
		{"badgermole leaps along the rim past an empty temple but not onto it",
			[]placed{H(Badgermole, -3, 8), H(Lotus, 1, 8)}, Point{-3, 8}, pts(-2, 8, -4, 8, -3, 7)},
		{"chrysanthemum never moves", []placed{H(Chrysanthemum, 0, 0)}, Point{0, 0}, nil},
		{"fire lily never moves", []placed{H(FireLily, 0, 0)}, Point{0, 0}, nil},
		{"white dragon anywhere within 5 of its fire lily",
			[]placed{H(FireLily, 0, 0), H(WhiteDragon, 0, 3), H(Wheel, 0, -5)}, Point{0, 3},
			within(Point{0, 0}, 5, Point{0, 0}, Point{0, 3}, Point{0, -5})},
		{"white dragon stays put without its fire lily", []placed{H(WhiteDragon, 0, 3), G(FireLily, 0, 0)}, Point{0, 3}, nil},
		{"wheel slides along diagonals", []placed{H(Wheel, 0, 0)}, Point{0, 0},
			pts(1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6,
				-1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -1, -1, -2, -2, -3, -3, -4, -4, -5, -5, -6, -6)},
		{"wheel stops before tiles it may not capture", []placed{H(Wheel, 0, 0), H(Badgermole, 2, 2), G(Badgermole, -3, 3), G(Chrysanthemum, 1, -1)},
			Point{0, 0}, pts(1, 1, -1, 1, -2, 2, -1, -1, -2, -2, -3, -3, -4, -4, -5, -5, -6, -6)},
		{"wheel never onto an empty temple", []placed{H(Wheel, 1, 7)}, Point{1, 7}, pts(2, 8, 2, 6, 3, 5, 4, 4, 5, 3, 6, 2, 7, 1, 0, 6, -1, 5, -2, 4, -3, 3, -4, 2, -5, 1, -6, 0, -7, -1, -8, -2)},
		{"sky bison flies 6 steps", []placed{H(SkyBison, 0, 0)}, Point{0, 0}, within(Point{0, 0}, 6, Point{0, 0})},
		{"sky bison leaves its temple", []placed{H(SkyBison, 0, 8)}, Point{0, 8}, within(Point{0, 8}, 6, Point{0, 8})},
		{"sky bison flies around tiles but not through them",
			[]placed{H(SkyBison, -8, 0), H(Badgermole, -7, 0), H(Badgermole, -8, 1), H(Chrysanthemum, -7, -1)},
			// The only way out is (-8,-1), and (-7,-1) makes the flight
			// round it long: (-6,0) is 6 steps away, (-5,0) 7.
			Point{-8, 0}, pts(-8, -1, -8, -2, -8, -3, -8, -4, -7, -2, -7, -3, -7, -4, -7, -5,
				-6, -4, -6, -3, -6, -2, -6, -1, -6, 0, -5, -3, -5, -2, -5, -1, -4, -2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, host, tt.tiles...)
			if got := targets(t, g, tt.from); !slices.Equal(got, tt.want) {
				t.Errorf("moves to\n %v\nwant\n %v", got, tt.want)
			}
		})
	}
}

func TestSkyBisonChrysanthemum(t *testing.T) {
	// An enemy Chrysanthemum on (0,2): the bison may stop beside it but not
	// fly on, so (0,3) lies 7 steps away round the far side, out of reach;
	// a friendly tile there is only an obstacle, leaving (0,3) 5 steps away.
	enemy := build(t, host, H(SkyBison, 0, 0), G(Chrysanthemum, 0, 2))
	got := targets(t, enemy, Point{0, 0})
	for _, p := range pts(0, 1, 1, 2, -1, 2, 1, 1, 1, 3, -1, 3) {
		if !has(got, p) {
			t.Errorf("bison cannot stop on %v beside the enemy Chrysanthemum", p)
		}
	}
	for _, p := range pts(0, 3) {
		if has(got, p) {
			t.Errorf("bison flies past the enemy Chrysanthemum to %v", p)
		}
	}
	friendly := build(t, host, H(SkyBison, 0, 0), H(Chrysanthemum, 0, 2))
	if got := targets(t, friendly, Point{0, 0}); !has(got, Point{0, 3}) {
		t.Error("a friendly Chrysanthemum stops the bison like an enemy one")
	}
	frozen := build(t, host, H(SkyBison, 0, 0), G(Chrysanthemum, 1, 0))
	if got := targets(t, frozen, Point{0, 0}); len(got) != 0 {
		t.Errorf("a frozen bison moves to %v", got)
	}
	diagonal := build(t, host, H(SkyBison, 0, 0), G(Chrysanthemum, 1, 1))
	if got := targets(t, diagonal, Point{0, 0}); len(got) == 0 {
		t.Error("a Chrysanthemum diagonally beside the bison freezes it")
	}
}

func TestSkyBisonZone(t *testing.T) {
	// The host bison on (-3,-3) flies up to 6 steps; the other tiles stand
	// at least 6 steps away, so they cut no flight and only a zone can
	// forbid a point.
	tests := []struct {
		name  string
		tiles []placed
		zone  bool // whether the guest bison on (-3,3) forbids its 6 steps
	}{
		{"an active enemy bison keeps others out of 6 steps", []placed{G(SkyBison, -3, 3)}, true},
		{"an enemy bison in its temple has no zone", []placed{G(SkyBison, -8, 0)}, false},
		{"a frozen enemy bison has no zone", []placed{G(SkyBison, -3, 3), H(Chrysanthemum, -3, 4)}, false},
		{"a friendly bison has no zone", []placed{H(SkyBison, -3, 3)}, false},
	}
	lone := targets(t, build(t, host, H(SkyBison, -3, -3)), Point{-3, -3})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, host, append([]placed{H(SkyBison, -3, -3)}, tt.tiles...)...)
			var want []Point
			for _, p := range lone {
				inZone := abs(int(p.X+3))+abs(int(p.Y-3)) <= 6
				if tile, _ := g.TileAt(p); tile == NoTile && !(tt.zone && inZone) {
					want = append(want, p)
				}
			}
			if got := targets(t, g, Point{-3, -3}); !slices.Equal(got, want) {
				t.Errorf("moves %v\nwant %v", got, want)
			}
		})
	}
	if want := within(Point{-3, -3}, 6, Point{-3, -3}); !slices.Equal(lone, want) {
		t.Errorf("a lone bison on (-3,-3) reaches %d points, want the %d within 6 steps", len(lone), len(want))
	}
}
