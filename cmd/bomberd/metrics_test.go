package main

import (
	"testing"
	"time"

	"github.com/bomber-game/bomber/statemachine"
)

// The account workers time every check beside the engine's loop, thousands
// a second in a login storm: timing one builds nothing (a label replacer
// made for each check had been 29% of the workers' CPU in a storm).
func TestCheckLatencyBuildsNothing(t *testing.T) {
	m := newMetrics()
	observe := func() { m.CheckLatency(statemachine.Verify, time.Millisecond, statemachine.WrongPassword) }
	observe() // the series exists from here on
	if n := testing.AllocsPerRun(100, observe); n > 1 {
		t.Errorf("timing a check allocated %v times; want at most once (the label values)", n)
	}
}
