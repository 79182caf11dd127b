package server

import (
	"context"

	"github.com/bomber-game/bomber/statemachine"
)

// door is how other goroutines reach a transport's engine goroutine: the
// connection goroutines of the net transport (and of the reactor's TLS
// listener) post their events through it, and operators' calls (sessions,
// kick, stats, reconfigure) run through it and wait. Both transports embed
// it; only the way their loop is woken differs.
type door struct {
	eng   *engine
	in    chan func()   // functions for the loop to run
	done  chan struct{} // closed when the loop has stopped
	nudge func()        // wakes the loop after a send on in; nil when it selects on in
}

func newDoor(size int, nudge func()) door {
	return door{in: make(chan func(), size), done: make(chan struct{}), nudge: nudge}
}

func (d *door) engine() *engine { return d.eng }

// post runs f on the loop without waiting for it; false once the loop has
// stopped.
func (d *door) post(f func()) bool {
	select {
	case d.in <- f:
		if d.nudge != nil {
			d.nudge()
		}
		return true
	case <-d.done:
		return false
	}
}

// do runs f on the loop and waits for it (or ctx).
func (d *door) do(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	select {
	case d.in <- func() { f(); close(ran) }:
	case <-d.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	if d.nudge != nil {
		d.nudge()
	}
	select {
	case <-ran:
		return nil
	case <-d.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Reconfigure applies new settings on the loop (hub behaviour and limits;
// the worker pool keeps its size).
func (d *door) Reconfigure(ctx context.Context, f func(*Config)) error {
	return d.do(ctx, func() { d.eng.reconfigure(f) })
}

// Sessions implements Transport.
func (d *door) Sessions(ctx context.Context) (out []statemachine.SessionInfo, err error) {
	err = d.do(ctx, func() { out = d.eng.hub.Sessions(nil) })
	return out, err
}

// CountStates implements Transport.
func (d *door) CountStates(ctx context.Context) (n [statemachine.NumStates]int, err error) {
	err = d.do(ctx, func() { n = d.eng.hub.CountStates() })
	return n, err
}

// Kick implements Transport.
func (d *door) Kick(ctx context.Context, user string) (ok bool, err error) {
	err = d.do(ctx, func() { ok = d.eng.kick(user) })
	return ok, err
}

// Pools implements Transport.
func (d *door) Pools(ctx context.Context) (out []statemachine.PoolInfo, err error) {
	err = d.do(ctx, func() { out = d.eng.hub.Pools(nil) })
	return out, err
}

// Stats implements Transport.
func (d *door) Stats(ctx context.Context) (s statemachine.Stats, err error) {
	err = d.do(ctx, func() { s = *d.eng.hub.Stats() })
	return s, err
}
