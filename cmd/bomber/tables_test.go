package main

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// hubLink connects tables models and ext clients to the real hub in
// process: what a model or client sends goes to the hub, what the hub
// sends goes back to it.
type hubLink struct {
	t       *testing.T
	hub     *statemachine.Hub
	now     int64
	models  map[statemachine.ConnID]*tmodel
	clients map[statemachine.ConnID]*ext.Client
	queue   []statemachine.ConnID
	pending [][]segment.Segment
}

// connSender is one connection's sender.
type connSender struct {
	l  *hubLink
	id statemachine.ConnID
}

func (s connSender) Send(segs []segment.Segment) error {
	s.l.queue = append(s.l.queue, s.id)
	s.l.pending = append(s.l.pending, append([]segment.Segment(nil), segs...))
	return nil
}
func (s connSender) Close() error { return nil }

func newHubLink(t *testing.T) *hubLink {
	hub := statemachine.New(statemachine.Config{Games: statemachine.Catalogue()})
	hub.Step(0, statemachine.SeedInput(4))
	return &hubLink{t: t, hub: hub,
		models: map[statemachine.ConnID]*tmodel{}, clients: map[statemachine.ConnID]*ext.Client{}}
}

func (l *hubLink) model(user string) *tmodel {
	id := statemachine.ConnID(len(l.models) + len(l.clients) + 1)
	m := newTModel(config{user: user, password: "123", mono: true}, newTStyles(), func(int) tea.Cmd { return nil })
	l.models[id] = m
	l.hub.Step(l.now, statemachine.Input{Kind: statemachine.InOpen, Conn: id})
	m.net, m.connected = connSender{l, id}, true
	m.apply(m.c.Connected())
	l.pump()
	return m
}

func (l *hubLink) client(user string) *ext.Client {
	id := statemachine.ConnID(len(l.models) + len(l.clients) + 1)
	c := ext.New()
	c.Login(user, "123")
	l.clients[id] = c
	l.hub.Step(l.now, statemachine.Input{Kind: statemachine.InOpen, Conn: id})
	connSender{l, id}.Send(c.Connected().Send)
	l.pump()
	return c
}

func (l *hubLink) id(c *ext.Client) statemachine.ConnID {
	for id, x := range l.clients {
		if x == c {
			return id
		}
	}
	return 0
}

// do sends what an ext client built.
func (l *hubLink) do(c *ext.Client) func(ext.Out, error) {
	return func(o ext.Out, err error) {
		l.t.Helper()
		if err != nil {
			l.t.Fatal(err)
		}
		connSender{l, l.id(c)}.Send(o.Send)
		l.pump()
	}
}

// press gives a model keys and delivers what follows.
func (l *hubLink) press(m *tmodel, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		m.Update(msg)
		l.pump()
	}
}

func (l *hubLink) pump() {
	accounts := replay.DemoAccounts()
	for range 100000 {
		for len(l.queue) > 0 {
			id, segs := l.queue[0], l.pending[0]
			l.queue, l.pending = l.queue[1:], l.pending[1:]
			for _, s := range segs {
				l.now++
				l.hub.Step(l.now, statemachine.Input{Kind: statemachine.InReceive, Conn: id, Seg: s})
			}
		}
		r := l.hub.Ready()
		if r.Empty() {
			return
		}
		sends := append([]statemachine.Send(nil), r.Sends...)
		checks := append([]statemachine.Check(nil), r.Checks...)
		l.hub.Advance()
		for _, s := range sends {
			if m := l.models[s.Conn]; m != nil {
				m.Update(segMsg{gen: m.gen, seg: s.Seg})
			}
			if c := l.clients[s.Conn]; c != nil {
				connSender{l, s.Conn}.Send(c.Receive(s.Seg).Send)
			}
		}
		for _, c := range checks {
			in := statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: accounts.Answer(c)}
			if c.Kind.Query() { // the demo accounts have no ratings: an empty reply
				in.Kind, in.Asked = statemachine.InReply, c.Kind
			}
			l.hub.Step(l.now, in)
		}
	}
	l.t.Fatal("the hub never went quiet")
}

func shows(t *testing.T, m *tmodel, want ...string) string {
	t.Helper()
	s := ansi.Strip(m.render())
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("the screen lacks %q:\n%s", w, s)
		}
	}
	if n := strings.Count(s, "\n") + 1; n > 24 {
		t.Fatalf("%d lines", n)
	}
	return s
}

// TestTablesOffersAndWatching: through the real hub, Albert (the tables
// UI) plays Beth (a scripted client) at Checkers with Cindy (a second UI)
// watching from the lobby list: a takeback Beth proposes is accepted with
// y, a draw Albert offers with d is agreed, and everyone's screen says so.
func TestTablesOffersAndWatching(t *testing.T) {
	l := newHubLink(t)
	a := l.model("Albert")
	b := l.client("Beth")
	w := l.model("Cindy")
	shows(t, a, "Open tables (0)", "Beth", "Cindy")
	l.press(a, "c", "l", "enter") // the second game of the form: checkers
	shows(t, a, "table #1 Checkers", "seat 1")
	l.do(b)(b.RequestList())
	l.do(b)(b.Join(b.Tables()[0].ID, segment.SeatAny, ""))
	l.press(w, "r", "w")
	shows(t, w, "table #1 Checkers", "watching")
	l.press(a, "r")
	l.do(b)(b.Ready())
	shows(t, a, "Your turn.", "12b", "d draw  u undo")
	l.press(a, ":")
	for _, k := range "11-15" {
		l.press(a, string(k))
	}
	l.press(a, "enter")
	shows(t, w, "Albert 11-15", "Waiting for Beth.")
	l.do(b)(b.Offer(segment.OfferTakeback, segment.OfferPropose))
	shows(t, a, "Beth offers a takeback: y accept, n decline")
	l.press(a, "y")
	s := shows(t, a, "moves 0", "Your turn.")
	if strings.Contains(s, "11-15") {
		t.Fatalf("the move taken back is still listed:\n%s", s)
	}
	l.press(a, "tab", "enter")
	l.press(a, "d")
	shows(t, a, "You offered a draw")
	l.do(b)(b.Offer(segment.OfferDraw, segment.OfferAccept))
	shows(t, a, "GAME OVER: drawn (draw agreed)")
	shows(t, w, "GAME OVER: drawn (draw agreed)")
	l.press(w, "q")
	shows(t, w, "Open tables")
}

// TestTablesPrivateCodeAndInvite: Albert creates a private Dots and Boxes
// table for three (the form's private field), reads its join code in the
// header and invites Cindy; Beth, who cannot see it listed, joins with J
// and the code; Cindy accepts the invitation with a.
func TestTablesPrivateCodeAndInvite(t *testing.T) {
	l := newHubLink(t)
	a, b, c := l.model("Albert"), l.model("Beth"), l.model("Cindy")
	l.press(a, "c", "l", "l", "j", "l", "j", "l", "enter") // dots, 3 seats, private
	s := shows(t, a, "table #1 Dots and Boxes code ")
	code := strings.Fields(s[strings.Index(s, " code ")+6:])[0]
	l.press(b, "r")
	shows(t, b, "Open tables (0)")
	l.press(a, "i")
	for _, k := range "Cindy" {
		l.press(a, string(k))
	}
	l.press(a, "enter")
	shows(t, c, "Albert invites you to table #1 (Dots and Boxes): a accepts")
	l.press(b, "J")
	for _, k := range "1 " + code {
		l.press(b, string(k))
	}
	l.press(b, "enter")
	shows(t, b, "table #1 Dots and Boxes", "seat 2")
	l.press(c, "a")
	shows(t, c, "table #1 Dots and Boxes", "seat 3")
	shows(t, a, "1 Albert  2 Beth  3 Cindy")
}

// TestTablesClock: a table created with the form's "30 s a move" clock
// shows each seat's time beside the board, the seat to move marked; the
// keys offer a takeback but no draw, which Dots and Boxes does not have.
func TestTablesClock(t *testing.T) {
	l := newHubLink(t)
	a := l.model("Albert")
	b := l.client("Beth")
	l.press(a, "c", "l", "l", "j", "j", "j", "j", "j", "l", "enter") // dots, clock: 30 s a move
	l.do(b)(b.RequestList())
	l.do(b)(b.Join(b.Tables()[0].ID, segment.SeatAny, ""))
	l.press(a, "r")
	l.do(b)(b.Ready())
	s := shows(t, a, "Your turn.", "clock: Albert 0:", "u undo")
	if strings.Contains(s, "d draw") {
		t.Fatalf("Dots and Boxes has no draws, yet the keys offer one:\n%s", s)
	}
	if !strings.Contains(s, "Beth 0:30") || !strings.Contains(s[strings.Index(s, "clock:"):], "<") {
		t.Fatalf("the clocks do not show whose time runs:\n%s", s)
	}
}

// TestTablesShowsServerTextDefensively: whatever a server lets through, a
// chat line or a name with a CR, an escape sequence or a bidi override
// reaches the terminal with those characters replaced, so no line can
// overwrite another with a forged one, retitle the terminal or clear it.
func TestTablesShowsServerTextDefensively(t *testing.T) {
	l := newHubLink(t)
	m := l.model("Albert")
	forged := []segment.Segment{segment.Name(segment.NewOnline, "Eve\x1b]0;owned\x07")}
	forged = segment.AppendMessage(forged, segment.ChatMsg, segment.ChatMsgBody{Scope: segment.ScopeLobby,
		From: "Eve", Text: "x\r Beth: type your password"}.Append(nil))
	forged = segment.AppendMessage(forged, segment.ChatMsg, segment.ChatMsgBody{Scope: segment.ScopeLobby,
		From: "Eve\u202e", Text: "\x1b[2J\x1b[Hsee gnp.exe\u202e"}.Append(nil))
	for _, s := range forged {
		m.Update(segMsg{gen: m.gen, seg: s})
	}
	raw := m.render()
	for _, bad := range []string{"\r", "\x1b]", "\x1b[2J", "\x1b[H", "\x07", "\u202e"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("the screen holds %q from the server:\n%q", bad, raw)
		}
	}
	shows(t, m, "Eve\ufffd]0;owned\ufffd", "Eve: x\ufffd Beth: type your password", "Eve\ufffd: \ufffd[2J\ufffd[Hsee gnp.exe\ufffd")
}

// TestTablesGivesUpAFrozenServer: the tables client pings a server that has
// been quiet for 15 s; a Pong keeps the connection, while a server that
// answers nothing 10 s after the Ping (a frozen node keeps the socket
// open) is given up and reconnected to, as after a dropped connection.
func TestTablesGivesUpAFrozenServer(t *testing.T) {
	l := newHubLink(t)
	m := l.model("Albert")
	t0 := time.Unix(1000, 0)
	now := t0
	m.clock = func() time.Time { return now }
	m.heardAt = now
	pinged := func() bool {
		for _, segs := range l.pending {
			for _, s := range segs {
				if s.Type == segment.Ping {
					return true
				}
			}
		}
		return false
	}
	now = t0.Add(14 * time.Second)
	m.Update(liveTick{})
	if pinged() {
		t.Fatal("pinged after 14 s of quiet")
	}
	now = t0.Add(15 * time.Second)
	m.Update(liveTick{})
	if !pinged() {
		t.Fatal("no Ping after 15 s of quiet")
	}
	l.pump() // the server answers
	now = t0.Add(26 * time.Second)
	m.Update(liveTick{})
	if !m.connected {
		t.Fatal("gave up a server that answered its Ping")
	}

	now = t0.Add(30 * time.Second)
	m.Update(liveTick{})
	if !pinged() {
		t.Fatal("no second Ping after 15 s of quiet")
	}
	now = t0.Add(39 * time.Second) // frozen: nothing comes back
	m.Update(liveTick{})
	if !m.connected {
		t.Fatal("gave up 9 s after the Ping; the timeout is 10 s")
	}
	now = t0.Add(40 * time.Second)
	_, cmd := m.Update(liveTick{})
	if m.connected || cmd == nil {
		t.Fatalf("still connected (%v) 10 s after an unanswered Ping", m.connected)
	}
	shows(t, m, "no answer to a Ping within 10 s")
}
