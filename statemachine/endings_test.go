package statemachine_test

import (
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// TestEndings plays 50_endings.txt, a game ended each way, and checks the
// one record each gives: why it ended, who won and who left, and that the
// games-finished counters count each by that reason (an agreed draw is not
// a win).
func TestEndings(t *testing.T) {
	r, _ := replayFile(t, "../testdata/transcripts/50_endings.txt")
	type ending struct {
		game    string
		reason  record.Reason
		status  rules.Status
		winners []rules.Player
		leaver  rules.Player
	}
	want := []ending{
		{"checkers", record.Resigned, rules.Won, []rules.Player{1}, rules.Spectator},
		{"checkers", record.Agreed, rules.Drawn, nil, rules.Spectator},
		{"dots", record.Abandoned, rules.Running, nil, 0}, // Beth left her computers
		{"dots", record.Abandoned, rules.Running, nil, 2}, // all three dropped; Cindy's grace ran out last
		{"dots", record.Abandoned, rules.Running, nil, 0}, // both dropped: Beth is not the winner
	}
	recs := r.Records()
	var got []ending
	for _, rec := range recs {
		got = append(got, ending{rec.Game, rec.Reason, rec.Outcome.Status, rec.Outcome.Winners, rec.Leaver})
	}
	if !slices.EqualFunc(got, want, func(a, b ending) bool {
		return a.game == b.game && a.reason == b.reason && a.status == b.status && slices.Equal(a.winners, b.winners) && a.leaver == b.leaver
	}) {
		t.Fatalf("records\n%+v\nwant\n%+v", got, want)
	}
	var counted statemachine.Stats
	for _, rec := range recs {
		counted.GamesEnded[rec.Reason.Index()]++
	}
	if st := r.Hub().Stats(); st.GamesEnded != counted.GamesEnded {
		t.Fatalf("games finished by reason %v, records say %v", st.GamesEnded, counted.GamesEnded)
	}
	storable(t, recs)
}

// TestServerEndsRecordOnce: a game the server stops gives one record
// without a result, whoever sat there: at a shutdown, and when the node
// every player was connected to is gone (players that cannot resume: the
// first to be dropped must not hand the other a win).
func TestServerEndsRecordOnce(t *testing.T) {
	for _, end := range []statemachine.InputKind{statemachine.InShutdown, statemachine.InGone} {
		t.Run(end.String(), func(t *testing.T) {
			x := newHarness(t, statemachine.Config{})
			a, b, w := x.login("Albert"), x.login("Beth"), x.login("Cindy")
			x.table("dots", nil, []statemachine.ConnID{a, b}, w)
			x.send(a, segment.Ready, nil)
			x.send(b, segment.Ready, nil)
			x.send(a, segment.MoveText, []byte("a1-b1"))
			x.pump()
			if len(x.records) != 0 {
				t.Fatalf("records before the end: %+v", x.records)
			}
			x.h.Step(x.now, statemachine.Input{Kind: end, Node: statemachine.NodeOf(a)})
			x.pump()
			if len(x.records) != 1 {
				t.Fatalf("%d records, want 1: %+v", len(x.records), x.records)
			}
			if rec := x.records[0]; rec.Reason != record.Aborted || rec.Outcome.Status != rules.Running || rec.Leaver != rules.Spectator {
				t.Fatalf("record %s %+v leaver %d, want aborted without a result", rec.Reason, rec.Outcome, rec.Leaver)
			}
			storable(t, x.records)
		})
	}
}
