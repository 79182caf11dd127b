package dots

import (
	"errors"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// FuzzParseMove: any text either parses to a line of the board that
// formats back to text parsing to the same move, or fails with ErrNotation.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"a1-b1", "b1-a1", "C3-c4", "h8-h7", "a1-c1", "", "-", "a0-a1", "z9-z8", "a1-b1-c1"} {
		f.Add(s, 8, 8)
	}
	f.Add("e2-e3", 3, 5)
	f.Fuzz(func(t *testing.T, text string, rows, cols int) {
		if rows < minDots || rows > maxDots || cols < minDots || cols > maxDots {
			return
		}
		g := newGame(rows, cols, 2)
		m, err := g.ParseMove(0, text)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("ParseMove(%q): %v does not wrap ErrNotation", text, err)
			}
			return
		}
		if g.b.lineIndex(m) < 0 {
			t.Fatalf("ParseMove(%q) = %+v, not a line of the board", text, m)
		}
		back, err := g.ParseMove(0, g.FormatMove(m))
		if err != nil || back != m {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", text, m, g.FormatMove(m), back, err)
		}
		if _, err := g.Play(0, m, nil); err != nil {
			t.Fatalf("parsed move %q refused on an empty board: %v", text, err)
		}
	})
}

// FuzzReadRecord: any text either reads as a game whose own record reads
// back to the same game, or fails with one of the package's sentinel errors.
func FuzzReadRecord(f *testing.F) {
	f.Add("dots rows=3 cols=3 players=2\n0 a1-b1\n1 a1-a2\n# scores 0 0\n")
	f.Add("dots players=4 rows=8 cols=3\n0 a1-b1\n1 b1-c1\n2 c1-c2\n")
	f.Add("dots rows=3 cols=3 players=2\n0 a1-b1\n1 a1-a2\n0 b1-b2\n1 a2-b2\n1 c1-c2\n")
	f.Add("dots players=2\n\n  # x\n0 e5-e4\n")
	f.Add("dots rows=3 cols=3 players=2\n1 a1-b1\n")
	f.Add("dots rows=3 cols=3 players=3\n0 a1-b1\n2 resign\n1 a1-a2\n0 RESIGN\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := ReadRecord(text)
		if err != nil {
			for _, want := range []error{rules.ErrNotation, rules.ErrOption, rules.ErrPlayers, rules.ErrIllegal, rules.ErrNotYourTurn, rules.ErrGameOver} {
				if errors.Is(err, want) {
					return
				}
			}
			t.Fatalf("ReadRecord: %v wraps no sentinel error", err)
		}
		again, err := ReadRecord(g.Record())
		if err != nil || again.Record() != g.Record() || again.View(rules.Spectator) != g.View(rules.Spectator) {
			t.Fatalf("record of a read game does not read back: %v\n%s", err, g.Record())
		}
	})
}
