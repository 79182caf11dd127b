package statemachine

import "time"

// failures counts failed logins for one address or name.
type failures struct {
	count int
	since int64 // start of the counting window
	until int64 // locked out until then
}

func (h *Hub) notice(s *session, k NoticeKind) {
	h.ready.Notices = append(h.ready.Notices, Notice{Kind: k, Conn: s.conn, User: s.name, Source: s.source})
}

// throttled reports whether s's address or the user name is locked out.
func (h *Hub) throttled(now int64, s *session, name string) bool {
	if h.cfg.LoginFailures <= 0 {
		return false
	}
	for _, key := range [2]string{"ip " + s.source, "user " + name} {
		if f := h.failures[key]; f != nil && f.until > now {
			return true
		}
	}
	return false
}

// failed counts a failed login against s's address and the name.
func (h *Hub) failed(now int64, s *session, name string) {
	if h.cfg.LoginFailures <= 0 {
		return
	}
	window, lockout := int64(h.cfg.LoginWindow), int64(h.cfg.LoginLockout)
	if window <= 0 {
		window = int64(time.Minute)
	}
	if lockout <= 0 {
		lockout = int64(5 * time.Minute)
	}
	for _, key := range [2]string{"ip " + s.source, "user " + name} {
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

// succeeded clears the name's failures (not the address's: one good
// password does not excuse guessing others).
func (h *Hub) succeeded(name string) { delete(h.failures, "user "+name) }

// sweepFailures forgets counters whose window and lockout have passed, so
// the map stays bounded by the recent failures.
func (h *Hub) sweepFailures(now int64) {
	if len(h.failures) == 0 || now < h.sweepAt {
		return
	}
	window := max(int64(h.cfg.LoginWindow), int64(time.Minute))
	for k, f := range h.failures {
		if f.until <= now && now-f.since > window {
			delete(h.failures, k)
		}
	}
	h.sweepAt = now + window
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
