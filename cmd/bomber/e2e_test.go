package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestTmuxWholeGame runs the real terminal client in tmux (80x24) against
// a real bomberd and plays a whole game against the bot: log in as Albert,
// see Beth in the lobby, invite her, draw three planes with the keyboard,
// guess until the game ends, read the result and go back to the lobby.
func TestTmuxWholeGame(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	tmux := needTmux(t)
	dir := t.TempDir()
	bomberd, bomber := filepath.Join(dir, "bomberd"), filepath.Join(dir, "bomber")
	for out, pkg := range map[string]string{bomberd: "../bomberd", bomber: "."} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	addr := startBomberd(t, bomberd, dir)

	bot := exec.Command(bomber, "--bot", "--addr", addr, "--user", "Beth", "--password", "123", "--games", "1", "--seed", "7", "--think", "0")
	botLog := &lockedBuffer{}
	bot.Stdout, bot.Stderr = botLog, botLog
	if err := bot.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bot.Process.Kill(); bot.Wait() })

	// a socket of this test's own, removed with its folder: -L names one in
	// tmux's shared folder (/tmp/tmux-UID), which kill-server leaves behind
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tm("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", bomber+" --mono --addr "+addr)
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	screen := func() string { return tm("capture-pane", "-p", "-t", "play") }
	deadline := time.Now().Add(45 * time.Second)
	waitFor := func(what ...string) string {
		t.Helper()
		for {
			s := screen()
			for _, w := range what {
				if strings.Contains(s, w) {
					return s
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("screen never showed %q:\n%s\nbot log:\n%s", what, s, botLog.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	keys := func(k ...string) { tm(append([]string{"send-keys", "-t", "play"}, k...)...) }

	waitFor("Log in")
	keys("Albert", "Enter", "123", "Enter")
	lobby := waitFor("Online players")
	for !strings.Contains(lobby, "> Beth") {
		lobby = waitFor("> Beth")
	}
	keys("Enter")
	drawing := waitFor("place 3 more planes")
	if strings.Contains(drawing, "cannot place") {
		t.Fatalf("the drawing screen opens with an error:\n%s", drawing)
	}
	// The cursor always waits where a plane fits: enter three times.
	keys("Enter")
	waitFor("place 2 more planes")
	keys("Enter")
	waitFor("place 1 more plane ")
	keys("Enter")
	waitFor("All three planes placed")
	keys("s")
	board := waitFor("Your turn.")
	if !strings.Contains(board, "Your board") || !strings.Contains(board, "Beth's board") {
		t.Fatalf("the game screen does not show both boards:\n%s", board)
	}
	// Sweep the opponent's board row by row, one guess per turn.
	var last string
	for i := 0; i < 100; i++ {
		last = waitFor("Your turn.", "YOU ")
		if strings.Contains(last, "YOU ") {
			break
		}
		keys("Enter")
		guessed := fmt.Sprintf("your guess %c%d", 'A'+i/10, i%10)
		if i%10 == 9 {
			keys("j", "h", "h", "h", "h", "h", "h", "h", "h", "h")
		} else {
			keys("l")
		}
		waitFor(guessed, "YOU ")
	}
	result := waitFor("YOU WON!", "YOU LOST.")
	for _, want := range []string{"Your board", "Beth's board", "enter back to the lobby", "q quit"} {
		if !strings.Contains(result, want) {
			t.Fatalf("result screen lacks %q:\n%s", want, result)
		}
	}
	for _, line := range strings.Split(result, "\n") {
		if len([]rune(line)) > 80 {
			t.Fatalf("line wider than 80 columns: %q", line)
		}
	}
	t.Logf("result screen:\n%s", result)
	keys("Enter")
	waitFor("Online players")
	keys("q")
}

// needTmux finds tmux, installing it with apt-get when it is missing and we
// may; otherwise the test is skipped.
func needTmux(t *testing.T) string {
	if p, err := exec.LookPath("tmux"); err == nil {
		return p
	}
	if os.Geteuid() == 0 {
		if out, err := exec.Command("apt-get", "install", "-y", "tmux").CombinedOutput(); err != nil {
			t.Logf("apt-get install tmux: %v\n%s", err, out)
		}
		if p, err := exec.LookPath("tmux"); err == nil {
			return p
		}
	}
	t.Skip("tmux is not installed and could not be installed (apt-get install -y tmux)")
	return ""
}

// startBomberd runs bomberd with a fresh SQLite store (which gets the demo
// accounts, password 123) and cheap hashing, and waits until it listens.
func startBomberd(t *testing.T, bin, dir string) string {
	cfgFile := filepath.Join(dir, "bomberd.yaml")
	os.WriteFile(cfgFile, []byte("log:\n  format: console\nadmin:\n  listen: \"\"\n"), 0o644) // no admin listener: its fixed port would clash
	cmd := exec.Command(bin, "--config", cfgFile)
	cmd.Dir = dir
	// port 0: the kernel picks a free port and the log says which
	cmd.Env = append(os.Environ(), "BOMBER_LISTEN=127.0.0.1:0", "BOMBER_ADMIN_LISTEN=",
		"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1")
	cmd.Env = append(cmd.Env, "BOMBER_WEB_LISTEN=") // no web listener: the default port may be taken
	log := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	listening := regexp.MustCompile(`\tlistening\t\{"addr": "([^"]+)"\}`)
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(50 * time.Millisecond) {
		if m := listening.FindStringSubmatch(log.String()); m != nil {
			if c, err := net.Dial("tcp", m[1]); err == nil {
				c.Close()
				return m[1]
			}
		}
	}
	t.Fatalf("bomberd did not start listening:\n%s", log.String())
	return ""
}

// lockedBuffer collects a process's output; exec writes to it from its own
// goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
