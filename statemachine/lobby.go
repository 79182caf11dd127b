package statemachine

import (
	"github.com/bomber-game/bomber/segment"
)

// inviteTimer marks the expiry of the invitation a session sent among
// h.timers, whose other timers are login timeouts keyed by the bare
// connection id.
const inviteTimer ConnID = 1 << 63

// invite: s (in stand-by) invites the named user. The invitation stands for
// Config.OfferTTL.
func (h *Hub) invite(now int64, s *session, seg segment.Segment) {
	t := h.users[string(seg.Payload())]
	switch {
	case t == nil:
		h.reply(s, segment.InvitResponse, ReplyNoUser)
	case t == s || t.state != ServerStandBy:
		// the reference client drops an invitation unless it is idle in the
		// lobby, so anyone else is answered busy
		h.reply(s, segment.InvitResponse, ReplyBusy)
	default:
		h.stats.Invitations++
		s.state, s.peer = WaitInvitationResponse, t
		t.state, t.peer, t.orphan = Responding, s, false
		h.send(t, segment.Name(segment.RecvInvit, s.name))
		h.timers.drop(s.conn | inviteTimer) // an earlier invitation's, answered before it ran out
		h.timers.push(now+int64(h.cfg.OfferTTL), s.conn|inviteTimer)
	}
}

// expireInvitation: the invitation connection c sent was not answered in
// time. The inviter is told it was refused and is free again; the invitee
// is left as when an inviter goes away (an acceptance from its dialog gets
// GameOver, docs/protocol.md 4.7).
func (h *Hub) expireInvitation(c ConnID) {
	s := h.sessions[c]
	if s == nil || s.state != WaitInvitationResponse {
		return
	}
	if p := s.peer; p != nil {
		p.peer, p.orphan = nil, true
	}
	s.state, s.peer = ServerStandBy, nil
	h.reply(s, segment.InvitResponse, ReplyRefused)
}

// respond: the invitee s answers. 1 accepts; any other value refuses.
func (h *Hub) respond(now int64, s *session, seg segment.Segment) {
	code, _ := seg.Code()
	accept := code == 1
	inviter := s.peer
	s.state, s.peer = ServerStandBy, nil
	if inviter == nil {
		// the inviter went away while s was answering
		if s.orphan && accept {
			h.send(s, segment.Empty(segment.GameOver)) // its client entered the game screen
		}
		s.orphan = false
		return
	}
	inviter.state, inviter.peer = ServerStandBy, nil
	if !accept {
		h.reply(inviter, segment.InvitResponse, ReplyRefused)
		return
	}
	h.reply(inviter, segment.InvitResponse, ReplyOK)
	h.refStart(now, inviter, s)
}

// crossInvite: s sends an invitation while an invitation to s is pending.
// Its client was inviting when our RecvInvit arrived and dropped it (the
// reference client ignores invitations unless idle), so the pending
// invitation can never be answered: it is cancelled — the inviter is told
// busy — and s's invitation goes ahead as from stand-by.
func (h *Hub) crossInvite(now int64, s *session, seg segment.Segment) {
	if inviter := s.peer; inviter != nil {
		inviter.state, inviter.peer = ServerStandBy, nil
		h.reply(inviter, segment.InvitResponse, ReplyBusy)
	}
	s.state, s.peer, s.orphan = ServerStandBy, nil, false
	h.invite(now, s, seg)
}
