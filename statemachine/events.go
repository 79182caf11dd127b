package statemachine

import (
	"maps"
	"slices"

	"github.com/bomber-game/bomber/rules"

	"github.com/bomber-game/bomber/segment"
)

// Open records a new connection at shell time now (nanoseconds).
func (h *Hub) Open(now int64, c ConnID) { h.OpenFrom(now, c, "") }

// OpenFrom records a new connection from a source address (what login
// throttling counts per address).
func (h *Hub) OpenFrom(now int64, c ConnID, source string) {
	if _, dup := h.sessions[c]; dup {
		panic("statemachine: connection id reused")
	}
	s := &session{conn: c, state: Accept, opened: now, source: source, last: now}
	if h.cfg.SegmentRate > 0 {
		s.credit = h.burstCredit()
	}
	h.sessions[c] = s
	if h.cfg.LoginTimeout > 0 {
		h.timers.push(now+int64(h.cfg.LoginTimeout), c)
	}
}

// Receive handles one whole segment from connection c.
func (h *Hub) Receive(now int64, c ConnID, seg segment.Segment) {
	s := h.sessions[c]
	if s == nil {
		return // closed by the hub; the shell may still deliver what it read
	}
	h.stats.SegmentsIn[seg.Type.Base()&63]++
	if h.cfg.SegmentRate > 0 && !h.allow(now, s) {
		h.stats.RateLimited++
		h.notice(s, NoticeRateLimited)
		h.close(now, s)
		return
	}
	if s.check != 0 {
		if s.queued == pendingMax {
			h.close(now, s) // flooding while the store answers: nothing good comes of it
			return
		}
		if s.queue == nil {
			s.queue = new([pendingMax]segment.Segment)
		}
		s.queue[s.queued] = seg
		s.queued++
		return
	}
	h.handle(now, s, seg)
}

// Closed records that connection c is gone (the peer closed it, a read or
// write failed, or the shell closed it). Unknown connections are ignored.
func (h *Hub) Closed(now int64, c ConnID) {
	if s := h.sessions[c]; s != nil {
		h.drop(now, s)
	}
}

// Answer delivers the result of account check id. Answers for sessions that
// have gone or moved on are ignored.
func (h *Hub) Answer(now int64, id uint64, a Answer) {
	s := h.checks[id]
	if s == nil {
		return
	}
	delete(h.checks, id)
	if s.closed {
		h.answeredLate(now, s, a) // the store did the work: a failure still counts
		return
	}
	if s.check != id {
		return
	}
	s.check = 0
	h.answered(now, s, a)
	// run what arrived while waiting, until another check is needed
	for s.check == 0 && s.queued > 0 && !s.closed {
		seg := s.queue[0]
		copy(s.queue[:], s.queue[1:s.queued])
		s.queued--
		if s.queued == 0 {
			s.queue = nil
		}
		h.handle(now, s, seg)
	}
}

// Tick lets deadlines pass, in this order: login-failure counters whose
// window and lockout are over are forgotten; offers past their TTL are
// withdrawn; seats held for a dropped player past the resume grace are
// freed, lost or taken over by the computer; turn clocks that ran out take
// their timeout action; password checks held back by throttling whose turn
// has come are handed to the shell; kicked connections past their grace
// period are closed; connections that did not log in in time are closed.
func (h *Hub) Tick(now int64) {
	h.sweepFailures(now)
	h.expireOffers(now)
	h.expireAways(now)
	h.expireClocks(now)
	h.releaseHeld(now)
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
		if s := h.sessions[c]; s != nil && !s.state.LoggedIn() && s.state != Kicked {
			h.close(now, s)
		}
	}
}

// Shutdown ends every game as aborted and closes every connection, for an
// orderly stop of the daemon. Nobody is sent anything: a GameOver would read
// as a loss and offline notices would go to connections about to close.
func (h *Hub) Shutdown(now int64) {
	for _, s := range h.online {
		if t := s.table; t != nil && !t.ext() && t.seats[0].s == s {
			h.endTable(now, t, "aborted", rules.Spectator)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(h.tables)) {
		t := h.tables[id]
		if t.game != nil && t.phase == phasePlaying {
			h.ready.Records = append(h.ready.Records, h.recordOf(now, t, "aborted", rules.Spectator))
			h.stats.GamesEnded[Aborted]++
		}
	}
	clear(h.tables)
	clear(h.codes)
	conns := make([]ConnID, 0, len(h.sessions))
	for c, s := range h.sessions {
		s.closed = true
		conns = append(conns, c)
	}
	slices.Sort(conns)
	h.ready.Closes = append(h.ready.Closes, conns...)
	clear(h.sessions)
	clear(h.users)
	clear(h.checks)
	if h.cfg.Casts {
		for _, s := range h.online {
			h.cast(Cast{Kind: CastLeave, Conn: s.conn})
		}
	}
	h.online = h.online[:0]
}

// close asks the shell to close s's connection and forgets it at once.
func (h *Hub) close(now int64, s *session) {
	h.ready.Closes = append(h.ready.Closes, s.conn)
	h.drop(now, s)
}

// drop removes s and tells everyone affected.
func (h *Hub) drop(now int64, s *session) {
	if s.closed {
		return
	}
	s.closed = true
	delete(h.sessions, s.conn)
	// a check in flight stays in h.checks: its answer counts (answeredLate)
	if !s.state.LoggedIn() {
		return
	}
	h.removeOnline(s)
	if h.cfg.Casts {
		h.cast(Cast{Kind: CastLeave, Conn: s.conn})
	}
	h.notifyOnline(segment.Name(segment.NewOffline, s.name), nil)
	h.leave(now, s)
}

// removeOnline takes s out of the user list.
func (h *Hub) removeOnline(s *session) {
	if h.users[s.name] == s {
		delete(h.users, s.name)
	}
	if i := slices.Index(h.online, s); i >= 0 {
		h.online = slices.Delete(h.online, i, i+1)
	}
}

// leave releases whoever s was inviting, answering or playing, because s
// went offline or was kicked.
func (h *Hub) leave(now int64, s *session) {
	switch s.state {
	case WaitInvitationResponse:
		// the invitee's client still shows the invitation; its answer is
		// dropped when it comes (an acceptance gets GameOver back)
		if p := s.peer; p != nil {
			p.peer, p.orphan = nil, true
		}
	case Responding:
		if p := s.peer; p != nil {
			r := ReplyRefused // kicked: the user is online but never saw it
			if s.closed {
				r = ReplyNoUser
			}
			h.reply(p, segment.InvitResponse, r)
			p.state, p.peer = ServerStandBy, nil
		}
	case Draw, Game:
		if t := s.table; t != nil {
			other := t.seats[1-s.seat].s
			h.endTable(now, t, "abandoned", s.seat)
			h.send(other, segment.Empty(segment.GameOver))
		}
	case AtTable:
		h.leaveTable(now, s, true)
	}
	s.peer, s.orphan, s.table = nil, false, nil
}

// Disconnect closes the named user's connection as if it had dropped (an
// operator's kick); false when the user is not online.
func (h *Hub) Disconnect(now int64, user string) bool {
	s := h.users[user]
	if s == nil {
		return false
	}
	h.close(now, s)
	return true
}
