package server

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/statemachine"
)

// takeAll empties the queue in the order the workers would run it.
func takeAll(b *botPool) []statemachine.BotRequest {
	var out []statemachine.BotRequest
	for {
		req, ok := b.take()
		if !ok {
			return out
		}
		out = append(out, req)
	}
}

// TestBotQueueFairShare: one user's 200 tables of computer players are
// queued before another user's one table asks; the workers still run the
// second user's move second, not after the flood. Within one user, a
// table with many moves waiting does not hold back its other tables.
func TestBotQueueFairShare(t *testing.T) {
	b := newBotQueue(Config{BotQueue: 1024, BotWorkers: 2}, func() {})
	for i := range 200 {
		for seat := range 3 {
			if ok, _ := b.ask("flooder", statemachine.BotRequest{Table: uint32(i + 1), Seat: rules.Player(seat)}); !ok {
				t.Fatal("the queue refused a request with room left")
			}
		}
	}
	if ok, _ := b.ask("honest", statemachine.BotRequest{Table: 999}); !ok {
		t.Fatal("the honest table's request was refused")
	}
	order := takeAll(b)
	if len(order) != 601 {
		t.Fatalf("%d requests came out of 601", len(order))
	}
	for i, req := range order {
		if req.Table == 999 {
			if i > 1 {
				t.Fatalf("the honest table's move ran %dth, behind %d of the flooder's", i+1, i)
			}
			break
		}
	}
	// the flooder's own tables take turns: the first 200 of its moves are
	// one from each table, not table 1's three first
	seen := map[uint32]bool{}
	for _, req := range order {
		if req.Table != 999 && len(seen) < 200 {
			if seen[req.Table] {
				t.Fatalf("table %d ran a second move before every table of its user ran one", req.Table)
			}
			seen[req.Table] = true
		}
	}
}

// TestBotQueueFullDropsTheLargestShare: with the queue full of one user's
// requests, another user's request still gets in; the flooder's newest
// request makes room (and is played at random by the caller).
func TestBotQueueFullDropsTheLargestShare(t *testing.T) {
	b := newBotQueue(Config{BotQueue: 8, BotWorkers: 1}, func() {})
	for i := range 8 {
		if ok, _ := b.ask("flooder", statemachine.BotRequest{Table: 1, Seq: uint32(i)}); !ok {
			t.Fatal("refused with room left")
		}
	}
	if ok, _ := b.ask("flooder", statemachine.BotRequest{Table: 2}); ok {
		t.Fatal("a full queue took more of the user that fills it")
	}
	ok, dropped := b.ask("honest", statemachine.BotRequest{Table: 9})
	if !ok || dropped == nil || dropped.Table != 1 || dropped.Seq != 7 {
		t.Fatalf("honest request into a full queue: queued %v, dropped %+v; want queued, the flooder's newest dropped", ok, dropped)
	}
	if got := len(b.ready); got != 8 {
		t.Fatalf("%d worker tokens for 8 queued requests", got)
	}
	if order := takeAll(b); len(order) != 8 || order[1].Table != 9 {
		t.Fatalf("order %+v; want the honest request second of 8", order)
	}
}
