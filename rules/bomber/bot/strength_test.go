package bot

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkStrength plays 10,000 uniformly random boards (the same seeded
// boards for each searcher) and reports the mean and worst number of
// guesses to win, and the time per game. Run it with
// go test -run '^$' -bench Strength -benchtime 1x ./rules/bomber/bot
func BenchmarkStrength(b *testing.B) {
	const games = 10000
	for _, bb := range []struct {
		name   string
		search searcher
	}{
		{"search", defaultSearcher},
		{"onestep", searcher{depth: 1}},
		{"entropy", searcher{entropy: true}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for range b.N {
				boards := rand.New(rand.NewPCG(1, 2))
				total, worst := 0, 0
				start := time.Now()
				for i := range games {
					g := NewGuesser(rand.New(rand.NewPCG(3, uint64(i))))
					g.s = bb.search
					n := Play(g, RandomBoard(boards))
					total += n
					worst = max(worst, n)
				}
				b.ReportMetric(float64(total)/games, "guesses/game")
				b.ReportMetric(float64(worst), "worst")
				b.ReportMetric(float64(time.Since(start).Milliseconds())/games, "ms/game")
			}
		})
	}
}

// BenchmarkLevels plays 1,000 random boards at each level and reports the
// mean and worst number of guesses to win:
// go test -run '^$' -bench Levels -benchtime 1x ./rules/bomber/bot
func BenchmarkLevels(b *testing.B) {
	const games = 1000
	for _, l := range []Level{Easy, Medium, Hard} {
		b.Run(l.String(), func(b *testing.B) {
			for range b.N {
				boards := rand.New(rand.NewPCG(1, 2))
				total, worst := 0, 0
				for i := range games {
					n := Play(NewLevelGuesser(rand.New(rand.NewPCG(3, uint64(i))), l), RandomBoard(boards))
					total += n
					worst = max(worst, n)
				}
				b.ReportMetric(float64(total)/games, "guesses/game")
				b.ReportMetric(float64(worst), "worst")
			}
		})
	}
}
