package server

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// A login wave among thousands of users makes garbage fast (presence
// buffers, user lists, the checks' rows), and the collector runs cycle
// after cycle while it lasts. The loop is busy all through a wave, so the
// runtime preempts it every 10 ms, and a preempted loop waits for a P
// behind whatever the scheduler runs first: during a collection, the mark
// worker of the loop's P, which has done none of its share and catches up
// for milliseconds. In execution traces of a storm of 1,000 logins among
// 10,000 users the loop was off its P for up to 5-15 ms that way, and
// the relayed moves waited for it (docs/performance.md, "No collection
// in a login wave"). So while a wave of password checks runs and games
// are being played the collector is held off, within a bound on the
// memory it may grow by, and once the wave is over (checks answered,
// presence written, then quiet) it is let go and the wave's garbage is
// collected at once.
//
// A hold costs memory for good: what the connections of the wave keep is
// placed among the wave's garbage, in spans a collection cannot give back
// while one object in them lives (10,000 idle users logged in under a
// hold took 0.7 KiB more each after a collection). So with no game being
// played, where a collection stalls nothing players see, there is no
// hold.
//
// waveChecks is how many checks admitted and unanswered at once make a
// wave (a trickle of logins never holds the collector); playedWithin how
// recent a move must be for games to count as being played; holdHeadroom
// the least memory a hold lets the runtime grow by before it collects
// anyway (the memory limit); a hold lets it grow by as much as it already
// had.
const (
	waveChecks   = 16
	playedWithin = time.Second
	holdHeadroom = 256 << 20
)

// collector is the runtime's collector settings, held off while any
// engine of the process is in a wave (a cluster node or a test runs
// several engines, and the settings are the process's).
type collector struct {
	mu      sync.Mutex
	holders int
	percent int   // GOGC as it was before the first holder
	limit   int64 // the memory limit as it was before the first holder

	setPercent func(int) int     // debug.SetGCPercent
	setLimit   func(int64) int64 // debug.SetMemoryLimit
	total      func() uint64     // the memory the runtime has mapped and not given back
}

// theCollector is the process's.
var theCollector = &collector{setPercent: debug.SetGCPercent, setLimit: debug.SetMemoryLimit, total: runtimeTotal}

// runtimeTotal is what the runtime counts against its memory limit.
func runtimeTotal() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// hold turns the collector off, with a memory limit that lets the runtime
// grow by what it has and at least holdHeadroom, never above the
// operator's own (GOMEMLIMIT). Turning GOGC off waits for a collection
// under way to end: never call it on the loop.
func (c *collector) hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.holders++; c.holders > 1 {
		return
	}
	c.limit = c.setLimit(-1)
	have := c.total()
	if bound := have + max(have, holdHeadroom); bound < uint64(c.limit) && bound < math.MaxInt64 {
		c.setLimit(int64(bound))
	}
	c.percent = c.setPercent(-1)
}

// letGo undoes one hold; the last puts the settings back as they were.
func (c *collector) letGo() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.holders--; c.holders > 0 {
		return
	}
	c.setPercent(c.percent)
	c.setLimit(c.limit)
}

// gcHold is one engine's part: it holds the collector through the
// engine's login waves (above) and gives memory back after large bursts.
type gcHold struct {
	held bool        // the loop's view: a hold was started and not yet let go
	busy atomic.Bool // a change is being made on a goroutine of its own

	c       *collector
	release func()       // after a large burst: collect and give memory back (debug.FreeOSMemory)
	run     func(func()) // runs a change off the loop (go f())
}

func newGCHold() gcHold {
	return gcHold{c: theCollector, release: debug.FreeOSMemory, run: func(f func()) { go f() }}
}

// step is called by the loop when it has nothing left to sweep. checks is
// how many checks are admitted and unanswered, playing whether a move was
// made in the last playedWithin, pending whether presence
// has notices not yet written, quiet how long since presence was last
// written, and large whether a burst large enough to give memory back
// (burstConns connections written) has passed since it last was. It
// starts a hold when a wave begins and, once the wave and any burst are
// over and quiet, lets it go and gives memory back; it reports whether it
// let go or gave back (the caller counts a burst from zero again). The
// settings are changed on a goroutine of their own, one change at a time.
func (g *gcHold) step(checks int, playing, pending bool, quiet time.Duration, large bool) bool {
	if g.busy.Load() {
		return false
	}
	if !g.held && checks >= waveChecks && playing {
		g.held = true
		g.busy.Store(true)
		g.run(func() {
			defer g.busy.Store(false)
			g.c.hold()
		})
		return false
	}
	if checks > 0 || pending || quiet < quietFor || !(g.held || large) {
		return false
	}
	held := g.held
	g.held = false
	g.busy.Store(true)
	g.run(func() {
		defer g.busy.Store(false)
		if held {
			g.c.letGo()
		}
		if large {
			g.release()
		}
	})
	return true
}
