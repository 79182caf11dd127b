package statemachine

import "github.com/bomber-game/bomber/segment"

// Sign-up (SignUp, feature 256): the hub asks the shell to make the account
// (a Register check) and tells the client what came of it. The session is
// not logged in by it: it logs in as any other, with Info and Passwd, so
// one path (and one set of login limits) makes sessions.
//
// A Register check is told from a Lookup by the session's name: a Lookup
// is asked for a session in Accept with the name it gave, a Register for
// one in Accept without a name (signUp clears it). So the answer needs no
// new session state, and Unavailable (the shell's "could not ask") means
// the right thing to both.

// signUp starts a sign-up. It is refused to a client that did not ask for
// the feature, to a logged-in session and for a malformed body; a session
// that gave a user name starts over, as with a new Info.
func (h *Hub) signUp(now int64, s *session, body []byte) {
	m, err := segment.DecodeSignUpMsg(body)
	switch {
	case !s.has(segment.FeatureSignUp):
		h.fail(s, segment.SignUp, segment.ErrCodeBadRequest, "SignUp needs feature 256")
		return
	case s.state != Accept && s.state != WaitForPassword:
		h.fail(s, segment.SignUp, segment.ErrCodeNotAllowed, "already logged in")
		return
	case err != nil || m.Name == "":
		h.fail(s, segment.SignUp, segment.ErrCodeBadRequest, "malformed SignUp")
		return
	}
	s.state, s.name = Accept, ""
	h.ask(s, Check{Kind: Register, User: m.Name, Password: m.Password})
}

// signUpCodes: the Error code for each refusal (texts fit Error's cap). A name that is taken and
// one that looks like a taken one get the same code: the store does not
// tell them apart either.
var signUpCodes = map[Answer]struct {
	code uint8
	text string
}{
	NameTaken:     {segment.ErrCodeNameTaken, "that name or one like it is taken"},
	BadSignupName: {segment.ErrCodeBadName, "names: 3-20 of a-z A-Z 0-9 _ -, a letter first"},
	BadSignupPass: {segment.ErrCodeBadPassword, "passwords: 8-29 bytes, not the name"},
	SignupClosed:  {segment.ErrCodeSignUpClosed, "sign-up is closed"},
	SignupLimited: {segment.ErrCodeRateLimited, "too many sign-ups: try later"},
}

// signedUp answers a SignUp with the shell's answer to its Register check.
func (h *Hub) signedUp(s *session, a Answer) {
	if a == Registered {
		h.sendMsg(s, segment.Ack, segment.AckBody{Req: segment.SignUp}.Append(h.body()))
		return
	}
	c, ok := signUpCodes[a]
	if !ok {
		c.code, c.text = segment.ErrCodeUnavailable, "account store unavailable: try later"
	}
	h.fail(s, segment.SignUp, c.code, c.text)
}
