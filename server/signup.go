package server

import (
	"net/netip"
	"time"

	"golang.org/x/time/rate"
)

// Sign-up limits (Config.SignUpsPerAddress, Config.SignUpsPerHour). Making
// an account costs a password hash and a row for good, and each answer
// says whether a name is taken: the limits bound both the cost and how
// fast names can be probed, from one address and from everyone together.
const (
	DefaultSignUpsPerAddress = 10  // per hour, from one address
	DefaultSignUpsPerHour    = 300 // per hour, from everyone
	// signUpMemory is how many addresses the limiter remembers before it
	// forgets those that have their whole allowance back.
	signUpMemory = 4096
)

// signUpLimiter is the engine's: token buckets per source address and one
// for everyone, refilled evenly over the hour. Every sign-up that reaches
// the shell takes a token, made or refused, so refusals cannot be used to
// probe names for free. Used on the engine goroutine only.
type signUpLimiter struct {
	global *rate.Limiter
	byAddr map[netip.Addr]*rate.Limiter
}

func newSignUpLimiter() *signUpLimiter {
	return &signUpLimiter{byAddr: map[netip.Addr]*rate.Limiter{}}
}

// perHour is a token bucket that refills n tokens an hour and holds burst.
func perHour(n, burst int) (rate.Limit, int) {
	return rate.Limit(float64(n) / 3600), max(burst, 1)
}

// allow takes a token for a sign-up from addr at now, under limits of
// perAddr an hour from one address and total an hour from everyone; false
// when either has none left. An address may sign up its whole hourly
// allowance at once; everyone together a twelfth of theirs (five
// minutes' worth), so a burst from many addresses is bounded too.
func (l *signUpLimiter) allow(addr netip.Addr, now time.Time, perAddr, total int) bool {
	gr, gb := perHour(total, total/12)
	if l.global == nil {
		l.global = rate.NewLimiter(gr, gb)
	} else if l.global.Limit() != gr || l.global.Burst() != gb {
		l.global.SetLimitAt(now, gr)
		l.global.SetBurstAt(now, gb)
	}
	a := l.byAddr[addr]
	if a == nil {
		if len(l.byAddr) >= signUpMemory {
			l.forget(now)
		}
		a = rate.NewLimiter(perHour(perAddr, perAddr))
		l.byAddr[addr] = a
	}
	// the address's token first: a refused address does not spend
	// everyone's allowance
	if !a.AllowN(now, 1) {
		return false
	}
	return l.global.AllowN(now, 1)
}

// forget drops the addresses whose bucket is full again (they are as if
// never seen); if none is, the oldest state goes all the same, so memory
// stays bounded under a flood from many addresses (the global bucket
// still holds).
func (l *signUpLimiter) forget(now time.Time) {
	for addr, a := range l.byAddr {
		if a.TokensAt(now) >= float64(a.Burst()) {
			delete(l.byAddr, addr)
		}
	}
	if len(l.byAddr) >= signUpMemory {
		clear(l.byAddr)
	}
}
