// Package wireshark holds the Wireshark dissector for Bomber (bomber.lua)
// and its test; there is no Go code here besides the test.
package wireshark

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"

	"github.com/bomber-game/bomber/pcapconv"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
)

var update = flag.Bool("update", false, "rewrite testdata/session.pcap and session.expected from session.txt")

const (
	sessionTxt      = "testdata/session.txt"
	sessionPcap     = "testdata/session.pcap"
	sessionExpected = "testdata/session.expected"
)

// expected lists what the dissector must show for every segment of the
// session, in capture order: '>' or '<', then the text the Go decoder gives
// it (segment.Describe with passwords shown, or the framing error).
func expected(es []transcript.Entry) string {
	var b strings.Builder
	type stream struct {
		dec    segment.Decoder
		broken bool
	}
	streams := map[string]*stream{}
	for _, e := range es {
		if e.Op != transcript.Send && e.Op != transcript.Recv {
			continue
		}
		dir := map[transcript.Op]string{transcript.Send: ">", transcript.Recv: "<"}[e.Op]
		s := streams[e.Conn+dir]
		if s == nil {
			s = new(stream)
			streams[e.Conn+dir] = s
		}
		if s.broken {
			continue
		}
		if _, err := s.dec.Feed(e.Data, func(seg segment.Segment) bool {
			b.WriteString(dir + " " + seg.Describe(true) + "\n")
			return true
		}); err != nil {
			b.WriteString(dir + " protocol error: " + err.Error() + "\n")
			s.broken = true
		}
	}
	return b.String()
}

func session(t *testing.T) []transcript.Entry {
	t.Helper()
	raw, err := os.ReadFile(sessionTxt)
	if err != nil {
		t.Fatal(err)
	}
	es, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// capture is the session as packets: data cut into packets of at most 5
// bytes, so headers and payloads are split, and server segments coalesced,
// so one packet holds the end of one and the start of the next.
func capture(t *testing.T, es []transcript.Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	pk := pcapconv.Synthesize(es, pcapconv.SynthOptions{MaxPayload: 5, Coalesce: true})
	if err := pcapconv.WriteCapture(&b, pk, layers.LinkTypeEthernet, false); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTestdataIsCurrent checks that the committed capture and expectations
// are what session.txt gives, so the shell test checks the right thing.
func TestTestdataIsCurrent(t *testing.T) {
	es := session(t)
	pcap, want := capture(t, es), expected(es)
	if *update {
		if err := os.WriteFile(sessionPcap, pcap, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sessionExpected, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		file string
		want []byte
	}{{sessionPcap, pcap}, {sessionExpected, []byte(want)}} {
		got, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("%s is stale: run go test ./contrib/wireshark -update and review", c.file)
		}
	}
	// the session exercises every kind of segment the dissector decodes
	for _, s := range []string{"> Info", "> Passwd", "< InfoResp", "< PasswdResp", "< SyncBegin", "< NewOnline",
		"< SyncEnd", "> SendInvit", "< RecvInvit", "> InvitResponse", "< InvitResponse", "> Board", "< Board",
		"> SingleCoord (", "< SingleCoord (", "> DoubleCoord (", "< DoubleCoord (", "> DoubleCoord (malformed)",
		"> SingleCoord (malformed)", "> GameOver", "< GameOver", "< NewOffline", "unknown segment descriptor", "bad segment length"} {
		if !strings.Contains(want, s) {
			t.Errorf("the session has no %q", s)
		}
	}
}

// TestDissectorWithTshark runs test.sh, which decodes the capture with
// tshark and bomber.lua and compares every segment with the expectations.
func TestDissectorWithTshark(t *testing.T) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark is not installed, so the Wireshark dissector is not tested here; " +
			"contrib/wireshark/test.sh installs it (apt-get install -y tshark) and runs this check")
	}
	out, err := exec.Command("sh", "test.sh").CombinedOutput()
	if err != nil {
		t.Fatalf("test.sh: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
