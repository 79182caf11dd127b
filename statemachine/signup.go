package statemachine

import (
	"cmp"
	"time"

	"github.com/bomber-game/bomber/segment"
)

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
	switch {
	case h.cfg.SignUpClosed:
		h.signedUp(s, SignupClosed)
	case !h.signUpAllowed(now, s.source):
		h.notice(s, NoticeSignUpLimited)
		h.signedUp(s, SignupLimited)
	default:
		h.ask(s, Check{Kind: Register, User: m.Name, Password: m.Password})
	}
}

// Sign-up limits (Config.SignUpsPerAddress, Config.SignUpsPerHour). Making
// an account costs a password hash and a row for good, and each answer
// says whether a name is taken: the limits bound both the cost and how
// fast names can be probed, from one address and from everyone together.
const (
	DefaultSignUpsPerAddress = 10  // per hour, from one address
	DefaultSignUpsPerHour    = 300 // per hour, from everyone
)

// signUpKey is the bucket of sign-ups from an address, signUpsAll everyone's
// (no address has its form). The buckets live among the login failure
// counters, so snapshots and sweeping carry them without a format of their
// own.
func signUpKey(source string) string { return "signup\x00" + source }

const signUpsAll = "signups"

// signUpAllowed takes a token for a sign-up from source at now: an address
// may sign up its whole hourly allowance at once, everyone together a
// twelfth of theirs (five minutes' worth), so a burst from many addresses
// is bounded too. Every sign-up that passes the hub's own checks takes a
// token, made or refused by the store, so refusals cannot probe names for
// free.
func (h *Hub) signUpAllowed(now int64, source string) bool {
	perAddr := cmp.Or(h.cfg.SignUpsPerAddress, DefaultSignUpsPerAddress)
	total := cmp.Or(h.cfg.SignUpsPerHour, DefaultSignUpsPerHour)
	hour := int64(time.Hour)
	everyone := h.failures[signUpsAll]
	// the address's token first, and only if everyone's bucket has one: a
	// refused address does not spend everyone's allowance, and an empty
	// global bucket remembers no new address
	if everyone != nil && !h.bucketHas(everyone, now, hour/int64(total), max(total/12, 1)) {
		return false
	}
	addr := h.bucket(signUpKey(source), now)
	if !h.take(addr, now, hour/int64(perAddr), perAddr) {
		return false
	}
	return h.take(h.bucket(signUpsAll, now), now, hour/int64(total), max(total/12, 1))
}

// bucket is the counter under key, made empty-handed (a full bucket) if
// there is none.
func (h *Hub) bucket(key string, now int64) *failures {
	f := h.failures[key]
	if f == nil {
		f = &failures{since: now}
		h.failures[key] = f
	}
	return f
}

// bucketHas reports whether f, a token bucket refilling one token every
// per ns and holding burst, has a token at now. The bucket is kept as the
// time it is full again (f.next: a full bucket's is in the past).
func (h *Hub) bucketHas(f *failures, now, per int64, burst int) bool {
	return max(f.next, now)+per-now <= int64(burst)*per
}

// take spends one of bucket f's tokens at now, if it has one; the sweep
// forgets the bucket once it is full again.
func (h *Hub) take(f *failures, now, per int64, burst int) bool {
	if !h.bucketHas(f, now, per, burst) {
		return false
	}
	f.next = max(f.next, now) + per
	h.sweepAt = min(h.sweepAt, f.next+max(h.window(), int64(time.Minute)))
	return true
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
