package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules/bomber"
)

// FuzzGuesserAnswers feeds a guesser arbitrary answers, as a broken or
// hostile opponent might send: each byte answers the next guess (a single
// gets Wrong, Body or Head by value mod 3, a double is right when odd). The
// guesser must never panic and never repeat a guess.
func FuzzGuesserAnswers(f *testing.F) {
	f.Add(uint64(1), []byte{0, 0, 0, 1, 2, 0, 1})
	f.Add(uint64(2), []byte{2, 2, 2, 2, 2, 2, 2, 2, 2, 2})
	f.Add(uint64(3), []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, seed uint64, answers []byte) {
		if len(answers) > 120 {
			answers = answers[:120]
		}
		g := NewGuesser(rand.New(rand.NewPCG(seed, 0)))
		g.s = searcher{depth: 1}
		cells := map[bomber.Cell]bool{}
		planes := map[bomber.Plane]bool{}
		for i, a := range answers {
			q := g.Next()
			if q.Double {
				if _, err := q.Plane.Cells(); err != nil || planes[q.Plane] {
					t.Fatalf("guess %d: bad or repeated double %v", i+1, q.Plane)
				}
				planes[q.Plane] = true
				g.ObserveDouble(q.Plane, a%2 == 1)
				continue
			}
			if q.Cell >= bomber.Size*bomber.Size || cells[q.Cell] {
				t.Fatalf("guess %d: bad or repeated single %v", i+1, q.Cell)
			}
			cells[q.Cell] = true
			g.ObserveSingle(q.Cell, bomber.Result(a%3))
		}
	})
}
