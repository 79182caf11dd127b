//go:build linux

package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRetryIsBounded: a failing phase runs at most attempts times and the
// error says how often; one that recovers is not reported; a cancelled
// context stops at once.
func TestRetryIsBounded(t *testing.T) {
	boom := errors.New("login read timed out")
	calls := 0
	err := retry(context.Background(), "reactor idle phase", 3, func(int) error { calls++; return boom })
	if calls != 3 || !errors.Is(err, boom) || !strings.Contains(err.Error(), "after 3 attempt(s)") {
		t.Errorf("always failing: %d calls, %v", calls, err)
	}
	var seen []int
	err = retry(context.Background(), "x", 3, func(a int) error {
		seen = append(seen, a)
		if a == 0 {
			return boom
		}
		return nil
	})
	if err != nil || len(seen) != 2 || seen[1] != 1 {
		t.Errorf("recovering on the second attempt: attempts %v, %v", seen, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls = 0
	retry(ctx, "x", 3, func(int) error { calls++; return boom })
	if calls != 1 {
		t.Errorf("cancelled: %d calls, want 1", calls)
	}
}

// TestTimeoutsScale: the login timeout grows with the connections, the
// machine's load and the attempt; the logins at once shrink per attempt.
func TestTimeoutsScale(t *testing.T) {
	if !(loginTimeout(10000, 1, 0) > loginTimeout(100, 1, 0)) {
		t.Error("the timeout does not grow with the connections")
	}
	if !(loginTimeout(10000, 3, 0) > loginTimeout(10000, 1, 0)) {
		t.Error("the timeout does not grow with the load")
	}
	if !(loginTimeout(10000, 1, 1) > loginTimeout(10000, 1, 0)) {
		t.Error("the timeout does not grow with the attempt")
	}
	if loginTimeout(10000, 0.2, 0) < loginTimeout(10000, 1, 0) {
		t.Error("an idle machine shortens the timeout below the base")
	}
	if !(concurrency(1) < concurrency(0)) || concurrency(10) < 1 {
		t.Errorf("concurrency %d, %d, %d", concurrency(0), concurrency(1), concurrency(10))
	}
}

// TestFailedRunKeepsLogs: when a phase fails every attempt, the run's
// temporary folder stays, the error names it, and the daemon's log is in it.
func TestFailedRunKeepsLogs(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the kept folder goes here, removed after the test
	fake := filepath.Join(t.TempDir(), "bomberd")
	os.WriteFile(fake, []byte("#!/bin/sh\necho 'fake bomberd: cannot start' >&2\nexit 1\n"), 0o755)
	o := options{idle: []int{3}, transports: []string{"reactor"}, bomberd: fake, window: time.Second, attempts: 2, slow: 1}
	err := run(o)
	if err == nil {
		t.Fatal("a run whose daemon cannot start succeeded")
	}
	m := regexp.MustCompile(`kept in (\S+)`).FindStringSubmatch(err.Error())
	if m == nil || !strings.Contains(err.Error(), "after 2 attempt(s)") {
		t.Fatalf("the error does not say where the logs are or how often it tried: %v", err)
	}
	logs, _ := filepath.Glob(filepath.Join(m[1], "bomberd-reactor-*", "bomberd.log"))
	if len(logs) != 2 {
		t.Fatalf("want the two attempts' daemon logs in %s, found %v", m[1], logs)
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), "cannot start") {
		t.Errorf("the kept log lacks the daemon's output: %q", b)
	}
}

// TestPeakRSSIsAtLeastRSS: the peak the idle phase reports (VmHWM) is read
// from the same process status as the RSS, and is never below it.
func TestPeakRSSIsAtLeastRSS(t *testing.T) {
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = 1 // touched: 64 MiB of RSS at once
	}
	now, err := rss(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	peak, err := peakRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if now < 64<<20 || peak < now {
		t.Fatalf("RSS %d, peak %d: want a peak of at least the RSS, which holds 64 MiB", now, peak)
	}
	runtime.KeepAlive(buf)
	if _, err := statusBytes(os.Getpid(), "VmNoSuchField"); err == nil {
		t.Fatal("a field the kernel does not report was read as a size")
	}
}
