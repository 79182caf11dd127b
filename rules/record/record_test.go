package record

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// TestJSONRoundTrip: a record written as JSON (bomberctl games export
// --json) reads back unchanged, with its seed as 64 hex digits.
func TestJSONRoundTrip(t *testing.T) {
	var seed Seed
	for i := range seed {
		seed[i] = byte(0xa0 + i)
	}
	g := Game{ID: 9, Game: "dots", Options: rules.Options{"rows": "3"}, Seats: []Seat{{Name: "Beth"}, {Name: "", Bot: true}},
		Seed: seed, Moves: []Move{{Seat: 1, Text: "a1-b1", At: 12}}, MoveCount: 1,
		Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{1}, Reason: "most boxes"},
		Scores:  []int{0, 4}, Reason: "abandoned", Leaver: 0, Start: 10, End: 20}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Seed":"a0a1a2a3`) {
		t.Errorf("seed not written as hex: %s", b)
	}
	var back Game
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, g) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, g)
	}
	for _, bad := range []string{`{"Seed":"a0a1"}`, `{"Seed":"` + strings.Repeat("zz", 32) + `"}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
