//go:build linux

package server_test

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
)

// keepaliveTimer finds the daemon's side of the loopback connection from
// client port cport to server port sport in /proc/net/tcp and returns its
// timer: which one runs (2 is keepalive) and when it fires.
func keepaliveTimer(t *testing.T, sport, cport int) (timer int, in time.Duration) {
	t.Helper()
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Skip(err)
	}
	local, remote := fmt.Sprintf("0100007F:%04X", sport), fmt.Sprintf("0100007F:%04X", cport)
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != local || f[2] != remote {
			continue
		}
		tr, when, _ := strings.Cut(f[5], ":")
		timer, _ := strconv.ParseInt(tr, 16, 32)
		ticks, _ := strconv.ParseInt(when, 16, 64)
		return int(timer), time.Duration(ticks) * time.Second / 100 // USER_HZ
	}
	t.Fatalf("no socket %s -> %s in /proc/net/tcp", local, remote)
	return 0, 0
}

// TestGameSocketsKeptAlive: every accepted game socket has TCP keepalive
// on with the documented idle time, so a client whose host vanished
// without closing is found out within two minutes, not never.
func TestGameSocketsKeptAlive(t *testing.T) {
	for _, kind := range []transportKind{reactor, netpkg} {
		t.Run(string(kind), func(t *testing.T) {
			f := start(t, kind, statemachine.Config{}, nil)
			nc := dialLogin(t, f.addr, "Albert") // logged in: the daemon has set the socket up
			sport := nc.RemoteAddr().(*net.TCPAddr).Port
			cport := nc.LocalAddr().(*net.TCPAddr).Port
			timer, in := keepaliveTimer(t, sport, cport)
			if timer != 2 {
				t.Fatalf("the daemon's socket runs timer %d, want the keepalive timer (2)", timer)
			}
			if in > server.KeepAliveIdle || in < server.KeepAliveIdle-10*time.Second {
				t.Fatalf("first keepalive probe in %v, want about %v", in, server.KeepAliveIdle)
			}
		})
	}
}
