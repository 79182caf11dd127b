//go:build linux

package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/bench/load"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// TestStillOnlineCountsTheDisconnected: when the server disconnects an
// idle client (a limit, a kick), the idle phase's figure per connection
// and a storm's "among N online" would be of fewer connections than they
// say, so the idle phase and the storm process fail and say how many.
func TestStillOnlineCountsTheDisconnected(t *testing.T) {
	addr, tr := servertest.Start(t, server.Config{
		Check:  func(_ context.Context, c statemachine.Check) statemachine.Answer { return statemachine.Found },
		Record: func(_ context.Context, fs []server.FinishedGame) (int, error) { return len(fs), nil },
	}, true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f := load.New(load.Config{Addr: addr, Seed: 1})
	defer f.Close(10 * time.Second)
	if err := f.Idle(ctx, 0, 3, 0); err != nil {
		t.Fatal(err)
	}
	if err := stillOnline(f, "3 idle clients"); err != nil {
		t.Fatalf("nobody was disconnected: %v", err)
	}
	if ok, err := tr.Kick(ctx, load.Name(1)); !ok || err != nil {
		t.Fatalf("kick: %v %v", ok, err)
	}
	for f.Counters().Closed == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the kicked client never saw its connection end")
		case <-time.After(10 * time.Millisecond):
		}
	}
	err := stillOnline(f, "3 idle clients")
	if err == nil || !strings.Contains(err.Error(), "1 of the 3 idle clients") {
		t.Fatalf("one of three disconnected: %v", err)
	}
}
