package dots

import (
	"errors"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestNotation(t *testing.T) {
	g := mustNew(t, 2, 4, 5) // 4 rows (1-4) by 5 columns (a-e)
	tests := []struct {
		text, canon string
		move        rules.Move
	}{
		{"a1-b1", "a1-b1", Line(0, 0, 0, 1)},
		{"b1-a1", "a1-b1", Line(0, 0, 0, 1)},
		{" D3-D4 ", "d3-d4", Line(2, 3, 3, 3)},
		{"e4-d4", "d4-e4", Line(3, 3, 3, 4)},
		{"e3-e4", "e3-e4", Line(2, 4, 3, 4)},
	}
	for _, tc := range tests {
		m, err := g.ParseMove(0, tc.text)
		if err != nil || m != tc.move {
			t.Errorf("ParseMove(%q) = %+v, %v; want %+v", tc.text, m, err, tc.move)
			continue
		}
		if got := g.FormatMove(m); got != tc.canon {
			t.Errorf("FormatMove(%q) = %q, want %q", tc.text, got, tc.canon)
		}
	}
	for _, bad := range []string{"", "a1", "a1-", "a1-c1", "a1-b2", "a1-a1", "f1-e1", "a5-a4", "11-12", "a1--b1", "a10-b10", "a1-b1-c1", "a1 b1"} {
		if m, err := g.ParseMove(0, bad); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseMove(%q) = %+v, %v; want ErrNotation", bad, m, err)
		}
	}
}
