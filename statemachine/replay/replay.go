// Package replay drives a statemachine.Hub in-process with the client side
// of a transcript and records what the server side actually does, so a
// transcript can be checked without sockets, a database or a clock.
package replay

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"sync"
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
	ticks    []statemachine.Input // what a clock line's time passing is made of (TickInputs)
	// inputs: the transcript has "in" lines (a capture's record of every
	// input the hub got); only they are fed, and the hub's outputs are
	// compared, not the runner's guesses at accounts, bots and time
	inputs bool
	// shellClosed are the connections whose "closed" line the shell wrote
	// (an input says so after it): passed through, not expected of the hub
	shellClosed map[string]bool
	// opened are the connections the transcript has an "open" line for:
	// the hub's outputs are expected for those alone (inputs of others,
	// opened before the capture began, are fed all the same)
	opened map[string]bool
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
	r.Inputs(entries)
	for _, e := range entries {
		r.Feed(e)
	}
	return r.out
}

// Inputs looks at a whole transcript before it is fed: when it has "in"
// lines (a capture), the runner replays those and nothing else, so the
// hub gets exactly what it got when the capture was made (account answers,
// computer players' moves, ticks and seeds included, at their times), and
// the other lines but the hub's outputs pass through. Outputs are made for
// the connections the transcript opens: a connection opened before the
// capture began (a world the daemon restored at its start) had none
// written down.
func (r *Runner) Inputs(entries []transcript.Entry) {
	r.shellClosed, r.opened = map[string]bool{}, map[string]bool{}
	var in statemachine.Input
	for _, e := range entries {
		if e.Op == transcript.Open {
			r.opened[e.Conn] = true
		}
		if e.Op != transcript.Input {
			continue
		}
		r.inputs = true
		if _, _, err := statemachine.ReadInput(e.Data, &in); err == nil && in.Kind == statemachine.InClosed {
			r.shellClosed[fmt.Sprintf("c%d", in.Conn)] = true
		}
	}
}

// feedInput replays an "in" line.
func (r *Runner) feedInput(e transcript.Entry) {
	r.out = append(r.out, e)
	var in statemachine.Input
	at, _, err := statemachine.ReadInput(e.Data, &in)
	if err != nil {
		r.out = append(r.out, transcript.Entry{At: -1, Op: transcript.Note, Comment: "unreadable input: " + err.Error()})
		return
	}
	if name := fmt.Sprintf("c%d", in.Conn); in.Kind == statemachine.InOpen && r.opened[name] {
		r.conns[name] = &conn{id: in.Conn}
		r.names[in.Conn] = name
	}
	r.hub.Step(at, in)
	r.drain(at)
}

// Feed replays one entry and appends it and its consequences to the output.
func (r *Runner) Feed(e transcript.Entry) {
	now := int64(r.now)
	if r.inputs {
		switch {
		case e.Op == transcript.Input:
			r.feedInput(e)
		case e.Op == transcript.Recv, e.Op == transcript.Closed && !r.shellClosed[e.Conn]:
			// the hub's outputs: the replay makes its own
		case e.Op == transcript.Close, e.Op == transcript.Closed:
			// the shell let go of the connection here (the client hung
			// up, or the shell closed it): what the hub sends it before
			// the input saying so arrives goes nowhere, as in the daemon
			r.out = append(r.out, e)
			delete(r.conns, e.Conn)
		default:
			r.out = append(r.out, e)
		}
		return
	}
	switch e.Op {
	case transcript.Recv, transcript.Closed:
		return
	case transcript.Note:
		r.out = append(r.out, e)
		if seed, ok := seedNote(e); ok {
			r.hub.Step(now, statemachine.SeedInput(seed)) // where the recording's generator started
		}
		return
	case transcript.Clock:
		r.out = append(r.out, e)
		r.now += e.Advance
		r.ticks = r.hub.TickInputs(int64(r.now), r.ticks[:0])
		for _, in := range r.ticks {
			r.hub.Step(int64(r.now), in)
		}
	case transcript.Bot:
		r.out = append(r.out, e)
		r.hub.Step(now, statemachine.Input{Kind: statemachine.InBot, Bot: statemachine.BotAnswer{Table: e.Bot.Table, Seat: rules.Player(e.Bot.Seat), Seq: e.Bot.Seq, Move: e.Bot.Move}})
	case transcript.StoreDown, transcript.StoreUp:
		r.out = append(r.out, e)
		r.down = e.Op == transcript.StoreDown
	case transcript.Open:
		r.out = append(r.out, e)
		r.next++
		c := &conn{id: r.next}
		r.conns[e.Conn] = c
		r.names[c.id] = e.Conn
		r.hub.Step(now, statemachine.Input{Kind: statemachine.InOpen, Conn: c.id, Text: SourceOf(e)})
	case transcript.Close:
		r.out = append(r.out, e)
		if c := r.conns[e.Conn]; c != nil {
			delete(r.conns, e.Conn)
			r.hub.Step(now, statemachine.Input{Kind: statemachine.InClosed, Conn: c.id})
		}
	case transcript.Send:
		r.out = append(r.out, e)
		c := r.conns[e.Conn]
		if c == nil {
			break // the server closed it; the bytes go nowhere
		}
		if _, err := c.dec.Feed(e.Data, func(seg segment.Segment) bool {
			r.hub.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c.id, Seg: seg})
			r.drain(now)
			return r.conns[e.Conn] == c // stop once the hub closed it
		}); err != nil && r.conns[e.Conn] == c {
			// a framing error: the shell closes the connection
			r.closeConn(e.Conn, c)
			r.hub.Step(now, statemachine.Input{Kind: statemachine.InClosed, Conn: c.id})
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
		var checks []statemachine.Check
		if !r.inputs { // a capture's answers are inputs of their own
			checks = append(checks, rd.Checks...)
		}
		var bots []statemachine.BotRequest
		if r.PlayBots && !r.inputs {
			bots = append(bots, rd.Bots...)
		}
		r.hub.Advance()
		for _, c := range checks {
			if c.Kind.Query() {
				a, data := r.query(c)
				r.hub.Step(now, statemachine.Input{Kind: statemachine.InReply, Check: c.ID, Answer: a, Asked: c.Kind, Text: data})
				continue
			}
			r.hub.Step(now, statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: r.answer(c)})
		}
		for _, b := range bots {
			// the computer answers at once; the answer is written down as an
			// input, so the transcript replays without running a bot
			a, err := statemachine.RunBot(b)
			if err != nil {
				continue
			}
			r.out = append(r.out, transcript.Entry{At: -1, Op: transcript.Bot, Bot: transcript.BotMove{Table: a.Table, Seat: int8(a.Seat), Seq: a.Seq, Move: a.Move}})
			r.hub.Step(now, statemachine.Input{Kind: statemachine.InBot, Bot: a})
		}
	}
}

func (r *Runner) answer(c statemachine.Check) statemachine.Answer {
	if r.down {
		return statemachine.Unavailable
	}
	return r.accounts.Answer(c)
}

// Answer answers an account check from a (name to password). A sign-up
// (Register) adds to a, by a model of the store's rules that is enough for
// transcripts: a name of 3 or more bytes that no account has in any case,
// a password of 8 or more bytes.
func (a Accounts) Answer(c statemachine.Check) statemachine.Answer {
	accountsMu.Lock() // servers in tests ask from several workers, and a sign-up writes
	defer accountsMu.Unlock()
	if c.Kind == statemachine.Register {
		return a.register(c.User, c.Password)
	}
	pw, ok := a[c.User]
	switch {
	case !ok:
		return statemachine.NotFound
	case c.Kind == statemachine.Verify && pw != c.Password:
		return statemachine.WrongPassword
	}
	return statemachine.Found
}

// accountsMu guards every Accounts: a map, which sign-ups write.
var accountsMu sync.Mutex

func (a Accounts) register(name, password string) statemachine.Answer {
	switch {
	case len(name) < 3 || len(name) > 20:
		return statemachine.BadSignupName
	case len(password) < 8:
		return statemachine.BadSignupPass
	}
	for n := range a {
		if strings.EqualFold(n, name) {
			return statemachine.NameTaken
		}
	}
	a[name] = password
	return statemachine.Registered
}

// Check is Answer with the signature of a server's account checker, so
// in-process servers in tests can use the same accounts.
func (a Accounts) Check(_ context.Context, c statemachine.Check) statemachine.Answer {
	return a.Answer(c)
}
