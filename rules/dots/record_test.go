package dots

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// TestRecordRoundTrip: a finished three-player game and an unfinished one
// read back to the same game.
func TestRecordRoundTrip(t *testing.T) {
	for _, stop := range []int{-1, 7} {
		g := mustNew(t, 3, 4, 5)
		bots := []rules.Bot{NewBot(rand.New(rand.NewPCG(1, 2))), greedy{rand.New(rand.NewPCG(3, 4))}, NewBot(rand.New(rand.NewPCG(5, 6)))}
		for n := 0; !g.Over() && n != stop; n++ {
			m, err := bots[g.turn].Choose(rules.SeatOf(g, g.turn))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.Play(g.turn, m, nil); err != nil {
				t.Fatal(err)
			}
		}
		text := g.Record()
		back, err := ReadRecord(text)
		if err != nil {
			t.Fatalf("ReadRecord of\n%s: %v", text, err)
		}
		if back.View(rules.Spectator) != g.View(rules.Spectator) || !slices.Equal(back.moves, g.moves) || back.Record() != text {
			t.Errorf("record does not replay to the same game:\n%s", text)
		}
	}
}

func TestReadRecordErrors(t *testing.T) {
	tests := []struct {
		name, text string
		err        error
	}{
		{"empty", "# nothing\n\n", rules.ErrNotation},
		{"other game", "chess players=2\n", rules.ErrNotation},
		{"no players", "dots rows=3 cols=3\n", rules.ErrNotation},
		{"bad field", "dots rows3 players=2\n", rules.ErrNotation},
		{"repeated key", "dots rows=3 rows=4 players=2\n", rules.ErrNotation},
		{"unknown key", "dots size=3 players=2\n", rules.ErrOption},
		{"too many players", "dots players=5\n", rules.ErrPlayers},
		{"wrong seat", "dots rows=3 cols=3 players=2\n1 a1-b1\n", rules.ErrNotYourTurn},
		{"bad seat", "dots rows=3 cols=3 players=2\nx a1-b1\n", rules.ErrNotation},
		{"seat out of range", "dots rows=3 cols=3 players=2\n2 a1-b1\n", rules.ErrNotation},
		{"no move", "dots rows=3 cols=3 players=2\n0\n", rules.ErrNotation},
		{"bad move", "dots rows=3 cols=3 players=2\n0 a1-d1\n", rules.ErrNotation},
		{"drawn twice", "dots rows=3 cols=3 players=2\n0 a1-b1\n1 b1-a1\n", rules.ErrIllegal},
	}
	for _, tc := range tests {
		if _, err := ReadRecord(tc.text); !errors.Is(err, tc.err) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.err)
		}
	}
	if _, err := ReadRecord("dots players=2 rows=3 cols=3\n# comment\n\n0 a1-b1\n  1 a2-b2  \n"); err != nil {
		t.Errorf("comments, blank lines and spaces: %v", err)
	}
}
