package load

import (
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// shardCount spreads recording over several locks so thousands of client
// goroutines rarely wait for each other.
const shardCount = 64

// Latencies are recorded in nanoseconds from 1 µs to 60 s, 3 significant digits.
const (
	minLatency = int64(time.Microsecond)
	maxLatency = int64(60 * time.Second)
)

type shard struct {
	mu      sync.Mutex
	hist    *hdrhistogram.Histogram
	late    *hdrhistogram.Histogram // open loop: send time minus intended send time
	wire    *hdrhistogram.Histogram // poll loops: the answer's kernel arrival minus the guess's write
	wake    *hdrhistogram.Histogram // poll loops: the answer's reading minus its kernel arrival
	relayed int64                   // guesses read by the opponent
	games   int64                   // games finished (counted by the loser, who is told)
	logins  int64
	closed  int64    // connections the server ended while the fleet ran
	_       [32]byte // keep shards on separate cache lines
}

// stats is the fleet's counters and latency histograms.
type stats struct {
	shards [shardCount]shard
}

func newStats() *stats {
	s := &stats{}
	for i := range s.shards {
		s.shards[i].hist = NewHistogram()
		s.shards[i].late = NewHistogram()
		s.shards[i].wire = NewHistogram()
		s.shards[i].wake = NewHistogram()
	}
	return s
}

// NewHistogram is a latency histogram of the load generator's range and
// precision (ns, 1 µs to 60 s, 3 significant digits).
func NewHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(minLatency, maxLatency, 3) }

// relayed counts one relayed guess and, when rec, its latency and (when
// known, wire > 0) its latency between the two kernels and how long it
// waited in the opponent's kernel to be read (wake).
func (s *stats) relayed(i int, lat, wire, wake time.Duration, rec bool) {
	sh := &s.shards[i%shardCount]
	sh.mu.Lock()
	sh.relayed++
	if rec {
		sh.hist.RecordValue(ClampLatency(lat))
		if wire > 0 {
			sh.wire.RecordValue(ClampLatency(wire))
			sh.wake.RecordValue(ClampLatency(wake))
		}
	}
	sh.mu.Unlock()
}

// ClampLatency is d in nanoseconds within the histograms' range.
func ClampLatency(d time.Duration) int64 { return min(max(int64(d), minLatency), maxLatency) }

// late records how long after its intended time a guess was sent.
func (s *stats) late(i int, d time.Duration, rec bool) {
	if !rec {
		return
	}
	sh := &s.shards[i%shardCount]
	sh.mu.Lock()
	sh.late.RecordValue(ClampLatency(d))
	sh.mu.Unlock()
}

func (s *stats) gameOver(i int) {
	sh := &s.shards[i%shardCount]
	sh.mu.Lock()
	sh.games++
	sh.mu.Unlock()
}

func (s *stats) lost(i int) {
	sh := &s.shards[i%shardCount]
	sh.mu.Lock()
	sh.closed++
	sh.mu.Unlock()
}

func (s *stats) loggedIn(i int) {
	sh := &s.shards[i%shardCount]
	sh.mu.Lock()
	sh.logins++
	sh.mu.Unlock()
}

// Counters is a snapshot of the fleet's running totals.
type Counters struct {
	Relayed int64 // guesses read by the opponent
	Games   int64 // games finished
	Logins  int64 // successful logins
	// Closed counts logged-in connections that ended before the fleet
	// closed them: the server hung up (a limit, a crash) or a client saw a
	// protocol error. A measurement with any is cut short.
	Closed int64
}

// Sub is c minus an earlier snapshot.
func (c Counters) Sub(o Counters) Counters {
	return Counters{c.Relayed - o.Relayed, c.Games - o.Games, c.Logins - o.Logins, c.Closed - o.Closed}
}

func (s *stats) counters() Counters {
	var c Counters
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		c.Relayed += sh.relayed
		c.Games += sh.games
		c.Logins += sh.logins
		c.Closed += sh.closed
		sh.mu.Unlock()
	}
	return c
}

// Latencies is what a window recorded, each merged over the clients.
type Latencies struct {
	// Relay: from a guess's intended send time to the opponent reading it.
	Relay *hdrhistogram.Histogram
	// Late: in open loop, how late the clients sent each guess after its
	// intended time (1 µs when on time): the part of Relay that is the
	// load generator's own.
	Late *hdrhistogram.Histogram
	// Wire: from the guesser's write to the guess's arrival in the
	// opponent's kernel (its socket's receive timestamp, SO_TIMESTAMPNS):
	// Relay without the load generator's lateness in sending or in waking
	// to read, so what a client with a CPU of its own would see. Poll-loop
	// clients only (none with Config.Goroutines or over WebSocket).
	Wire *hdrhistogram.Histogram
	// Wake: from the guess's arrival in the opponent's kernel to the
	// opponent reading it (the load generator's lateness in reading;
	// with Wire, only for the poll-loop clients). The arrival is that of
	// the last packet the read returned, so this never overstates it.
	Wake *hdrhistogram.Histogram
}

// takeHistogram merges and resets the shards' histograms.
func (s *stats) takeHistogram() Latencies {
	l := Latencies{
		Relay: NewHistogram(),
		Late:  NewHistogram(),
		Wire:  NewHistogram(),
		Wake:  NewHistogram(),
	}
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for _, h := range [][2]*hdrhistogram.Histogram{{l.Relay, sh.hist}, {l.Late, sh.late}, {l.Wire, sh.wire}, {l.Wake, sh.wake}} {
			h[0].Merge(h[1])
			h[1].Reset()
		}
		sh.mu.Unlock()
	}
	return l
}

// Latency summarises a histogram.
type Latency struct {
	Count               int64
	P50, P99, P999, Max time.Duration
}

// Summarise reads the percentiles of h.
func Summarise(h *hdrhistogram.Histogram) Latency {
	return Latency{
		Count: h.TotalCount(),
		P50:   time.Duration(h.ValueAtQuantile(50)),
		P99:   time.Duration(h.ValueAtQuantile(99)),
		P999:  time.Duration(h.ValueAtQuantile(99.9)),
		Max:   time.Duration(h.Max()),
	}
}
