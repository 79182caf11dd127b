package paisho

import "strconv"

// The board is the 17x17 grid of intersections clipped to the disc
// x²+y² <= 80, which keeps exactly 249 points: rows |y| <= 4 are full
// (17 points) and the rows above narrow to 15, 13, 11 and 9 points.
const (
	span      = 17  // points per side of the enclosing grid
	cells     = 289 // span*span: every grid point, playable or not
	radiusSq  = 80  // largest x²+y² of a playable point
	maxCoord  = 8   // coordinates run from -maxCoord to maxCoord
	numPoints = 249 // playable points inside the disc
)

// Point is a board intersection in notation coordinates (x right, y up,
// centre (0,0)).
type Point struct{ X, Y int8 }

// OnBoard reports whether p is one of the 249 playable points.
func (p Point) OnBoard() bool {
	x, y := int(p.X), int(p.Y)
	return x >= -maxCoord && x <= maxCoord && y >= -maxCoord && y <= maxCoord && x*x+y*y <= radiusSq
}

// IsTemple reports whether p is one of the four temples (gates) at the ends
// of the two central lines.
func (p Point) IsTemple() bool {
	return (p.X == 0 && (p.Y == maxCoord || p.Y == -maxCoord)) || (p.Y == 0 && (p.X == maxCoord || p.X == -maxCoord))
}

func (p Point) String() string { return string(p.appendTo(make([]byte, 0, 8))) }

// appendTo appends p as notation writes it, "(x,y)".
func (p Point) appendTo(b []byte) []byte {
	b = append(b, '(')
	b = strconv.AppendInt(b, int64(p.X), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.Y), 10)
	return append(b, ')')
}

// Temples lists the four temple points.
func Temples() [4]Point {
	return [4]Point{{0, maxCoord}, {0, -maxCoord}, {maxCoord, 0}, {-maxCoord, 0}}
}

// Points lists every playable point, column by column from x = -8.
func Points() []Point {
	out := make([]Point, 0, numPoints)
	for _, i := range geo.points {
		out = append(out, pointOf(int(i)))
	}
	return out
}

// index maps a point of the enclosing grid to its cell number.
func (p Point) index() int { return (int(p.X)+maxCoord)*span + int(p.Y) + maxCoord }

func pointOf(i int) Point { return Point{int8(i/span - maxCoord), int8(i%span - maxCoord)} }

// distance is the number of single steps between two cells (Manhattan).
func distance(a, b int) int {
	dx := a/span - b/span
	dy := a%span - b%span
	return abs(dx) + abs(dy)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// geometry holds the board's fixed shape, computed once; it is never
// written after package initialisation.
type geometry struct {
	on     [cells]bool
	temple [cells]bool
	orth   [cells][4]int16 // one step along x or y; -1 off the board
	diag   [cells][4]int16 // one step along a diagonal; -1 off the board
	points []int16         // playable cells in ascending order
}

var geo = newGeometry()

var (
	orthDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	diagDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func newGeometry() *geometry {
	g := &geometry{}
	for i := range cells {
		p := pointOf(i)
		g.on[i] = p.OnBoard()
		g.temple[i] = g.on[i] && p.IsTemple()
		if g.on[i] {
			g.points = append(g.points, int16(i))
		}
	}
	step := func(i int, d [2]int) int16 {
		p := pointOf(i)
		q := Point{p.X + int8(d[0]), p.Y + int8(d[1])}
		if !q.OnBoard() {
			return -1
		}
		return int16(q.index())
	}
	for i := range cells {
		for k := range 4 {
			g.orth[i][k], g.diag[i][k] = -1, -1
			if g.on[i] {
				g.orth[i][k] = step(i, orthDirs[k])
				g.diag[i][k] = step(i, diagDirs[k])
			}
		}
	}
	return g
}
