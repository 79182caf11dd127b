package statemachine

import (
	"math/rand/v2"
	"testing"
)

// TestTimerQueueOrder: timers pushed with deadlines in any order (many of
// them equal) and popped as time passes leave when due and not before,
// each batch in deadline order, equal deadlines in the order they were
// pushed, and none is lost.
func TestTimerQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q timerQueue
	var at []int64 // by push number, which each timer carries as its ConnID
	popped := 0
	drain := func(now int64) {
		prev := -1
		for {
			c, ok := q.pop(now)
			if !ok {
				break
			}
			popped++
			switch {
			case at[c] > now:
				t.Fatalf("at %d timer %d left before its deadline %d", now, c, at[c])
			case prev >= 0 && (at[c] < at[prev] || at[c] == at[prev] && int(c) < prev):
				t.Fatalf("at %d timer %d (due %d) left after timer %d (due %d)", now, c, at[c], prev, at[prev])
			}
			prev = int(c)
		}
		if next, ok := q.next(); ok && next <= now {
			t.Fatalf("at %d a timer due at %d is still waiting", now, next)
		}
	}
	for now := int64(0); now < 5000; now += 10 {
		for range rng.IntN(8) {
			d := now + rng.Int64N(40)*5
			q.push(d, ConnID(len(at)))
			at = append(at, d)
		}
		drain(now)
	}
	drain(1 << 62)
	if popped != len(at) || len(q.items) != 0 {
		t.Fatalf("%d timers pushed, %d popped, %d left", len(at), popped, len(q.items))
	}
}

// TestTimerQueueAllocs: a queue that has grown to its working size pushes
// and pops without allocating.
func TestTimerQueueAllocs(t *testing.T) {
	var q timerQueue
	for i := range 64 {
		q.push(int64(64-i), ConnID(i))
	}
	now := int64(64)
	if n := testing.AllocsPerRun(1000, func() {
		now++
		q.push(now+int64(now%7), 1)
		q.pop(now)
	}); n != 0 {
		t.Fatalf("%v allocations per push and pop", n)
	}
}
