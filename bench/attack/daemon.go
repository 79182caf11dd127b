//go:build linux

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bomber-game/bomber/account"
)

// nofile is the open-file limit bomberd runs under: small enough that
// descriptor exhaustion is reachable from one machine.
const nofile = 1024

// adminToken is the admin token the runner gives bomberd; attackers never
// send it.
const adminToken = "attack-runner"

// password is every user's password.
const password = "123"

// daemon is one bomberd under attack: its game, web and admin listeners on
// loopback, on a fresh embedded store.
type daemon struct {
	cmd              *exec.Cmd
	game, web, admin string
	dir              string
	done             chan error
	log              *os.File
}

// makeStore creates users (password 123) in a fresh SQLite store in dir,
// hashed with the cheap parameters the daemon runs with.
func makeStore(ctx context.Context, dir string, users []string) (string, error) {
	path := filepath.Join(dir, "bomber.db")
	h := account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 2)
	s, err := account.OpenSQLite(ctx, path, h)
	if err != nil {
		return "", err
	}
	for _, u := range users {
		if err := s.Add(ctx, u, password); err != nil {
			s.Close()
			return "", fmt.Errorf("creating %s: %w", u, err)
		}
	}
	return path, s.Close()
}

// startDaemon runs the bomberd at bin under a 1,024-descriptor limit
// with every listener on loopback and the default limits (the defences
// under test), and waits until its three ports accept.
func startDaemon(ctx context.Context, bin, dir string, users []string) (*daemon, error) {
	store, err := makeStore(ctx, dir, users)
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "attack.yaml")
	if err := os.WriteFile(conf, []byte("# attack set: everything from the environment\n"), 0o644); err != nil {
		return nil, err
	}
	d := &daemon{game: freeAddr(), web: freeAddr(), admin: freeAddr(), dir: dir, done: make(chan error, 1)}
	// the shell lowers the limit and becomes bomberd (same pid), so
	// limits.max_connections and web.max_connections are fitted to it
	d.cmd = exec.Command("sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, nofile), bin, "--config", conf)
	d.cmd.Dir = dir
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the runner
	d.cmd.Env = append(os.Environ(),
		"BOMBER_LISTEN="+d.game, "BOMBER_ADMIN_LISTEN="+d.admin, "BOMBER_WEB_LISTEN="+d.web,
		"BOMBER_STORE_DRIVER=sqlite", "BOMBER_STORE_SQLITE_PATH="+store, "BOMBER_STORE_DEMO_ACCOUNTS=false",
		"BOMBER_JOURNAL_DIR="+filepath.Join(dir, "journal"),
		"BOMBER_LOG_LEVEL=warn", "BOMBER_LOG_FORMAT=json", "BOMBER_ADMIN_TOKEN="+adminToken,
		// password hashing is not what is attacked; the users were hashed so
		"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1", "BOMBER_HASHING_PARALLELISM=1")
	if d.log, err = os.Create(filepath.Join(dir, "bomberd.log")); err != nil {
		return nil, err
	}
	d.cmd.Stdout, d.cmd.Stderr = d.log, d.log
	if err := d.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting bomberd: %w", err)
	}
	go func() { d.done <- d.cmd.Wait() }()
	for _, addr := range []string{d.game, d.web, d.admin} {
		if err := d.await(addr); err != nil {
			d.stop()
			return nil, err
		}
	}
	return d, nil
}

// await waits until addr accepts connections.
func (d *daemon) await(addr string) error {
	for end := time.Now().Add(30 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return nil
		}
		select {
		case err := <-d.done:
			d.done <- err
			return fmt.Errorf("bomberd exited at start: %v (log %s)", err, d.log.Name())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(end) {
			return fmt.Errorf("bomberd not listening at %s within 30s (log %s)", addr, d.log.Name())
		}
	}
}

// pid is bomberd's process (the shell execs it in place).
func (d *daemon) pid() int { return d.cmd.Process.Pid }

// stop sends SIGTERM and waits, killing after 15 s.
func (d *daemon) stop() {
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(15 * time.Second):
		d.cmd.Process.Kill()
		<-d.done
	}
	d.log.Close()
}

// online is the users bomberd has sessions for (the admin listener's
// /users, with the token).
func (d *daemon) online(ctx context.Context) (map[string]bool, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+d.admin+"/users", nil)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var users []struct {
		User string `json:"user"`
	}
	if err := jsonDecode(resp.Body, &users); err != nil {
		return nil, err
	}
	m := map[string]bool{}
	for _, u := range users {
		m[u.User] = true
	}
	return m, nil
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// usage is the most of bomberd's resources seen while sampling.
type usage struct {
	rss, hwm int64 // VmRSS and VmHWM, bytes
	fds      int   // open descriptors
}

// sampler reads bomberd's VmRSS, VmHWM and descriptor count every 250 ms
// and keeps the maxima since the last take.
type sampler struct {
	pid  int
	mu   sync.Mutex
	max  usage
	stop chan struct{}
	done chan struct{}
}

func startSampler(pid int) *sampler {
	s := &sampler{pid: pid, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *sampler) sample() {
	var u usage
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.pid)); err == nil {
		u.rss, u.hwm = statusBytes(string(b), "VmRSS"), statusBytes(string(b), "VmHWM")
	}
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", s.pid)); err == nil {
		u.fds = len(ents)
	}
	s.mu.Lock()
	s.max.rss, s.max.hwm, s.max.fds = max(s.max.rss, u.rss), max(s.max.hwm, u.hwm), max(s.max.fds, u.fds)
	s.mu.Unlock()
}

// take returns the maxima since the last take (sampling once more now)
// and starts afresh.
func (s *sampler) take() usage {
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.max
	s.max = usage{}
	return u
}

func (s *sampler) close() { close(s.stop); <-s.done }

// statusBytes reads one "NAME: N kB" field of /proc/PID/status.
func statusBytes(status, name string) int64 {
	for _, line := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
