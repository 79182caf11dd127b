package main

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
)

// tstyles are the tables client's colours. Every mark also has its own
// character ([x] cursor, (x) chosen, *x destination), so the screens read
// the same in monochrome (--mono, NO_COLOR).
type tstyles struct {
	title, dim, err, ok, key, plain lipgloss.Style
	cursor, light, white, line      lipgloss.Style
	temple                          lipgloss.Style
}

func newTStyles() *tstyles {
	c := lipgloss.Color
	return &tstyles{
		title:  lipgloss.NewStyle().Bold(true),
		dim:    lipgloss.NewStyle().Faint(true),
		err:    lipgloss.NewStyle().Foreground(c("9")).Bold(true),
		ok:     lipgloss.NewStyle().Foreground(c("10")).Bold(true),
		key:    lipgloss.NewStyle().Foreground(c("14")),
		plain:  lipgloss.NewStyle(),
		cursor: lipgloss.NewStyle().Foreground(c("14")).Bold(true),
		light:  lipgloss.NewStyle().Background(c("236")),
		white:  lipgloss.NewStyle().Foreground(c("15")).Bold(true),
		line:   lipgloss.NewStyle().Foreground(c("14")),
		temple: lipgloss.NewStyle().Foreground(c("13")),
	}
}

// screenW and screenH are the smallest terminal the screens are laid out
// for; a larger one gets the whole width (nothing is cut before its edge).
const screenW, screenH = 80, 24

// View renders the screen; it fits 80x24, and uses the width of a wider
// terminal.
func (m *tmodel) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "Bomber tables"
	return v
}

func (m *tmodel) render() string {
	var lines []string
	switch {
	case m.replay != nil:
		lines = m.replay.render(m.st)
	case m.c.State() == ext.Kicked:
		lines = []string{m.st.title.Render("Bomber tables"), "", m.st.err.Render("You were logged out: your account logged in elsewhere."), "", m.keys("q quit")}
	case m.c.State() == ext.NeedLogin || m.c.State() == ext.Offline && !m.connected && m.attempts == 0:
		lines = m.renderLogin()
	case m.c.State() != ext.Lobby:
		s := "Connecting..."
		if m.attempts > 0 {
			s = fmt.Sprintf("Disconnected. Reconnecting every 0.5 s (attempt %d).", m.attempts)
		}
		lines = []string{m.st.title.Render("Bomber tables"), "", s, "", m.keys("ctrl+c quit")}
		lines = append(lines, m.status...)
	case m.creating != nil:
		lines = m.renderCreate()
	case m.prof != nil && m.c.State() == ext.Lobby:
		lines = m.renderProfile()
	case m.c.Table() != nil:
		lines = m.renderTable()
	default:
		lines = m.renderLobby()
	}
	w, h := m.size()
	return fit(lines, w, h)
}

// size is the terminal's size, or 80x24 before it is known.
func (m *tmodel) size() (w, h int) {
	w, h = m.width, m.height
	if w <= 0 {
		w = screenW
	}
	if h <= 0 {
		h = screenH
	}
	return w, h
}

// fit cuts the screen to w columns and h lines.
func fit(lines []string, w, h int) string {
	var all []string
	for _, l := range lines {
		all = append(all, strings.Split(l, "\n")...)
	}
	if len(all) > h {
		all = all[:h]
	}
	for i, l := range all {
		all[i] = ansi.Truncate(l, w, "")
	}
	return strings.Join(all, "\n")
}

func (m *tmodel) keys(s string) string { return m.st.key.Render(s) }

func (m *tmodel) header(extra string) string {
	h := m.st.title.Render("Bomber tables")
	if u := m.c.User(); u != "" && m.c.State() == ext.Lobby {
		h += " - " + u
	}
	if extra != "" {
		h += "  " + extra
	}
	return h
}

// footer is the prompt or error, the last event, and the keys.
func (m *tmodel) footer(keys string) []string {
	var out []string
	last := ""
	if n := len(m.status); n > 0 {
		last = m.status[n-1]
	}
	out = append(out, m.st.dim.Render(last))
	switch {
	case m.input != nil:
		out = append(out, m.input.label+m.input.text+"_")
	case m.err != "":
		out = append(out, m.st.err.Render(m.err))
	default:
		out = append(out, "")
	}
	return append(out, m.keys(keys))
}

func (m *tmodel) renderLogin() []string {
	name, pass := m.name, strings.Repeat("*", len([]rune(m.pass)))
	mark := func(i int) string {
		if m.focus == i {
			return "> "
		}
		return "  "
	}
	out := []string{m.header(m.st.dim.Render(m.cfg.addr)), "", "Log in", "",
		mark(0) + "user:     " + name, mark(1) + "password: " + pass, ""}
	if m.err != "" {
		out = append(out, m.st.err.Render(m.err))
	}
	return append(out, m.keys("tab switch field   enter log in   esc quit"))
}

func seatsText(t segment.TableBody) string {
	var parts []string
	for i, s := range t.Seats {
		n := segment.SafeText(s.Name)
		switch {
		case n == "" && s.Flags&segment.SeatBot != 0:
			n = "computer"
		case n == "":
			n = "-"
		}
		if s.Flags&segment.SeatReady != 0 {
			n += "*"
		}
		if s.Flags&segment.SeatBot != 0 && s.Name != "" {
			n += "(bot)"
		}
		if s.Flags&segment.SeatGone != 0 {
			n += "(away)"
		}
		parts = append(parts, fmt.Sprintf("%d %s", i+1, n))
	}
	return strings.Join(parts, "  ")
}

var phaseNames = []string{"waiting", "playing", "over"}

func phaseName(p uint8) string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "?"
}

func (m *tmodel) renderLobby() []string {
	out := []string{m.header(m.st.dim.Render(m.cfg.addr)), ""}
	tables := m.c.Tables()
	online := m.c.Online()
	left := []string{m.st.title.Render(fmt.Sprintf("Open tables (%d)", len(tables)))}
	for i, t := range tables {
		mark := "  "
		if i == bound(m.sel, 0, len(tables)-1) {
			mark = m.st.cursor.Render("> ")
		}
		lock := ""
		if t.Flags&segment.FlagPrivate != 0 {
			lock = " [private]"
		}
		left = append(left, fmt.Sprintf("%s#%-3d %-15s %-7s %s%s", mark, t.ID, m.title(t.Game), phaseName(t.Phase), seatsText(t), lock))
	}
	if len(tables) == 0 {
		left = append(left, m.st.dim.Render("  none yet: c creates one"))
	}
	right := []string{m.st.title.Render(fmt.Sprintf("Online (%d)", len(online)))}
	for _, u := range online {
		right = append(right, " "+segment.SafeText(u))
	}
	w, _ := m.size()
	out = append(out, columns(left[:min(len(left), 11)], right[:min(len(right), 11)], max(58, w-22))...)
	for len(out) < 14 {
		out = append(out, "")
	}
	out = append(out, m.st.title.Render("Lobby chat"))
	chat := m.c.LobbyChat
	for _, l := range chat[max(0, len(chat)-5):] {
		out = append(out, " "+chatText(l))
	}
	for len(out) < 21 {
		out = append(out, "")
	}
	if n := len(m.c.Invites); n > 0 {
		inv := m.c.Invites[n-1]
		out[20] = m.st.ok.Render(fmt.Sprintf("%s invites you to table #%d (%s): a accepts", segment.SafeText(inv.From), inv.Table, m.title(inv.Game)))
	} else if l := m.seekLine(); l != "" {
		out[20] = l
	}
	return append(out, m.footer("up/down choose  enter join  w watch  c create  J join by code  p play now  i profile  t chat  q quit")...)
}

// columns puts two blocks side by side, the left one padded to width w.
func columns(left, right []string, w int) []string {
	var out []string
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = ansi.Truncate(left[i], w-1, "")
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, l+strings.Repeat(" ", max(0, w-lipgloss.Width(l)))+r)
	}
	return out
}

func (m *tmodel) renderCreate() []string {
	f := m.creating
	g := f.games[f.game]
	out := []string{m.header(""), "", m.st.title.Render("Create a table"), ""}
	row := func(i int, name, val, doc string) {
		mark := "  "
		if f.field == i {
			mark = m.st.cursor.Render("> ")
			val = "< " + val + " >"
		}
		out = append(out, fmt.Sprintf("%s%-16s %-14s %s", mark, name, val, m.st.dim.Render(doc)))
	}
	row(0, "game", m.title(g.Name), "")
	row(1, "seats", fmt.Sprint(f.seats), fmt.Sprintf("%d..%d", g.Min, g.Max))
	row(2, "private", fmt.Sprint(f.priv), "a join code; not listed")
	row(3, "watchers", []string{"anyone", "with the code", "nobody"}[f.watch], "")
	row(4, "computer players", fmt.Sprint(f.bots), "the computer takes the empty seats")
	row(5, "clock", clockChoices[f.clock].name, "time control")
	row(6, "start", map[bool]string{false: "all ready", true: "host starts"}[f.host], "when every player is ready, or when the host starts it")
	row(7, "chat", map[bool]string{false: "one room", true: "watchers apart"}[f.apart], "players and watchers in one room, or apart")
	for i, o := range g.Options {
		row(formFields+i, o.Key, f.vals[i], o.Doc)
	}
	for len(out) < 21 {
		out = append(out, "")
	}
	return append(out, m.footer("up/down field  left/right change  enter create  esc back")...)
}

func (m *tmodel) renderTable() []string {
	t := m.c.Table()
	g := m.c.Game()
	seat := m.c.Seat()
	who := "watching"
	if seat >= 0 {
		who = fmt.Sprintf("seat %d", seat+1)
	}
	code := ""
	if t.Code != "" {
		code = " code " + t.Code
	}
	moves := ""
	if g != nil {
		moves = fmt.Sprintf("  moves %d", g.Played())
	}
	out := []string{
		m.header(fmt.Sprintf("table #%d %s%s  %s", t.ID, m.title(t.Game), code, who)),
		fmt.Sprintf("%s  [%s]  watchers %d%s", seatsText(*t), phaseName(t.Phase), t.Watchers, moves),
	}
	var boardLines, info []string
	b := m.board()
	if v, ok := m.view(); ok {
		dests, froms := m.marks()
		u := boardUI{st: m.st, me: seat, cur: m.cur, sel: m.from, dests: dests, froms: froms, live: seat >= 0 && !g.Over()}
		if _, ok := b.(aeroBoard); ok {
			u.roll = aeroRoll(g.Moves, g.Steps)
		}
		boardLines = b.render(v, u)
		info = b.info(v, u)
	} else {
		boardLines = m.waitingLines(*t, seat)
	}
	side := info
	if cl := m.clockLine(); cl != "" {
		side = append([]string{cl}, side...)
	}
	if g != nil {
		side = append(side, "", m.st.title.Render("Moves"))
		moves := g.Moves
		from := max(0, len(moves)-6)
		if g.Earlier > 0 && from == 0 {
			side = append(side, m.st.dim.Render(fmt.Sprintf("%d before you came", g.Earlier)))
		}
		for i, mv := range moves[from:] {
			text := moveText(t.Game, mv.Notation, g.Steps(mv.Seq))
			side = append(side, fmt.Sprintf("%3d %s %s", g.Earlier+from+i+1, shortName(m.c.SeatName(int(mv.Seat))), text))
		}
	}
	side = append(side, "", m.st.title.Render("Chat"))
	chat := m.c.TableChat
	for _, l := range chat[max(0, len(chat)-4):] {
		side = append(side, chatText(l))
	}
	w := 0
	for _, l := range boardLines {
		w = max(w, lipgloss.Width(l))
	}
	w = min(w+2, 56)
	body := columns(boardLines, side, w)
	if len(body) > 18 {
		body = body[:18]
	}
	out = append(out, body...)
	for len(out) < 20 {
		out = append(out, "")
	}
	out = append(out, m.turnLine())
	keys := "r ready  b computer  t chat  i invite  q leave"
	if g != nil && !g.Over() && seat >= 0 {
		offers, allowed := "", m.c.Facts(t.Game).Flags
		if allowed&segment.GameDraws != 0 {
			offers += "  d draw"
		}
		if allowed&segment.GameTakeback != 0 {
			offers += "  u undo"
		}
		keys = "arrows  enter  tab hint  : notation" + offers + "  R resign  t chat  q leave"
	} else if g != nil && g.Over() {
		keys = "r ready  M rematch  v replay  t chat  q leave"
	}
	return append(out, m.footer(keys)...)
}

// title is a game's name for people, as the catalogue gives it.
func (m *tmodel) title(game string) string { return m.c.Facts(game).Title }

// chatText is a chat line as shown. Text from the server is shown only
// with its control and bidi characters replaced (segment.SafeText): a CR
// in a line would otherwise let its sender overwrite the line with a
// forged one from someone else, an escape sequence rewrite the screen.
func chatText(l ext.ChatLine) string {
	return segment.SafeText(l.From) + ": " + segment.SafeText(l.Text)
}

func shortName(s string) string {
	s = segment.SafeText(s)
	if r := []rune(s); len(r) > 8 {
		return string(r[:8])
	}
	return s
}

// turnLine says whose turn it is, the offer standing and the result.
func (m *tmodel) turnLine() string {
	g := m.c.Game()
	if of := m.c.Standing(); of != nil {
		if int(of.Seat) == m.c.Seat() {
			return m.st.ok.Render("You offered a " + ext.OfferName(of.What) + "; waiting for an answer.")
		}
		return m.st.ok.Render(segment.SafeText(m.c.SeatName(int(of.Seat))) + " offers a " + ext.OfferName(of.What) + ": y accept, n decline")
	}
	if g == nil {
		return ""
	}
	if g.Over() {
		e := g.End
		switch e.Status {
		case segment.EndDrawn:
			return m.st.ok.Render("GAME OVER: drawn (" + e.Reason + ")")
		case segment.EndNoResult:
			return m.st.ok.Render("GAME OVER: no result (" + e.Reason + ")")
		}
		for _, w := range e.Winners {
			if int(w) == m.c.Seat() {
				return m.st.ok.Render("GAME OVER: YOU WON (" + e.Reason + ")")
			}
		}
		var names []string
		for _, w := range e.Winners {
			names = append(names, segment.SafeText(m.c.SeatName(int(w))))
		}
		return m.st.ok.Render("GAME OVER: " + strings.Join(names, " and ") + " won (" + e.Reason + ")")
	}
	if m.c.MyTurn() {
		if c := m.candidates(); len(c) > 0 && g.Replica() != nil {
			mv := c[0]
			if m.hint != nil && slices.Contains(c, *m.hint) {
				mv = *m.hint
			}
			more := ""
			if len(c) > 1 {
				more = fmt.Sprintf(" (%d ways there: tab shows each)", len(c))
			}
			return m.st.ok.Render("Your turn. ") + "enter plays " + g.Replica().Game().FormatMove(mv) + more
		}
		return m.st.ok.Render("Your turn. ") + m.st.dim.Render(m.board().keys())
	}
	var to []string
	for _, p := range g.Current().ToMove {
		to = append(to, segment.SafeText(m.c.SeatName(int(p))))
	}
	return "Waiting for " + strings.Join(to, ", ") + "."
}

// waitingLines is the board's place before a game: how it starts (the
// ready check, or the host's start), the keys, and for a table with a
// join code the links and the number and code to share.
func (m *tmodel) waitingLines(t segment.TableBody, seat int) []string {
	hostStarts := tableOption(t, "start") == "host"
	host := slices.IndexFunc(t.Seats, func(s segment.SeatInfo) bool { return s.Name != "" && s.Flags&segment.SeatBot == 0 })
	out := []string{"", "  Waiting for every seat to fill and be ready.", "", "  r  ready (start when everyone is)"}
	switch {
	case hostStarts && seat == host:
		out = []string{"", "  Waiting for every seat to fill; then you start.", "", "  r  start the game (once every seat is filled)"}
	case hostStarts:
		out = []string{"", "  Waiting for every seat to fill and the host", "  to start the game.", "  r  ready (the host starts)"}
	}
	out = append(out, "  b  give the computer an empty seat", "  i  invite a user", "  t  chat with the table", "  q  leave")
	if t.Code != "" && seat >= 0 {
		base := webBase(m.cfg)
		out = append(out, "", "  Share to invite (J or W in the lobby: "+fmt.Sprintf("%d %s", t.ID, t.Code)+"):",
			"  "+inviteLink(base, t.ID, t.Code, false), "  "+inviteLink(base, t.ID, t.Code, true))
	}
	return out
}

// tableOption is the value of a table's option key ("" if unset).
func tableOption(t segment.TableBody, key string) string {
	for _, kv := range t.Options {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}
