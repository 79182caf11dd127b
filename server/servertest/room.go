package servertest

import (
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/bomber/bot"
	"github.com/bomber-game/bomber/segment"
)

// Player is a person at a table: package ext's client over a real
// connection to one server, moving at random when it is its turn, and
// reconnecting (which logs in again and resumes its seat) when told to.
type Player struct {
	Name string
	// Idle: the player never moves (its turn clock runs out)
	Idle   bool
	C      *ext.Client // its client's state
	NC     net.Conn    // its connection; nil while it has none
	gen    int         // which connection a message came on
	sentAt int         // moves known when this player last moved (-1: none pending)
	events []ext.Event
}

type received struct {
	p   *Player
	gen int
	seg segment.Segment
	err error
}

// Room pumps its players' messages on the test's goroutine.
type Room struct {
	// Hold stops the players moving once their game has this many moves
	// (0: they play on to the end).
	Hold int
	// Password is the players' password ("": the demo accounts' 123).
	Password string
	t        testing.TB
	in       chan received
	players  []*Player
	rng      *rand.Rand
}

// NewRoom returns a room with no players.
func NewRoom(t testing.TB) *Room {
	return &Room{t: t, in: make(chan received, 4096), rng: rand.New(rand.NewPCG(7, 11))}
}

// Join connects a new player to addr and logs it in.
func (r *Room) Join(name, addr string) *Player {
	p := &Player{Name: name, C: ext.New(), sentAt: -1}
	r.players = append(r.players, p)
	r.connect(p, addr)
	pw := r.Password
	if pw == "" {
		pw = "123"
	}
	o, err := p.C.Login(name, pw)
	r.do(p, o, err)
	r.Until("logged in "+name, func() bool { return p.C.State() == ext.Lobby })
	return p
}

// connect gives p a new connection to addr.
func (r *Room) connect(p *Player, addr string) {
	r.t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { nc.Close() })
	p.NC = nc
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
	r.write(p, p.C.Connected())
}

// Reconnect moves p to addr: a new connection, a new login, its seat back.
func (r *Room) Reconnect(p *Player, addr string) {
	if p.NC != nil {
		p.NC.Close()
		p.NC = nil
		r.write(p, p.C.Disconnected())
	}
	p.sentAt = -1
	r.connect(p, addr)
}

func (r *Room) write(p *Player, o ext.Out) {
	p.events = append(p.events, o.Events...)
	if p.NC == nil || len(o.Send) == 0 {
		return
	}
	var b []byte
	for _, s := range o.Send {
		b = s.AppendTo(b)
	}
	p.NC.Write(b) // a write to a dead node fails; its reader reports that
}

func (r *Room) do(p *Player, o ext.Out, err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatalf("%s: %v", p.Name, err)
	}
	r.write(p, o)
}

// Call sends what f asks p's client to send.
func (r *Room) Call(p *Player, f func() (ext.Out, error)) {
	r.t.Helper()
	o, err := f()
	r.do(p, o, err)
}

// Until pumps messages (and plays the players' turns) until cond holds,
// for at most 30 s.
func (r *Room) Until(what string, cond func() bool) {
	r.t.Helper()
	r.UntilWithin(30*time.Second, what, cond)
}

// UntilWithin is Until for at most d, for what waits on something slower
// than the server (a NATS cluster electing leaders).
func (r *Room) UntilWithin(d time.Duration, what string, cond func() bool) {
	r.t.Helper()
	timeout := time.After(d)
	for !cond() {
		select {
		case m := <-r.in:
			r.take(m)
		case <-timeout:
			for _, p := range r.players {
				moves, game, waiting := -1, "", false
				if g := p.C.Game(); g != nil {
					moves, game, waiting = len(g.Moves), g.Spec.Name, g.Replica() != nil && g.Replica().Waiting()
				}
				var notes []string
				for _, e := range p.events {
					if e.Kind == ext.EvProtocol {
						notes = append(notes, e.Text)
					}
				}
				r.t.Logf("%s: state %v seat %d, %s %d moves (my turn %v, copy of the game %v, waiting for a die %v, sent at %d), errors %v, protocol notes %q",
					p.Name, p.C.State(), p.C.Seat(), game, moves, p.C.MyTurn(), p.C.Game() != nil && p.C.Game().Replica() != nil, waiting, p.sentAt, p.C.Errors, notes)
			}
			r.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// During pumps messages (and plays the players' turns) for d, calling each
// after every message and at the end: a fault that lasts d, whatever the
// players are doing (Until looks at its condition only when a message
// comes, and players that hold still send none).
func (r *Room) During(d time.Duration, each func()) {
	end := time.After(d)
	for {
		select {
		case m := <-r.in:
			r.take(m)
			each()
		case <-end:
			each()
			return
		}
	}
}

// take gives a player what its connection delivered.
func (r *Room) take(m received) {
	if m.gen != m.p.gen {
		return // an old connection's last words
	}
	if m.err != nil {
		m.p.NC = nil
		r.write(m.p, m.p.C.Disconnected())
		return
	}
	r.write(m.p, m.p.C.Receive(m.seg))
	r.play()
}

// play makes every connected player whose turn it is move at random.
func (r *Room) play() {
	for _, p := range r.players {
		g := p.C.Game()
		if p.Idle || p.NC == nil || g == nil || g.Over() || !p.C.MyTurn() || p.sentAt == position(g) || r.Hold > 0 && len(g.Moves) >= r.Hold {
			continue
		}
		var m rules.Move
		if g.Spec.Name == bomberName {
			var ok bool
			if m, ok = r.bomberMove(p, g); !ok {
				continue
			}
		} else {
			legal := g.Legal(p.C.Seat())
			if len(legal) == 0 {
				continue
			}
			m = legal[r.rng.IntN(len(legal))]
		}
		p.sentAt = position(g)
		o, err := p.C.Move(m)
		if err == nil {
			r.write(p, o)
		}
	}
}

// position tells the points of a game a player moves at apart: the moves
// it has seen, and for Bomber the phase too (the other seat's board is
// secret: its placing adds no move, but starts the guessing).
func position(g *ext.Game) int {
	n := len(g.Moves)
	if g.Spec.Name == bomberName && len(g.View.Extra) > 0 {
		n += int(g.View.Extra[0]) << 16
	}
	return n
}

// bomberMove is p's move in Bomber, which its client cannot list (the
// boards are secret, so it keeps no copy of the game; it reads the Views):
// a random board while drawing, then a single guess at a cell of the other
// seat's grid the View shows nothing of (bomber's View layout).
func (r *Room) bomberMove(p *Player, g *ext.Game) (rules.Move, bool) {
	v, seat := g.View, p.C.Seat()
	if len(v.Extra) < 2 || len(v.Cells) < 2*100 || seat < 0 || seat > 1 {
		return rules.Move{}, false
	}
	switch v.Extra[0] {
	case 0: // drawing
		return bomber.BoardMove(bot.RandomBoard(r.rng)), true
	case 1: // guessing
		var free []bomber.Cell
		for i, c := range v.Cells[(1-seat)*100 : (2-seat)*100] {
			if c == 0 {
				free = append(free, bomber.CellAt(i/10, i%10))
			}
		}
		if len(free) > 0 {
			return bomber.SingleMove(free[r.rng.IntN(len(free))]), true
		}
	}
	return rules.Move{}, false
}

// Saw lists the events of kind p's client has shown.
func (p *Player) Saw(kind ext.EventKind) []ext.Event {
	var out []ext.Event
	for _, e := range p.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Resumed reports whether p resumed a seat.
func (r *Room) Resumed(p *Player) bool {
	for _, e := range p.events {
		if e.Kind == ext.EvResumed {
			return true
		}
	}
	return false
}

// StartCheckers seats a and b at a new checkers table and starts the game.
func (r *Room) StartCheckers(a, b *Player) { r.StartTable(a, b, "checkers", nil) }

// StartTable seats a and b at a new two-seat table of game with opts and
// starts the game. The players move at random among the legal moves
// their client lists, or in Bomber (whose secret boards no client lists)
// place a random board and then guess cells at random.
func (r *Room) StartTable(a, b *Player, game string, opts []segment.KV) {
	r.Call(a, func() (ext.Out, error) { return a.C.Create(game, 2, 0, opts) })
	r.Until("the table", func() bool { return a.C.Table() != nil && a.C.Seat() == 0 })
	r.Call(b, func() (ext.Out, error) { return b.C.Join(a.C.Table().ID, segment.SeatAny, "") })
	r.Until("the second seat", func() bool { return b.C.Seat() == 1 && b.C.Resumable() })
	r.Call(a, func() (ext.Out, error) { return a.C.Ready() })
	r.Call(b, func() (ext.Out, error) { return b.C.Ready() })
	r.Until("the start", func() bool { return a.C.Game() != nil && b.C.Game() != nil && len(a.C.Game().Moves) > 0 })
}

// Over holds once every one of ps saw its game end.
func Over(ps ...*Player) func() bool {
	return func() bool {
		for _, p := range ps {
			if p.C.Game() == nil || !p.C.Game().Over() {
				return false
			}
		}
		return true
	}
}

// Moves holds once p saw n moves (or the end).
func Moves(p *Player, n int) func() bool {
	return func() bool { return p.C.Game() != nil && (len(p.C.Game().Moves) >= n || p.C.Game().Over()) }
}

// bomberName is Bomber's name in the catalogue.
var bomberName = bomber.Spec().Name
