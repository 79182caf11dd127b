package cluster

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/server/servertest"
)

// lan is hosts on one machine: network namespaces, each with an address
// of its own on a private bridge whose own address (this process's side)
// is gw. What crosses between them goes through a kernel's network stack
// as between machines on one network, not over loopback, and nothing of
// it leaves the machine: the addresses are from 198.18.0.0/15, the range
// set aside for tests of network equipment (RFC 2544).
type lan struct {
	gw    string
	nats  []string // three more addresses of this process's side, for NATS servers alone (cutOff)
	hosts []lanHost
}

// lanHost is one namespace and its address.
type lanHost struct{ netns, addr string }

// newLAN makes n hosts, all removed when t ends. Making namespaces needs
// root and iproute2's ip: the test skips without them, or fails in CI,
// which has them.
func newLAN(t *testing.T, n int) *lan {
	t.Helper()
	if _, err := exec.LookPath("ip"); err != nil || os.Geteuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("network namespaces need root and ip (iproute2): euid %d, %v", os.Geteuid(), err)
		}
		t.Skipf("network namespaces need root and ip (iproute2): euid %d, %v", os.Geteuid(), err)
	}
	// a name and a network of this run's own, so that runs side by side
	// (a developer's and CI's) do not meet
	id := rand.Uint32()
	tag := fmt.Sprintf("%05x", id&0xfffff)
	subnet := fmt.Sprintf("198.%d.%d", 18+id>>31, id>>20&0xff)
	bridge := "bb" + tag
	var undo []func()
	t.Cleanup(func() {
		for _, f := range slices.Backward(undo) {
			f()
		}
	})
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	ip("link", "add", bridge, "type", "bridge")
	undo = append(undo, func() { exec.Command("ip", "link", "del", bridge).Run() })
	l := &lan{gw: subnet + ".1", nats: []string{subnet + ".2", subnet + ".3", subnet + ".4"}}
	for _, a := range append([]string{l.gw}, l.nats...) {
		ip("addr", "add", a+"/24", "dev", bridge)
	}
	ip("link", "set", bridge, "up")
	for i := range n {
		h := lanHost{netns: fmt.Sprintf("bomber-%s-%d", tag, i), addr: fmt.Sprintf("%s.%d", subnet, 11+i)}
		ip("netns", "add", h.netns)
		undo = append(undo, func() { exec.Command("ip", "netns", "del", h.netns).Run() }) // takes its end of the cable with it
		outside, inside := fmt.Sprintf("bv%s%d", tag, i), fmt.Sprintf("bp%s%d", tag, i)
		ip("link", "add", outside, "type", "veth", "peer", "name", inside)
		undo = append(undo, func() { exec.Command("ip", "link", "del", outside).Run() })
		ip("link", "set", inside, "netns", h.netns)
		ip("link", "set", outside, "master", bridge)
		ip("link", "set", outside, "up")
		ip("-n", h.netns, "addr", "add", h.addr+"/24", "dev", inside)
		ip("-n", h.netns, "link", "set", inside, "up")
		ip("-n", h.netns, "link", "set", "lo", "up")
		l.hosts = append(l.hosts, h)
	}
	return l
}

// cutOff cuts host h off from address addr of this process's side without
// a word, as when a switch or a link between machines dies: the host can
// send nothing there any more (a blackhole route), so no connection
// between them moves on, and none is reset or closed. The cut heals when
// the test ends.
func (l *lan) cutOff(t *testing.T, h lanHost, addr string) {
	t.Helper()
	if out, err := exec.Command("ip", "-n", h.netns, "route", "add", "blackhole", addr+"/32").CombinedOutput(); err != nil {
		t.Fatalf("cutting %s off from %s: %v\n%s", h.netns, addr, err, out)
	}
	// healed when the test ends, before its nodes are stopped: a node
	// stopping while cut off waits out its time to leave the world
	t.Cleanup(func() { exec.Command("ip", "-n", h.netns, "route", "del", "blackhole", addr+"/32").Run() })
}

// TestNodesOnHostsOfTheirOwn: the multi-host set-up of docs/operations.md
// on one machine. A nats-server on one address and two bomberd nodes on
// hosts of their own (network namespaces, each with its own address; each
// node's admin and web listeners on its own loopback), with clients
// reaching each node at its address: two reference clients, one on each
// node, see each other come online and play a whole Bomber game, and one
// sees the other go offline.
func TestNodesOnHostsOfTheirOwn(t *testing.T) {
	needNATS(t)
	l := newLAN(t, 2)
	ns := processNATSOn(t, l.gw)
	world := fmt.Sprintf("h%d", time.Now().UnixNano()%1e9)
	db, password := playersStore(t, "Aurelia", "Bertram")
	var nodes []daemon
	for i, h := range l.hosts {
		d := daemonNodeIn(t, h.netns, ns.url, world, fmt.Sprintf("host%d", i), db, "BOMBER_LISTEN="+h.addr+":0")
		if !strings.HasPrefix(d.addr, h.addr+":") {
			t.Fatalf("node %d listens on %s, want its host's address %s", i, d.addr, h.addr)
		}
		nodes = append(nodes, d)
	}
	refGameAcross(t, nodes[0].addr, nodes[1].addr, "Aurelia", "Bertram", password)
}

// balanced is docs/operations.md's balancer (HAProxy: least connections,
// /readyz asked every second, a node's sessions cut when it is marked
// down) in front of two nodes on hosts of their own, NATS on an address of
// its own, and two players who came in through the balancer, one on each
// node, playing checkers.
type balanced struct {
	lan   *lan
	nodes []daemon
	front string        // the balancer's game port
	log   *lockedBuffer // the balancer's
	r     *servertest.Room
	a, b  *servertest.Player
}

func newBalanced(t *testing.T) *balanced {
	t.Helper()
	needNATS(t)
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("haproxy not found (%v); Debian's package haproxy", err)
		}
		t.Skipf("haproxy not found (%v); Debian's package haproxy", err)
	}
	bl := &balanced{lan: newLAN(t, 2), log: &lockedBuffer{}}
	ns := processNATSOn(t, bl.lan.nats[0])
	db, password := playersStore(t, "Aurelia", "Bertram")
	world := fmt.Sprintf("b%d", time.Now().UnixNano()%1e9)
	servers := ""
	for i, h := range bl.lan.hosts {
		d := daemonNodeIn(t, h.netns, ns.url, world, fmt.Sprintf("host%d", i), db,
			"BOMBER_LISTEN="+h.addr+":0", "BOMBER_ADMIN_LISTEN="+h.addr+":0")
		bl.nodes = append(bl.nodes, d)
		_, admin, _ := strings.Cut(d.admin, ":")
		servers += fmt.Sprintf("  server n%d %s check port %s\n", i, d.addr, admin)
	}
	// docs/operations.md's configuration, but for the addresses: the game
	// port's frontend and backend as written there
	bl.front = fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := filepath.Join(t.TempDir(), "haproxy.cfg")
	os.WriteFile(cfg, []byte(`global
  log stderr format raw local0
defaults
  mode tcp
  log global
  timeout connect 5s
  timeout client 1h
  timeout server 1h
frontend game
  bind `+bl.front+`
  default_backend game
backend game
  balance leastconn
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
`+servers), 0o644)
	lb := exec.Command(haproxy, "-db", "-f", cfg)
	lb.Stdout, lb.Stderr = bl.log, bl.log
	if err := lb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		lb.Process.Kill()
		lb.Wait()
		if t.Failed() {
			t.Logf("haproxy's log:\n%s", bl.log.String())
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.Dial("tcp", bl.front)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy does not listen on %s: %v\n%s", bl.front, err, bl.log.String())
		}
		time.Sleep(20 * time.Millisecond) // another process, which says nothing when it listens
	}
	bl.r = servertest.NewRoom(t)
	bl.r.Password = password
	bl.a = bl.r.Join("Aurelia", bl.front)
	bl.b = bl.r.Join("Bertram", bl.front)
	bl.r.StartCheckers(bl.a, bl.b)
	bl.r.Until("ten moves", servertest.Moves(bl.a, 10))
	return bl
}

// failover waits for node 0's player to be cut and the balancer to mark
// node 0 down, has that player reconnect through the balancer (to node 1,
// the one left), resume its seat, and the game end.
func (bl *balanced) failover(t *testing.T, within time.Duration) {
	t.Helper()
	var p *servertest.Player
	bl.r.Until("a player's connection to drop", func() bool {
		for _, q := range []*servertest.Player{bl.a, bl.b} {
			if q.NC == nil {
				p = q
			}
		}
		return p != nil
	})
	for deadline := time.Now().Add(within); !strings.Contains(bl.log.String(), "Server game/n0 is DOWN"); {
		if time.Now().After(deadline) {
			t.Fatalf("haproxy did not mark node 0 down within %v:\n%s", within, bl.log.String())
		}
		time.Sleep(20 * time.Millisecond) // haproxy's log is a pipe, read as it comes
	}
	bl.r.Reconnect(p, bl.front)
	bl.r.Until(p.Name+"'s seat back", func() bool { return bl.r.Resumed(p) })
	bl.r.Until("the end of the game", servertest.Over(bl.a, bl.b))
}

// TestBalancerInFrontOfHosts: the node one of the two players is on is
// killed (SIGKILL). The balancer cuts that player's connection and marks
// the node down; the player comes back through the balancer, lands on the
// other node, resumes its seat, and the game is played to its end.
func TestBalancerInFrontOfHosts(t *testing.T) {
	bl := newBalanced(t)
	bl.nodes[0].cmd.Process.Signal(syscall.SIGKILL)
	bl.failover(t, 20*time.Second)
}

// TestHostSilentlyCutOffFromNATS: node 0's host loses its way to NATS
// without a word (no connection reset or closed: a dead switch), while its
// players still reach it. Its NATS link must be found dead within the
// time the world takes to declare the node gone, so that /readyz fails,
// the balancer marks the node down and cuts its player, and the player
// resumes its seat through the balancer on the other node.
func TestHostSilentlyCutOffFromNATS(t *testing.T) {
	bl := newBalanced(t)
	bl.lan.cutOff(t, bl.lan.hosts[0], bl.lan.nats[0])
	bl.failover(t, 20*time.Second)
}

// TestHostSilentlyCutOffFromItsNATSServer: the nodes use a NATS cluster of
// three servers, each on an address of its own, as docs/operations.md
// sets one up; node 0's host silently loses its way to the server node 0
// is connected to (a dead link between two machines), not to the other
// two. Node 0 finds the link dead by its pings and reconnects to another
// server before the world would declare it gone: its player is never cut
// nor seen away by the other, and the game goes on to its end.
func TestHostSilentlyCutOffFromItsNATSServer(t *testing.T) {
	l := newLAN(t, 2)
	nc := processNATSClusterOn(t, l.nats)
	db, password := playersStore(t, "Aurelia", "Bertram")
	world := fmt.Sprintf("c%d", time.Now().UnixNano()%1e9)
	var nodes []daemon
	for i, h := range l.hosts {
		nodes = append(nodes, daemonNodeIn(t, h.netns, nc.url(), world, fmt.Sprintf("host%d", i), db,
			"BOMBER_LISTEN="+h.addr+":0", "BOMBER_CLUSTER_REPLICAS=3", "BOMBER_CLUSTER_NODE_TTL=12s"))
	}
	r := servertest.NewRoom(t)
	r.Password = password
	a := r.Join("Aurelia", nodes[0].addr)
	b := r.Join("Bertram", nodes[1].addr)
	r.StartCheckers(a, b)
	r.Until("ten moves", servertest.Moves(a, 10))
	was := nc.serversOf(t, "bomberd host0")
	if len(was) != 1 {
		t.Fatalf("node 0 is a client of NATS servers %v, want one", was)
	}
	l.cutOff(t, l.hosts[0], l.nats[was[0]])
	r.Until("the end of the game", servertest.Over(a, b))
	if a.NC == nil || len(b.Saw(ext.EvAway)) > 0 {
		t.Fatalf("Aurelia's connection %v, Bertram saw her away %d times: node 0 was taken for gone", a.NC, len(b.Saw(ext.EvAway)))
	}
	// the server it lost may still list it (it has not noticed yet)
	if now := nc.serversOf(t, "bomberd host0"); !slices.ContainsFunc(now, func(i int) bool { return i != was[0] }) {
		t.Fatalf("node 0 is a client of NATS servers %v only, and cannot reach %d", now, was[0])
	}
}

// playersStore makes an SQLite store with accounts for names, all with
// the password it returns: a daemon listening beyond loopback makes no
// demo accounts and refuses the demo password, so the accounts are made
// here, as an operator would with bomberctl.
func playersStore(t *testing.T, names ...string) (db, password string) {
	t.Helper()
	password = "tarnished-brass-42"
	return accountsStore(t, password, names...), password
}
