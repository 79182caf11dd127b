package checkers

import (
	"github.com/bomber-game/bomber/rules"
)

// Cell values of Observe's Cells, one per PDN square (index square-1).
const (
	CellEmpty     = 0
	CellBlackMan  = 1
	CellBlackKing = 2
	CellWhiteMan  = 3
	CellWhiteKing = 4
)

// NoOffer is Extra[1] of a view when no draw offer is pending.
const NoOffer = 0xFF

// Observe is View as data (see "View layout" in the package doc). Checkers
// hides nothing, so every viewer gets the same Cells and Extra.
func (g *Game) Observe(viewer rules.Player) rules.View {
	cells := make([]byte, 32)
	for sq := range cells {
		if c, king, ok := g.pos.pieceAt(sq); ok {
			cells[sq] = byte(1 + 2*c + b2i(king))
		}
	}
	offer := byte(NoOffer)
	if g.offer != rules.Spectator {
		offer = byte(g.offer)
	}
	return rules.View{
		Viewer: viewer,
		Status: g.outcome.Status,
		ToMove: g.ToMove(nil),
		Scores: g.Scores(nil),
		Cells:  cells,
		Extra:  []byte{byte(g.pos.side), offer},
	}
}

// Redact returns a clone: checkers has no hidden information and no chance.
func (g *Game) Redact(rules.Player) rules.Game { return g.Clone() }

// options lists every key New accepts, for catalogues and settings forms.
var options = []rules.OptionSpec{
	{Key: OptCompulsoryCapture, Kind: rules.OptionBool, Default: "true", Doc: "a jump must be taken when one is available"},
	{Key: OptDrawAgreement, Kind: rules.OptionBool, Default: "true", Doc: "players may offer and accept draws"},
	{Key: OptDrawRepetition, Kind: rules.OptionBool, Default: "true", Doc: "the third repetition of a position draws"},
	{Key: OptDraw40Moves, Kind: rules.OptionBool, Default: "true", Doc: "40 moves each without a man moved or a piece taken draw"},
	{Key: OptResign, Kind: rules.OptionBool, Default: "true", Doc: "Legal lists resignation for the side to move (a seat may always resign)"},
	{Key: OptFEN, Kind: rules.OptionText, Default: StartFEN, Doc: "the starting position in PDN FEN"},
}
