package main

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules"
	bomberrules "github.com/bomber-game/bomber/rules/bomber"
)

// Drawing a Bomber board at a table plane by plane: the server's placement
// hints (docs/protocol.md section 10.1) say where the next plane's head may
// go and, for a picked head, its tails; the cursor moves on our own grid,
// p picks a head (a + cell) and then a tail (a + cell again), and the
// third plane sends the board. This client knows no plane shapes for it.

// tdraw is the board being drawn at a table.
type tdraw struct {
	planes []bomberrules.Plane
	pick   bomberrules.Cell // the picked head, or NoCell
	asked  []byte           // the chosen planes the last hints were asked for (nil: none asked)
}

// chosen is the planes drawn as HintReq carries them.
func (d *tdraw) chosen() []byte {
	b := []byte{}
	for _, p := range d.planes {
		b = append(b, byte(p.Head.X()), byte(p.Head.Y()), byte(p.Tail.X()), byte(p.Tail.Y()))
	}
	return b
}

// drawing reports whether our seat draws its Bomber board now.
func (m *tmodel) drawing() bool {
	if t := m.c.Table(); t == nil || t.Game != "bomber" {
		return false
	}
	v, ok := m.view()
	seat := m.c.Seat()
	return ok && seat >= 0 && bomberDrawing(v) && slices.Contains(v.ToMove, rules.Player(seat))
}

// heads is the server's hints for the planes drawn: each cell the next
// plane's head may take, with its tails; nil until they came.
func (m *tmodel) heads() map[bomberrules.Cell][]bomberrules.Cell {
	chosen, moves, ok := m.c.Hints()
	if !ok || !bytes.Equal(chosen, m.draw.chosen()) {
		return nil
	}
	out := map[bomberrules.Cell][]bomberrules.Cell{}
	for _, mv := range moves {
		h := bomberrules.CellAt(int(mv.Arg[0]), int(mv.Arg[1]))
		out[h] = append(out[h], bomberrules.CellAt(int(mv.Arg[2]), int(mv.Arg[3])))
	}
	return out
}

// askHints asks for the hints of the planes drawn, once for each set.
func (m *tmodel) askHints() {
	if !m.drawing() {
		m.draw = tdraw{pick: bomberrules.NoCell}
		return
	}
	c := m.draw.chosen()
	if m.draw.asked != nil && bytes.Equal(m.draw.asked, c) {
		return
	}
	m.draw.asked = c
	m.act(m.c.AskHints(c))
}

// plane is p while drawing: pick the head under the cursor, put it down,
// or place the plane to the tail under it.
func (m *tmodel) plane() {
	if !m.drawing() {
		m.err = "p draws a plane while you place your board"
		return
	}
	heads := m.heads()
	if heads == nil {
		m.err = "asking the server where planes may go"
		return
	}
	c := bomberrules.CellAt(m.cur.y, m.cur.x)
	d := &m.draw
	switch {
	case d.pick == bomberrules.NoCell && len(heads[c]) > 0:
		d.pick = c
	case d.pick == bomberrules.NoCell:
		m.err = fmt.Sprintf("no plane can have its head at %d%d", m.cur.y, m.cur.x)
	case c == d.pick:
		d.pick = bomberrules.NoCell
	case slices.Contains(heads[d.pick], c):
		d.planes = append(d.planes, bomberrules.Plane{Head: d.pick, Tail: c})
		d.pick = bomberrules.NoCell
		if len(d.planes) == 3 {
			b := bomberrules.Board{d.planes[0], d.planes[1], d.planes[2]}
			d.planes = nil
			m.act(m.c.MoveText(boardText(b)))
			return
		}
		m.askHints()
	default:
		m.err = "not a tail of that head: pick a + cell, or p on the head to put it down"
	}
}
