package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

// statFields returns the fields of a /proc stat file after the command's
// name (the first is the state, field 3 of proc(5)), nil if it is gone.
func statFields(file string) []string {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil // it ended meanwhile
	}
	return strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
}

// children returns the pids of pid's child processes.
func children(t *testing.T, pid int) []int {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, f := range stats {
		if fields := statFields(f); len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			kid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			kids = append(kids, kid)
		}
	}
	return kids
}

// TestPasswordsAreHashedInAChild: by default a login's argon2id runs in a
// child process (bomberd hash-worker) at the account workers' nice value, so
// its scratch memory is never garbage in the daemon's heap, and the child is
// gone when the daemon stops.
func TestPasswordsAreHashedInAChild(t *testing.T) {
	d := startDaemon(t)
	c := dial(t, d.addr)
	if code := c.login("Albert", "123"); code != segment.CodeOK {
		t.Fatalf("login: code %d", code)
	}
	kids := children(t, d.cmd.Process.Pid)
	if len(kids) != 1 {
		t.Fatalf("bomberd has %d child processes after a login, want its hashing child", len(kids))
	}
	kid := kids[0]
	if cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(kid) + "/cmdline"); !strings.HasSuffix(string(cmd), "\x00"+hashWorkerArg+"\x00") {
		t.Fatalf("bomberd's child runs %q", cmd)
	}
	// Every thread of it yields to the engine's loop. The demo accounts
	// were hashed at start, from the daemon's main thread (nice 0).
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(kid) + "/task/*/stat")
	for _, f := range tasks {
		if fields := statFields(f); len(fields) > 16 && fields[16] != "10" {
			t.Errorf("the hashing child's thread %s runs at nice %s, want 10", filepath.Base(filepath.Dir(f)), fields[16])
		}
	}
	if strings.Contains(d.log.String(), "hashing a password in the daemon") {
		t.Fatalf("bomberd hashed in its own process:\n%s", d.log.String())
	}
	c.nc.Close()
	stopDaemon(t, d)
	if _, err := os.Stat("/proc/" + strconv.Itoa(kid)); err == nil {
		t.Fatalf("the hashing child %d outlived bomberd", kid)
	}
}
