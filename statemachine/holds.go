package statemachine

// Seats held through a dropped connection (docs/protocol.md section 9):
// resume tokens, the grace a seat is held for, and Resume.

import (
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// sendSeated gives s the resume token of its seat.
func (h *Hub) sendSeated(s *session, t *table, i int) {
	if s.has(segment.FeatureResume) {
		h.sendMsg(s, segment.Seated, segment.SeatedBody{Table: t.id, Seat: uint8(i), Token: t.seats[i].token}.Append(h.body()))
	}
}

// hold keeps s's seat for its player after its connection dropped (or was
// kicked by a newer login): the others are told for how long.
func (h *Hub) hold(now int64, s *session, t *table) {
	grace, q := h.cfg.ResumeGrace, 0
	if s.x.bye {
		grace, q = h.cfg.ResumeGraceBye, 1
	}
	h.seatTo(t, int(s.seat), lifeHeld, nil)
	sl := &t.seats[s.seat]
	sl.awayUntil = now + int64(grace)
	// one queue per grace period: each is in deadline order
	h.awayTimers[q].push(sl.awayUntil, ConnID(uint64(t.id)<<8|uint64(s.seat)))
	h.stats.SeatsHeld++
	sl.pausedAt = now // with clock.pause its clock stands still from now (deadline)
	a := segment.AwayBody{Table: t.id, Seat: uint8(s.seat), Grace: uint32(grace / time.Millisecond)}
	h.each(t, func(r *session) { h.sendMsg(r, segment.Away, a.Append(h.body())) })
	h.broadcastTable(t)
}

// expireAways ends the holds whose grace ran out: a waiting table frees the
// seat; a running game of two is lost by the absent player; in a game of
// three or four a computer player takes the seat over (the person may take
// it back with Resume).
func (h *Hub) expireAways(now int64) {
	for q := range h.awayTimers {
		h.expireQueue(now, &h.awayTimers[q])
	}
}

func (h *Hub) expireQueue(now int64, tq *timerQueue) {
	for {
		key, ok := tq.pop(now)
		if !ok {
			return
		}
		if t, p := h.awayTimerSeat(now, key); t != nil {
			h.expireAway(now, t, p)
		}
	}
}

// expireAway ends the hold of t's seat p if its grace ran out.
func (h *Hub) expireAway(now int64, t *table, p rules.Player) {
	sl := &t.seats[p]
	if !sl.holdDue(now) {
		return
	}
	if t.clock != nil {
		t.clock.settle(now, sl) // the pause ends: a computer or nobody plays on
	}
	h.stats.HoldsExpired++
	switch {
	case t.phase != phasePlaying:
		h.seatTo(t, int(p), lifeEmpty, nil)
		for i := range t.seats {
			if !t.seats[i].bot {
				t.seats[i].ready = false
			}
		}
		h.offerAfterSeat(now, t, p)
	case len(t.seats) == 2:
		h.seatTo(t, int(p), lifeGone, nil)
		h.resignSeat(now, t, p)
	default:
		h.seatTo(t, int(p), lifeBotHolding, nil)
		h.offerAfterSeat(now, t, p)
		h.askBots(t)
	}
	if t.phase != phaseOver {
		if h.empty(t) {
			h.closeTable(now, t, p)
		} else {
			h.broadcastTable(t)
		}
	}
}

// resume: s (logged in again) takes back a seat held for it.
func (h *Hub) resume(now int64, s *session, body []byte) {
	m, err := segment.DecodeResumeMsg(body)
	if err != nil {
		h.fail(s, segment.Resume, segment.ErrCodeBadRequest, "malformed Resume")
		return
	}
	if s.table != nil {
		h.fail(s, segment.Resume, segment.ErrCodeAtTable, "already at a table")
		return
	}
	t := h.tables[m.Table]
	if t == nil || int(m.Seat) >= len(t.seats) {
		h.fail(s, segment.Resume, segment.ErrCodeNoTable, "no such table")
		return
	}
	sl := &t.seats[m.Seat]
	switch {
	case sl.token != m.Token || sl.name != s.name || sl.token == [segment.TokenLen]byte{}:
		h.fail(s, segment.Resume, segment.ErrCodeNotAllowed, "wrong token")
		return
	case sl.life() != lifeHeld && sl.life() != lifeBotHolding:
		// a token resumes its seat once per hold: not a seat its person
		// sits at, left, or that went to someone else
		h.fail(s, segment.Resume, segment.ErrCodeNotAllowed, "the seat is not held for you")
		return
	}
	if t.clock != nil {
		t.clock.settle(now, sl) // its clock goes on from where the pause stopped it
	}
	if !h.seatTo(t, int(m.Seat), lifePerson, s) {
		return
	}
	h.cancelSeek(s)
	s.table, s.seat, s.state = t, rules.Player(m.Seat), AtTable
	h.stats.Resumes++
	h.sendMsg(s, segment.Joined, segment.JoinedBody{Table: t.id, Seat: m.Seat}.Append(h.body()))
	h.sendSeated(s, t, int(m.Seat))
	h.broadcastTable(t)
	if t.game != nil {
		h.sendStarted(s, t)
		// the moves it missed that its seat may see, then where things stand
		h.sendMovesSince(s, t, int(m.LastSeq))
		h.sendView(s, t)
	}
	h.sendChatHistory(s, &t.chat, 1)
	h.sendOffer(s, t) // its answer is still wanted
	back := segment.AwayBody{Table: t.id, Seat: m.Seat}
	h.each(t, func(r *session) { h.sendMsg(r, segment.Away, back.Append(h.body())) })
	if t.clock != nil {
		h.startClock(now, t)
		h.sendClocks(now, t)
	}
}

// holdDue reports whether sl is held for its dropped player past its grace
// at now.
func (sl *seatSlot) holdDue(now int64) bool { return sl.away && sl.awayUntil <= now }

// awayTimerSeat is the table and seat whose held-seat timer key falls at
// now, nil if the table is closed or the seat's hold is not due.
func (h *Hub) awayTimerSeat(now int64, key ConnID) (*table, rules.Player) {
	t, p := h.tables[uint32(uint64(key)>>8)], rules.Player(uint64(key)&0xFF)
	if t != nil && int(p) < len(t.seats) && t.seats[p].holdDue(now) {
		return t, p
	}
	return nil, 0
}
