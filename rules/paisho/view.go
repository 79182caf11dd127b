package paisho

import (
	"fmt"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// View draws the board with y = 8 at the top: host tiles in upper case,
// guest tiles in lower case, "." an empty point, "+" an empty temple. Then
// come both libraries, the captures, the turn and any draw offer. Pai Sho
// hides nothing, so every viewer sees the same text.
func (g *Game) View(_ rules.Player) string {
	var b strings.Builder
	ps := &g.pos
	for y := maxCoord; y >= -maxCoord; y-- {
		fmt.Fprintf(&b, "%3d ", y)
		for x := -maxCoord; x <= maxCoord; x++ {
			p := Point{int8(x), int8(y)}
			b.WriteByte(' ')
			b.WriteByte(pointGlyph(ps, p))
		}
		b.WriteByte('\n')
	}
	b.WriteString("    ")
	for x := -maxCoord; x <= maxCoord; x++ {
		fmt.Fprintf(&b, "%2d", abs(x)%10)
	}
	b.WriteByte('\n')
	for _, p := range []rules.Player{host, guest} {
		fmt.Fprintf(&b, "%s library:", seatName(p))
		for t := Lotus; t < tileKinds; t++ {
			fmt.Fprintf(&b, " %c%d", t.Letter(), ps.lib[p][t])
		}
		fmt.Fprintf(&b, "; captured %d\n", ps.captured[p])
	}
	switch g.out.Status {
	case rules.Running:
		fmt.Fprintf(&b, "turn %d, %s to move\n", g.TurnNumber(), seatName(ps.turn))
	default:
		fmt.Fprintf(&b, "%s: %s %v\n", g.out.Status, g.out.Reason, g.out.Winners)
	}
	if ps.offer != noOne {
		fmt.Fprintf(&b, "draw offered by %s\n", seatName(rules.Player(ps.offer)))
	}
	return b.String()
}

func pointGlyph(ps *position, p Point) byte {
	if !p.OnBoard() {
		return ' '
	}
	c := ps.board[p.index()]
	switch {
	case c != 0 && ownerOf(c) == guest:
		return tileOf(c).Letter() + 'a' - 'A'
	case c != 0:
		return tileOf(c).Letter()
	case p.IsTemple():
		return '+'
	}
	return '.'
}

func seatName(p rules.Player) string {
	if p == guest {
		return "guest"
	}
	return "host"
}

// Bytes of the view layout (see doc.go).
const (
	CellOff   byte = 0xFF // a grid point outside the disc
	CellGuest byte = 0x08 // added to a tile number for a guest tile
)

// Observe gives every viewer the same bytes (Pai Sho hides nothing), laid
// out as doc.go's "View layout" describes.
func (g *Game) Observe(viewer rules.Player) rules.View {
	ps := &g.pos
	cells := make([]byte, cells)
	for i := range cells {
		switch c := ps.board[i]; {
		case !geo.on[i]:
			cells[i] = CellOff
		case c != 0 && ownerOf(c) == guest:
			cells[i] = byte(tileOf(c)) | CellGuest
		case c != 0:
			cells[i] = byte(tileOf(c))
		}
	}
	extra := make([]byte, 0, viewExtraLen)
	for _, p := range []rules.Player{host, guest} {
		for t := Lotus; t < tileKinds; t++ {
			extra = append(extra, ps.lib[p][t])
		}
	}
	turn := g.TurnNumber()
	extra = append(extra, byte(turn>>8), byte(turn), byte(ps.offer+1), endCode(g.out.Reason), 0)
	if len(g.out.Winners) == 1 {
		extra[viewExtraLen-1] = byte(g.out.Winners[0] + 1)
	}
	return rules.View{
		Viewer: viewer,
		Status: g.out.Status,
		ToMove: g.ToMove(nil),
		Scores: g.Scores(nil),
		Cells:  cells,
		Extra:  extra,
	}
}

// viewExtraLen is the length of Observe's Extra.
const viewExtraLen = 2*7 + 5

// endCode numbers the reasons a game ends for the view layout; 0 while it
// runs.
func endCode(reason string) byte {
	for i, r := range [...]string{reasonLotus, reasonResigned, reasonDrawAgreed, reasonMoveLimit, reasonNoMove} {
		if r == reason {
			return byte(i + 1)
		}
	}
	return 0
}
