package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bomber-game/bomber/client"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// reconnectDelay is how long the reference client waits before it
// reconnects after losing the server.
const reconnectDelay = 500 * time.Millisecond

// maxStatus is how many recent notices the status area keeps.
const maxStatus = 3

// model is the terminal UI: a bubbletea model around a client.Client. The
// protocol lives in the client; the model turns keys into intents and
// notices into text. Its only I/O is through net (a sender) and the
// commands it returns, so tests drive it with key messages and a fake net.
type model struct {
	cfg    config
	st     styles
	c      *client.Client
	dialer func(gen int) tea.Cmd

	net       sender // nil while not connected
	gen       int    // current connection generation
	attempts  int    // reconnect attempts since the last good connection
	connected bool
	autoLogin bool // log in with --user/--password once connected
	quitting  bool
	kicked    bool // the connection ended after a kick: wait for the user

	loginForm

	sel        int // selected user in the lobby
	draw       drawing
	rng        *rand.Rand // where the drawing cursor offers the planes
	wasDrawing bool
	aim        pos          // cursor on the opponent's board
	head       *bomber.Cell // marked head of a double guess

	confirmQuit bool // q was pressed in a game: y quits, anything else goes on

	status []string
	err    string // last refused action, shown until the next key
	width  int
}

func newModel(cfg config, st styles, dialer func(gen int) tea.Cmd) *model {
	return &model{
		cfg: cfg, st: st, c: client.New(), dialer: dialer,
		loginForm: loginForm{name: cfg.user, pass: cfg.password, focus: boolInt(cfg.user != "")},
		autoLogin: cfg.user != "" && cfg.password != "",
		width:     80,
		rng:       rand.New(rand.NewPCG(clockSeed(), 0)),
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Init dials the server.
func (m *model) Init() tea.Cmd { return m.dialer(m.gen) }

// peer is the opponent's name as shown: text from the server is shown
// only with its control and bidi characters replaced (segment.SafeText).
func (m *model) peer() string { return segment.SafeText(m.c.Peer()) }

func (m *model) say(s string) {
	m.status = append(m.status, segment.SafeText(s))
	if len(m.status) > maxStatus {
		m.status = m.status[len(m.status)-maxStatus:]
	}
}

// apply writes what the client wants sent and shows its notices.
func (m *model) apply(o client.Out) {
	if m.net != nil && len(o.Send) > 0 {
		if err := m.net.Send(o.Send); err != nil {
			m.say("write failed: " + err.Error())
		}
	}
	for _, n := range o.Notices {
		switch n.Kind {
		case client.NoticeGameStarted:
			m.aim, m.head = pos{}, nil
		case client.NoticeWrongUser, client.NoticeWrongPassword:
			m.focus = boolInt(n.Kind == client.NoticeWrongPassword)
			m.pass = ""
		}
		m.say(n.String())
	}
	drawingNow := m.c.State() == client.Game && m.c.Phase() == client.Drawing
	if drawingNow && !m.wasDrawing {
		m.draw = newDrawing(m.rng) // a new game: a clean sheet
	}
	if m.c.State() != client.Game {
		m.confirmQuit = false // the game is over: nothing to confirm
	}
	m.wasDrawing = drawingNow
}

// act runs an intent; a refusal is shown, nothing is sent.
func (m *model) act(o client.Out, err error) {
	if err != nil {
		m.err = cleanErr(err)
		return
	}
	m.apply(o)
}

func cleanErr(err error) string {
	var s = err.Error()
	if errors.Is(err, client.ErrState) {
		return "not now: " + s
	}
	return s
}

// Update handles a message.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = msg.Width
	case upMsg:
		if msg.gen != m.gen {
			msg.l.Close()
			return m, nil
		}
		m.net, m.connected, m.attempts = msg.l, true, 0
		saved := m.c.Saved()
		m.apply(m.c.Connected())
		if saved {
			m.say("connected: logging in again as " + m.c.User())
		} else if m.autoLogin {
			m.autoLogin = false
			m.act(m.c.Login(m.name, m.pass))
		}
		if l, ok := msg.l.(*link); ok {
			return m, l.next()
		}
		return m, nil
	case segMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.apply(m.c.Receive(msg.seg))
		if l, ok := m.net.(*link); ok {
			return m, l.next()
		}
		return m, nil
	case downMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		return m, m.lost(msg.err)
	case retryMsg:
		if msg.gen != m.gen || m.quitting {
			return m, nil
		}
		return m, m.dialer(m.gen)
	case tea.KeyPressMsg:
		m.err = ""
		return m, m.key(msg)
	}
	return m, nil
}

// lost handles the end of a connection: reconnect after the reference
// client's delay, unless we were kicked (then only when the user asks).
func (m *model) lost(err error) tea.Cmd {
	kicked := m.c.State() == client.Kicked
	if m.net != nil {
		m.net.Close()
		m.net = nil
	}
	if m.connected || m.attempts == 0 {
		m.apply(m.c.Disconnected())
	}
	m.connected = false
	if kicked {
		m.kicked = true
	}
	if m.kicked || m.quitting {
		return nil
	}
	m.attempts++
	if err != nil && m.attempts == 1 {
		m.say("server offline: " + err.Error())
	}
	gen := m.gen
	return tea.Tick(reconnectDelay, func(time.Time) tea.Msg { return retryMsg{gen: gen} })
}

func (m *model) reconnect() tea.Cmd {
	if m.net != nil {
		m.net.Close()
		m.net = nil
	}
	m.c.Disconnected()
	m.connected, m.kicked = false, false
	m.gen++
	m.attempts = 0
	m.say("reconnecting")
	return m.dialer(m.gen)
}

func (m *model) quit() tea.Cmd {
	m.quitting = true
	if m.net != nil {
		m.net.Close()
		m.net = nil
	}
	return tea.Quit
}

// screen is what the UI shows now.
type screen int

const (
	scrOffline screen = iota
	scrLogin
	scrKicked
	scrLobby
	scrResult
	scrDrawing
	scrWaiting
	scrPlaying
)

func (m *model) screen() screen {
	switch s := m.c.State(); {
	case s == client.Kicked, s == client.Init && m.kicked:
		return scrKicked
	case s == client.Init:
		return scrOffline
	case s <= client.WaitForPasswordResponse:
		return scrLogin
	case s == client.Game:
		switch m.c.Phase() {
		case client.Drawing:
			return scrDrawing
		case client.WaitingForBoard:
			return scrWaiting
		}
		return scrPlaying
	case s == client.ClientInvited:
		return scrLobby
	case m.c.Outcome() != client.NoOutcome:
		return scrResult
	}
	return scrLobby
}

func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if key == "ctrl+c" {
		return m.quit()
	}
	if m.confirmQuit {
		m.confirmQuit = false
		if key == "y" || key == "q" {
			return m.quit()
		}
		m.say("quit cancelled: the game goes on")
		return nil
	}
	switch m.screen() {
	case scrDrawing, scrWaiting, scrPlaying:
		if key == "q" {
			m.confirmQuit = true // leaving ends the game: ask first
			return nil
		}
	}
	switch m.screen() {
	case scrOffline:
		if key == "q" || key == "esc" {
			return m.quit()
		}
	case scrKicked:
		switch key {
		case "r":
			return m.reconnect()
		case "q", "esc", "enter":
			return m.quit()
		}
	case scrLogin:
		m.loginKey(k)
	case scrLobby:
		return m.lobbyKey(key)
	case scrResult:
		switch key {
		case "enter", "space", "esc":
			m.c.Acknowledge()
		case "q":
			return m.quit()
		}
	case scrDrawing:
		m.drawKey(key)
	case scrWaiting:
	case scrPlaying:
		m.playKey(key)
	}
	return nil
}

func (m *model) loginKey(k tea.KeyPressMsg) {
	if m.c.State() != client.GatherUserInfo {
		return // waiting for the server's answer
	}
	if submit, problem := m.loginForm.edit(k); problem != "" {
		m.err = problem
	} else if submit {
		m.act(m.c.Login(m.name, m.pass))
	}
}

func (m *model) lobbyKey(key string) tea.Cmd {
	if m.c.State() == client.ClientInvited {
		switch key {
		case "a", "y":
			m.act(m.c.Answer(true))
		case "r", "n", "esc":
			peer := m.peer()
			o, err := m.c.Answer(false)
			m.act(o, err)
			if err == nil {
				m.say("you refused " + peer + "'s invitation")
			}
		}
		return nil
	}
	users := m.c.Online()
	switch key {
	case "up", "k":
		m.sel--
	case "down", "j":
		m.sel++
	case "enter", "i":
		if len(users) == 0 {
			m.err = "nobody else is online"
			return nil
		}
		m.sel = clamp(m.sel, 0, len(users)-1)
		m.act(m.c.Invite(users[m.sel]))
	case "q":
		return m.quit()
	}
	m.sel = clamp(m.sel, 0, max(0, len(users)-1))
	return nil
}

func (m *model) drawKey(key string) {
	if dx, dy, ok := arrow(key); ok {
		m.draw.move(dx, dy)
		return
	}
	switch key {
	case "r":
		m.draw.orient = (m.draw.orient + 1) & 3
	case "enter", "space":
		if err := m.draw.place(); err != nil {
			m.err = "cannot place: " + err.Error()
		}
	case "u", "backspace":
		m.draw.undo()
	case "s":
		b, ok := m.draw.board()
		if !ok {
			m.err = placeMore(3-len(m.draw.placed)) + " first"
			return
		}
		m.act(m.c.PlaceBoard(b))
	}
}

func (m *model) playKey(key string) {
	if dx, dy, ok := arrow(key); ok {
		m.aim.x = clamp(m.aim.x+dx, 0, bomber.Size-1)
		m.aim.y = clamp(m.aim.y+dy, 0, bomber.Size-1)
		return
	}
	at := m.aim.cell()
	switch key {
	case "esc":
		m.head = nil
	case "d":
		if m.head == nil {
			m.head = &at
			return
		}
		m.double(*m.head, at)
	case "enter", "space":
		if m.head != nil {
			m.double(*m.head, at)
			return
		}
		if !m.c.MyTurn() {
			m.err = "wait for " + m.peer() + "'s guess"
			return
		}
		m.act(m.c.GuessSingle(at))
	}
}

func (m *model) double(head, tail bomber.Cell) {
	if !m.c.MyTurn() {
		m.err = "wait for " + m.peer() + "'s guess"
		return
	}
	p := bomber.Plane{Head: head, Tail: tail}
	if err := m.c.CanDouble(p); err != nil {
		m.err = err.Error()
		m.head = nil
		return
	}
	m.head = nil
	m.act(m.c.GuessDouble(p))
}

// placeMore is "place 1 more plane" or "place N more planes".
func placeMore(n int) string {
	if n == 1 {
		return "place 1 more plane"
	}
	return fmt.Sprintf("place %d more planes", n)
}

func arrow(key string) (dx, dy int, ok bool) {
	switch key {
	case "up", "k":
		return -1, 0, true
	case "down", "j":
		return 1, 0, true
	case "left", "h":
		return 0, -1, true
	case "right", "l":
		return 0, 1, true
	}
	return 0, 0, false
}
