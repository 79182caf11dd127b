package checkers

import "math/bits"

// The board is held as bitboards: bit i stands for PDN square i+1. Row r
// (counted from Black's side, 0 to 7) holds squares 4r+1 to 4r+4; the dark
// squares sit in columns 1, 3, 5, 7 on even rows and 0, 2, 4, 6 on odd rows,
// so square 4 and square 29 are the single corners, as on a printed diagram.

// Seats and colours coincide: Black moves first.
const (
	black = 0
	white = 1
)

// Diagonal directions: up means towards row 0 (the way White's men move).
const (
	upLeft = iota
	upRight
	downLeft
	downRight
)

// dirsOf lists the directions a piece may move in, by colour and kingship.
var dirsOf = [2][2][]int{
	black: {{downLeft, downRight}, {upLeft, upRight, downLeft, downRight}},
	white: {{upLeft, upRight}, {upLeft, upRight, downLeft, downRight}},
}

// crownRow is the row, as a bitboard, on which each colour's men are crowned.
var crownRow = [2]uint32{black: 0xF0000000, white: 0x0000000F}

// geometry holds the neighbour tables; it is computed once and never changed.
type geometry struct {
	step [4][32]int8 // the adjacent square in a direction, -1 off the board
	jump [4][32]int8 // the square two steps away, -1 off the board
}

var geo = buildGeometry()

func coords(sq int) (row, col int) {
	row = sq / 4
	col = 2 * (sq % 4)
	if row%2 == 0 {
		col++
	}
	return row, col
}

func squareAt(row, col int) int {
	if row < 0 || row > 7 || col < 0 || col > 7 || (row+col)%2 == 0 {
		return -1
	}
	return row*4 + col/2
}

func buildGeometry() geometry {
	var g geometry
	dr := [4]int{upLeft: -1, upRight: -1, downLeft: 1, downRight: 1}
	dc := [4]int{upLeft: -1, upRight: 1, downLeft: -1, downRight: 1}
	for d := range 4 {
		for sq := range 32 {
			r, c := coords(sq)
			g.step[d][sq] = int8(squareAt(r+dr[d], c+dc[d]))
			g.jump[d][sq] = int8(squareAt(r+2*dr[d], c+2*dc[d]))
		}
	}
	return g
}

// pos is one position: each colour's pieces, which of them are kings, and
// the colour to move. It is comparable, so repetition is a plain ==.
type pos struct {
	pieces [2]uint32
	kings  uint32
	side   uint8
}

// startPos is the standard opening position, Black to move.
func startPos() pos {
	return pos{pieces: [2]uint32{black: 0x00000FFF, white: 0xFFF00000}}
}

func (p pos) count(c int) int { return bits.OnesCount32(p.pieces[c]) }

// pieceAt reports the colour and kingship of the piece on sq, ok false when empty.
func (p pos) pieceAt(sq int) (colour int, king, ok bool) {
	b := uint32(1) << sq
	switch {
	case p.pieces[black]&b != 0:
		return black, p.kings&b != 0, true
	case p.pieces[white]&b != 0:
		return white, p.kings&b != 0, true
	}
	return 0, false, false
}
