package checkers

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// StartFEN is the standard opening position in PDN FEN.
const StartFEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

// maxPieces bounds each side, as in a real game; it also keeps the longest
// possible jump path (one square per capture, plus the start) within a Move.
const maxPieces = 12

// formatFEN writes p in PDN FEN: the colour to move, then White's and
// Black's squares in ascending order, kings marked K.
func formatFEN(p pos) string {
	var b strings.Builder
	b.WriteString([2]string{"B", "W"}[p.side])
	for _, c := range []int{white, black} {
		b.WriteString([2]string{":B", ":W"}[c])
		first := true
		for set := p.pieces[c]; set != 0; set &= set - 1 {
			sq := bits.TrailingZeros32(set)
			if !first {
				b.WriteByte(',')
			}
			first = false
			if p.kings&(1<<sq) != 0 {
				b.WriteByte('K')
			}
			b.WriteString(strconv.Itoa(sq + 1))
		}
	}
	return b.String()
}

// parseFEN reads a PDN FEN such as "W:W21,K30:B1-4,K9" (ranges allowed, a
// trailing full stop ignored). It refuses positions no game can reach: a
// square given twice, a man on its crowning row, or more than twelve pieces
// a side.
func parseFEN(text string) (pos, error) {
	var p pos
	fail := func(format string, args ...any) (pos, error) {
		return pos{}, fmt.Errorf("%w: FEN %q: %s", rules.ErrNotation, text, fmt.Sprintf(format, args...))
	}
	fields := strings.Split(strings.TrimSuffix(strings.TrimSpace(text), "."), ":")
	switch strings.TrimSpace(fields[0]) {
	case "B":
		p.side = black
	case "W":
		p.side = white
	default:
		return fail("the colour to move must be B or W")
	}
	if len(fields) > 3 {
		return fail("too many fields")
	}
	var seen [2]bool
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			return fail("empty field")
		}
		c := black
		switch f[0] {
		case 'B':
		case 'W':
			c = white
		default:
			return fail("a piece list must start with B or W")
		}
		if seen[c] {
			return fail("two lists for one colour")
		}
		seen[c] = true
		if err := addPieces(&p, c, f[1:]); err != nil {
			return fail("%v", err)
		}
	}
	for c := range 2 {
		if p.count(c) > maxPieces {
			return fail("more than %d pieces for one side", maxPieces)
		}
		if p.pieces[c]&^p.kings&crownRow[c] != 0 {
			return fail("a man on its crowning row")
		}
	}
	return p, nil
}

// addPieces adds a comma list of squares, ranges ("1-4") and kings ("K9",
// "K1-4") to colour c of p.
func addPieces(p *pos, c int, list string) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		king := strings.HasPrefix(item, "K")
		item = strings.TrimSpace(strings.TrimPrefix(item, "K"))
		lo, hi, isRange := strings.Cut(item, "-")
		a, errA := fenSquare(lo)
		b := a
		var errB error
		if isRange {
			b, errB = fenSquare(hi)
		}
		if errA != nil || errB != nil || b < a {
			return fmt.Errorf("bad square or range %q", item)
		}
		for sq := a; sq <= b; sq++ {
			bit := uint32(1) << (sq - 1)
			if (p.pieces[black]|p.pieces[white])&bit != 0 {
				return fmt.Errorf("square %d given twice", sq)
			}
			p.pieces[c] |= bit
			if king {
				p.kings |= bit
			}
		}
	}
	return nil
}

func fenSquare(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 32 || s[0] == '+' {
		return 0, fmt.Errorf("bad square %q", s)
	}
	return n, nil
}
