package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync/atomic"
	"time"

	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// role is what a client does once logged in.
type role uint8

const (
	idle    role = iota // reads and discards everything
	inviter             // invites its partner, guesses first
	invitee             // accepts
)

// game is what the two clients of a pair share: the intended send time of
// the guess in flight and the open-loop schedule. Only the client on turn
// writes them; atomics make the hand-over visible to the other goroutine.
type game struct {
	sent  atomic.Int64 // intended send time of the guess in flight (fleet ns)
	wrote atomic.Int64 // poll loops: when it was written (wall clock ns, as socket timestamps are)
	slot  atomic.Int64 // next intended send time in open loop
	epoch atomic.Int64 // the fleet's rate epoch the slot belongs to
}

// client is one simulated connection. Everything but g is owned by its goroutine.
type client struct {
	f       *Fleet
	i       int
	name    string
	partner string
	mate    *client // the partner, in a game of the fleet's
	role    role
	g       *game
	conn    net.Conn
	rng     *rand.Rand
	dec     segment.Decoder
	buf     []byte
	out     []byte
	mine    bomber.Set // my planes' cells
	theirs  bomber.Set // the opponent's planes' cells
	hits    int        // my hits on the opponent
	hitMe   int        // the opponent's hits on me
	order   [100]uint8 // my guesses this game, a random permutation
	next    int
	playing bool
	pending []byte // read during login, not decoded yet
	invites int    // invitations answered other than "accepted"
	drawn   bool   // relay mode: my Board for the next game is sent
	fd      int    // poll mode: the socket, owned by loop; -1 otherwise
	loop    *poller
	rx      int64 // poll mode: the kernel's receive timestamp of what is being fed (wall clock ns); 0 none
	awaits  bool  // poll mode: the opponent's guess is on its way (poller.awaiting)
	inAwait bool  // poll mode: the socket is in its loop's awaitfd
	// seg is the segment being handled: a handler given a pointer to a
	// local would have it moved to the heap, one allocation per segment,
	// and a storm's presence is millions of segments to the load
	// generator's players (docs/performance.md, "The load generator")
	seg segment.Segment
}

// errStop: the fleet is closing; not a failure.
var errStop = errors.New("stopping")

// run dials, logs in (reporting the outcome on done), then plays its role
// until the connection closes.
func (c *client) run(ctx context.Context, sem chan struct{}, done chan<- error) {
	err := c.login(ctx, sem)
	done <- err
	if err != nil {
		return
	}
	if c.role != idle && c.f.pollers != nil {
		if err := c.f.adopt(c); err == nil {
			return // the poll loop plays from here
		}
	}
	defer c.conn.Close()
	if c.role == idle {
		io.Copy(io.Discard, c.conn)
	} else {
		c.play()
	}
	c.ended()
}

// dialer is how client i connects: from its source address, if the fleet
// has any, with the port left to connect(2) (BindNoPort).
func (f *Fleet) dialer(i int) net.Dialer {
	d := net.Dialer{Timeout: f.cfg.LoginTimeout}
	if src := f.cfg.Sources; len(src) > 0 {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src[i%len(src)])}
		d.Control = BindNoPort
	}
	return d
}

func (c *client) login(ctx context.Context, sem chan struct{}) error {
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-sem }()
	f := c.f
	d := f.dialer(c.i)
	var conn net.Conn
	var err error
	if f.cfg.WS != "" {
		conn, err = DialWS(ctx, f.cfg.WS, &d)
	} else {
		addr := f.cfg.Addr
		if len(f.cfg.Addrs) > 0 { // a cluster: consecutive users (a game's two players) on different nodes
			addr = f.cfg.Addrs[c.i%len(f.cfg.Addrs)]
		}
		conn, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return fmt.Errorf("%s: dial: %w", c.name, err)
	}
	if !f.track(c, conn) {
		conn.Close()
		return errStop
	}
	c.conn = conn
	conn.SetDeadline(time.Now().Add(f.cfg.LoginTimeout))
	if f.cfg.Relay {
		// the relay pairs the two connections that name the same game (the
		// inviter's name) and answers PasswdResp(1): see package bench/relay
		key := c.name
		if c.role == invitee {
			key = c.partner
		}
		c.out = segment.Name(segment.Info, key).AppendTo(c.out[:0])
	} else {
		c.out = segment.Name(segment.Info, c.name).AppendTo(c.out[:0])
		c.out = segment.Name(segment.Passwd, f.cfg.Password).AppendTo(c.out)
	}
	if _, err := conn.Write(c.out); err != nil {
		conn.Close()
		return fmt.Errorf("%s: login: %w", c.name, err)
	}
	c.buf = make([]byte, 4096)
	var result error
	handled := func(seg *segment.Segment) bool {
		code, _ := seg.Code()
		switch {
		case seg.Type == segment.InfoResp && code != 1:
			result = fmt.Errorf("%s: login: InfoResp %d", c.name, code)
		case seg.Type == segment.PasswdResp && code != 1:
			result = fmt.Errorf("%s: login: PasswdResp %d", c.name, code)
		case seg.Type == segment.PasswdResp:
			return false // logged in; what follows is the player's
		default:
			return true
		}
		return false
	}
	for {
		n, err := conn.Read(c.buf)
		rest, ferr := c.feed(c.buf[:n], handled)
		if ferr == nil && result == nil && rest == nil && err == nil {
			continue
		}
		switch {
		case ferr != nil:
			result = fmt.Errorf("%s: login: %w", c.name, ferr)
		case result == nil && rest == nil:
			result = fmt.Errorf("%s: login: %w", c.name, err)
		}
		if result != nil {
			conn.Close()
			return result
		}
		conn.SetDeadline(time.Time{})
		f.st.loggedIn(c.i)
		c.pending = rest
		if c.role == idle {
			c.buf, c.pending = nil, nil
		}
		return nil
	}
}

// ended counts the connection as lost unless the fleet is what ended it.
func (c *client) ended() {
	if !c.f.stopping.Load() {
		c.f.st.lost(c.i)
	}
}

// feed passes data through the decoder and every whole segment to h until
// h returns false; it returns the bytes not yet fed then (nil when all were).
func (c *client) feed(data []byte, h func(*segment.Segment) bool) ([]byte, error) {
	stopped := false
	n, err := c.dec.Feed(data, func(seg segment.Segment) bool {
		c.seg = seg
		stopped = !h(&c.seg)
		return !stopped
	})
	switch {
	case err != nil:
		return nil, err
	case stopped && n < len(data):
		return data[n:], nil
	case stopped:
		return []byte{}, nil // stopped, nothing left: not nil
	}
	return nil, nil
}

// play reads segments and answers them until the connection ends or the
// fleet stops.
func (c *client) play() {
	if c.role == inviter {
		c.invite()
	}
	data := c.pending
	c.pending = nil
	for {
		rest, err := c.feed(data, c.handle)
		if err != nil || rest != nil {
			return
		}
		n, err := c.conn.Read(c.buf)
		if err != nil {
			return
		}
		data = c.buf[:n]
	}
}

// handle answers one segment from the server; false stops the client.
func (c *client) handle(seg *segment.Segment) bool {
	f := c.f
	switch seg.Type {
	case segment.RecvInvit:
		b := f.boards[c.rng.IntN(len(f.boards))]
		c.mine = b.cells
		c.out = segment.Code(segment.InvitResponse, 1).AppendTo(c.out[:0])
		c.out = b.seg.AppendTo(c.out)
		return c.write()
	case segment.InvitResponse:
		if code, _ := seg.Code(); code != 1 {
			// the partner is not idle yet (it has not read its GameOver)
			c.invites++
			if c.loop != nil {
				c.loop.after(f.now()+int64(time.Millisecond), c, timerInvite)
				return true
			}
			time.Sleep(time.Millisecond)
			return c.invite()
		}
		b := f.boards[c.rng.IntN(len(f.boards))]
		c.mine = b.cells
		c.out = b.seg.AppendTo(c.out[:0])
		return c.write()
	case segment.Board:
		cells, err := boardCells(seg)
		if err != nil {
			return false
		}
		if f.cfg.Relay && !c.drawn {
			// the partner has started a game: answer with my board, as the
			// invitee's RecvInvit answer would
			c.out = c.draw(c.out[:0])
			if !c.write() {
				return false
			}
		}
		c.drawn = false // the next game needs a new board
		c.theirs, c.hits, c.hitMe, c.next, c.playing = cells, 0, 0, 0, true
		for i := range c.order {
			c.order[i] = uint8(i)
		}
		for i := len(c.order) - 1; i > 0; i-- {
			j := c.rng.IntN(i + 1)
			c.order[i], c.order[j] = c.order[j], c.order[i]
		}
		if c.role == inviter { // the inviter guesses first
			c.g.epoch.Store(-1) // a new game starts a new schedule
			return c.guess()
		}
	case segment.SingleCoord, segment.DoubleCoord:
		c.answered()
		now := f.now()
		var wire, wake time.Duration
		if w := c.g.wrote.Load(); c.rx > 0 && w > 0 {
			wire, wake = time.Duration(c.rx-w), time.Duration(time.Now().UnixNano()-c.rx)
		}
		f.st.relayed(c.i, time.Duration(now-c.g.sent.Load()), wire, wake, f.recording.Load())
		if co, err := seg.Single(); err == nil && c.mine.Has(bomber.CellAt(int(co.X), int(co.Y))) {
			c.hitMe++
		}
		if c.hitMe < planeCells && c.playing {
			return c.guess()
		}
	case segment.GameOver:
		// the game is over, by a guess or without one (the opponent left):
		// nothing more is awaited
		c.playing, c.drawn = false, false
		c.answered()
		f.st.gameOver(c.i)
		if c.role == inviter {
			return c.invite()
		}
	}
	return true
}

// invite asks the partner for a new game.
func (c *client) invite() bool {
	if c.f.stopping.Load() {
		return false
	}
	c.out = c.appendInvite(c.out[:0])
	return c.write()
}

// appendInvite appends what starts the next game: SendInvit, or with a
// relay (which knows no invitation) my board at once.
func (c *client) appendInvite(out []byte) []byte {
	if c.f.cfg.Relay {
		return c.draw(out)
	}
	return segment.Name(segment.SendInvit, c.partner).AppendTo(out)
}

// draw picks my board for the next game and appends it.
func (c *client) draw(out []byte) []byte {
	b := c.f.boards[c.rng.IntN(len(c.f.boards))]
	c.mine, c.drawn = b.cells, true
	return b.seg.AppendTo(out)
}

// guess sends my next guess: at once in closed loop, at its slot on the
// game's schedule in open loop.
func (c *client) guess() bool {
	f := c.f
	if f.stopping.Load() {
		return false
	}
	now := f.now()
	intended := now
	if iv := f.interval.Load(); iv > 0 {
		ep := f.epoch.Load()
		slot := c.g.slot.Load()
		if c.g.epoch.Load() != ep {
			// a new game or a new rate: start the schedule at a random phase
			slot = now + c.rng.Int64N(iv)
			c.g.epoch.Store(ep)
		}
		intended = slot
		c.g.slot.Store(slot + iv)
		if d := intended - now; d > 0 {
			if c.loop != nil {
				c.loop.after(intended, c, timerGuess)
				return true
			}
			// time.Sleep wakes up to a millisecond late when the runtime
			// waits in epoll_wait (millisecond timeouts): the poll loop's
			// timerfd does not
			time.Sleep(time.Duration(d))
		}
	}
	return c.send(intended)
}

// send writes my next guess, intended at the given fleet time.
func (c *client) send(intended int64) bool {
	f := c.f
	cell := c.order[c.next]
	c.next++
	c.g.sent.Store(intended)
	// open loop: how late the client itself is, apart from the server
	f.st.late(c.i, time.Duration(f.now()-intended), f.recording.Load() && f.interval.Load() > 0)
	c.out = segment.NewSingle(segment.Coord{X: cell / 10, Y: cell % 10}, segment.ASCII).AppendTo(c.out[:0])
	if c.theirs.Has(bomber.Cell(cell)) {
		c.hits++
	}
	if c.hits == planeCells || c.next == len(c.order) {
		// This guess wins. The reference client then sends GameOver, and
		// the reference server (like the relay) only forwards it: without
		// it the loser would wait for the next guess forever. bomberd judges
		// the game itself, tells the loser, and ignores this one.
		c.playing = false
		c.out = segment.Empty(segment.GameOver).AppendTo(c.out)
		if c.role == inviter && !f.stopping.Load() {
			c.out = c.appendInvite(c.out)
		}
	}
	if c.loop == nil {
		return c.write()
	}
	c.g.wrote.Store(time.Now().UnixNano())
	if !c.write() {
		return false
	}
	if m := c.mate; m != nil && m.loop == c.loop && f.awaitOn.Load() {
		c.loop.awaiting(m) // open loop: latency is measured, the answer read first
	}
	return true
}

func (c *client) write() bool {
	if c.loop != nil {
		return c.loop.write(c.fd, c.out) == nil
	}
	_, err := c.conn.Write(c.out)
	return err == nil
}
