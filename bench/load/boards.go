package load

import (
	"math/rand/v2"

	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// board is one legal placement of three planes, ready to send.
type board struct {
	seg   segment.Segment
	cells bomber.Set
}

// randomBoards draws n legal boards (three non-overlapping planes each).
func randomBoards(rng *rand.Rand, n int) []board {
	all := bomber.Placements()
	out := make([]board, 0, n)
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		var b bomber.Board
		for i := range b {
			b[i] = all[rng.IntN(len(all))]
		}
		cells, err := b.Cells()
		if err != nil {
			continue // planes overlap
		}
		out = append(out, board{seg: boardSegment(b), cells: cells})
	}
	return out
}

func boardSegment(b bomber.Board) segment.Segment {
	var cs [6]segment.Coord
	for i, p := range b {
		cs[2*i] = coordOf(p.Head)
		cs[2*i+1] = coordOf(p.Tail)
	}
	return segment.NewBoard(cs)
}

func coordOf(c bomber.Cell) segment.Coord {
	return segment.Coord{X: uint8(c.X()), Y: uint8(c.Y())}
}

// boardCells reads a Board segment into the set of cells its planes cover.
func boardCells(seg *segment.Segment) (bomber.Set, error) {
	cs, err := seg.Board()
	if err != nil {
		return bomber.Set{}, err
	}
	var b bomber.Board
	for i := range b {
		b[i] = bomber.Plane{
			Head: bomber.CellAt(int(cs[2*i].X), int(cs[2*i].Y)),
			Tail: bomber.CellAt(int(cs[2*i+1].X), int(cs[2*i+1].Y)),
		}
	}
	return b.Cells()
}

// planeCells is how many cells three planes cover: the hits that win.
const planeCells = 30
