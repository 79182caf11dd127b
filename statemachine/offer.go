package statemachine

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// Offers (docs/protocol.md, Offer): a draw, a rematch or a takeback needs
// the consent of every seated player and expires after Config.OfferTTL or at
// the next move. A draw can be offered only where the game's rules have
// draws by agreement (rules.Game.DrawByAgreement).
const (
	offerDraw     = 1
	offerRematch  = 2
	offerTakeback = 3

	answerPropose = 0
	answerAccept  = 1
	answerDecline = 2

	offerProposed  = 0
	offerAgreed    = 1
	offerDeclined  = 2
	offerExpired   = 3
	offerWithdrawn = 4
)

type offer struct {
	what    uint8
	by      rules.Player
	agreed  []bool // by seat
	expires int64
}

// offerMsg: propose, accept or decline an offer.
func (h *Hub) offerMsg(now int64, s *session, body []byte) {
	r := segment.NewReader(body)
	what, answer := r.U8(), r.U8()
	if r.Done() != nil || what < offerDraw || what > offerTakeback || answer > answerDecline {
		h.fail(s, segment.Offer, segment.ErrCodeBadRequest, "malformed Offer")
		return
	}
	t := s.table
	if t == nil || s.seat == rules.Spectator {
		h.fail(s, segment.Offer, segment.ErrCodeNotSeated, "sit at a table first")
		return
	}
	playing := t.phase == phasePlaying
	switch {
	case what == offerRematch && (playing || t.game == nil):
		h.fail(s, segment.Offer, segment.ErrCodeGameOver, "a rematch follows a finished game")
		return
	case what != offerRematch && !playing:
		h.fail(s, segment.Offer, segment.ErrCodeGameOver, "no game running")
		return
	case what == offerDraw && !t.game.DrawByAgreement():
		// the rules own draws: where they have none, nobody is asked
		h.fail(s, segment.Offer, segment.ErrCodeNoOffer, "no draws in this game") // as for a takeback where there is none
		return
	case what == offerTakeback && (!t.kind.Spec.Takeback || len(t.moves) == 0):
		h.fail(s, segment.Offer, segment.ErrCodeNoOffer, "no takeback in this game")
		return
	}
	if answer == answerPropose {
		if t.offer != nil {
			h.fail(s, segment.Offer, segment.ErrCodeNoOffer, "an offer is already standing")
			return
		}
		t.offer = &offer{what: what, by: s.seat, agreed: make([]bool, len(t.seats)), expires: now + int64(h.cfg.OfferTTL)}
		h.offerTimers.push(t.offer.expires, ConnID(t.id))
		t.offer.agreed[s.seat] = true
		h.tellOffer(t, what, offerProposed, s.seat)
	} else {
		o := t.offer
		if o == nil || o.what != what {
			h.fail(s, segment.Offer, segment.ErrCodeNoOffer, "no such offer standing")
			return
		}
		if answer == answerDecline {
			t.offer = nil
			h.tellOffer(t, what, offerDeclined, s.seat)
			return
		}
		o.agreed[s.seat] = true
	}
	for i, sl := range t.seats {
		if sl.s != nil && !sl.gone && !t.offer.agreed[i] {
			return // still waiting for someone
		}
	}
	h.agree(now, t)
}

// agree carries out the standing offer everyone agreed to.
func (h *Hub) agree(now int64, t *table) {
	o := t.offer
	t.offer = nil
	h.tellOffer(t, o.what, offerAgreed, o.by)
	switch o.what {
	case offerDraw:
		h.endTable(now, t, record.Agreed, rules.Spectator)
	case offerRematch:
		h.startTable(now, t)
	case offerTakeback:
		h.takeback(t)
	}
}

// takeback undoes the last move by replaying the others from the seed (only
// games without chance or secrets allow it) and sends everyone a fresh view.
func (h *Hub) takeback(t *table) {
	moves := t.moves[:len(t.moves)-1]
	g, err := t.kind.Spec.New(len(t.seats), t.gameOptions(), record.Rand(t.seed))
	if err != nil {
		return
	}
	for _, m := range moves {
		if h.steps, err = g.Play(m.seat, m.move, h.steps[:0]); err != nil {
			return // cannot happen for a deterministic game; keep the game as it was
		}
	}
	t.game, t.moves = g, moves
	t.seq++
	h.each(t, func(r *session) { h.sendView(r, t) })
}

func (h *Hub) tellOffer(t *table, what, state uint8, by rules.Player) {
	h.each(t, func(r *session) {
		h.sendMsg(r, segment.Offer, segment.OfferBody{What: what, State: state, Seat: uint8(by)}.Append(h.body()))
	})
}

// expireOffers withdraws offers whose time is up.
func (h *Hub) expireOffers(now int64) {
	for {
		id, ok := h.offerTimers.pop(now)
		if !ok {
			return
		}
		if t := h.tables[uint32(id)]; t != nil && t.offer != nil && t.offer.expires <= now {
			o := t.offer
			t.offer = nil
			h.tellOffer(t, o.what, offerExpired, o.by)
		}
	}
}
