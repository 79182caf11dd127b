package aeroplane

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// Move kinds.
const (
	KindRoll uint8 = 1 // roll the die; no arguments
	KindMove uint8 = 2 // move a piece with the rolled face; Arg[0] is the piece 0..3
)

// Roll is the move that rolls the die.
func Roll() rules.Move { return rules.Move{Kind: KindRoll} }

// Resign is the move giving the game up ("resign").
func Resign() rules.Move { return rules.Move{Kind: rules.KindResign} }

// MovePiece is the move that moves piece i (0..3) with the rolled face.
func MovePiece(i int) rules.Move {
	m := rules.Move{Kind: KindMove, Len: 1}
	m.Arg[0] = uint8(i)
	return m
}

// FormatMove writes "roll", "move N" (N the piece, 0..3) or "resign".
func (g *Game) FormatMove(m rules.Move) string { return formatMove(m) }

func formatMove(m rules.Move) string {
	switch {
	case m == Roll():
		return "roll"
	case m == Resign():
		return "resign"
	case m.Kind == KindMove && m.Len == 1 && m.Arg[0] < Pieces && m == MovePiece(int(m.Arg[0])):
		return "move " + strconv.Itoa(int(m.Arg[0]))
	}
	return fmt.Sprintf("?%d/%d", m.Kind, m.Len)
}

// ParseMove reads "roll", "move N" or "resign"; p is not needed to read them.
func (g *Game) ParseMove(p rules.Player, text string) (rules.Move, error) { return parseMove(text) }

func parseMove(text string) (rules.Move, error) {
	f := strings.Fields(strings.ToLower(text))
	switch {
	case len(f) == 1 && f[0] == "roll":
		return Roll(), nil
	case len(f) == 1 && f[0] == "resign":
		return Resign(), nil
	case len(f) == 2 && f[0] == "move" && len(f[1]) == 1 && f[1][0] >= '0' && f[1][0] < '0'+Pieces:
		return MovePiece(int(f[1][0] - '0')), nil
	}
	return rules.Move{}, fmt.Errorf("%w: %q is not \"roll\", \"move 0\"..\"move 3\" or \"resign\"", rules.ErrNotation, text)
}
