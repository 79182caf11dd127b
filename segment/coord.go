package segment

import (
	"errors"
	"fmt"
)

// Coord is one board cell: X the row and Y the column, each 0..9, as the
// reference client indexes its maps [x][y].
type Coord struct{ X, Y uint8 }

func (c Coord) String() string { return fmt.Sprintf("(%d,%d)", c.X, c.Y) }

// Encoding is how coordinate digits are written in a payload.
type Encoding uint8

// Coordinate encodings. Clients send ASCII; the server forwards guesses in
// Binary (the reference client indexes its board with the raw byte) and
// boards in ASCII (the client subtracts '0').
const (
	ASCII  Encoding = iota // '0'..'9' (0x30..0x39)
	Binary                 // 0x00..0x09
)

// ErrCoord: a coordinate payload has the wrong length or a byte that is not a digit.
var ErrCoord = errors.New("bad coordinate payload")

// digit accepts either encoding; the ranges 0..9 and '0'..'9' do not overlap.
func digit(b byte) (uint8, bool) {
	switch {
	case b <= 9:
		return b, true
	case b >= '0' && b <= '9':
		return b - '0', true
	}
	return 0, false
}

func (s *Segment) coords(dst []Coord) error {
	if int(s.n) != 2*len(dst) {
		return fmt.Errorf("%w: %v has %d bytes, want %d", ErrCoord, s.Type, s.n, 2*len(dst))
	}
	for i := range dst {
		x, okx := digit(s.data[2*i])
		y, oky := digit(s.data[2*i+1])
		if !okx || !oky {
			return fmt.Errorf("%w: %v byte %d is not a digit", ErrCoord, s.Type, 2*i)
		}
		dst[i] = Coord{x, y}
	}
	return nil
}

// Single reads a SingleCoord payload in either encoding.
func (s *Segment) Single() (Coord, error) {
	var c [1]Coord
	err := s.coords(c[:])
	return c[0], err
}

// Double reads a DoubleCoord payload (head, then tail centre) in either encoding.
func (s *Segment) Double() (head, tail Coord, err error) {
	var c [2]Coord
	err = s.coords(c[:])
	return c[0], c[1], err
}

// Board reads a Board payload: head and tail centre of each of three planes.
func (s *Segment) Board() ([6]Coord, error) {
	var c [6]Coord
	err := s.coords(c[:])
	return c, err
}

func putCoords(t Type, enc Encoding, cs ...Coord) Segment {
	s := Segment{Type: t, n: uint8(2 * len(cs))}
	base := byte(0)
	if enc == ASCII {
		base = '0'
	}
	for i, c := range cs {
		s.data[2*i], s.data[2*i+1] = base+c.X, base+c.Y
	}
	return s
}

// NewSingle builds a SingleCoord segment.
func NewSingle(c Coord, enc Encoding) Segment { return putCoords(SingleCoord, enc, c) }

// NewDouble builds a DoubleCoord segment.
func NewDouble(head, tail Coord, enc Encoding) Segment {
	return putCoords(DoubleCoord, enc, head, tail)
}

// NewBoard builds a Board segment; boards always travel as ASCII digits.
func NewBoard(b [6]Coord) Segment { return putCoords(Board, ASCII, b[:]...) }
