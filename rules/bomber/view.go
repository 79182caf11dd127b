package bomber

import (
	"encoding/binary"

	"github.com/bomber-game/bomber/rules"
)

// Cell values in Observe's grids (see "View layout" in the package doc).
const (
	ViewUnknown  byte = 0 // nothing known to the viewer
	ViewOwnBody  byte = 1 // the viewer's own plane, not hit
	ViewOwnHead  byte = 2 // the viewer's own plane head, not hit
	ViewMiss     byte = 3 // guessed singly by the opponent: no plane
	ViewHitBody  byte = 4 // revealed plane cell
	ViewHitHead  byte = 5 // revealed plane head
	ViewNoWinner byte = 255
)

// viewExtra is the length of Observe's Extra.
const viewExtra = 7 + 4*placementBytes

// placementBytes holds one bit per placement.
const placementBytes = 21

// Observe implements rules.Game: View as data, laid out as the package doc
// describes. A seat's unhit planes go to that seat only.
func (g *Game) Observe(viewer rules.Player) rules.View {
	cells := make([]byte, 2*Size*Size)
	for p := range 2 {
		s, guesser := &g.seats[p], &g.seats[1-p]
		own := viewer == rules.Player(p)
		grid := cells[p*Size*Size : (p+1)*Size*Size]
		for c := Cell(0); c < Size*Size; c++ {
			switch {
			case s.revealed.Has(c) && s.heads.Has(c):
				grid[c] = ViewHitHead
			case s.revealed.Has(c):
				grid[c] = ViewHitBody
			case own && s.heads.Has(c):
				grid[c] = ViewOwnHead
			case own && s.cells.Has(c):
				grid[c] = ViewOwnBody
			case guesser.guessed.Has(c):
				grid[c] = ViewMiss
			}
		}
	}
	extra := make([]byte, viewExtra)
	extra[0], extra[1], extra[2] = byte(g.phase), byte(g.turn), ViewNoWinner
	if g.phase == Over {
		extra[2] = byte(g.winner)
	}
	binary.BigEndian.PutUint16(extra[3:], uint16(min(g.seats[0].guesses, 0xFFFF)))
	binary.BigEndian.PutUint16(extra[5:], uint16(min(g.seats[1].guesses, 0xFFFF)))
	for p := range 2 {
		tried := extra[7+2*p*placementBytes:]
		right := tried[placementBytes:]
		for i := range placements {
			if g.tried[p][i/64]&(1<<(i%64)) != 0 {
				tried[i/8] |= 1 << (i % 8)
			}
			if g.right[p][i/64]&(1<<(i%64)) != 0 {
				right[i/8] |= 1 << (i % 8)
			}
		}
	}
	return rules.View{
		Viewer: viewer,
		Status: g.Outcome().Status,
		ToMove: g.ToMove(nil),
		Scores: g.Scores(nil),
		Cells:  cells,
		Extra:  extra,
	}
}

// erased is the board a redacted game holds for a seat whose planes are
// unknown: planes off the board, so no guess ever hits them.
var erased = Board{{NoCell, NoCell}, {NoCell, NoCell}, {NoCell, NoCell}}

// Redact implements rules.Game: a copy in which the other seat's planes are
// erased, but for the cells already revealed (and which of them are heads);
// whether it has placed, the guesses and their results stay. Bomber has no
// chance, so nothing else changes. Play on a redacted copy answers guesses
// by what is left: a guess on a cell not yet revealed is Wrong and a double
// on a plane not yet found is wrong. Bots therefore use the redacted game's
// observations (Guessed, Revealed, RevealedHeads, Doubles), never its answers.
func (g *Game) Redact(p rules.Player) rules.Game {
	c := *g
	for q := range 2 {
		if rules.Player(q) == p {
			continue
		}
		s := &c.seats[q]
		s.board = erased
		s.cells = s.revealed
		s.heads = s.heads.Inter(s.revealed)
	}
	return &c
}

// SecretMove implements rules.SecretMoves: a board is shown to its seat
// alone until the game is over; guesses are public.
func (g *Game) SecretMove(m rules.Move) bool { return m.Kind == KindBoard }

var _ rules.SecretMoves = (*Game)(nil)
