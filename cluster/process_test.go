package cluster

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bomber-game/bomber/server/servertest"
)

var (
	buildOnce sync.Once
	bomberd   string // the daemon binary, built once for the package's tests
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if bomberd != "" {
		os.RemoveAll(filepath.Dir(bomberd))
	}
	if natsBuilt != "" {
		os.RemoveAll(filepath.Dir(natsBuilt))
	}
	os.Exit(code)
}

// buildBomberd is the bomberd the package's daemons run: this tree's,
// built once, or BENCH_BOMBERD's binary (a bench of another build).
func buildBomberd(t testing.TB) string {
	if bin := os.Getenv("BENCH_BOMBERD"); bin != "" {
		return bin // a bench of another build
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bomber-cluster-test")
		if err != nil {
			buildErr = err
			return
		}
		bomberd = filepath.Join(dir, "bomberd")
		out, err := exec.Command("go", "build", "-o", bomberd, "../cmd/bomberd").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building bomberd: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bomberd
}

// lockedBuffer is a daemon's log.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

var (
	listening      = regexp.MustCompile(`\tlistening\t\{"addr": "([^"]+)"\}`)
	adminListening = regexp.MustCompile(`\tadmin listening\t\{"addr": "([^"]+)"\}`)
)

// daemon is a bomberd process.
type daemon struct {
	cmd   *exec.Cmd
	addr  string // the game port
	admin string // the admin HTTP listener
}

// daemonNode starts bomberd as a node of world on NATS url (alone when url
// is empty), sharing the SQLite store at db.
func daemonNode(t testing.TB, url, world, name, db string, env ...string) daemon {
	t.Helper()
	return daemonNodeIn(t, "", url, world, name, db, env...)
}

// daemonNodeIn is daemonNode run in network namespace netns ("": this
// process's); env then sets the addresses to listen on there.
func daemonNodeIn(t testing.TB, netns, url, world, name, db string, env ...string) daemon {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "none.yaml"), []byte("log:\n  format: console\n"), 0o644)
	cmd := exec.Command(buildBomberd(t), "--config", filepath.Join(dir, "none.yaml"))
	if netns != "" {
		// ip execs the daemon itself once in the namespace: cmd's process is bomberd
		cmd = exec.Command("ip", append([]string{"netns", "exec", netns}, cmd.Args...)...)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BOMBER_LISTEN=127.0.0.1:0", "BOMBER_ADMIN_LISTEN=127.0.0.1:0", "BOMBER_WEB_LISTEN=127.0.0.1:0",
		"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1", "BOMBER_STORE_SQLITE_PATH="+db,
		"BOMBER_CLUSTER_NATS_URL="+url, "BOMBER_CLUSTER_WORLD="+world, "BOMBER_CLUSTER_NODE="+name,
		"BOMBER_CLUSTER_HEARTBEAT=150ms", "BOMBER_CLUSTER_NODE_TTL=1500ms", "BOMBER_LIMITS_SEGMENT_RATE=0",
		"BOMBER_ADMIN_METRICS_TOKEN="+scrapeToken)
	cmd.Env = append(cmd.Env, env...)
	log := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("%s's log:\n%s", name, log.String())
		}
	})
	deadline := time.After(60 * time.Second)
	for {
		l := log.String()
		if m, a := listening.FindStringSubmatch(l), adminListening.FindStringSubmatch(l); m != nil && a != nil {
			return daemon{cmd, m[1], a[1]}
		}
		select {
		case <-exited:
			t.Fatalf("%s exited:\n%s", name, log.String())
		case <-deadline:
			t.Fatalf("%s did not start:\n%s", name, log.String())
		case <-time.After(20 * time.Millisecond): // the log has no event to wait on
		}
	}
}

// TestSIGKILLedNodeProcess: two bomberd processes on a nats-server process;
// the node a table was created on is killed with SIGKILL mid-game, and its
// player finishes the same game through the other node.
func TestSIGKILLedNodeProcess(t *testing.T) {
	if _, err := exec.LookPath(natsBinary()); err != nil {
		if os.Getenv("BOMBER_REQUIRE_NATS") != "" {
			t.Fatalf("nats-server not found (%v); scripts/nats.sh installs it", err)
		}
		t.Skipf("nats-server not found (%v)", err)
	}
	ns := processNATS(t)
	world := fmt.Sprintf("k%d", time.Now().UnixNano()%1e9)
	db := filepath.Join(t.TempDir(), "bomber.db")
	owner := daemonNode(t, ns.url, world, "owner", db)
	other := daemonNode(t, ns.url, world, "other", db)
	ownerAddr, otherAddr := owner.addr, other.addr
	r, a, b := checkersUnderWay(t, ownerAddr, otherAddr)
	table := a.C.Table().ID
	// every node applies every input of the world, the table's moves too
	for _, d := range []daemon{owner, other} {
		awaitMetric(t, d.admin, `bomber_inputs_applied_total{scope="table"} `, 10)
	}
	owner.cmd.Process.Signal(syscall.SIGKILL)
	r.Until("Albert's connection to drop", func() bool { return a.NC == nil })
	r.Reconnect(a, otherAddr)
	r.Until("Albert's seat back", func() bool { return r.Resumed(a) })
	if a.C.Table().ID != table {
		t.Fatalf("resumed at table %d, want %d", a.C.Table().ID, table)
	}
	r.Until("the end of the game", servertest.Over(a, b))
	// the survivor holds the lease, says so in its metrics, and is ready
	for deadline := time.Now().Add(20 * time.Second); scrape(t, other.admin, "/metrics", "bomber_cluster_leader ") != "1"; {
		if time.Now().After(deadline) {
			t.Fatal("the surviving node never took the leader lease (bomber_cluster_leader)")
		}
		time.Sleep(50 * time.Millisecond) // another process: nothing to wait on but its metrics
	}
	if got := scrape(t, other.admin, "/readyz", ""); got != "ready" {
		t.Errorf("the surviving node's /readyz says %q", got)
	}
	// /readyz fails while NATS is away, and recovers when it is back
	ns.stop()
	awaitReady(t, other.admin, false)
	ns.restart()
	awaitReady(t, other.admin, true)
}

// TestSIGSTOPpedNodeProcess: the bomberd process a player is on is stopped
// (SIGSTOP, as a frozen machine or a paused VM) for 10 s mid-game. The
// other node declares it gone and holds the player's seat; when the stopped
// node runs again it finds itself declared gone and closes its
// connections; the player resumes through the other node and the game is
// played to its end.
func TestSIGSTOPpedNodeProcess(t *testing.T) {
	needNATS(t)
	ns := processNATS(t)
	world := fmt.Sprintf("s%d", time.Now().UnixNano()%1e9)
	db := filepath.Join(t.TempDir(), "bomber.db")
	frozen := daemonNode(t, ns.url, world, "frozen", db)
	other := daemonNode(t, ns.url, world, "other", db)
	// runs before the daemons' own clean-up: a stopped process would not
	// hear their SIGTERM
	t.Cleanup(func() { frozen.cmd.Process.Signal(syscall.SIGCONT) })
	r, a, b := checkersUnderWay(t, frozen.addr, other.addr)
	table := a.C.Table().ID
	frozen.cmd.Process.Signal(syscall.SIGSTOP)
	r.During(10*time.Second, func() {})
	if a.NC == nil {
		t.Fatal("Albert's connection closed while its node was stopped")
	}
	frozen.cmd.Process.Signal(syscall.SIGCONT)
	back := time.Now()
	r.Until("the woken node to close Albert's connection", func() bool { return a.NC == nil })
	r.Reconnect(a, other.addr)
	r.Until("Albert's seat back", func() bool { return r.Resumed(a) })
	t.Logf("Albert resumed %v after his node woke", time.Since(back).Round(time.Millisecond))
	if a.C.Table().ID != table {
		t.Fatalf("resumed at table %d, want %d", a.C.Table().ID, table)
	}
	r.Until("the end of the game", servertest.Over(a, b))
	if ma, mb := len(a.C.Game().Moves), len(b.C.Game().Moves); ma != mb {
		t.Fatalf("the players saw %d and %d moves", ma, mb)
	}
}

// awaitReady polls a daemon's /readyz until it says ready (or not).
func awaitReady(t *testing.T, admin string, ready bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		got := scrape(t, admin, "/readyz", "")
		if (got == "ready") == ready {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still says %q", got)
		}
		time.Sleep(50 * time.Millisecond) // another process: nothing to wait on but its answers
	}
}

// awaitMetric polls a daemon's /metrics until the counter on the line
// that starts with prefix reaches at least want.
func awaitMetric(t testing.TB, admin, prefix string, want float64) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		got, _ := strconv.ParseFloat(scrape(t, admin, "/metrics", prefix), 64)
		if got >= want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s on %s is %v, want at least %v", prefix, admin, got, want)
		}
		time.Sleep(50 * time.Millisecond) // another process: nothing to wait on but its metrics
	}
}

// scrapeToken is the nodes' admin.metrics_token.
const scrapeToken = "scrape"

// scrape GETs path from an admin listener and returns the value of the
// line that starts with prefix (the whole body, trimmed, for "").
func scrape(t testing.TB, admin, path, prefix string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+admin+path, nil)
	req.Header.Set("Authorization", "Bearer "+scrapeToken) // /metrics needs it; /readyz ignores it
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if prefix == "" {
		return strings.TrimSpace(string(body))
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			return v
		}
	}
	return ""
}
