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
// or home.
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
