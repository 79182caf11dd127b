package statemachine

import (
	"maps"
	"slices"
)

// NextDeadline is the earliest time at which the inputs TickInputs gives
// would do something, and false when nothing waits for time. A cluster's
// leader asks it before it puts a tick in the shared log, so an idle
// world adds nothing to the log.
func (h *Hub) NextDeadline() (int64, bool) {
	at, ok := int64(0), false
	take := func(t int64) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	for _, q := range h.timerQueues() {
		if t, due := q.next(); due {
			take(t)
		}
	}
	for _, c := range h.held {
		take(c.at)
	}
	if len(h.failures) > 0 {
		take(h.sweepAt)
	}
	if len(h.seekers) > 0 {
		take(h.pairAt) // the next pairing round
	}
	for _, id := range h.clockTables {
		t := h.tables[id]
		if t == nil || t.clock == nil {
			take(0) // a closed table in an older build's snapshot: the next tick forgets it
			continue
		}
		if d, running := t.nextClock(); running {
			take(d)
		}
	}
	return at, ok
}

// IsOnline reports whether user is logged in.
func (h *Hub) IsOnline(user string) bool { return h.users[user] != nil }

// Known reports whether connection c is open in the hub.
func (h *Hub) Known(c ConnID) bool { return h.sessions[c] != nil }

// PendingBots appends the bot requests the hub asked for and has not had
// answered (a shell that takes over from another, as a cluster's new
// leader after a restore, asks them again; late answers are ignored).
func (h *Hub) PendingBots(buf []BotRequest) []BotRequest {
	for _, id := range slices.Sorted(maps.Keys(h.tables)) {
		t := h.tables[id]
		if t.phase != phasePlaying {
			continue
		}
		for _, p := range t.game.ToMove(h.toMove[:0]) {
			if sl := &t.seats[p]; (sl.bot || sl.auto) && sl.asked == t.seq+1 {
				buf = append(buf, h.botRequest(t, p))
			}
		}
	}
	return buf
}

// Member is an online user as a Cast's members list holds it.
type Member struct {
	Conn ConnID
	Name string
}

// Members appends the online users in the order the user list gives them,
// which is the members list Casts keep: the shell reads it once, when it
// starts on a hub it did not see begin (one restored from a snapshot).
func (h *Hub) Members(buf []Member) []Member {
	for _, s := range h.online {
		buf = append(buf, Member{s.conn, s.name})
	}
	return buf
}

// TableCreator is the user who created table id ("" when there is no such
// table): the shell shares the computer players' time out by it.
func (h *Hub) TableCreator(id uint32) string {
	if t := h.tables[id]; t != nil {
		return t.creator
	}
	return ""
}

// TableNode is the node (a ConnID's NodeOf) table id was opened on: its
// creator's connection's then. False for no such table.
func (h *Hub) TableNode(id uint32) (uint32, bool) {
	if t := h.tables[id]; t != nil {
		return t.node, true
	}
	return 0, false
}
