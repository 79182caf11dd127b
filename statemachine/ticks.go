package statemachine

import (
	"cmp"
	"slices"

	"github.com/bomber-game/bomber/rules"
)

// Time reaches the hub as inputs. From generation 2 on, a table's own
// deadlines (its offer's time, the grace of a seat held for a dropped
// player, a seat's turn clock) fall at a table tick that names it, and the
// world's tick sees to the world's alone (login failures, throttled
// password checks, pairing rounds, kicked and silent connections), so a
// node that owns a table can let time pass there without the world, and the
// world without the table. Before, one tick did both; a world still in
// generation 0 or 1 (an older build's log) keeps that tick, so it replays
// as it was played. TickInputs says which inputs time passing is made of.

// TickInputs appends to buf the inputs that let time pass at now, to be
// stepped in order at now: a table tick for each table one of whose own
// deadlines fell, in table order, then the world's tick (from generation
// 2 on; before, the world's tick alone, which did everything).
func (h *Hub) TickInputs(now int64, buf []Input) []Input {
	if h.generation >= 2 {
		start := len(buf)
		add := func(id uint32) { buf = append(buf, Input{Kind: InTableTick, Table: id}) }
		h.offerTimers.each(now, func(key ConnID) {
			if t := h.offerTimerTable(now, key); t != nil {
				add(t.id)
			}
		})
		for q := range h.awayTimers {
			h.awayTimers[q].each(now, func(key ConnID) {
				if t, _ := h.awayTimerSeat(now, key); t != nil {
					add(t.id)
				}
			})
		}
		for _, id := range h.clockTables {
			if t := h.tables[id]; t != nil {
				if d, ok := t.nextClock(); ok && d <= now {
					add(id)
				}
			}
		}
		ticks := buf[start:]
		slices.SortFunc(ticks, func(a, b Input) int { return cmp.Compare(a.Table, b.Table) })
		buf = buf[:start+len(slices.CompactFunc(ticks, func(a, b Input) bool { return a.Table == b.Table }))]
	}
	return append(buf, Input{Kind: InTick})
}

// tick lets the world's deadlines pass (an InTick input), in this order:
// login-failure counters whose window and lockout are over are forgotten;
// (before generation 2, the tables' deadlines: every table's offer, then
// every held seat, then every turn clock;) password checks held back by
// throttling whose turn has come are handed to the shell; a pairing round
// runs when its time has come; reference invitations past
// tables.offer_ttl are refused; kicked connections past their grace
// period are closed; connections that did not log in in time are closed.
func (h *Hub) tick(now int64) {
	h.sweepFailures(now)
	if h.generation < 2 {
		h.expireOffers(now)
		h.expireAways(now)
		h.expireClocks(now)
	} else {
		h.forgetStale(now)
		h.forgetClockTables()
	}
	h.releaseHeld(now)
	h.pairRound(now)
	for {
		c, ok := h.kicks.pop(now)
		if !ok {
			break
		}
		if s := h.sessions[c]; s != nil && s.state == Kicked {
			h.close(now, s)
		}
	}
	for {
		c, ok := h.timers.pop(now)
		if !ok {
			break
		}
		if c&inviteTimer != 0 {
			h.expireInvitation(c &^ inviteTimer)
			continue
		}
		if s := h.sessions[c]; s != nil && !s.state.LoggedIn() && s.state != Kicked {
			h.close(now, s)
		}
	}
}

// tableTick lets table id's own deadlines pass at now (an InTableTick
// input): its offer is withdrawn if its time is up; its seats held past
// their grace are freed, lost or taken over, the earliest held first (in a
// game of two, whoever went first loses); its seats whose turn clock ran
// out take their timeout action. A table with nothing due is left as it
// is, so a table tick that comes twice, or late, does no harm. A world
// before generation 2 lets tables' time pass at the world's tick and
// counts a table tick as a bad input.
func (h *Hub) tableTick(now int64, id uint32) {
	if h.generation < 2 {
		h.stats.BadInputs++
		return
	}
	if t := h.tables[id]; t != nil {
		h.expireOffer(now, t)
		var seats [8]rules.Player
		held := seats[:0]
		for i := range t.seats {
			if t.seats[i].holdDue(now) {
				held = append(held, rules.Player(i))
			}
		}
		slices.SortStableFunc(held, func(a, b rules.Player) int { return cmp.Compare(t.seats[a].awayUntil, t.seats[b].awayUntil) })
		for _, p := range held {
			if h.tables[id] == t {
				h.expireAway(now, t, p)
			}
		}
		if h.tables[id] == t {
			h.expireClock(now, t)
		}
	}
	h.forgetStale(now)
}

// forgetStale drops the offer and held-seat timers, due at now, whose
// table has nothing due for them any more (the offer was answered or
// expired, the player resumed, the table closed), so that NextDeadline
// does not report them. It stops at a timer that is still due: its table's
// tick, later at the same time, takes it and those behind it.
func (h *Hub) forgetStale(now int64) {
	h.offerTimers.dropWhile(now, func(key ConnID) bool { return h.offerTimerTable(now, key) == nil })
	for q := range h.awayTimers {
		h.awayTimers[q].dropWhile(now, func(key ConnID) bool { t, _ := h.awayTimerSeat(now, key); return t == nil })
	}
}
