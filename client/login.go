package client

import (
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/segment"
)

// Login sends the user name; the password follows once the server knows the
// name (InfoResp 1). It is allowed whenever the client is connected and not
// logged in.
func (c *Client) Login(user, password string) (Out, error) {
	var o Out
	switch c.state {
	case GatherUserInfo, WaitForUsernameResponse, WaitForPasswordResponse:
	default:
		return o, fmt.Errorf("log in: %w (state %v)", ErrState, c.state)
	}
	c.user, c.password = user, password
	c.state = WaitForUsernameResponse
	o.send(segment.Name(segment.Info, user))
	return o, nil
}

func (c *Client) onInfoResp(o *Out, code byte) {
	if c.state != WaitForUsernameResponse {
		return
	}
	switch code {
	case segment.CodeOK:
		c.state = WaitForPasswordResponse
		o.send(segment.Name(segment.Passwd, c.password))
	case segment.CodeNoUser:
		c.state = GatherUserInfo
		c.forgetIfSaved()
		o.note(Notice{Kind: NoticeWrongUser, Name: c.user})
	case segment.CodeError:
		c.state = GatherUserInfo
		o.note(Notice{Kind: NoticeLoginError})
	default:
		c.state = GatherUserInfo
		o.note(Notice{Kind: NoticeProtocol, Detail: fmt.Sprintf("InfoResp code %d", code)})
	}
}

func (c *Client) onPasswdResp(o *Out, code byte) {
	if c.state != WaitForPasswordResponse {
		return
	}
	switch code {
	case segment.CodeOK:
		c.state = UserSync
		c.savedUser, c.savedPassword = c.user, c.password
	case segment.CodeWrongPassword:
		c.state = GatherUserInfo
		c.forgetIfSaved()
		o.note(Notice{Kind: NoticeWrongPassword, Name: c.user})
	case segment.CodeError:
		c.state = GatherUserInfo
		o.note(Notice{Kind: NoticeLoginError})
	default:
		c.state = GatherUserInfo
		o.note(Notice{Kind: NoticeProtocol, Detail: fmt.Sprintf("PasswdResp code %d", code)})
	}
}

// forgetIfSaved drops saved credentials the server no longer accepts, so a
// reconnect does not loop on them.
func (c *Client) forgetIfSaved() {
	if c.savedUser == c.user {
		c.Forget()
	}
}

func (c *Client) loggedIn() bool {
	return c.state >= UserSync && c.state <= Game
}

func (c *Client) addOnline(o *Out, name string, announce bool) {
	if name == c.user || slices.Contains(c.online, name) {
		return
	}
	c.online = append(c.online, name)
	if announce {
		o.note(Notice{Kind: NoticeOnline, Name: name})
	}
}

func (c *Client) onOffline(o *Out, name string) {
	i := slices.Index(c.online, name)
	if i < 0 {
		return
	}
	c.online = slices.Delete(c.online, i, i+1)
	if c.state == Game && name == c.peer {
		c.peerLeft = true
	}
	o.note(Notice{Kind: NoticeOffline, Name: name})
}

func (c *Client) onRefuse(o *Out, code byte) {
	switch code {
	case segment.CodeError:
		// The server no longer treats this connection as our session.
		if c.state == Game {
			c.endGame(o, Disconnected)
		}
		c.resetSession()
		c.state = Kicked
		o.note(Notice{Kind: NoticeKicked, Name: c.user})
	case segment.CodeAlreadyLoggedIn:
		o.note(Notice{Kind: NoticeKickedOther, Name: c.user})
	default:
		o.note(Notice{Kind: NoticeProtocol, Detail: fmt.Sprintf("Refuse code %d", code)})
	}
}
