package pcapconv_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"

	"github.com/bomber-game/bomber/capture"
	"github.com/bomber-game/bomber/netreplay"
	"github.com/bomber-game/bomber/pcapconv"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// sniffers are the loopback capture tools tried, each with how to start it
// on a port and the stderr line that says it is capturing.
var sniffers = []struct {
	tool  string
	args  func(file, filter string) []string
	ready string
}{
	{"tcpdump", func(f, filter string) []string {
		return []string{"-i", "lo", "-U", "-n", "-w", f, filter}
	}, "listening on"},
	{"dumpcap", func(f, filter string) []string { // Wireshark's; writes pcapng
		return []string{"-i", "lo", "-q", "-w", f, "-f", filter}
	}, "Capturing on"},
}

// TestLiveSession plays a golden session against a real transport on
// loopback and converts captures of it back into a transcript that must
// replay in-process with no difference. The session is always captured by
// bomberd's own Tap and turned into a synthetic pcap; when tcpdump or
// dumpcap can capture loopback here, the real packets are converted too.
func TestLiveSession(t *testing.T) {
	golden := hangUpInTurn(parse(t, "../testdata/transcripts/04_invite_accept_game.txt"))
	dir := t.TempDir()
	accounts := replay.DemoAccounts()
	tap, err := capture.New(capture.Config{Dir: dir, ShowPasswords: true}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	addr, tr := servertest.Start(t, server.Config{Check: accounts.Check, Tap: tap}, false)
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	port := int(ap.Port())
	// a sniffer may say it is capturing a little before it is: it is ready
	// once probes sent to a UDP port show up in its file
	probe, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	filter := fmt.Sprintf("tcp port %d or udp port %d", port, probe.LocalAddr().(*net.UDPAddr).Port)

	type running struct {
		tool, file string
		cmd        *exec.Cmd
	}
	var sniffing []running
	for _, s := range sniffers {
		path, err := exec.LookPath(s.tool)
		if err != nil {
			t.Logf("%s not installed: no real capture with it", s.tool)
			continue
		}
		file := filepath.Join(dir, s.tool+".cap")
		cmd, err := startSniffer(path, s.args(file, filter), s.ready, file, probe.LocalAddr().String())
		if err != nil {
			t.Logf("%s cannot capture loopback here (%v): no real capture with it", s.tool, err)
			continue
		}
		sniffing = append(sniffing, running{s.tool, file, cmd})
	}

	diffs, err := netreplay.Run(context.Background(), golden, netreplay.Options{Addr: addr})
	if err != nil || len(diffs) > 0 {
		t.Fatalf("live session: %v\n%s", err, netreplay.Format(diffs))
	}
	servertest.Drain(t, tr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tap.Close(); err != nil {
		t.Fatal(err)
	}
	conns := count(golden, transcript.Open)

	t.Run("tap", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(dir, "capture-*.txt"))
		if len(files) != 1 {
			t.Fatalf("capture files: %v", files)
		}
		captured := parse(t, files[0])
		pk := pcapconv.Synthesize(captured, pcapconv.SynthOptions{Port: uint16(port)})
		got, _ := convert(t, toCapture(t, pk, layers.LinkTypeEthernet, true), pcapconv.Options{Port: uint16(port), ShowPasswords: true})
		checkReplays(t, golden, got)
	})
	for _, s := range sniffing {
		t.Run(s.tool, func(t *testing.T) {
			// wait until the sniffer has written every connection's end
			var got []transcript.Entry
			for {
				raw, err := os.ReadFile(s.file)
				if err == nil {
					got, _, err = pcapconv.Convert(bytes.NewReader(raw), pcapconv.Options{Port: uint16(port), ShowPasswords: true})
				}
				if err == nil && count(got, transcript.Close) == conns {
					break
				}
				select {
				case <-ctx.Done():
					t.Fatalf("%s did not record the whole session: %v\n%v", s.tool, err, got)
				case <-time.After(20 * time.Millisecond):
				}
			}
			s.cmd.Process.Signal(syscall.SIGINT)
			s.cmd.Wait()
			checkReplays(t, golden, got)
		})
	}
	for _, s := range sniffing {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

func startSniffer(path string, args []string, ready, file, probe string) (*exec.Cmd, error) {
	cmd := exec.Command(path, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(10 * time.Second)
	var said []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				cmd.Wait()
				return nil, fmt.Errorf("exited: %s", strings.Join(said, "; "))
			}
			said = append(said, l)
			if strings.Contains(l, ready) {
				go func() {
					for range lines {
					}
				}()
				if err := awaitProbe(file, probe); err != nil {
					cmd.Process.Kill()
					cmd.Wait()
					return nil, err
				}
				return cmd, nil
			}
		case <-deadline:
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("not ready after 10s: %s", strings.Join(said, "; "))
		}
	}
}

// awaitProbe sends UDP datagrams to probe until the capture file holds a
// packet.
func awaitProbe(file, probe string) error {
	c, err := net.Dial("udp", probe)
	if err != nil {
		return err
	}
	defer c.Close()
	for range 500 {
		c.Write([]byte("probe"))
		if raw, err := os.ReadFile(file); err == nil {
			if _, st, _ := pcapconv.Convert(bytes.NewReader(raw), pcapconv.Options{}); st.Packets > 0 {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("no probe packet captured in 10s")
}

// checkReplays checks a converted live session: it holds every connection
// and answer of the session, and replays in-process as converted, each
// connection in its own order (over sockets that is all that is defined).
func checkReplays(t *testing.T, golden, got []transcript.Entry) {
	t.Helper()
	if n, m := count(got, transcript.Open), count(golden, transcript.Open); n != m {
		t.Fatalf("%d connections, want %d:\n%v", n, m, got)
	}
	if n, m := count(got, transcript.Recv), count(golden, transcript.Recv); n != m {
		t.Errorf("%d answers, want %d", n, m)
	}
	again := replay.Run(statemachine.Config{}, replay.DemoAccounts(), got)
	for c := 1; c <= count(got, transcript.Open); c++ {
		conn := fmt.Sprintf("c%d", c)
		if d := transcript.Diff(of(got, conn), of(again, conn)); d != "" {
			t.Errorf("%s replays differently (- converted, + replay):\n%s", conn, d)
		}
	}
	// the golden session's answers, connection by connection
	want := asCaptured(golden)
	for c := 1; c <= count(got, transcript.Open); c++ {
		conn := fmt.Sprintf("c%d", c)
		if d := transcript.Diff(only(of(want, conn), transcript.Recv), only(of(got, conn), transcript.Recv)); d != "" {
			t.Errorf("%s answers differ from the golden session:\n%s", conn, d)
		}
	}
}

// hangUpInTurn ends a transcript with each open connection closing in turn
// and the answers the others get, so the live session's ends are ordered.
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
	return replay.Run(statemachine.Config{}, replay.DemoAccounts(), es)
}
