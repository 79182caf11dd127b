package tables

import (
	"testing"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// TestDriversOfOneSeatEach: two drivers, each playing one seat and hearing
// only that seat's connection, play every game without secret moves to the
// end through the real hub; the server refuses none of their moves.
func TestDriversOfOneSeatEach(t *testing.T) {
	for _, e := range statemachine.Catalogue() {
		spec := e.Spec
		if spec.Name == "bomber" {
			continue // secret boards: one seat never hears the other's
		}
		t.Run(spec.Name, func(t *testing.T) {
			hub := statemachine.New(statemachine.Config{Games: statemachine.Catalogue()})
			hub.Step(0, statemachine.SeedInput(9))
			accounts := replay.DemoAccounts()
			var now int64
			drivers := []*Driver{New(spec, nil, 2, 1), New(spec, nil, 2, 2)}
			drivers[0].Only(0)
			drivers[1].Only(1)
			drivers[0].MaxMoves, drivers[1].MaxMoves = 300, 300
			asm := make([]segment.Assembler, 2)
			send := func(seat int, m segment.Message) {
				for _, s := range segment.AppendMessage(nil, m.Type(), m.Append(nil)) {
					now++
					hub.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: statemachine.ConnID(seat + 1), Seg: s})
				}
			}
			pump := func() {
				for range 100000 {
					r := hub.Ready()
					if r.Empty() {
						return
					}
					sends := append([]statemachine.Send(nil), r.Sends...)
					checks := append([]statemachine.Check(nil), r.Checks...)
					hub.Advance()
					for _, s := range sends {
						seat := int(s.Conn) - 1
						mt, body, done, err := asm[seat].Add(s.Seg)
						if err != nil {
							t.Fatal(err)
						}
						if !done {
							continue
						}
						if err := drivers[seat].Receive(seat, mt, body); err != nil {
							t.Fatal(err)
						}
						out, ok, err := drivers[seat].Next()
						if err != nil {
							t.Fatal(err)
						}
						if ok {
							for _, sg := range segment.AppendMessage(nil, out.Type, out.Body) {
								now++
								hub.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: statemachine.ConnID(seat + 1), Seg: sg})
							}
						}
					}
					for _, c := range checks {
						hub.Step(now, statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: accounts.Answer(c)})
					}
				}
				t.Fatal("the hub never went quiet")
			}
			for seat, user := range []string{"Albert", "Beth"} {
				hub.Step(now, statemachine.Input{Kind: statemachine.InOpen, Conn: statemachine.ConnID(seat + 1)})
				send(seat, segment.HelloMsg{Version: 1, Features: segment.FeatureTables})
				hub.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: statemachine.ConnID(seat + 1), Seg: segment.Name(segment.Info, user)})
				hub.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: statemachine.ConnID(seat + 1), Seg: segment.Name(segment.Passwd, "123")})
				pump()
			}
			send(0, segment.CreateMsg{Game: spec.Name, Seats: 2})
			pump()
			send(1, segment.JoinMsg{Table: 1, Seat: segment.SeatAny})
			send(0, segment.EmptyMsg{T: segment.Ready})
			send(1, segment.EmptyMsg{T: segment.Ready})
			pump()
			for i, d := range drivers {
				if !d.Ended() {
					t.Fatalf("driver %d: the game did not end (%d moves)", i, d.Moves())
				}
				if d.Moves() != drivers[0].Moves() || d.Moves() == 0 {
					t.Fatalf("driver %d saw %d moves, driver 0 %d", i, d.Moves(), drivers[0].Moves())
				}
				if len(d.Errors) > 0 {
					t.Fatalf("driver %d: %v", i, d.Errors)
				}
				if d.End.Status != segment.EndWon && d.End.Status != segment.EndDrawn {
					t.Fatalf("driver %d: end %+v", i, d.End)
				}
			}
		})
	}
}
