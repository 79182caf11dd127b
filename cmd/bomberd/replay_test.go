package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/statemachine"
)

// TestReplayInputsRefused: a daemon replaying a capture answers everyone
// with the capture's answers, so --replay-inputs is refused on a daemon
// reachable from elsewhere and in a cluster, and a file with no input
// log is refused rather than served as an empty world.
func TestReplayInputsRefused(t *testing.T) {
	dir := t.TempDir()
	good, empty := filepath.Join(dir, "capture.txt"), filepath.Join(dir, "golden.txt")
	in := statemachine.Input{Kind: statemachine.InOpen, Conn: 1, Text: "127.0.0.1"}
	line := fmt.Sprintf("in % x", statemachine.AppendInput(nil, 1, &in))
	os.WriteFile(good, []byte("c1 open\n"+line+"\n"), 0o644)
	os.WriteFile(empty, []byte("c1 open\nc1 > 00 00 06 4e 6f 76 61 74 65\n"), 0o644)
	for _, c := range []struct {
		file      string
		exposed   []string
		clustered bool
		want      string
	}{
		{good, []string{"192.0.2.1:20343"}, false, "loopback"},
		{good, nil, true, "cluster"},
		{empty, nil, false, "no inputs"},
		{filepath.Join(dir, "missing.txt"), nil, false, "no such file"},
	} {
		if _, err := replayLog(c.file, c.exposed, c.clustered, zap.NewNop()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, exposed %v, clustered %v: %v, want an error saying %q", filepath.Base(c.file), c.exposed, c.clustered, err, c.want)
		}
	}
	if _, err := replayLog(good, nil, false, zap.NewNop()); err != nil {
		t.Errorf("a capture on loopback: %v", err)
	}
}
