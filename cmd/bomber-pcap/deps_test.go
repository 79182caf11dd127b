package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoServer: the offline converter links neither the daemon's
// network shell nor its logger (the shared pieces live below both).
func TestLinksNoServer(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list dependencies with")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/bomber-game/bomber/server", "github.com/bomber-game/bomber/statemachine", "github.com/bomber-game/bomber/capture", "go.uber.org/zap"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") && dep != "github.com/bomber-game/bomber/capture/mask" {
				t.Errorf("bomber-pcap links %s", dep)
			}
		}
	}
}
