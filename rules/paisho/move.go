package paisho

import "github.com/bomber-game/bomber/rules"

// Move kinds of this game; the shared rules.KindOfferDraw, KindAcceptDraw,
// KindDeclineDraw and KindResign are supported as well.
const (
	KindDeploy uint8 = 1 // Arg: tile, x+8, y+8
	KindMove   uint8 = 2 // Arg: from x+8, from y+8, to x+8, to y+8
)

// Step kinds reported by Play.
const (
	StepDeploy       uint8 = 1 // A tile, B point code of the target
	StepMove         uint8 = 2 // A tile, B point code of the start, C of the end
	StepCapture      uint8 = 3 // Player capturer, A captured tile, B point code, C its owner
	StepDrawOffered  uint8 = 4 // Player offering
	StepDrawDeclined uint8 = 5 // Player declining (explicitly or by moving)
	StepDrawAccepted uint8 = 6 // Player accepting; the game is drawn
	StepResigned     uint8 = 7 // Player resigning; the other player wins
)

// PointCode is how steps name a point: (x+8)*17 + (y+8).
func PointCode(p Point) int16 { return int16(p.index()) }

// PointFromCode inverts PointCode.
func PointFromCode(c int16) Point { return pointOf(int(c)) }

// Deploy is the move that places tile t from the library on point at.
func Deploy(t Tile, at Point) rules.Move {
	m := rules.Move{Kind: KindDeploy, Len: 3}
	m.Arg[0] = uint8(t)
	m.Arg[1], m.Arg[2] = uint8(at.X+maxCoord), uint8(at.Y+maxCoord)
	return m
}

// MoveTile is the move that moves the tile on from to to (capturing
// whatever enemy tile stands there).
func MoveTile(from, to Point) rules.Move {
	m := rules.Move{Kind: KindMove, Len: 4}
	m.Arg[0], m.Arg[1] = uint8(from.X+maxCoord), uint8(from.Y+maxCoord)
	m.Arg[2], m.Arg[3] = uint8(to.X+maxCoord), uint8(to.Y+maxCoord)
	return m
}

// OfferDraw offers the opponent a draw; the offerer then still makes a move.
func OfferDraw() rules.Move { return rules.Move{Kind: rules.KindOfferDraw} }

// AcceptDraw accepts the opponent's pending draw offer, ending the game.
func AcceptDraw() rules.Move { return rules.Move{Kind: rules.KindAcceptDraw} }

// DeclineDraw declines the opponent's pending draw offer (moving does too).
func DeclineDraw() rules.Move { return rules.Move{Kind: rules.KindDeclineDraw} }

// Resign gives the game up.
func Resign() rules.Move { return rules.Move{Kind: rules.KindResign} }

// DeployOf reads a deploy move; ok is false for any other move.
func DeployOf(m rules.Move) (t Tile, at Point, ok bool) {
	if m.Kind != KindDeploy || m.Len != 3 {
		return NoTile, Point{}, false
	}
	return Tile(m.Arg[0]), Point{int8(m.Arg[1]) - maxCoord, int8(m.Arg[2]) - maxCoord}, true
}

// MoveOf reads a tile move; ok is false for any other move.
func MoveOf(m rules.Move) (from, to Point, ok bool) {
	if m.Kind != KindMove || m.Len != 4 {
		return Point{}, Point{}, false
	}
	from = Point{int8(m.Arg[0]) - maxCoord, int8(m.Arg[1]) - maxCoord}
	to = Point{int8(m.Arg[2]) - maxCoord, int8(m.Arg[3]) - maxCoord}
	return from, to, true
}

// Arg holds coordinates biased by 8, so anything above 16 cannot be a point.
func argPoint(x, y uint8) (Point, bool) {
	if x > 2*maxCoord || y > 2*maxCoord {
		return Point{}, false
	}
	p := Point{int8(x) - maxCoord, int8(y) - maxCoord}
	return p, p.OnBoard()
}

func isBoardKind(k uint8) bool { return k == KindDeploy || k == KindMove }
