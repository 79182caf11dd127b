package main

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/capture"
	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/netreplay"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// player is one extended-protocol user of a live session: package ext's
// client over a real socket, playing random legal moves by itself while
// quota lasts, then resigning.
type player struct {
	name   string
	c      *ext.Client
	nc     net.Conn // nil while dropped
	rng    *rand.Rand
	quota  int // moves to play in the current game before resigning; 0: none by itself
	played int
	sentAt int // moves of the game known when our last move went out; -1: none in flight
	events []ext.Event
}

// arrival is one segment (or the read error) from a player's connection.
type arrival struct {
	p   *player
	nc  net.Conn
	seg segment.Segment
	err error
}

// live drives players against a running server, every client on this
// goroutine, each connection's reader on its own.
type live struct {
	t    *testing.T
	addr string
	in   chan arrival
	all  []*player
}

func (s *live) login(name string) *player {
	p := &player{name: name, c: ext.New(), rng: rand.New(rand.NewPCG(uint64(len(s.all)+1), 7)), sentAt: -1}
	if _, err := p.c.Login(name, "123"); err != nil {
		s.t.Fatal(err)
	}
	s.all = append(s.all, p)
	s.connect(p)
	return p
}

// connect gives p a new connection; its client logs in (and resumes a
// held seat) by itself.
func (s *live) connect(p *player) {
	nc, err := net.Dial("tcp", s.addr)
	if err != nil {
		s.t.Fatal(err)
	}
	p.nc = nc
	go func() {
		var d segment.Decoder
		d.SetDialect(segment.DialectExtended)
		buf := make([]byte, 4096)
		for {
			n, err := nc.Read(buf)
			if _, derr := d.Feed(buf[:n], func(seg segment.Segment) bool {
				s.in <- arrival{p: p, nc: nc, seg: seg}
				return true
			}); derr != nil {
				err = derr
			}
			if err != nil {
				s.in <- arrival{p: p, nc: nc, err: err}
				return
			}
		}
	}()
	s.send(p, p.c.Connected())
}

// drop closes p's connection without a Bye: its seat is held.
func (s *live) drop(p *player) {
	p.nc.Close()
	p.nc = nil
	p.c.Disconnected()
}

func (s *live) send(p *player, o ext.Out) {
	s.t.Helper()
	var b []byte
	for _, seg := range o.Send {
		b = seg.AppendTo(b)
	}
	if len(b) == 0 || p.nc == nil {
		return
	}
	if _, err := p.nc.Write(b); err != nil {
		s.t.Fatalf("%s: %v", p.name, err)
	}
}

// do sends what a request of p's client built.
func (s *live) do(p *player) func(ext.Out, error) {
	return func(o ext.Out, err error) {
		s.t.Helper()
		if err != nil {
			s.t.Fatalf("%s: %v", p.name, err)
		}
		s.send(p, o)
	}
}

// until takes what the server sends, and lets the players move, until
// done holds.
func (s *live) until(what string, done func() bool) {
	s.t.Helper()
	timeout := time.After(30 * time.Second)
	for !done() {
		select {
		case a := <-s.in:
			s.take(a)
		case <-timeout:
			s.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (s *live) take(a arrival) {
	s.t.Helper()
	p := a.p
	if a.nc != p.nc {
		return // a connection p dropped
	}
	if a.err != nil {
		s.t.Fatalf("%s: the connection broke: %v", p.name, a.err)
	}
	o := p.c.Receive(a.seg)
	s.send(p, o)
	p.events = append(p.events, o.Events...)
	for _, e := range o.Events {
		if e.Kind == ext.EvError || e.Kind == ext.EvProtocol || e.Kind == ext.EvBadBody {
			s.t.Fatalf("%s: %s", p.name, e.Text)
		}
	}
	for _, q := range s.all {
		s.move(q)
	}
}

// move plays a random legal move for p when it is p's turn and its last
// move was answered; resigns once its quota is played.
func (s *live) move(p *player) {
	g := p.c.Game()
	if p.quota == 0 || p.nc == nil || g == nil || g.Over() || !p.c.MyTurn() {
		return
	}
	if r := g.Replica(); r == nil || r.Waiting() || p.sentAt == len(g.Moves) {
		return
	}
	p.sentAt = len(g.Moves)
	if p.played >= p.quota {
		p.quota = 0
		s.do(p)(p.c.Resign())
		return
	}
	legal := g.Legal(p.c.Seat())
	if len(legal) == 0 {
		s.t.Fatalf("%s: to move with no legal move", p.name)
	}
	p.played++
	s.do(p)(p.c.Move(legal[p.rng.IntN(len(legal))]))
}

func (p *player) saw(k ext.EventKind) bool {
	return slices.ContainsFunc(p.events, func(e ext.Event) bool { return e.Kind == k })
}

func (p *player) ended() bool { g := p.c.Game(); return g != nil && g.Over() }

// create has p open a table and waits until p sits at it.
func (s *live) create(p *player, game string, seats int, opts ...segment.KV) uint32 {
	s.t.Helper()
	s.do(p)(p.c.Create(game, seats, 0, opts))
	s.until(p.name+"'s "+game+" table", func() bool { return p.c.Table() != nil })
	return p.c.Table().ID
}

// TestCaptureOfAMixedSessionReplays: a daemon with capture on serves, over
// loopback, tables of all five games with computer players, a turn clock
// that runs out, a drop and a resume, chat, a watcher, and a reference
// client's whole game at the same time. The capture (passwords masked)
// replays in process through this command with no difference and no
// option, every server segment of every connection regenerated by the hub;
// a capture rotated into several files does when they are concatenated.
func TestCaptureOfAMixedSessionReplays(t *testing.T) {
	t.Run("one file", func(t *testing.T) { mixedSession(t, 0) })
	t.Run("rotated", func(t *testing.T) { mixedSession(t, 64<<10) })
}

// mixedSession plays the session with capture files of at most
// maxFileBytes (0: the default, one file) and checks its replay.
func mixedSession(t *testing.T, maxFileBytes int64) {
	dir := t.TempDir()
	capt, err := capture.New(capture.Config{Dir: dir, MaxFileBytes: maxFileBytes}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	accounts := replay.DemoAccounts()
	for _, u := range []string{"Dora", "Erin", "Fay"} {
		accounts[u] = "123"
	}
	addr, tr := servertest.Start(t, server.Config{Tap: capt, Check: accounts.Check,
		Hub: statemachine.Config{Games: statemachine.Catalogue()}}, true)

	// the reference client's game (Novate and Larry), alongside the tables
	ref, err := transcript.Parse(strings.NewReader(golden(t, "04_invite_accept_game.txt")))
	if err != nil {
		t.Fatal(err)
	}
	refDone := make(chan string, 1)
	go func() {
		diffs, err := netreplay.Run(context.Background(), ref, netreplay.Options{Addr: addr, Timeout: 10 * time.Second,
			Ignore: []string{"types:0x06,0x07,0x10"}}) // the others' comings and goings
		switch {
		case err != nil:
			refDone <- err.Error()
		case len(diffs) > 0:
			refDone <- netreplay.Format(diffs)
		default:
			refDone <- ""
		}
	}()

	s := &live{t: t, addr: addr, in: make(chan arrival, 1024)}
	twofyw, albert, beth, cindy := s.login("Twofyw"), s.login("Albert"), s.login("Beth"), s.login("Cindy")
	dora, erin, fay := s.login("Dora"), s.login("Erin"), s.login("Fay")
	s.until("every login", func() bool {
		return !slices.ContainsFunc(s.all, func(p *player) bool { return p.c.State() != ext.Lobby })
	})
	s.do(twofyw)(twofyw.c.Chat(segment.ScopeLobby, "hello, lobby"))
	// a client that breaks the framing: the daemon's shell closes it
	bad, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	if _, err := bad.Write([]byte{0x42}); err != nil {
		t.Fatal(err)
	}
	bad.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, bad); err != nil {
		t.Fatalf("the connection that broke the framing was not closed: %v", err)
	}

	// Bomber against the computer, on a move clock nobody uses: Twofyw
	// never draws a board and runs out of time
	s.create(twofyw, "bomber", 2, segment.KV{Key: "clock.move", Value: "1"})
	s.do(twofyw)(twofyw.c.Bot(segment.SeatAny))
	// Dots and Boxes, Aeroplane Chess and Pai Sho against the computer
	s.create(dora, "dots", 2, segment.KV{Key: "rows", Value: "3"}, segment.KV{Key: "cols", Value: "3"})
	dora.quota = 100
	s.do(dora)(dora.c.Bot(segment.SeatAny))
	s.create(erin, "aeroplane", 2, segment.KV{Key: "clock.move", Value: "30"})
	erin.quota = 8
	s.do(erin)(erin.c.Bot(segment.SeatAny))
	s.create(fay, "paisho", 2, segment.KV{Key: "move-limit", Value: "12"})
	fay.quota = 100
	s.do(fay)(fay.c.Bot(segment.SeatAny))
	// Checkers between two people on a clock with an increment, watched
	checkers := s.create(albert, "checkers", 2, segment.KV{Key: "clock.total", Value: "600"}, segment.KV{Key: "clock.increment", Value: "1"})
	s.do(beth)(beth.c.Join(checkers, segment.SeatAny, ""))
	s.do(cindy)(cindy.c.Watch(checkers, ""))
	s.until("Beth seated and Cindy watching", func() bool {
		return beth.c.Seat() >= 0 && cindy.c.Seat() == ext.Watcher
	})
	albert.quota, beth.quota = 10, 10
	s.do(albert)(albert.c.Ready())
	s.do(beth)(beth.c.Ready())
	s.until("checkers under way", func() bool { g := albert.c.Game(); return g != nil && len(g.Moves) >= 4 })
	s.do(albert)(albert.c.Chat(segment.ScopeTable, "good game so far"))
	s.do(cindy)(cindy.c.Chat(segment.ScopeWatchers, "watching"))

	// Beth's connection drops; Albert is told and plays on while it is his
	// turn; Beth comes back and resumes with her token
	s.drop(beth)
	s.until("Albert told that Beth is away", func() bool { return len(albert.c.Away()) > 0 })
	s.until("Albert waiting for Beth", func() bool { return !albert.c.MyTurn() || albert.ended() })
	s.connect(beth)
	s.until("Beth's resume", func() bool { return beth.saw(ext.EvResumed) })

	s.until("every game's end", func() bool {
		return twofyw.ended() && dora.ended() && erin.ended() && fay.ended() && albert.ended() && beth.ended() && cindy.ended()
	})
	if r := twofyw.c.Game().End.Reason; !strings.Contains(r, "time") {
		t.Errorf("Bomber ended %q, not out of time", r)
	}
	select {
	case d := <-refDone:
		if d != "" {
			t.Fatalf("the reference client's game: %s", d)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the reference client's game did not finish")
	}
	// everyone but Cindy and Fay hangs up; the daemon stops with those
	// two still connected and closes them itself
	for _, p := range s.all {
		if p != cindy && p != fay {
			p.nc.Close()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tr.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := capt.Close(); err != nil {
		t.Fatal(err)
	}

	fs, _ := filepath.Glob(filepath.Join(dir, "capture-*.txt")) // in name order
	if rotated := maxFileBytes > 0; len(fs) == 0 || rotated != (len(fs) > 1) {
		t.Fatalf("capture files: %v", fs)
	}
	file := fs[0]
	var raw []byte
	for _, f := range fs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, b...)
	}
	if len(fs) > 1 {
		file = filepath.Join(t.TempDir(), "whole.txt")
		if err := os.WriteFile(file, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if bytes.Contains(raw, []byte("02 00 03 31 32 33")) {
		t.Error("a password in the capture")
	}
	// the command's verdict, with no option: its accounts are the demo
	// ones, without Dora, Erin and Fay and with passwords unmasked, but
	// the capture's answers are inputs
	for _, args := range [][]string{nil, {"--timing", "recorded"}} {
		if code, out := runCmd(append(args, file)...); code != exitOK || !strings.HasSuffix(out, "1 passed, 0 failed\n") {
			t.Fatalf("with %v: exit %d:\n%.20000s", args, code, out)
		}
	}
	// every server segment, and every close the hub decided, came from the
	// replay's hub: replayed without them the capture still comes out
	// whole, but for the close of the framing error, which only the
	// daemon's shell decided
	entries, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	inputs := slices.DeleteFunc(slices.Clone(entries), func(e transcript.Entry) bool {
		return e.Op == transcript.Recv || e.Op == transcript.Closed
	})
	cfg, err := replay.ConfigFromNotes(entries)
	if err != nil {
		t.Fatal(err)
	}
	got := runInProcess(cfg, replay.DemoAccounts(), inputs, false)
	badConn := ""
	for _, e := range entries {
		if e.Op == transcript.Open && e.Comment == "from "+bad.LocalAddr().String() {
			badConn = e.Conn
		}
	}
	d := strings.Split(strings.TrimSpace(transcript.Diff(entries, got)), "\n")
	if len(d) != 1 || !strings.HasPrefix(d[0], "- ") || !strings.Contains(d[0], " "+badConn+" closed") {
		t.Fatalf("the replay without the recorded answers differs by more than %s's close:\n%.20000s", badConn, strings.Join(d, "\n"))
	}
	want, have := countByConn(entries), countByConn(got)
	if w := want[badConn]; w[1] == 1 {
		want[badConn] = [2]int{w[0], 0} // the shell's close
	}
	total := 0
	for conn, n := range want {
		if have[conn] != n {
			t.Errorf("%s: ['<' 'closed'] lines %v recorded, %v replayed", conn, n, have[conn])
		}
		total += n[0]
	}
	if len(want) < 10 || total < 500 {
		t.Errorf("only %d server segments on %d connections: the session did not happen", total, len(want))
	}
	closed := 0
	for _, n := range have {
		closed += n[1]
	}
	if closed < 2 {
		t.Errorf("the hub closed %d connections at the shutdown; Cindy's and Fay's at least", closed)
	}
	// what the session was to hold is in it: every kind of input the
	// replay had to take from the capture
	kinds := map[statemachine.InputKind]int{}
	for _, e := range entries {
		var in statemachine.Input
		if e.Op == transcript.Input {
			if _, _, err := statemachine.ReadInput(e.Data, &in); err != nil {
				t.Fatalf("line %d: %v", e.Line, err)
			}
			kinds[in.Kind]++
		}
	}
	for _, k := range []statemachine.InputKind{statemachine.InOpen, statemachine.InReceive, statemachine.InClosed, statemachine.InAnswer,
		statemachine.InTick, statemachine.InBot, statemachine.InConfig, statemachine.InSeed, statemachine.InShutdown} {
		if kinds[k] == 0 {
			t.Errorf("no %v input in the capture", k)
		}
	}
	t.Logf("%d lines, %d server segments on %d connections, inputs %v", bytes.Count(raw, []byte("\n")), total, len(want), kinds)
}

// countByConn counts each connection's '<' and 'closed' lines.
func countByConn(es []transcript.Entry) map[string][2]int {
	n := map[string][2]int{}
	for _, e := range es {
		c := n[e.Conn]
		switch e.Op {
		case transcript.Recv:
			c[0]++
		case transcript.Closed:
			c[1]++
		default:
			continue
		}
		n[e.Conn] = c
	}
	return n
}
