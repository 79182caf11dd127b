package aeroplane

import (
	"fmt"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// View renders the whole game; Aeroplane Chess hides nothing, so every
// viewer sees the same text. Lines: "players N", the options, "turn
// COLOUR roll sixes S" or "turn COLOUR move F sixes S" (S: sixes rolled in
// a row this turn) or "winner COLOUR", then one line per colour with
// each piece as camp, start, tI (track index I), bK (bridge step K, 1..5)
// or home, or "COLOUR left" for a seat that resigned.
func (g *Game) View(viewer rules.Player) string {
	var b strings.Builder
	fmt.Fprintf(&b, "players %d\n", g.players)
	keys := optionKeys()
	for k, v := range g.set.values() {
		fmt.Fprintf(&b, "option %s %s\n", keys[k], onOff(v))
	}
	switch {
	case g.winner >= 0:
		fmt.Fprintf(&b, "winner %s\n", ColourName(g.winner))
	case g.die == 0:
		fmt.Fprintf(&b, "turn %s roll sixes %d\n", ColourName(g.turn), g.sixes)
	default:
		fmt.Fprintf(&b, "turn %s move %d sixes %d\n", ColourName(g.turn), g.die, g.sixes)
	}
	for p := range rules.Player(g.players) {
		b.WriteString(ColourName(p))
		if g.Gone(p) {
			b.WriteString(" left\n")
			continue
		}
		for _, at := range g.pos[p] {
			b.WriteByte(' ')
			b.WriteString(spaceName(p, int(at)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// spaceName names where a piece of colour c at progress at stands.
func spaceName(c rules.Player, at int) string {
	switch {
	case at == Camp:
		return "camp"
	case at == Start:
		return "start"
	case at == Centre:
		return "home"
	case at > LastTrack:
		return fmt.Sprintf("b%d", at-LastTrack)
	}
	return fmt.Sprintf("t%d", TrackIndex(c, at))
}

// Observe gives every viewer the same bytes (nothing is hidden but the
// future dice), laid out as doc.go's "View layout" describes.
func (g *Game) Observe(viewer rules.Player) rules.View {
	cells := make([]byte, 0, g.players*Pieces)
	for p := range rules.Player(g.players) {
		for _, at := range g.pos[p] {
			if g.Gone(p) {
				cells = append(cells, CellGone)
			} else {
				cells = append(cells, byte(at+1))
			}
		}
	}
	phase, seat := PhaseRoll, byte(g.turn)
	switch {
	case g.winner >= 0:
		phase, seat = PhaseOver, byte(g.winner)
	case g.die != 0:
		phase = PhaseMove
	}
	var opts byte
	for i, v := range g.set.values() {
		if v {
			opts |= 1 << i
		}
	}
	return rules.View{
		Viewer: viewer,
		Status: g.Outcome().Status,
		ToMove: g.ToMove(nil),
		Scores: g.Scores(nil),
		Cells:  cells,
		Extra:  []byte{byte(g.players), seat, phase, byte(g.die), byte(g.sixes), opts, g.gone},
	}
}

// Bytes of the view layout (see doc.go).
const (
	CellGone  byte = 0xFF // a piece of a seat that resigned, off the board
	PhaseRoll byte = 0    // Extra[2]: the seat in Extra[1] is to roll
	PhaseMove byte = 1    // Extra[2]: the seat in Extra[1] is to move a piece with Extra[3]
	PhaseOver byte = 2    // Extra[2]: the game is over; Extra[1] is the winner
)
