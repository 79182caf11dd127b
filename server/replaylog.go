package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// ReplayLog is the log of a daemon that replays a capture (bomberd
// --replay-inputs): the world it serves is the recorded one. Of the
// engine's own inputs it keeps only what the connections themselves did
// (opened, sent a segment, closed), which the clients of bomber-replay
// redo over TCP; everything else the hub gets (its settings and seed,
// account answers, computer players' moves, ticks, kicks, the shutdown)
// and the time of every input come from the capture's input log, in its
// order. A connection's input is delivered when the capture reaches it and
// the real connection has done it too, so the hub gets exactly the inputs
// it got when the capture was made, whatever the timing of the sockets,
// and every connection is sent the same bytes.
//
// Connection ids are the engine's (the capture's incarnation, then counted
// up in the order connections are accepted): the replaying clients must
// connect one after another in the capture's order, as bomber-replay does.
// The replaying node does no chores: it asks no computer player and
// writes no game record, and its account checks are not asked of any store
// (the capture's answers are inputs).
type ReplayLog struct {
	Delivery
	log    *zap.Logger
	inputs []recorded // the capture's inputs, in order
	next   int        // the first not delivered
	inc    uint32
	// waiting holds each connection's own inputs that the engine appended
	// and the capture has not reached yet
	waiting  map[statemachine.ConnID][]statemachine.Input
	opened   map[statemachine.ConnID]bool // connections the capture opens
	gone     map[statemachine.ConnID]bool // connections the engine let go of
	batch    []byte
	scratch  statemachine.Input
	failed   error
	finished bool
	done     chan struct{} // closed once every input of the capture is delivered
}

// recorded is one input of the capture and its time.
type recorded struct {
	at    int64
	in    statemachine.Input
	letGo []statemachine.ConnID
}

// ReplayInput is one input of a capture, for a ReplayLog.
type ReplayInput struct {
	// Data is the input's wire form (an "in" line's bytes; its time the
	// offset from 0).
	Data []byte
	// LetGo are the connections the recording daemon's shell had let go
	// of just before this input, the hub not knowing yet (a client that
	// hung up, a connection the shell closed: a capture's "close" line, or
	// a "closed" line of a connection with a closed input): what the hub
	// sent them from there on went nowhere. The replay waits for the
	// replaying daemon's shell to let go of them before it delivers the
	// input, so that they miss the same output.
	LetGo []statemachine.ConnID
}

// ErrReplayDiverged: a connection did something else than the capture
// says it did at that point.
var ErrReplayDiverged = errors.New("replay: a connection differs from the capture")

// NewReplayLog makes the log of a replay from a capture's inputs, in the
// capture's order.
func NewReplayLog(inputs []ReplayInput, log *zap.Logger) (*ReplayLog, error) {
	if log == nil {
		log = zap.NewNop()
	}
	l := &ReplayLog{log: log, waiting: map[statemachine.ConnID][]statemachine.Input{},
		opened: map[statemachine.ConnID]bool{}, gone: map[statemachine.ConnID]bool{}, done: make(chan struct{})}
	first := true
	for i, ri := range inputs {
		r := recorded{letGo: ri.LetGo}
		at, rest, err := statemachine.ReadInput(ri.Data, &r.in)
		if err == nil && len(rest) > 0 {
			err = fmt.Errorf("%w: %d bytes after the input", statemachine.ErrInput, len(rest))
		}
		if err != nil {
			return nil, fmt.Errorf("input %d: %w", i+1, err)
		}
		r.at = at
		if r.in.Kind == statemachine.InOpen {
			if inc := statemachine.NodeOf(r.in.Conn); first {
				l.inc, first = inc, false
			} else if inc != l.inc {
				return nil, fmt.Errorf("input %d: connection %d of another start of the daemon (a capture across a restart cannot be replayed over TCP)", i+1, r.in.Conn)
			}
			l.opened[r.in.Conn] = true
		}
		l.inputs = append(l.inputs, r)
	}
	if len(l.inputs) == 0 {
		return nil, errors.New("replay: the capture has no inputs (\"in\" lines)")
	}
	return l, nil
}

// Done is closed once every input of the capture has been delivered.
func (l *ReplayLog) Done() <-chan struct{} { return l.done }

// Err is why the replay stopped before the end of the capture (nil while
// it goes on or once it is done).
func (l *ReplayLog) Err() error { return l.failed }

// Incarnation is the capture's: the connections get the ids they had.
func (l *ReplayLog) Incarnation() uint32 { return l.inc }

// Renew keeps the incarnation (no other node exists to declare this one gone).
func (l *ReplayLog) Renew() (uint32, error) { return l.inc, nil }

// Notify is not needed: entries are delivered during Append, on the
// engine's goroutine.
func (*ReplayLog) Notify(func()) {}

// Leader is false: the capture holds the leader's chores (ticks); a
// replay writes no game record.
func (*ReplayLog) Leader() bool { return false }

// Replays is true: the capture holds every node's chores (computer
// players' moves too), so the replaying node does none.
func (*ReplayLog) Replays() bool { return true }

// Alive is true for every incarnation: only a leader asks.
func (*ReplayLog) Alive(uint32) bool { return true }

// Claim never lets the replay write a record.
func (*ReplayLog) Claim(context.Context, string) (bool, error) { return false, nil }

// Sync has nothing to wait for.
func (*ReplayLog) Sync(context.Context) error { return nil }

// Snapshot: a replay starts from an empty world, as the capture did.
func (*ReplayLog) Snapshot() (uint64, []byte) { return 0, nil }

// SnapshotEvery is 0: a replay keeps no snapshot.
func (*ReplayLog) SnapshotEvery() uint64 { return 0 }

// SaveSnapshot does nothing.
func (*ReplayLog) SaveSnapshot(uint64, []byte) {}

// Fail logs why the engine cannot go on.
func (l *ReplayLog) Fail(err error) { l.log.Error("replay: the engine failed", zap.Error(err)) }

// Append takes the connections' own inputs out of one of the engine's
// batches (the rest the capture gives) and delivers what the capture
// allows now.
func (l *ReplayLog) Append(batch []byte) {
	err := statemachine.ReadBatch(batch, &l.scratch, func(_ int64, in *statemachine.Input) {
		switch in.Kind {
		case statemachine.InOpen, statemachine.InReceive, statemachine.InClosed:
		default:
			return
		}
		if !l.opened[in.Conn] {
			if in.Kind == statemachine.InOpen {
				l.log.Warn("replay: a connection the capture does not have; its inputs are ignored", zap.Uint64("conn", uint64(in.Conn)))
			}
			return
		}
		if in.Kind == statemachine.InClosed {
			l.gone[in.Conn] = true
		}
		l.waiting[in.Conn] = append(l.waiting[in.Conn], *in) // a copy: the segment is inline
	})
	if err != nil {
		l.log.Error("replay: an unreadable batch from the engine", zap.Error(err))
	}
	l.advance()
}

// advance delivers the capture's inputs in order, as far as the
// connections have caught up, as one entry.
func (l *ReplayLog) advance() {
	if l.failed != nil || l.finished {
		return
	}
	l.batch = l.batch[:0]
	var base int64
loop:
	for ; l.next < len(l.inputs); l.next++ {
		r := &l.inputs[l.next]
		for _, c := range r.letGo {
			if !l.gone[c] {
				break loop // the shell still has it: it would get output it did not get
			}
		}
		switch r.in.Kind {
		case statemachine.InOpen, statemachine.InReceive, statemachine.InClosed:
			q := l.waiting[r.in.Conn]
			if len(q) == 0 {
				break loop // the connection has not got there yet
			}
			if !sameAct(&q[0], &r.in) {
				l.failed = fmt.Errorf("%w: input %d of the capture is %s on connection %d, the connection did %s",
					ErrReplayDiverged, l.next+1, describe(&r.in), r.in.Conn, describe(&q[0]))
				l.log.Error("replay stopped", zap.Error(l.failed))
				break loop
			}
			if len(q) == 1 {
				delete(l.waiting, r.in.Conn)
			} else {
				l.waiting[r.in.Conn] = q[1:]
			}
		}
		if len(l.batch) == 0 {
			base = r.at
			l.batch = statemachine.AppendBatchHeader(l.batch, l.inc, base)
		}
		l.batch = statemachine.AppendInput(l.batch, r.at-base, &r.in)
	}
	if len(l.batch) > 0 {
		l.Add(l.batch)
	}
	if l.next == len(l.inputs) {
		l.log.Info("replay: every input of the capture delivered", zap.Int("inputs", len(l.inputs)))
		close(l.done)
		l.finished = true
	}
}

// sameAct reports whether a connection's input is the one the capture
// has: the same kind and, for a segment, the same bytes. A password is
// given to the hub as a stand-in the shell numbers as it reads passwords
// (and a capture may mask it): any Passwd segment matches, and the hub
// gets the capture's.
func sameAct(got, want *statemachine.Input) bool {
	if got.Kind != want.Kind {
		return false
	}
	if got.Kind != statemachine.InReceive {
		return true
	}
	if got.Seg.Type == segment.Passwd && want.Seg.Type == segment.Passwd {
		return true
	}
	if got.Seg.Type.Extended() && want.Seg.Type.Extended() && got.Seg.Type.Base() == want.Seg.Type.Base() &&
		(got.Seg.Type.Base() == segment.SignUp || got.Seg.Type.Base() == segment.Account) {
		return true // a SignUp's or an Account message's passwords are stand-ins too
	}
	return got.Seg.Type == want.Seg.Type && bytes.Equal(got.Seg.Payload(), want.Seg.Payload())
}

func describe(in *statemachine.Input) string {
	if in.Kind == statemachine.InReceive {
		return fmt.Sprintf("receive of segment type 0x%02x (%d bytes)", byte(in.Seg.Type), len(in.Seg.Payload()))
	}
	return in.Kind.String()
}
