// Package wireshark holds the Wireshark dissector for Bomber (bomber.lua)
// and its test; there is no Go code here besides the test.
package wireshark

import (
	"bytes"
	"flag"
	"fmt"
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
// it. A reference segment and a fragment of a longer message read as
// segment.Describe (passwords shown) says; the segment that completes an
// extended message reads as its whole body decoded (segment.DescribeMessage),
// or "Type (malformed, N bytes)"; a framing error (a bad header or broken
// fragmentation) reads as "protocol error: " and the error, and nothing
// after it in that direction is decoded. A client that starts with Hello
// speaks the extended protocol, and so does the server to it.
func expected(es []transcript.Entry) string {
	var b strings.Builder
	type stream struct {
		dec    segment.Decoder
		asm    segment.Assembler
		broken bool
	}
	streams := map[string]*stream{}
	extended := map[string]bool{} // connections whose client began with Hello
	for _, e := range es {
		if e.Op != transcript.Send && e.Op != transcript.Recv {
			continue
		}
		dir := map[transcript.Op]string{transcript.Send: ">", transcript.Recv: "<"}[e.Op]
		s := streams[e.Conn+dir]
		if s == nil {
			s = new(stream)
			if e.Op == transcript.Recv {
				s.dec.SetDialect(segment.DialectReference)
				if extended[e.Conn] {
					s.dec.SetDialect(segment.DialectExtended)
				}
			}
			streams[e.Conn+dir] = s
		}
		if s.broken {
			continue
		}
		if _, err := s.dec.Feed(e.Data, func(seg segment.Segment) bool {
			if e.Op == transcript.Send && seg.Type == segment.Hello {
				extended[e.Conn] = true // the decoder took it: the first segment
			}
			t, body, done, err := s.asm.Add(seg)
			switch {
			case err != nil:
				b.WriteString(dir + " protocol error: " + err.Error() + "\n")
				s.broken = true
				return false
			case !done || !t.Extended():
				b.WriteString(dir + " " + seg.Describe(true) + "\n")
			default:
				b.WriteString(dir + " " + describeMessage(t, body) + "\n")
			}
			return true
		}); err != nil && !s.broken {
			b.WriteString(dir + " protocol error: " + err.Error() + "\n")
			s.broken = true
		}
	}
	return b.String()
}

// describeMessage is a whole extended message as the dissector shows it.
func describeMessage(t segment.Type, body []byte) string {
	if _, err := segment.DecodeMessage(t, body); err != nil {
		return fmt.Sprintf("%v (malformed, %d bytes)", t, len(body))
	}
	return segment.DescribeMessage(t, body)
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
	// the session exercises every kind of segment the dissector decodes,
	// every extended message type among them
	for ty := segment.Type(0x20); ty <= 0x47; ty++ {
		if ty.KnownExtended() && !strings.Contains(want, " "+ty.String()+" ") && !strings.Contains(want, " "+ty.String()+"\n") {
			t.Errorf("the session has no whole %v message", ty)
		}
	}
	for _, s := range []string{"> Info", "> Passwd", "< InfoResp", "< PasswdResp", "< SyncBegin", "< NewOnline",
		"< SyncEnd", "> SendInvit", "< RecvInvit", "> InvitResponse", "< InvitResponse", "> Board", "< Board",
		"> SingleCoord (", "< SingleCoord (", "> DoubleCoord (", "< DoubleCoord (", "> DoubleCoord (malformed)",
		"> SingleCoord (malformed)", "> GameOver", "< GameOver", "< NewOffline", "unknown segment descriptor", "bad segment length",
		// the extended protocol: negotiation, fragments, whole messages, malformed bodies, broken fragmentation
		"> Hello version=1 features=3", "< Welcome version=1 features=3 maxMessage=1024", "< Game|More (29 bytes, more follows)",
		`< Game name="checkers"`, "> Join (malformed, 2 bytes)", "> Hello (malformed, 1 bytes)", "unknown segment descriptor 0x20",
		"bad message fragmentation: ListReq arrived inside a Chat message", "bad segment length: Chat|More with 28 payload bytes",
		"bad message fragmentation: Chat body passes its cap of 300 bytes"} {
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
