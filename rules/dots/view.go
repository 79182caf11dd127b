package dots

import (
	"fmt"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// View draws the grid; Dots and Boxes has no hidden information, so every
// viewer sees the same text. Dots are '+', lines '---' and '|', and a
// scored box shows its owner's seat number. Seats that resigned are listed
// after the scores ("; left 2").
//
//	dots 3x3, 2 players; seat 1 to move; scores 1 0
//	   a   b   c
//	1  +---+---+
//	   | 0 |
//	2  +---+   +
//
//	3  +   +   +
func (g *Game) View(_ rules.Player) string {
	var sb strings.Builder
	b := g.b
	fmt.Fprintf(&sb, "dots %dx%d, %d players; ", b.rows, b.cols, g.players)
	if g.Over() {
		sb.WriteString("game over")
	} else {
		fmt.Fprintf(&sb, "seat %d to move", g.turn)
	}
	sb.WriteString("; scores")
	for _, s := range g.scores[:g.players] {
		fmt.Fprintf(&sb, " %d", s)
	}
	if g.active < g.players {
		sb.WriteString("; left")
		for p := range g.players {
			if g.gone[p] {
				fmt.Fprintf(&sb, " %d", p)
			}
		}
	}
	sb.WriteString("\n  ")
	for c := range b.cols {
		fmt.Fprintf(&sb, " %c  ", 'a'+c)
	}
	sb.WriteByte('\n')
	for r := range b.rows {
		fmt.Fprintf(&sb, "%-2d +", r+1)
		for c := 0; c < b.cols-1; c++ {
			if g.drawn.has(b.hLine(r, c)) {
				sb.WriteString("---+")
			} else {
				sb.WriteString("   +")
			}
		}
		sb.WriteByte('\n')
		if r == b.rows-1 {
			break
		}
		sb.WriteString("   ")
		for c := range b.cols {
			if g.drawn.has(b.vLine(r, c)) {
				sb.WriteByte('|')
			} else {
				sb.WriteByte(' ')
			}
			if c < b.cols-1 {
				if o := g.owner[r*(b.cols-1)+c]; o >= 0 {
					fmt.Fprintf(&sb, " %d ", o)
				} else {
					sb.WriteString("   ")
				}
			}
		}
		sb.WriteByte('\n')
	}
	lines := strings.Split(sb.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Observe returns the same information as View, laid out as doc.go's "View
// layout" describes: the lines, then the box owners in Cells; the grid size,
// the number of seats and the seats that left in Extra. Every viewer gets
// the same bytes.
func (g *Game) Observe(viewer rules.Player) rules.View {
	b := g.b
	cells := make([]byte, 0, b.nLines+b.nBoxes)
	for l := range b.nLines { // horizontal lines first, then vertical
		var c byte
		if g.drawn.has(l) {
			c = 1
		}
		cells = append(cells, c)
	}
	for box := range b.nBoxes {
		cells = append(cells, byte(g.owner[box]+1))
	}
	var left byte
	for p := range g.players {
		if g.gone[p] {
			left |= 1 << p
		}
	}
	return rules.View{
		Viewer: viewer,
		Status: g.Outcome().Status,
		ToMove: g.ToMove(nil),
		Scores: g.Scores(nil),
		Cells:  cells,
		Extra:  []byte{byte(b.rows), byte(b.cols), byte(g.players), left},
	}
}
