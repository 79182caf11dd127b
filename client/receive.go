package client

import (
	"github.com/bomber-game/bomber/segment"
)

// Receive handles one segment from the server.
func (c *Client) Receive(s segment.Segment) Out {
	var o Out
	if c.state == Init || c.state == Kicked {
		return o // not connected, or no longer our session
	}
	switch s.Type {
	case segment.InfoResp, segment.PasswdResp, segment.Refuse, segment.InvitResponse:
		code, ok := s.Code()
		if !ok {
			o.note(Notice{Kind: NoticeProtocol, Detail: s.Type.String() + " without a one-byte code"})
			return o
		}
		switch s.Type {
		case segment.InfoResp:
			c.onInfoResp(&o, code)
		case segment.PasswdResp:
			c.onPasswdResp(&o, code)
		case segment.Refuse:
			c.onRefuse(&o, code)
		case segment.InvitResponse:
			c.onInvitResponse(&o, code)
		}
	case segment.SyncBegin:
		if c.loggedIn() {
			c.addOnline(&o, string(s.Payload()), false)
		}
	case segment.SyncEnd:
		if c.state == UserSync {
			c.state = ClientWaiting
			o.note(Notice{Kind: NoticeLoggedIn, Name: c.user})
		}
	case segment.NewOnline:
		if c.loggedIn() {
			c.addOnline(&o, string(s.Payload()), true)
		}
	case segment.NewOffline:
		if c.loggedIn() {
			c.onOffline(&o, string(s.Payload()))
		}
	case segment.RecvInvit:
		c.onRecvInvit(&o, string(s.Payload()))
	case segment.Board:
		c.onBoard(&o, &s)
	case segment.SingleCoord:
		c.onSingle(&o, &s)
	case segment.DoubleCoord:
		c.onDouble(&o, &s)
	case segment.GameOver:
		c.onGameOver(&o)
	}
	return o
}
