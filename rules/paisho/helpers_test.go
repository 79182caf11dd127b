package paisho

import (
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// placed is one tile of a hand-built position.
type placed struct {
	owner rules.Player
	tile  Tile
	x, y  int8
}

// H places a host tile on (x, y).
func H(t Tile, x, y int8) placed { return placed{host, t, x, y} }

// G places a guest tile on (x, y).
func G(t Tile, x, y int8) placed { return placed{guest, t, x, y} }

// build returns a game whose board holds exactly the given tiles, each taken
// from its owner's library, with turn to move.
func build(t *testing.T, turn rules.Player, tiles ...placed) *Game {
	t.Helper()
	g, err := New(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range tiles {
		p := Point{pl.x, pl.y}
		if !p.OnBoard() || g.pos.board[p.index()] != 0 || g.pos.lib[pl.owner][pl.tile] == 0 {
			t.Fatalf("cannot place %v of seat %d on %v", pl.tile, pl.owner, p)
		}
		g.pos.lib[pl.owner][pl.tile]--
		g.pos.board[p.index()] = mkCell(pl.tile, pl.owner)
	}
	g.pos.turn = turn
	g.pos.plies = int32(turn)
	return g
}

// targets lists, sorted, where the tile on from may go according to Legal.
func targets(t *testing.T, g *Game, from Point) []Point {
	t.Helper()
	tile, owner := g.TileAt(from)
	if tile == NoTile {
		t.Fatalf("no tile on %v", from)
	}
	if owner != g.pos.turn {
		saved := g.pos.turn
		g.pos.turn = owner
		defer func() { g.pos.turn = saved }()
	}
	var out []Point
	for _, m := range g.Legal(owner, nil) {
		if f, to, ok := MoveOf(m); ok && f == from {
			out = append(out, to)
		}
	}
	sortPoints(out)
	return out
}

// deploys lists, sorted, where p may deploy tile according to Legal.
func deploys(g *Game, p rules.Player, tile Tile) []Point {
	var out []Point
	for _, m := range g.Legal(p, nil) {
		if tt, at, ok := DeployOf(m); ok && tt == tile {
			out = append(out, at)
		}
	}
	sortPoints(out)
	return out
}

func sortPoints(ps []Point) {
	slices.SortFunc(ps, func(a, b Point) int { return a.index() - b.index() })
}

func pts(coords ...int8) []Point {
	var out []Point
	for i := 0; i+1 < len(coords); i += 2 {
		out = append(out, Point{coords[i], coords[i+1]})
	}
	sortPoints(out)
	return out
}

// within lists every playable point at most r steps from c, minus skip.
func within(c Point, r int, skip ...Point) []Point {
	var out []Point
	for _, p := range Points() {
		if abs(int(p.X-c.X))+abs(int(p.Y-c.Y)) <= r && !slices.Contains(skip, p) {
			out = append(out, p)
		}
	}
	sortPoints(out)
	return out
}

func has(ps []Point, p Point) bool { return slices.Contains(ps, p) }
