package checkers

import (
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// playText plays PDN moves in order for whoever is to move, failing on error.
func playText(t *testing.T, g *Game, moves ...string) []rules.Step {
	t.Helper()
	var steps []rules.Step
	for _, text := range moves {
		p := g.ToMove(nil)
		if len(p) != 1 {
			t.Fatalf("before %s: %d players to move (%v)", text, len(p), g.Outcome())
		}
		m, err := g.ParseMove(p[0], text)
		if err != nil {
			t.Fatalf("parse %q: %v", text, err)
		}
		if steps, err = g.Play(p[0], m, steps); err != nil {
			t.Fatalf("play %q: %v", text, err)
		}
	}
	return steps
}

// legalText lists p's legal moves in PDN, in generation order.
func legalText(g *Game, p rules.Player) []string {
	var out []string
	for _, m := range g.Legal(p, nil) {
		out = append(out, g.FormatMove(m))
	}
	return out
}

// sortedText lists p's legal moves in PDN, sorted, for set comparisons.
func sortedText(g *Game, p rules.Player) []string {
	out := legalText(g, p)
	slices.Sort(out)
	return out
}
