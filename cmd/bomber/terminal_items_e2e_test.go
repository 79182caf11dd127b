package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// TestTmuxRefusalsAndOneComputer runs bomber --tables in tmux against a
// real bomberd: a refusal reads in words, never as the server's code name
// ("NoTable:"); b gives the computer one empty seat of a waiting table,
// not all of them, and a second b the last one, which starts the game;
// an illegal move typed in notation says the rules' reason, without the
// names of their package or error.
func TestTmuxRefusalsAndOneComputer(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	tmux := needTmux(t)
	dir, bomberd, bomber := buildBoth(t)
	addr := startBomberd(t, bomberd, dir)
	c := &tmuxClient{t: t, tmux: tmux, sock: filepath.Join(t.TempDir(), "tmux.sock"), deadline: time.Now().Add(60 * time.Second)}
	c.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", bomber+" --tables --mono --addr "+addr+" --user Albert --password 123")
	t.Cleanup(func() { exec.Command(tmux, "-S", c.sock, "kill-server").Run() })
	c.waitFor("Open tables")

	c.keys("J")
	c.keys("99", "Enter")
	s := c.waitFor("no such table")
	if strings.Contains(s, "NoTable") {
		t.Fatalf("the refusal shows the code's name:\n%s", s)
	}

	c.keys("c", "l", "l", "j", "l", "Enter") // Dots and Boxes, 3 seats
	c.waitFor("1 Albert  2 -  3 -")
	c.keys("b")
	c.waitFor("1 Albert*  2 computer*  3 -") // one seat; a computer is its creator's Ready
	c.keys("b")
	c.waitFor("[playing]")
	c.waitFor("Your turn.")
	c.keys(":", "a1-c1", "Enter") // not a line: two dots apart
	c.waitFor("the move could not be read")
	c.keys(":", "a1-b1", "Enter")
	c.waitFor("Albert a1-b1")
	for !strings.Contains(c.screen(), "Your turn.") {
		if time.Now().After(c.deadline) {
			t.Fatalf("Albert's turn never came back:\n%s", c.screen())
		}
		time.Sleep(25 * time.Millisecond)
	}
	c.keys(":", "a1-b1", "Enter") // drawn already
	s = c.waitFor("that move is not allowed: a1-b1 is already drawn")
	if strings.Contains(s, "illegal move") || strings.Contains(s, "dots:") {
		t.Fatalf("the reason names the rules' package or error:\n%s", s)
	}
	c.keys("q")
}

// TestTmuxWatcherSeesTheMoves: Cindy starts watching, in bomber --tables
// in tmux, a game of checkers two moves in between two other clients: she
// sees the two moves (not "moves 0"), then the next one as it is played.
func TestTmuxWatcherSeesTheMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	tmux := needTmux(t)
	dir, bomberd, bomber := buildBoth(t)
	addr := startBomberd(t, bomberd, dir)

	a, _ := checkersTwoMovesIn(t, addr, nil)

	c := &tmuxClient{t: t, tmux: tmux, sock: filepath.Join(t.TempDir(), "tmux.sock"), deadline: time.Now().Add(60 * time.Second)}
	c.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", bomber+" --tables --mono --addr "+addr+" --user Cindy --password 123")
	t.Cleanup(func() { exec.Command(tmux, "-S", c.sock, "kill-server").Run() })
	c.waitFor("Open tables")
	c.keys("r")
	c.waitFor("Checkers")
	c.keys("w")
	c.waitFor("watching")
	s := c.waitFor("moves 2")
	if !strings.Contains(s, "Albert 11-15") || !strings.Contains(s, "Beth 22-18") {
		t.Fatalf("the watcher does not see the moves played before she came:\n%s", s)
	}
	a.send(segment.MoveTextMsg{Notation: "15x22"})
	c.waitFor("moves 3")
	c.waitFor("Albert 15x22")
	c.keys("q")
}
