package main

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/bomber-game/bomber/client"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// styles are the UI's colours. Every cell also has its own character, so
// the boards read the same without colour (--mono, NO_COLOR).
type styles struct {
	title, dim, err, ok, key                 lipgloss.Style
	water, plane, head, miss, hit, bad, good lipgloss.Style
	cursor, mark                             lipgloss.Style
	planes                                   [3]lipgloss.Style // one colour per plane
}

// planeLetters tell the three planes apart without colour; heads are @.
var planeLetters = [3]string{"a", "b", "c"}

func newStyles() styles {
	c := lipgloss.Color
	return styles{
		title:  lipgloss.NewStyle().Bold(true),
		dim:    lipgloss.NewStyle().Faint(true),
		err:    lipgloss.NewStyle().Foreground(c("9")).Bold(true),
		ok:     lipgloss.NewStyle().Foreground(c("10")).Bold(true),
		key:    lipgloss.NewStyle().Foreground(c("14")),
		water:  lipgloss.NewStyle().Foreground(c("8")),
		plane:  lipgloss.NewStyle().Foreground(c("12")),
		head:   lipgloss.NewStyle().Foreground(c("12")).Bold(true),
		miss:   lipgloss.NewStyle().Foreground(c("6")),
		hit:    lipgloss.NewStyle().Foreground(c("9")).Bold(true),
		bad:    lipgloss.NewStyle().Foreground(c("9")).Bold(true),
		good:   lipgloss.NewStyle().Foreground(c("10")).Bold(true),
		cursor: lipgloss.NewStyle().Reverse(true),
		mark:   lipgloss.NewStyle().Reverse(true).Underline(true),
		planes: [3]lipgloss.Style{
			lipgloss.NewStyle().Foreground(c("12")),
			lipgloss.NewStyle().Foreground(c("13")),
			lipgloss.NewStyle().Foreground(c("11")),
		},
	}
}

// View renders the screen; it fits 80x24.
func (m *model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "Bomber"
	return v
}

func (m *model) render() string {
	var b strings.Builder
	header := "Bomber"
	if u := m.c.User(); u != "" && m.c.State() >= client.UserSync && m.c.State() <= client.Game {
		header += " - " + u
	}
	b.WriteString(m.st.title.Render(header) + "  " + m.st.dim.Render(m.cfg.addr) + "\n\n")
	switch m.screen() {
	case scrOffline:
		if m.attempts > 0 {
			fmt.Fprintf(&b, "Disconnected. Reconnecting every 0.5 s (attempt %d).\n\n", m.attempts)
		} else {
			b.WriteString("Connecting...\n\n")
		}
		b.WriteString(m.keys("q quit"))
	case scrKicked:
		b.WriteString(m.st.err.Render("You were logged out: your account logged in elsewhere.") + "\n\n")
		b.WriteString(m.keys("r log in again here (logs the other session out)   q quit"))
	case scrLogin:
		m.renderLogin(&b)
	case scrLobby:
		m.renderLobby(&b)
	case scrResult:
		m.renderResult(&b)
	case scrDrawing:
		m.renderDrawing(&b)
	case scrWaiting:
		b.WriteString("Your planes are sent. Waiting for " + m.peer() + "'s planes...\n\n")
		b.WriteString(m.ownGrid(nil))
		m.hint(&b, "q quit")
	case scrPlaying:
		m.renderPlaying(&b)
	}
	b.WriteString("\n")
	if m.err != "" {
		b.WriteString(m.st.err.Render("! "+m.err) + "\n")
	}
	for _, s := range m.status {
		b.WriteString(m.st.dim.Render("> ") + s + "\n")
	}
	return b.String()
}

func (m *model) keys(s string) string { return m.st.key.Render(s) + "\n" }

// hint writes the key line of a game screen, or the quit question while it
// is asked.
func (m *model) hint(b *strings.Builder, keys string) {
	if m.confirmQuit {
		b.WriteString(m.st.err.Render("Quit? The game against "+m.peer()+" ends.") + " " + m.keys("y quit   any other key: keep playing"))
		return
	}
	b.WriteString(m.keys(keys))
}

func (m *model) renderLogin(b *strings.Builder) {
	b.WriteString("Log in\n\n")
	cur := func(i int) string {
		if m.focus == i && m.c.State() == client.GatherUserInfo {
			return m.st.cursor.Render(" ")
		}
		return ""
	}
	fmt.Fprintf(b, "  Name:     %s%s\n", m.name, cur(0))
	fmt.Fprintf(b, "  Password: %s%s\n\n", strings.Repeat("*", len([]rune(m.pass))), cur(1))
	if m.c.State() != client.GatherUserInfo {
		b.WriteString("Logging in...\n")
		return
	}
	b.WriteString(m.keys("tab switch field   enter log in   ctrl+c quit"))
}

func (m *model) renderLobby(b *strings.Builder) {
	users := m.c.Online()
	b.WriteString("Online players\n")
	if len(users) == 0 {
		b.WriteString(m.st.dim.Render("  (nobody else is online yet)") + "\n")
	}
	const shown = 10
	first := clamp(m.sel-shown+1, 0, max(0, len(users)-shown))
	for i := first; i < len(users) && i < first+shown; i++ {
		name := segment.SafeText(users[i])
		line := "  " + name
		if i == m.sel {
			line = m.st.cursor.Render("> " + name)
		}
		b.WriteString(line + "\n")
	}
	if len(users) > shown {
		fmt.Fprintf(b, m.st.dim.Render("  (%d players)")+"\n", len(users))
	}
	b.WriteString("\n")
	switch m.c.State() {
	case client.ClientInvited:
		b.WriteString(m.st.ok.Render(m.peer()+" invites you to a game.") + "\n")
		b.WriteString(m.keys("a accept   r refuse"))
	case client.ClientInviting:
		b.WriteString("Invited " + m.peer() + ", waiting for the answer...\n")
	case client.UserSync:
		b.WriteString("Loading the player list...\n")
	default:
		b.WriteString(m.keys("up/down choose   enter invite   q quit"))
	}
}

func (m *model) renderResult(b *strings.Builder) {
	o := m.c.Outcome()
	style := m.st.title
	switch o {
	case client.Won:
		style = m.st.ok
	case client.Lost:
		style = m.st.err
	}
	text := map[client.Outcome]string{
		client.Won:          "YOU WON!",
		client.Lost:         "YOU LOST.",
		client.OpponentLeft: "GAME OVER: your opponent left.",
		client.Disconnected: "GAME OVER: the connection dropped.",
	}[o]
	b.WriteString(style.Render(text) + fmt.Sprintf("  (%d guesses, %d of 30 enemy cells found)", m.c.Guesses(), m.c.Revealed()) + "\n\n")
	if _, ok := m.c.MyBoard(); ok {
		b.WriteString(m.boards(false))
	}
	if _, ok := m.c.TheirBoard(); ok {
		b.WriteString(m.st.dim.Render("a b c @ on "+m.peer()+"'s board: where the planes were that you did not find") + "\n")
	}
	b.WriteString(m.keys("enter back to the lobby   q quit"))
}

func (m *model) renderDrawing(b *strings.Builder) {
	left := 3 - len(m.draw.placed)
	if left > 0 {
		fmt.Fprintf(b, "Draw your planes for the game against %s: %s (%s)\n", m.peer(), placeMore(left), m.draw.orient)
	} else {
		fmt.Fprintf(b, "Draw your planes for the game against %s\n", m.peer())
	}
	_, cells, err := m.draw.preview()
	bad := err != nil
	if len(m.draw.placed) == 3 {
		cells = nil
	}
	b.WriteString(m.ownGrid(&overlay{cells: cells, bad: bad, cur: m.draw.cur}))
	switch {
	case len(m.draw.placed) == 3:
		b.WriteString(m.st.ok.Render("All three planes placed.") + " ")
		m.hint(b, "s send   u undo   q quit")
	case bad:
		b.WriteString(m.st.bad.Render("! cannot place here: "+err.Error()) + "\n")
		m.hint(b, "arrows move   r rotate   u undo   q quit")
	default:
		m.hint(b, "arrows move   r rotate   enter place   u undo   q quit")
	}
}

func (m *model) renderPlaying(b *strings.Builder) {
	turn := m.st.ok.Render("Your turn.")
	if !m.c.MyTurn() {
		turn = "Waiting for " + m.peer() + "'s guess."
	}
	fmt.Fprintf(b, "Playing %s  %s  Found %d/30.\n", m.peer(), turn, m.c.Revealed())
	b.WriteString(m.boards(true))
	if m.head != nil {
		m.hint(b, "head "+client.CellName(*m.head)+" marked: move to the tail centre, d or enter guess it, esc cancel")
	} else {
		m.hint(b, "arrows move   enter guess cell   d mark a head for a plane guess   q quit")
	}
}

// overlay is the drawing preview on our grid.
type overlay struct {
	cells []pos
	bad   bool
	cur   pos
}

const cols = "   0 1 2 3 4 5 6 7 8 9"

// ownGrid renders our board: placed planes (or the ones being drawn), the
// opponent's guesses, and the drawing preview.
func (m *model) ownGrid(ov *overlay) string {
	return strings.Join(m.ownLines(ov), "\n") + "\n"
}

// planeOf is which of planes covers c (0, 1 or 2), or -1; heads says
// whether c is a head.
func planeOf(planes []bomber.Plane, c bomber.Cell) (i int, head bool) {
	for i, p := range planes {
		if s, err := p.Cells(); err == nil && s.Has(c) {
			return i, p.Head == c
		}
	}
	return -1, false
}

func (m *model) ownLines(ov *overlay) []string {
	var planes []bomber.Plane
	if ov != nil {
		planes = m.draw.placed
	} else if b, ok := m.c.MyBoard(); ok {
		planes = b[:]
	}
	tried, hit := m.c.TheirGuesses()
	preview := map[pos]bool{}
	if ov != nil {
		for _, p := range ov.cells {
			preview[p] = true
		}
	}
	lines := []string{"Your board", cols}
	for x := 0; x < bomber.Size; x++ {
		var row strings.Builder
		row.WriteString(fmt.Sprintf(" %c", 'A'+x))
		for y := 0; y < bomber.Size; y++ {
			c := bomber.CellAt(x, y)
			ch, st := ".", m.st.water
			i, head := planeOf(planes, c)
			switch {
			case hit.Has(c):
				ch, st = "X", m.st.hit
			case i >= 0 && head:
				ch, st = "@", m.st.planes[i].Bold(true)
			case i >= 0:
				ch, st = planeLetters[i], m.st.planes[i]
			case tried.Has(c):
				ch, st = "o", m.st.miss
			}
			if preview[pos{x, y}] {
				ch, st = "+", m.st.good
				if ov.bad {
					ch, st = "!", m.st.bad
				}
			}
			if ov != nil && ov.cur == (pos{x, y}) {
				st = m.st.cursor
			}
			row.WriteString(" " + st.Render(ch))
		}
		lines = append(lines, row.String())
	}
	if ov != nil {
		// Preview cells off the board are shown as a count, so a plane that
		// hangs over the edge is visibly wrong.
		off := 0
		for _, p := range ov.cells {
			if p.cell() == bomber.NoCell {
				off++
			}
		}
		if off > 0 {
			lines = append(lines, m.st.bad.Render(fmt.Sprintf(" %d cells off the board", off)))
		}
	}
	return lines
}

func (m *model) theirLines(cursor bool) []string {
	lines := []string{m.peer() + "'s board", cols}
	// After the game, where their planes were (the client tells only then).
	var planes []bomber.Plane
	if b, ok := m.c.TheirBoard(); ok {
		planes = b[:]
	}
	for x := 0; x < bomber.Size; x++ {
		var row strings.Builder
		row.WriteString(fmt.Sprintf(" %c", 'A'+x))
		for y := 0; y < bomber.Size; y++ {
			c := bomber.CellAt(x, y)
			ch, st := ".", m.st.water
			switch m.c.Mark(c) {
			case client.Miss:
				ch, st = "o", m.st.miss
			case client.Hit:
				ch, st = "#", m.st.hit
			case client.HeadHit:
				ch, st = "@", m.st.hit
			default:
				if i, head := planeOf(planes, c); i >= 0 {
					ch, st = planeLetters[i], m.st.planes[i]
					if head {
						ch = "@"
					}
				}
			}
			switch {
			case m.head != nil && *m.head == c:
				st = m.st.mark
				if ch == "." {
					ch = "H"
				}
			case cursor && m.aim == (pos{x, y}):
				st = m.st.cursor
			}
			row.WriteString(" " + st.Render(ch))
		}
		lines = append(lines, row.String())
	}
	return lines
}

// boards puts our board and the opponent's side by side (22 + 6 + 22
// columns).
func (m *model) boards(cursor bool) string {
	left, right := m.ownLines(nil), m.theirLines(cursor)
	var b strings.Builder
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		pad := 28 - lipgloss.Width(l)
		b.WriteString(l + strings.Repeat(" ", max(1, pad)) + r + "\n")
	}
	return b.String()
}
