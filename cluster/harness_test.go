package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// natsBackend is a NATS server with JetStream for a test: embedded (the
// nats-server/v2 library in this process) or a real nats-server process.
type natsBackend struct {
	kind    string
	url     string
	restart func() // stops the server and starts it again on the same port and store
	stop    func()
	// save restarts the server, keeping a copy of its store as it was
	// stopped; rollback restarts it on that copy (a restore from an older
	// backup, or what replicas 1 gives after a disk loss). Processes only.
	save, rollback func()
	pid            func() int // the server's process id; processes only
}

// backends runs f once per NATS backend: embedded always; the nats-server
// process when the binary is installed (scripts/nats.sh), and then
// BOMBER_REQUIRE_NATS=1 (CI) turns its absence into a failure.
func backends(t *testing.T, f func(t *testing.T, nb func(t *testing.T) *natsBackend)) {
	t.Run("embedded", func(t *testing.T) { f(t, func(t *testing.T) *natsBackend { return embeddedNATS(t) }) })
	t.Run("process", func(t *testing.T) {
		if _, err := exec.LookPath(natsBinary()); err != nil {
			if os.Getenv("BOMBER_REQUIRE_NATS") != "" {
				t.Fatalf("nats-server not found (%v); scripts/nats.sh installs it", err)
			}
			t.Skipf("nats-server not found (%v); scripts/nats.sh installs it", err)
		}
		f(t, func(t *testing.T) *natsBackend { return processNATS(t) })
	})
}

func natsBinary() string {
	if b := os.Getenv("BOMBER_NATS_SERVER"); b != "" {
		return b
	}
	if _, err := os.Stat("/usr/sbin/nats-server"); err == nil {
		return "/usr/sbin/nats-server"
	}
	return "nats-server"
}

func freePort(t testing.TB) int { return freePortOn(t, "127.0.0.1") }

// freePortOn is a TCP port free on this machine's address host.
func freePortOn(t testing.TB, host string) int {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func embeddedNATS(t testing.TB) *natsBackend {
	t.Helper()
	return embeddedNATSWith(t, &natsserver.Options{JetStream: true, StoreDir: t.TempDir()})
}

// embeddedNATSWith is an embedded server with opts (its address, signals
// and logging set here).
func embeddedNATSWith(t testing.TB, opts *natsserver.Options) *natsBackend {
	t.Helper()
	opts.Host, opts.Port, opts.NoSigs, opts.NoLog = "127.0.0.1", freePort(t), true, true
	var mu sync.Mutex
	var s *natsserver.Server
	start := func() {
		ns, err := natsserver.NewServer(opts)
		if err != nil {
			t.Fatal(err)
		}
		go ns.Start()
		if !ns.ReadyForConnections(10 * time.Second) {
			t.Fatal("embedded NATS did not start")
		}
		mu.Lock()
		s = ns
		mu.Unlock()
	}
	stop := func() {
		mu.Lock()
		ns := s
		mu.Unlock()
		ns.Shutdown()
		ns.WaitForShutdown()
	}
	start()
	t.Cleanup(stop)
	return &natsBackend{kind: "embedded", url: fmt.Sprintf("nats://127.0.0.1:%d", opts.Port), stop: stop, restart: func() { stop(); start() }}
}

func processNATS(t testing.TB) *natsBackend { t.Helper(); return processNATSOn(t, "127.0.0.1") }

// processNATSOn is processNATS listening on address host.
func processNATSOn(t testing.TB, host string) *natsBackend {
	t.Helper()
	port, dir := freePortOn(t, host), t.TempDir()
	var mu sync.Mutex
	var cmd *exec.Cmd
	start := func() {
		c := exec.Command(natsBinary(), "-a", host, "-p", strconv.Itoa(port), "-js", "-sd", dir)
		c.Stdout, c.Stderr = io.Discard, io.Discard
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		cmd = c
		mu.Unlock()
		deadline := time.Now().Add(10 * time.Second)
		for {
			nc, err := nats.Connect(fmt.Sprintf("nats://%s", net.JoinHostPort(host, strconv.Itoa(port))))
			if err == nil {
				nc.Close()
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("nats-server did not start: %v", err)
			}
			time.Sleep(20 * time.Millisecond) // polling a process that has no readiness event
		}
	}
	stop := func() {
		mu.Lock()
		c := cmd
		mu.Unlock()
		c.Process.Kill()
		c.Wait()
	}
	start()
	t.Cleanup(stop)
	saved := t.TempDir()
	copyStore := func(from, to string) {
		if err := os.RemoveAll(to); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(to, os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	return &natsBackend{kind: "process", url: "nats://" + net.JoinHostPort(host, strconv.Itoa(port)), stop: stop, restart: func() { stop(); start() },
		save:     func() { stop(); copyStore(dir, saved); start() },
		rollback: func() { stop(); copyStore(saved, dir); start() },
		pid:      func() int { mu.Lock(); defer mu.Unlock(); return cmd.Process.Pid }}
}

// records are the games the cluster's nodes recorded, all together, in a
// real store (SQLite): as in production, a game stored twice (a node
// that claimed it again after NATS lost the claim) is one row.
type records struct {
	store account.Store
	mu    sync.Mutex
	ids   map[uint64]bool
	games []record.Game // one a stored row, in the order first stored
	added chan struct{}
}

func newRecords(t testing.TB) *records {
	s, err := account.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "records.db"),
		account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &records{store: s, ids: map[uint64]bool{}, added: make(chan struct{}, 1000)}
}

func (r *records) record(ctx context.Context, fs []server.FinishedGame) (int, error) {
	gs := make([]record.Game, len(fs))
	for i, f := range fs {
		gs[i] = f.Record
	}
	ids, err := r.store.RecordGames(ctx, gs)
	if err != nil {
		return 0, err
	}
	for i, id := range ids {
		r.mu.Lock()
		fresh := !r.ids[id]
		if fresh {
			r.ids[id] = true
			r.games = append(r.games, gs[i])
		}
		r.mu.Unlock()
		if fresh {
			r.added <- struct{}{}
		}
	}
	return len(fs), nil
}

// count is the number of games stored.
func (r *records) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.games)
}

// world is a cluster of nodes in this process sharing one NATS world.
type world struct {
	t     testing.TB
	name  string
	nats  *natsBackend
	recs  *records
	nodes []*testNode
	cfg   Config                     // the nodes' timing and snapshots
	hub   func(*statemachine.Config) // changes the nodes' hub settings (nil: none)
	// bot plays the named node's computer moves (nil: as a daemon does)
	bot func(node string) func(statemachine.BotRequest) (statemachine.BotAnswer, error)
}

type testNode struct {
	name string
	addr string
	tr   server.Transport
	n    *Node
	via  *proxy // the node's own path to NATS, which a test can cut (nil: NATS is a cluster)
	done bool
}

// fast is the cluster's timing in tests: a node silent for 1.5 s is gone.
var fast = Config{Heartbeat: 150 * time.Millisecond, NodeTTL: 1500 * time.Millisecond, LeaderTTL: 700 * time.Millisecond}

func newWorld(t testing.TB, nb *natsBackend, nodes int) *world {
	t.Helper()
	return newWorldWith(t, nb, nodes, fast)
}

// newWorldWith starts a world whose nodes join with cfg's timing.
func newWorldWith(t testing.TB, nb *natsBackend, nodes int, cfg Config) *world {
	t.Helper()
	return newWorldHub(t, nb, nodes, cfg, nil)
}

// newWorldHub starts a world whose nodes join with cfg's timing and hub
// settings changed by hub.
func newWorldHub(t testing.TB, nb *natsBackend, nodes int, cfg Config, hub func(*statemachine.Config)) *world {
	t.Helper()
	w := &world{t: t, name: fmt.Sprintf("t%d", time.Now().UnixNano()%1e9), nats: nb, recs: newRecords(t), cfg: cfg, hub: hub}
	t.Cleanup(func() {
		for _, n := range w.nodes {
			w.stop(n)
		}
		nc, err := nats.Connect(nb.url)
		if err != nil {
			t.Errorf("cleaning up the world: %v", err)
			return
		}
		defer nc.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := Reset(ctx, nc, w.name); err != nil {
			t.Errorf("cleaning up the world: %v", err)
		}
	})
	for i := range nodes {
		w.start(fmt.Sprintf("node%d", i))
	}
	return w
}

// start adds a node to the world, joined through its own cuttable proxy.
func (w *world) start(name string) *testNode {
	t := w.t
	t.Helper()
	var px *proxy
	url := w.nats.url
	if !strings.Contains(url, ",") { // a NATS cluster's nodes are reached directly
		px = newProxy(t, url)
		url = px.url
	}
	cfg := w.cfg
	cfg.URL, cfg.World, cfg.Node, cfg.Logger = url, w.name, name, zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel)).Named(name)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // bomberd's start-up's
	defer cancel()
	n, err := Join(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	scfg := server.Config{
		Hub: statemachine.Config{Games: statemachine.Catalogue(), LoginTimeout: time.Minute, ResumeGrace: 20 * time.Second,
			LoginFailures: 3, LoginWindow: time.Minute, LoginLockout: time.Minute},
		Check: accounts().Check, Record: w.recs.record, Logger: cfg.Logger, TickEvery: 20 * time.Millisecond, Log: n,
	}
	if w.hub != nil {
		w.hub(&scfg.Hub)
	}
	if w.bot != nil {
		scfg.Bot = w.bot(name)
	}
	tr, err := server.NewReactor(scfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go tr.Serve(l)
	tn := &testNode{name: name, addr: l.Addr().String(), tr: tr, n: n, via: px}
	w.nodes = append(w.nodes, tn)
	return tn
}

// stop takes a node out in order (it says goodbye in the log).
func (w *world) stop(n *testNode) {
	if n.done {
		return
	}
	n.done = true
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := n.tr.Shutdown(ctx); err != nil && !errors.Is(err, server.ErrClosed) {
		w.t.Errorf("%s: shutdown: %v", n.name, err)
	}
	n.n.Close()
	n.via.close()
}

// crash kills a node as SIGKILL would: its link to NATS is cut first, so
// nothing it says afterwards (its goodbye included) reaches the world, and
// its clients' connections drop.
func (w *world) crash(n *testNode) {
	n.via.close()
	n.n.nc.Close()
	w.stop(n)
}

// addrs lists the running nodes' client addresses.
func (w *world) addrs() []string {
	var out []string
	for _, n := range w.nodes {
		if !n.done {
			out = append(out, n.addr)
		}
	}
	return out
}

// proxy forwards TCP to NATS; cut drops every connection through it and
// refuses new ones until heal, as a network partition would.
type proxy struct {
	t      testing.TB
	l      net.Listener
	url    string
	target string
	mu     sync.Mutex
	conns  map[net.Conn]bool
	cutOff bool
}

func newProxy(t testing.TB, target string) *proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, l: l, url: "nats://" + l.Addr().String(), target: target[len("nats://"):], conns: map[net.Conn]bool{}}
	go p.accept()
	return p
}

func (p *proxy) accept() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cutOff {
			p.mu.Unlock()
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go func() { io.Copy(up, c); up.Close(); c.Close() }()
		go func() { io.Copy(c, up); up.Close(); c.Close() }()
	}
}

func (p *proxy) cut() {
	p.mu.Lock()
	p.cutOff = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
	p.mu.Unlock()
}

func (p *proxy) isCut() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cutOff
}

func (p *proxy) heal() {
	p.mu.Lock()
	p.cutOff = false
	p.mu.Unlock()
}

func (p *proxy) close() {
	if p == nil {
		return
	}
	p.cut()
	p.l.Close()
}

// secretPassword is Horatio's: long enough that finding it in the log is
// no accident.
const secretPassword = "correct-horse-battery-staple"

// accounts are the demo accounts and f00-f15 (password 123), and Horatio.
func accounts() replay.Accounts {
	a := replay.DemoAccounts()
	a["Horatio"] = secretPassword
	for i := range 16 { // the players of the fault figures
		a[fmt.Sprintf("f%02d", i)] = "123"
	}
	return a
}

// sameWorld waits until every running node's state machine has applied the
// whole log and checks that they all did exactly the same (their Stats);
// it returns them.
func sameWorld(t *testing.T, w *world) []statemachine.Stats {
	t.Helper()
	var stats []statemachine.Stats
	for deadline := time.Now().Add(20 * time.Second); ; {
		stats = stats[:0]
		for _, n := range w.nodes {
			if n.done {
				continue
			}
			st, err := n.tr.Stats(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			stats = append(stats, st)
		}
		same := true
		for _, st := range stats[1:] {
			same = same && st == stats[0]
		}
		if same {
			return stats
		}
		if time.Now().After(deadline) {
			t.Fatalf("the nodes' worlds differ:\n%+v", stats)
		}
		time.Sleep(20 * time.Millisecond) // the last entries are on their way to some node
	}
}

// natsCluster is nats-server processes clustered with JetStream, on free
// ports of loopback (or of the addresses a test gives), each with its own
// store.
type natsCluster struct {
	t       testing.TB
	urls    []string
	monitor []string // each server's monitoring address (/connz)
	logs    string   // the servers' logs, s0.log and on
	mu      sync.Mutex
	procs   []*natsProc
}

// natsProc is a running nats-server; done is closed once it has exited.
type natsProc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// processNATSCluster starts a cluster of n nats-server processes and waits
// until JetStream answers through it. A cluster's first start needs every
// server its routes name: when one exits at once (a port another process
// took between freePort and the server's bind), the cluster is started
// again on new ports, at most three times.
func processNATSCluster(t testing.TB, n int) *natsCluster {
	t.Helper()
	return processNATSClusterOn(t, slices.Repeat([]string{"127.0.0.1"}, n))
}

// processNATSClusterOn is processNATSCluster with server i's clients'
// port (and its monitoring port, c.monitor[i]) on address hosts[i]; the
// routes between the servers stay on loopback.
func processNATSClusterOn(t testing.TB, hosts []string) *natsCluster {
	t.Helper()
	for try := 1; ; try++ {
		c, err := startNATSCluster(t, hosts)
		if err == nil {
			return c
		}
		if try == 3 {
			t.Fatal(err)
		}
		t.Logf("starting the NATS cluster again: %v", err)
	}
}

// startNATSCluster starts a clustered server on each of hosts' addresses
// and waits for JetStream (a test failure after 30 s); an error when a
// server exited first.
func startNATSCluster(t testing.TB, hosts []string) (*natsCluster, error) {
	t.Helper()
	bin := clusterNATSBinary(t)
	n := len(hosts)
	c := &natsCluster{t: t, procs: make([]*natsProc, n), logs: t.TempDir()}
	if d := os.Getenv("BOMBER_NATS_LOGS"); d != "" {
		c.logs = d
	}
	ports, routes := make([]int, n), make([]string, n)
	for i, h := range hosts {
		ports[i] = freePortOn(t, h)
		routes[i] = fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
		c.urls = append(c.urls, "nats://"+net.JoinHostPort(h, strconv.Itoa(ports[i])))
		c.monitor = append(c.monitor, net.JoinHostPort(h, strconv.Itoa(freePortOn(t, h))))
	}
	t.Cleanup(func() {
		for i := range n {
			c.kill(i)
		}
	})
	for i := range n {
		_, mon, _ := net.SplitHostPort(c.monitor[i])
		cmd := exec.Command(bin, "-a", hosts[i], "-p", strconv.Itoa(ports[i]), "-m", mon, "-n", fmt.Sprintf("s%d", i), "-js", "-sd", t.TempDir(),
			"--cluster_name", "bomber", "--cluster", routes[i], "--routes", strings.Join(routes, ","))
		f, err := os.OpenFile(filepath.Join(c.logs, fmt.Sprintf("s%d.log", i)), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = f, f
		err = cmd.Start()
		f.Close() // the process has its own copy
		if err != nil {
			t.Fatal(err)
		}
		p := &natsProc{cmd: cmd, done: make(chan struct{})}
		go func() {
			cmd.Wait()
			close(p.done)
		}()
		c.mu.Lock()
		c.procs[i] = p
		c.mu.Unlock()
	}
	exited := func() error {
		c.mu.Lock()
		procs := slices.Clone(c.procs)
		c.mu.Unlock()
		for i, p := range procs {
			if p == nil {
				continue
			}
			select {
			case <-p.done:
				return fmt.Errorf("nats-server s%d exited at its start (%v)\n%s", i, p.cmd.ProcessState, c.logTails(12))
			default:
			}
		}
		return nil
	}
	err := c.await("the NATS cluster's JetStream did not answer", exited, func(ctx context.Context, js jetstream.JetStream) error {
		_, err := js.AccountInfo(ctx)
		return err
	})
	if err != nil {
		for i := range n {
			c.kill(i)
		}
	}
	return c, err
}

// serversOf are the servers that list a NATS client named name among
// their connections (/connz). A server lists a client whose link died
// without a word until it finds that out itself.
func (c *natsCluster) serversOf(t testing.TB, name string) []int {
	t.Helper()
	var on []int
	for i, m := range c.monitor {
		resp, err := http.Get("http://" + m + "/connz")
		if err != nil {
			t.Fatal(err)
		}
		var z struct{ Connections []struct{ Name string } }
		err = json.NewDecoder(resp.Body).Decode(&z)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(z.Connections, func(cn struct{ Name string }) bool { return cn.Name == name }) {
			on = append(on, i)
		}
	}
	return on
}

// url lists the servers, for a client that may use any.
func (c *natsCluster) url() string { return strings.Join(c.urls, ",") }

// kill stops server i as SIGKILL does.
func (c *natsCluster) kill(i int) {
	c.mu.Lock()
	p := c.procs[i]
	c.procs[i] = nil
	c.mu.Unlock()
	if p != nil {
		p.cmd.Process.Kill()
		<-p.done
	}
}

// awaitLeaders waits until every stream of the cluster (the world's log
// and each key-value bucket) answers from a leader other than server
// gone: after a server is killed, the groups it led elect new leaders,
// seconds during which their writes wait.
func (c *natsCluster) awaitLeaders(gone int) {
	c.t.Helper()
	c.await("the NATS cluster did not elect new leaders", nil, func(ctx context.Context, js jetstream.JetStream) error {
		names := js.StreamNames(ctx)
		var all []string
		for n := range names.Name() {
			all = append(all, n)
		}
		if err := names.Err(); err != nil {
			return err
		}
		if len(all) == 0 {
			return fmt.Errorf("no streams listed")
		}
		for _, n := range all {
			s, err := js.Stream(ctx, n)
			if err != nil {
				return fmt.Errorf("stream %s: %w", n, err)
			}
			ci := s.CachedInfo().Cluster
			if ci == nil || ci.Leader == "" || ci.Leader == fmt.Sprintf("s%d", gone) {
				return fmt.Errorf("stream %s has no live leader yet", n)
			}
		}
		return nil
	})
}

// await asks the cluster's JetStream, through a connection of its own,
// until ok returns nil (failing the test after 30 s with what), or until
// giveUp (nil: never) returns an error, which it returns.
func (c *natsCluster) await(what string, giveUp func() error, ok func(ctx context.Context, js jetstream.JetStream) error) error {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if giveUp != nil {
			if err := giveUp(); err != nil {
				return err
			}
		}
		err := func() error {
			nc, err := nats.Connect(c.url())
			if err != nil {
				return err
			}
			defer nc.Close()
			js, err := jetstream.New(nc)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			return ok(ctx, js)
		}()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: %v\n%s", what, err, c.logTails(12))
		}
		time.Sleep(100 * time.Millisecond) // a cluster electing its leaders: no event to wait on
	}
}

// logTails is the last n lines of each server's log, for a test that
// failed waiting on the cluster (a server that could not start says why).
func (c *natsCluster) logTails(n int) string {
	var b strings.Builder
	for i := range c.urls {
		name := fmt.Sprintf("s%d.log", i)
		data, err := os.ReadFile(filepath.Join(c.logs, name))
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", name, err)
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		fmt.Fprintf(&b, "%s, its last lines:\n%s\n", name, strings.Join(lines[max(0, len(lines)-n):], "\n"))
	}
	return b.String()
}

var (
	natsBuildOnce sync.Once
	natsBuilt     string
	natsBuildErr  error
)

// clusterNATSBinary is the nats-server a NATS cluster runs in tests:
// BOMBER_NATS_SERVER if set, else one built from the nats-server module
// this repository requires (Debian's 2.9 takes 10-20 s to elect new
// leaders after losing a server, longer than a test should wait).
func clusterNATSBinary(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("BOMBER_NATS_SERVER"); b != "" {
		return b
	}
	natsBuildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bomber-nats-server")
		if err != nil {
			natsBuildErr = err
			return
		}
		natsBuilt = filepath.Join(dir, "nats-server")
		if out, err := exec.Command("go", "build", "-o", natsBuilt, "github.com/nats-io/nats-server/v2").CombinedOutput(); err != nil {
			natsBuildErr = fmt.Errorf("building nats-server: %w\n%s", err, out)
		}
	})
	if natsBuildErr != nil {
		t.Fatal(natsBuildErr)
	}
	return natsBuilt
}

// checkersUnderWay has Albert, on the node at addrA, and Beth, on the one
// at addrB, start a game of Checkers and play it until ten moves are made.
func checkersUnderWay(t *testing.T, addrA, addrB string) (r *servertest.Room, a, b *servertest.Player) {
	t.Helper()
	r = servertest.NewRoom(t)
	a = r.Join("Albert", addrA)
	b = r.Join("Beth", addrB)
	r.StartCheckers(a, b)
	r.Until("ten moves", servertest.Moves(a, 10))
	return r, a, b
}
