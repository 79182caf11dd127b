package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

// stopDaemon stops d with SIGTERM and waits, leaving its cleanup nothing to do.
func stopDaemon(t *testing.T, d *proc) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-d.done; err != nil {
		t.Fatalf("bomberd exited with %v\n%s", err, d.log.String())
	}
	d.done <- nil
}

// TestDemoAccountsOnlyOnLoopback: a fresh store gets the demo accounts only
// while every game listener is on loopback. Listening on every interface
// (the default listen, :20343, in the form of :0 here) creates none, and a
// store that has them refuses their password 123 once the daemon listens
// beyond loopback.
func TestDemoAccountsOnlyOnLoopback(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	public := []string{"BOMBER_LISTEN=:0", "BOMBER_STORE_SQLITE_PATH=" + db}

	d := startDaemon(t, public...)
	if code := dial(t, d.addr).login("Novate", "123"); code == segment.CodeOK {
		t.Fatal("demo account Novate/123 logs in on a fresh store listening on every interface")
	}
	if !strings.Contains(d.log.String(), "no demo accounts, since a listener is not on loopback") {
		t.Errorf("the log does not say why there are no demo accounts:\n%s", d.log.String())
	}
	stopDaemon(t, d)

	d = startDaemon(t, "BOMBER_STORE_SQLITE_PATH="+db) // startDaemon listens on 127.0.0.1
	if code := dial(t, d.addr).login("Novate", "123"); code != segment.CodeOK {
		t.Fatalf("demo account on loopback: code %d", code)
	}
	if !strings.Contains(d.log.String(), "created the demo accounts") || !strings.Contains(d.log.String(), "--listen :20343") {
		t.Errorf("the log does not say how to open the daemon up:\n%s", d.log.String())
	}
	stopDaemon(t, d)

	d = startDaemon(t, public...)
	if code := dial(t, d.addr).login("Novate", "123"); code == segment.CodeOK {
		t.Fatal("demo password 123 accepted on a public listener")
	}
	stopDaemon(t, d)

	// the web listener is a way in too: public web, loopback game port
	d = startDaemon(t, "BOMBER_STORE_SQLITE_PATH="+db, "BOMBER_WEB_LISTEN=:0")
	if code := dial(t, d.addr).login("Novate", "123"); code == segment.CodeOK {
		t.Fatal("demo password 123 accepted while the web listener is public")
	}
	if !strings.Contains(d.log.String(), "their password 123 is refused") {
		t.Errorf("no warning about the demo accounts:\n%s", d.log.String())
	}
}
