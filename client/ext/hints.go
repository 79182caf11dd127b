package ext

import (
	"bytes"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// Placement hints (docs/protocol.md section 10.1): while our seat builds a
// move in parts (a Bomber board, plane by plane), the server lists the
// legal next parts given the parts chosen, so the client knows no rules
// for it.

// EvHints: the answer to AskHints is complete (Hints).
const EvHints EventKind = 140

// hintState is the answer to AskHints in progress and the last whole one.
type hintState struct {
	asked  [][]byte     // the chosen parts of each request not yet answered, in order
	parts  []rules.Move // the answer coming in (LegalMore)
	chosen []byte       // what the last whole answer was for
	moves  []rules.Move // the last whole answer
}

// AskHints asks for the legal next parts of the move our seat builds in
// parts, given the bytes of the parts chosen (Bomber: head x, y, tail x, y
// of each plane drawn). The answer arrives as EvHints; a refusal as
// EvError.
func (c *Client) AskHints(chosen []byte) (Out, error) {
	if err := c.playing(); err != nil {
		return Out{}, err
	}
	o, err := c.request(segment.HintReqMsg{Table: c.game.table, Chosen: chosen})
	if err == nil {
		c.hints.asked = append(c.hints.asked, bytes.Clone(chosen))
	}
	return o, err
}

// Hints is the last whole answer to AskHints and the chosen parts it was
// for: each move a legal next part (Bomber: kind 1, the plane's head x, y
// and tail x, y). ok is false before any came.
func (c *Client) Hints() (chosen []byte, moves []rules.Move, ok bool) {
	return c.hints.chosen, c.hints.moves, c.hints.chosen != nil
}

// handleHints takes Hints, and the Error refusing a HintReq.
func (c *Client) handleHints(o *Out, t segment.Type, body []byte) (bool, error) {
	switch t {
	case segment.Hints:
		return true, decoded(body, segment.DecodeHintsBody, func(h segment.HintsBody) {
			for _, g := range h.Groups {
				for _, a := range g.Moves() {
					m := rules.Move{Kind: g.Kind, Len: g.Len}
					copy(m.Arg[:], a)
					c.hints.parts = append(c.hints.parts, m)
				}
			}
			if h.Flags&segment.LegalMore != 0 {
				return
			}
			c.hints.moves, c.hints.parts = c.hints.parts, nil
			c.hints.chosen = []byte{}
			if len(c.hints.asked) > 0 {
				c.hints.chosen, c.hints.asked = c.hints.asked[0], c.hints.asked[1:]
			}
			o.ev(Event{Kind: EvHints})
		})
	case segment.ErrorMsg:
		if len(body) > 0 && segment.Type(body[0]) == segment.HintReq && len(c.hints.asked) > 0 {
			c.hints.asked = c.hints.asked[1:] // refused: the next answer is the next request's
		}
	}
	return false, nil
}
