//go:build linux

package main

import (
	"math/rand/v2"
	"time"

	"github.com/bomber-game/bomber/bench/load"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// event is one client segment of the in-memory transcript.
type event struct {
	conn statemachine.ConnID
	seg  segment.Segment
}

// transcript builds the client side of a large session: users log in, pair
// up, and each pair plays rounds whole games with random boards and random
// non-repeating single guesses (the same play as the load generator).
func transcript(users, rounds int, seed uint64) []event {
	rng := rand.New(rand.NewPCG(seed, 3))
	var ev []event
	for i := range users {
		c := statemachine.ConnID(i + 1)
		ev = append(ev, event{c, segment.Name(segment.Info, load.Name(i))}, event{c, segment.Name(segment.Passwd, "123")})
	}
	boards := boardPool(rng, 64)
	for range rounds {
		for p := 0; p+1 < users; p += 2 {
			a, b := statemachine.ConnID(p+1), statemachine.ConnID(p+2)
			ba, bb := boards[rng.IntN(len(boards))], boards[rng.IntN(len(boards))]
			ev = append(ev, event{a, segment.Name(segment.SendInvit, load.Name(p+1))}, event{b, segment.Code(segment.InvitResponse, 1)},
				event{a, ba.seg}, event{b, bb.seg})
			oa, ob := rng.Perm(100), rng.Perm(100)
			ha, hb := 0, 0
			for k := 0; ; k++ {
				ca := bomber.Cell(oa[k])
				ev = append(ev, event{a, segment.NewSingle(segment.Coord{X: uint8(ca.X()), Y: uint8(ca.Y())}, segment.ASCII)})
				if bb.cells.Has(ca) {
					if ha++; ha == 30 {
						break
					}
				}
				cb := bomber.Cell(ob[k])
				ev = append(ev, event{b, segment.NewSingle(segment.Coord{X: uint8(cb.X()), Y: uint8(cb.Y())}, segment.ASCII)})
				if ba.cells.Has(cb) {
					if hb++; hb == 30 {
						break
					}
				}
			}
		}
	}
	return ev
}

type pboard struct {
	seg   segment.Segment
	cells bomber.Set
}

func boardPool(rng *rand.Rand, n int) []pboard {
	all := bomber.Placements()
	var out []pboard
	for len(out) < n {
		var b bomber.Board
		var cs [6]segment.Coord
		for i := range b {
			b[i] = all[rng.IntN(len(all))]
			cs[2*i] = segment.Coord{X: uint8(b[i].Head.X()), Y: uint8(b[i].Head.Y())}
			cs[2*i+1] = segment.Coord{X: uint8(b[i].Tail.X()), Y: uint8(b[i].Tail.Y())}
		}
		if cells, err := b.Cells(); err == nil {
			out = append(out, pboard{segment.NewBoard(cs), cells})
		}
	}
	return out
}

// pureResult is the state machine's throughput on a transcript.
type pureResult struct {
	in, out, games int
	elapsed        time.Duration
}

// replayPure feeds the transcript through a fresh hub reps times, answering
// every account check at once, and counts segments in and out.
func replayPure(ev []event, users, reps int) pureResult {
	var r pureResult
	var ids []uint64
	start := time.Now()
	for range reps {
		h := statemachine.New(statemachine.Config{})
		for i := range users {
			h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: statemachine.ConnID(i + 1)})
		}
		for k := range ev {
			h.Step(int64(k), statemachine.Input{Kind: statemachine.InReceive, Conn: ev[k].conn, Seg: ev[k].seg})
			for {
				rd := h.Ready()
				if rd.Empty() {
					break
				}
				r.out += len(rd.Sends)
				r.games += len(rd.Records)
				ids = ids[:0]
				for _, c := range rd.Checks {
					ids = append(ids, c.ID)
				}
				h.Advance()
				for _, id := range ids {
					h.Step(int64(k), statemachine.Input{Kind: statemachine.InAnswer, Check: id, Answer: statemachine.Found})
				}
			}
		}
		r.in += len(ev)
	}
	r.elapsed = time.Since(start)
	return r
}
