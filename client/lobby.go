package client

import (
	"fmt"

	"github.com/bomber-game/bomber/segment"
)

// Invite asks name for a game. Allowed only while idle in the lobby; the
// answer arrives as NoticeAccepted, NoticeRefused, NoticeBusy or
// NoticeNotOnline.
func (c *Client) Invite(name string) (Out, error) {
	var o Out
	if c.state != ClientWaiting {
		return o, fmt.Errorf("invite: %w (state %v)", ErrState, c.state)
	}
	c.state, c.peer = ClientInviting, name
	o.send(segment.Name(segment.SendInvit, name))
	return o, nil
}

// Answer accepts or refuses the pending invitation. Accepting starts the
// game in its drawing phase.
func (c *Client) Answer(accept bool) (Out, error) {
	var o Out
	if c.state != ClientInvited {
		return o, fmt.Errorf("answer: %w (state %v)", ErrState, c.state)
	}
	if accept {
		o.send(segment.Code(segment.InvitResponse, segment.CodeOK))
		c.startDrawing(false)
	} else {
		o.send(segment.Code(segment.InvitResponse, segment.CodeRefused))
		c.state, c.peer = ClientWaiting, ""
	}
	return o, nil
}

func (c *Client) onRecvInvit(o *Out, name string) {
	// The reference client drops an invitation unless it is idle.
	if c.state != ClientWaiting {
		return
	}
	c.state, c.peer = ClientInvited, name
	o.note(Notice{Kind: NoticeInvited, Name: name})
}

func (c *Client) onInvitResponse(o *Out, code byte) {
	if c.state != ClientInviting {
		return
	}
	name := c.peer
	if code == segment.CodeOK {
		c.startDrawing(true)
		o.note(Notice{Kind: NoticeAccepted, Name: name})
		return
	}
	c.state, c.peer = ClientWaiting, ""
	switch code {
	case segment.CodeRefused:
		o.note(Notice{Kind: NoticeRefused, Name: name})
	case segment.CodeBusy:
		o.note(Notice{Kind: NoticeBusy, Name: name})
	case segment.CodeNoUser:
		o.note(Notice{Kind: NoticeNotOnline, Name: name})
	default:
		o.note(Notice{Kind: NoticeInviteError, Name: name})
	}
}
