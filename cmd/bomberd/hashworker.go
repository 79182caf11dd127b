package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/account/hashproc"
	"github.com/bomber-game/bomber/server"
)

// hashWorkerArg is the argument that makes bomberd the daemon's hashing
// child (hashing.in_process: false): it answers argon2id requests on stdin
// until stdin ends, which is when the daemon closes it or is gone.
const hashWorkerArg = "hash-worker"

// hashWorker is the child's whole life. It ignores the signals a terminal
// or systemd sends the daemon's whole process group or cgroup: the daemon
// ends it by closing its stdin, after the last login was hashed.
func hashWorker(stdin io.Reader, stdout, stderr io.Writer) int {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	server.YieldProcess()
	if err := hashproc.Serve(stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "bomberd hash-worker:", err)
		return 1
	}
	return 0
}

// hashChild returns the client of the daemon's hashing child: this same
// executable with hashWorkerArg, its stderr the daemon's. The child starts
// on the first hash and runs at the account workers' priority, off the
// loop's CPU when there is another (server.YieldProcess).
func hashChild(log *zap.Logger) *hashproc.Client {
	exe, err := os.Executable()
	if err != nil {
		log.Warn("hashing in the daemon: its executable is not known", zap.Error(err))
		exe = "/proc/self/exe"
	}
	return hashproc.NewClient(func() *exec.Cmd {
		cmd := exec.Command(exe, hashWorkerArg)
		cmd.Stderr = os.Stderr
		return cmd
	}, log)
}
