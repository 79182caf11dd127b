package server

import (
	"net/netip"
	"testing"
	"time"
)

// TestSignUpLimiter: an address gets its hourly allowance and then waits
// for it to refill; many addresses together stop at the global burst; the
// addresses remembered stay bounded.
func TestSignUpLimiter(t *testing.T) {
	l := newSignUpLimiter()
	now := time.Unix(1e9, 0)
	a := netip.MustParseAddr("192.0.2.1")
	for i := range 3 {
		if !l.allow(a, now, 3, 1200) {
			t.Fatalf("sign-up %d of an allowance of 3 refused", i+1)
		}
	}
	if l.allow(a, now, 3, 1200) {
		t.Fatal("a fourth sign-up in the hour from one address allowed")
	}
	if !l.allow(a, now.Add(20*time.Minute+time.Second), 3, 1200) {
		t.Fatal("one sign-up refilled after a third of the hour, refused")
	}
	// everyone together: a burst of 1200/12 = 100, full again after 20
	// minutes, one of it spent just now
	n := 0
	for i := range 1000 {
		if l.allow(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), now.Add(20*time.Minute+time.Second), 3, 1200) {
			n++
		}
	}
	if n != 99 {
		t.Errorf("a burst from 1000 addresses: %d allowed, want 99", n)
	}
	for i := range 2 * signUpMemory {
		l.allow(netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)}), now.Add(time.Hour), 3, 1200)
	}
	if len(l.byAddr) > signUpMemory {
		t.Errorf("%d addresses remembered, bound %d", len(l.byAddr), signUpMemory)
	}
}
