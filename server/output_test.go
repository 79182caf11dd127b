package server_test

import (
	"context"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
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
