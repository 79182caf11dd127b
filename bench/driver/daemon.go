//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// hashEnv is the cheap argon2id cost every benchmark daemon runs with:
// password hashing is not what is measured (except in the login storm,
// which states these parameters).
// limitEnv is every bomberd limit a bench run changes, and why (printed
// under the table). Each would otherwise close the load generator's clients
// or refuse them: the segment rate limit (default 50 segments/s per
// connection) closes a player guessing closed-loop within a second.
var limitEnv = []string{
	"BOMBER_LIMITS_MAX_CONNECTIONS=200000", "BOMBER_LIMITS_MAX_CONNECTIONS_PER_IP=0", // thousands of clients from 127.0.0.x
	"BOMBER_LIMITS_MAX_OUTPUT_BYTES=16777216", // a login among 50k users gets a 50k-name user list in one go
	"BOMBER_LIMITS_LOGIN_TIMEOUT=0",           // logins queued behind a wave may take long
	"BOMBER_LIMITS_ACCOUNT_QUEUE=4096",        // a storm's checks wait instead of being refused
	"BOMBER_LIMITS_SEGMENT_RATE=0",            // players guess as fast as the server answers
	"BOMBER_LIMITS_LOGIN_FAILURES=0",          // one address logs in thousands of users
}

// webLimitEnv are the web listener's limits a bench run changes: every
// table's WebSocket clients come from 127.0.0.1.
var webLimitEnv = []string{"BOMBER_WEB_MAX_CONNECTIONS_PER_IP=0", "BOMBER_WEB_MAX_CONNECTIONS=200000"}

var hashEnv = []string{"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1", "BOMBER_HASHING_PARALLELISM=1", "BOMBER_HASHING_MAX_CONCURRENT=2"}

// daemon is one bomberd subprocess on a fresh copy of the user store.
type daemon struct {
	cmd   *exec.Cmd
	addr  string
	admin string
	web   string // the web listener's address (its WebSocket gateway at /ws); "" none
	dir   string
	done  chan error
	log   *os.File
}

// webFlags remembers, per bomberd binary, whether it knows --web-listen.
var webFlags = map[string]bool{}

// knowsWebListen reports whether the bomberd at bin has the --web-listen
// flag, from its --help: builds older than the web listener refuse the
// flag and exit, and need no flag to have no web listener.
func knowsWebListen(bin string) bool {
	if k, ok := webFlags[bin]; ok {
		return k
	}
	out, _ := exec.Command(bin, "--help").CombinedOutput() // pflag's --help exits 0; older builds may not
	k := strings.Contains(string(out), "--web-listen")
	webFlags[bin] = k
	return k
}

// startDaemon runs the bomberd at bin with transport tr on a copy of the
// store at db, in a folder named after name (its log stays there when a
// run fails), pinned to cpu when cpu >= 0, and waits until it accepts
// connections. With web, its web listener (the WebSocket gateway) listens
// too, on d.web; without, it has none.
func startDaemon(bin, name, tr, db string, cpu int, tmp string, web bool) (*daemon, error) {
	dir, err := os.MkdirTemp(tmp, "bomberd-"+name+"-")
	if err != nil {
		return nil, err
	}
	store := filepath.Join(dir, "bomber.db")
	if err := copyFile(db, store); err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(conf, []byte("# benchmark: everything from the environment\n"), 0o644); err != nil {
		return nil, err
	}
	d := &daemon{addr: freeAddr(), admin: freeAddr(), dir: dir, done: make(chan error, 1)}
	// an empty BOMBER_WEB_LISTEN reads as unset (the default port, maybe
	// taken by another daemon on the machine); the flag disables it
	flags := []string{bin, "--config", conf}
	if web {
		d.web = freeAddr()
		flags = append(flags, "--web-listen="+d.web)
	} else if knowsWebListen(bin) {
		flags = append(flags, "--web-listen=")
	}
	args := pinned(cpu, flags)
	d.cmd = exec.Command(args[0], args[1:]...)
	d.cmd.Dir = dir
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the driver
	d.cmd.Env = append(os.Environ(),
		"BOMBER_TRANSPORT="+tr, "BOMBER_LISTEN="+d.addr, "BOMBER_ADMIN_LISTEN="+d.admin, "BOMBER_WEB_LISTEN=",
		"BOMBER_STORE_DRIVER=sqlite", "BOMBER_STORE_SQLITE_PATH="+store, "BOMBER_STORE_DEMO_ACCOUNTS=false",
		"BOMBER_LOG_LEVEL=warn", "BOMBER_LOG_FORMAT=json", "BOMBER_ADMIN_TOKEN="+adminToken)
	d.cmd.Env = append(d.cmd.Env, limitEnv...)
	d.cmd.Env = append(d.cmd.Env, hashEnv...)
	if web {
		d.cmd.Env = append(d.cmd.Env, webLimitEnv...)
	}
	if d.log, err = os.Create(filepath.Join(dir, "bomberd.log")); err != nil {
		return nil, err
	}
	return d, d.start("bomberd")
}

// start runs d.cmd with its output in d.log and waits until d.addr
// accepts connections.
func (d *daemon) start(what string) error {
	d.cmd.Stdout, d.cmd.Stderr = d.log, d.log
	if err := d.cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", what, err)
	}
	go func() { d.done <- d.cmd.Wait() }()
	for end := time.Now().Add(30 * time.Second); ; {
		if c, err := net.Dial("tcp", d.addr); err == nil {
			c.Close()
			return nil
		}
		select {
		case err := <-d.done:
			return fmt.Errorf("%s exited at start: %v (log %s)", what, err, d.log.Name())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(end) {
			d.stop()
			return fmt.Errorf("%s not listening at %s within 30s (log %s)", what, d.addr, d.log.Name())
		}
	}
}

// pinned prefixes args with taskset -c cpu when cpu >= 0 and taskset exists.
func pinned(cpu int, args []string) []string {
	if cpu >= 0 {
		if ts, err := exec.LookPath("taskset"); err == nil {
			return append([]string{ts, "-c", strconv.Itoa(cpu)}, args...)
		}
	}
	return args
}

// startRelay runs the minimal relay (this program's "relay" command) pinned
// to cpu, as bomberd would be.
func startRelay(cpu int, tmp string) (*daemon, error) { return startFloor("relay", cpu, tmp) }

// startFloor runs this program's command cmd ("relay", or "fanout" for the
// fan-out floor) at a free address, pinned to cpu.
func startFloor(cmd string, cpu int, tmp string) (*daemon, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(tmp, cmd+"-")
	if err != nil {
		return nil, err
	}
	d := &daemon{addr: freeAddr(), dir: dir, done: make(chan error, 1)}
	args := pinned(cpu, []string{self, cmd, d.addr})
	d.cmd = exec.Command(args[0], args[1:]...)
	d.cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if d.log, err = os.Create(filepath.Join(dir, cmd+".log")); err != nil {
		return nil, err
	}
	return d, d.start(cmd)
}

// startReference runs the reference C++ server's command line pinned to
// cpu; it must listen at addr and know the users u000000... (password 123).
func startReference(cmdline []string, addr string, cpu int, tmp string) (*daemon, error) {
	dir, err := os.MkdirTemp(tmp, "reference-")
	if err != nil {
		return nil, err
	}
	d := &daemon{addr: addr, dir: dir, done: make(chan error, 1)}
	args := pinned(cpu, cmdline)
	d.cmd = exec.Command(args[0], args[1:]...)
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if d.log, err = os.Create(filepath.Join(dir, "reference.log")); err != nil {
		return nil, err
	}
	return d, d.start("reference server")
}

// pid is the bomberd process (taskset execs it in place).
func (d *daemon) pid() int { return d.cmd.Process.Pid }

// stop sends SIGTERM and waits, killing after 30 s.
func (d *daemon) stop() {
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		d.cmd.Process.Kill()
		<-d.done
	}
	d.log.Close()
}

// gc asks bomberd for a heap profile with a collection first (pprof's
// gc=1), so RSS is read after garbage is gone.
func (d *daemon) gc(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+d.admin+"/debug/pprof/heap?gc=1", nil)
	resp, err := adminClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// heapProfile saves bomberd's heap profile (after a collection) to path.
func (d *daemon) heapProfile(ctx context.Context, path string) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+d.admin+"/debug/pprof/heap?gc=1", nil)
	resp, err := adminClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// goMemory reads bomberd's live Go memory (heap in use plus goroutine
// stacks) from the MemStats lines of the heap profile, after a collection;
// unlike RSS it does not include freed memory the runtime has kept.
func (d *daemon) goMemory(ctx context.Context) (int64, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+d.admin+"/debug/pprof/heap?gc=1&debug=1", nil)
	resp, err := adminClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	var total int64
	found := 0
	for _, line := range strings.Split(string(b), "\n") {
		// "# HeapInuse = N" and "# Stack = inuse / sys"
		for _, key := range []string{"# HeapInuse = ", "# Stack = "} {
			if v, ok := strings.CutPrefix(line, key); ok {
				v, _, _ = strings.Cut(v, " /")
				n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				if err != nil {
					return 0, err
				}
				total += n
				found++
			}
		}
	}
	if found != 2 {
		return 0, fmt.Errorf("no HeapInuse/Stack in the heap profile")
	}
	return total, nil
}

// cpuTicks is utime+stime of pid in clock ticks (/proc/PID/stat fields 14, 15).
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from 3 on
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("parsing /proc/%d/stat", pid)
	}
	return ut + st, nil
}

// clockTick is USER_HZ, 100 on Linux.
const clockTick = 10 * time.Millisecond

// rss is VmRSS of pid in bytes.
func rss(pid int) (int64, error) { return statusBytes(pid, "VmRSS") }

// peakRSS is VmHWM of pid in bytes: the most RSS it has had at once.
func peakRSS(pid int) (int64, error) { return statusBytes(pid, "VmHWM") }

// statusBytes reads one "NAME: N kB" field of /proc/pid/status.
func statusBytes(pid int, name string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s for %d", name, pid)
}

// settle waits until the processes pids together use under 5% of a CPU
// for quiet (a big login wave's user-list broadcasts have drained; a
// round's game records are stored), at most max.
func settle(quiet, max time.Duration, pids ...int) {
	used := func() int64 {
		var n int64
		for _, pid := range pids {
			c, _ := cpuNanos(pid)
			n += c
		}
		return n
	}
	for end := time.Now().Add(max); time.Now().Before(end); {
		a := used()
		time.Sleep(quiet) // CPU time has no event to wait on
		if used()-a <= int64(quiet)/20 {
			return
		}
	}
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}

// loopHistogram reads bomberd's bomber_loop_seconds histogram: cumulative
// counts by upper bound in seconds (the engine loop's time per batch of
// events, which says whether a slow relay was the server's doing).
func (d *daemon) loopHistogram(ctx context.Context) (map[float64]float64, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+d.admin+"/metrics", nil)
	resp, err := adminClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	h := map[float64]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		// bomber_loop_seconds_bucket{le="0.001024"} 1234
		rest, ok := strings.CutPrefix(line, `bomber_loop_seconds_bucket{le="`)
		if !ok {
			continue
		}
		le, count, ok := strings.Cut(rest, `"} `)
		if !ok {
			continue
		}
		n, err := strconv.ParseFloat(count, 64)
		if err != nil {
			continue
		}
		if le == "+Inf" {
			h[1e9] = n
		} else if v, err := strconv.ParseFloat(le, 64); err == nil {
			h[v] = n
		}
	}
	return h, nil
}

// cpuProfile saves a CPU profile of bomberd over the next secs seconds.
func (d *daemon) cpuProfile(ctx context.Context, secs int, path string) error {
	kind := "profile"
	switch {
	case strings.HasSuffix(path, ".trace"):
		kind = "trace" // an execution trace instead of a CPU profile
	case strings.HasSuffix(path, ".allocs"):
		kind = "allocs" // what was allocated meanwhile (a delta profile)
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", d.admin, kind, secs), nil)
	resp, err := adminClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}

// adminToken is the admin token the driver gives bomberd: its admin
// listener answers only health checks without one.
const adminToken = "bench-driver"

// adminClient sends the admin token with every request.
var adminClient = &http.Client{Transport: bearer{adminToken}}

// bearer adds "Authorization: Bearer TOKEN" to each request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
