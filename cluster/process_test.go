package cluster

import (
	"fmt"
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
	os.Exit(code)
}

func buildBomberd(t testing.TB) string {
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

var listening = regexp.MustCompile(`\tlistening\t\{"addr": "([^"]+)"\}`)

// daemonNode starts bomberd as a node of world on NATS url, sharing the
// SQLite store at db, and returns its process and client address.
func daemonNode(t testing.TB, url, world, name, db string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "none.yaml"), []byte("log:\n  format: console\n"), 0o644)
	cmd := exec.Command(buildBomberd(t), "--config", filepath.Join(dir, "none.yaml"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BOMBER_LISTEN=127.0.0.1:0", "BOMBER_ADMIN_LISTEN=127.0.0.1:0", "BOMBER_WEB_LISTEN=127.0.0.1:0",
		"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1", "BOMBER_STORE_SQLITE_PATH="+db,
		"BOMBER_CLUSTER_NATS_URL="+url, "BOMBER_CLUSTER_WORLD="+world, "BOMBER_CLUSTER_NODE="+name,
		"BOMBER_CLUSTER_HEARTBEAT=150ms", "BOMBER_CLUSTER_NODE_TTL=1500ms", "BOMBER_LIMITS_SEGMENT_RATE=0")
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
		if m := listening.FindStringSubmatch(log.String()); m != nil {
			return cmd, m[1]
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
	owner, ownerAddr := daemonNode(t, ns.url, world, "owner", db)
	_, otherAddr := daemonNode(t, ns.url, world, "other", db)
	r := newRoom(t)
	a := r.join("Albert", ownerAddr)
	b := r.join("Beth", otherAddr)
	r.startCheckers(a, b)
	r.until("ten moves", moves(a, 10))
	table := a.c.Table().ID
	owner.Process.Signal(syscall.SIGKILL)
	r.until("Albert's connection to drop", func() bool { return a.nc == nil })
	r.reconnect(a, otherAddr)
	r.until("Albert's seat back", func() bool { return r.resumed(a) })
	if a.c.Table().ID != table {
		t.Fatalf("resumed at table %d, want %d", a.c.Table().ID, table)
	}
	r.until("the end of the game", over(a, b))
}
