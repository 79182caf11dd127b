package load

import (
	"net"
	"testing"

	"golang.org/x/sys/unix"
)

// A client dialing from a source address of the fleet's leaves its port to
// connect(2), so ports that an earlier daemon's connections hold in
// TIME_WAIT do not run the next phase out of them.
func TestDialFromSourceLeavesPortToConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f := &Fleet{cfg: Config{Sources: []string{"127.0.0.2", "127.0.0.3"}}}
	for i, want := range []string{"127.0.0.2", "127.0.0.3"} {
		d := f.dialer(i)
		conn, err := d.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if got := conn.LocalAddr().(*net.TCPAddr).IP.String(); got != want {
			t.Errorf("client %d dialed from %s, want %s", i, got, want)
		}
		raw, err := conn.(*net.TCPConn).SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var v int
		var serr error
		raw.Control(func(fd uintptr) {
			v, serr = unix.GetsockoptInt(int(fd), unix.IPPROTO_IP, unix.IP_BIND_ADDRESS_NO_PORT)
		})
		if serr != nil || v != 1 {
			t.Errorf("client %d: IP_BIND_ADDRESS_NO_PORT = %d (%v), want 1", i, v, serr)
		}
	}
}
