package checkers

import (
	"fmt"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// View draws the board with Black's side (squares 1 to 4) at the top, then
// the FEN, the side to move, the scores and any pending offer or result.
// Checkers hides nothing, so every viewer sees the same text.
func (g *Game) View(rules.Player) string {
	var b strings.Builder
	for row := range 8 {
		for col := range 8 {
			sq := squareAt(row, col)
			if sq < 0 {
				b.WriteString("  ")
				continue
			}
			switch c, king, ok := g.pos.pieceAt(sq); {
			case !ok:
				b.WriteString(" .")
			default:
				b.WriteByte(' ')
				b.WriteByte(pieceLetter(c, king))
			}
		}
		fmt.Fprintf(&b, "   %d-%d\n", row*4+1, row*4+4)
	}
	fmt.Fprintf(&b, "FEN %s\n", formatFEN(g.pos))
	fmt.Fprintf(&b, "captured: Black %d, White %d\n", g.captured[black], g.captured[white])
	switch {
	case g.outcome.Status == rules.Drawn:
		fmt.Fprintf(&b, "drawn: %s\n", g.outcome.Reason)
	case g.outcome.Status == rules.Won:
		fmt.Fprintf(&b, "%s wins: %s\n", colourName[g.outcome.Winners[0]], g.outcome.Reason)
	case g.offer != rules.Spectator:
		fmt.Fprintf(&b, "%s offers a draw; %s to answer\n", colourName[g.offer], colourName[1-g.offer])
	default:
		fmt.Fprintf(&b, "%s to move\n", colourName[g.pos.side])
	}
	return b.String()
}

func pieceLetter(colour int, king bool) byte {
	letters := [2][2]byte{black: {'b', 'B'}, white: {'w', 'W'}}
	return letters[colour][b2i(king)]
}
