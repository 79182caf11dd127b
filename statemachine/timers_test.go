package statemachine_test

import (
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// A configuration reload that shortens a timeout applies to what starts
// after it, even while older, later deadlines are still waiting: each of
// these tests starts one timer at the long setting, shortens the setting,
// starts another, and lets the second's deadline pass but not the first's.

// reconfigure changes one setting of x's hub, as a reload does.
func (x *harness) reconfigure(set func(*statemachine.Config)) {
	cfg := x.h.Config()
	set(&cfg)
	x.h.Step(0, statemachine.ConfigInput(cfg))
}

// tickTo moves x's clock to at and lets the hub act on it.
func (x *harness) tickTo(at time.Duration) {
	x.now = int64(at)
	statemachine.StepTime(x.h, x.now)
	x.pump()
}

func TestLoginTimeoutShortenedByReload(t *testing.T) {
	h := statemachine.New(statemachine.Config{LoginTimeout: 2 * time.Minute})
	h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: 1})
	h.Step(0, statemachine.ConfigInput(statemachine.Config{LoginTimeout: 10 * time.Second}))
	h.Step(int64(time.Second), statemachine.Input{Kind: statemachine.InOpen, Conn: 2})
	if at, ok := h.NextDeadline(); !ok || at != int64(11*time.Second) {
		t.Fatalf("next deadline %v (%v), want the new connection's at 11s", time.Duration(at), ok)
	}
	statemachine.StepTime(h, int64(11*time.Second))
	if got := h.Ready().Closes; !slices.Equal(got, []statemachine.ConnID{2}) {
		t.Fatalf("closed %v at 11s, want the connection opened after the reload [2]", got)
	}
	h.Advance()
	statemachine.StepTime(h, int64(2*time.Minute))
	if got := h.Ready().Closes; !slices.Equal(got, []statemachine.ConnID{1}) {
		t.Fatalf("closed %v at 2m, want [1]", got)
	}
}

func TestKickGraceShortenedByReload(t *testing.T) {
	x := newHarness(t, statemachine.Config{KickGrace: 5 * time.Minute})
	x.login("Albert")
	x.login("Albert") // kicks connection 1 for 5 minutes
	x.reconfigure(func(c *statemachine.Config) { c.KickGrace = 10 * time.Second })
	x.tickTo(time.Second)
	x.login("Beth")
	x.login("Beth") // kicks connection 3 for 10 seconds
	x.tickTo(11 * time.Second)
	if !x.closed[3] || x.closed[1] {
		t.Fatalf("closed %v at 11s, want connection 3 (kicked after the reload) and not 1", x.closed)
	}
}

// expiredOffer reports whether c was told that an offer expired.
func expiredOffer(x *harness, c statemachine.ConnID) bool {
	for _, m := range x.take(c) {
		if o, err := segment.DecodeOfferBody(m.body); m.t == segment.Offer && err == nil && o.State == segment.OfferExpired {
			return true
		}
	}
	return false
}

func TestOfferTTLShortenedByReload(t *testing.T) {
	x := newHarness(t, statemachine.Config{OfferTTL: time.Minute})
	p := []statemachine.ConnID{x.login("Albert"), x.login("Beth"), x.login("Cindy"), x.login("Larry")}
	for i := 0; i < 4; i += 2 {
		x.table("checkers", nil, p[i:i+2])
		x.send(p[i], segment.Ready, nil)
		x.send(p[i+1], segment.Ready, nil)
	}
	x.send(p[0], segment.Offer, segment.OfferMsg{What: 1}.Append(nil)) // stands a minute
	x.reconfigure(func(c *statemachine.Config) { c.OfferTTL = 10 * time.Second })
	x.tickTo(time.Second)
	x.send(p[2], segment.Offer, segment.OfferMsg{What: 1}.Append(nil)) // stands 10 seconds
	x.tickTo(11 * time.Second)
	if !expiredOffer(x, p[3]) || expiredOffer(x, p[1]) {
		t.Fatal("at 11s the offer made after the reload should have expired, and only it")
	}
}

func TestResumeGraceShortenedByReload(t *testing.T) {
	x := newHarness(t, statemachine.Config{ResumeGrace: time.Minute})
	var p []statemachine.ConnID
	for c, name := range []string{"Albert", "Beth", "Cindy", "Larry"} {
		// as harness.login, with resume tokens
		p = append(p, statemachine.ConnID(c+1))
		x.h.Step(x.now, statemachine.Input{Kind: statemachine.InOpen, Conn: p[c]})
		x.send(p[c], segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureTables | segment.FeatureResume}.Append(nil))
		x.raw(p[c], segment.Name(segment.Info, name))
		x.raw(p[c], segment.Name(segment.Passwd, "123"))
	}
	x.table("checkers", nil, p[0:2])
	x.table("checkers", nil, p[2:4])
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InClosed, Conn: p[0]}) // its seat is held a minute
	x.reconfigure(func(c *statemachine.Config) { c.ResumeGrace = 10 * time.Second })
	x.tickTo(time.Second)
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InClosed, Conn: p[2]}) // its seat is held 10 seconds
	x.pump()
	x.take(p[1])
	x.take(p[3])
	x.tickTo(11 * time.Second)
	// the table whose hold ran out shows the seat free again
	if len(x.take(p[3])) == 0 || len(x.take(p[1])) != 0 {
		t.Fatal("at 11s the seat held after the reload should have been freed, and only it")
	}
}

// TestWaitingClockedTableLeavesTimeAlone: a table with a time control
// whose game has not started, or is over, has no clock running, so it
// gives time nothing to do; nor does one that closed. A cluster's leader puts a tick in the log
// whenever NextDeadline says one is due: a waiting clocked table that said
// "now" had it put one tick after another in the log for as long as the
// table stood.
func TestWaitingClockedTableLeavesTimeAlone(t *testing.T) {
	x := newHarness(t, statemachine.Config{})
	a, b := x.loginWith("Albert", segment.FeatureTables), x.loginWith("Beth", segment.FeatureTables)
	if at, due := x.h.NextDeadline(); due {
		t.Fatalf("before the table: a deadline at %d", at)
	}
	x.table("dots", []segment.KV{{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}, {Key: "clock.move", Value: "30"}}, []statemachine.ConnID{a, b})
	if at, due := x.h.NextDeadline(); due {
		t.Errorf("a clocked table waiting for its players to be ready: a deadline at %d (now %d)", at, x.now)
	}
	x.send(a, segment.Ready, nil)
	x.send(b, segment.Ready, nil)
	if at, due := x.h.NextDeadline(); !due || at != x.now+int64(30*time.Second) {
		t.Errorf("the game under way: deadline %d %v, want the mover's clock at %d", at, due, x.now+int64(30*time.Second))
	}
	x.send(a, segment.Resign, nil)
	if at, due := x.h.NextDeadline(); due && at <= x.now {
		t.Errorf("the game over, the table waiting for a rematch: a deadline at %d (now %d)", at, x.now)
	}
	x.send(a, segment.Leave, nil)
	x.send(b, segment.Leave, nil)
	if at, due := x.h.NextDeadline(); due && at <= x.now {
		t.Errorf("the table closed: a deadline at %d (now %d)", at, x.now)
	}
}
