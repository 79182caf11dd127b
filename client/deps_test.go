package client

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNoBot: the pure client knows the protocol, not how to play;
// the computer player (client/clientbot) builds on it, not the other way.
func TestImportsNoBot(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list dependencies with")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/bomber-game/bomber/rules/bomber/bot" || dep == "github.com/bomber-game/bomber/client/clientbot" {
			t.Errorf("client imports %s", dep)
		}
	}
}
