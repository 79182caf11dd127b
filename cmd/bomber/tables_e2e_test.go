package main

import (
	"cmp"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/paisho"
	"github.com/bomber-game/bomber/segment"
)

// tmuxClient is one bomber --tables in an 80x24 tmux pane.
type tmuxClient struct {
	t        *testing.T
	tmux     string
	sock     string
	deadline time.Time
	screens  int
	width    int // the pane's columns (0: 80)
}

func (c *tmuxClient) run(args ...string) string {
	c.t.Helper()
	out, err := exec.Command(c.tmux, append([]string{"-S", c.sock}, args...)...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (c *tmuxClient) keys(k ...string) { c.run(append([]string{"send-keys", "-t", "play"}, k...)...) }

// screen captures the pane and checks that it fits 80x24 (or the pane's
// width) with the title on top (a screen taller than the pane would have
// scrolled it away).
func (c *tmuxClient) screen() string {
	c.t.Helper()
	s := c.run("capture-pane", "-p", "-t", "play")
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 24 {
		c.t.Fatalf("%d lines:\n%s", len(lines), s)
	}
	width := cmp.Or(c.width, 80)
	for _, l := range lines {
		if len([]rune(l)) > width {
			c.t.Fatalf("a line wider than %d columns: %q", width, l)
		}
	}
	if strings.TrimSpace(s) != "" && !strings.HasPrefix(lines[0], "Bomber tables") {
		c.t.Fatalf("the title scrolled away:\n%s", s)
	}
	c.screens++
	return s
}

// waitFor polls the screen until it shows one of what.
func (c *tmuxClient) waitFor(what ...string) string {
	c.t.Helper()
	for {
		s := c.screen()
		for _, w := range what {
			if strings.Contains(s, w) {
				return s
			}
		}
		if time.Now().After(c.deadline) {
			c.t.Fatalf("the screen never showed %q:\n%s", what, s)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

var movesRE = regexp.MustCompile(`moves (\d+)`)

func movesOn(s string) int {
	m := movesRE.FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestTmuxTables runs bomber --tables in tmux against a real bomberd and
// plays each game to its end with a person's keys: Checkers against the
// computer (one move typed in notation, the others by cursor), Dots and
// Boxes with three seats against two computer players, Aeroplane Chess
// against the computer until the person resigns, and Pai Sho against a
// scripted second client (client/tables) until the move limit draws it.
// It also chats in the lobby. Every screen must fit 80x24.
func TestTmuxTables(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	tmux := needTmux(t)
	dir, bomberd, bomber := buildBoth(t)
	addr := startBomberd(t, bomberd, dir)
	px := startProxy(t, addr)
	c := &tmuxClient{t: t, tmux: tmux, sock: filepath.Join(t.TempDir(), "tmux.sock"), deadline: time.Now().Add(100 * time.Second)}
	c.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", bomber+" --tables --mono --addr "+px.addr+" --user Albert --password 123")
	t.Cleanup(func() { exec.Command(tmux, "-S", c.sock, "kill-server").Run() })

	c.waitFor("Open tables")
	c.keys("t", "hello lobby", "Enter")
	c.waitFor("Albert: hello lobby")

	// create: the form lists the catalogue: bomber, checkers, dots, aeroplane, paisho
	create := func(game int, keys ...string) {
		c.keys("c")
		c.waitFor("Create a table")
		for range game {
			c.keys("Right")
		}
		c.keys(keys...)
		c.keys("Enter")
		c.waitFor("table #")
	}
	// play presses keys for each of our turns until the game is over;
	// giveUp resigns after that many moves of ours (0: never).
	play := func(keys []string, giveUp int) string {
		t := c.t
		t.Helper()
		mine := 0
		for {
			s := c.waitFor("Your turn.", "GAME OVER")
			if strings.Contains(s, "GAME OVER") {
				return s
			}
			if giveUp > 0 && mine >= giveUp {
				c.keys("R", "R")
				return c.waitFor("GAME OVER")
			}
			before := movesOn(s)
			c.keys(keys...)
			mine++
			for {
				s = c.waitFor("moves ")
				if movesOn(s) != before || strings.Contains(s, "GAME OVER") {
					break
				}
				if strings.Contains(s, "no legal move there") || strings.Contains(s, "Illegal") {
					t.Fatalf("a move was refused:\n%s", s)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	}

	if !t.Run("checkers", func(t *testing.T) {
		c.t = t
		create(1, "Down", "Down", "Down", "Down", "Right") // computer players: true
		s := c.waitFor("Your turn.")
		if !strings.Contains(s, "12b") || !strings.Contains(s, "21w") {
			t.Fatalf("no opening position:\n%s", s)
		}
		c.keys(":", "11-15", "Enter")
		c.waitFor("Albert 11-15")
		end := play([]string{"Tab", "Enter"}, 200)
		t.Logf("checkers, the end:\n%s", end)
		total := movesOn(end)
		// step through the game just played, then a rematch that we resign
		c.keys("v")
		c.waitFor("replay of the last game")
		c.keys("Right", "Right")
		if s := c.waitFor("move 2 of"); !strings.Contains(s, "> ") || !strings.Contains(s, "11-15") {
			t.Fatalf("the replay does not point at the second move:\n%s", s)
		}
		c.keys("End")
		c.waitFor(fmt.Sprintf("move %d of %d", total, total))
		c.keys("q")
		c.waitFor("GAME OVER")
		c.keys("r")
		c.waitFor("moves 0")
		c.keys("R")
		c.waitFor("press R again")
		c.keys("R")
		if s := c.waitFor("GAME OVER"); !strings.Contains(s, "computer 2 won (Black resigned)") {
			t.Fatalf("the rematch did not end by resigning:\n%s", s)
		}
		c.keys("q")
		c.waitFor("Open tables")
	}) {
		return
	}
	if !t.Run("dots", func(t *testing.T) {
		c.t = t
		// three seats, 3x3 dots, two computer players
		create(2, "Down", "Right", "Down", "Down", "Down", "Right", "Down", "Down", "Down", "Down", "Left", "Left", "Down", "Left", "Left") // past start and chat to rows, cols
		s := c.waitFor("Your turn.")
		if !strings.Contains(s, "computer") || !strings.Contains(s, "seat 3 boxes 0") {
			t.Fatalf("not a table of three:\n%s", s)
		}
		c.keys("Enter") // the line under the cursor, which starts on a legal one
		c.waitFor("1 Albert ")
		end := play([]string{"Tab", "Enter"}, 0)
		if !strings.Contains(end, "+---+---+") {
			t.Fatalf("the board is not full at the end:\n%s", end)
		}
		t.Logf("dots, the end:\n%s", end)
		c.keys("q")
		c.waitFor("Open tables")
	}) {
		return
	}
	if !t.Run("aeroplane", func(t *testing.T) {
		c.t = t
		create(3, "Down", "Down", "Down", "Down", "Right")
		s := c.waitFor("Your turn.")
		if !strings.Contains(s, "yellow to roll") || !strings.Contains(s, "Y0") || !strings.Contains(s, "B0") {
			t.Fatalf("no board:\n%s", s)
		}
		end := play([]string{"Tab", "Enter"}, 25)
		if !strings.Contains(end, "GAME OVER: computer") {
			t.Fatalf("resigning did not give the computer the game:\n%s", end)
		}
		if !regexp.MustCompile(`roll [1-6]`).MatchString(end) {
			t.Fatalf("the moves show no die:\n%s", end)
		}
		c.keys("q")
		c.waitFor("Open tables")
	}) {
		return
	}
	if !t.Run("paisho", func(t *testing.T) {
		c.t = t
		create(4, "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Right") // move-limit 10
		s := c.waitFor("table #")
		id := regexp.MustCompile(`table #(\d+)`).FindStringSubmatch(s)[1]
		n, _ := strconv.Atoi(id)
		done := scriptedSeat(t, addr, "Beth", uint32(n), paisho.Spec(), rules.Options{"move-limit": "10"})
		c.waitFor("Beth")
		c.keys("t", "good luck", "Enter")
		c.waitFor("Albert: good luck")
		c.keys("r")
		s = c.waitFor("Your turn.")
		if !strings.Contains(s, " T ") || !strings.Contains(s, "host  L1") {
			t.Fatalf("no temples or hand:\n%s", s)
		}
		// the first deploy by hand: the Lotus from the hand, put where the cursor is
		c.keys("1", "Tab")
		end := play([]string{"Tab", "Enter"}, 0)
		if !strings.Contains(end, "drawn") {
			t.Fatalf("not drawn by the move limit:\n%s", end)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		c.keys("q")
		c.waitFor("Open tables")
	}) {
		return
	}
	if !t.Run("bomber", func(t *testing.T) {
		c.t = t
		create(0, "Down", "Down", "Down", "Down", "Right")
		s := c.waitFor("Your turn.")
		if !strings.Contains(s, "your grid") || !strings.Contains(s, "their grid") {
			t.Fatalf("no grids:\n%s", s)
		}
		// the board drawn plane by plane from the server's hints: + on
		// our grid where the next plane's head may go, then the picked
		// head's tails; a cell that can take no head is not offered
		own := func(s string, row, col int) byte {
			for _, l := range strings.Split(s, "\n") {
				if strings.HasPrefix(l, " "+string(rune('A'+row))+" ") && len(l) > 3+2*col {
					return l[3+2*col]
				}
			}
			return 0
		}
		count := func(s string, ch byte) int {
			n := 0
			for _, l := range strings.Split(s, "\n") {
				if regexp.MustCompile(`^ [A-J] `).MatchString(l) {
					n += strings.Count(l[:min(24, len(l))], string(ch))
				}
			}
			return n
		}
		offered := func(what string, want func(s string) bool) string {
			s := c.screen()
			for !want(s) && time.Now().Before(c.deadline) {
				s = c.screen()
			}
			if !want(s) {
				t.Fatalf("%s:\n%s", what, s)
			}
			return s
		}
		goTo := func(row, col int) {
			for range 9 {
				c.keys("Up", "Left")
			}
			for range col {
				c.keys("Right")
			}
			for range row {
				c.keys("Down")
			}
		}
		for k, pl := range [][4]int{{0, 2, 3, 2}, {0, 7, 3, 7}, {5, 2, 8, 2}} {
			s = offered("the heads offered", func(s string) bool { return own(s, pl[0], pl[1]) == '+' })
			if own(s, 0, 0) != '.' {
				t.Fatalf("plane %d: A0, where no plane can have its head, shows %q:\n%s", k+1, own(s, 0, 0), s)
			}
			if k > 0 && own(s, 1, 2) != '#' {
				t.Fatalf("plane %d: B2, under the first plane, shows %q:\n%s", k+1, own(s, 1, 2), s)
			}
			goTo(pl[0], pl[1])
			c.keys("p")
			s = offered("the head picked and its tails offered", func(s string) bool { return own(s, pl[0], pl[1]) == '*' })
			if k == 1 {
				t.Logf("drawing, a head picked:\n%s", s)
			}
			if n := count(s, '+'); n != 1 || own(s, pl[2], pl[3]) != '+' {
				t.Fatalf("plane %d: %d tails offered, want only %d%d:\n%s", k+1, n, pl[2], pl[3], s)
			}
			goTo(pl[2], pl[3])
			c.keys("p")
		}
		heads := func(s string) int {
			n := 0
			for _, l := range strings.Split(s, "\n") {
				if regexp.MustCompile(`^ [A-J] `).MatchString(l) {
					n += strings.Count(l[:24], "@")
				}
			}
			return n
		}
		s = c.waitFor("Albert 02-32 07-37 52-82")
		for heads(s) == 0 && time.Now().Before(c.deadline) {
			s = c.screen() // the View with our planes follows the move
		}
		if heads(s) != 3 {
			t.Fatalf("our three heads are not drawn:\n%s", s)
		}
		end := play([]string{"Enter"}, 0)
		t.Logf("bomber, the end:\n%s", end)
		if !strings.Contains(end, "revealed") {
			t.Fatalf("no scores at the end:\n%s", end)
		}
		c.keys("q")
		c.waitFor("Open tables")
	}) {
		return
	}
	if !t.Run("resume", func(t *testing.T) {
		c.t = t
		create(1, "Down", "Down", "Down", "Down", "Right")
		c.waitFor("Your turn.")
		c.keys("Tab", "Enter")
		s := c.waitFor("Your turn.")
		for movesOn(s) != 2 {
			s = c.waitFor("moves 2")
		}
		px.cut() // the connection drops: the client reconnects and takes the seat back
		c.waitFor("Reconnecting", "reconnected")
		c.waitFor("back at table", "Albert is back")
		s = c.waitFor("Your turn.")
		if movesOn(s) != 2 || !strings.Contains(s, "seat 1") {
			t.Fatalf("the game did not come back as it was:\n%s", s)
		}
		c.keys("Tab", "Enter")
		c.waitFor("3 Albert")
		c.keys("R", "R")
		c.waitFor("GAME OVER")
		c.keys("q")
		c.waitFor("Open tables")
	}) {
		return
	}
	c.t = t
	t.Logf("%d screens checked", c.screens)
	c.keys("q")
}

// TestTmuxTablesWide: in a terminal of 120 columns, bomber --tables uses
// them: a chat line longer than 80 columns shows to its end, where the
// client used to cut every line at column 80.
func TestTmuxTablesWide(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	tmux := needTmux(t)
	dir, bomberd, bomber := buildBoth(t)
	addr := startBomberd(t, bomberd, dir)
	c := &tmuxClient{t: t, tmux: tmux, sock: filepath.Join(t.TempDir(), "tmux.sock"), deadline: time.Now().Add(30 * time.Second), width: 120}
	c.run("new-session", "-d", "-s", "play", "-x", "120", "-y", "24", bomber+" --tables --mono --addr "+addr+" --user Albert --password 123")
	t.Cleanup(func() { exec.Command(tmux, "-S", c.sock, "kill-server").Run() })
	c.waitFor("Open tables")
	long := "this line of lobby chat runs well past the eightieth column and ends here: END"
	c.keys("t", long, "Enter")
	s := c.waitFor("Albert: " + long)
	wide := false
	for _, l := range strings.Split(s, "\n") {
		wide = wide || len([]rune(strings.TrimRight(l, " "))) > 80
	}
	if !wide {
		t.Fatalf("nothing past column 80:\n%s", s)
	}
	c.keys("q")
}

// scriptedSeat logs user in over TCP with client/ext, joins table id and
// lets a client/tables Driver play its seat; done gets nil after GameEnd.
func scriptedSeat(t *testing.T, addr, user string, id uint32, spec rules.Spec, opts rules.Options) <-chan error {
	done := make(chan error, 1)
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	var mu sync.Mutex
	write := func(segs []segment.Segment) error {
		var b []byte
		for _, s := range segs {
			b = s.AppendTo(b)
		}
		_, err := nc.Write(b)
		return err
	}
	c := ext.New()
	c.Login(user, "123")
	drv := tables.New(spec, opts, 2, 1)
	drv.Only(1)
	go func() {
		fail := func(err error) { done <- err; nc.Close() }
		mu.Lock()
		write(c.Connected().Send)
		mu.Unlock()
		var d segment.Decoder
		d.SetDialect(segment.DialectExtended)
		var a segment.Assembler
		joined := false
		for {
			n, err := nc.Read(d.Free())
			if err != nil {
				fail(fmt.Errorf("%s: %w", user, err))
				return
			}
			d.Commit(n)
			for {
				s, ok, err := d.Next()
				if err != nil || !ok {
					break
				}
				o := c.Receive(s)
				if err := write(o.Send); err != nil {
					fail(err)
					return
				}
				for _, e := range o.Events {
					if e.Kind == ext.EvLoggedIn && !joined {
						joined = true
						o, _ := c.Join(id, segment.SeatAny, "")
						write(o.Send)
					}
					if e.Kind == ext.EvJoined {
						o, _ := c.Ready()
						write(o.Send)
					}
				}
				mt, body, whole, err := a.Add(s)
				if err != nil {
					fail(err)
					return
				}
				if !whole {
					continue
				}
				if err := drv.Receive(1, mt, body); err != nil {
					fail(err)
					return
				}
				if drv.Ended() {
					done <- nil
					return
				}
				if out, ok, err := drv.Next(); err != nil {
					fail(err)
					return
				} else if ok {
					write(segment.AppendMessage(nil, out.Type, out.Body))
				}
			}
		}
	}()
	return done
}

// proxy forwards connections to the daemon and can cut them all, as a
// network that drops would.
type proxy struct {
	addr  string
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, to string) *proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{addr: l.Addr().String()}
	t.Cleanup(func() { l.Close(); p.cut() })
	go func() {
		for {
			a, err := l.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", to)
			if err != nil {
				a.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, a, b)
			p.mu.Unlock()
			go func() { io.Copy(a, b); a.Close() }()
			go func() { io.Copy(b, a); b.Close() }()
		}
	}()
	return p
}

// cut closes every connection through the proxy.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// buildBoth builds bomberd and this client into a test directory and
// returns it with their paths.
func buildBoth(t *testing.T) (dir, bomberd, bomber string) {
	t.Helper()
	dir = t.TempDir()
	bomberd, bomber = filepath.Join(dir, "bomberd"), filepath.Join(dir, "bomber")
	for out, pkg := range map[string]string{bomberd: "../bomberd", bomber: "."} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return dir, bomberd, bomber
}
