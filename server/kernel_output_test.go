package server_test

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// TestNeverReaderClosedNearTheBound: a client that logs in and never reads
// again is closed once the output it has not read passes
// limits.max_output_bytes by a bounded factor, counting what the kernel
// holds for it: the send buffer is bounded (SO_SNDBUF) and its
// unacknowledged bytes count against the limit. Left to the kernel, the
// send buffer grew to 4 MiB, and such a client held 15 times the bound
// before it was closed. Output comes from presence: every login and logout
// of another user is two 32-byte notices.
func TestNeverReaderClosedNearTheBound(t *testing.T) {
	const (
		bound  = 256 << 10 // the default limits.max_output_bytes
		factor = 3         // what the client's own receive buffer and the net transport's one-second grace add
	)
	// several churners: the net transport may not have seen a logout yet
	// when the same name logs in again
	churner := func(i int) string { return longestName("churn", i%8) }
	accounts := replay.Accounts{"Larry": "123"}
	for i := range 8 {
		accounts[churner(i)] = "123"
	}
	for _, kind := range []transportKind{reactor, netpkg} {
		t.Run(string(kind), func(t *testing.T) {
			f := startWith(t, kind, statemachine.Config{}, accounts, func(c *server.Config) { c.MaxOutput = bound })
			larry := dialLogin(t, f.addr, "Larry") // reads its user list, then nothing
			produced := 0
			for i := 0; produced <= 2*factor*bound; i++ {
				b, err := net.Dial("tcp", f.addr)
				if err != nil {
					t.Fatal(err)
				}
				write(t, b, segment.Name(segment.Info, churner(i)), segment.Name(segment.Passwd, "123"))
				readUntil(t, b, segment.SyncEnd)
				b.Close()
				produced += 2 * 32
				if i%50 != 49 {
					continue
				}
				ss, err := f.tr.Sessions(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if online(ss, "Larry") {
					continue
				}
				// closed: what reaches Larry now is what the kernels
				// held (the daemon's send buffer and Larry's receive
				// buffer); the rest was dropped with the connection
				larry.SetReadDeadline(time.Now().Add(10 * time.Second))
				held, _ := io.Copy(io.Discard, larry)
				t.Logf("closed with %d bytes unread (%.2fx max_output_bytes), %d of them in the kernels", produced, float64(produced)/bound, held)
				if produced > factor*bound {
					t.Fatalf("closed only after %d unread bytes, %.1f times max_output_bytes (%d)", produced, float64(produced)/bound, bound)
				}
				return
			}
			t.Fatalf("still open with %d bytes unread, %d times max_output_bytes", produced, 2*factor)
		})
	}
}
