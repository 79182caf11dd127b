package main

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/checkers"
	"github.com/bomber-game/bomber/rules/dots"
	"github.com/bomber-game/bomber/rules/paisho"
	"github.com/bomber-game/bomber/segment"
)

// gpos is a cursor position on a game's board (game-defined grid).
type gpos struct{ x, y int }

// boardUI is what a board drawing needs besides the View.
type boardUI struct {
	st    *tstyles
	me    int           // our seat, or -1
	cur   gpos          // the cursor
	sel   *gpos         // the chosen origin, if any
	dests map[gpos]bool // where the chosen piece (or any move) may go
	froms map[gpos]bool // where a legal move starts
	live  bool          // show the cursor
	roll  string        // Aeroplane Chess: the last roll, for when the turn has passed on
}

// board draws one game and maps its moves onto cursor positions.
type board interface {
	bounds(v rules.View) (w, h int)
	// origin is where a move starts; false for moves made in one step
	origin(m rules.Move) (gpos, bool)
	dest(m rules.Move) gpos
	render(v rules.View, u boardUI) []string
	info(v rules.View, u boardUI) []string // beside the board: die, hands, scores
	keys() string                          // the game's own keys, for the help line
}

// quickMover is a board where Enter can play a move wherever the cursor is
// (Aeroplane Chess's roll).
type quickMover interface {
	quick(legal []rules.Move) (rules.Move, bool)
}

func boardFor(game string) board {
	switch game {
	case checkers.Name:
		return checkersBoard{}
	case dots.Name:
		return dotsBoard{}
	case aeroplane.Name:
		return aeroBoard{}
	case paisho.Name:
		return paishoBoard{}
	}
	return bomberBoard{}
}

// seatColours are the seats' colours, seat 0 first.
var seatColours = []string{"11", "12", "9", "10"}

func (st *tstyles) seat(i int) lipgloss.Style {
	if i < 0 || i >= len(seatColours) {
		return st.plain
	}
	return lipgloss.NewStyle().Foreground(lipgloss.Color(seatColours[i])).Bold(true)
}

// mark draws a cell of width 3 or more: [x] under the cursor, (x) when
// chosen, *x when a destination, so it reads without colour.
func (u boardUI) mark(p gpos, inner string, style lipgloss.Style) string {
	left, right := " ", " "
	switch {
	case u.live && u.cur == p:
		left, right = "[", "]"
	case u.sel != nil && *u.sel == p:
		left, right = "(", ")"
	case u.dests[p]:
		left = "*"
	}
	s := style.Render(inner)
	if left != " " || right != " " {
		return u.st.cursor.Render(left) + s + u.st.cursor.Render(right)
	}
	return left + s + right
}

// ---- Checkers: 8x8, PDN squares 1-32, Black (seat 0) at the top.

type checkersBoard struct{}

// squareAt is the PDN square on row r, column c (0 for a light square).
func squareAt(r, c int) int {
	if (r+c)%2 == 0 {
		return 0
	}
	return r*4 + c/2 + 1
}

func squarePos(sq int) gpos {
	r := (sq - 1) / 4
	c := (sq-1)%4*2 + 1 - r%2
	return gpos{c, r}
}

func (checkersBoard) bounds(rules.View) (int, int)     { return 8, 8 }
func (checkersBoard) origin(m rules.Move) (gpos, bool) { return squarePos(int(m.Arg[0])), true }
func (checkersBoard) dest(m rules.Move) gpos           { return squarePos(int(m.Arg[m.Len-1])) }
func (checkersBoard) keys() string                     { return "enter pick piece, enter on a * square move" }

func (checkersBoard) info(v rules.View, u boardUI) []string {
	if len(v.Scores) < 2 {
		return nil
	}
	return []string{fmt.Sprintf("captured: Black %d White %d", v.Scores[0], v.Scores[1])}
}

func (checkersBoard) render(v rules.View, u boardUI) []string {
	var out []string
	out = append(out, "  "+u.st.dim.Render("Black b B (seat 1) top, White w W (seat 2)"))
	for r := range 8 {
		var b strings.Builder
		b.WriteString("  ")
		for c := range 8 {
			sq := squareAt(r, c)
			if sq == 0 {
				if u.live && u.cur == (gpos{c, r}) {
					b.WriteString(u.st.cursor.Render("[   ]"))
				} else {
					b.WriteString(u.st.light.Render("     "))
				}
				continue
			}
			piece, style := ".", u.st.dim
			if sq <= len(v.Cells) {
				switch v.Cells[sq-1] {
				case checkers.CellBlackMan:
					piece, style = "b", u.st.seat(2)
				case checkers.CellBlackKing:
					piece, style = "B", u.st.seat(2)
				case checkers.CellWhiteMan:
					piece, style = "w", u.st.white
				case checkers.CellWhiteKing:
					piece, style = "W", u.st.white
				}
			}
			b.WriteString(u.mark(gpos{c, r}, u.st.dim.Render(fmt.Sprintf("%2d", sq))+style.Render(piece), lipgloss.NewStyle()))
		}
		out = append(out, b.String())
	}
	return out
}

// ---- Dots and Boxes: a lattice of (2R-1)x(2C-1) positions: dots at even
// row and column, horizontal lines at even row odd column, vertical lines
// at odd row even column, boxes at odd row and column.

type dotsBoard struct{}

func dotsSize(v rules.View) (r, c, n int) {
	if len(v.Extra) < 3 {
		return 3, 3, 2
	}
	return int(v.Extra[0]), int(v.Extra[1]), int(v.Extra[2])
}

func (dotsBoard) bounds(v rules.View) (int, int) {
	r, c, _ := dotsSize(v)
	return 2*c - 1, 2*r - 1
}
func (dotsBoard) origin(rules.Move) (gpos, bool) { return gpos{}, false }
func (dotsBoard) dest(m rules.Move) gpos {
	r1, c1, r2, c2 := int(m.Arg[0]), int(m.Arg[1]), int(m.Arg[2]), int(m.Arg[3])
	return gpos{c1 + c2, r1 + r2}
}
func (dotsBoard) keys() string { return "enter draw the line under the cursor" }

func (dotsBoard) info(v rules.View, u boardUI) []string {
	var out []string
	for i, sc := range v.Scores {
		out = append(out, u.st.seat(i).Render(fmt.Sprintf("seat %d", i+1))+fmt.Sprintf(" boxes %d", sc))
	}
	return out
}

func (dotsBoard) render(v rules.View, u boardUI) []string {
	R, C, _ := dotsSize(v)
	cell := func(i int) byte {
		if i < len(v.Cells) {
			return v.Cells[i]
		}
		return 0
	}
	hBase, vBase := 0, R*(C-1)
	bBase := vBase + (R-1)*C
	var out []string
	head := "    "
	for c := range C {
		head += string(rune('a'+c)) + "   "
	}
	out = append(out, u.st.dim.Render(strings.TrimRight(head, " ")))
	for y := range 2*R - 1 {
		var b strings.Builder
		if y%2 == 0 {
			fmt.Fprintf(&b, "%2d  ", y/2+1)
		} else {
			b.WriteString("    ")
		}
		for x := range 2*C - 1 {
			p := gpos{x, y}
			cur := u.live && u.cur == p
			switch {
			case y%2 == 0 && x%2 == 0:
				b.WriteString("+")
			case y%2 == 0: // horizontal line
				drawn := cell(hBase+y/2*(C-1)+x/2) == 1
				s := "   "
				switch {
				case cur && drawn:
					s = u.st.cursor.Render("[=]")
				case cur:
					s = u.st.cursor.Render("[ ]")
				case drawn:
					s = u.st.line.Render("---")
				case u.dests[p]:
					s = u.st.dim.Render(" . ")
				}
				b.WriteString(s)
			case x%2 == 0: // vertical line
				drawn := cell(vBase+y/2*C+x/2) == 1
				s := " "
				switch {
				case cur && drawn:
					s = u.st.cursor.Render("!")
				case cur:
					s = u.st.cursor.Render("?")
				case drawn:
					s = u.st.line.Render("|")
				case u.dests[p]:
					s = u.st.dim.Render(":")
				}
				b.WriteString(s)
			default: // box
				owner := int(cell(bBase + y/2*(C-1) + x/2))
				if owner > 0 {
					b.WriteString(u.st.seat(owner - 1).Render(fmt.Sprintf(" %d ", owner)))
				} else {
					b.WriteString("   ")
				}
			}
		}
		out = append(out, b.String())
	}
	return out
}

// ---- Aeroplane Chess: the 52-space track as the ring of a 14x14 square
// (each space two characters), the four bridges running to the centre from
// the middle of each side, camps in the inner corners. The cursor picks a
// piece 0..3.

type aeroBoard struct{}

var aeroLetters = []string{"Y", "B", "R", "G"}
var aeroNames = []string{"yellow", "blue", "red", "green"}

func (aeroBoard) bounds(rules.View) (int, int)   { return 4, 1 }
func (aeroBoard) origin(rules.Move) (gpos, bool) { return gpos{}, false }
func (aeroBoard) dest(m rules.Move) gpos {
	if m.Kind == aeroplane.KindMove {
		return gpos{int(m.Arg[0]), 0}
	}
	return gpos{-1, -1}
}
func (aeroBoard) keys() string { return "enter roll / move the piece picked with left/right or 1-4" }

func (aeroBoard) quick(legal []rules.Move) (rules.Move, bool) {
	for _, m := range legal {
		if m.Kind == aeroplane.KindRoll {
			return m, true
		}
	}
	return rules.Move{}, false
}

// ringPos is the ring cell (row, col) of track space t: blue's turning
// space (10) sits in the middle of the top side.
func ringPos(t int) (int, int) {
	p := ((t-4)%52 + 52) % 52
	switch {
	case p <= 13:
		return 0, p
	case p <= 26:
		return p - 13, 13
	case p <= 39:
		return 13, 13 - (p - 26)
	}
	return 13 - (p - 39), 0
}

// bridgePos is the cell of bridge space k (1..5) of colour c.
func bridgePos(c, k int) (int, int) {
	switch c {
	case 1: // blue, from the top
		return k, 6
	case 2: // red, from the right
		return 6, 13 - k
	case 3: // green, from the bottom
		return 13 - k, 7
	}
	return 7, k // yellow, from the left
}

// campPos is where colour c's piece i waits in its camp (and its start).
func campPos(c, i int) (int, int) {
	rows := [4]int{1, 1, 11, 11}
	cols := [4]int{1, 9, 9, 1}
	corner := [4]int{0, 1, 2, 3} // yellow top left, blue top right, red bottom right, green bottom left
	k := corner[c]
	if i == 4 { // the start space
		return rows[k] + 1, cols[k] + 3
	}
	return rows[k] + i/2, cols[k] + i%2
}

func (aeroBoard) render(v rules.View, u boardUI) []string {
	n := 2
	if len(v.Extra) > 0 {
		n = int(v.Extra[0])
	}
	type cellText struct {
		s     string
		style lipgloss.Style
	}
	var grid [14][14]cellText
	for r := range 14 {
		for c := range 14 {
			grid[r][c] = cellText{"  ", u.st.plain}
		}
	}
	for t := range 52 {
		r, c := ringPos(t)
		col := (t + 3) % 4
		grid[r][c] = cellText{strings.ToLower(aeroLetters[col]) + ".", u.st.dim}
	}
	for col := range 4 {
		for k := 1; k <= 5; k++ {
			r, c := bridgePos(col, k)
			grid[r][c] = cellText{strings.ToLower(aeroLetters[col]) + ":", u.st.dim}
		}
	}
	for r := 6; r <= 7; r++ {
		for c := 6; c <= 7; c++ {
			grid[r][c] = cellText{"()", u.st.dim}
		}
	}
	put := func(r, c int, seat, piece int) {
		s := aeroLetters[seat] + fmt.Sprint(piece)
		if grid[r][c].s[0] >= 'A' && grid[r][c].s[0] <= 'Z' && grid[r][c].s != "()" {
			s = aeroLetters[seat] + "+" // pieces share the space
		}
		st := u.st.seat(seat)
		if seat == u.me && u.cur.x == piece && u.live {
			st = st.Reverse(true)
		}
		grid[r][c] = cellText{s, st}
	}
	for seat := range n {
		for i := range 4 {
			if seat*4+i >= len(v.Cells) {
				continue
			}
			val := int(v.Cells[seat*4+i])
			switch {
			case val == 0xFF:
			case val == 0:
				r, c := campPos(seat, i)
				put(r, c, seat, i)
			case val == 1:
				r, c := campPos(seat, 4)
				put(r, c, seat, i)
			case val <= 51:
				r, c := ringPos((13*seat + val - 2) % 52)
				put(r, c, seat, i)
			case val <= 56:
				r, c := bridgePos(seat, val-51)
				put(r, c, seat, i)
			}
		}
	}
	var out []string
	for r := range 14 {
		var b strings.Builder
		b.WriteString(" ")
		for c := range 14 {
			b.WriteString(grid[r][c].style.Render(grid[r][c].s))
			b.WriteString(" ")
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

func (aeroBoard) info(v rules.View, u boardUI) []string {
	n := 2
	if len(v.Extra) > 0 {
		n = int(v.Extra[0])
	}
	var out []string
	seat, phase, die := 0, 0, 0
	if len(v.Extra) >= 4 {
		seat, phase, die = int(v.Extra[1]), int(v.Extra[2]), int(v.Extra[3])
	}
	switch byte(phase) {
	case aeroplane.PhaseRoll:
		out = append(out, u.st.seat(seat).Render(aeroNames[seat%4])+" to roll")
		if u.roll != "" {
			out = append(out, "last roll: "+u.roll)
		}
	case aeroplane.PhaseMove:
		out = append(out, u.st.seat(seat).Render(aeroNames[seat%4])+" rolled "+dieFace(die))
	default:
		out = append(out, "game over")
	}
	for s := range n {
		if s < len(v.Scores) {
			out = append(out, fmt.Sprintf("%s home %d/4", u.st.seat(s).Render(aeroNames[s]), v.Scores[s]))
		}
	}
	if u.me >= 0 && u.me < n {
		var b strings.Builder
		b.WriteString("you:")
		for i := range 4 {
			b.WriteString(u.mark(gpos{i, 0}, fmt.Sprintf("%s%d", aeroLetters[u.me], i), u.st.seat(u.me)))
		}
		out = append(out, b.String())
	}
	return out
}

// aeroNote says what an Aeroplane Chess move did, from its steps: the
// face a roll showed, a roll that could not move, a piece taking off,
// jumping to the next space of its colour, flying its shortcut, bouncing
// back from the centre, reaching it, and the pieces it sent back to camp.
func aeroNote(steps []segment.StepBody) string {
	var parts []string
	piece := func(st segment.StepBody) string {
		return aeroLetters[int(st.Player)&3] + fmt.Sprint(st.A)
	}
	for _, st := range steps {
		switch st.Kind {
		case aeroplane.StepRoll:
			parts = append(parts, fmt.Sprint(st.A))
		case aeroplane.StepLaunch:
			parts = append(parts, "takes off")
		case aeroplane.StepJump:
			parts = append(parts, "jumps")
		case aeroplane.StepFlight:
			parts = append(parts, "flies")
		case aeroplane.StepBounce:
			parts = append(parts, "bounces back")
		case aeroplane.StepCapture:
			parts = append(parts, "takes "+piece(st))
		case aeroplane.StepFinish:
			parts = append(parts, "home")
		case aeroplane.StepThreeSixes:
			parts = append(parts, "third six")
		case aeroplane.StepReturn:
			parts = append(parts, piece(st)+" to camp")
		case aeroplane.StepNoMove:
			parts = append(parts, "no move")
		}
	}
	if len(parts) > 1 && len(steps) > 0 && steps[0].Kind == aeroplane.StepRoll {
		return parts[0] + ", " + strings.Join(parts[1:], ", ")
	}
	return strings.Join(parts, ", ")
}

// aeroRoll is the last roll of moves for people ("blue [3], no move"), or
// "" before the first.
func aeroRoll(moves []segment.MovedBody, steps func(uint32) []segment.StepBody) string {
	for i := len(moves) - 1; i >= 0; i-- {
		st := steps(moves[i].Seq)
		if len(st) == 0 || st[0].Kind != aeroplane.StepRoll {
			continue
		}
		s := aeroNames[int(moves[i].Seat)&3] + " " + dieFace(int(st[0].A))
		for _, x := range st[1:] {
			switch x.Kind {
			case aeroplane.StepNoMove:
				s += ", no move"
			case aeroplane.StepThreeSixes:
				s += ", third six: lost"
			}
		}
		return s
	}
	return ""
}

func dieFace(f int) string {
	if f < 1 || f > 6 {
		return "-"
	}
	return fmt.Sprintf("[%d]", f)
}

// ---- Pai Sho: the 17x17 grid clipped to the disc, x -8..8 left to right,
// y 8..-8 top to bottom; host tiles upper case, guest tiles lower case.

type paishoBoard struct{}

var tileLetters = " LSBWCFD"

func (paishoBoard) bounds(rules.View) (int, int) { return 17, 17 }

// handPos is the origin of a deploy: the tile in hand, off the board.
func handPos(t int) gpos { return gpos{-1, t} }

func ppos(x, y uint8) gpos { return gpos{int(x), 16 - int(y)} }

func (paishoBoard) origin(m rules.Move) (gpos, bool) {
	if m.Kind == paisho.KindDeploy {
		return handPos(int(m.Arg[0])), true
	}
	return ppos(m.Arg[0], m.Arg[1]), true
}
func (paishoBoard) dest(m rules.Move) gpos {
	if m.Kind == paisho.KindDeploy {
		return ppos(m.Arg[1], m.Arg[2])
	}
	return ppos(m.Arg[2], m.Arg[3])
}
func (paishoBoard) keys() string {
	return "1-7 take a tile from hand, enter pick a tile / put it on a * point"
}

func (paishoBoard) render(v rules.View, u boardUI) []string {
	var out []string
	for row := range 17 {
		y := 8 - row
		var b strings.Builder
		fmt.Fprintf(&b, "%3d", y)
		for col := range 17 {
			x := col - 8
			i := (x+8)*17 + (y + 8)
			val := byte(0xFF)
			if i < len(v.Cells) {
				val = v.Cells[i]
			}
			p := gpos{col, row}
			switch {
			case val == 0xFF:
				b.WriteString("   ")
			case val == 0:
				ch, st := ".", u.st.dim
				if (x == 0 && (y == 8 || y == -8)) || (y == 0 && (x == 8 || x == -8)) {
					ch, st = "T", u.st.temple
				}
				b.WriteString(u.mark(p, ch, st))
			case val >= 9:
				b.WriteString(u.mark(p, strings.ToLower(string(tileLetters[(val-8)%8])), u.st.seat(1)))
			default:
				b.WriteString(u.mark(p, string(tileLetters[val%8]), u.st.seat(0)))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

func (paishoBoard) info(v rules.View, u boardUI) []string {
	var out []string
	for seat, name := range []string{"host ", "guest"} {
		if len(v.Extra) < 14 {
			break
		}
		var b strings.Builder
		b.WriteString(u.st.seat(seat).Render(name))
		for t := 1; t <= 7; t++ {
			letter := string(tileLetters[t])
			if seat == 1 {
				letter = strings.ToLower(letter)
			}
			s := fmt.Sprintf("%s%d", letter, v.Extra[seat*7+t-1])
			if seat == u.me && u.sel != nil && *u.sel == handPos(t) {
				b.WriteString("(" + s + ")")
			} else {
				b.WriteString(" " + s)
			}
		}
		out = append(out, b.String())
	}
	if len(v.Scores) == 2 {
		out = append(out, fmt.Sprintf("captured %d - %d", v.Scores[0], v.Scores[1]))
	}
	out = append(out, u.st.dim.Render("tiles 1-7: L S B W C F D"), u.st.dim.Render("T temple, host ABC guest abc"))
	return out
}

// ---- Bomber at a table: both grids as the View shows them.

type bomberBoard struct {
	suggest string // a random board, in notation, that enter places
	// while our seat draws its board: the planes drawn so far and the
	// server's hints for the next (nil until they came)
	draw  *tdraw
	heads map[bomber.Cell][]bomber.Cell
}

func (bomberBoard) bounds(rules.View) (int, int)   { return 10, 10 }
func (bomberBoard) origin(rules.Move) (gpos, bool) { return gpos{}, false }
func (bomberBoard) dest(m rules.Move) gpos         { return gpos{int(m.Arg[1]), int(m.Arg[0])} }
func (b bomberBoard) keys() string {
	if b.draw != nil {
		return "enter places " + b.suggest + "; p draws: + head, + tail"
	}
	if b.suggest == "" {
		return ": type three planes (head-tail, e.g. 02-32); enter guess"
	}
	return "enter places " + b.suggest + " (: types your own)"
}

// bomberDrawing reports whether v shows the planes still being placed.
func bomberDrawing(v rules.View) bool { return len(v.Extra) > 0 && v.Extra[0] == 0 }
func (bomberBoard) info(v rules.View, u boardUI) []string {
	var out []string
	for i, sc := range v.Scores {
		out = append(out, fmt.Sprintf("seat %d revealed %d/30", i+1, sc))
	}
	return append(out, u.st.dim.Render("# plane @ head o miss x X hit"))
}

func (bb bomberBoard) render(v rules.View, u boardUI) []string {
	me := u.me
	if me < 0 {
		me = 0
	}
	// drawing: our planes so far (# and their heads @), the cells the
	// server offers for the next head or the picked head's tail (+), the
	// picked head (*)
	var drawn bomber.Set
	var drawnHeads bomber.Set
	offered := map[bomber.Cell]bool{}
	if d := bb.draw; d != nil {
		for _, p := range d.planes {
			c, _ := p.Cells()
			drawn, drawnHeads = drawn.Union(c), drawnHeads.Add(p.Head)
		}
		if d.pick == bomber.NoCell {
			for h := range bb.heads {
				offered[h] = true
			}
		} else {
			for _, t := range bb.heads[d.pick] {
				offered[t] = true
			}
		}
	}
	grid := func(seat int, cursor bool) []string {
		out := []string{"   0 1 2 3 4 5 6 7 8 9"}
		for x := range 10 {
			var b strings.Builder
			fmt.Fprintf(&b, " %c", 'A'+x)
			for y := range 10 {
				i := seat*100 + x*10 + y
				val := byte(0)
				if i < len(v.Cells) {
					val = v.Cells[i]
				}
				ch := string(". # @ o x X"[2*int(min(val, 5))])
				if d := bb.draw; d != nil && seat == me {
					c := bomber.Cell(x*10 + y)
					switch {
					case c == d.pick:
						ch = "*"
					case drawnHeads.Has(c):
						ch = "@"
					case drawn.Has(c):
						ch = "#"
					case offered[c]:
						ch = "+"
					}
				}
				if cursor && u.live && u.cur == (gpos{y, x}) {
					b.WriteString(u.st.cursor.Render("[" + ch))
				} else {
					b.WriteString(" " + ch)
				}
			}
			out = append(out, b.String())
		}
		return out
	}
	mine, theirs := grid(me, bb.draw != nil), grid(1-me, bb.draw == nil)
	out := []string{" your grid               their grid"}
	for i := range mine {
		out = append(out, mine[i]+strings.Repeat(" ", max(0, 24-lipgloss.Width(mine[i])))+theirs[i])
	}
	return out
}
