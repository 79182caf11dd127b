package server

import (
	"math"
	"testing"
	"time"
)

// fakeRuntime stands in for the runtime's collector settings.
type fakeRuntime struct {
	percent  int
	limit    int64
	total    uint64
	released int
	later    []func() // changes not yet made (run asynchronously)
	async    bool
}

func (r *fakeRuntime) collector() *collector {
	return &collector{
		setPercent: func(p int) int { old := r.percent; r.percent = p; return old },
		setLimit: func(l int64) int64 {
			old := r.limit
			if l >= 0 {
				r.limit = l
			}
			return old
		},
		total: func() uint64 { return r.total },
	}
}

func (r *fakeRuntime) hold() gcHold { return r.engineHold(r.collector()) }

// engineHold is one engine's hold on c.
func (r *fakeRuntime) engineHold(c *collector) gcHold {
	return gcHold{
		c:       c,
		release: func() { r.released++ },
		run: func(f func()) {
			if r.async {
				r.later = append(r.later, f)
				return
			}
			f()
		},
	}
}

const mib = 1 << 20

// TestLoginWaveHoldsTheCollector: a wave of password checks turns the
// collector off, with a memory limit as its bound, for as long as the
// wave and its presence last; once all is quiet it is as it was and the
// wave's memory is given back. A trickle of logins never holds it, nor a
// wave while no game is played.
func TestLoginWaveHoldsTheCollector(t *testing.T) {
	r := &fakeRuntime{percent: 100, limit: math.MaxInt64, total: 100 * mib}
	g := r.hold()
	for range 10 { // a few logins at a time, presence written now and then
		g.step(waveChecks-1, true, true, 0, false)
		g.step(0, true, false, 10*time.Millisecond, false)
	}
	if r.percent != 100 || r.limit != math.MaxInt64 {
		t.Fatalf("a trickle of logins changed the collector: GOGC %d, limit %d", r.percent, r.limit)
	}
	g.step(10*waveChecks, false, true, 0, false)
	if r.percent != 100 || r.limit != math.MaxInt64 {
		t.Fatalf("a wave with no game being played held the collector: GOGC %d, limit %d", r.percent, r.limit)
	}
	g.step(waveChecks, true, true, 0, false)
	if r.percent != -1 {
		t.Fatalf("a wave of %d checks left GOGC at %d", waveChecks, r.percent)
	}
	if want := int64(100*mib + holdHeadroom); r.limit != want {
		t.Fatalf("memory limit during the wave %d MiB, want %d MiB", r.limit/mib, want/mib)
	}
	// the wave goes on: checks answered but presence still to write, then
	// written but not yet quiet for long
	for _, s := range []struct {
		checks  int
		pending bool
		quiet   time.Duration
	}{{5, false, time.Second}, {0, true, time.Second}, {0, false, quietFor - time.Millisecond}} {
		if g.step(s.checks, true, s.pending, s.quiet, true) || r.percent != -1 {
			t.Fatalf("let go before the wave was over (%+v): GOGC %d", s, r.percent)
		}
	}
	if !g.step(0, true, false, quietFor, true) {
		t.Fatal("a quiet engine after a large burst did not count it as given back")
	}
	if r.percent != 100 || r.limit != math.MaxInt64 || r.released != 1 {
		t.Fatalf("after the wave: GOGC %d, limit %d, memory given back %d times; want 100, unlimited, once", r.percent, r.limit, r.released)
	}
	if g.step(0, true, false, time.Minute, false) || r.released != 1 {
		t.Fatal("memory given back again with no burst since")
	}
}

// TestWaveHoldBounds: the limit a hold sets lets the runtime grow by at
// least holdHeadroom and by as much as it has, and never raises the
// operator's own (GOMEMLIMIT).
func TestWaveHoldBounds(t *testing.T) {
	for _, c := range []struct {
		name         string
		limit, total int64
		want         int64
	}{
		{"small", math.MaxInt64, 10 * mib, 10*mib + holdHeadroom},
		{"large", math.MaxInt64, 1024 * mib, 2048 * mib},
		{"operator's lower", 200 * mib, 100 * mib, 200 * mib},
	} {
		r := &fakeRuntime{percent: 100, limit: c.limit, total: uint64(c.total)}
		g := r.hold()
		g.step(waveChecks, true, false, 0, false)
		if r.limit != c.want {
			t.Errorf("%s: limit %d MiB during a wave, want %d MiB", c.name, r.limit/mib, c.want/mib)
		}
		g.step(0, true, false, quietFor, false)
		if r.limit != c.limit || r.percent != 100 {
			t.Errorf("%s: after the wave limit %d, GOGC %d; want %d, 100", c.name, r.limit, r.percent, c.limit)
		}
		if r.released != 0 {
			t.Errorf("%s: memory given back after a wave with no large burst", c.name)
		}
	}
}

// TestWaveHoldOneChangeAtATime: the runtime's settings are changed off
// the loop, and while a change is being made the loop starts no other
// (turning GOGC off waits for a collection under way to end).
func TestWaveHoldOneChangeAtATime(t *testing.T) {
	r := &fakeRuntime{percent: 100, limit: math.MaxInt64, total: 100 * mib, async: true}
	g := r.hold()
	g.step(waveChecks, true, false, 0, false)
	if r.percent != 100 || len(r.later) != 1 {
		t.Fatalf("the hold was made on the loop (GOGC %d) or not handed off (%d)", r.percent, len(r.later))
	}
	if g.step(0, true, false, time.Minute, true) || len(r.later) != 1 {
		t.Fatal("a second change was started while the first was being made")
	}
	r.later[0]()
	if r.percent != -1 || g.busy.Load() {
		t.Fatalf("after the hold: GOGC %d, busy %v", r.percent, g.busy.Load())
	}
	if !g.step(0, true, false, time.Minute, true) || len(r.later) != 2 {
		t.Fatal("the hold was not let go once the first change was made")
	}
	r.later[1]()
	if r.percent != 100 || r.released != 1 {
		t.Fatalf("after letting go: GOGC %d, given back %d times", r.percent, r.released)
	}
}

// TestWaveHoldsOfTwoEngines: engines of one process (a cluster's nodes,
// a test's transports) share the runtime's settings. Waves that overlap
// keep the collector off until the last is over, and then put back what
// the operator set, not what one engine found while the other held it.
func TestWaveHoldsOfTwoEngines(t *testing.T) {
	r := &fakeRuntime{percent: 100, limit: math.MaxInt64, total: 100 * mib}
	c := r.collector()
	a, b := r.engineHold(c), r.engineHold(c)
	a.step(waveChecks, true, false, 0, false)
	b.step(waveChecks, true, false, 0, false)
	a.step(0, true, false, quietFor, false)
	if r.percent != -1 {
		t.Fatalf("one engine's wave over while the other's goes on: GOGC %d, want off", r.percent)
	}
	b.step(0, true, false, quietFor, false)
	if r.percent != 100 || r.limit != math.MaxInt64 {
		t.Fatalf("both waves over: GOGC %d, limit %d; want 100, unlimited", r.percent, r.limit)
	}
}
