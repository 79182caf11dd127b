package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// openFiles counts a process's descriptors and reads its resident size.
func openFiles(t *testing.T, pid int) (fds int, rss string) {
	t.Helper()
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skip(err)
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			rss = strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:"))
		}
	}
	return len(ents), rss
}

// TestWebListenerCannotStarveGamePort: under an open-file limit of 256,
// 320 keep-alive HTTP connections to the web port from 8 addresses, each
// served once and then idle, do not take the descriptors the game port
// needs: a login there is answered. The web listener's connections are
// bounded and counted when max_connections is fitted to the limit (more
// wait in the kernel's backlog). Before, the web listener took every
// descriptor, and the login got no answer (accept4: too many open files).
func TestWebListenerCannotStarveGamePort(t *testing.T) {
	const (
		nofile  = 256
		sources = 8
		each    = 40
	)
	d := startDaemonWith(t, nofile, "BOMBER_LOG_LEVEL=info")
	web := logged(d.log.String(), "web listening")
	if web == "" {
		t.Fatalf("no web listener:\n%s", d.log.String())
	}
	fds0, rss0 := openFiles(t, d.cmd.Process.Pid)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		conns  []net.Conn
		served atomic.Int32
	)
	for s := range sources {
		local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+s))}
		for range each {
			wg.Add(1)
			go func() {
				defer wg.Done()
				nc, err := (&net.Dialer{LocalAddr: local, Timeout: 5 * time.Second}).Dial("tcp", web)
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, nc)
				mu.Unlock()
				nc.Write([]byte("GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
				nc.SetReadDeadline(time.Now().Add(3 * time.Second)) // those waiting in the backlog stay unanswered
				if resp, err := http.ReadResponse(bufio.NewReader(nc), nil); err == nil {
					resp.Body.Close()
					served.Add(1) // now an idle keep-alive connection
				}
				nc.SetReadDeadline(time.Time{})
			}()
		}
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, nc := range conns {
			nc.Close()
		}
	})
	fds, rss := openFiles(t, d.cmd.Process.Pid)
	t0 := time.Now()
	c := dial(t, d.addr)
	c.wait = 5 * time.Second
	if code := c.login("Albert", "123"); code != 1 {
		t.Fatalf("login: code %d", code)
	}
	t.Logf("%d web connections open, %d served; bomberd holds %d descriptors (%d before), RSS %s (%s before); a game-port login took %v",
		len(conns), served.Load(), fds, fds0, rss, rss0, time.Since(t0))
	if fds >= nofile-8 {
		t.Errorf("bomberd holds %d descriptors of %d", fds, nofile)
	}
}
