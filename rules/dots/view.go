package dots

import (
	"fmt"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// View draws the grid; Dots and Boxes has no hidden information, so every
// viewer sees the same text. Dots are '+', lines '---' and '|', and a
// scored box shows its owner's seat number.
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
