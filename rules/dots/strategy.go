package dots

import "github.com/bomber-game/bomber/rules"

// position is a read-only look at a board's lines for the chain-aware
// strategy, which works on any board and any number of players.
type position struct {
	b     *board
	drawn lineSet
}

func (p position) sides(box int) int {
	n := 0
	for _, l := range p.b.boxLines[box] {
		if p.drawn.has(l) {
			n++
		}
	}
	return n
}

// missing is the undrawn side of a box with three sides drawn.
func (p position) missing(box int) int {
	for _, l := range p.b.boxLines[box] {
		if !p.drawn.has(l) {
			return l
		}
	}
	panic("dots: missing side of a closed box")
}

// across is the box on the other side of line l from box, -1 for the edge.
func (p position) across(l, box int) int {
	if bs := p.b.lineBoxes[l]; bs[0] == box {
		return bs[1]
	} else {
		return bs[0]
	}
}

// safe reports whether drawing l leaves no box with three sides.
func (p position) safe(l int) bool {
	for _, box := range p.b.lineBoxes[l] {
		if box >= 0 && p.sides(box) == 2 {
			return false
		}
	}
	return true
}

// captures lists the lines that complete a box now.
func (p position) captures() []int {
	var out []int
	for box := range p.b.nBoxes {
		if p.sides(box) == 3 {
			out = append(out, p.missing(box))
		}
	}
	return out
}

// doubleDeal is the move that declines the last boxes of every chain now
// offered, leaving them as a pair (or a loop's last four) for the opponent,
// or -1 when there is none. It is the line the capture of a box would turn
// into another capture, common to all capturable boxes.
func (p position) doubleDeal() int {
	dd := -2
	for box := range p.b.nBoxes {
		if p.sides(box) != 3 {
			continue
		}
		s := p.missing(box)
		t := -1
		if x := p.across(s, box); x >= 0 && p.sides(x) == 2 {
			for _, l := range p.b.boxLines[x] {
				if l != s && !p.drawn.has(l) {
					t = l
				}
			}
		}
		if dd == -2 || dd == t {
			dd = t
		} else {
			dd = -1
		}
	}
	return dd
}

// gift is the number of boxes the opponent may take after line dd
// is drawn.
func (p position) gift(dd int) int {
	after := p
	after.drawn.add(dd)
	return after.takeAll()
}

// takeAll draws every capturable box in turn and returns how many it took.
func (p *position) takeAll() int {
	n := 0
	for {
		caps := p.captures()
		if len(caps) == 0 {
			return n
		}
		for _, box := range p.b.lineBoxes[caps[0]] {
			if box >= 0 && p.sides(box) == 3 {
				n++
			}
		}
		p.drawn.add(caps[0])
	}
}

// open counts the boxes not yet closed.
func (p position) open() int {
	n := 0
	for box := range p.b.nBoxes {
		if p.sides(box) < 4 {
			n++
		}
	}
	return n
}

// anySafe reports whether some undrawn line is safe.
func (p position) anySafe() bool {
	for l := range p.b.nLines {
		if !p.drawn.has(l) && p.safe(l) {
			return true
		}
	}
	return false
}

// strategyMove is the chain-aware rule of thumb: take boxes, but decline
// the last two of a chain (four of a loop) when that keeps control of a
// larger remainder in a two-player endgame; otherwise draw a line that
// gives nothing away; otherwise open the smallest chain, preferring
// openings the opponent cannot decline.
func strategyMove(g *Game, rng rules.Rand) int {
	p := position{b: g.b, drawn: g.drawn}
	if caps := p.captures(); len(caps) > 0 {
		if g.players == 2 {
			// Declining hands over exactly two boxes per offered end: the
			// last two of a chain, or the last four of a loop.
			if dd := p.doubleDeal(); dd >= 0 && p.gift(dd) == 2*len(caps) {
				after := p
				after.takeAll()
				if gift := 2 * len(caps); !after.anySafe() && after.open() > gift {
					return dd
				}
			}
		}
		return caps[rng.IntN(len(caps))]
	}
	var safe []int
	for l := range g.b.nLines {
		if !g.drawn.has(l) && p.safe(l) {
			safe = append(safe, l)
		}
	}
	if len(safe) > 0 {
		return safe[rng.IntN(len(safe))]
	}
	best, bestCost := []int(nil), 1<<30
	for l := range g.b.nLines {
		if g.drawn.has(l) {
			continue
		}
		after := p
		after.drawn.add(l)
		cost := 2 * after.takeAll()
		q := p
		q.drawn.add(l)
		if q.doubleDeal() >= 0 {
			cost++ // the opponent could keep control by declining
		}
		switch {
		case cost < bestCost:
			best, bestCost = append(best[:0], l), cost
		case cost == bestCost:
			best = append(best, l)
		}
	}
	return best[rng.IntN(len(best))]
}
