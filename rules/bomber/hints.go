package bomber

import (
	"fmt"
	"sync"

	"github.com/bomber-game/bomber/rules"
)

// NextParts implements rules.PartHints: while seat p draws its board, the
// planes it may add to the planes chosen so far (a 4-byte part head x, y,
// tail x, y each, at most two) so that the board can still be completed
// with three planes clear of each other. Each is a Move of KindBoard with
// Len 4. It says nothing about the other seat's board.
func (g *Game) NextParts(p rules.Player, chosen []byte, buf []rules.Move) ([]rules.Move, error) {
	if err := seatOK(p); err != nil {
		return buf, err
	}
	if g.phase != Drawing || g.seats[p].placed {
		return buf, fmt.Errorf("%w: no board to draw", rules.ErrNotYourTurn)
	}
	if len(chosen)%4 != 0 || len(chosen) > 8 {
		return buf, fmt.Errorf("%w: %d bytes of chosen planes (0, 4 or 8)", rules.ErrIllegal, len(chosen))
	}
	var used Set
	for i := 0; i < len(chosen); i += 4 {
		if chosen[i] >= Size || chosen[i+1] >= Size || chosen[i+2] >= Size || chosen[i+3] >= Size {
			return buf, fmt.Errorf("%w: plane %d: %v", rules.ErrIllegal, i/4+1, ErrOffBoard)
		}
		s, err := Plane{CellAt(int(chosen[i]), int(chosen[i+1])), CellAt(int(chosen[i+2]), int(chosen[i+3]))}.Cells()
		if err == nil && !used.Inter(s).Empty() {
			err = ErrOverlap
		}
		if err != nil {
			return buf, fmt.Errorf("%w: plane %d: %w", rules.ErrIllegal, i/4+1, err)
		}
		used = used.Union(s)
	}
	if len(chosen) == 0 {
		// the same for every board, and the dearest to work out (a
		// search of three planes from each of the 168): worked out once
		return append(buf, firstParts()...), nil
	}
	n := len(buf)
	buf = nextParts(used, 3-len(chosen)/4, buf)
	if len(buf) == n {
		return buf, fmt.Errorf("%w: no plane completes this board", rules.ErrIllegal)
	}
	return buf, nil
}

// nextParts appends the placements clear of used that leave room for
// left-1 more planes after them.
func nextParts(used Set, left int, buf []rules.Move) []rules.Move {
	for i, pl := range placements {
		if fits(used, i, left) {
			buf = append(buf, rules.Move{Kind: KindBoard, Len: 4, Arg: [rules.MoveArgs]uint8{
				uint8(pl.Head.X()), uint8(pl.Head.Y()), uint8(pl.Tail.X()), uint8(pl.Tail.Y())}})
		}
	}
	return buf
}

// firstParts is nextParts on an empty board, built on first use and never
// changed.
var firstParts = sync.OnceValue(func() []rules.Move { return nextParts(Set{}, 3, nil) })

// fits reports whether placement i, clear of used, leaves room for left-1
// more planes clear of each other.
func fits(used Set, i, left int) bool {
	c := placementCells()[i]
	if !used.Inter(c).Empty() {
		return false
	}
	if left == 1 {
		return true
	}
	used = used.Union(c)
	for j := range placements {
		if fits(used, j, left-1) {
			return true
		}
	}
	return false
}

// placementCells holds the cells of each of the placements, by index.
var placementCells = func() func() []Set {
	cells := make([]Set, len(placements))
	for i, pl := range placements {
		cells[i], _ = pl.Cells()
	}
	return func() []Set { return cells }
}()
var _ rules.PartHints = (*Game)(nil)
