package capture_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/capture"
	"github.com/bomber-game/bomber/netreplay"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

func wire(t segment.Type, p string) []byte {
	s, err := segment.Raw(t, []byte(p))
	if err != nil {
		panic(err)
	}
	return s.AppendTo(nil)
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "capture-*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func read(t *testing.T, file string) (string, []transcript.Entry) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	es, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("capture does not parse as a transcript: %v\n%s", err, raw)
	}
	return string(raw), es
}

// session plays a short login through the Tap interface: the password is
// split over two reads, and the server closes one connection.
func session(c server.Tap, clk *servertest.Clock) {
	c.Opened(1, "192.0.2.7:40001")
	clk.Advance(10 * time.Millisecond)
	c.In(1, append(wire(segment.Info, "Beth"), 0x02, 0x00))
	clk.Advance(2 * time.Millisecond)
	c.Out(1, segment.Code(segment.InfoResp, 1))
	c.In(1, []byte{0x03, '1', '2', '3'})
	c.Out(1, segment.Code(segment.PasswdResp, 1))
	c.Out(1, segment.Empty(segment.SyncEnd))
	c.Opened(2, "192.0.2.8:40002")
	c.In(2, []byte{0x05, 0x00, 0x00})
	c.Closed(2, true)
	clk.Advance(time.Second)
	c.Closed(1, false)
}

func TestCaptureWritesATranscript(t *testing.T) {
	tests := []struct {
		show          bool
		wantPassword  string
		wantComment   string
		wantHexSuffix string
	}{
		{false, "***", `Passwd (masked) (completed)`, "03 2a 2a 2a"},
		{true, "123", `Passwd "123" (completed)`, "03 31 32 33"},
	}
	for _, tc := range tests {
		t.Run(map[bool]string{false: "masked", true: "shown"}[tc.show], func(t *testing.T) {
			dir := t.TempDir()
			clk := servertest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
			c, err := capture.New(capture.Config{Dir: dir, ShowPasswords: tc.show, Header: []string{"config: login-timeout=30s"}}, clk, nil)
			if err != nil {
				t.Fatal(err)
			}
			session(c, clk)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			fs := files(t, dir)
			if len(fs) != 1 {
				t.Fatalf("want one file, got %v", fs)
			}
			raw, es := read(t, fs[0])
			want := []string{
				"t=0.000000 c1 open",
				"t=0.010000 c1 > 00 00 04 42 65 74 68 02 00",
				"t=0.012000 c1 < 01 00 01 01",
				"t=0.012000 c1 > " + tc.wantHexSuffix,
				"t=0.012000 c1 < 03 00 01 01",
				"t=0.012000 c1 < 08 00 00",
				"t=0.012000 c2 open",
				"t=0.012000 c2 > 05 00 00",
				"t=0.012000 c2 closed",
				"t=1.012000 c1 close",
			}
			var got []string
			for _, e := range transcript.Events(es) {
				body, _, _ := strings.Cut(e.Format(false), "  #")
				got = append(got, body)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("events:\n%s\nwant:\n%s\nfile:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), raw)
			}
			for _, s := range []string{"# config: login-timeout=30s", "open  # from 192.0.2.7:40001", tc.wantComment, "protocol error: unknown segment descriptor 0x05"} {
				if !strings.Contains(raw, s) {
					t.Errorf("capture lacks %q:\n%s", s, raw)
				}
			}
			if strings.Contains(raw, "continues") {
				t.Errorf("the first file says it continues another:\n%s", raw)
			}
			if !tc.show && strings.Contains(raw, "123") {
				t.Errorf("password leaked:\n%s", raw)
			}
			// the recorded file replays with the answers it recorded (a
			// masked password is compared with a masked account)
			cfg, err := replay.ConfigFromNotes(es)
			if err != nil || cfg.LoginTimeout != 30*time.Second {
				t.Fatalf("header config not read: %+v %v", cfg, err)
			}
			accounts := replay.Accounts{"Beth": tc.wantPassword}
			if d := transcript.Diff(es, replay.Run(cfg, accounts, es)); d != "" {
				t.Errorf("replay differs:\n%s", d)
			}
		})
	}
}

func TestCaptureRotatesAndPrunes(t *testing.T) {
	dir := t.TempDir()
	// a file from an earlier run, older than anything this capture writes
	old := filepath.Join(dir, "capture-20000101T000000.000000Z-0001.txt")
	if err := os.WriteFile(old, []byte("# old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clk := servertest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	const maxBytes = 4096
	c, err := capture.New(capture.Config{Dir: dir, MaxFileBytes: maxBytes, MaxFiles: 3}, clk, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Opened(1, "192.0.2.7:40001")
	c.In(1, wire(segment.Info, "Beth"))
	// enough traffic for several files: each line is about 60 bytes
	for i := 0; i < 400; i++ {
		clk.Advance(time.Millisecond)
		c.Out(1, segment.Name(segment.NewOnline, "Cindy"))
	}
	c.Opened(2, "192.0.2.8:40002")
	c.Closed(2, false)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	fs := files(t, dir)
	if len(fs) != 3 {
		t.Fatalf("want 3 files kept, got %d: %v", len(fs), fs)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("oldest file not pruned")
	}
	for i, f := range fs {
		raw, es := read(t, f)
		if len(raw) > maxBytes {
			t.Errorf("%s has %d bytes, over %d", f, len(raw), maxBytes)
		}
		if !strings.Contains(raw, "# capture: c1 opened in an earlier file\n") {
			t.Errorf("file %d does not say c1 was opened before it:\n%.300s", i, raw)
		}
		// each names the file it continues (the first one kept, a pruned one)
		cont := "# capture: continues capture-"
		if i > 0 {
			cont = "# capture: continues " + filepath.Base(fs[i-1]) + "; replay the files together, concatenated in name order\n"
		}
		if !strings.Contains(raw, cont) {
			t.Errorf("file %d does not say which file it continues:\n%.300s", i, raw)
		}
		// every file's time stamps start again near zero
		if ev := transcript.Events(es); len(ev) == 0 || ev[0].At > 10*time.Millisecond {
			t.Errorf("file %d: first event %+v", i, ev)
		}
	}
	raw, _ := read(t, fs[2])
	if !strings.Contains(raw, "c2 open") || !strings.Contains(raw, "c2 close") {
		t.Errorf("last file lacks c2:\n%s", raw)
	}
}

// TestCaptureOfARealDaemon captures a golden session played over loopback
// against a real transport and replays the capture in-process: the server's
// answers must come out as captured, connection by connection.
func TestCaptureOfARealDaemon(t *testing.T) {
	for _, name := range []string{"04_invite_accept_game.txt", "08_bad_input.txt"} {
		t.Run(name, func(t *testing.T) {
			golden, err := os.ReadFile(filepath.Join("..", "testdata", "transcripts", name))
			if err != nil {
				t.Fatal(err)
			}
			want, err := transcript.Parse(bytes.NewReader(golden))
			if err != nil {
				t.Fatal(err)
			}
			want = hangUpInTurn(want)
			dir := t.TempDir()
			capt, err := capture.New(capture.Config{Dir: dir}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			addr, tr := servertest.Start(t, server.Config{Tap: capt}, false)
			diffs, err := netreplay.Run(context.Background(), want, netreplay.Options{Addr: addr})
			if err != nil || len(diffs) > 0 {
				t.Fatalf("live session: %v\n%s", err, netreplay.Format(diffs))
			}
			servertest.Drain(t, tr)
			if err := capt.Close(); err != nil {
				t.Fatal(err)
			}
			fs := files(t, dir)
			if len(fs) != 1 {
				t.Fatalf("files: %v", fs)
			}
			raw, got := read(t, fs[0])
			if strings.Contains(raw, "31 32 33") {
				t.Errorf("password bytes in the capture")
			}
			masked := replay.Accounts{}
			for u, p := range replay.DemoAccounts() {
				masked[u] = strings.Repeat("*", len(p))
			}
			again := replay.Run(statemachine.Config{}, masked, got)
			for conn, d := range perConn(got, again) {
				t.Errorf("%s differs on replay:\n%s", conn, d)
			}
			// the capture holds every answer of the session
			if n, m := count(got, transcript.Recv), count(want, transcript.Recv); n != m {
				t.Errorf("capture has %d answers, golden %d:\n%s", n, m, raw)
			}
		})
	}
}

// hangUpInTurn ends a transcript with each open connection closing in turn
// and the answers the other connections get, so the live session's closes
// are ordered: clients that hang up at the same instant can race, and the
// daemon rightly does not send a NewOffline to a connection already gone.
func hangUpInTurn(es []transcript.Entry) []transcript.Entry {
	var open []string
	for _, e := range es {
		switch e.Op {
		case transcript.Open:
			open = append(open, e.Conn)
		case transcript.Close, transcript.Closed:
			open = slices.DeleteFunc(open, func(c string) bool { return c == e.Conn })
		}
	}
	es = slices.Clone(es)
	for _, c := range open {
		es = append(es, transcript.Entry{At: -1, Conn: c, Op: transcript.Close})
	}
	cfg, err := replay.ConfigFromNotes(es)
	if err != nil {
		panic(err)
	}
	return replay.Run(cfg, replay.DemoAccounts(), es)
}

func count(es []transcript.Entry, op transcript.Op) int {
	n := 0
	for _, e := range es {
		if e.Op == op {
			n++
		}
	}
	return n
}

// perConn diffs each connection's events on their own: over sockets only
// each connection's order is defined.
func perConn(want, got []transcript.Entry) map[string]string {
	split := func(es []transcript.Entry) map[string][]transcript.Entry {
		m := map[string][]transcript.Entry{}
		for _, e := range transcript.Events(es) {
			m[e.Conn] = append(m[e.Conn], e)
		}
		return m
	}
	w, g := split(want), split(got)
	out := map[string]string{}
	for c := range w {
		if d := transcript.Diff(w[c], g[c]); d != "" {
			out[c] = d
		}
	}
	for c := range g {
		if _, ok := w[c]; !ok {
			out[c] = transcript.Diff(nil, g[c])
		}
	}
	return out
}

func TestHugeReadIsSplitIntoLines(t *testing.T) {
	dir := t.TempDir()
	c, err := capture.New(capture.Config{Dir: dir}, servertest.NewClock(time.Time{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat(wire(segment.Passwd, "12345"), 500) // 4000 bytes
	c.Opened(1, "192.0.2.7:40001")
	c.In(1, big)
	c.Close()
	_, es := read(t, files(t, dir)[0])
	var got []byte
	for _, e := range es {
		if e.Op == transcript.Send {
			if len(e.Data) > 1024 {
				t.Errorf("a line of %d bytes", len(e.Data))
			}
			got = append(got, e.Data...)
		}
	}
	if want := bytes.Repeat(wire(segment.Passwd, "*****"), 500); !bytes.Equal(got, want) {
		t.Errorf("bytes differ: got %d bytes", len(got))
	}
}

// TestInputLines: every input the hub got is written as an "in" line that
// reads back as that input and says what it is; a computer player's move
// is also written as a bot line, but the pool's answer without a move (a
// bot past its budget finishing, which the hub ignores) is not, so the
// file still reads as a transcript.
func TestInputLines(t *testing.T) {
	dir := t.TempDir()
	c, err := capture.New(capture.Config{Dir: dir}, servertest.NewClock(time.Time{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	ins := []statemachine.Input{
		{Kind: statemachine.InOpen, Conn: 1, Text: "192.0.2.7"},
		{Kind: statemachine.InReceive, Conn: 1, Seg: segment.Name(segment.Info, "Beth")},
		{Kind: statemachine.InAnswer, Check: 1, Answer: statemachine.Found},
		{Kind: statemachine.InBot, Bot: statemachine.BotAnswer{Table: 3, Seat: 1, Seq: 7, Move: "a1-b1"}},
		{Kind: statemachine.InBot, Bot: statemachine.BotAnswer{Table: 3, Seat: 1, Seq: ^uint32(8)}},
		{Kind: statemachine.InTableTick, Table: 3},
		{Kind: statemachine.InTick},
		{Kind: statemachine.InClosed, Conn: 1},
	}
	for i := range ins {
		c.Input(int64(i+1), &ins[i])
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	raw, es := read(t, files(t, dir)[0])
	var got []statemachine.Input
	var bots []transcript.BotMove
	for _, e := range es {
		switch e.Op {
		case transcript.Input:
			var in statemachine.Input
			at, rest, err := statemachine.ReadInput(e.Data, &in)
			if err != nil || len(rest) > 0 || at != int64(len(got)+1) {
				t.Fatalf("line %d: at %d, %d bytes left, %v", e.Line, at, len(rest), err)
			}
			got = append(got, in)
		case transcript.Bot:
			bots = append(bots, e.Bot)
		}
	}
	if !slices.Equal(got, ins) {
		t.Errorf("inputs read back:\n%+v\nwant:\n%+v", got, ins)
	}
	if want := []transcript.BotMove{{Table: 3, Seat: 1, Seq: 7, Move: "a1-b1"}}; !slices.Equal(bots, want) {
		t.Errorf("bot lines %+v, want %+v", bots, want)
	}
	for _, s := range []string{`  # open c1 from 192.0.2.7`, `  # receive c1: Info "Beth"`, `  # answer check 1: found`,
		`  # bot table 3 seat 1 update 7: "a1-b1"`, `  # table tick: table 3`, `  # tick`, `  # closed c1`} {
		if !strings.Contains(raw, s) {
			t.Errorf("capture lacks %q:\n%s", s, raw)
		}
	}
}

// TestDocumentedInLines: the "in" lines docs/protocol.md (section 7) and
// this package's documentation show are what a capture writes for the
// inputs they hold, so the documented form cannot drift from the capture's.
func TestDocumentedInLines(t *testing.T) {
	var lines []string
	proto, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(proto)
	sec7 := doc[strings.Index(doc, "\n## 7. "):strings.Index(doc, "\n## 8. ")]
	code := false
	for _, l := range strings.Split(sec7, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") {
			code = !code
		} else if code && strings.HasPrefix(l, "in ") {
			lines = append(lines, l)
		}
	}
	pkg, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(pkg), "\n") {
		if _, l, ok := strings.Cut(l, "//\tt="); ok && strings.Contains(l, " in ") {
			_, l, _ = strings.Cut(l, " ")
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 {
		t.Fatalf("only %d documented in lines", len(lines))
	}
	for _, l := range lines {
		e, _, err := transcript.ParseLine(l)
		if err != nil || e.Op != transcript.Input {
			t.Errorf("%q is not an in line: %v", l, err)
			continue
		}
		var in statemachine.Input
		at, _, err := statemachine.ReadInput(e.Data, &in)
		if err != nil {
			t.Errorf("%q: %v", l, err)
			continue
		}
		dir := t.TempDir()
		c, err := capture.New(capture.Config{Dir: dir}, servertest.NewClock(time.Time{}), nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Input(at, &in)
		c.Close()
		raw, _ := read(t, files(t, dir)[0])
		if !strings.Contains(raw, "t=0.000000 "+l+"\n") {
			t.Errorf("documented:\n%s\nthe capture writes:\n%s", l, raw)
		}
	}
}
