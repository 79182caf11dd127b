package statemachine_test

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// TestEndings plays 50_endings.txt, a game ended each way, and checks the
// one record each gives: why it ended, who won and who left, and that the
// games-finished counters count each by that reason (an agreed draw is not
// a win).
func TestEndings(t *testing.T) {
	raw, err := os.ReadFile("../testdata/transcripts/50_endings.txt")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := replay.ConfigFromNotes(entries)
	if err != nil {
		t.Fatal(err)
	}
	r := replay.New(cfg, replay.DemoAccounts())
	r.Inputs(entries)
	for _, e := range entries {
		r.Feed(e)
	}
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
