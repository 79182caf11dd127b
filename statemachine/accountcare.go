package statemachine

import "github.com/bomber-game/bomber/segment"

// Account care (Account, feature 2048): a logged-in player changes their
// password or deletes their account, the current password confirming
// either. The store checks the password and acts in one query
// (ChangePassword, DeleteAccount); a wrong one counts as a failed login
// against the same throttle, so the form cannot be used to guess passwords
// faster than login can. After a deletion the session is closed; the name
// is free again (the stored games name a placeholder, not it).

// account starts what an Account message asks.
func (h *Hub) account(now int64, s *session, body []byte) {
	m, err := segment.DecodeAccountMsg(body)
	kind := ChangePassword
	if m.What == segment.AccountDelete {
		kind = DeleteAccount
	}
	switch {
	case !s.has(segment.FeatureAccount):
		h.fail(s, segment.Account, segment.ErrCodeBadRequest, "Account needs feature 2048")
		return
	case err != nil || m.Password == "" ||
		(m.What == segment.AccountPassword) == (m.New == "") ||
		(m.What != segment.AccountPassword && m.What != segment.AccountDelete):
		h.fail(s, segment.Account, segment.ErrCodeBadRequest, "malformed Account")
		return
	case h.throttled(now, s, s.name):
		h.stats.Throttled++
		h.notice(s, NoticeThrottled)
		h.fail(s, segment.Account, segment.ErrCodeRateLimited, "too many wrong passwords: try later")
		return
	}
	h.ask(s, Check{Kind: kind, User: s.name, Password: m.Password, Arg: m.New})
}

// accountDone answers an Account message with the store's answer.
func (h *Hub) accountDone(now int64, s *session, a Answer, asked CheckKind) {
	switch a {
	case Found:
		h.sendMsg(s, segment.Ack, segment.AckBody{Req: segment.Account}.Append(h.body()))
		if asked == DeleteAccount {
			h.close(now, s)
		}
	case WrongPassword:
		h.stats.LoginsFailed++
		h.failed(now, s, s.name)
		h.fail(s, segment.Account, segment.ErrCodeWrongPassword, "wrong password")
	case BadSignupPass:
		h.fail(s, segment.Account, segment.ErrCodeBadPassword, signUpCodes[BadSignupPass].text)
	default:
		h.fail(s, segment.Account, segment.ErrCodeUnavailable, "account store unavailable: try later")
	}
}
