// Package server is bomberd's network shell: it accepts connections, turns
// their bytes into segments for the state machine and the state machine's
// outputs back into bytes, and runs account checks on a bounded worker pool.
// It knows framing but no game.
//
// Two transports share one engine that runs the hub on a single goroutine:
// a select-style reactor on Linux epoll (one small fixed ring buffer per
// connection that the kernel reads straight into, a bounded output buffer,
// writes of as much as the kernel takes, coalesced per loop iteration, and
// an accepting goroutine per listener), and a portable
// transport over the net package with a goroutine per connection, which also
// serves TLS.
package server

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// Clock is the injected time source.
type Clock interface{ Now() time.Time }

// SystemClock reads the system clock.
type SystemClock struct{}

// Now returns the current time.
func (SystemClock) Now() time.Time { return time.Now() }

// Checker answers an account check (it may block; it runs on a worker).
type Checker func(ctx context.Context, c statemachine.Check) statemachine.Answer

// Querier answers an account query (a check whose kind is a Query) with the
// store's data, in the form the kind's comment gives (it may block; it runs
// on a worker).
type Querier func(ctx context.Context, c statemachine.Check) (statemachine.Answer, string)

// FinishedGame is a game's record as the Recorder gets it, with the game's
// wall-clock start and end.
type FinishedGame struct {
	Record     record.Game
	Start, End time.Time
}

// Recorder stores finished games, oldest first, and says how many of them,
// from the first, it is done with (stored, or refused for good): all of
// them when err is nil. It may block; it runs on the pool's record worker,
// which hands it the games that ended while it waited (at most
// Config.RecordBatch) and, after a failure, the rest again a second later.
type Recorder func(ctx context.Context, games []FinishedGame) (done int, err error)

// CloseReason says why a connection ended, for metrics.
type CloseReason string

// Close reasons.
const (
	ReasonPeer           CloseReason = "peer"            // the client closed it or it failed
	ReasonServer         CloseReason = "server"          // the hub closed it (kick grace over, login timeout, bad board)
	ReasonProtocol       CloseReason = "protocol"        // a framing error
	ReasonBacklog        CloseReason = "backlog"         // the client did not read its output
	ReasonOutputMemory   CloseReason = "output_memory"   // all clients' unread output passed its bound; this one had the most
	ReasonSegmentTimeout CloseReason = "segment_timeout" // an incomplete segment waited too long
	ReasonLimit          CloseReason = "limit"           // over a connection limit at accept
	ReasonShutdown       CloseReason = "shutdown"        // the daemon is stopping
)

// Observer receives events for metrics; every method is called from the
// engine's goroutine and must not block. What the hub counts itself
// (segments in and out, games ended, logins) is read from its Stats.
type Observer interface {
	ConnOpened()
	ConnClosed(reason CloseReason)
	ConnRejected(reason string)
	// AcceptFailed: accept failed (reason is one of the Accept* constants);
	// accepting pauses for a moment.
	AcceptFailed(reason string)
	ProtocolError(reason string)
	LoopLatency(d time.Duration)
	CheckLatency(kind statemachine.CheckKind, d time.Duration, a statemachine.Answer)
	// BotMove: a computer player chose a move in d (from a bot worker);
	// ok is false when it failed or ran over its budget.
	BotMove(game string, d time.Duration, ok bool)
	// InputApplied: the hub applied one input from the log; table says
	// whether it concerned one table (statemachine's Hub.TableOf) rather
	// than the world's sessions, lobby and time.
	InputApplied(table bool)
}

type nopObserver struct{}

func (nopObserver) ConnOpened()                                                             {}
func (nopObserver) ConnClosed(CloseReason)                                                  {}
func (nopObserver) ConnRejected(string)                                                     {}
func (nopObserver) AcceptFailed(string)                                                     {}
func (nopObserver) ProtocolError(string)                                                    {}
func (nopObserver) LoopLatency(time.Duration)                                               {}
func (nopObserver) CheckLatency(statemachine.CheckKind, time.Duration, statemachine.Answer) {}
func (nopObserver) BotMove(string, time.Duration, bool)                                     {}
func (nopObserver) InputApplied(bool)                                                       {}

// Tap sees every connection's traffic, for capture. Its methods are called
// on the engine goroutine in the order things happen and must not block for
// long (a capture writer buffers).
type Tap interface {
	// Opened: a connection was accepted from remote.
	Opened(id statemachine.ConnID, remote string)
	// In: bytes arrived from the client (any split).
	In(id statemachine.ConnID, data []byte)
	// Out: a whole segment was queued for the client.
	Out(id statemachine.ConnID, seg segment.Segment)
	// Closed: the connection ended; byServer tells who ended it.
	Closed(id statemachine.ConnID, byServer bool)
	// Input: the hub is given an input at time at (engine time): every
	// input goes by here, those of the client bytes above too, so a
	// capture can keep what replaying needs (account answers, computer
	// players' moves, ticks, seeds). With a Tap the engine acts on each
	// input's outputs before the next input, so the Out and Closed calls
	// that follow an Input are what the hub did with it. in is reused:
	// copy what is kept.
	Input(at int64, in *statemachine.Input)
}

// Config is everything a transport needs.
type Config struct {
	Hub    statemachine.Config
	Check  Checker
	Query  Querier // nil: every query is answered Unavailable
	Record Recorder
	Logger *zap.Logger
	Clock  Clock
	// Observer gets metrics events; nil for none.
	Observer Observer
	// Tap sees all traffic (capture); nil for none.
	Tap Tap

	MaxConns       int           // connections at once; beyond, new ones are closed at accept. 0: 10000
	MaxConnsPerIP  int           // connections from one source address; 0: unlimited
	MaxOutput      int           // unread output per connection before it is closed; 0: 256 KiB
	MaxOutputTotal int           // unread output of all connections together; past it the slowest readers are closed. 0: 128 MiB
	SegmentTimeout time.Duration // an incomplete segment may wait this long; 0: never times out
	Workers        int           // account workers; 0: 4
	QueueLen       int           // account checks waiting for a worker; beyond, answered Unavailable. 0: 1024
	CheckTimeout   time.Duration // one account check; 0: 5s
	// RecordBatch is the most finished games handed to Record at once, and
	// RecordDelay how long a game that ends on a quiet recorder waits for
	// others to share its call (one transaction: a commit per batch, not
	// per game). 0: 64 and 50ms; a negative delay does not wait.
	RecordBatch int
	RecordDelay time.Duration
	BotWorkers  int           // computer players running at once; 0: 2
	BotQueue    int           // bot moves waiting for a worker; beyond, a random legal move is played. 0: 1024
	BotBudget   time.Duration // one bot move; past it a random legal move is played. 0: 200ms
	// Bot plays a computer player's move; nil means statemachine.RunBot.
	Bot        func(statemachine.BotRequest) (statemachine.BotAnswer, error)
	TickEvery  time.Duration // how often deadlines are checked; 0: 100ms
	SendBuffer int           // SO_SNDBUF for accepted sockets, fixed at start; 0: a quarter of MaxOutput, at most DefaultSendBuffer; negative: the kernel's (autotuned)
	// Log, when set, is the log of the world's inputs this node works
	// through: a cluster's (package cluster) or a journal on disk that
	// lets the world survive a restart; nil keeps it in memory (a world of
	// its own that ends with the process).
	Log Log
	// Entropy is where the hub's seeds come from; nil is crypto/rand.
	// Tests and replays set a fixed source to get the same join codes,
	// table seeds and resume tokens every run.
	Entropy io.Reader
	// OnLoop is called on the engine goroutine at every tick (the systemd
	// watchdog is pinged from here, proving the loop is alive).
	OnLoop func()
	// KeepP has the reactor's loop keep its P (the runtime's right to run
	// Go code) while it waits for events, as long as traffic flows (an
	// event within the last keepPFor). Otherwise the runtime may hand the
	// P to other work during a wait of a few hundred microseconds (an
	// account worker the loop woke, the collector's mark worker), and the
	// loop, woken by a guess, waits for that work to yield it back. For a
	// process with one reactor and GOMAXPROCS of at least 2 (bomberd);
	// ignored with fewer Ps and by the net transport. Several reactors in
	// one process (a cluster's tests) would each hold a P: leave it off.
	KeepP bool
}

func (c *Config) defaults() {
	c.Hub.Casts = true // the engine fans presence out itself (engine_output.go)
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.MaxOutput <= 0 {
		c.MaxOutput = 256 << 10
	}
	if c.MaxOutputTotal <= 0 {
		c.MaxOutputTotal = DefaultMaxOutputTotal
	}
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.QueueLen <= 0 {
		c.QueueLen = 1024
	}
	if c.CheckTimeout <= 0 {
		c.CheckTimeout = 5 * time.Second
	}
	if c.TickEvery <= 0 {
		c.TickEvery = 100 * time.Millisecond
	}
	if c.RecordBatch <= 0 {
		c.RecordBatch = 64
	}
	if c.RecordDelay == 0 {
		c.RecordDelay = 50 * time.Millisecond
	}
	if c.BotWorkers <= 0 {
		c.BotWorkers = 2
	}
	if c.BotQueue <= 0 {
		c.BotQueue = 1024
	}
	if c.BotBudget <= 0 {
		c.BotBudget = 200 * time.Millisecond
	}
	if c.Bot == nil {
		c.Bot = statemachine.RunBot
	}
	if c.Observer == nil {
		c.Observer = nopObserver{}
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.Clock == nil {
		c.Clock = SystemClock{}
	}
}

// DefaultMaxOutputTotal bounds the unread output of all connections
// together: 512 connections' worth of a full default backlog, where
// max_connections times max_output_bytes would be 2.5 GiB.
const DefaultMaxOutputTotal = 128 << 20

// DefaultMaxConns is the connection limit when Config.MaxConns is 0.
const DefaultMaxConns = 10000

// ErrClosed is returned by Serve after Shutdown.
var ErrClosed = errors.New("server closed")

// Transport serves the segment protocol on listeners.
type Transport interface {
	// Serve accepts on l until Shutdown or a fatal error.
	Serve(l net.Listener) error
	// Shutdown stops accepting, ends games as aborted, closes every
	// connection and waits (until ctx ends) for pending game records.
	Shutdown(ctx context.Context) error
	// Sessions lists the connections and their states (for operators).
	Sessions(ctx context.Context) ([]statemachine.SessionInfo, error)
	// CountStates counts the connections in each state (for metrics).
	CountStates(ctx context.Context) ([statemachine.NumStates]int, error)
	// Kick closes the named user's connection; false when not online.
	Kick(ctx context.Context, user string) (bool, error)
	// Stats copies the hub's counters.
	Stats(ctx context.Context) (statemachine.Stats, error)
	// Pools lists the quick-pairing pools with players waiting (for metrics).
	Pools(ctx context.Context) ([]statemachine.PoolInfo, error)
	// Reconfigure changes hub behaviour and limits on the running loop.
	Reconfigure(ctx context.Context, f func(*Config)) error
}
