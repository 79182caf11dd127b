package checkers

import "math/bits"

// Evaluation weights, in hundredths of a man.
const (
	valueMan      = 100
	valueKing     = 150
	bonusAdvance  = 3  // per row a man has advanced
	bonusBackRank = 10 // per man still guarding the home row against crowning
	bonusCentre   = 5  // per piece on the four centre squares
	bonusTrade    = 40 // scaled by the lead over the pieces left: trade down when ahead
	penaltyHunt   = 3  // per step between a leading side's kings and the nearest enemy piece
)

// homeRow is each colour's own back row; centre the four middle squares (14, 15, 18, 19).
var (
	homeRow = [2]uint32{black: 0x0000000F, white: 0xF0000000}
	centre  = uint32(1<<13 | 1<<14 | 1<<17 | 1<<18)
)

// evaluate scores p for the side to move: material first, then the
// positional terms above.
func evaluate(p pos) int {
	s, o := int(p.side), 1-int(p.side)
	mine, theirs := material(p, s), material(p, o)
	score := mine - theirs + positional(p, s) - positional(p, o)
	if total := p.count(s) + p.count(o); total > 0 {
		score += (mine - theirs) * bonusTrade / (total * 10)
	}
	switch {
	case mine > theirs:
		score -= penaltyHunt * huntDistance(p, s)
	case theirs > mine:
		score += penaltyHunt * huntDistance(p, o)
	}
	return score
}

func material(p pos, c int) int {
	kings := bits.OnesCount32(p.pieces[c] & p.kings)
	return valueMan*(p.count(c)-kings) + valueKing*kings
}

func positional(p pos, c int) int {
	men := p.pieces[c] &^ p.kings
	score := bonusCentre * bits.OnesCount32(p.pieces[c]&centre)
	if p.pieces[1-c]&^p.kings != 0 {
		score += bonusBackRank * bits.OnesCount32(men&homeRow[c])
	}
	for set := men; set != 0; set &= set - 1 {
		row := bits.TrailingZeros32(set) / 4
		if c == white {
			row = 7 - row
		}
		score += bonusAdvance * row
	}
	return score
}

// huntDistance sums, over c's kings, the king-step distance to the nearest
// enemy piece, so a side ahead closes in instead of wandering.
func huntDistance(p pos, c int) int {
	enemy := p.pieces[1-c]
	if enemy == 0 {
		return 0
	}
	sum := 0
	for ks := p.pieces[c] & p.kings; ks != 0; ks &= ks - 1 {
		kr, kc := coords(bits.TrailingZeros32(ks))
		best := 8
		for e := enemy; e != 0; e &= e - 1 {
			er, ec := coords(bits.TrailingZeros32(e))
			best = min(best, max(abs(kr-er), abs(kc-ec)))
		}
		sum += best
	}
	return sum
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
