package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// dialSmall connects with a small receive buffer (set before the
// handshake, so the window stays small) and logs in as name without
// reading anything after the user list.
func dialSmall(t *testing.T, addr, name string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048) })
	}}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.Write(append(segment.Name(segment.Info, name).AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...))
	readUntil(t, nc, segment.SyncEnd)
	return nc
}

// TestGlobalOutputBound: the unread output of all connections together is
// bounded (limits.max_output_total). Two clients stop reading, well within
// their own bound; when their sum passes the global one, the one with more
// unread output (Larry, who stopped first) is disconnected, and the other
// and a client that reads are not.
func TestGlobalOutputBound(t *testing.T) {
	const total = 6 << 10
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			f := start(t, kind, statemachine.Config{}, func(c *server.Config) {
				c.MaxOutput = 1 << 20 // never reached here
				c.MaxOutputTotal = total
				c.SendBuffer = 4096
			})
			a := dialLogin(t, f.addr, "Albert")
			go io.Copy(io.Discard, a) // Albert reads everything
			dialSmall(t, f.addr, "Larry")
			churn := func() {
				// a login and logout of Beth sends everyone online two segments
				b, err := net.Dial("tcp", f.addr)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(append(segment.Name(segment.Info, "Beth").AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...))
				readUntil(t, b, segment.SyncEnd)
				b.Close()
			}
			for range 300 {
				churn() // Larry falls behind before Cindy joins
			}
			dialSmall(t, f.addr, "Cindy")
			for i := range 5000 {
				churn()
				if i%10 != 9 {
					continue
				}
				ss, err := f.tr.Sessions(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if !online(ss, "Larry") {
					if !online(ss, "Cindy") || !online(ss, "Albert") {
						t.Fatalf("Larry had the most unread output, yet others went too: %+v", ss)
					}
					t.Logf("Larry disconnected after %d more logins", i+1)
					return
				}
			}
			t.Fatal("unread output past max_output_total, yet nobody was disconnected")
		})
	}
}

// longestName is user i of a kind, padded to 29 bytes, the longest a
// name may be: each notice or list entry of it is a whole 32-byte segment.
func longestName(kind string, i int) string {
	return fmt.Sprintf("%s-%0*d", kind, 28-len(kind), i)
}

// TestSharedUserListCountsOnce: every login is lent the same user list
// (the reactor writes it from the engine's copy), and that memory counts
// against limits.max_output_total once, not once per client that has not
// read it yet. Here 1,000 users are online, so a newcomer's list is 32 KB;
// 16 newcomers read nothing, so each still owes most of it, 16 times over
// the bound in all, while the daemon holds one or two copies of the list.
// Nobody may be disconnected for that. (Counted per client, a login wave
// among 10,000 users closed 440 clients that read a little slowly.)
func TestSharedUserListCountsOnce(t *testing.T) {
	const (
		readers    = 1000
		newcomers  = 16
		totalBound = 192 << 10
	)
	name := longestName
	accounts := replay.Accounts{}
	for i := range readers {
		accounts[name("reader", i)] = "123"
	}
	for i := range newcomers + 1 {
		accounts[name("newbie", i)] = "123"
	}
	f := startWith(t, reactor, statemachine.Config{}, accounts, func(c *server.Config) {
		c.MaxConns = readers + newcomers + 10
		c.MaxOutput = 1 << 20 // never reached here
		c.MaxOutputTotal = totalBound
		c.SendBuffer = 4096
	})
	for i := range readers {
		nc := dialLogin(t, f.addr, name("reader", i))
		go io.Copy(io.Discard, nc) // readers read everything
	}
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048) })
	}}
	var quiet []string
	loggedIn := []byte{0x01, 0, 1, 1, 0x03, 0, 1, 1} // InfoResp OK, PasswdResp OK
	for i := range newcomers {
		nc, err := d.Dial("tcp", f.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		write(t, nc, segment.Name(segment.Info, name("newbie", i)), segment.Name(segment.Passwd, "123"))
		got := make([]byte, len(loggedIn)) // the answers, and not a byte of the list after them
		nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(nc, got); err != nil || !bytes.Equal(got, loggedIn) {
			t.Fatalf("newcomer %d: % x, %v", i, got, err)
		}
		quiet = append(quiet, name("newbie", i))
	}
	// one more login, which reads: the loop has gone round since the last
	// quiet newcomer's list was queued
	dialLogin(t, f.addr, name("newbie", newcomers))
	ss, err := f.tr.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range quiet {
		if !online(ss, n) {
			t.Errorf("%s was disconnected: one shared user list was counted once per newcomer", n)
		}
	}
}

// TestSharedNoticesCountOnce: the presence notices a connection has not
// written yet are lent from the engine's one log, not copied into each
// connection's output, and count against limits.max_output_total once.
// 24 users stop reading; 500 others log in and out, two 32-byte notices
// each, 32 KB that every one of the 24 owes (less what the kernel holds
// for it). Copied per connection, that was 24 times as much and over the
// bound, and the daemon disconnected them; in a login wave among 18,800
// users it held 1.4 GB of such copies. Lent, the log's arrays peak at
// 50-75 KB here.
func TestSharedNoticesCountOnce(t *testing.T) {
	const (
		quiet      = 24
		churns     = 500
		totalBound = 192 << 10
	)
	name := longestName
	accounts := replay.Accounts{}
	for i := range quiet {
		accounts[name("quiet", i)] = "123"
	}
	accounts[name("churn", 0)] = "123"
	f := startWith(t, reactor, statemachine.Config{}, accounts, func(c *server.Config) {
		c.MaxOutput = 1 << 20 // never reached here
		c.MaxOutputTotal = totalBound
		c.SendBuffer = 4096
	})
	var ncs []net.Conn
	for i := range quiet {
		ncs = append(ncs, dialSmall(t, f.addr, name("quiet", i)))
	}
	for range churns {
		b, err := net.Dial("tcp", f.addr)
		if err != nil {
			t.Fatal(err)
		}
		write(t, b, segment.Name(segment.Info, name("churn", 0)), segment.Name(segment.Passwd, "123"))
		readUntil(t, b, segment.SyncEnd)
		b.Close()
	}
	ss, err := f.tr.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range quiet {
		if !online(ss, name("quiet", i)) {
			t.Fatalf("%s was disconnected: the notices it owes were counted once per connection", name("quiet", i))
		}
	}
	// and each of them gets every notice, in order, once it reads
	n := 0
	got := readSegs(t, ncs[quiet-1], func(segment.Segment) bool { n++; return n == 2*churns })
	for i, seg := range got {
		want := segment.Name([]segment.Type{segment.NewOnline, segment.NewOffline}[i%2], name("churn", 0))
		if seg.Type != want.Type || !bytes.Equal(seg.Payload(), want.Payload()) {
			t.Fatalf("notice %d is %v, want %v", i, seg, want)
		}
	}
}
