package statemachine_test

import (
	"testing"

	"github.com/bomber-game/bomber/rules/record"
)

// TestRatedRecords plays 60_rated.txt: a rated table's record says it is
// rated (with its clock keys kept too) and a casual table's does not, so
// the store rates only the first.
func TestRatedRecords(t *testing.T) {
	r, _ := replayFile(t, "../testdata/transcripts/60_rated.txt")
	recs := r.Records()
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2: %+v", len(recs), recs)
	}
	rated, casual := recs[0], recs[1]
	if rated.Game != "checkers" || !rated.Rated() || rated.Options["clock.total"] != "600" || rated.Reason != record.Resigned {
		t.Errorf("the rated game's record: %s %v %s", rated.Game, rated.Options, rated.Reason)
	}
	if casual.Game != "dots" || casual.Rated() || casual.Options[record.RatedOption] != "false" {
		t.Errorf("the casual game's record: %s %v", casual.Game, casual.Options)
	}
}
