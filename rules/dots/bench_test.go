package dots

import (
	"math/rand/v2"
	"os"
	"testing"
)

// benchSolve solves an empty board once per iteration with a fresh table
// and reports the positions searched.
func benchSolve(b *testing.B, rows, cols, tableBits, want int) {
	for b.Loop() {
		s, err := NewSolver(rows, cols, tableBits)
		if err != nil {
			b.Fatal(err)
		}
		if v := s.Solve(); v != want {
			b.Fatalf("%dx%d boxes: value %d, want %d", rows, cols, v, want)
		}
		b.ReportMetric(float64(s.Nodes()), "nodes")
	}
}

func BenchmarkSolve3x3(b *testing.B) { benchSolve(b, 3, 3, DefaultTableBits, -3) }

// BenchmarkSolve3x4 is kept out of the tests for its running time.
func BenchmarkSolve3x4(b *testing.B) { benchSolve(b, 3, 4, 24, 0) }

// BenchmarkSolve4x5 checks the published result (Barker and Korf, 2012: a
// draw). It runs far longer than a benchmark should, so it runs only when
// BOMBER_DOTS_4X5 is set, with a table of 2^27 entries (2 GiB).
func BenchmarkSolve4x5(b *testing.B) {
	if os.Getenv("BOMBER_DOTS_4X5") == "" {
		b.Skip("set BOMBER_DOTS_4X5=1 to run (hours, 2 GiB)")
	}
	benchSolve(b, 4, 5, 27, 0)
}

// BenchmarkBotVsGreedy reports the bot's wins in 100 games against the
// greedy box-taker on 4x4 dots.
func BenchmarkBotVsGreedy(b *testing.B) {
	for b.Loop() {
		b.ReportMetric(float64(botVersusGreedy(b, 100, DefaultBotBudget)), "wins/100")
	}
}

// BenchmarkStrategyVsGreedy is the same match for the strategy alone,
// without any exact search.
func BenchmarkStrategyVsGreedy(b *testing.B) {
	for b.Loop() {
		b.ReportMetric(float64(botVersusGreedy(b, 100, 0)), "wins/100")
	}
}

// BenchmarkBotMove5x5 is the cost of one bot move, averaged over whole
// two-player games on 5x5 dots.
func BenchmarkBotMove5x5(b *testing.B) {
	moves := 0
	for b.Loop() {
		g := mustNew(b, 2, 5, 5)
		match(b, g, NewBot(rand.New(rand.NewPCG(1, 1))), NewBot(rand.New(rand.NewPCG(2, 2))))
		moves += len(g.moves)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}
