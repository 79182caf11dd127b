package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
)

// A node trusts the log it follows only while it is the log it applied.
// NATS restarted on an older copy of its store (what replicas 1 gives after
// a disk loss or a restore) ends the stream before entries the nodes
// applied, and numbers the next appends as those: a node that went on would
// apply a different world under the same numbers. So a node checks the
// stream whenever its link comes back, and at every heartbeat:
//
//   - the stream's creation time is the one it joined (a stream made again
//     is another log);
//   - the stream reaches the last entry it applied, and that entry there has
//     the bytes it applied (a forked log differs there);
//   - when the stream ends before it, the node puts the entries it applied
//     and still keeps back, each appended only where the stream ends right
//     before it (so nodes putting back the same tail at once, or a new
//     append, cannot double or reorder one), with its first message id (so
//     a batch whose append is retried is not doubled either).
//
// A node whose link came back takes no entry and appends nothing until the
// check passed, and then waits (up to NodeTTL) until the stream holds what
// every live node says it applied, so that no node appends after a shorter
// tail than another node puts back. A log it cannot trust (forked, made
// again, or missing more than the node keeps) makes it stop: not ready,
// and Errors says why (the daemon exits, to start again from the store).

// afterConsume, when set, runs once a check of the log has started a new
// consumer, before the check ends: tests make that moment long, as a busy
// machine may.
var afterConsume func()

// checkTimeout bounds one check of the log (putting entries back has its
// own time).
const checkTimeout = 2 * time.Second

// tailKeep bounds the bytes of applied entries a node keeps to put back.
const tailKeep = 64 << 20

// tailEntry is an applied entry of the log.
type tailEntry struct {
	seq  uint64
	data []byte
	id   string // its message id (duplicate detection), "" if none
}

// keep remembers an applied entry (n.mu held).
func (n *Node) keep(e tailEntry) {
	n.tail = append(n.tail, e)
	n.tailBytes += len(e.data)
	if n.tailBytes <= tailKeep {
		return
	}
	i := 0 // drop a quarter at a time: the copy below is not paid per entry
	for n.tailBytes > tailKeep*3/4 && i < len(n.tail)-1 {
		n.tailBytes -= len(n.tail[i].data)
		i++
	}
	if i > 0 {
		n.tail = append(n.tail[:0], n.tail[i:]...)
	}
}

// kept is the applied entry seq, if still kept (n.mu held).
func (n *Node) kept(seq uint64) (tailEntry, bool) {
	if len(n.tail) == 0 || seq < n.tail[0].seq || seq > n.tail[len(n.tail)-1].seq {
		return tailEntry{}, false
	}
	e := n.tail[seq-n.tail[0].seq] // consecutive: entries are taken in order, without gaps
	return e, e.seq == seq
}

// checkLog asks for the log to be checked now.
func (n *Node) checkLog() {
	select {
	case n.vkick <- struct{}{}:
	default:
	}
}

// awaitTrust waits until the log is known to be the one this node applied
// (false: the node is closing).
func (n *Node) awaitTrust() bool {
	for {
		n.mu.Lock()
		ok := n.untrusted == nil && n.nc.Stats().Reconnects == n.vrc
		ch := n.vdone
		n.mu.Unlock()
		if ok {
			return true
		}
		n.checkLog()
		select {
		case <-ch:
		case <-n.ctx.Done():
			return false
		}
	}
}

// checked ends a check: those waiting look again.
func (n *Node) checked() {
	n.mu.Lock()
	close(n.vdone)
	n.vdone = make(chan struct{})
	n.mu.Unlock()
}

// verifier checks the log when asked and at every heartbeat.
func (n *Node) verifier() {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-n.vkick:
		case <-t.C:
		}
		if n.isUntrusted() || !n.nc.IsConnected() {
			continue
		}
		rc := n.nc.Stats().Reconnects
		// short: a request sent while a NATS cluster elects a leader gets
		// no answer, and the next try after it does
		ctx, cancel := context.WithTimeout(n.ctx, checkTimeout)
		err := n.verify(ctx, rc)
		cancel()
		var bad untrustedError
		switch {
		case errors.As(err, &bad):
			n.distrust(bad.error)
		case err != nil && n.ctx.Err() == nil:
			n.log.Warn("checking the log failed; trying again", zap.Error(err))
			select { // NATS is busy or electing: not at every kick
			case <-time.After(n.cfg.Heartbeat):
			case <-n.ctx.Done():
				return
			}
		}
	}
}

// untrustedError is a log this node cannot follow.
type untrustedError struct{ error }

func untrusted(format string, a ...any) error {
	return untrustedError{fmt.Errorf("cluster: the shared log is not the one this node applied: "+format, a...)}
}

// distrust stops the node following a log it cannot trust.
func (n *Node) distrust(err error) {
	n.mu.Lock()
	first := n.untrusted == nil
	if first {
		n.untrusted = err
	}
	n.synced.Broadcast()
	n.mu.Unlock()
	n.checked()
	if first {
		n.log.Error("this node stops serving the world: it applies nothing more and appends nothing more", zap.Error(err))
		n.Fail(err)
	}
}

// verify checks the stream against what this node applied, puts back what
// it lost, and (when the link came back: rc is not what it was checked at)
// starts taking entries again.
func (n *Node) verify(ctx context.Context, rc uint64) error {
	info, err := n.stream.Info(ctx)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return untrusted("the stream %s is gone", StreamName(n.cfg.World))
	}
	if err != nil {
		return fmt.Errorf("stream info: %w", err)
	}
	if !info.Created.Equal(n.created) {
		return untrusted("the stream was made again at %s (this node joined the one made at %s)", info.Created.Format(time.RFC3339Nano), n.created.Format(time.RFC3339Nano))
	}
	n.mu.Lock()
	last := n.last
	mine, have := n.kept(last)
	fresh := rc != n.vrc
	n.mu.Unlock()
	end := info.State.LastSeq
	switch {
	case end < last:
		put, err := n.restore(ctx, end, last)
		if err != nil {
			return err
		}
		if put > 0 {
			fresh = true // wait for the others' tails before appending
		}
	case last > 0 && have:
		if err := n.sameAt(ctx, mine); err != nil {
			return err
		}
	}
	if !fresh {
		return nil
	}
	if err := n.awaitTails(ctx); err != nil {
		return err
	}
	if err := n.ensureIncarnation(ctx); err != nil {
		return err
	}
	if err := n.consume(ctx, rc); err != nil {
		return err
	}
	if afterConsume != nil {
		afterConsume()
	}
	n.checked()
	n.poke()
	return nil
}

// sameAt checks that the stream holds entry e as this node applied it.
func (n *Node) sameAt(ctx context.Context, e tailEntry) error {
	m, err := n.stream.GetMsg(ctx, e.seq)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return nil // dropped after a snapshot: nothing says it changed
	case err != nil:
		return fmt.Errorf("reading entry %d: %w", e.seq, err)
	case !bytes.Equal(m.Data, e.data):
		return untrusted("entry %d differs from the one applied (the log forked)", e.seq)
	}
	return nil
}

// restore appends the applied entries after end through last back to a
// stream that lost them, and says how many it appended. A replica's view
// of the stream may lag its leader: entries the stream still holds are
// found by their message ids and not appended again.
func (n *Node) restore(ctx context.Context, end, last uint64) (int, error) {
	n.mu.Lock()
	at, haveEnd := n.kept(end)
	var back []tailEntry
	for seq := end + 1; seq <= last; seq++ {
		e, ok := n.kept(seq)
		if !ok {
			n.mu.Unlock()
			return 0, untrusted("the log ends at entry %d, this node applied up to %d and keeps entries from %d only", end, last, n.tail[0].seq)
		}
		back = append(back, e)
	}
	n.mu.Unlock()
	if haveEnd {
		if err := n.sameAt(ctx, at); err != nil {
			return 0, err
		}
	}
	ctx, cancel := context.WithTimeout(n.ctx, checkTimeout+time.Duration(len(back))*time.Millisecond)
	defer cancel()
	put := 0
	for _, e := range back {
		h := nats.Header{}
		if e.id != "" {
			h.Set(jetstream.MsgIDHeader, e.id)
		}
		ack, err := n.js.PublishMsg(ctx, &nats.Msg{Subject: n.subj, Data: e.data, Header: h}, jetstream.WithExpectLastSequence(e.seq-1))
		switch {
		case err == nil && ack.Sequence != e.seq:
			return put, untrusted("entry %d is in the log as entry %d", e.seq, ack.Sequence)
		case err == nil && !ack.Duplicate:
			if put == 0 {
				n.stats.rollbacks.Add(1)
				n.log.Warn("the shared log ended before entries this node applied (NATS restarted on an older store?): putting them back",
					zap.Uint64("log_ended_at", e.seq-1), zap.Uint64("applied", last))
			}
			put++
			continue
		case err == nil:
			continue // still there
		}
		// another node put it back first, or the log went on without it
		m, gerr := n.stream.GetMsg(ctx, e.seq)
		switch {
		case gerr != nil:
			return put, fmt.Errorf("putting entry %d back: %w (and reading it: %w)", e.seq, err, gerr)
		case !bytes.Equal(m.Data, e.data):
			return put, untrusted("entry %d differs from the one applied (the log went on without the entries it lost)", e.seq)
		}
	}
	if put == 0 {
		return 0, nil // a lagging view of the stream: nothing was lost
	}
	n.stats.restored.Add(uint64(put))
	n.mu.Lock()
	n.prevSnap = 0 // the snapshot store may have gone back too: drop no log before a new one
	n.mu.Unlock()
	n.log.Warn("put back the entries the shared log had lost", zap.Uint64("from", end+1), zap.Uint64("through", last), zap.Int("appended_by_this_node", put))
	return put, nil
}

// awaitTails waits until the stream holds every entry a live node says it
// applied (they are putting them back), for up to NodeTTL.
func (n *Node) awaitTails(ctx context.Context) error {
	deadline := time.Now().Add(n.cfg.NodeTTL)
	for {
		var want uint64
		n.mu.Lock()
		now := time.Now()
		for inc, p := range n.pos {
			if t, ok := n.seen[inc]; ok && now.Sub(t) < n.cfg.NodeTTL && inc != n.inc.Load() {
				want = max(want, p)
			}
		}
		n.mu.Unlock()
		info, err := n.stream.Info(ctx)
		if err != nil {
			return fmt.Errorf("stream info: %w", err)
		}
		if info.State.LastSeq >= want || time.Now().After(deadline) {
			return nil
		}
		select {
		case <-time.After(50 * time.Millisecond): // another node's appends: nothing to wait on but the stream
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ensureIncarnation keeps the next incarnation past every one this node
// knows: a store gone back would hand out a number in use.
func (n *Node) ensureIncarnation(ctx context.Context) error {
	n.mu.Lock()
	top := n.inc.Load()
	for inc := range n.seen {
		top = max(top, inc)
	}
	n.mu.Unlock()
	for range 10 {
		e, err := n.meta.Get(ctx, "incarnation")
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			if _, err := n.meta.Create(ctx, "incarnation", []byte(strconv.FormatUint(uint64(top)+1, 10))); err == nil {
				return nil
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("incarnation: %w", err)
		}
		v, err := strconv.ParseUint(string(e.Value()), 10, 32)
		if err != nil || v > uint64(top) {
			return nil
		}
		if _, err := n.meta.Update(ctx, "incarnation", []byte(strconv.FormatUint(uint64(top)+1, 10)), e.Revision()); err == nil {
			return nil
		}
	}
	return nil
}
