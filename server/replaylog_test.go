package server

import (
	"errors"
	"testing"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// TestReplayLogOrder: a replay's log delivers the capture's inputs in the
// capture's order and at its times: what is not a connection's own at
// once, a connection's input once the connection did it (whatever the
// order the connections did things in), an input after a connection was
// let go of once the shell let go of it; the engine's own ticks and seeds
// are dropped. A connection that does something else stops the replay.
func TestReplayLogOrder(t *testing.T) {
	info := func(name string) segment.Segment {
		s, err := segment.Raw(segment.Info, []byte(name))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	capture := []statemachine.Input{
		{Kind: statemachine.InSeed, Seed: [32]byte{1}},
		{Kind: statemachine.InOpen, Conn: 1, Text: "127.0.0.1"},
		{Kind: statemachine.InOpen, Conn: 2, Text: "127.0.0.1"},
		{Kind: statemachine.InReceive, Conn: 1, Seg: info("Beth")},
		{Kind: statemachine.InTick},
		{Kind: statemachine.InReceive, Conn: 2, Seg: info("Cindy")},
		{Kind: statemachine.InAnswer, Check: 1, Answer: statemachine.Found}, // c1 let go of before it
		{Kind: statemachine.InClosed, Conn: 1},
	}
	var ins []ReplayInput
	for i, in := range capture {
		ri := ReplayInput{Data: statemachine.AppendInput(nil, int64(100*(i+1)), &in)}
		if in.Kind == statemachine.InAnswer {
			ri.LetGo = []statemachine.ConnID{1}
		}
		ins = append(ins, ri)
	}
	newLog := func() *ReplayLog {
		l, err := NewReplayLog(ins, nil)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	delivered := func(l *ReplayLog) (kinds []statemachine.InputKind, times []int64) {
		var in statemachine.Input
		for _, e := range l.Take(nil) {
			d := e.Data[1:] // one batch, after its uvarint length (short here)
			if err := statemachine.ReadBatch(d, &in, func(at int64, in *statemachine.Input) {
				kinds, times = append(kinds, in.Kind), append(times, at)
			}); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	engine := func(l *ReplayLog, ins ...statemachine.Input) {
		b := statemachine.AppendBatchHeader(nil, 0, 5)
		for _, in := range ins {
			b = statemachine.AppendInput(b, 0, &in)
		}
		l.Append(b)
	}
	l := newLog()
	engine(l, statemachine.Input{Kind: statemachine.InSeed, Seed: [32]byte{9}}, statemachine.Input{Kind: statemachine.InTick})
	if k, at := delivered(l); len(k) != 1 || k[0] != statemachine.InSeed || at[0] != 100 {
		t.Fatalf("before any connection: %v at %v, want the capture's seed at 100", k, at)
	}
	// c2 opens and speaks first; c1 follows: the capture's order holds
	engine(l, capture[2], capture[5])
	if k, _ := delivered(l); len(k) != 0 {
		t.Fatalf("delivered %v before c1 opened", k)
	}
	engine(l, capture[1], capture[3])
	k, at := delivered(l)
	want := []statemachine.InputKind{statemachine.InOpen, statemachine.InOpen, statemachine.InReceive, statemachine.InTick, statemachine.InReceive}
	if len(k) != len(want) || at[0] != 200 || at[4] != 600 {
		t.Fatalf("delivered %v at %v, want %v at 200..600", k, at, want)
	}
	for i := range want {
		if k[i] != want[i] {
			t.Fatalf("delivered %v, want %v", k, want)
		}
	}
	// the answer waits until the shell let go of c1
	engine(l, statemachine.Input{Kind: statemachine.InAnswer, Check: 1, Answer: statemachine.NotFound})
	if k, _ := delivered(l); len(k) != 0 {
		t.Fatalf("delivered %v with c1 still held", k)
	}
	engine(l, capture[7])
	if k, _ := delivered(l); len(k) != 2 || k[0] != statemachine.InAnswer || k[1] != statemachine.InClosed {
		t.Fatalf("delivered %v, want the capture's answer and c1's close", k)
	}
	select {
	case <-l.Done():
	default:
		t.Fatal("not done at the capture's end")
	}

	// a connection that says something else
	l = newLog()
	engine(l, capture[1], capture[2], statemachine.Input{Kind: statemachine.InReceive, Conn: 1, Seg: info("Novate")})
	if !errors.Is(l.Err(), ErrReplayDiverged) {
		t.Fatalf("a different segment: %v", l.Err())
	}
}
