package statemachine

import (
	"unicode/utf8"

	"github.com/bomber-game/bomber/segment"
)

// handle dispatches a segment by the session's state. Every segment type is
// defined in every state: what is not listed here is ignored (and counted),
// which is how the reference server treats out-of-state segments too.
func (h *Hub) handle(now int64, s *session, seg segment.Segment) {
	if seg.Type.Extended() {
		h.extSegment(now, s, seg)
		s.spoke = true
		return
	}
	if s.x != nil {
		// the assembler sees reference segments too: one that arrives
		// inside a fragmented message breaks the framing
		if _, _, _, err := s.x.asm.Add(seg); err != nil {
			h.badFrame(now, s)
			return
		}
	}
	s.spoke = true
	switch s.state {
	case Accept, WaitForPassword:
		switch seg.Type {
		case segment.Info:
			h.info(now, s, seg)
			return
		case segment.Passwd:
			h.passwd(now, s, seg)
			return
		}
	case ServerStandBy:
		if seg.Type == segment.SendInvit {
			h.invite(now, s, seg)
			return
		}
	case Responding:
		switch seg.Type {
		case segment.InvitResponse:
			h.respond(now, s, seg)
			return
		case segment.SendInvit:
			h.crossInvite(now, s, seg)
			return
		}
	case Draw:
		if seg.Type == segment.Board {
			h.board(now, s, seg)
			return
		}
	case Game:
		switch seg.Type {
		case segment.SingleCoord, segment.DoubleCoord:
			h.guess(now, s, seg)
			return
		}
	}
	h.stats.Ignored++
}

// validName: what an account name may be (the same rule as
// account.ValidName: 1..29 bytes of UTF-8 without control or bidi
// formatting characters, segment.UnsafeRune); anything else cannot exist,
// so the store need not be asked.
func validName(b []byte) bool {
	return len(b) > 0 && len(b) <= segment.MaxPayload && utf8.Valid(b) && segment.SafeTextOK(string(b))
}

func (h *Hub) newCheck(s *session, kind CheckKind, password string) {
	h.ask(s, Check{Kind: kind, User: s.name, Password: password})
}

// info: a user name, in Accept or again in WaitForPassword (starting over).
func (h *Hub) info(now int64, s *session, seg segment.Segment) {
	s.state, s.name = Accept, ""
	name := seg.Payload()
	if h.throttled(now, s, string(name)) {
		h.stats.Throttled++
		s.name = string(name)
		h.notice(s, NoticeThrottled)
		s.name = ""
		h.reply(s, segment.InfoResp, ReplyError)
		return
	}
	if h.cfg.HideUnknownUsers {
		s.name, s.state = string(name), WaitForPassword
		h.reply(s, segment.InfoResp, ReplyOK)
		return
	}
	if !validName(name) {
		h.stats.LoginsFailed++
		h.failed(now, s, string(name))
		h.reply(s, segment.InfoResp, ReplyNoUser)
		return
	}
	s.name = string(name)
	h.newCheck(s, Lookup, "")
}

func (h *Hub) passwd(now int64, s *session, seg segment.Segment) {
	if s.state != WaitForPassword {
		h.reply(s, segment.PasswdResp, ReplyError) // a password before any user name
		return
	}
	if h.throttled(now, s, s.name) {
		h.stats.Throttled++
		h.notice(s, NoticeThrottled)
		s.state, s.name = Accept, ""
		h.reply(s, segment.PasswdResp, ReplyError)
		return
	}
	if !validName([]byte(s.name)) {
		// only with HideUnknownUsers: the name cannot exist
		h.stats.LoginsFailed++
		h.failed(now, s, s.name)
		s.state, s.name = Accept, ""
		h.reply(s, segment.PasswdResp, ReplyWrongPassword)
		return
	}
	if !h.verifyPassword(now, s, string(seg.Payload())) {
		// the name is under attack and this address has failed: refused
		// like a locked address, without asking the store
		h.stats.Throttled++
		h.notice(s, NoticeThrottled)
		s.state, s.name = Accept, ""
		h.reply(s, segment.PasswdResp, ReplyError)
	}
}

// answered continues a login with the account store's answer.
func (h *Hub) answered(now int64, s *session, a Answer) {
	switch {
	case s.state == Accept && s.name == "": // Register (signup.go)
		h.signedUp(s, a)
	case s.state == Accept: // Lookup
		switch a {
		case Found:
			s.state = WaitForPassword
			h.reply(s, segment.InfoResp, ReplyOK)
		case Unavailable:
			h.stats.LoginsError++
			s.name = ""
			h.reply(s, segment.InfoResp, ReplyError)
		default:
			h.stats.LoginsFailed++
			h.failed(now, s, s.name)
			s.name = ""
			h.reply(s, segment.InfoResp, ReplyNoUser)
		}
	case s.state == WaitForPassword: // Verify
		switch a {
		case Found:
			h.login(now, s)
		case Unavailable:
			h.stats.LoginsError++
			s.state, s.name = Accept, ""
			h.reply(s, segment.PasswdResp, ReplyError)
		default: // a wrong password, or the account vanished meanwhile
			h.stats.LoginsFailed++
			h.failed(now, s, s.name)
			s.state, s.name = Accept, ""
			h.reply(s, segment.PasswdResp, ReplyWrongPassword)
		}
	}
}

// login makes s the user's session: an older session of the same user is
// kicked (it stays open for the grace period but is no longer the user's).
func (h *Hub) login(now int64, s *session) {
	h.stats.LoginsOK++
	h.succeeded(now, s)
	old := h.users[s.name]
	s.state = ServerStandBy
	h.users[s.name] = s
	if old != nil {
		h.stats.Kicks++
		h.reply(old, segment.Refuse, ReplyKicked)
		h.leave(now, old)
		old.state = Kicked
		h.kicks.push(now+int64(h.cfg.KickGrace), old.conn)
		i := indexOf(h.online, old)
		h.online[i] = s // the user never went offline: same place in the list
		h.reply(s, segment.Refuse, ReplyAlreadyLoggedIn)
	} else {
		h.online = append(h.online, s)
	}
	h.reply(s, segment.PasswdResp, ReplyOK)
	if h.cfg.Casts {
		h.stats.SegmentsOut[segment.SyncBegin] += uint64(len(h.online) - 1)
		c := Cast{Kind: CastJoin, Conn: s.conn, Name: s.name}
		if old != nil {
			c.Kind, c.Old = CastReplace, old.conn
		}
		h.cast(c)
	} else {
		for _, o := range h.online {
			if o != s {
				h.send(s, segment.Name(segment.SyncBegin, o.name))
			}
		}
	}
	h.send(s, segment.Empty(segment.SyncEnd))
	if old == nil {
		h.notifyOnline(segment.Name(segment.NewOnline, s.name), s)
	}
}

func indexOf(ss []*session, s *session) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	panic("statemachine: logged-in session missing from the online list")
}
