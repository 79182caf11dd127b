package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/rules"
	bomberrules "github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/bomber/bot"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/segment"
)

// The tables client (--tables): the lobby with users, tables and chat,
// table creation, and every game of the catalogue. The protocol lives in
// client/ext; this model turns keys into its requests and draws its state.

// listEvery is how often the lobby asks for the list of tables.
const listEvery = 2 * time.Second

// listTick asks for the list of tables again.
type listTick struct{}

// liveTick checks, every second, that the server still answers (liveness).
type liveTick struct{}

func liveTicker() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return liveTick{} })
}

// prompt is a line the user is typing.
type prompt struct {
	kind  promptKind
	label string
	text  string
}

type promptKind uint8

const (
	pLobbyChat promptKind = iota
	pTableChat
	pNotation
	pCode
	pInvite
	pWatchCode
	pPlay
	pProfile
	pLeaders
)

type tmodel struct {
	cfg          config
	cursorWanted bool // a game began: the cursor goes to a legal move when the server lists ours
	st           *tstyles
	c            *ext.Client
	dialer       func(gen int) tea.Cmd

	net       sender
	gen       int
	attempts  int
	connected bool
	quitting  bool

	loginForm

	creating *createForm
	sel      int // table chosen in the lobby
	input    *prompt
	confirm  string // a key pressed once that needs a second press ("q", "R")
	width    int    // the terminal's size (0 before the first WindowSizeMsg)
	height   int

	cur    gpos
	from   *gpos
	cycle  int
	hint   *rules.Move // the move tab showed: enter plays it
	replay *replayer
	prof   *profileView // the profile screen, when shown

	rng     *rand.Rand
	suggest string // Bomber: the random board enter places, in notation
	draw    tdraw  // Bomber: the board drawn plane by plane from the server's hints

	botsWanted bool      // give the empty seats to the computer once the table is ours
	joinWanted *invite   // --join: the table to join or watch once logged in
	played     bool      // --play sought its game
	clockAt    time.Time // when the last Clock arrived
	ticking    bool      // a clockTick is on its way
	status     []string
	err        string

	// liveness (FeaturePing): when the server last said anything, and
	// when our unanswered Ping went (zero: none)
	heardAt  time.Time
	pingSent time.Time
	nonce    uint32
	clock    func() time.Time // nil: the wall clock
}

func newTModel(cfg config, st *tstyles, dialer func(gen int) tea.Cmd) *tmodel {
	m := &tmodel{cfg: cfg, st: st, c: ext.New(), dialer: dialer, loginForm: loginForm{name: cfg.user, pass: cfg.password},
		rng: rand.New(rand.NewPCG(clockSeed(), 1)), draw: tdraw{pick: bomberrules.NoCell}}
	if cfg.user != "" && cfg.password != "" {
		m.c.Login(cfg.user, cfg.password)
	}
	if cfg.user != "" {
		m.focus = 1
	}
	if inv, err := parseInvite(cfg.join); cfg.join != "" && err == nil {
		m.joinWanted = &inv
	}
	return m
}

// Init dials the server.
func (m *tmodel) Init() tea.Cmd {
	return tea.Batch(m.dialer(m.gen), tea.Tick(listEvery, func(time.Time) tea.Msg { return listTick{} }), liveTicker())
}

func (m *tmodel) say(s string) {
	if s == "" {
		return
	}
	m.status = append(m.status, segment.SafeText(s))
	if len(m.status) > 3 {
		m.status = m.status[len(m.status)-3:]
	}
}

// apply writes what the client built and shows its events.
func (m *tmodel) apply(o ext.Out) tea.Cmd {
	if m.net != nil && len(o.Send) > 0 {
		if err := m.net.Send(o.Send); err != nil {
			m.say("write failed: " + err.Error())
		}
	}
	var cmd tea.Cmd
	for _, e := range o.Events {
		switch e.Kind {
		case ext.EvError:
			m.err = segment.SafeText(errWords(e.Err))
		case ext.EvLoginRefused:
			m.pass, m.focus = "", 1
			m.err = segment.SafeText(e.Text)
		case ext.EvStarted, ext.EvJoined:
			m.from, m.cycle, m.replay, m.prof = nil, 0, nil, nil
			if e.Kind == ext.EvStarted || m.suggest == "" {
				m.suggest = boardText(bot.RandomBoard(m.rng)) // a board of its own for each game
			}
			m.cur = m.startCursor()
			m.cursorWanted = true // again once the server lists our moves
			m.say(e.Text)
		case ext.EvLegal:
			if m.cursorWanted {
				m.cur, m.cursorWanted = m.startCursor(), false
			}
		case ext.EvMoved:
			m.from = nil
			m.say(e.Text)
		case ext.EvBadBody:
		case ext.EvProtocol:
			m.say("protocol: " + e.Text)
			if m.net != nil {
				m.net.Close()
			}
		case ext.EvHistory, ext.EvReplay:
			m.historyEvent(e)
		case ext.EvChat, ext.EvOnline, ext.EvView, ext.EvTable, ext.EvCatalog, ext.EvTables, ext.EvWelcome:
		default:
			m.say(e.Text)
		}
		if e.Kind == ext.EvLoggedIn && m.joinWanted != nil {
			inv := *m.joinWanted
			m.joinWanted = nil
			m.follow(inv)
		}
		if e.Kind == ext.EvLoggedIn && m.cfg.play != "" && !m.played {
			m.played = true // once: a reconnect does not seek again
			m.play(m.cfg.play)
		}
		if e.Kind == ext.EvJoined && m.botsWanted {
			m.botsWanted = false
			m.act(m.c.Bot(segment.SeatAny))
		}
		if e.Kind == ext.EvClock {
			m.clockAt = m.now()
			if !m.ticking {
				m.ticking = true
				cmd = m.clockTicker()
			}
		}
		if e.Kind == ext.EvView || e.Kind == ext.EvStarted || e.Kind == ext.EvJoined || e.Kind == ext.EvMoved {
			m.askHints()
		}
	}
	return cmd
}

func (m *tmodel) act(o ext.Out, err error) {
	if err != nil {
		m.err = strings.TrimPrefix(err.Error(), ext.ErrState.Error()+": ")
		if !errors.Is(err, ext.ErrState) {
			m.err = err.Error()
		}
		return
	}
	m.apply(o)
}

// Update handles a message.
func (m *tmodel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case upMsg:
		if msg.gen != m.gen {
			msg.l.Close()
			return m, nil
		}
		m.net, m.connected, m.attempts = msg.l, true, 0
		m.heardAt, m.pingSent = m.now(), time.Time{}
		m.apply(m.c.Connected())
		if m.c.Resumable() {
			m.say("reconnected: taking the seat back")
		}
		if l, ok := msg.l.(*link); ok {
			return m, l.next()
		}
		return m, nil
	case segMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.heardAt, m.pingSent = m.now(), time.Time{}
		cmd := m.apply(m.c.Receive(msg.seg))
		if l, ok := m.net.(*link); ok {
			return m, tea.Batch(cmd, l.next())
		}
		return m, cmd
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
	case clockTick:
		cmd := m.clockTicker()
		m.ticking = cmd != nil
		return m, cmd
	case liveTick:
		return m, tea.Batch(m.live(), liveTicker())
	case listTick:
		if m.c.State() == ext.Lobby && m.c.Table() == nil && m.creating == nil {
			m.act(m.c.RequestList())
		}
		return m, tea.Tick(listEvery, func(time.Time) tea.Msg { return listTick{} })
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		m.err = ""
		return m, m.key(msg)
	}
	return m, nil
}

// live pings a server that has been quiet for segment.PingInterval, and
// gives the connection up (reconnecting, as after any drop) when nothing
// came segment.PingTimeout after the Ping: a frozen server keeps the
// socket open, so without this the game would just stand still.
func (m *tmodel) live() tea.Cmd {
	if !m.connected || !m.c.Pingable() {
		return nil
	}
	now := m.now()
	switch {
	case !m.pingSent.IsZero() && now.Sub(m.pingSent) >= segment.PingTimeout*time.Second:
		m.gen++ // what the old connection still delivers is ignored
		m.pingSent = time.Time{}
		return m.lost(fmt.Errorf("no answer to a Ping within %d s", segment.PingTimeout))
	case m.pingSent.IsZero() && now.Sub(m.heardAt) >= segment.PingInterval*time.Second:
		m.nonce++
		m.pingSent = now
		m.apply(m.c.Ping(m.nonce))
	}
	return nil
}

func (m *tmodel) lost(err error) tea.Cmd {
	if m.net != nil {
		m.net.Close()
		m.net = nil
	}
	if m.connected || m.attempts == 0 {
		m.apply(m.c.Disconnected())
	}
	m.connected = false
	if m.quitting || m.c.State() == ext.Kicked {
		return nil
	}
	m.attempts++
	if err != nil && m.attempts == 1 {
		m.say("server offline: " + err.Error())
	}
	gen := m.gen
	return tea.Tick(reconnectDelay, func(time.Time) tea.Msg { return retryMsg{gen: gen} })
}

func (m *tmodel) quit() tea.Cmd {
	m.quitting = true
	if m.c.State() == ext.Lobby {
		m.act(m.c.Bye()) // our seat is held only for the short grace
	}
	if m.net != nil {
		m.net.Close()
		m.net = nil
	}
	return tea.Quit
}

func (m *tmodel) key(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if key == "ctrl+c" {
		return m.quit()
	}
	if m.input != nil {
		m.promptKey(k)
		return nil
	}
	if m.replay != nil {
		if !m.replay.key(key) {
			m.replay = nil
			if m.cfg.replay != "" {
				return m.quit()
			}
		}
		return nil
	}
	confirm := m.confirm
	m.confirm = ""
	switch {
	case m.c.State() == ext.Kicked:
		if key == "q" || key == "esc" {
			return m.quit()
		}
	case m.c.State() != ext.Lobby:
		if m.c.State() == ext.NeedLogin || m.c.State() == ext.Offline && !m.connected {
			return m.loginKey(k)
		}
	case m.creating != nil:
		m.createKey(key)
	case m.prof != nil:
		return m.profileKey(key)
	case m.c.Table() != nil:
		return m.tableKey(k, confirm)
	default:
		return m.lobbyKey(key)
	}
	return nil
}

func (m *tmodel) loginKey(k tea.KeyPressMsg) tea.Cmd {
	if k.String() == "esc" {
		return m.quit()
	}
	if submit, problem := m.loginForm.edit(k); problem != "" {
		m.err = problem
	} else if submit {
		m.act(m.c.Login(m.name, m.pass))
	}
	return nil
}

func (m *tmodel) ask(kind promptKind, label string) { m.input = &prompt{kind: kind, label: label} }

func (m *tmodel) promptKey(k tea.KeyPressMsg) {
	p := m.input
	switch k.String() {
	case "esc":
		m.input = nil
	case "enter":
		m.input = nil
		m.submit(p.kind, strings.TrimSpace(p.text))
	case "backspace":
		if r := []rune(p.text); len(r) > 0 {
			p.text = string(r[:len(r)-1])
		}
	default:
		if k.Text != "" && len(p.text)+len(k.Text) <= 200 {
			p.text += k.Text
		}
	}
}

func (m *tmodel) submit(kind promptKind, text string) {
	if text == "" {
		return
	}
	switch kind {
	case pLobbyChat:
		m.act(m.c.Chat(segment.ScopeLobby, text))
	case pTableChat:
		scope := segment.ScopeTable
		if m.c.Seat() == ext.Watcher {
			scope = segment.ScopeWatchers
		}
		m.act(m.c.Chat(scope, text))
	case pNotation:
		m.act(m.c.MoveText(text))
	case pInvite:
		m.act(m.c.Invite(text))
	case pPlay:
		m.play(text)
	case pProfile:
		m.openProfile(text)
	case pLeaders:
		if m.prof != nil {
			m.prof.board = text
			m.act(m.c.RequestHistory(segment.HistLeaders, "", text, 0))
		}
	case pCode, pWatchCode:
		// an invite link, or "ID" or "ID CODE"
		inv, err := parseInvite(text)
		if err != nil {
			m.err = err.Error()
			return
		}
		inv.watch = inv.watch || kind == pWatchCode
		m.follow(inv)
	}
}

// follow joins the table of an invitation, or watches it.
func (m *tmodel) follow(inv invite) {
	if inv.watch {
		m.act(m.c.Watch(inv.table, inv.code))
		return
	}
	m.act(m.c.Join(inv.table, segment.SeatAny, inv.code))
}

func (m *tmodel) lobbyKey(key string) tea.Cmd {
	tables := m.c.Tables()
	switch key {
	case "up", "k":
		m.sel--
	case "down", "j":
		m.sel++
	case "enter":
		if len(tables) == 0 {
			m.err = "no open table: c creates one"
			return nil
		}
		m.act(m.c.Join(tables[bound(m.sel, 0, len(tables)-1)].ID, segment.SeatAny, ""))
	case "w":
		if len(tables) == 0 {
			m.err = "no table to watch"
			return nil
		}
		m.act(m.c.Watch(tables[bound(m.sel, 0, len(tables)-1)].ID, ""))
	case "c":
		m.creating = newCreateForm(m.c.Catalog())
		if m.creating == nil {
			m.err = "the catalogue has not arrived yet"
		}
	case "J":
		m.ask(pCode, "invite link, or table number and join code (7 ABC234): ")
	case "W":
		m.ask(pWatchCode, "watch: invite link, or table number and code: ")
	case "p":
		m.ask(pPlay, "play now: game, minutes each, rated? (e.g. dots 3 rated): ")
	case "x":
		m.act(m.c.CancelSeek())
	case "o":
		m.act(m.c.PlayComputer())
	case "a":
		if n := len(m.c.Invites); n > 0 {
			inv := m.c.Invites[n-1]
			m.act(m.c.Join(inv.Table, segment.SeatAny, inv.Code))
		} else {
			m.err = "no invitation"
		}
	case "t":
		m.ask(pLobbyChat, "say to the lobby: ")
	case "r":
		m.act(m.c.RequestList())
	case "i":
		m.openProfile("")
	case "q", "esc":
		return m.quit()
	}
	m.sel = bound(m.sel, 0, max(0, len(tables)-1))
	return nil
}

func bound(v, lo, hi int) int { return max(lo, min(hi, v)) }

// cursorKey reads arrows and h/j/k/l as a column and row step.
func cursorKey(key string) (dx, dy int, ok bool) {
	switch key {
	case "up", "k":
		return 0, -1, true
	case "down", "j":
		return 0, 1, true
	case "left", "h":
		return -1, 0, true
	case "right", "l":
		return 1, 0, true
	}
	return 0, 0, false
}

// ---- at a table

func (m *tmodel) board() board {
	if t := m.c.Table(); t != nil {
		b := boardFor(t.Game)
		if _, ok := b.(bomberBoard); ok {
			bb := bomberBoard{suggest: m.suggest}
			if m.drawing() {
				bb.draw = &m.draw
				bb.heads = m.heads()
			}
			return bb
		}
		return b
	}
	return bomberBoard{}
}

// boardText is a Bomber board in the game's notation: each plane's head
// and tail centre as row and column digits.
func boardText(b bomberrules.Board) string {
	var parts []string
	for _, p := range b {
		parts = append(parts, fmt.Sprintf("%d%d-%d%d", p.Head.X(), p.Head.Y(), p.Tail.X(), p.Tail.Y()))
	}
	return strings.Join(parts, " ")
}

func (m *tmodel) view() (rules.View, bool) {
	g := m.c.Game()
	if g == nil {
		return rules.View{}, false
	}
	return g.Current(), true
}

func (m *tmodel) startCursor() gpos {
	b := m.board()
	if legal := m.legal(); len(legal) > 0 {
		if o, two := b.origin(legal[0]); two && o.x >= 0 {
			return o
		}
		if d := b.dest(legal[0]); d.x >= 0 {
			return d
		}
	}
	v, _ := m.view()
	w, h := m.board().bounds(v)
	return gpos{w / 2, h / 2}
}

func (m *tmodel) legal() []rules.Move {
	g := m.c.Game()
	if g == nil || !m.c.MyTurn() {
		return nil
	}
	return g.Legal(m.c.Seat())
}

// candidates are the legal moves that the cursor (and the chosen origin)
// designate.
func (m *tmodel) candidates() []rules.Move {
	b := m.board()
	var out []rules.Move
	for _, mv := range m.legal() {
		o, two := b.origin(mv)
		if two && (m.from == nil || o != *m.from) {
			continue
		}
		if b.dest(mv) == m.cur {
			out = append(out, mv)
		}
	}
	return out
}

func (m *tmodel) tableKey(k tea.KeyPressMsg, confirm string) tea.Cmd {
	key := k.String()
	t := m.c.Table()
	g := m.c.Game()
	running := g != nil && !g.Over()
	b := m.board()
	v, _ := m.view()
	if key != "tab" && key != "enter" && key != "space" {
		m.hint = nil
	}
	if dx, dy, ok := cursorKey(key); ok {
		w, h := b.bounds(v)
		m.cur.x = bound(m.cur.x+dx, 0, w-1)
		m.cur.y = bound(m.cur.y+dy, 0, h-1)
		return nil
	}
	switch key {
	case "q":
		if running && m.c.Seat() >= 0 && confirm != "q" {
			m.confirm = "q"
			m.err = "leaving resigns the game: press q again to leave"
			return nil
		}
		m.act(m.c.Leave())
	case "t":
		m.ask(pTableChat, "say to the table: ")
	case ":", "m":
		m.ask(pNotation, "move in notation: ")
	case "i":
		m.ask(pInvite, "invite user: ")
	case "r":
		if t.Phase == segment.PhasePlaying {
			m.err = "the game is running"
			return nil
		}
		m.act(m.c.Ready())
	case "b":
		if t.Phase == segment.PhasePlaying {
			m.err = "the game is running: the computer takes seats before it starts"
			return nil
		}
		seat := slices.IndexFunc(t.Seats, func(s segment.SeatInfo) bool { return s.Name == "" && s.Flags&segment.SeatBot == 0 })
		if seat < 0 {
			m.err = "no empty seat for the computer"
			return nil
		}
		m.act(m.c.Bot(uint8(seat)))
	case "d":
		m.act(m.c.Offer(segment.OfferDraw, segment.OfferPropose))
	case "u":
		m.act(m.c.Offer(segment.OfferTakeback, segment.OfferPropose))
	case "M":
		m.act(m.c.Offer(segment.OfferRematch, segment.OfferPropose))
	case "y", "n":
		of := m.c.Standing()
		if of == nil {
			m.err = "no offer to answer"
			return nil
		}
		ans := segment.OfferAccept
		if key == "n" {
			ans = segment.OfferDecline
		}
		m.act(m.c.Offer(of.What, ans))
	case "R":
		if confirm != "R" {
			m.confirm = "R"
			m.err = "press R again to resign"
			return nil
		}
		m.act(m.c.Resign())
	case "v":
		if g == nil || !g.Over() {
			m.err = "replay is for a finished game"
			return nil
		}
		rp, err := replayOfGame(g, t.Game, m.c.Seat())
		if err != nil {
			m.err = err.Error()
			return nil
		}
		m.replay = rp
	case "esc":
		m.from, m.cycle = nil, 0
	case "tab":
		legal := m.legal()
		if len(legal) == 0 {
			m.err = "no move of yours now"
			return nil
		}
		mv := legal[m.cycle%len(legal)]
		m.cycle++
		m.hint = &mv
		if o, two := b.origin(mv); two {
			m.from = &o
		} else {
			m.from = nil
		}
		m.cur = b.dest(mv)
		if m.cur.x < 0 {
			m.cur = gpos{}
		}
	case "enter", "space":
		m.enter(b)
	case "p":
		m.plane()
	default:
		if len(key) == 1 && key[0] >= '1' && key[0] <= '7' {
			m.digit(int(key[0] - '0'))
		}
	}
	return nil
}

// digit: Pai Sho takes tile N from the hand, Aeroplane Chess picks piece N.
func (m *tmodel) digit(n int) {
	switch m.board().(type) {
	case paishoBoard:
		p := handPos(n)
		m.from = &p
	case aeroBoard:
		if n <= 4 {
			m.cur = gpos{n - 1, 0}
			m.enter(m.board())
		}
	}
}

func (m *tmodel) enter(b board) {
	if !m.c.MyTurn() {
		if g := m.c.Game(); g == nil || g.Over() {
			m.err = "no game running: r ready, M offer a rematch"
		} else {
			m.err = "not your turn"
		}
		return
	}
	legal := m.legal()
	if q, ok := b.(quickMover); ok {
		if mv, ok := q.quick(legal); ok {
			m.act(m.c.Move(mv))
			return
		}
	}
	if g := m.c.Game(); g != nil && g.Replica() == nil {
		// no local copy: Bomber places the random board offered, then
		// guesses the cell under the cursor and moves on to the next one;
		// other games take typed moves
		if _, ok := b.(bomberBoard); !ok {
			m.err = "type the move with : (this client has no copy of the game)"
			return
		}
		if v, _ := m.view(); bomberDrawing(v) {
			m.act(m.c.MoveText(m.suggest))
			return
		}
		m.act(m.c.MoveText(fmt.Sprintf("%d%d", m.cur.y, m.cur.x)))
		if m.cur.x++; m.cur.x == 10 {
			m.cur.x, m.cur.y = 0, (m.cur.y+1)%10
		}
		return
	}
	if c := m.candidates(); len(c) > 0 {
		mv := c[0]
		if m.hint != nil && slices.Contains(c, *m.hint) {
			mv = *m.hint // of several paths to the same square, the one tab showed
		}
		m.from, m.hint = nil, nil
		m.act(m.c.Move(mv))
		return
	}
	// choose the piece under the cursor as the origin
	for _, mv := range legal {
		if o, two := b.origin(mv); two && o == m.cur {
			p := m.cur
			m.from = &p
			return
		}
	}
	m.err = "no legal move there (tab shows one, : types one)"
}

// dests are where the chosen origin may go (every destination without
// one), and froms where moves start.
func (m *tmodel) marks() (dests, froms map[gpos]bool) {
	b := m.board()
	dests, froms = map[gpos]bool{}, map[gpos]bool{}
	for _, mv := range m.legal() {
		o, two := b.origin(mv)
		if two {
			froms[o] = true
			if m.from == nil || *m.from != o {
				continue
			}
		}
		dests[b.dest(mv)] = true
	}
	return dests, froms
}

// ---- the create form

type createForm struct {
	games []segment.GameInfoBody
	game  int
	seats int
	priv  bool
	watch int
	bots  bool     // give the empty seats to the computer
	host  bool     // start=host: the host starts the game (else the ready check)
	apart bool     // chat=separate: watchers chat in a room of their own
	clock int      // index into clockChoices
	vals  []string // option values of the chosen game
	field int
}

// clockChoices are the time controls the form offers: seconds per move,
// or for the game plus an increment.
var clockChoices = []struct {
	name string
	kvs  []segment.KV
}{
	{"none", nil},
	{"30 s a move", []segment.KV{{Key: "clock.move", Value: "30"}}},
	{"60 s a move", []segment.KV{{Key: "clock.move", Value: "60"}}},
	{"5 min + 5 s", []segment.KV{{Key: "clock.total", Value: "300"}, {Key: "clock.increment", Value: "5"}}},
	{"15 min + 10 s", []segment.KV{{Key: "clock.total", Value: "900"}, {Key: "clock.increment", Value: "10"}}},
}

// formFields are the fixed fields before the game's options.
const formFields = 8

func newCreateForm(cat []segment.GameInfoBody) *createForm {
	if len(cat) == 0 {
		return nil
	}
	cat = slices.Clone(cat)
	// a game the catalogue could not describe (its entry did not arrive
	// whole) is offered from the rules this client knows
	for _, s := range games.All() {
		if !slices.ContainsFunc(cat, func(g segment.GameInfoBody) bool { return g.Name == s.Name }) {
			g := segment.GameInfoBody{Name: s.Name, Min: uint8(s.MinPlayers), Max: uint8(s.MaxPlayers)}
			for _, o := range s.Options {
				g.Options = append(g.Options, segment.OptionInfo{Key: o.Key, Kind: uint8(o.Kind), Default: o.Default,
					Min: int32(o.Min), Max: int32(o.Max), Choices: o.Choices, Doc: o.Doc})
			}
			cat = append(cat, g)
		}
	}
	f := &createForm{games: cat}
	f.pick(0)
	return f
}

func (f *createForm) pick(i int) {
	f.game = (i + len(f.games)) % len(f.games)
	g := f.games[f.game]
	f.seats = int(g.Min)
	f.vals = nil
	for _, o := range g.Options {
		f.vals = append(f.vals, o.Default)
	}
	f.field = 0
}

// fields: game, seats, private, watchers, computer players, clock, start,
// chat, then the options.
func (f *createForm) nfields() int { return formFields + len(f.vals) }

func (f *createForm) change(d int) {
	g := f.games[f.game]
	switch f.field {
	case 0:
		f.pick(f.game + d)
	case 1:
		f.seats = bound(f.seats+d, int(g.Min), int(g.Max))
	case 2:
		f.priv = !f.priv
	case 3:
		f.watch = (f.watch + d + 3) % 3
	case 4:
		f.bots = !f.bots
	case 5:
		f.clock = (f.clock + d + len(clockChoices)) % len(clockChoices)
	case 6:
		f.host = !f.host
	case 7:
		f.apart = !f.apart
	default:
		i := f.field - formFields
		o := g.Options[i]
		switch o.Kind {
		case segment.OptBool:
			if f.vals[i] == "true" || f.vals[i] == "1" {
				f.vals[i] = "false"
			} else {
				f.vals[i] = "true"
			}
		case segment.OptChoice:
			if len(o.Choices) > 0 {
				j := slices.Index(o.Choices, f.vals[i])
				f.vals[i] = o.Choices[(j+d+len(o.Choices))%len(o.Choices)]
			}
		case segment.OptInt:
			n, _ := strconv.Atoi(f.vals[i])
			step := 1
			if o.Max-o.Min > 100 {
				step = 10
			}
			f.vals[i] = strconv.Itoa(bound(n+d*step, int(o.Min), int(o.Max)))
		}
	}
}

func (f *createForm) message() (string, int, uint8, []segment.KV) {
	g := f.games[f.game]
	var kvs []segment.KV
	for i, o := range g.Options {
		if f.vals[i] != o.Default {
			kvs = append(kvs, segment.KV{Key: o.Key, Value: f.vals[i]})
		}
	}
	kvs = append(kvs, clockChoices[f.clock].kvs...)
	// the room options, sent only when not the server's defaults
	if f.host {
		kvs = append(kvs, segment.KV{Key: "start", Value: "host"})
	}
	if f.apart {
		kvs = append(kvs, segment.KV{Key: "chat", Value: "separate"})
	}
	flags := uint8(f.watch) << 1
	if f.priv {
		flags |= segment.FlagPrivate
	}
	return g.Name, f.seats, flags, kvs
}

func (m *tmodel) createKey(key string) {
	f := m.creating
	switch key {
	case "up", "k":
		f.field = (f.field - 1 + f.nfields()) % f.nfields()
	case "down", "j", "tab":
		f.field = (f.field + 1) % f.nfields()
	case "left", "h", "-":
		f.change(-1)
	case "right", "l", "+", "space":
		f.change(1)
	case "enter":
		m.creating = nil
		m.botsWanted = f.bots
		m.act(m.c.Create(f.message()))
	case "esc", "q":
		m.creating = nil
	}
}

// clockTick redraws the clocks while they run.
type clockTick struct{}

func (m *tmodel) clockTicker() tea.Cmd {
	if cl := m.c.Clock(); cl == nil {
		return nil
	}
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return clockTick{} })
}

// now is the wall clock, the only one the model reads (for the clocks and
// liveness); tests set clock.
func (m *tmodel) now() time.Time {
	if m.clock != nil {
		return m.clock()
	}
	return time.Now()
}

// clockLine shows each seat's time, counting down the running one.
func (m *tmodel) clockLine() string {
	cl := m.c.Clock()
	if cl == nil {
		return ""
	}
	var parts []string
	elapsed := m.now().Sub(m.clockAt).Milliseconds()
	for i, s := range cl.Seats {
		if s.Left < 0 {
			continue
		}
		left := int64(s.Left)
		mark := ""
		if s.Flags&segment.ClockRunning != 0 {
			left = max(0, left-elapsed)
			mark = " <"
		}
		if s.Flags&segment.ClockPaused != 0 {
			mark = " (held)"
		}
		parts = append(parts, fmt.Sprintf("%s %d:%02d%s", shortName(m.c.SeatName(i)), left/60000, left/1000%60, mark))
	}
	if len(parts) == 0 {
		return ""
	}
	return "clock: " + strings.Join(parts, "  ")
}

// errCodeWords say in words what each Error code means, for a refusal the
// server sent without text of its own.
var errCodeWords = map[uint8]string{
	segment.ErrCodeBadRequest:    "the server could not read the request",
	segment.ErrCodeNoTable:       "no such table",
	segment.ErrCodeTableFull:     "the table is full",
	segment.ErrCodeNotAtTable:    "you are not at a table",
	segment.ErrCodeAtTable:       "you are already at a table",
	segment.ErrCodeIllegal:       "that move is not allowed",
	segment.ErrCodeNotYourTurn:   "not your turn",
	segment.ErrCodeGameOver:      "no game is running",
	segment.ErrCodeBadOption:     "an option is not allowed",
	segment.ErrCodeTooManyTables: "too many tables are open",
	segment.ErrCodeNotAllowed:    "not allowed",
	segment.ErrCodeChatBadUTF8:   "the message is not text",
	segment.ErrCodeChatTooLong:   "the message is too long",
	segment.ErrCodeChatFlood:     "you are chatting too fast: wait a moment",
	segment.ErrCodeNoUser:        "no such user",
	segment.ErrCodeNotLoggedIn:   "log in first",
	segment.ErrCodeBadNotation:   "the move could not be read",
	segment.ErrCodeNoOffer:       "there is no such offer to make or answer",
	segment.ErrCodeUnknownGame:   "the server does not have that game",
	segment.ErrCodeNotSeated:     "only the players may do that",
}

// codeSaysAll are the codes whose words say all a player needs: the
// server's text for them is for developers ("seat 1 is to move, not 0",
// "ChatMsg body of 401 bytes (cap 300)").
var codeSaysAll = map[uint8]bool{
	segment.ErrCodeBadRequest: true, segment.ErrCodeNotYourTurn: true, segment.ErrCodeChatBadUTF8: true,
	segment.ErrCodeChatTooLong: true, segment.ErrCodeChatFlood: true, segment.ErrCodeNotLoggedIn: true,
}

// codeAndReason are the codes whose words the server's text completes:
// the rules' reason ("that move is not allowed: a1-b1 is already drawn").
var codeAndReason = map[uint8]bool{
	segment.ErrCodeIllegal: true, segment.ErrCodeBadNotation: true, segment.ErrCodeBadOption: true,
}

// errWords is a refusal for people: the code's words with the rules'
// reason, the server's own words (which table, which user), or the code's.
func errWords(e segment.ErrorBody) string {
	if e.Text != "" && codeAndReason[e.Code] {
		return errCodeWords[e.Code] + ": " + e.Text
	}
	if e.Text != "" && !codeSaysAll[e.Code] {
		return e.Text
	}
	if w, ok := errCodeWords[e.Code]; ok {
		return w
	}
	return fmt.Sprintf("the server refused (code %d)", e.Code)
}
