// Package replay drives a statemachine.Hub in-process with the client side
// of a transcript and records what the server side actually does, so a
// transcript can be checked without sockets, a database or a clock.
package replay

import (
	"context"
	"net/netip"
	"strings"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
)

// Accounts is the account store a replay answers checks from: user name to
// password.
type Accounts map[string]string

// DemoAccounts are seed 003's demo users, all with password 123.
func DemoAccounts() Accounts {
	a := Accounts{}
	for _, n := range []string{"Novate", "Twofyw", "Larry", "Albert", "Beth", "Cindy"} {
		a[n] = "123"
	}
	return a
}

type conn struct {
	id  statemachine.ConnID
	dec segment.Decoder
}

// Runner replays transcripts through one hub.
type Runner struct {
	hub      *statemachine.Hub
	accounts Accounts
	now      time.Duration
	down     bool
	next     statemachine.ConnID
	conns    map[string]*conn
	names    map[statemachine.ConnID]string
	out      []transcript.Entry
	// PlayBots makes the runner answer the hub's bot requests itself (and
	// write the moves down as bot lines); otherwise the bot lines of the
	// transcript being replayed answer them.
	PlayBots bool
	records  []record.Game
}

// Records returns the games the hub asked to record so far.
func (r *Runner) Records() []record.Game { return r.records }

// Output returns the transcript of what happened so far.
func (r *Runner) Output() []transcript.Entry { return r.out }

// New returns a runner over a fresh hub.
func New(cfg statemachine.Config, accounts Accounts) *Runner {
	return &Runner{
		hub:      statemachine.New(cfg),
		accounts: accounts,
		conns:    make(map[string]*conn),
		names:    make(map[statemachine.ConnID]string),
	}
}

// Hub exposes the hub, for invariant checks.
func (r *Runner) Hub() *statemachine.Hub { return r.hub }

// Run replays the client side of entries ('>' bytes, open, close, clock,
// store) and returns the transcript of what happened: the same inputs with
// the server's actual answers ('<' and closed lines) after each. Recorded
// '<' and 'closed' lines in entries are expectations and are not fed.
func Run(cfg statemachine.Config, accounts Accounts, entries []transcript.Entry) []transcript.Entry {
	r := New(cfg, accounts)
	for _, e := range entries {
		r.Feed(e)
	}
	return r.out
}

// Feed replays one entry and appends it and its consequences to the output.
func (r *Runner) Feed(e transcript.Entry) {
	now := int64(r.now)
	switch e.Op {
	case transcript.Recv, transcript.Closed:
		return
	case transcript.Note:
		r.out = append(r.out, e)
		return
	case transcript.Clock:
		r.out = append(r.out, e)
		r.now += e.Advance
		r.hub.Tick(int64(r.now))
	case transcript.Bot:
		r.out = append(r.out, e)
		r.hub.BotMove(now, statemachine.BotAnswer{Table: e.Bot.Table, Seat: rules.Player(e.Bot.Seat), Seq: e.Bot.Seq, Move: e.Bot.Move})
	case transcript.StoreDown, transcript.StoreUp:
		r.out = append(r.out, e)
		r.down = e.Op == transcript.StoreDown
	case transcript.Open:
		r.out = append(r.out, e)
		r.next++
		c := &conn{id: r.next}
		r.conns[e.Conn] = c
		r.names[c.id] = e.Conn
		r.hub.OpenFrom(now, c.id, SourceOf(e))
	case transcript.Close:
		r.out = append(r.out, e)
		if c := r.conns[e.Conn]; c != nil {
			delete(r.conns, e.Conn)
			r.hub.Closed(now, c.id)
		}
	case transcript.Send:
		r.out = append(r.out, e)
		c := r.conns[e.Conn]
		if c == nil {
			break // the server closed it; the bytes go nowhere
		}
		data := e.Data
		for len(data) > 0 && r.conns[e.Conn] == c {
			n := c.dec.Write(data)
			data = data[n:]
			for r.conns[e.Conn] == c {
				seg, ok, err := c.dec.Next()
				if err != nil {
					// a framing error: the shell closes the connection
					r.closeConn(e.Conn, c)
					r.hub.Closed(now, c.id)
					break
				}
				if !ok {
					break
				}
				r.hub.Receive(now, c.id, seg)
				r.drain(now)
			}
		}
	}
	r.drain(now)
}

// SourceOf is the client address an "open" line names in its comment
// ("from 192.0.2.1:5000", as captures write it), without the port.
func SourceOf(e transcript.Entry) string {
	addr, ok := strings.CutPrefix(e.Comment, "from ")
	if !ok {
		return ""
	}
	addr = strings.Fields(addr)[0]
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		return ap.Addr().String()
	}
	return addr
}

func (r *Runner) closeConn(name string, c *conn) {
	delete(r.conns, name)
	r.out = append(r.out, transcript.Entry{At: -1, Conn: name, Op: transcript.Closed})
}

// drain carries out everything the hub asks for, answering account checks
// at once, until it asks for nothing more.
func (r *Runner) drain(now int64) {
	for {
		rd := r.hub.Ready()
		if rd.Empty() {
			return
		}
		for _, s := range rd.Sends {
			name := r.names[s.Conn]
			if c := r.conns[name]; c == nil || c.id != s.Conn {
				continue // already closed
			}
			r.out = append(r.out, transcript.Entry{At: -1, Conn: name, Op: transcript.Recv, Data: s.Seg.AppendTo(nil)})
		}
		for _, id := range rd.Closes {
			name := r.names[id]
			if c := r.conns[name]; c != nil && c.id == id {
				r.closeConn(name, c)
			}
		}
		r.records = append(r.records, rd.Records...)
		checks := append([]statemachine.Check(nil), rd.Checks...)
		var bots []statemachine.BotRequest
		if r.PlayBots {
			bots = append(bots, rd.Bots...)
		}
		r.hub.Advance()
		for _, c := range checks {
			r.hub.Answer(now, c.ID, r.answer(c))
		}
		for _, b := range bots {
			// the computer answers at once; the answer is written down as an
			// input, so the transcript replays without running a bot
			a, err := statemachine.RunBot(b)
			if err != nil {
				continue
			}
			r.out = append(r.out, transcript.Entry{At: -1, Op: transcript.Bot, Bot: transcript.BotMove{Table: a.Table, Seat: int8(a.Seat), Seq: a.Seq, Move: a.Move}})
			r.hub.BotMove(now, a)
		}
	}
}

func (r *Runner) answer(c statemachine.Check) statemachine.Answer {
	if r.down {
		return statemachine.Unavailable
	}
	return r.accounts.Answer(c)
}

// Answer answers an account check from a (name to password).
func (a Accounts) Answer(c statemachine.Check) statemachine.Answer {
	pw, ok := a[c.User]
	switch {
	case !ok:
		return statemachine.NotFound
	case c.Kind == statemachine.Verify && pw != c.Password:
		return statemachine.WrongPassword
	}
	return statemachine.Found
}

// Check is Answer with the signature of a server's account checker, so
// in-process servers in tests can use the same accounts.
func (a Accounts) Check(_ context.Context, c statemachine.Check) statemachine.Answer {
	return a.Answer(c)
}
