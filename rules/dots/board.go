package dots

// maxDots bounds the grid a game may use; the seed allows up to 8x8 dots.
const (
	minDots  = 3
	maxDots  = 8
	maxBoxes = (maxDots - 1) * (maxDots - 1)
	maxLines = 2 * maxDots * (maxDots - 1)
)

// board is the immutable geometry of a grid of dots, shared by every copy
// of a game. Lines are numbered horizontal first (row by row, left to
// right), then vertical; boxes row by row.
type board struct {
	rows, cols int // dots
	nh         int // horizontal lines
	nLines     int
	nBoxes     int
	boxLines   [][4]int // top, bottom, left, right line of each box
	lineBoxes  [][2]int // the boxes on either side of each line, -1 for the edge
}

func newBoard(rows, cols int) *board {
	b := &board{rows: rows, cols: cols, nh: rows * (cols - 1)}
	b.nLines = b.nh + (rows-1)*cols
	b.nBoxes = (rows - 1) * (cols - 1)
	b.boxLines = make([][4]int, b.nBoxes)
	b.lineBoxes = make([][2]int, b.nLines)
	for l := range b.lineBoxes {
		b.lineBoxes[l] = [2]int{-1, -1}
	}
	for r := 0; r < rows-1; r++ {
		for c := 0; c < cols-1; c++ {
			box := r*(cols-1) + c
			sides := [4]int{b.hLine(r, c), b.hLine(r+1, c), b.vLine(r, c), b.vLine(r, c+1)}
			b.boxLines[box] = sides
			for _, l := range sides {
				if b.lineBoxes[l][0] < 0 {
					b.lineBoxes[l][0] = box
				} else {
					b.lineBoxes[l][1] = box
				}
			}
		}
	}
	return b
}

// hLine is the line from dot (r, c) to dot (r, c+1).
func (b *board) hLine(r, c int) int { return r*(b.cols-1) + c }

// vLine is the line from dot (r, c) to dot (r+1, c).
func (b *board) vLine(r, c int) int { return b.nh + r*b.cols + c }

// lineOf returns the line joining two dots, or -1 when they are not
// adjacent or off the board.
func (b *board) lineOf(r1, c1, r2, c2 int) int {
	if r2 < r1 || (r2 == r1 && c2 < c1) {
		r1, c1, r2, c2 = r2, c2, r1, c1
	}
	if r1 < 0 || c1 < 0 || r2 >= b.rows || c2 >= b.cols {
		return -1
	}
	switch {
	case r1 == r2 && c2 == c1+1:
		return b.hLine(r1, c1)
	case c1 == c2 && r2 == r1+1:
		return b.vLine(r1, c1)
	}
	return -1
}

// dots returns the two ends of line l, top-left end first, and whether the
// line is vertical.
func (b *board) dots(l int) (r1, c1, r2, c2 int, vertical bool) {
	if l < b.nh {
		r1, c1 = l/(b.cols-1), l%(b.cols-1)
		return r1, c1, r1, c1 + 1, false
	}
	l -= b.nh
	r1, c1 = l/b.cols, l%b.cols
	return r1, c1, r1 + 1, c1, true
}

// lineSet is a set of lines of a board of up to maxLines lines.
type lineSet [2]uint64

func (s lineSet) has(l int) bool { return s[l>>6]&(1<<(l&63)) != 0 }

func (s *lineSet) add(l int) { s[l>>6] |= 1 << (l & 63) }
