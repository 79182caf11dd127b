package checkers

import (
	"math/bits"

	"github.com/bomber-game/bomber/rules"
)

// move is a board move as generated: the public encoding plus the squares
// it captures, which apply needs and the path alone does not give cheaply.
type move struct {
	m    rules.Move
	capt uint32
}

// generate appends the legal board moves of the side to move in p to buf.
// With compulsory set, jumps exclude simple moves when there are any.
// Every distinct jump path is its own move, even when two paths capture the
// same pieces and end on the same square (as published perft counts do).
func generate(p pos, compulsory bool, buf []move) []move {
	n := len(buf)
	buf = appendJumps(p, buf)
	if compulsory && len(buf) > n {
		return buf
	}
	return appendSteps(p, buf)
}

func appendSteps(p pos, buf []move) []move {
	s := p.side
	empty := ^(p.pieces[black] | p.pieces[white])
	for own := p.pieces[s]; own != 0; own &= own - 1 {
		from := bits.TrailingZeros32(own)
		king := p.kings&(1<<from) != 0
		for _, d := range dirsOf[s][b2i(king)] {
			to := geo.step[d][from]
			if to >= 0 && empty&(1<<to) != 0 {
				var m move
				m.m.Kind = KindMove
				m.m.Len = 2
				m.m.Arg[0] = uint8(from + 1)
				m.m.Arg[1] = uint8(to + 1)
				buf = append(buf, m)
			}
		}
	}
	return buf
}

func appendJumps(p pos, buf []move) []move {
	s := p.side
	opp := p.pieces[1-s]
	occupied := p.pieces[black] | p.pieces[white]
	for own := p.pieces[s]; own != 0; own &= own - 1 {
		from := bits.TrailingZeros32(own)
		king := p.kings&(1<<from) != 0
		var m move
		m.m.Kind = KindJump
		m.m.Len = 1
		m.m.Arg[0] = uint8(from + 1)
		// The moving piece leaves its square, so a king may pass over or
		// end on it again; captured pieces leave the opponent's set at once,
		// which keeps them from being jumped twice. (A short king can never
		// land on a square it captured on: landings and captured squares lie
		// on different sub-lattices.)
		buf = jumpOn(s, king, from, opp, occupied&^(1<<from), m, buf)
	}
	return buf
}

// jumpOn extends the jump m, whose piece stands on sq, by every continuation
// and appends each completed path to buf.
func jumpOn(side uint8, king bool, sq int, opp, occupied uint32, m move, buf []move) []move {
	extended := false
	for _, d := range dirsOf[side][b2i(king)] {
		to := geo.jump[d][sq]
		if to < 0 {
			continue
		}
		over := geo.step[d][sq]
		if opp&(1<<over) == 0 || occupied&(1<<to) != 0 {
			continue
		}
		extended = true
		next := m
		if int(next.m.Len) >= rules.MoveArgs {
			panic("checkers: jump path longer than a Move holds")
		}
		next.m.Arg[next.m.Len] = uint8(to + 1)
		next.m.Len++
		next.capt |= 1 << over
		if !king && crownRow[side]&(1<<to) != 0 {
			// Crowning ends the move, even when the new king could jump on.
			buf = append(buf, next)
			continue
		}
		buf = jumpOn(side, king, int(to), opp&^(1<<over), occupied&^(1<<over), next, buf)
	}
	if !extended && m.m.Len > 1 {
		buf = append(buf, m)
	}
	return buf
}

// apply returns the position after the side to move plays mv.
func apply(p pos, mv move) pos {
	s := p.side
	from := uint32(1) << (mv.m.Arg[0] - 1)
	to := uint32(1) << (mv.m.Arg[mv.m.Len-1] - 1)
	p.pieces[s] = p.pieces[s]&^from | to
	switch {
	case p.kings&from != 0:
		p.kings = p.kings&^from | to
	case crownRow[s]&to != 0:
		p.kings |= to
	}
	p.pieces[1-s] &^= mv.capt
	p.kings &^= mv.capt
	p.side = 1 - s
	return p
}

// irreversible reports whether mv moves a man or captures, which resets the
// repetition history and the 40-move count.
func irreversible(p pos, mv move) bool {
	return mv.capt != 0 || p.kings&(1<<(mv.m.Arg[0]-1)) == 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
