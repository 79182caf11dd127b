//go:build linux

package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// TestWrittenOutputHoldsNoBuffer: a connection that fell behind keeps the
// output the kernel did not take in a buffer of its own; once the client
// has read it all, the connection holds no buffer any more. Its output
// was once consumed by reslicing, which left an empty slice in the
// buffer's array, and so the array, whenever the buffer had filled its
// allocation exactly: after a login wave ten thousand idle users each kept
// one, 40% more heap per connection. Lengths in steps of one segment hit
// such sizes.
func TestWrittenOutputHoldsNoBuffer(t *testing.T) {
	r := testReactor(t, Config{})
	seg := segment.Name(segment.NewOnline, "abcdefghijklmnopqrstuvwxyz012") // 32 bytes
	var notices []byte
	for len(notices) < 16<<10 {
		notices = seg.AppendTo(notices)
	}
	for extra := range 64 {
		notices = seg.AppendTo(notices)
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		rc := &rconn{r: r, fd: int32(fds[0]), c: &conn{}}
		rc.sendBytes(notices)
		rc.flush() // at most writeCap
		if rc.unread() == 0 {
			t.Fatalf("%d bytes written at once; the test needs some left for later", len(notices))
		}
		var got []byte
		buf := make([]byte, 16<<10)
		for len(got) < len(notices) {
			n, err := unix.Read(fds[1], buf)
			switch {
			case n > 0:
				got = append(got, buf[:n]...)
			case errors.Is(err, unix.EAGAIN):
				if rc.unread() == 0 {
					t.Fatalf("read %d of %d bytes and nothing is left to write", len(got), len(notices))
				}
				rc.write()
			default:
				t.Fatalf("read: %d, %v", n, err)
			}
		}
		unix.Close(fds[0])
		unix.Close(fds[1])
		if !bytes.Equal(got, notices) {
			t.Fatalf("%d bytes: the client did not receive the notices as written", len(notices))
		}
		if rc.unread() != 0 || rc.out != nil {
			t.Fatalf("%d bytes (%d segments over 16 KiB), all read, yet the connection holds %d bytes unwritten and a buffer (capacity %d)",
				len(notices), extra+1, rc.unread(), cap(rc.out))
		}
	}
}

// TestSlowReadersShareTheLog: in a login storm the sweep writes each idle
// member the notices cast since its last round. What a slow reader's
// kernel does not take at once stays in the engine's one log, lent, and
// is not copied into a buffer of the connection's own. Copied, a storm of
// 1,000 logins among 10,000 users allocated 45 MB a second on the loop's
// CPU (the collector ran every 150 ms), and each reader's copy counted
// against MaxOutputTotal. Each reader still gets every notice, in order,
// after the log has moved on.
func TestSlowReadersShareTheLog(t *testing.T) {
	r := testReactor(t, Config{MaxOutput: 1 << 20})
	e := r.eng
	f := &e.fan
	const readers = 8
	rcs := make([]*rconn, readers)
	peers := make([]int, readers)
	got := make([][]byte, readers)
	buf := make([]byte, 64<<10)
	read := func(i int) {
		for {
			n, _ := unix.Read(peers[i], buf)
			if n <= 0 {
				return
			}
			got[i] = append(got[i], buf[:n]...)
		}
	}
	for i := range readers {
		rcs[i], peers[i] = memberConn(t, r, fmt.Sprintf("r%d", i))
		if err := unix.SetsockoptInt(int(rcs[i].fd), unix.SOL_SOCKET, unix.SO_SNDBUF, 4096); err != nil {
			t.Fatal(err)
		}
	}
	drain := func() {
		for i, rc := range rcs {
			for rc.unread() > 0 {
				rc.write()
				read(i)
			}
			read(i)
		}
	}
	drain() // the user lists: every reader is idle now
	clear(got)
	var notices []byte
	cast := func(n int) {
		for range n {
			seg := segment.Name(segment.NewOnline, fmt.Sprintf("%029d", len(notices)/32)) // 32 bytes
			notices = seg.AppendTo(notices)
			e.cast(&statemachine.Cast{Kind: statemachine.CastNotice, Seg: seg})
		}
	}
	cast(1000)
	logSize := cap(f.log)
	e.flushPresence(-1)
	for i, rc := range rcs {
		if rc.unread() == 0 {
			t.Fatalf("reader %d's kernel took all %d bytes of notices: the test needs some left", i, len(notices))
		}
		if len(rc.out) > rc.sent {
			t.Errorf("reader %d copied %d bytes of notices into a buffer of its own", i, len(rc.out)-rc.sent)
		}
	}
	if e.loopQueued > int64(logSize) {
		t.Fatalf("%d readers behind on one log of %d bytes: %d bytes counted as unread output", readers, logSize, e.loopQueued)
	}
	cast(1000) // the log moves on: a second round trims the first's notices
	e.flushPresence(-1)
	drain()
	for i := range rcs {
		if !bytes.Equal(got[i], notices) {
			t.Fatalf("reader %d received %d bytes, not the %d bytes of notices cast, in order", i, len(got[i]), len(notices))
		}
	}
	if e.loopQueued != 0 {
		t.Fatalf("everything written, yet %d bytes are counted", e.loopQueued)
	}
}

// TestIdleReadersCostNoAllocation: the sweep writes an idle member's
// notices straight from the log when its kernel takes them all, with no
// piece or buffer of the connection's own: ten thousand idle users are
// written every round of a storm, and a piece lent to each made garbage
// for every one of them.
func TestIdleReadersCostNoAllocation(t *testing.T) {
	r := testReactor(t, Config{MaxOutput: 1 << 20})
	e := r.eng
	const readers = 8
	var peers []int
	for i := range readers {
		rc, peer := memberConn(t, r, fmt.Sprintf("r%d", i))
		rc.write()
		peers = append(peers, peer)
	}
	buf := make([]byte, 64<<10)
	drain := func() {
		for _, p := range peers {
			for {
				if n, _ := unix.Read(p, buf); n <= 0 {
					break
				}
			}
		}
	}
	drain()
	seg := segment.Name(segment.NewOnline, "someone")
	cast := &statemachine.Cast{Kind: statemachine.CastNotice, Seg: seg}
	round := func() {
		e.cast(cast)
		e.flushPresence(-1)
		drain()
	}
	round() // the log's arrays
	// AllocsPerRun counts the whole process's allocations, the reactor's
	// other goroutines' too (on a loaded machine one of them may allocate
	// during a run): the rounds allocate if every try saw allocations
	allocs := testing.AllocsPerRun(100, round)
	for try := 1; try < 5 && allocs > 0; try++ {
		allocs = min(allocs, testing.AllocsPerRun(100, round))
	}
	if allocs > 0 {
		t.Fatalf("a round of one notice to %d idle readers allocated %.1f times", readers, allocs)
	}
}

// TestLentListCountsOnce: the unread output the reactor counts against
// MaxOutputTotal holds a lent user list's array once, however many
// connections still have parts of it to write, and gives it back when the
// last of them has written it or closed; bytes a connection copied count
// as its own. The count never drifts: it is zero again when all are gone.
func TestLentListCountsOnce(t *testing.T) {
	r := testReactor(t, Config{MaxOutput: 1 << 20})
	e := r.eng
	seg := segment.Name(segment.SyncBegin, "abcdefghijklmnopqrstuvwxyz012") // 32 bytes
	f := &e.fan
	for len(f.list) < 40<<10 {
		f.list = seg.AppendTo(f.list)
	}
	size := int64(cap(f.list))
	var peers []int
	conn := func() *rconn {
		rc, peer := pairedConn(t, r)
		peers = append(peers, peer)
		return rc
	}
	a, b, c := conn(), conn(), conn()
	half := len(f.list) / 2
	a.lend(f.list[:half], memOf(&f.mem, f.list))
	a.lend(f.list[half:], memOf(&f.mem, f.list)) // the list's next chunk: the same array
	b.lend(f.list, memOf(&f.mem, f.list))
	own := seg.AppendTo(nil)
	c.sendBytes(own) // c's own bytes, then the list after them
	c.lend(f.list, memOf(&f.mem, f.list))
	if want := size + int64(len(own)); e.loopQueued != want {
		t.Fatalf("three connections lent one %d-byte array and one has %d bytes of its own: counted %d, want %d", size, len(own), e.loopQueued, want)
	}
	if a.held() != 0 {
		t.Errorf("closing a frees nothing (b and c hold the list too), yet held says %d", a.held())
	}
	// the list changes by copy once lent: a later lend is of another
	// array, lent behind the first by reference too and counted once more
	f.list = append([]byte(nil), f.list...)
	b.lend(f.list[:len(seg.AppendTo(nil))], memOf(&f.mem, f.list))
	if want := size + int64(cap(f.list)+len(own)); e.loopQueued != want {
		t.Fatalf("b holds parts of two arrays: counted %d, want %d", e.loopQueued, want)
	}
	if want := cap(f.list); b.held() != want {
		t.Errorf("closing b frees the second array only (a and c hold the first): held says %d, want %d", b.held(), want)
	}
	b.kill()
	if want := size + int64(len(own)); e.loopQueued != want {
		t.Fatalf("b closed; a and c still write the list: counted %d, want %d", e.loopQueued, want)
	}
	// a's client reads everything: a writes the list to the end
	drain := func(rc *rconn, peer int) {
		buf := make([]byte, 64<<10)
		for rc.unread() > 0 {
			rc.write()
			for {
				if n, _ := unix.Read(peer, buf); n <= 0 {
					break
				}
			}
		}
	}
	drain(a, peers[0])
	if want := size + int64(len(own)); e.loopQueued != want {
		t.Fatalf("a wrote the list; c has not: counted %d, want %d", e.loopQueued, want)
	}
	if want := len(own) + int(size); c.held() != want {
		t.Errorf("c is the list's last writer: closing it frees %d bytes, yet held says %d", want, c.held())
	}
	drain(c, peers[2])
	if e.loopQueued != 0 {
		t.Fatalf("everything written, yet %d bytes are counted", e.loopQueued)
	}
	a.kill()
	c.kill()
	if e.loopQueued != 0 {
		t.Fatalf("everyone closed, yet %d bytes are counted", e.loopQueued)
	}
}

// TestPiecesGoOutInOneWrite: a connection behind on its output holds its
// own segments between the notices lent to it; the reactor writes them
// together, in order, in one system call of at most a chunk (chunkDefault on a socket pair) ending
// on a segment, not one call per piece (a player in a login wave made a
// call for each few bytes).
func TestPiecesGoOutInOneWrite(t *testing.T) {
	r := testReactor(t, Config{MaxOutput: 1 << 20})
	e := r.eng
	rc, peer := pairedConn(t, r)
	t.Cleanup(rc.kill)

	var log []byte // the engine's notices: 32 bytes each
	for i := range 100 {
		log = segment.Name(segment.NewOnline, fmt.Sprintf("%029d", i)).AppendTo(log)
	}
	var mem *sharedMem
	m := memOf(&mem, log)
	var want []byte
	ownBytes := 0
	own := func(seg segment.Segment) {
		rc.send(seg)
		want = seg.AppendTo(want)
		ownBytes += seg.Size()
	}
	lent := func(from, to int) {
		rc.lend(log[32*from:32*to], m)
		want = append(want, log[32*from:32*to]...)
	}
	own(segment.Code(segment.SingleCoord, 1))
	lent(0, 2)
	own(segment.Code(segment.SingleCoord, 2))
	lent(3, 5) // the notice that skipped this connection left out
	own(segment.Code(segment.SingleCoord, 3))
	if iov := rc.gather(); len(iov) != 5 || int(iov[0].Len+iov[1].Len+iov[2].Len+iov[3].Len+iov[4].Len) != len(want) {
		t.Fatalf("%d bytes in five pieces: the next write gathers %d pieces", len(want), len(iov))
	}
	// many more than one write holds
	for i := 5; i+2 <= 100; i += 3 {
		lent(i, i+2)
		own(segment.Code(segment.SingleCoord, byte(i)))
	}
	iov := rc.gather()
	total := 0
	for _, v := range iov {
		total += int(v.Len)
	}
	if total > chunkDefault || total+32 <= chunkDefault && len(iov) < maxIovecs {
		t.Fatalf("a write of %d bytes in %d pieces, with more waiting (at most %d bytes, %d pieces)", total, len(iov), chunkDefault, maxIovecs)
	}
	if e.loopQueued != m.size+int64(ownBytes) {
		t.Fatalf("the log lent in %d pieces and %d bytes of the connection's own: counted %d, want %d", m.users, ownBytes, e.loopQueued, m.size+int64(ownBytes))
	}
	if want := int(m.size) + ownBytes; rc.held() != want {
		t.Fatalf("closing the log's only holder frees it once however many pieces it holds, and its own bytes: held says %d, want %d", rc.held(), want)
	}
	var got []byte
	buf := make([]byte, 64<<10)
	for rc.unread() > 0 {
		rc.write()
		for {
			n, _ := unix.Read(peer, buf)
			if n <= 0 {
				break
			}
			got = append(got, buf[:n]...)
		}
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the client read %d bytes, not the %d queued, in order", len(got), len(want))
	}
	if e.loopQueued != 0 || m.users != 0 {
		t.Fatalf("everything written, yet %d bytes are counted and %d pieces hold the log", e.loopQueued, m.users)
	}
}

// pairedConn is a reactor connection on one end of a socket pair, and the
// other end, its client's.
func pairedConn(t *testing.T, r *Reactor) (*rconn, int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fds[1]) })
	for len(r.fds) <= fds[0] {
		r.fds = append(r.fds, nil)
	}
	rc := &rconn{r: r, fd: int32(fds[0]), c: &conn{}}
	r.fds[fds[0]] = rc
	return rc, fds[1]
}

// memberConn is pairedConn opened on r's engine and joined to its online
// users as name, as a login makes it (its user list lent, not yet written).
func memberConn(t *testing.T, r *Reactor, name string) (*rconn, int) {
	t.Helper()
	rc, peer := pairedConn(t, r)
	t.Cleanup(rc.kill)
	rc.c = r.eng.open(rc, netip.MustParseAddr("127.0.0.1"), "127.0.0.1:1")
	r.eng.cast(&statemachine.Cast{Kind: statemachine.CastJoin, Conn: rc.c.id, Name: name})
	return rc, peer
}

// testReactor is a reactor that is never started: its connections are
// driven by hand. It shuts down with the test.
func testReactor(t *testing.T, cfg Config) *Reactor {
	t.Helper()
	r, err := NewReactor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return r
}

// TestWritesFollowTheMSS: the reactor writes a connection at most one
// packet's payload of whole segments at a time, sized by the MSS the
// kernel has for that connection: a client on loopback is written a 20 KB
// user list in one write (1,400-byte writes cost a login storm among
// 10,000 users most of the loop's CPU), and a client whose path allows
// only small packets gets writes that each fit one of them, as ever.
func TestWritesFollowTheMSS(t *testing.T) {
	r := testReactor(t, Config{MaxOutput: 1 << 20})
	lfd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(lfd) })
	if err := unix.Bind(lfd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(lfd, 4); err != nil {
		t.Fatal(err)
	}
	sa, _ := unix.Getsockname(lfd)
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*unix.SockaddrInet4).Port)

	// accept registers a connection from a client that advertises mss (0:
	// loopback's own) as the reactor's loop does, and returns it and the
	// client's end
	accept := func(mss int) (*rconn, net.Conn) {
		nc := dialMSS(t, addr, mss)
		fd, sa, err := unix.Accept4(lfd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		r.accepted = append(r.accepted, acceptedConn{fd: fd, sa: sa})
		r.register()
		rc := r.fds[fd]
		if rc == nil {
			t.Fatal("the accepted connection was not registered")
		}
		t.Cleanup(rc.kill)
		return rc, nc
	}

	var list []byte // 20 KB of names: a user list among 2,000
	for i := 0; len(list) < 20<<10; i++ {
		list = segment.Name(segment.SyncBegin, fmt.Sprintf("user%05d", i)).AppendTo(list)
	}
	for _, c := range []struct {
		name string
		mss  int
	}{{"loopback", 0}, {"small packets", 600}} {
		t.Run(c.name, func(t *testing.T) {
			rc, nc := accept(c.mss)
			mss := tcpMSS(int(rc.fd))
			if c.mss > 0 && mss > c.mss || c.mss == 0 && mss <= chunkDefault {
				t.Fatalf("the kernel's MSS for this connection is %d", mss)
			}
			if !rc.sendBytes(list) {
				t.Fatal("the list was refused")
			}
			rc.writeUpTo(1) // one write
			wrote := len(list) - rc.unread()
			if want := min(len(list), chunkFor(mss)); wrote > want || wrote+segment.MaxSegment <= want && wrote < len(list) {
				t.Fatalf("one write took %d bytes of %d; a packet (MSS %d) holds %d", wrote, len(list), mss, chunkFor(mss))
			}
			if c.mss == 0 && wrote != len(list) {
				t.Fatalf("on loopback (MSS %d) the list took more than one write: the first took %d of %d bytes", mss, wrote, len(list))
			}
			if c.mss > 0 && wrote > c.mss {
				t.Fatalf("a write of %d bytes to a client whose packets hold %d", wrote, c.mss)
			}
			rc.write()
			got := make([]byte, len(list))
			nc.SetReadDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.ReadFull(nc, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, list) {
				t.Fatal("the client read other bytes than the list")
			}
		})
	}
}

// TestNetWritesFollowTheMSS: the net transport's writer, too, hands the
// kernel at most one packet's payload of the connection's MSS at a time.
func TestNetWritesFollowTheMSS(t *testing.T) {
	tap := openTap{opened: make(chan statemachine.ConnID, 2)}
	tr := NewNetTransport(Config{Check: replay.DemoAccounts().Check, Tap: tap})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go tr.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		tr.Shutdown(ctx)
	})
	for _, c := range []struct {
		name string
		mss  int
	}{{"loopback", 0}, {"small packets", 600}} {
		t.Run(c.name, func(t *testing.T) {
			dialMSS(t, l.Addr().String(), c.mss)
			id := tap.wait(t, "the connection")
			type got struct{ chunk, mss int }
			ch := make(chan got, 1)
			tr.post(func() {
				n := tr.engine().conns[id].link.(*nconn)
				g := got{chunk: n.chunk}
				if sc, err := n.nc.(*net.TCPConn).SyscallConn(); err == nil {
					sc.Control(func(fd uintptr) { g.mss = tcpMSS(int(fd)) })
				}
				ch <- g
			})
			g := <-ch
			if g.chunk != chunkFor(g.mss) || c.mss > 0 && g.chunk > c.mss || c.mss == 0 && g.chunk <= chunkDefault {
				t.Fatalf("writes of up to %d bytes to a connection whose MSS is %d (the client asked for %d)", g.chunk, g.mss, c.mss)
			}
		})
	}
}

// dialMSS connects to addr as a client whose packets hold at most mss bytes
// (TCP_MAXSEG before connecting; 0: loopback's own), closed with the test.
func dialMSS(t *testing.T, addr string, mss int) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		if mss > 0 {
			c.Control(func(fd uintptr) { unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_MAXSEG, mss) })
		}
		return nil
	}}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}
