//go:build linux

package main

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestAttackSet runs every attack of the set for a short while against a
// bomberd built from this tree (under a 1,024-descriptor limit, default
// limits) and checks what a user would notice: each attack's aim is
// defeated (the game port answers while the web port is flooded, a
// foreign Host is refused, no control character reaches another user, the
// owner logs in under a lock-out attempt, never-readers are closed near
// the output bound, an honest table's computer answers promptly, the admin
// listener answers nobody without the token and keeps answering health
// checks, Ping is answered while peers are frozen), the witness logged in
// every time, and bomberd's descriptors stayed under the limit. Removing
// one of those defences fails it.
func TestAttackSet(t *testing.T) {
	if testing.Short() {
		t.Skip("starts bomberd and attacks it for about 30 s")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the runner reads /proc and binds 127.0.0.x source addresses")
	}
	bin := filepath.Join(t.TempDir(), "bomberd")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/bomberd").CombinedOutput(); err != nil {
		t.Fatalf("building bomberd: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := runSet(ctx, options{bin: bin, duration: 2500 * time.Millisecond}, testLog{t})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(attacks) {
		t.Fatalf("%d attacks ran, %d in the set", len(res), len(attacks))
	}
	for _, r := range res {
		if !r.defeated {
			t.Errorf("%s: the attack's aim was not defeated: %s", r.name, r.aim)
		}
		if !r.witnessesOK() {
			t.Errorf("%s: witness logins %d of %d (%v)", r.name, r.witness.ok(), r.witness.total(), r.witness.failures)
			if r.owner != nil {
				t.Errorf("%s: the owner's logins %d of %d (%v)", r.name, r.owner.ok(), r.owner.total(), r.owner.failures)
			}
		}
		if r.use.fds == 0 || r.use.fds >= nofile {
			t.Errorf("%s: bomberd held %d descriptors at most (limit %d)", r.name, r.use.fds, nofile)
		}
	}
	if t.Failed() {
		printTable(testLog{t}, res, 2500*time.Millisecond)
	}
}

// testLog writes the runner's progress to the test's log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) { l.t.Logf("%s", p); return len(p), nil }

var _ io.Writer = testLog{}
