package statemachine

import (
	"math"
	"time"
)

// failures counts failed logins for one key: an address, a name from one
// address, or a name from anywhere.
type failures struct {
	count int
	since int64 // start of the counting window
	until int64 // address, pair: locked out until then; name: under attack until then
	next  int64 // name under attack: the time its last held-back check runs
}

// heldCheck is a password check the hub holds back until at: its name is
// under attack, so its checks run one at a time, spaced out.
type heldCheck struct {
	at    int64
	s     *session
	check Check
}

// Throttle keys. A name is user input (any byte but control characters),
// so it comes last; addresses hold no NUL.
func addrKey(source string) string       { return "ip\x00" + source }
func pairKey(source, name string) string { return "pair\x00" + source + "\x00" + name }
func nameKey(name string) string         { return "user\x00" + name }

// knownKey marks an address the name has logged in from (its until is when
// that is forgotten): its owner's password is checked at once even while
// the name is under attack. It lives among the failure counters so that
// snapshots and sweeping carry it without a format of its own.
func knownKey(source, name string) string { return "known\x00" + source + "\x00" + name }

// knownFor is how long a successful login keeps its address known for the
// name: long enough to span the gaps between a user's logins, so an attack
// that starts while the user is away finds the address known still.
const knownFor = int64(7 * 24 * time.Hour)

func (h *Hub) notice(s *session, k NoticeKind) {
	h.ready.Notices = append(h.ready.Notices, Notice{Kind: k, Conn: s.conn, User: s.name, Source: s.source})
}

func (h *Hub) window() int64 {
	if h.cfg.LoginWindow <= 0 {
		return int64(time.Minute)
	}
	return int64(h.cfg.LoginWindow)
}

func (h *Hub) lockout() int64 {
	if h.cfg.LoginLockout <= 0 {
		return int64(5 * time.Minute)
	}
	return int64(h.cfg.LoginLockout)
}

// throttled reports whether s's address, or the name from s's address, is
// locked out. A name locked from one address is not locked from others:
// a stranger's wrong passwords cannot lock a user out of their own address.
func (h *Hub) throttled(now int64, s *session, name string) bool {
	if h.cfg.LoginFailures <= 0 {
		return false
	}
	for _, key := range [2]string{addrKey(s.source), pairKey(s.source, name)} {
		if f := h.failures[key]; f != nil && f.until > now {
			return true
		}
	}
	return false
}

// AddressLocked reports whether logins from source are locked out now, so
// the shell can drop the password checks that address still has waiting.
func (h *Hub) AddressLocked(now int64, source string) bool {
	f := h.failures[addrKey(source)]
	return h.cfg.LoginFailures > 0 && f != nil && f.until > now
}

// failed counts a failed login against s's address, the name from that
// address, and the name from anywhere.
func (h *Hub) failed(now int64, s *session, name string) {
	if h.cfg.LoginFailures <= 0 {
		return
	}
	window, lockout := h.window(), h.lockout()
	// these counters may go a window and lockout from now: sweep by then
	h.sweepAt = min(h.sweepAt, now+max(window, int64(time.Minute))+lockout)
	for _, key := range [3]string{addrKey(s.source), pairKey(s.source, name), nameKey(name)} {
		f := h.failures[key]
		if f == nil {
			f = &failures{since: now}
			h.failures[key] = f
		}
		if now-f.since > window {
			f.count, f.since = 0, now
		}
		f.count++
		if f.count >= h.cfg.LoginFailures {
			f.until, f.count, f.since = now+lockout, 0, now
		}
	}
}

// answeredLate counts the answer to a check whose session closed before
// it came: a client that hangs up after sending a wrong password (or an
// unknown name) has still made the store do the work, so it still counts.
func (h *Hub) answeredLate(now int64, s *session, a Answer) {
	if a == NotFound || a == WrongPassword {
		h.stats.LoginsFailed++
		h.failed(now, s, s.name)
	}
}

// succeeded clears the failures of the name from s's address (not the
// address's: one good password does not excuse guessing others; nor the
// name's: an attack on it goes on whether or not its owner logs in), and
// remembers the address as known for the name.
func (h *Hub) succeeded(now int64, s *session) {
	delete(h.failures, pairKey(s.source, s.name))
	if h.cfg.LoginFailures > 0 {
		h.failures[knownKey(s.source, s.name)] = &failures{since: now, until: now + knownFor}
	}
}

// known reports whether the name has logged in from s's address lately.
func (h *Hub) known(now int64, s *session) bool {
	f := h.failures[knownKey(s.source, s.name)]
	return f != nil && f.until > now
}

// verifyPassword asks the store to check s's password, unless the name is
// under attack: then an address the name has logged in from lately is
// checked at once still (its owner is not kept waiting behind strangers'
// turns; guessing from it stays bound by the lock of the name from that
// address), an address that has failed recently is refused (false), and
// any other waits its turn (held back; one check per
// LoginWindow/LoginFailures, and refused when the turn is over a window
// away), so many addresses cannot guess quickly at one name, while its
// owner logging in from a new address that has not failed only waits.
func (h *Hub) verifyPassword(now int64, s *session, password string) bool {
	if h.cfg.LoginFailures <= 0 {
		h.newCheck(s, Verify, password)
		return true
	}
	f := h.failures[nameKey(s.name)]
	if f == nil || f.until <= now || h.known(now, s) {
		h.newCheck(s, Verify, password)
		return true
	}
	if a := h.failures[addrKey(s.source)]; a != nil && now-a.since <= h.window() && a.count > 0 {
		return false
	}
	step := h.window() / int64(h.cfg.LoginFailures)
	at := max(f.next, now) + step
	if at-now > h.window() {
		return false
	}
	f.next = at
	h.checkSeq++
	s.check = h.checkSeq
	h.checks[s.check] = s
	h.held = append(h.held, heldCheck{at: at, s: s, check: Check{ID: s.check, Conn: s.conn, Kind: Verify, User: s.name, Password: password}})
	return true
}

// releaseHeld hands the shell the held-back checks whose time has come; a
// check whose session closed meanwhile is forgotten without asking the store.
func (h *Hub) releaseHeld(now int64) {
	kept := h.held[:0]
	for _, c := range h.held {
		switch {
		case c.at > now:
			kept = append(kept, c)
		case c.s.closed || h.checks[c.check.ID] != c.s:
			delete(h.checks, c.check.ID)
		default:
			h.ready.Checks = append(h.ready.Checks, c.check)
		}
	}
	clear(h.held[len(kept):])
	h.held = kept
}

// sweepFailures forgets counters whose window and lockout have passed, so
// the map stays bounded by the recent failures. The next sweep is due when
// the first remaining entry can go (at least a window on): known addresses
// alone, which last days, do not wake an idle hub (or a cluster's log)
// every window; a new failure brings the sweep forward again (failed).
func (h *Hub) sweepFailures(now int64) {
	if len(h.failures) == 0 || now < h.sweepAt {
		return
	}
	window := max(h.window(), int64(time.Minute))
	next := int64(math.MaxInt64)
	for k, f := range h.failures {
		if f.until <= now && f.next <= now && now-f.since > window {
			delete(h.failures, k)
			continue
		}
		next = min(next, max(f.until, f.next, f.since+window+1))
	}
	h.sweepAt = max(next, now+window)
}

// burstCredit is a full bucket: SegmentBurst segments' worth of time.
func (h *Hub) burstCredit() int64 {
	burst := max(h.cfg.SegmentBurst, 1)
	return int64(burst) * (int64(time.Second) / int64(h.cfg.SegmentRate))
}

// allow is a token bucket kept in nanoseconds: time since the last segment
// earns allowance up to a full burst, and each segment spends 1/rate s.
func (h *Hub) allow(now int64, s *session) bool {
	cost := int64(time.Second) / int64(h.cfg.SegmentRate)
	s.credit = min(s.credit+now-s.last, h.burstCredit())
	s.last = now
	if s.credit < cost {
		return false
	}
	s.credit -= cost
	return true
}
