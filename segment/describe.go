package segment

import (
	"fmt"
	"strconv"
	"strings"
)

// Reply codes of the reference dialect (the table the reference client and
// server share; seed 003's own flag table differs, see docs/protocol.md).
const (
	CodeNoUser          byte = 0 // user does not exist / invitee not online
	CodeOK              byte = 1 // OK / invitation accepted
	CodeRefused         byte = 2 // invitation refused
	CodeWrongPassword   byte = 3 // wrong password
	CodeError           byte = 4 // an error occurred; also Refuse to a kicked session
	CodeAlreadyLoggedIn byte = 5 // Refuse to the session that kicked an older one
	CodeBusy            byte = 6 // invitee busy
)

var codeNames = [...]string{"no such user", "OK", "refused", "wrong password", "error", "already logged in", "busy"}

// CodeName names a reply code as the reference dialect reads it.
func CodeName(c byte) string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "unknown"
}

// String describes s for people: the type and its decoded payload, as used in
// transcript comments. It does not mask passwords; see Describe.
func (s Segment) String() string { return s.Describe(false) }

// Describe is String with the password of a Passwd segment masked unless
// showPasswords is set.
func (s Segment) Describe(showPasswords bool) string {
	var b strings.Builder
	b.WriteString(s.Type.String())
	switch s.Type {
	case Info, SyncBegin, NewOnline, SendInvit, RecvInvit, NewOffline:
		b.WriteString(" " + strconv.Quote(string(s.Payload())))
	case Passwd:
		if showPasswords {
			b.WriteString(" " + strconv.Quote(string(s.Payload())))
		} else {
			b.WriteString(" (masked)")
		}
	case InfoResp, PasswdResp, Refuse, InvitResponse:
		if c, ok := s.Code(); ok {
			fmt.Fprintf(&b, " %d (%s)", c, CodeName(c))
		}
	case Board:
		if cs, err := s.Board(); err == nil {
			for i := 0; i < 6; i += 2 {
				fmt.Fprintf(&b, " %v-%v", cs[i], cs[i+1])
			}
		} else {
			b.WriteString(" (malformed)")
		}
	case SingleCoord:
		if c, err := s.Single(); err == nil {
			fmt.Fprintf(&b, " %v", c)
		} else {
			b.WriteString(" (malformed)")
		}
	case DoubleCoord:
		if h, t, err := s.Double(); err == nil {
			fmt.Fprintf(&b, " %v-%v", h, t)
		} else {
			b.WriteString(" (malformed)")
		}
	}
	return b.String()
}
