package bomber

import (
	"errors"
	"fmt"
	"math/bits"
)

// Size is the side of the square board.
const Size = 10

// PlaneCells is the number of cells one plane covers.
const PlaneCells = 10

// Cell is a board cell numbered X*10+Y, with X the row and Y the column
// (the reference client indexes its maps [x][y]).
type Cell uint8

// NoCell is outside the board.
const NoCell Cell = 255

// CellAt returns the cell at row x, column y, or NoCell when off the board.
func CellAt(x, y int) Cell {
	if x < 0 || x >= Size || y < 0 || y >= Size {
		return NoCell
	}
	return Cell(x*Size + y)
}

// X is the cell's row.
func (c Cell) X() int { return int(c) / Size }

// Y is the cell's column.
func (c Cell) Y() int { return int(c) % Size }

func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c.X(), c.Y()) }

// Set is a set of cells as a 100-bit bitset.
type Set struct{ lo, hi uint64 }

// Add returns s with c added.
func (s Set) Add(c Cell) Set {
	if c < 64 {
		s.lo |= 1 << c
	} else {
		s.hi |= 1 << (c - 64)
	}
	return s
}

// Has reports whether c is in s.
func (s Set) Has(c Cell) bool {
	if c < 64 {
		return s.lo&(1<<c) != 0
	}
	return c < Size*Size && s.hi&(1<<(c-64)) != 0
}

// Union returns the cells in s or t.
func (s Set) Union(t Set) Set { return Set{s.lo | t.lo, s.hi | t.hi} }

// Inter returns the cells in both s and t.
func (s Set) Inter(t Set) Set { return Set{s.lo & t.lo, s.hi & t.hi} }

// Minus returns the cells of s not in t.
func (s Set) Minus(t Set) Set { return Set{s.lo &^ t.lo, s.hi &^ t.hi} }

// Len is the number of cells in s.
func (s Set) Len() int { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

// Empty reports whether s has no cell.
func (s Set) Empty() bool { return s.lo == 0 && s.hi == 0 }

// Plane is a plane given as the reference protocol gives it: its head and the
// middle cell of its tail, three cells apart along a row or a column.
type Plane struct{ Head, Tail Cell }

// Errors from plane and board checks; they wrap rules.ErrIllegal where they
// reach Play.
var (
	ErrPlaneShape = errors.New("head and tail centre are not 3 cells apart in one line")
	ErrOffBoard   = errors.New("plane leaves the board")
	ErrOverlap    = errors.New("planes overlap")
)

// Cells returns the plane's cells: head, five wing cells, body, three tail
// cells. For a plane pointing up (nose toward row 0) with head (x,y) they
// are (x,y); (x+1,y-2..y+2); (x+2,y); (x+3,y-1..y+1); the other three
// orientations are rotations of that.
func (p Plane) Cells() (Set, error) {
	if p.Head >= Size*Size || p.Tail >= Size*Size {
		return Set{}, ErrOffBoard
	}
	hx, hy, tx, ty := p.Head.X(), p.Head.Y(), p.Tail.X(), p.Tail.Y()
	dx, dy := tx-hx, ty-hy
	if !(dx == 0 && (dy == 3 || dy == -3)) && !(dy == 0 && (dx == 3 || dx == -3)) {
		return Set{}, ErrPlaneShape
	}
	ux, uy := dx/3, dy/3 // unit step from head toward tail
	vx, vy := uy, ux     // across the plane
	var s Set
	add := func(along, across int) bool {
		c := CellAt(hx+along*ux+across*vx, hy+along*uy+across*vy)
		if c == NoCell {
			return false
		}
		s = s.Add(c)
		return true
	}
	ok := add(0, 0)
	for k := -2; k <= 2; k++ {
		ok = add(1, k) && ok
	}
	ok = add(2, 0) && ok
	for k := -1; k <= 1; k++ {
		ok = add(3, k) && ok
	}
	if !ok {
		return Set{}, ErrOffBoard
	}
	return s, nil
}

// Board is a player's three planes.
type Board [3]Plane

// Cells returns every cell the board's planes cover, checking that each plane
// is well formed and on the board and that no two overlap.
func (b Board) Cells() (Set, error) {
	var all Set
	for i, p := range b {
		s, err := p.Cells()
		if err != nil {
			return Set{}, fmt.Errorf("plane %d %v-%v: %w", i+1, p.Head, p.Tail, err)
		}
		if !all.Inter(s).Empty() {
			return Set{}, fmt.Errorf("plane %d %v-%v: %w", i+1, p.Head, p.Tail, ErrOverlap)
		}
		all = all.Union(s)
	}
	return all, nil
}

// placements lists every plane that fits on the board: 42 positions for each
// of the four orientations.
var placements = func() []Plane {
	var ps []Plane
	for h := Cell(0); h < Size*Size; h++ {
		for _, d := range [4][2]int{{3, 0}, {0, -3}, {-3, 0}, {0, 3}} {
			t := CellAt(h.X()+d[0], h.Y()+d[1])
			if t == NoCell {
				continue
			}
			p := Plane{h, t}
			if _, err := p.Cells(); err == nil {
				ps = append(ps, p)
			}
		}
	}
	return ps
}()

// Placements returns every plane that fits on the board (a fresh copy).
func Placements() []Plane { return append([]Plane(nil), placements...) }
