package statemachine_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// hubRig drives a hub by hand: checks are collected, not answered, so a
// test decides when (and whether) the store answers.
type hubRig struct {
	t      *testing.T
	h      *statemachine.Hub
	now    int64
	next   statemachine.ConnID
	checks []statemachine.Check
	sent   map[statemachine.ConnID][]segment.Segment
}

func newRig(t *testing.T, cfg statemachine.Config) *hubRig {
	return &hubRig{t: t, h: statemachine.New(cfg), sent: map[statemachine.ConnID][]segment.Segment{}}
}

func (r *hubRig) collect() {
	rd := r.h.Ready()
	for _, s := range rd.Sends {
		r.sent[s.Conn] = append(r.sent[s.Conn], s.Seg)
	}
	r.checks = append(r.checks, rd.Checks...)
	r.h.Advance()
	if err := r.h.CheckInvariants(); err != nil {
		r.t.Fatal(err)
	}
}

func (r *hubRig) open(source string) statemachine.ConnID {
	r.next++
	r.h.Step(r.now, statemachine.Input{Kind: statemachine.InOpen, Conn: r.next, Text: source})
	r.collect()
	return r.next
}

func (r *hubRig) send(c statemachine.ConnID, seg segment.Segment) {
	r.h.Step(r.now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: seg})
	r.collect()
}

func (r *hubRig) close(c statemachine.ConnID) {
	r.h.Step(r.now, statemachine.Input{Kind: statemachine.InClosed, Conn: c})
	r.collect()
}

func (r *hubRig) tick(d time.Duration) {
	r.now += int64(d)
	statemachine.StepTime(r.h, r.now)
	r.collect()
}

// answerAll answers every outstanding check as the demo store would
// (password 123, users Albert and Beth) and reports how many verifies ran.
func (r *hubRig) answerAll() (verifies int) {
	for len(r.checks) > 0 {
		c := r.checks[0]
		r.checks = r.checks[1:]
		a := statemachine.Found
		switch {
		case c.User != "Albert" && c.User != "Beth":
			a = statemachine.NotFound
		case c.Kind == statemachine.Verify && c.Password != "123":
			a = statemachine.WrongPassword
		}
		if c.Kind == statemachine.Verify {
			verifies++
		}
		r.h.Step(r.now, statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: a})
		r.collect()
	}
	return verifies
}

// last is the last segment conn c was sent.
func (r *hubRig) last(c statemachine.ConnID) segment.Segment {
	ss := r.sent[c]
	if len(ss) == 0 {
		r.t.Fatalf("conn %d was sent nothing", c)
	}
	return ss[len(ss)-1]
}

func code(s segment.Segment) byte { return s.Payload()[0] }

var throttleCfg = statemachine.Config{LoginFailures: 5, LoginWindow: time.Minute, LoginLockout: 5 * time.Minute}

// TestWrongPasswordThenCloseIsCounted is the login throttle's bypass:
// a client sends a wrong password and closes before the answer. The store
// still hashes the password, so the failure must count: after five such
// attempts the address is locked out and the store is not asked again.
func TestWrongPasswordThenCloseIsCounted(t *testing.T) {
	r := newRig(t, throttleCfg)
	hashed := 0
	for i := range 20 {
		c := r.open("192.0.2.9")
		r.send(c, segment.Name(segment.Info, "Albert"))
		if len(r.checks) == 0 {
			break // refused at the user name: locked out
		}
		r.answerAll()
		r.send(c, segment.Name(segment.Passwd, fmt.Sprint("guess", i)))
		r.close(c) // gone before the store answers
		hashed += r.answerAll()
	}
	if hashed != throttleCfg.LoginFailures {
		t.Fatalf("%d wrong passwords reached the store from one address; want the lock-out after %d", hashed, throttleCfg.LoginFailures)
	}
	c := r.open("192.0.2.9")
	r.send(c, segment.Name(segment.Info, "Beth"))
	if len(r.checks) != 0 {
		t.Fatal("a locked address got its user name looked up")
	}
	if code(r.last(c)) != 4 {
		t.Fatalf("locked address answered %v", r.last(c))
	}
}

// TestProbingCountsEvenWhenClosedEarly: an unknown user name (InfoResp 0)
// counts against the same throttle as a wrong password, whether or not the
// prober waits for the answer.
func TestProbingCountsEvenWhenClosedEarly(t *testing.T) {
	r := newRig(t, throttleCfg)
	for i := range throttleCfg.LoginFailures {
		c := r.open("192.0.2.7")
		r.send(c, segment.Name(segment.Info, fmt.Sprint("Nobody", i)))
		if i%2 == 0 {
			r.close(c)
		}
		r.answerAll()
	}
	c := r.open("192.0.2.7")
	r.send(c, segment.Name(segment.Info, "Albert"))
	if len(r.checks) != 0 {
		t.Fatalf("after %d probes the address is not locked: the store was asked about Albert", throttleCfg.LoginFailures)
	}
	if code(r.last(c)) != 4 {
		t.Fatalf("locked address answered %v", r.last(c))
	}
}

// login runs a whole login from source and returns the PasswdResp code
// (after letting time pass in steps while the hub holds the check back),
// and how long it took.
func (r *hubRig) login(source, name, password string) (byte, time.Duration) {
	start := r.now
	c := r.open(source)
	r.send(c, segment.Name(segment.Info, name))
	r.answerAll()
	if s := r.last(c); s.Type == segment.InfoResp && code(s) != 1 {
		return code(s), 0
	}
	r.send(c, segment.Name(segment.Passwd, password))
	for range 1000 {
		r.answerAll()
		if s := r.last(c); s.Type != segment.InfoResp {
			break
		}
		r.tick(time.Second)
	}
	for _, s := range r.sent[c] {
		if s.Type == segment.PasswdResp {
			return code(s), time.Duration(r.now - start)
		}
	}
	r.t.Fatalf("no PasswdResp for %s from %s", name, source)
	return 0, 0
}

// TestStrangerCannotLockOutAUser: wrong passwords for Albert from a
// stranger's address lock the stranger out, not Albert: his right password
// from his own address still logs in (slowed while his name is under
// attack), and from many addresses the guessing stays expensive.
func TestStrangerCannotLockOutAUser(t *testing.T) {
	r := newRig(t, throttleCfg)
	for i := range 10 {
		if got, _ := r.login("198.51.100.1", "Albert", fmt.Sprint("guess", i)); got != 3 && got != 4 {
			t.Fatalf("stranger's guess %d answered %d", i, got)
		}
	}
	if got, _ := r.login("198.51.100.1", "Albert", "123"); got != 4 {
		t.Fatalf("the stranger's address is not locked out: right password answered %d", got)
	}
	got, took := r.login("203.0.113.5", "Albert", "123")
	if got != 1 {
		t.Fatalf("Albert from his own address answered %d after a stranger's guesses; want 1 (logged in)", got)
	}
	t.Logf("Albert's login while his name is under attack took %v", took)

	// Many addresses, one guess each: each guess waits its turn, so an hour
	// buys a bounded number of guesses rather than one per address.
	r2 := newRig(t, throttleCfg)
	var hashed int
	start := r2.now
	for i := range 200 {
		c := r2.open(fmt.Sprintf("10.0.%d.%d", i/250, i%250+1))
		r2.send(c, segment.Name(segment.Info, "Albert"))
		r2.answerAll()
		r2.send(c, segment.Name(segment.Passwd, "wrong"))
		hashed += r2.answerAll()
		r2.tick(100 * time.Millisecond)
		hashed += r2.answerAll()
	}
	elapsed := time.Duration(r2.now - start)
	limit := int(elapsed/(throttleCfg.LoginWindow/time.Duration(throttleCfg.LoginFailures))) + 2*throttleCfg.LoginFailures
	if hashed > limit {
		t.Fatalf("200 addresses got %d guesses at Albert hashed in %v; want at most %d", hashed, elapsed, limit)
	}
	t.Logf("200 addresses, one wrong password each over %v: %d hashed", elapsed, hashed)
}

// TestRotatingStrangersCannotLockOutTheOwner is the lock-out attack: eight
// addresses take turns at one wrong password a second for Albert, which
// keeps his name under attack and every turn of its check queue taken.
// Albert, logging in from the address he logged in from before the
// attack, must get in every time and at once; the strangers' guesses stay
// as slow as before.
func TestRotatingStrangersCannotLockOutTheOwner(t *testing.T) {
	r := newRig(t, throttleCfg)
	const home = "203.0.113.5"
	if got, _ := r.login(home, "Albert", "123"); got != 1 {
		t.Fatalf("Albert's first login answered %d", got)
	}
	type attempt struct {
		c   statemachine.ConnID
		at  int64
		got bool
	}
	var owner []*attempt
	hashed, start := 0, r.now
	for sec := range 90 {
		c := r.open(fmt.Sprintf("198.51.100.%d", sec%8+1))
		r.send(c, segment.Name(segment.Info, "Albert"))
		r.answerAll()
		r.send(c, segment.Name(segment.Passwd, fmt.Sprint("guess", sec)))
		if sec%5 == 4 {
			a := &attempt{c: r.open(home), at: r.now}
			r.send(a.c, segment.Name(segment.Info, "Albert"))
			r.answerAll()
			r.send(a.c, segment.Name(segment.Passwd, "123"))
			owner = append(owner, a)
		}
		for _, c := range r.checks {
			if c.Kind == statemachine.Verify && c.Password != "123" {
				hashed++
			}
		}
		r.answerAll()
		for _, a := range owner {
			if !a.got {
				for _, s := range r.sent[a.c] {
					if s.Type == segment.PasswdResp {
						a.got = true
						if code(s) != 1 {
							t.Fatalf("Albert's right password from %s answered %d at %v into the attack", home, code(s), time.Duration(a.at-start))
						}
						if wait := time.Duration(r.now - a.at); wait > 0 {
							t.Fatalf("Albert's login waited %v behind the strangers' turns", wait)
						}
					}
				}
			}
		}
		r.tick(time.Second)
		r.answerAll()
	}
	for _, a := range owner {
		if !a.got {
			t.Fatalf("Albert's login at %v into the attack got no answer", time.Duration(a.at-start))
		}
	}
	elapsed := time.Duration(r.now - start)
	limit := int(elapsed/(throttleCfg.LoginWindow/time.Duration(throttleCfg.LoginFailures))) + 2*throttleCfg.LoginFailures
	if hashed > limit {
		t.Fatalf("8 rotating addresses got %d guesses at Albert hashed in %v; want at most %d", hashed, elapsed, limit)
	}
	t.Logf("Albert logged in %d times of %d during the attack; %d strangers' guesses hashed in %v", len(owner), len(owner), hashed, elapsed)
}

// TestKnownAddressDoesNotWakeAnIdleHub: remembering where a user logged in
// from must not give an idle hub (and a cluster's log) a tick every
// window: once swept, the next deadline is when the memory expires.
func TestKnownAddressDoesNotWakeAnIdleHub(t *testing.T) {
	r := newRig(t, throttleCfg)
	if got, _ := r.login("203.0.113.5", "Albert", "123"); got != 1 {
		t.Fatalf("login answered %d", got)
	}
	r.tick(time.Second) // the first sweep
	at, ok := r.h.NextDeadline()
	if ok && time.Duration(at-r.now) < 24*time.Hour {
		t.Fatalf("an idle hub with one known address wakes in %v", time.Duration(at-r.now))
	}
}
