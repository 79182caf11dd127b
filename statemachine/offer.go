package statemachine

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// Offers (docs/protocol.md, Offer): a draw, a rematch or a takeback needs
// the consent of every seat still in the game (consents) and expires after
// Config.OfferTTL or at the next move. A computer seat answers at once by
// computerAgrees; a seat held for its absent player waits for it to come
// back and answer. A draw can be offered only where the game's rules have
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
	t := occupant(s)
	if t == nil {
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
	case what == offerRematch && answer == answerPropose && t.hasEmptySeat():
		h.fail(s, segment.Offer, segment.ErrCodeNoOffer, "a seat is empty")
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
		if !h.computersAnswer(t) {
			return
		}
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
	h.agreeIfAll(now, t)
}

// consents reports whether seat sl must agree to an offer: every seat still
// in the game, its person's present or not, and computers.
func consents(sl *seatSlot) bool {
	l := sl.life()
	return l != lifeGone && l != lifeEmpty
}

// computerAgrees is how a computer seat p answers an offer of what at t
// (docs/protocol.md 8.8, Offers): it agrees to what cannot hurt its side,
// from the position alone so that replays answer alike. A rematch: yes. A
// takeback: no, as undoing a move only helps the one who asks (and a
// computer holding a seat for its absent person will not undo that person's
// moves). A draw: only while it has captured less than every other seat
// still in the game, that is, when it stands to lose.
func computerAgrees(t *table, what uint8, p rules.Player) bool {
	switch what {
	case offerRematch:
		return true
	case offerDraw:
		sc := t.game.Scores(nil)
		if len(sc) != len(t.seats) {
			return false
		}
		for i := range t.seats {
			if rules.Player(i) != p && consents(&t.seats[i]) && sc[i] <= sc[p] {
				return false
			}
		}
		return true
	}
	return false
}

// computersAnswer gives the standing offer the answers of t's computer seats
// that have not answered; false when one declined (the offer is gone).
func (h *Hub) computersAnswer(t *table) bool {
	o := t.offer
	for i := range t.seats {
		if l := t.seats[i].life(); (l != lifeBot && l != lifeBotHolding) || o.agreed[i] {
			continue
		}
		if !computerAgrees(t, o.what, rules.Player(i)) {
			t.offer = nil
			h.tellOffer(t, o.what, offerDeclined, rules.Player(i))
			return false
		}
		o.agreed[i] = true
	}
	return true
}

// agreeIfAll carries out the standing offer once every seat that must
// consent has agreed.
func (h *Hub) agreeIfAll(now int64, t *table) {
	for i := range t.seats {
		if consents(&t.seats[i]) && !t.offer.agreed[i] {
			return // still waiting for someone
		}
	}
	h.agree(now, t)
}

// agree carries out the standing offer everyone agreed to, after telling
// everyone at t who agreed to it (each seat but its proposer, in order).
func (h *Hub) agree(now int64, t *table) {
	o := t.offer
	t.offer = nil
	for i, ok := range o.agreed {
		if ok && rules.Player(i) != o.by {
			h.tellOffer(t, o.what, offerAgreed, rules.Player(i))
		}
	}
	switch o.what {
	case offerDraw:
		h.endTable(now, t, record.Agreed, rules.Spectator)
	case offerRematch:
		h.startTable(now, t)
	case offerTakeback:
		h.takeback(now, t)
	}
}

// takeback undoes the last move by replaying the others from the seed (only
// games without chance or secrets allow it), sends everyone a fresh view,
// and gives the turn back with it: the clocks run for the seats to move in
// the rebuilt game and a computer to move there is asked for its move.
func (h *Hub) takeback(now int64, t *table) {
	last := t.moves[len(t.moves)-1]
	moves := t.moves[:len(t.moves)-1]
	g, err := t.newGame()
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
	h.clocksAfterTakeback(now, t, last.seat)
	h.askBots(t)
}

// clocksAfterTakeback stops every clock, charging the time it ran up to now
// to its seat, withdraws the increment the taken-back move earned its
// mover, and starts afresh the clocks of the seats to move now (a move
// clock gets its whole time again; a total keeps what is left of it).
func (h *Hub) clocksAfterTakeback(now int64, t *table, mover rules.Player) {
	for i := range t.seats {
		t.seats[i].auto = false // a timeout action belonged to the turn taken back
	}
	if t.clock == nil {
		return
	}
	for i := range t.seats {
		h.stopClock(now, t, rules.Player(i), false)
		t.seats[i].expired = false
	}
	if sl := &t.seats[mover]; t.clock.total > 0 {
		sl.left = max(sl.left-t.clock.inc, 0)
	}
	h.startClock(now, t)
	h.sendClocks(now, t)
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
		if t := h.offerTimerTable(now, id); t != nil {
			h.expireOffer(now, t)
		}
	}
}

// expireOffer withdraws t's offer if its time is up.
func (h *Hub) expireOffer(now int64, t *table) {
	if o := t.offer; t.offerDue(now) {
		t.offer = nil
		h.tellOffer(t, o.what, offerExpired, o.by)
	}
}

// hasEmptySeat reports whether a seat of t has nobody, so a rematch could
// not start.
func (t *table) hasEmptySeat() bool {
	for i := range t.seats {
		if t.seats[i].life() == lifeEmpty {
			return true
		}
	}
	return false
}

// offerAfterSeat settles t's standing offer after seat p changed hands: a
// rematch is withdrawn when p emptied; a computer now holding p answers; a
// seat that left the game no longer needs to.
func (h *Hub) offerAfterSeat(now int64, t *table, p rules.Player) {
	o := t.offer
	if o == nil {
		return
	}
	if t.seats[p].life() == lifeEmpty {
		t.offer = nil
		h.tellOffer(t, o.what, offerWithdrawn, p)
		return
	}
	if h.computersAnswer(t) {
		h.agreeIfAll(now, t)
	}
}

// sendOffer tells s, back at its seat, of the offer standing at t.
func (h *Hub) sendOffer(s *session, t *table) {
	if o := t.offer; o != nil {
		h.sendMsg(s, segment.Offer, segment.OfferBody{What: o.what, State: offerProposed, Seat: uint8(o.by)}.Append(h.body()))
	}
}

// offerDue reports whether t's offer's time is up at now.
func (t *table) offerDue(now int64) bool { return t.offer != nil && t.offer.expires <= now }

// offerTimerTable is the table whose offer timer key falls at now, nil if
// its table is closed or its offer is not due.
func (h *Hub) offerTimerTable(now int64, key ConnID) *table {
	if t := h.tables[uint32(key)]; t != nil && t.offerDue(now) {
		return t
	}
	return nil
}
