package checkers

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// Published perft counts for English draughts from the opening position.
var startPerft = []uint64{1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564}

func TestPerftStart(t *testing.T) {
	g := mustNew(t, nil)
	for depth := 1; depth <= 8; depth++ {
		if got := g.Perft(depth); got != startPerft[depth] {
			t.Errorf("perft(%d) = %d, want %d", depth, got, startPerft[depth])
		}
	}
}

// TestPerftThroughInterface counts the same paths through Legal, Clone and
// Play, so the public surface agrees with the fast generator.
func TestPerftThroughInterface(t *testing.T) {
	g := mustNew(t, rules.Options{OptDrawAgreement: "off", OptResign: "off", OptDrawRepetition: "off", OptDraw40Moves: "off"})
	var count func(g rules.Game, depth int) uint64
	count = func(g rules.Game, depth int) uint64 {
		to := g.ToMove(nil)
		if len(to) == 0 {
			return 0
		}
		legal := g.Legal(to[0], nil)
		if depth == 1 {
			return uint64(len(legal))
		}
		var n uint64
		for _, m := range legal {
			c := g.Clone()
			if _, err := c.Play(to[0], m, nil); err != nil {
				t.Fatalf("legal move %s refused: %v", g.FormatMove(m), err)
			}
			n += count(c, depth-1)
		}
		return n
	}
	for depth := 1; depth <= 5; depth++ {
		if got := count(g, depth); got != startPerft[depth] {
			t.Errorf("perft(%d) through the interface = %d, want %d", depth, got, startPerft[depth])
		}
	}
}

func mustNew(t testing.TB, opts rules.Options) *Game {
	t.Helper()
	g, err := New(opts)
	if err != nil {
		t.Fatalf("New(%v): %v", opts, err)
	}
	return g
}

func benchmarkPerft(b *testing.B, depth int) {
	g := mustNew(b, nil)
	var nodes uint64
	for b.Loop() {
		nodes = g.Perft(depth)
	}
	if nodes != startPerft[depth] {
		b.Fatalf("perft(%d) = %d, want %d", depth, nodes, startPerft[depth])
	}
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerft8(b *testing.B)  { benchmarkPerft(b, 8) }
func BenchmarkPerft9(b *testing.B)  { benchmarkPerft(b, 9) }
func BenchmarkPerft10(b *testing.B) { benchmarkPerft(b, 10) }
