package main

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/bomber/bot"
)

// Orientation is where a plane's nose points while drawing.
type orientation int

// Orientations, in the order r cycles through them.
const (
	noseUp    orientation = iota // nose toward row A, tail below the head
	noseRight                    // nose toward column 9
	noseDown                     // nose toward row J
	noseLeft                     // nose toward column 0
)

var orientationNames = [...]string{"nose up", "nose right", "nose down", "nose left"}

func (o orientation) String() string { return orientationNames[o&3] }

// pos is a board position that may lie off the board (a preview can hang
// over the edge).
type pos struct{ x, y int }

func (p pos) cell() bomber.Cell { return bomber.CellAt(p.x, p.y) }

// planeAt is the plane with its head at h pointing o. Its tail may be off
// the board.
func planeAt(h pos, o orientation) (bomber.Plane, []pos) {
	// Offsets for a plane with its nose up: head, wings, body, tail.
	up := []pos{{0, 0}, {1, -2}, {1, -1}, {1, 0}, {1, 1}, {1, 2}, {2, 0}, {3, -1}, {3, 0}, {3, 1}}
	cells := make([]pos, len(up))
	for i, d := range up {
		cells[i] = pos{h.x + rot(d, o).x, h.y + rot(d, o).y}
	}
	t := pos{h.x + rot(pos{3, 0}, o).x, h.y + rot(pos{3, 0}, o).y}
	return bomber.Plane{Head: h.cell(), Tail: t.cell()}, cells
}

// rot turns an offset from the nose-up frame to orientation o.
func rot(d pos, o orientation) pos {
	switch o & 3 {
	case noseRight: // tail toward column 0
		return pos{d.y, -d.x}
	case noseDown:
		return pos{-d.x, -d.y}
	case noseLeft:
		return pos{-d.y, d.x}
	}
	return d
}

// drawing is the plane-drawing screen's state: pure, tested without a
// terminal.
type drawing struct {
	cur     pos
	orient  orientation
	placed  []bomber.Plane
	rng     rules.Rand
	suggest bomber.Board // a random valid board: where the cursor offers each plane
}

// preview is the plane under the cursor, its cells, and why it cannot be
// placed (nil when it can).
func (d *drawing) preview() (bomber.Plane, []pos, error) {
	p, cells := planeAt(d.cur, d.orient)
	if len(d.placed) >= 3 {
		return p, cells, errThreePlaced
	}
	if _, err := p.Cells(); err != nil {
		return p, cells, err
	}
	var have bomber.Set
	for _, q := range d.placed {
		s, _ := q.Cells()
		have = have.Union(s)
	}
	s, _ := p.Cells()
	if !have.Inter(s).Empty() {
		return p, cells, bomber.ErrOverlap
	}
	return p, cells, nil
}

// newDrawing is a clean sheet with the cursor on a plane that can be
// placed: the first of a random valid board, so the first thing a player
// sees is a plane that fits, and enter three times gives a board nobody
// can predict.
func newDrawing(rng rules.Rand) drawing {
	d := drawing{rng: rng, suggest: bot.RandomBoard(rng)}
	d.fit()
	return d
}

// place adds the previewed plane when it is valid, then moves the cursor
// to where the next plane fits.
func (d *drawing) place() error {
	p, _, err := d.preview()
	if err != nil {
		return err
	}
	d.placed = append(d.placed, p)
	if len(d.placed) < 3 {
		d.fit()
	}
	return nil
}

// fit moves the cursor (and turns the plane) to where the next plane of the
// random board lies; when the player's own planes are in its way, to a
// random place where some plane fits; it stays when none is left.
func (d *drawing) fit() {
	from, orient := d.cur, d.orient
	if k := len(d.placed); k < 3 {
		d.cur, d.orient = headOf(d.suggest[k])
		if _, _, err := d.preview(); err == nil {
			return
		}
	}
	var fits []pos
	var turns []orientation
	for o := noseUp; o <= noseLeft; o++ {
		for x := 0; x < bomber.Size; x++ {
			for y := 0; y < bomber.Size; y++ {
				d.cur, d.orient = pos{x, y}, o
				if _, _, err := d.preview(); err == nil {
					fits, turns = append(fits, d.cur), append(turns, o)
				}
			}
		}
	}
	if len(fits) == 0 {
		d.cur, d.orient = from, orient
		return
	}
	i := d.rng.IntN(len(fits))
	d.cur, d.orient = fits[i], turns[i]
}

// headOf is where a plane's head is and which way its nose points.
func headOf(p bomber.Plane) (pos, orientation) {
	h := pos{p.Head.X(), p.Head.Y()}
	for o := noseUp; o <= noseLeft; o++ {
		if q, _ := planeAt(h, o); q == p {
			return h, o
		}
	}
	return h, noseUp
}

// undo removes the last plane placed.
func (d *drawing) undo() {
	if len(d.placed) > 0 {
		d.placed = d.placed[:len(d.placed)-1]
	}
}

// board is the three placed planes, once there are three.
func (d *drawing) board() (bomber.Board, bool) {
	var b bomber.Board
	if len(d.placed) != 3 {
		return b, false
	}
	copy(b[:], d.placed)
	return b, true
}

func (d *drawing) move(dx, dy int) {
	d.cur.x = clamp(d.cur.x+dx, 0, bomber.Size-1)
	d.cur.y = clamp(d.cur.y+dy, 0, bomber.Size-1)
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

var errThreePlaced = errorString("three planes are placed: press s to send them, u to undo")

type errorString string

func (e errorString) Error() string { return string(e) }
