package statemachine_test

import (
	"bytes"
	"testing"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// FuzzInputs feeds a hub a log of inputs in their wire form (what the
// daemon's engine logs and a capture's "in" lines hold), or a capture
// itself: data that parses as a transcript with "in" lines is replaced by
// those lines' inputs, so a capture from production goes into the corpus as
// it is (testdata/fuzz/FuzzInputs). The hub's invariants hold after every
// input, and a copy restored from a snapshot at the end is the same hub.
func FuzzInputs(f *testing.F) {
	f.Add(inputLog())
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		runInputs(t, data)
	})
}

// TestInputsSeed runs FuzzInputs' property on its seed without the fuzzer.
func TestInputsSeed(t *testing.T) { runInputs(t, inputLog()) }

// inputLog is two users logging in and one creating a private checkers
// table, as wire-form inputs.
func inputLog() []byte {
	var b []byte
	var at int64
	add := func(in statemachine.Input) {
		at += 1e6
		b = statemachine.AppendInput(b, at, &in)
	}
	add(statemachine.SeedInput(3))
	add(statemachine.ConfigInput(statemachine.Config{LoginTimeout: 30e9}))
	for c, name := range []string{"", "Albert", "Beth"} {
		if c == 0 {
			continue
		}
		conn := statemachine.ConnID(c)
		add(statemachine.Input{Kind: statemachine.InOpen, Conn: conn, Text: "127.0.0.1"})
		for _, s := range segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureTables}.Append(nil)) {
			add(statemachine.Input{Kind: statemachine.InReceive, Conn: conn, Seg: s})
		}
		add(statemachine.Input{Kind: statemachine.InReceive, Conn: conn, Seg: segment.Name(segment.Info, name)})
		add(statemachine.Input{Kind: statemachine.InAnswer, Check: uint64(2*c - 1), Answer: statemachine.Found})
		add(statemachine.Input{Kind: statemachine.InReceive, Conn: conn, Seg: segment.Name(segment.Passwd, "x")})
		add(statemachine.Input{Kind: statemachine.InAnswer, Check: uint64(2 * c), Answer: statemachine.Found})
	}
	for _, s := range segment.AppendMessage(nil, segment.Create, segment.CreateMsg{Game: "checkers", Seats: 2, Flags: segment.FlagPrivate}.Append(nil)) {
		add(statemachine.Input{Kind: statemachine.InReceive, Conn: 1, Seg: s})
	}
	add(statemachine.Input{Kind: statemachine.InTableTick, Table: 1})
	add(statemachine.Input{Kind: statemachine.InTick})
	add(statemachine.Input{Kind: statemachine.InClosed, Conn: 2})
	return b
}

func runInputs(t *testing.T, data []byte) {
	log := data
	if es, err := transcript.Parse(bytes.NewReader(data)); err == nil {
		if in := replay.InputLog(es); len(in) > 0 {
			log = in
		}
	}
	cfg := statemachine.Config{Games: statemachine.Catalogue(), MaxTables: 6, MaxWatchers: 3}
	h := statemachine.New(cfg)
	var now int64
	var in statemachine.Input
	for n := 0; len(log) > 0 && n < 5000; n++ {
		at, rest, err := statemachine.ReadInput(log, &in)
		if err != nil {
			break
		}
		log, now = rest, max(now, at) // the shell's clock never goes back
		h.Step(now, in)
		h.Advance()
		if err := h.CheckInvariants(); err != nil {
			t.Fatalf("after input %d (%s): %v", n, in.Kind, err)
		}
	}
	snapshotTwin(t, h, nil, cfg)
}
