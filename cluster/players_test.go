package cluster

import (
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
)

// player is a person at a table: package ext's client over a real
// connection to one node, moving at random when it is its turn, and
// reconnecting (which logs in again and resumes its seat) when told to.
type player struct {
	name   string
	c      *ext.Client
	nc     net.Conn
	gen    int // which connection a message came on
	sentAt int // moves known when this player last moved (-1: none pending)
	events []ext.Event
}

type received struct {
	p   *player
	gen int
	seg segment.Segment
	err error
}

// room pumps the players' messages on the test's goroutine.
type room struct {
	t       *testing.T
	in      chan received
	players []*player
	rng     *rand.Rand
}

func newRoom(t *testing.T) *room {
	return &room{t: t, in: make(chan received, 4096), rng: rand.New(rand.NewPCG(7, 11))}
}

// join connects a new player to addr and logs it in.
func (r *room) join(name, addr string) *player {
	p := &player{name: name, c: ext.New(), sentAt: -1}
	r.players = append(r.players, p)
	r.connect(p, addr)
	o, err := p.c.Login(name, "123")
	r.do(p, o, err)
	r.until("logged in "+name, func() bool { return p.c.State() == ext.Lobby })
	return p
}

// connect gives p a new connection to addr.
func (r *room) connect(p *player, addr string) {
	r.t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { nc.Close() })
	p.nc = nc
	p.gen++
	gen := p.gen
	go func() {
		var d segment.Decoder
		d.SetDialect(segment.DialectExtended)
		for {
			n, err := nc.Read(d.Free())
			if err != nil {
				r.in <- received{p: p, gen: gen, err: err}
				return
			}
			d.Commit(n)
			for {
				s, ok, err := d.Next()
				if err != nil {
					r.in <- received{p: p, gen: gen, err: err}
					return
				}
				if !ok {
					break
				}
				r.in <- received{p: p, gen: gen, seg: s}
			}
		}
	}()
	r.write(p, p.c.Connected())
}

// reconnect moves p to addr: a new connection, a new login, its seat back.
func (r *room) reconnect(p *player, addr string) {
	if p.nc != nil {
		p.nc.Close()
		p.nc = nil
		r.write(p, p.c.Disconnected())
	}
	p.sentAt = -1
	r.connect(p, addr)
}

func (r *room) write(p *player, o ext.Out) {
	p.events = append(p.events, o.Events...)
	if p.nc == nil || len(o.Send) == 0 {
		return
	}
	var b []byte
	for _, s := range o.Send {
		b = s.AppendTo(b)
	}
	p.nc.Write(b) // a write to a dead node fails; its reader reports that
}

func (r *room) do(p *player, o ext.Out, err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatalf("%s: %v", p.name, err)
	}
	r.write(p, o)
}

func (r *room) call(p *player, f func() (ext.Out, error)) {
	r.t.Helper()
	o, err := f()
	r.do(p, o, err)
}

// until pumps messages (and plays the players' turns) until cond holds.
func (r *room) until(what string, cond func() bool) {
	r.t.Helper()
	timeout := time.After(30 * time.Second)
	for !cond() {
		select {
		case m := <-r.in:
			if m.gen != m.p.gen {
				continue // an old connection's last words
			}
			if m.err != nil {
				m.p.nc = nil
				r.write(m.p, m.p.c.Disconnected())
				continue
			}
			r.write(m.p, m.p.c.Receive(m.seg))
			r.play()
		case <-timeout:
			for _, p := range r.players {
				r.t.Logf("%s: state %v seat %d errors %v", p.name, p.c.State(), p.c.Seat(), p.c.Errors)
			}
			r.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// play makes every connected player whose turn it is move at random.
func (r *room) play() {
	for _, p := range r.players {
		g := p.c.Game()
		if p.nc == nil || g == nil || g.Over() || !p.c.MyTurn() || p.sentAt == len(g.Moves) {
			continue
		}
		legal := g.Legal(p.c.Seat())
		if len(legal) == 0 {
			continue
		}
		p.sentAt = len(g.Moves)
		o, err := p.c.Move(legal[r.rng.IntN(len(legal))])
		if err == nil {
			r.write(p, o)
		}
	}
}

func (r *room) resumed(p *player) bool {
	for _, e := range p.events {
		if e.Kind == ext.EvResumed {
			return true
		}
	}
	return false
}

// startCheckers seats a and b at a new checkers table and starts the game.
func (r *room) startCheckers(a, b *player) {
	r.call(a, func() (ext.Out, error) { return a.c.Create("checkers", 2, 0, nil) })
	r.until("the table", func() bool { return a.c.Table() != nil && a.c.Seat() == 0 })
	r.call(b, func() (ext.Out, error) { return b.c.Join(a.c.Table().ID, segment.SeatAny, "") })
	r.until("the second seat", func() bool { return b.c.Seat() == 1 && b.c.Resumable() })
	r.call(a, func() (ext.Out, error) { return a.c.Ready() })
	r.call(b, func() (ext.Out, error) { return b.c.Ready() })
	r.until("the start", func() bool { return a.c.Game() != nil && b.c.Game() != nil && len(a.c.Game().Moves) > 0 })
}

func over(ps ...*player) func() bool {
	return func() bool {
		for _, p := range ps {
			if p.c.Game() == nil || !p.c.Game().Over() {
				return false
			}
		}
		return true
	}
}

func moves(p *player, n int) func() bool {
	return func() bool { return p.c.Game() != nil && (len(p.c.Game().Moves) >= n || p.c.Game().Over()) }
}
