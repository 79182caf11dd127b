package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/internal/mysqltest"
	"github.com/bomber-game/bomber/netreplay"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
)

var bomberdBin string

// testVersion is the version the test binary is linked with, as the
// Makefile links a release.
const testVersion = "v0.0.0-test"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bomberd-test")
	if err != nil {
		panic(err)
	}
	bomberdBin = filepath.Join(dir, "bomberd")
	out, err := exec.Command("go", "build", "-race", "-o", bomberdBin, "-ldflags", "-X github.com/bomber-game/bomber/cmd/internal/cli.version="+testVersion, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building bomberd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := mysqltest.CheckMain(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// proc is a running bomberd process.
type proc struct {
	cmd   *exec.Cmd
	addr  string
	admin string
	log   *syncBuffer
	done  chan error
}

// syncBuffer is a process's log; waiters are woken by every write.
type syncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed by the next write
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// await waits for the log to satisfy cond, woken by each write; false when
// timeout passes or exited fires first (nil: not watched).
func (s *syncBuffer) await(timeout time.Duration, exited <-chan struct{}, cond func(string) bool) bool {
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		text := s.b.String()
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		ch := s.changed
		s.mu.Unlock()
		if cond(text) {
			return true
		}
		select {
		case <-ch:
		case <-deadline:
			return false
		case <-exited:
			return cond(s.String())
		}
	}
}

// startDaemon runs bomberd with cheap hashing and the given extra
// environment (BOMBER_* keys), waiting until it accepts connections.
func startDaemon(t *testing.T, env ...string) *proc {
	t.Helper()
	return startDaemonWith(t, 0, env...)
}

// startDaemonWith is startDaemon under an open-file limit of nofile (soft
// and hard; 0: the test's own).
func startDaemonWith(t *testing.T, nofile int, env ...string) *proc {
	t.Helper()
	return startBinary(t, bomberdBin, nofile, env...)
}

// startBinary is startDaemonWith for the bomberd at bin (another build's).
func startBinary(t *testing.T, bin string, nofile int, env ...string) *proc {
	t.Helper()
	d := &proc{log: &syncBuffer{}, done: make(chan error, 1)}
	dir := t.TempDir()
	d.cmd = exec.Command(bin, "--config", filepath.Join(dir, "none.yaml"))
	if nofile > 0 {
		// the shell lowers the limit and becomes bomberd (same pid)
		d.cmd = exec.Command("sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, nofile), bin, "--config", filepath.Join(dir, "none.yaml"))
	}
	os.WriteFile(filepath.Join(dir, "none.yaml"), []byte("log:\n  format: console\n"), 0o644)
	d.cmd.Dir = dir
	d.cmd.Env = append(os.Environ(),
		// port 0: the kernel picks free ports and the log says which
		"BOMBER_LISTEN=127.0.0.1:0", "BOMBER_ADMIN_LISTEN=127.0.0.1:0", "BOMBER_WEB_LISTEN=127.0.0.1:0",
		"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1", "BOMBER_LOG_LEVEL=debug")
	d.cmd.Env = append(d.cmd.Env, env...)
	d.cmd.Stdout, d.cmd.Stderr = d.log, d.log
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.done <- d.cmd.Wait() }()
	t.Cleanup(func() {
		d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(15 * time.Second):
			d.cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("bomberd log:\n%s", d.log.String())
		}
	})
	// both listeners are bound before the log names them
	exited := make(chan struct{})
	go func() {
		err := <-d.done
		close(exited)
		d.done <- err
	}()
	if !d.log.await(30*time.Second, exited, func(log string) bool {
		d.addr, d.admin = logged(log, "listening"), logged(log, "admin listening")
		return d.addr != "" && d.admin != ""
	}) {
		t.Fatalf("bomberd did not start:\n%s", d.log.String())
	}
	c, err := net.Dial("tcp", d.addr) // the readiness probe: the port accepts
	if err != nil {
		t.Fatalf("bomberd logged %s but does not accept: %v", d.addr, err)
	}
	c.Close()
	return d
}

// logged finds the address bomberd logged for a listener ("listening",
// "admin listening", "listening (TLS)").
func logged(log, what string) string {
	m := regexp.MustCompile(`\t` + regexp.QuoteMeta(what) + `\t\{"addr": "([^"]+)"\}`).FindStringSubmatch(log)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestChecklistThroughBomberd plays the golden transcripts that need no
// simulated clock or store switch against the real daemon, on each
// transport, with the demo accounts of a fresh embedded store.
func TestChecklistThroughBomberd(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/transcripts/*.txt")
	for _, transport := range []string{"reactor", "net"} {
		t.Run(transport, func(t *testing.T) {
			d := startDaemon(t, "BOMBER_TRANSPORT="+transport)
			ran := 0
			for _, f := range files {
				raw, _ := os.ReadFile(f)
				entries, err := transcript.Parse(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				if needsSimulation(entries) {
					continue
				}
				ran++
				diffs, err := netreplay.Run(context.Background(), entries, netreplay.Options{Addr: d.addr, Timeout: 5 * time.Second, Settle: 50 * time.Millisecond})
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if len(diffs) > 0 {
					t.Fatalf("%s: %d differences:\n%s", f, len(diffs), netreplay.Format(diffs))
				}
			}
			if ran < 8 {
				t.Fatalf("only %d transcripts ran", ran)
			}
		})
	}
}

// needsSimulation: clock and store lines, or a hub configuration other than
// the daemon's defaults, cannot be replayed against a real daemon as is.
func needsSimulation(entries []transcript.Entry) bool {
	for _, e := range entries {
		if e.Op == transcript.Clock || e.Op == transcript.StoreDown || e.Op == transcript.StoreUp ||
			e.Op == transcript.Note && strings.HasPrefix(e.Comment, "config:") {
			return true
		}
	}
	return false
}

// client is a minimal protocol client for the daemon tests.
type client struct {
	t    *testing.T
	nc   net.Conn
	d    segment.Decoder
	wait time.Duration // how long expect waits; 0 means 10s
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &client{t: t, nc: nc}
}

func (c *client) send(s segment.Segment) {
	c.t.Helper()
	if _, err := c.nc.Write(s.AppendTo(nil)); err != nil {
		c.t.Fatal(err)
	}
}

// expect reads segments until one of type want, returning it.
func (c *client) expect(want segment.Type) segment.Segment {
	c.t.Helper()
	wait := c.wait
	if wait == 0 {
		wait = 10 * time.Second
	}
	c.nc.SetReadDeadline(time.Now().Add(wait))
	for {
		s, ok, err := c.d.Next()
		if err != nil {
			c.t.Fatal(err)
		}
		if ok {
			if s.Type == want {
				return s
			}
			continue
		}
		free := c.d.Free()
		n, err := c.nc.Read(free)
		if err != nil {
			c.t.Fatalf("waiting for %v: %v", want, err)
		}
		c.d.Commit(n)
	}
}

func (c *client) login(name, pw string) byte {
	c.t.Helper()
	c.send(segment.Name(segment.Info, name))
	r := c.expect(segment.InfoResp)
	if code, _ := r.Code(); code != segment.CodeOK {
		return code
	}
	c.send(segment.Name(segment.Passwd, pw))
	r = c.expect(segment.PasswdResp)
	code, _ := r.Code()
	if code == segment.CodeOK {
		c.expect(segment.SyncEnd)
	}
	return code
}

// pair logs a and b in and starts a game, a guessing first.
func pair(t *testing.T, addr, a, b string) (*client, *client) {
	ca, cb := dial(t, addr), dial(t, addr)
	if ca.login(a, "123") != 1 || cb.login(b, "123") != 1 {
		t.Fatal("login failed")
	}
	ca.send(segment.Name(segment.SendInvit, b))
	cb.expect(segment.RecvInvit)
	cb.send(segment.Code(segment.InvitResponse, 1))
	ca.expect(segment.InvitResponse)
	board, _ := segment.Raw(segment.Board, []byte("023207375282"))
	ca.send(board)
	cb.send(board)
	ca.expect(segment.Board)
	cb.expect(segment.Board)
	return ca, cb
}

func guess(from, to *client, x, y uint8) {
	from.send(segment.NewSingle(segment.Coord{X: x, Y: y}, segment.ASCII))
	got := to.expect(segment.SingleCoord)
	if c, _ := got.Single(); c != (segment.Coord{X: x, Y: y}) {
		from.t.Fatalf("relayed %v", got)
	}
}

// TestSIGTERMRecordsAbortedGames: an orderly stop mid-game records the game
// as aborted and exits 0; the embedded store keeps accounts and results.
func TestSIGTERMRecordsAbortedGames(t *testing.T) {
	d := startDaemon(t)
	a, b := pair(t, d.addr, "Albert", "Beth")
	guess(a, b, 9, 9)
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.done:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, d.log.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("bomberd did not stop")
	}
	d.done <- nil // for the cleanup
	s, err := account.OpenSQLite(context.Background(), filepath.Join(d.cmd.Dir, "var/bomber.db"), account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	games, err := s.Games(context.Background(), account.GameFilter{})
	if err != nil || len(games) != 1 || games[0].Game != "bomber" || games[0].Reason != "aborted" ||
		len(games[0].Seats) != 2 || games[0].Seats[0].Name != "Albert" || games[0].Seats[1].Name != "Beth" ||
		games[0].Outcome.Status != rules.Running || games[0].Leaver != rules.Spectator {
		t.Fatalf("games %+v %v", games, err)
	}
	if err := s.Verify(context.Background(), "Albert", "123"); err != nil {
		t.Fatalf("accounts after restart: %v", err)
	}
}

// TestSIGHUPReload: a reload applies new protocol settings and keeps
// sessions; a bad file is rejected and the old configuration stays.
func TestSIGHUPReload(t *testing.T) {
	d := startDaemon(t)
	a := dial(t, d.addr)
	if a.login("Albert", "123") != 1 {
		t.Fatal("login")
	}
	cfgFile := filepath.Join(d.cmd.Dir, "none.yaml")
	os.WriteFile(cfgFile, []byte("log:\n  format: console\nprotocol:\n  dialect: klingon\n"), 0o644)
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitLog(t, d, "reload rejected")
	os.WriteFile(cfgFile, []byte("log:\n  format: console\nprotocol:\n  dialect: document\n"), 0o644)
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitLog(t, d, "configuration reloaded")
	// document dialect: a wrong password is now 0, not 3
	b := dial(t, d.addr)
	if code := b.login("Beth", "wrong"); code != 0 {
		t.Fatalf("wrong password after reload: code %d, want 0 (document dialect)", code)
	}
	a.send(segment.Name(segment.SendInvit, "Nobody"))
	if r := a.expect(segment.InvitResponse); r.Payload()[0] != 0 {
		t.Fatal("session lost over reload")
	}
}

func waitLog(t *testing.T, d *proc, s string) {
	t.Helper()
	if !d.log.await(10*time.Second, nil, func(log string) bool { return strings.Contains(log, s) }) {
		t.Fatalf("log never said %q", s)
	}
}

// proxy is a TCP proxy the test can cut and restore, to make the database
// unreachable mid-run.
type proxy struct {
	l      net.Listener
	target string
	mu     sync.Mutex
	up     bool
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l, target: target, up: true}
	t.Cleanup(func() { l.Close(); p.cut() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			up := p.up
			p.mu.Unlock()
			if !up {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up = false
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) restore() { p.mu.Lock(); p.up = true; p.mu.Unlock() }

// mysqlDSN returns the server DSN for MariaDB tests, or skips (fails with
// BOMBER_REQUIRE_MYSQL=1) when none answers.
func mysqlDSN(t *testing.T) string {
	dsn := os.Getenv("BOMBER_MYSQL_DSN")
	if dsn == "" {
		dsn = "root@tcp(127.0.0.1:3306)/"
	}
	db, err := sql.Open("mysql", dsn)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err = db.PingContext(ctx)
		cancel()
		db.Close()
	}
	if err != nil {
		if os.Getenv("BOMBER_REQUIRE_MYSQL") == "1" {
			t.Fatalf("MariaDB required but unreachable at %s: %v", dsn, err)
		}
		t.Skipf("no MariaDB at %s (%v); run scripts/mariadb.sh or set BOMBER_MYSQL_DSN", dsn, err)
	}
	return dsn
}

// TestDatabaseOutage: with accounts in MariaDB behind a proxy, cutting the
// database mid-run answers logins with code 4 while a game in progress goes
// on; once it is back, logins work without a restart.
func TestDatabaseOutage(t *testing.T) {
	// The database is dropped by mysqltest's cleanup, which runs after the
	// daemon's (registered later, so run earlier) and checks the drop.
	name, _ := mysqltest.NewDatabase(t, "outage")
	root := mysqlDSN(t)
	host := "127.0.0.1:3306"
	if i, j := strings.Index(root, "tcp("), strings.Index(root, ")"); i >= 0 && j > i {
		host = root[i+4 : j]
	}
	user := root[:strings.Index(root, "@")]
	p := newProxy(t, host)
	dsn := fmt.Sprintf("%s@tcp(%s)/%s?timeout=2s&readTimeout=2s&writeTimeout=2s", user, p.l.Addr(), name)
	d := startDaemon(t, "BOMBER_STORE_DRIVER=mysql", "BOMBER_STORE_MYSQL_DSN="+dsn, "BOMBER_LIMITS_ACCOUNT_TIMEOUT=3s")
	s, err := account.OpenMySQL(context.Background(), fmt.Sprintf("%s@tcp(%s)/%s", user, host, name), account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"Albert", "Beth", "Cindy"} {
		if err := s.Add(context.Background(), u, "123"); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	a, b := pair(t, d.addr, "Albert", "Beth")
	p.cut()
	c := dial(t, d.addr)
	if code := c.login("Cindy", "123"); code != segment.CodeError {
		t.Fatalf("login with the database down: code %d, want 4", code)
	}
	guess(a, b, 9, 9) // the game goes on
	guess(b, a, 9, 8)
	if r, err := httpGet("http://" + d.admin + "/readyz"); err == nil && strings.HasPrefix(r, "ready") {
		t.Fatalf("ready while the store is down: %q", r)
	}
	p.restore()
	deadline := time.Now().Add(20 * time.Second)
	for {
		code := c.login("Cindy", "123")
		if code == segment.CodeOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("login still failing after the database came back: code %d", code)
		}
		time.Sleep(200 * time.Millisecond)
	}
	guess(a, b, 9, 7)
}

func httpGet(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// TestSystemdUnitVerifies checks deploy/bomberd.service with
// systemd-analyze when it is installed.
func TestSystemdUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed")
	}
	unit, err := os.ReadFile("../../deploy/bomberd.service")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "bomberd.service")
	os.WriteFile(path, bytes.ReplaceAll(unit, []byte("/usr/local/bin/bomberd"), []byte(bomberdBin)), 0o644)
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestSocketActivation runs bomberd under systemd-socket-activate, which
// passes a listening socket the way systemd does.
func TestSocketActivation(t *testing.T) {
	activate, err := exec.LookPath("systemd-socket-activate")
	if err != nil {
		t.Skip("systemd-socket-activate not installed")
	}
	addr := freeAddr(t)
	dir := t.TempDir()
	cmd := exec.Command(activate, "-l", addr, bomberdBin, "--admin-listen", "", "--web-listen", "", "--listen", "127.0.0.1:1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1")
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	// systemd-socket-activate says when its socket listens
	if !log.await(10*time.Second, nil, func(s string) bool { return strings.Contains(s, "Listening on") }) {
		t.Fatalf("no socket:\n%s", log.String())
	}
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("no socket: %v\n%s", err, log.String())
	}
	defer nc.Close()
	// the first connection starts bomberd (store, migrations, demo
	// accounts), slow on a loaded machine with the race detector
	c := &client{t: t, nc: nc, wait: time.Minute}
	if code := c.login("Larry", "123"); code != segment.CodeOK {
		t.Fatalf("login through the activated socket: %d\n%s", code, log.String())
	}
}
