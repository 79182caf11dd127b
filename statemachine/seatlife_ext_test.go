package statemachine_test

import (
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// TestTakeoverMarksOneGame: the record marks a seat the computer played for
// its absent person in that game only; after the person took it back, the
// rematch's record shows a person there.
func TestTakeoverMarksOneGame(t *testing.T) {
	x := newHarness(t, statemachine.Config{ResumeGrace: time.Minute})
	f := segment.FeatureTables | segment.FeatureResume
	a, b, c := x.loginWith("Albert", f), x.loginWith("Beth", f), x.loginWith("Cindy", f)
	id := x.table("dots", []segment.KV{{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}, []statemachine.ConnID{a, b, c})
	var token segment.SeatedBody
	for _, m := range x.all[b] {
		if m.t == segment.Seated {
			token, _ = segment.DecodeSeatedBody(m.body)
		}
	}
	for _, p := range []statemachine.ConnID{a, b, c} {
		x.send(p, segment.Ready, nil)
	}
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InClosed, Conn: b})
	x.now += int64(61 * time.Second)
	statemachine.StepTime(x.h, x.now)
	x.pump()
	b2 := x.loginWith("Beth", f)
	x.send(b2, segment.Resume, segment.ResumeMsg{Table: id, Seat: token.Seat, Token: token.Token}.Append(nil))
	x.expect(b2, segment.Joined)
	offer := func(p statemachine.ConnID, answer uint8) {
		x.send(p, segment.Offer, segment.OfferMsg{What: 2, Answer: answer}.Append(nil))
	}
	for round := range 2 {
		x.send(a, segment.Resign, nil)
		x.send(c, segment.Resign, nil)
		if len(x.records) != round+1 {
			t.Fatalf("game %d: %d records", round+1, len(x.records))
		}
		if bot := x.records[round].Seats[token.Seat].Bot; bot != (round == 0) {
			t.Errorf("game %d: Beth's seat recorded as the computer's: %v", round+1, bot)
		}
		offer(a, 0)
		offer(b2, 1)
		offer(c, 1)
	}
}
