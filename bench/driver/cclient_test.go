//go:build linux

package main

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/bench/relay"
)

// cclient builds the minimal C client for a test. In CI (CI=true) a missing
// compiler fails the test instead of skipping it.
func cclient(t *testing.T) string {
	t.Helper()
	bin, err := buildCClient(context.Background(), t.TempDir())
	if err == errNoCompiler && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// relayAt runs the minimal relay on loopback for the test.
func relayAt(t *testing.T) string {
	t.Helper()
	r, done, err := relay.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return r.Addr()
}

// TestCClientMeasuresTheRelay: the minimal C client pairs its games on the
// relay, plays them open loop at the rate asked (not faster) and brings back
// a latency and a lateness for every guess of its window; two runs on one
// relay keep their games apart.
func TestCClientMeasuresTheRelay(t *testing.T) {
	bin := cclient(t)
	addr := relayAt(t)
	const rate = 2000
	for _, prefix := range []string{"a-", "b-"} {
		lr, err := runCClient(context.Background(), bin, addr, prefix, 10, rate, 300*time.Millisecond, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if lr.achieved > rate*1.1 || lr.achieved < rate/2 {
			t.Errorf("%s: relayed %.0f guesses/s at a rate of %d", prefix, lr.achieved, rate)
		}
		if got := float64(lr.Count); got < lr.achieved*0.9 || got > lr.achieved*1.1 {
			t.Errorf("%s: %d latencies for %.0f guesses relayed", prefix, lr.Count, lr.achieved)
		}
		if lr.P50 <= 0 || lr.P99 < lr.P50 || lr.late.Count == 0 {
			t.Errorf("%s: latency %+v, lateness %+v", prefix, lr.Latency, lr.late)
		}
	}
}

// TestCClientSaysWhatFailed: a server that pairs the games and then hangs
// up, or no server at all, is an error that carries the C client's words.
func TestCClientSaysWhatFailed(t *testing.T) {
	bin := cclient(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			// read the Info, answer PasswdResp(1) as the relay does, hang up
			b := make([]byte, 64)
			if _, err := c.Read(b); err == nil {
				c.Write([]byte{0x03, 0x00, 0x01, 0x01})
			}
			c.Close()
		}
	}()
	_, err = runCClient(context.Background(), bin, ln.Addr().String(), "x-", 1, 1000, 0, 30*time.Second)
	if err == nil || !strings.Contains(err.Error(), "closed a connection") {
		t.Errorf("server hung up: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = runCClient(context.Background(), bin, addr, "y-", 1, 1000, 0, time.Second)
	if err == nil || !strings.Contains(err.Error(), "connect") {
		t.Errorf("no server: %v", err)
	}
}
