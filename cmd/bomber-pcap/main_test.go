package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/segment/transcript"
)

// TestBothDirections writes a golden session as a capture and converts it
// back with the command.
func TestBothDirections(t *testing.T) {
	golden := "../../testdata/transcripts/04_invite_accept_game.txt"
	for _, fl := range [][]string{{}, {"--pcapng", "--link", "null", "--split", "3", "--coalesce"}} {
		capFile := filepath.Join(t.TempDir(), "s.cap")
		var out, errs bytes.Buffer
		args := append(append([]string{"--from-transcript", "--port", "7000", "-o", capFile}, fl...), golden)
		if code := run(args, nil, &out, &errs); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs.String())
		}
		out.Reset()
		errs.Reset()
		if code := run([]string{"--port", "7000", capFile}, nil, &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		if !strings.Contains(errs.String(), "2 connections, 0 left out") {
			t.Errorf("summary: %s", errs.String())
		}
		got, err := transcript.Parse(&out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		raw, _ := os.ReadFile(golden)
		want, _ := transcript.Parse(bytes.NewReader(raw))
		if n, m := recv(got), recv(want); n != m {
			t.Errorf("%v: %d server segments, want %d", fl, n, m)
		}
		if strings.Contains(out.String(), "31 32 33") {
			t.Errorf("passwords not masked by default")
		}
	}
}

func recv(es []transcript.Entry) int {
	n := 0
	for _, e := range es {
		if e.Op == transcript.Recv {
			n++
		}
	}
	return n
}

func TestErrors(t *testing.T) {
	notCapture := filepath.Join(t.TempDir(), "x.txt")
	os.WriteFile(notCapture, []byte("a open\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{nil, "usage"},
		{[]string{"no/such.pcap"}, "no such file"},
		{[]string{notCapture}, "not a pcap or pcapng capture"},
		{[]string{"--port", "70000", notCapture}, "not a TCP port"},
		{[]string{"--from-transcript", notCapture}, "needs -o"},
		{[]string{"--from-transcript", "--link", "wifi", "-o", "x", notCapture}, "--link wants"},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		if code := run(tc.args, strings.NewReader(""), &out, &errs); code != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q in %s", tc.args, code, tc.want, errs.String())
		}
	}
}
