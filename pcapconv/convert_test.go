package pcapconv_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"

	"github.com/bomber-game/bomber/pcapconv"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine/replay"
)

func goldenFiles(t *testing.T) []string {
	t.Helper()
	fs, _ := filepath.Glob("../testdata/transcripts/*.txt")
	if len(fs) == 0 {
		t.Fatal("no golden transcripts")
	}
	return fs
}

func parse(t *testing.T, file string) []transcript.Entry {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	es, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// asCaptured is what a capture of es can show: connections renamed c1, c2...
// in the order they open, and no clock or store lines (a capture has only
// packets).
func asCaptured(es []transcript.Entry) []transcript.Entry {
	names := map[string]string{}
	var out []transcript.Entry
	for _, e := range transcript.Events(es) {
		switch e.Op {
		case transcript.Clock, transcript.StoreDown, transcript.StoreUp, transcript.Bot:
			continue // not on the wire (a computer player's move is an input inside the daemon)
		case transcript.Open:
			names[e.Conn] = fmt.Sprintf("c%d", len(names)+1)
		}
		e.Conn = names[e.Conn]
		out = append(out, e)
	}
	return out
}

func toCapture(t *testing.T, pk []pcapconv.Packet, lt layers.LinkType, ng bool) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := pcapconv.WriteCapture(&b, pk, lt, ng); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func convert(t *testing.T, capture []byte, opt pcapconv.Options) ([]transcript.Entry, pcapconv.Stats) {
	t.Helper()
	es, st, err := pcapconv.Convert(bytes.NewReader(capture), opt)
	if err != nil {
		t.Fatal(err)
	}
	// what the converter writes must read back
	var b bytes.Buffer
	if err := transcript.Write(&b, es, opt.ShowPasswords); err != nil {
		t.Fatal(err)
	}
	back, err := transcript.Parse(&b)
	if err != nil {
		t.Fatalf("converted transcript does not parse: %v\n%s", err, b.String())
	}
	return back, st
}

var formats = []struct {
	name   string
	lt     layers.LinkType
	ng     bool
	server string
}{
	{"pcap-ethernet-ipv4", layers.LinkTypeEthernet, false, "10.1.2.3"},
	{"pcapng-null-ipv6", layers.LinkTypeNull, true, "::1"},
	{"pcapng-raw-ipv4", layers.LinkTypeRaw, true, "127.0.0.1"},
}

// TestGoldenRoundTrip turns every golden session into packets and back:
// the transcript must come out with the same events.
func TestGoldenRoundTrip(t *testing.T) {
	for _, f := range formats {
		for _, file := range goldenFiles(t) {
			t.Run(f.name+"/"+filepath.Base(file), func(t *testing.T) {
				want := parse(t, file)
				opt := pcapconv.SynthOptions{Server: netip.MustParseAddr(f.server), Port: 7000}
				capt := toCapture(t, pcapconv.Synthesize(want, opt), f.lt, f.ng)
				got, st := convert(t, capt, pcapconv.Options{Port: 7000, ShowPasswords: true})
				if d := transcript.Diff(asCaptured(want), got); d != "" {
					t.Fatalf("round trip differs (- golden, + converted):\n%s", d)
				}
				if st.Connections != count(want, transcript.Open) || st.Skipped != 0 {
					t.Errorf("stats %+v", st)
				}
			})
		}
	}
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

// mangle makes the network misbehave: packets out of order, retransmitted
// whole and retransmitted overlapping the next one.
func mangle(pk []pcapconv.Packet) []pcapconv.Packet {
	var out []pcapconv.Packet
	for i := 0; i < len(pk); i++ {
		p := pk[i]
		if len(p.Payload) == 0 {
			out = append(out, p)
			continue
		}
		switch i % 4 {
		case 0:
			// swap with the next packet in the same direction, if it comes next
			if i+1 < len(pk) && pk[i+1].Src == p.Src && len(pk[i+1].Payload) > 0 {
				out = append(out, pk[i+1], p)
				i++
				continue
			}
			out = append(out, p)
		case 1:
			out = append(out, p, p) // a retransmission
		case 2:
			out = append(out, p)
			// a later retransmission that covers this one and part of the next
			if i+1 < len(pk) && pk[i+1].Src == p.Src && len(pk[i+1].Payload) > 0 {
				q := p
				q.Payload = append(slices.Clone(p.Payload), pk[i+1].Payload[:1]...)
				out = append(out, pk[i+1], q)
				i++
			}
		default:
			out = append(out, p)
		}
	}
	return out
}

func TestReassemblyOfAMisbehavingNetwork(t *testing.T) {
	for _, name := range []string{"04_invite_accept_game.txt", "08_bad_input.txt", "12_timeouts_pipelining.txt"} {
		t.Run(name, func(t *testing.T) {
			want := asCaptured(parse(t, filepath.Join("../testdata/transcripts", name)))
			pk := pcapconv.Synthesize(want, pcapconv.SynthOptions{MaxPayload: 2, Coalesce: true})
			mangled := mangle(pk)
			if len(mangled) <= len(pk) || !outOfOrder(mangled) {
				t.Fatalf("the network did not misbehave: %d packets, %d after", len(pk), len(mangled))
			}
			capt := toCapture(t, mangled, layers.LinkTypeEthernet, false)
			got, _ := convert(t, capt, pcapconv.Options{ShowPasswords: true})
			// server segments come out whole and in order
			if d := transcript.Diff(only(want, transcript.Recv), only(got, transcript.Recv)); d != "" {
				t.Errorf("'<' lines differ:\n%s", d)
			}
			// client bytes come out complete, in order, in packet-sized lines
			for _, c := range []string{"c1", "c2"} {
				if w, g := sent(want, c), sent(got, c); !bytes.Equal(w, g) {
					t.Errorf("%s sent\n% x\nwant\n% x", c, g, w)
				}
			}
			for _, e := range got {
				if e.Op == transcript.Send && len(e.Data) > 2 {
					t.Errorf("line of %d bytes from packets of at most 2: %v", len(e.Data), e)
				}
			}
			// and the server answers as converted when replayed
			cfg, err := replay.ConfigFromNotes(parse(t, filepath.Join("../testdata/transcripts", name)))
			if err != nil {
				t.Fatal(err)
			}
			if name == "12_timeouts_pipelining.txt" {
				return // its timeouts need the clock lines a capture cannot hold
			}
			// splitting one write into packets can put the server's FIN,
			// and what the hang-up causes on other connections, after
			// bytes it never read: compare each connection on its own, and
			// its 'closed' line by number only
			again := replay.Run(cfg, replay.DemoAccounts(), got)
			for c := 1; c <= count(got, transcript.Open); c++ {
				conn := fmt.Sprintf("c%d", c)
				w, g := drop(of(got, conn), transcript.Closed), drop(of(again, conn), transcript.Closed)
				if d := transcript.Diff(w, g); d != "" {
					t.Errorf("%s replays differently:\n%s", conn, d)
				}
			}
			if n, m := count(got, transcript.Closed), count(again, transcript.Closed); n != m {
				t.Errorf("%d closed lines, replay has %d", n, m)
			}
		})
	}
}

// outOfOrder reports whether some packet starts before one sent earlier
// in the same direction.
func outOfOrder(pk []pcapconv.Packet) bool {
	last := map[netip.AddrPort]uint32{}
	for _, p := range pk {
		if l, ok := last[p.Src]; ok && int32(p.Seq-l) < 0 {
			return true
		}
		last[p.Src] = p.Seq
	}
	return false
}

func only(es []transcript.Entry, op transcript.Op) []transcript.Entry {
	return slices.DeleteFunc(slices.Clone(es), func(e transcript.Entry) bool { return e.Op != op })
}

func drop(es []transcript.Entry, op transcript.Op) []transcript.Entry {
	return slices.DeleteFunc(slices.Clone(es), func(e transcript.Entry) bool { return e.Op == op })
}

func of(es []transcript.Entry, conn string) []transcript.Entry {
	return slices.DeleteFunc(slices.Clone(es), func(e transcript.Entry) bool { return e.Conn != conn })
}

func sent(es []transcript.Entry, conn string) []byte {
	var b []byte
	for _, e := range es {
		if e.Op == transcript.Send && e.Conn == conn {
			b = append(b, e.Data...)
		}
	}
	return b
}

func TestPasswordsMaskedByDefault(t *testing.T) {
	es := parse(t, "../testdata/transcripts/01_login_userlist.txt")
	capt := toCapture(t, pcapconv.Synthesize(es, pcapconv.SynthOptions{}), layers.LinkTypeEthernet, true)
	got, _ := convert(t, capt, pcapconv.Options{})
	var b bytes.Buffer
	transcript.Write(&b, got, false)
	text := b.String()
	if strings.Contains(text, "31 32 33") || !strings.Contains(text, "02 00 03 2a 2a 2a  # Passwd (masked)") {
		t.Errorf("passwords not masked:\n%s", text)
	}
}

func TestConnectionWithoutSYNIsLeftOut(t *testing.T) {
	es := parse(t, "../testdata/transcripts/01_login_userlist.txt")
	pk := pcapconv.Synthesize(es, pcapconv.SynthOptions{})
	// the capture starts after the first connection's handshake
	got, st := convert(t, toCapture(t, pk[3:], layers.LinkTypeEthernet, false), pcapconv.Options{ShowPasswords: true})
	if st.Skipped != 1 || st.Connections != count(es, transcript.Open)-1 {
		t.Fatalf("stats %+v", st)
	}
	var notes []string
	for _, e := range got {
		if e.Op == transcript.Note {
			notes = append(notes, e.Comment)
		}
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.HasPrefix(n, "left out 127.0.0.1:40001 -> 127.0.0.1:20343: it began before the capture")
	}) {
		t.Errorf("no note on the connection left out: %q", notes)
	}
	if got[len(got)-1].Conn != "c2" || !strings.Contains(fmt.Sprint(notes), "converted from a capture of") {
		t.Errorf("unexpected transcript: %v", got)
	}
}

func TestNotACapture(t *testing.T) {
	for _, in := range []string{"", "abc", "# a transcript\na open\n"} {
		if _, _, err := pcapconv.Convert(strings.NewReader(in), pcapconv.Options{}); !errors.Is(err, pcapconv.ErrFormat) {
			t.Errorf("%q: err %v", in, err)
		}
	}
}

// FuzzConvert feeds arbitrary bytes as a capture: conversion may fail but
// must not panic, and what it returns must write and read back.
func FuzzConvert(f *testing.F) {
	es := []transcript.Entry{
		{At: -1, Conn: "a", Op: transcript.Open},
		{At: -1, Conn: "a", Op: transcript.Send, Data: []byte{0, 0, 4, 'B', 'e', 't', 'h'}},
		{At: -1, Conn: "a", Op: transcript.Recv, Data: []byte{1, 0, 1, 1}},
		{At: -1, Conn: "a", Op: transcript.Close},
	}
	for _, fm := range formats {
		var b bytes.Buffer
		pcapconv.WriteCapture(&b, pcapconv.Synthesize(es, pcapconv.SynthOptions{MaxPayload: 3}), fm.lt, fm.ng)
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _, err := pcapconv.Convert(bytes.NewReader(data), pcapconv.Options{ShowPasswords: true})
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := transcript.Write(&b, got, true); err != nil {
			t.Fatal(err)
		}
		if _, err := transcript.Parse(&b); err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, b.String())
		}
	})
}

func TestHugePacketsAreSplitIntoLines(t *testing.T) {
	big := bytes.Repeat([]byte{0x0f, 0, 0}, 3000) // 9000 bytes of GameOver in one packet
	es := []transcript.Entry{
		{At: -1, Conn: "a", Op: transcript.Open},
		{At: -1, Conn: "a", Op: transcript.Send, Data: big},
		{At: -1, Conn: "a", Op: transcript.Close},
	}
	got, _ := convert(t, toCapture(t, pcapconv.Synthesize(es, pcapconv.SynthOptions{}), layers.LinkTypeEthernet, false), pcapconv.Options{})
	if !bytes.Equal(sent(got, "c1"), big) {
		t.Fatalf("bytes lost")
	}
	for _, e := range got {
		if len(e.Data) > 1024 {
			t.Errorf("a line of %d bytes", len(e.Data))
		}
	}
}
