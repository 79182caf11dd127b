package main

import "testing"

// TestLoopKeepsAP: the reactor daemon runs with at least two Ps and hashes
// at most one password fewer at once than it has Ps, so the engine loop
// never waits for a P behind argon2id; it adds no P beyond the CPUs it
// may use (two at least), and never hashes fewer than one at a time.
func TestLoopKeepsAP(t *testing.T) {
	for _, c := range []struct{ cpus, maxConcurrent, procs, slots int }{
		{cpus: 1, maxConcurrent: 2, procs: 2, slots: 1}, // pinned to one CPU
		{cpus: 1, maxConcurrent: 1, procs: 2, slots: 1},
		{cpus: 2, maxConcurrent: 2, procs: 2, slots: 1}, // the account workers have one CPU to themselves
		{cpus: 3, maxConcurrent: 2, procs: 3, slots: 2},
		{cpus: 8, maxConcurrent: 2, procs: 8, slots: 2},
		{cpus: 8, maxConcurrent: 16, procs: 8, slots: 7},
	} {
		procs, slots := loopShares(c.cpus, c.maxConcurrent)
		if procs != c.procs || slots != c.slots {
			t.Errorf("%d CPUs, max_concurrent %d: GOMAXPROCS %d and %d hashes at once, want %d and %d", c.cpus, c.maxConcurrent, procs, slots, c.procs, c.slots)
		}
	}
}
