package ext

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// Legal moves (docs/protocol.md, "Legal moves"): with every update the
// server lists our seat's legal moves while it is to move, so the client
// offers exactly those and judges none itself.

// EvLegal: our seat's legal moves for the game's latest update are in
// (Game.Legal).
const EvLegal EventKind = 150

// legalList is the server's list of a seat's legal moves at one update.
type legalList struct {
	seq     uint32 // the update (a move's or a View's sequence number)
	seat    int
	tooMany bool         // more than the server lists (a Bomber board): the rules judge each
	moves   []rules.Move // the whole list (offers and resigning never in it)
	parts   []rules.Move // the list coming in (LegalMore)
	whole   bool
}

// Legal is the legal moves of seat p now, as the server listed them for
// the game's latest update: nil before they came, when p is not to move,
// after the end, and when there are too many to list (LegalTooMany: a
// Bomber board, which the client builds from placement hints).
func (g *Game) Legal(p int) []rules.Move {
	l := &g.legal
	if g.End != nil || !l.whole || l.seq != g.seq || l.seat != p || l.tooMany {
		return nil
	}
	return l.moves
}

// handleLegal takes Legal for the game at our table.
func (c *Client) handleLegal(o *Out, t segment.Type, body []byte) (bool, error) {
	if t != segment.Legal {
		return false, nil
	}
	return true, decoded(body, segment.DecodeLegalBody, func(b segment.LegalBody) {
		g := c.game
		if g == nil || b.Table != g.table {
			return
		}
		l := &g.legal
		if l.whole || l.seq != b.Seq || l.seat != int(b.Seat) {
			*l = legalList{seq: b.Seq, seat: int(b.Seat), parts: l.parts[:0]}
		}
		l.tooMany = l.tooMany || b.Flags&segment.LegalTooMany != 0
		for _, gr := range b.Groups {
			for _, a := range gr.Moves() {
				m := rules.Move{Kind: gr.Kind, Len: gr.Len}
				copy(m.Arg[:], a)
				l.parts = append(l.parts, m)
			}
		}
		if b.Flags&segment.LegalMore != 0 {
			return
		}
		l.moves, l.parts, l.whole = l.parts, nil, true
		o.ev(Event{Kind: EvLegal, Table: b.Table})
	})
}
