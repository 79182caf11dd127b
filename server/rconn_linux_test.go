//go:build linux

package server

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/segment"
)

// TestWrittenOutputHoldsNoBuffer: a connection that fell behind keeps the
// notices the kernel did not take in a buffer of its own; once the client
// has read them all, the connection holds no buffer any more. Its output
// was once consumed by reslicing, which left an empty slice in the
// buffer's array, and so the array, whenever the copy had filled its
// allocation exactly: after a login wave ten thousand idle users each kept
// one, 40% more heap per connection. Lengths in steps of one segment hit
// such sizes.
func TestWrittenOutputHoldsNoBuffer(t *testing.T) {
	r, err := NewReactor(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
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
		log := bytes.Clone(notices) // writeNow is handed the engine's shared log
		rc.writeNow(log)
		if rc.unread() == 0 {
			t.Fatalf("%d bytes written at once; the test needs some left for later", len(notices))
		}
		clear(log) // the engine's log moves on: what is left must be a copy
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
