package checkers

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
)

// Move kinds. Board moves keep their path of PDN squares (1 to 32) in Arg,
// Len squares long; the draw and resignation kinds are the shared ones of
// package rules and carry nothing.
const (
	KindMove uint8 = 1 // a simple move: Arg[0] to Arg[1], Len 2
	KindJump uint8 = 2 // a jump: Arg[0] over one piece to Arg[1], and on; Len = captures + 1
)

// Step kinds. Squares in steps are PDN squares, 1 to 32.
const (
	StepMove        uint8 = 1 // a piece moved: A from, B to
	StepJump        uint8 = 2 // a piece jumped: A from, B to, C the square of the piece it captured
	StepCrown       uint8 = 3 // a man was crowned: A its square
	StepDrawOffer   uint8 = 4 // Player offered a draw
	StepDrawDecline uint8 = 5 // Player declined the offer
	StepDrawAccept  uint8 = 6 // Player accepted the offer; the game is drawn
	StepResign      uint8 = 7 // Player resigned
)

// Notation for the moves that are not on the board.
const (
	textOfferDraw   = "draw-offer"
	textAcceptDraw  = "draw-accept"
	textDeclineDraw = "draw-decline"
	textResign      = "resign"
)

// SimpleMove returns the simple move from one PDN square to another.
func SimpleMove(from, to int) rules.Move {
	return rules.Move{Kind: KindMove, Len: 2, Arg: [rules.MoveArgs]uint8{uint8(from), uint8(to)}}
}

// JumpMove returns the jump along the given PDN squares, start square first.
// It panics when the path does not fit a Move, which no legal jump exceeds.
func JumpMove(path ...int) rules.Move {
	if len(path) > rules.MoveArgs {
		panic(fmt.Sprintf("checkers: jump path of %d squares", len(path)))
	}
	m := rules.Move{Kind: KindJump, Len: uint8(len(path))}
	for i, sq := range path {
		m.Arg[i] = uint8(sq)
	}
	return m
}

// Path returns the PDN squares a board move passes through, start first;
// nil for moves that are not on the board.
func Path(m rules.Move) []int {
	if m.Kind != KindMove && m.Kind != KindJump {
		return nil
	}
	out := make([]int, min(int(m.Len), rules.MoveArgs))
	for i := range out {
		out[i] = int(m.Arg[i])
	}
	return out
}
