package main

import (
	"slices"
	"time"

	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// synthetic marks the clock lines runInProcess inserts for recorded timing
// (parsed lines are numbered from 1).
const synthetic = -1

// runInProcess replays entries through a fresh hub. With recorded timing
// the hub's clock is moved to every time stamp before that line is fed, so
// a capture's login timeouts and kick grace periods fire where they did;
// the inserted clock lines are left out of the result. A capture with "in"
// lines replays from those whatever the timing: they carry their times.
func runInProcess(cfg statemachine.Config, accounts replay.Accounts, entries []transcript.Entry, recorded bool) []transcript.Entry {
	if !recorded {
		return replay.Run(cfg, accounts, entries)
	}
	r := replay.New(cfg, accounts)
	r.Inputs(entries)
	var now time.Duration // the hub's time since the start
	for _, e := range entries {
		if e.At > now {
			r.Feed(transcript.Entry{At: -1, Op: transcript.Clock, Advance: e.At - now, Line: synthetic})
			now = e.At
		}
		if e.Op == transcript.Clock {
			now += e.Advance
		}
		r.Feed(e)
	}
	return slices.DeleteFunc(slices.Clone(r.Output()), func(e transcript.Entry) bool {
		return e.Op == transcript.Clock && e.Line == synthetic
	})
}
