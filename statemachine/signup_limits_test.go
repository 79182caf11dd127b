package statemachine

import (
	"fmt"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// signUpFrom opens connection c from source and sends a SignUp; it reports
// whether the hub asked the store to make the account (a Register check),
// and otherwise the Error code the client got.
func signUpFrom(t *testing.T, h *Hub, now int64, c ConnID, source string) (asked bool, code uint8) {
	t.Helper()
	h.Step(now, Input{Kind: InOpen, Conn: c, Text: source})
	for _, seg := range segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureSignUp}.Append(nil)) {
		h.Step(now, Input{Kind: InReceive, Conn: c, Seg: seg})
	}
	h.Advance()
	for _, seg := range segment.AppendMessage(nil, segment.SignUp, segment.SignUpMsg{Name: fmt.Sprint("User", c), Password: "a-good-pw"}.Append(nil)) {
		h.Step(now, Input{Kind: InReceive, Conn: c, Seg: seg})
	}
	rd := h.Ready()
	for _, ch := range rd.Checks {
		if ch.Kind == Register {
			asked = true
		}
	}
	var body []byte
	for _, s := range rd.Sends {
		if s.Conn == c && s.Seg.Type.Base() == segment.ErrorMsg {
			body = append(body, s.Seg.Payload()...) // the fragments, then the last
		}
	}
	if len(body) > 1 {
		code = body[1]
	}
	h.Advance()
	h.Step(now, Input{Kind: InClosed, Conn: c})
	h.Advance()
	return asked, code
}

// TestSignUpLimits: an address gets its hourly allowance of sign-ups and
// then waits for it to refill; many addresses together stop at everyone's
// burst; both survive a snapshot, which is how a restarted daemon or
// another node of a cluster carries them (the hub keeps them, so a
// cluster's limits are the world's, not each node's); closed registration
// refuses at once.
func TestSignUpLimits(t *testing.T) {
	h := New(Config{Games: Catalogue(), SignUpsPerAddress: 3, SignUpsPerHour: 1200})
	now := int64(time.Hour)
	conn := ConnID(0)
	next := func() ConnID { conn++; return conn }
	for i := range 3 {
		if asked, code := signUpFrom(t, h, now, next(), "192.0.2.1"); !asked {
			t.Fatalf("sign-up %d of an allowance of 3 refused (code %d)", i+1, code)
		}
	}
	if asked, code := signUpFrom(t, h, now, next(), "192.0.2.1"); asked || code != segment.ErrCodeRateLimited {
		t.Fatalf("a fourth sign-up in the hour from one address: asked %v, code %d", asked, code)
	}
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if h, err = Restore(Config{Games: Catalogue()}, snap); err != nil {
		t.Fatal(err)
	}
	if asked, _ := signUpFrom(t, h, now, next(), "192.0.2.1"); asked {
		t.Fatal("after a snapshot and restore the address's allowance is whole again")
	}
	later := now + int64(20*time.Minute+time.Second)
	if asked, _ := signUpFrom(t, h, later, next(), "192.0.2.1"); !asked {
		t.Fatal("one sign-up refilled after a third of the hour, refused")
	}
	// everyone together: a burst of 1200/12 = 100, full again after 5
	// minutes; 4 spent in the last 20 minutes were refilled, 1 spent now
	n := 0
	for i := range 1000 {
		if asked, _ := signUpFrom(t, h, later, next(), fmt.Sprintf("10.0.%d.%d", i>>8, i&0xff)); asked {
			n++
		}
	}
	if n != 99 {
		t.Errorf("a burst from 1000 addresses: %d sign-ups asked, want 99", n)
	}
	// the refused addresses are not remembered, and the sweep forgets the
	// others once their allowance is whole again
	if got := len(h.failures); got > 101 {
		t.Errorf("%d buckets remembered after the burst, want at most 101", got)
	}
	StepTime(h, later+int64(2*time.Hour))
	h.Advance()
	if got := len(h.failures); got != 0 {
		t.Errorf("%d buckets remembered two hours later, want 0", got)
	}

	closed := New(Config{Games: Catalogue(), SignUpClosed: true})
	if asked, code := signUpFrom(t, closed, now, 1, "192.0.2.1"); asked || code != segment.ErrCodeSignUpClosed {
		t.Errorf("closed registration: asked %v, code %d", asked, code)
	}
}
