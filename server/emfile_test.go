//go:build linux

package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// childEnv marks the test binary run as the descriptor-starved server.
const childEnv = "BOMBER_TEST_EMFILE_CHILD"

// emfileLimit is the child's RLIMIT_NOFILE: the runtime, the reactor and a
// few dozen connections.
const emfileLimit = 40

// TestMain runs the child server when the test binary is started as one.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(starvedServer())
	}
	os.Exit(m.Run())
}

// starvedServer lowers its own descriptor limit (hard and soft: it cannot
// be raised again), serves the demo accounts with the reactor, prints its
// address and the file limit it saw, and serves until stdin closes.
func starvedServer() int {
	rl := unix.Rlimit{Cur: emfileLimit, Max: emfileLimit}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		fmt.Println("setrlimit:", err)
		return 1
	}
	fl, err := server.FitFileLimit(1)
	if err != nil {
		fmt.Println("FitFileLimit:", err)
		return 1
	}
	log, _ := zap.NewProduction() // JSON lines on stderr
	r, err := server.NewReactor(server.Config{Check: replay.DemoAccounts().Check, Logger: log, MaxConns: 1000})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	go r.Serve(l)
	fmt.Printf("%s %d %d\n", l.Addr(), fl.Soft, fl.Fit)
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// cpuTime is the CPU time a process has used so far.
func cpuTime(t *testing.T, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// TestAcceptOutOfDescriptors: a server out of descriptors (EMFILE) neither
// spins nor floods its log, keeps serving the connections it has, and
// accepts again once descriptors free up. It also checks FitFileLimit
// against the lowered limit.
func TestAcceptOutOfDescriptors(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	var addr string
	var soft, fit int
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if _, serr := fmt.Sscan(line, &addr, &soft, &fit); err != nil || serr != nil {
		t.Fatalf("child: %q %v %v", line, err, serr)
	}
	if soft != emfileLimit || fit != max(emfileLimit-1-server.ReservedDescriptors, 0) {
		t.Errorf("FitFileLimit: soft %d fit %d under a hard limit of %d", soft, fit, emfileLimit)
	}
	// the child's log: every line that says accept failed, as it comes
	failures := make(chan string, 1<<16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"msg":"accept`) {
				select {
				case failures <- sc.Text():
				default:
				}
			}
		}
		close(failures)
	}()
	// the first connection logs in before the descriptors run out
	first, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 2 * emfileLimit {
		c, err := net.Dial("tcp", addr) // the kernel completes these; the child runs out accepting them
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	select {
	case <-failures:
	case <-time.After(10 * time.Second):
		t.Fatal("the child never reported an accept failure")
	}
	// one second out of descriptors: a spinning accept loop burns that
	// second of CPU and logs thousands of lines; a pausing one neither
	cpu0 := cpuTime(t, cmd.Process.Pid)
	window := time.After(time.Second)
	lines := 1
	for waiting := true; waiting; {
		select {
		case <-failures:
			lines++
		case <-window:
			waiting = false
		}
	}
	cpu := cpuTime(t, cmd.Process.Pid) - cpu0
	t.Logf("out of descriptors for 1s: %d log lines, %v of CPU", lines, cpu)
	if lines > 5 {
		t.Errorf("%d accept-failure log lines in a second, want a few", lines)
	}
	if cpu > 300*time.Millisecond {
		t.Errorf("the server used %v of CPU in a second out of descriptors, want it idle", cpu)
	}
	// the connections it has are still served
	login(t, first, "Albert")
	// descriptors free up: the queued connections are accepted and new
	// clients are served
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conns = append(conns, c)
	login(t, c, "Beth")
}

// login logs in on nc and waits for the answer.
func login(t *testing.T, nc net.Conn, name string) {
	t.Helper()
	nc.SetDeadline(time.Now().Add(15 * time.Second))
	defer nc.SetDeadline(time.Time{})
	nc.Write(segment.Name(segment.Passwd, "123").AppendTo(segment.Name(segment.Info, name).AppendTo(nil)))
	var d segment.Decoder
	for {
		k, err := nc.Read(d.Free())
		if err != nil {
			t.Fatalf("%s: no answer: %v", name, err)
		}
		d.Commit(k)
		ok := false
		d.Decode(func(s segment.Segment) bool {
			if s.Type == segment.PasswdResp {
				if code, _ := s.Code(); code != 1 {
					t.Fatalf("%s: PasswdResp %d", name, code)
				}
				ok = true
			}
			return !ok
		})
		if ok {
			return
		}
	}
}
