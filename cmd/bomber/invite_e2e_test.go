package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTmuxInviteLinkAndRoomOptions plays the seeds' game room in three
// terminals: Albert creates a private Dots and Boxes table the host
// starts, and his screen shows the invite links to share; Beth starts
// bomber with --join and that link and is seated; Cindy types the table's
// number and code at W in the lobby and watches; Beth is told the host
// starts; Albert's r starts the game.
func TestTmuxInviteLinkAndRoomOptions(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	tmux := needTmux(t)
	dir, bomberd, bomber := buildBoth(t)
	addr := startBomberd(t, bomberd, dir)
	term := func(user string, args ...string) *tmuxClient {
		c := &tmuxClient{t: t, tmux: tmux, sock: filepath.Join(t.TempDir(), "tmux.sock"), deadline: time.Now().Add(60 * time.Second)}
		line := []string{bomber, "--tables", "--mono", "--addr", addr, "--user", user, "--password", "123"}
		c.run(append([]string{"new-session", "-d", "-s", "play", "-x", "80", "-y", "24"}, append(line, args...)...)...)
		t.Cleanup(func() { exec.Command(tmux, "-S", c.sock, "kill-server").Run() })
		return c
	}

	albert := term("Albert", "--web", "http://play.example/")
	albert.waitFor("Open tables")
	albert.keys("c")
	albert.waitFor("Create a table")
	albert.keys("Right", "Right")                        // bomber, checkers, dots
	albert.keys("Down", "Down", "Right")                 // private
	albert.keys("Down", "Down", "Down", "Down", "Right") // start: host starts
	if s := albert.waitFor("host starts"); !strings.Contains(s, "one room") {
		t.Fatalf("the form does not offer the chat room option:\n%s", s)
	}
	albert.keys("Enter")
	s := albert.waitFor("#t=")
	link := regexp.MustCompile(`http://play\.example/#t=(\d+)&c=([A-Z0-9]+)`).FindStringSubmatch(s)
	if link == nil || !strings.Contains(s, link[0]+"&w=1") || !strings.Contains(s, link[1]+" "+link[2]) {
		t.Fatalf("no invite links (join, watch) and number and code to share:\n%s", s)
	}
	if !strings.Contains(s, "r  start the game") {
		t.Fatalf("the host is not told r starts the game:\n%s", s)
	}

	beth := term("Beth", "--join", link[0])
	// her seat shows as she is seated, the host's start once the table's
	// state follows: wait for the second
	if s := beth.waitFor("the host"); !strings.Contains(s, "table #"+link[1]) || !strings.Contains(s, "seat 2") {
		t.Fatalf("Beth, following the link, is not seated at table %s waiting for the host:\n%s", link[1], s)
	}
	cindy := term("Cindy")
	cindy.waitFor("Open tables")
	cindy.keys("W")
	cindy.waitFor("watch:")
	cindy.keys(link[1]+" "+link[2], "Enter")
	if s := cindy.waitFor("watching"); !strings.Contains(s, "table #"+link[1]) {
		t.Fatalf("Cindy does not watch table %s:\n%s", link[1], s)
	}

	albert.waitFor("Beth")
	albert.keys("r")
	for _, c := range []*tmuxClient{albert, beth, cindy} {
		c.waitFor("moves 0")
	}
}
