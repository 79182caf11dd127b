package main

import (
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/bomber-game/bomber/client"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// fakeNet records what the model writes.
type fakeNet struct {
	sent   []string
	closed bool
}

func (f *fakeNet) Send(segs []segment.Segment) error {
	for _, s := range segs {
		f.sent = append(f.sent, hex.EncodeToString(s.AppendTo(nil)))
	}
	return nil
}

func (f *fakeNet) Close() error { f.closed = true; return nil }

func (f *fakeNet) take() []string { s := f.sent; f.sent = nil; return s }

type harness struct {
	t     *testing.T
	m     *model
	net   *fakeNet
	dials []int
}

func newHarness(t *testing.T, cfg config) *harness {
	h := &harness{t: t, net: &fakeNet{}}
	if cfg.addr == "" {
		cfg.addr = "127.0.0.1:20343"
	}
	h.m = newModel(cfg, newStyles(), func(gen int) tea.Cmd {
		h.dials = append(h.dials, gen)
		return nil
	})
	h.m.Init()
	h.m.Update(upMsg{gen: 0, l: nil}) // connected, with no net: up() plugs in the fake
	return h
}

// up connects the fake net (upMsg with a nil link cannot carry it).
func (h *harness) up() {
	h.m.net, h.m.connected = h.net, true
}

func key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func (h *harness) keys(ks ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range ks {
		_, cmd = h.m.Update(key(k))
	}
	return cmd
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (h *harness) recv(hx string) {
	h.t.Helper()
	b, _ := hex.DecodeString(strings.ReplaceAll(hx, " ", ""))
	s, err := segment.Parse(b)
	if err != nil {
		h.t.Fatal(err)
	}
	h.m.Update(segMsg{gen: h.m.gen, seg: s})
}

func (h *harness) wantSent(want ...string) {
	h.t.Helper()
	for i := range want {
		want[i] = strings.ReplaceAll(want[i], " ", "")
	}
	if got := h.net.take(); !slices.Equal(got, want) {
		h.t.Fatalf("sent %q, want %q", got, want)
	}
}

func (h *harness) wantScreen(sub ...string) {
	h.t.Helper()
	v := h.m.render()
	for _, s := range sub {
		if !strings.Contains(v, s) {
			h.t.Fatalf("screen lacks %q:\n%s", s, v)
		}
	}
	for _, line := range strings.Split(v, "\n") {
		if w := len([]rune(stripANSI(line))); w > 80 {
			h.t.Fatalf("line wider than 80 columns (%d): %q", w, line)
		}
	}
	if n := strings.Count(v, "\n"); n > 24 {
		h.t.Fatalf("screen has %d lines, more than 24:\n%s", n, v)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	esc := false
	for _, r := range s {
		switch {
		case r == 0x1b:
			esc = true
		case esc && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			esc = false
		case !esc:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// moveTo moves the drawing cursor to row x, column y with the keys.
func (h *harness) moveTo(x, y int) {
	for h.m.draw.cur.x < x {
		h.keys("j")
	}
	for h.m.draw.cur.x > x {
		h.keys("k")
	}
	for h.m.draw.cur.y < y {
		h.keys("l")
	}
	for h.m.draw.cur.y > y {
		h.keys("h")
	}
}

// placeAt places a plane with its head at row x, column y, nose up.
func (h *harness) placeAt(x, y int) {
	h.t.Helper()
	for h.m.draw.orient != noseUp {
		h.keys("r")
	}
	h.moveTo(x, y)
	n := len(h.m.draw.placed)
	h.keys("enter")
	if len(h.m.draw.placed) != n+1 {
		h.t.Fatalf("no plane placed at %c%d: %s", 'A'+x, y, h.m.err)
	}
}

// login types Albert / 123 and completes the login with Beth online.
func (h *harness) login() {
	h.up()
	h.wantScreen("Log in", "Name:")
	h.typeText("Albert")
	h.keys("enter")
	h.typeText("123")
	h.keys("enter")
	h.wantSent("00 00 06 41 6c 62 65 72 74")
	h.recv("01 00 01 01")
	h.wantSent("02 00 03 31 32 33")
	h.recv("03 00 01 01")
	h.recv("06 00 04 42 65 74 68")
	h.recv("08 00 00")
	h.wantScreen("Online players", "Beth", "logged in as Albert")
}

func TestLoginRetryOnScreen(t *testing.T) {
	h := newHarness(t, config{})
	h.up()
	h.typeText("Nobody")
	h.keys("enter")
	h.typeText("123")
	h.keys("enter")
	h.wantSent("00 00 06 4e 6f 62 6f 64 79")
	h.recv("01 00 01 00")
	h.wantScreen("no such user", "Log in")
	// the name field has focus again; fix the name
	for range 6 {
		h.keys("backspace")
	}
	h.typeText("Albert")
	h.keys("enter")
	h.typeText("999")
	h.keys("enter")
	h.wantSent("00 00 06 41 6c 62 65 72 74")
	h.recv("01 00 01 01")
	h.wantSent("02 00 03 39 39 39")
	h.recv("03 00 01 03")
	h.wantScreen("wrong password")
	if h.m.pass != "" || h.m.focus != 1 {
		t.Fatalf("after a wrong password: pass %q focus %d", h.m.pass, h.m.focus)
	}
}

// TestFlagsLogInAtOnce: with --user and --password the client logs in as
// soon as the connection is up, once: a reconnect after that does not log
// in from the flags again (the client's saved login does).
func TestFlagsLogInAtOnce(t *testing.T) {
	h := &harness{t: t, net: &fakeNet{}}
	h.m = newModel(config{user: "Albert", password: "123"}, newStyles(), func(int) tea.Cmd { return nil })
	h.m.Init()
	h.m.Update(upMsg{gen: h.m.gen, l: h.net})
	h.wantSent("00 00 06 41 6c 62 65 72 74")
	h.m.Update(upMsg{gen: h.m.gen, l: h.net}) // the same connection again: no second login from the flags
	h.wantSent()
}

func TestInviteDrawPlayWin(t *testing.T) {
	h := newHarness(t, config{})
	h.login()
	h.keys("enter")
	h.wantSent("09 00 04 42 65 74 68")
	h.wantScreen("Invited Beth")
	h.recv("0b 00 01 01")
	h.wantScreen("Draw your planes", "place 3 more planes", "enter place", "q quit")
	// An invalid placement is refused before anything is sent.
	h.moveTo(0, 0)
	h.wantScreen("plane leaves the board", "!")
	h.keys("enter")
	h.wantSent()
	if h.m.err == "" {
		t.Fatal("placing off the board raised no error")
	}
	// Planes A2-D2, A7-D7, F2-I2 (heads at row A/F, nose up).
	h.placeAt(0, 2)
	h.wantScreen("place 2 more planes")
	h.placeAt(0, 7)
	h.wantScreen("place 1 more plane ")
	h.placeAt(5, 2)
	h.wantScreen("All three planes placed", "s send")
	h.keys("s")
	h.wantSent("0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32")
	h.wantScreen("Waiting for Beth's planes")
	// Beth's board: A2-D2, A7-D7, F7-I7.
	h.recv("0c 00 0c 30 32 33 32 30 37 33 37 35 37 38 37")
	h.wantScreen("Your turn", "Beth's board")
	// Single guess at the cursor (A0): a miss.
	h.keys("enter")
	h.wantSent("0d 00 02 30 30")
	h.wantScreen("Waiting for Beth's guess")
	h.keys("l", "enter") // not our turn: nothing is sent
	h.wantSent()
	h.recv("0d 00 02 09 09")
	h.wantScreen("Beth guessed J9: wrong", "Your turn")
	// Double guess: d on the head A2, move to D2, d.
	h.keys("l", "d", "j", "j", "j", "d")
	h.wantSent("0e 00 04 30 32 33 32")
	h.recv("0e 00 04 00 02 03 02")
	h.wantScreen("Beth guessed the plane A2-D2: right")
	if !strings.Contains(stripANSI(h.m.render()), " A X X X") && !strings.Contains(stripANSI(h.m.render()), "X") {
		t.Fatal("our board does not show the opponent's hits")
	}
	// A7-D7 with enter on the tail.
	h.keys("k", "k", "k", "l", "l", "l", "l", "l", "d", "j", "j", "j", "enter")
	h.wantSent("0e 00 04 30 37 33 37")
	h.recv("0d 00 02 09 08")
	h.keys("j", "j", "d", "j", "j", "j", "d") // F7-I7: the last plane
	h.wantSent("0e 00 04 35 37 38 37", "0f 00 00")
	h.wantScreen("YOU WON!", "enter back to the lobby")
	h.keys("enter")
	h.wantScreen("Online players")
}

func TestInvitationDialogAndLoss(t *testing.T) {
	h := newHarness(t, config{})
	h.login()
	h.recv("0a 00 04 42 65 74 68")
	h.wantScreen("Beth invites you", "a accept")
	h.keys("a")
	h.wantSent("0b 00 01 01")
	h.wantScreen("Draw your planes", "place 3 more planes")
	h.placeAt(0, 2)
	turned := (h.m.draw.orient + 2) & 3
	h.keys("r", "r") // rotating shows the new orientation
	h.wantScreen(turned.String())
	h.keys("u")
	if len(h.m.draw.placed) != 0 {
		t.Fatal("undo did not remove the plane")
	}
	h.keys("s")
	h.wantSent()
	h.wantScreen("place 3 more planes first")
	h.keys("r", "r")
	h.placeAt(0, 2)
	h.placeAt(0, 7)
	h.placeAt(5, 2)
	h.keys("s")
	h.wantSent("0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32")
	h.recv("0c 00 0c 30 32 33 32 30 37 33 37 35 37 38 37")
	h.wantScreen("Waiting for Beth's guess") // the inviter guesses first
	for i, d := range []string{"00 02 03 02", "00 07 03 07", "05 02 08 02"} {
		h.recv("0e 00 04 " + d)
		if i < 2 {
			h.keys("enter")
			h.keys("l")
			h.net.take()
		}
	}
	h.recv("0f 00 00")
	h.wantScreen("YOU LOST.", "where the planes were that you did not find")
	// Beth's planes A2-D2, A7-D7, F7-I7 are drawn on her board, each with
	// its own letter: the wings of the first two on row B, the third's on G.
	screen := stripANSI(h.m.render())
	for _, row := range []string{"B a a a a a b b b b b", "G . . . . . c c c c c", "A o o @ . . . . @ . ."} {
		if !strings.Contains(screen, row) {
			t.Errorf("the result screen does not show Beth's planes (%q):\n%s", row, screen)
		}
	}
}

// TestFirstPlaneFitsAndPlanesDiffer: the drawing screen opens with the
// cursor where a plane fits (no red error first), enter places it, and
// three planes placed side by side are told apart by their letters.
func TestFirstPlaneFitsAndPlanesDiffer(t *testing.T) {
	h := newHarness(t, config{})
	h.login()
	h.keys("enter")
	h.recv("0b 00 01 01")
	if strings.Contains(h.m.render(), "cannot place") || strings.Contains(stripANSI(h.m.render()), "!") {
		t.Fatalf("the drawing screen opens with an error:\n%s", h.m.render())
	}
	// Enter three times: after each plane the cursor moves where the next fits.
	h.keys("enter", "enter", "enter")
	h.wantScreen("All three planes placed")
	screen := stripANSI(h.m.render())
	for _, letter := range planeLetters {
		if strings.Count(screen, " "+letter) < 9 {
			t.Errorf("plane %s is not drawn with its own letter:\n%s", letter, screen)
		}
	}
	if strings.Contains(screen, "#") {
		t.Errorf("planes drawn as # cannot be told apart:\n%s", screen)
	}
}

// TestQuitAsksDuringAGame: q in a game asks first; any other key goes on,
// y quits. In the lobby q quits at once.
func TestQuitAsksDuringAGame(t *testing.T) {
	h := newHarness(t, config{})
	h.login()
	h.keys("enter")
	h.recv("0b 00 01 01")
	if cmd := h.keys("q"); cmd != nil || h.m.quitting {
		t.Fatal("q quit a game without asking")
	}
	h.wantScreen("Quit? The game against Beth ends.", "y quit")
	if cmd := h.keys("n"); cmd != nil || h.m.quitting {
		t.Fatal("n after q quit")
	}
	h.wantScreen("quit cancelled", "q quit")
	h.keys("q")
	if cmd := h.keys("y"); cmd == nil || !h.m.quitting {
		t.Fatal("q then y did not quit")
	}
}

// TestRefusalIsConfirmed: refusing an invitation says so in the log.
func TestRefusalIsConfirmed(t *testing.T) {
	h := newHarness(t, config{})
	h.login()
	h.recv("0a 00 04 42 65 74 68")
	h.wantScreen("Beth invites you", "r refuse")
	h.keys("r")
	h.wantSent("0b 00 01 02")
	h.wantScreen("you refused Beth's invitation", "enter invite")
}

func TestRefusedBusyOffline(t *testing.T) {
	for _, tc := range []struct{ code, text string }{
		{"02", "Beth refused your invitation"},
		{"06", "Beth is busy"},
		{"00", "Beth is not online"},
	} {
		h := newHarness(t, config{})
		h.login()
		h.keys("enter")
		h.net.take()
		h.recv("0b 00 01 " + tc.code)
		h.wantScreen(tc.text, "enter invite")
	}
}

func TestReconnectAndKick(t *testing.T) {
	h := newHarness(t, config{})
	h.login()
	_, cmd := h.m.Update(downMsg{gen: h.m.gen, err: errors.New("EOF")})
	if cmd == nil {
		t.Fatal("no reconnect timer after a disconnect")
	}
	h.wantScreen("Reconnecting every 0.5 s", "disconnected from the server")
	h.m.Update(retryMsg{gen: h.m.gen})
	if len(h.dials) != 2 {
		t.Fatalf("dials %v, want a second dial after the delay", h.dials)
	}
	// The new connection logs in again with the saved password.
	h.net = &fakeNet{}
	h.up()
	h.m.apply(h.m.c.Connected())
	h.wantSent("00 00 06 41 6c 62 65 72 74")
	h.recv("01 00 01 01")
	h.wantSent("02 00 03 31 32 33")
	h.recv("04 00 01 05")
	h.recv("03 00 01 01")
	h.recv("08 00 00")
	h.wantScreen("that session was closed")
	// Now a newer login elsewhere kicks us: no automatic reconnect.
	h.recv("04 00 01 04")
	h.wantScreen("You were logged out", "r log in again")
	_, cmd = h.m.Update(downMsg{gen: h.m.gen, err: errors.New("EOF")})
	if cmd != nil {
		t.Fatal("a kicked client reconnected by itself")
	}
	h.keys("r")
	if len(h.dials) != 3 {
		t.Fatalf("dials %v: r did not reconnect", h.dials)
	}
	if cmd := h.keys("ctrl+c"); cmd == nil {
		t.Fatal("ctrl+c does not quit")
	}
}

func TestPlaneOrientations(t *testing.T) {
	tests := []struct {
		o    orientation
		tail pos
	}{
		{noseUp, pos{7, 4}},
		{noseRight, pos{4, 1}},
		{noseDown, pos{1, 4}},
		{noseLeft, pos{4, 7}},
	}
	for _, tt := range tests {
		p, cells := planeAt(pos{4, 4}, tt.o)
		if p.Tail != tt.tail.cell() {
			t.Fatalf("%v: tail %v, want %v", tt.o, p.Tail, tt.tail.cell())
		}
		// The preview shows exactly the cells the rules give the plane.
		want, err := p.Cells()
		if err != nil {
			t.Fatal(err)
		}
		var got bomber.Set
		for _, c := range cells {
			got = got.Add(c.cell())
		}
		if got != want {
			t.Fatalf("%v: preview cells differ from the plane's", tt.o)
		}
	}
}

func TestHelpListsEveryFlag(t *testing.T) {
	var out, errb strings.Builder
	if _, done, code := parseFlags([]string{"--help"}, &out, &errb); !done || code != 0 || errb.Len() != 0 {
		t.Fatalf("--help: done %v code %d stderr %q", done, code, errb.String())
	}
	for _, f := range []string{"--addr", "--user", "--password", "--bot", "--invite", "--games", "--seed", "--level", "--think", "--mono", "--version", "ctrl+c", "rotate", "undo"} {
		if !strings.Contains(out.String(), f) {
			t.Errorf("--help does not mention %s", f)
		}
	}
	errb.Reset()
	if _, done, code := parseFlags([]string{"--games", "3"}, &out, &errb); !done || code != 2 || !strings.Contains(errb.String(), "--bot") {
		t.Errorf("--games without --bot: done %v code %d stderr %q", done, code, errb.String())
	}
	cfg, done, _ := parseFlags([]string{"--bot", "--user", "Beth", "--invite", "Albert", "--games", "2"}, &out, &errb)
	if done || cfg.invite != "Albert" || cfg.games != 2 || cfg.addr != "127.0.0.1:20343" {
		t.Fatalf("bot flags: %+v %v", cfg, done)
	}
}

var _ = client.Won

// TestEnterThreeTimesIsNoFixedBoard: enter three times on the drawing
// screen places a valid board, and not the same board every game, nor
// always nose up: an opponent must not be able to guess it.
func TestEnterThreeTimesIsNoFixedBoard(t *testing.T) {
	boards := map[bomber.Board]bool{}
	turned := false
	for range 8 {
		h := newHarness(t, config{})
		h.login()
		h.keys("enter")
		h.recv("0b 00 01 01")
		h.keys("enter", "enter", "enter")
		h.wantScreen("All three planes placed")
		b, ok := h.m.draw.board()
		if _, err := b.Cells(); !ok || err != nil {
			t.Fatalf("enter three times gave no valid board: %v", b)
		}
		boards[b] = true
		for _, p := range b {
			if _, o := headOf(p); o != noseUp {
				turned = true
			}
		}
	}
	if len(boards) < 4 {
		t.Errorf("eight games drew %d different boards with enter three times", len(boards))
	}
	if !turned {
		t.Error("every plane offered points its nose up")
	}
}
