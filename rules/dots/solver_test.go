package dots

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// bruteForce is plain minimax with memoisation on the drawn lines: every
// move searched, no capture rules, no symmetry, no pruning. It is the
// reference the solver's shortcuts are checked against.
type bruteForce struct {
	g    *graph
	memo map[uint64]int
}

func (bf *bruteForce) value(drawn uint64) int {
	if drawn == bf.g.all {
		return 0
	}
	if v, ok := bf.memo[drawn]; ok {
		return v
	}
	best := -inf
	for free := bf.g.all &^ drawn; free != 0; free &= free - 1 {
		m := bits.TrailingZeros64(free)
		next := drawn | 1<<m
		k := 0
		for _, c := range bf.g.ends[m] {
			if c >= 0 && bf.g.coinMask[c]&^next == 0 {
				k++
			}
		}
		v := -bf.value(next)
		if k > 0 {
			v = k + bf.value(next)
		}
		best = max(best, v)
	}
	bf.memo[drawn] = best
	return best
}

// TestSolveKnownValues: the first player's net margin with perfect play,
// each computed here by the solver and, on boards small enough, by the
// brute-force search too.
func TestSolveKnownValues(t *testing.T) {
	tests := []struct {
		rows, cols, want int
		brute            bool
	}{
		{1, 1, -1, true},
		{1, 2, 0, true},
		{1, 3, -1, true},
		{2, 2, 2, true},
		{2, 3, -2, true},
		{2, 4, 2, false},
		{3, 3, -3, false},
	}
	for _, tc := range tests {
		got, err := Solve(tc.rows, tc.cols)
		if err != nil || got != tc.want {
			t.Errorf("Solve(%d, %d) = %d, %v; want %d", tc.rows, tc.cols, got, err, tc.want)
		}
		if tc.brute {
			bf := bruteForce{g: gridGraph(newBoard(tc.rows+1, tc.cols+1)), memo: map[uint64]int{}}
			if v := bf.value(0); v != got {
				t.Errorf("%dx%d: brute force says %d, solver %d", tc.rows, tc.cols, v, got)
			}
		}
	}
}

// TestSolverMatchesBruteForce compares the solver with brute force on
// random positions (including ones with boxes capturable and chains
// offered, where the solver's capture rules prune) of boards too large to
// brute-force from empty.
func TestSolverMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, dims := range [][2]int{{2, 4}, {3, 3}, {3, 4}} {
		b := newBoard(dims[0]+1, dims[1]+1)
		g := gridGraph(b)
		s := newSolver(g, 16)
		for range 40 {
			var drawn uint64
			for bits.OnesCount64(g.all&^drawn) > 14 {
				drawn |= 1 << rng.IntN(b.nLines)
			}
			bf := bruteForce{g: g, memo: map[uint64]int{}}
			if want, got := bf.value(drawn), s.value(drawn); got != want {
				t.Fatalf("%dx%d boxes, drawn %#x: solver %d, brute force %d", dims[0], dims[1], drawn, got, want)
			}
		}
	}
}

// TestSolveRejects: sizes the solver cannot hold.
func TestSolveRejects(t *testing.T) {
	for _, dims := range [][2]int{{0, 3}, {3, 0}, {5, 6}, {7, 7}} {
		if v, err := Solve(dims[0], dims[1]); err == nil {
			t.Errorf("Solve(%d, %d) = %d, want an error", dims[0], dims[1], v)
		}
	}
}

// TestPositionGraph: the endgame graph of a large board gives the same
// value as the whole-board graph of the same position.
func TestPositionGraph(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for range 20 {
		gm := mustNew(t, 2, 5, 5)
		opp := greedy{rng}
		for gm.left > 16 {
			m, _ := opp.Choose(rules.SeatOf(gm, gm.turn))
			if _, err := gm.Play(gm.turn, m, nil); err != nil {
				t.Fatal(err)
			}
		}
		whole := newSolver(gridGraph(gm.b), 16).value(gm.drawn[0])
		pg, _, ok := positionGraph(gm)
		if !ok {
			t.Fatal("16 undrawn lines do not fit the position graph")
		}
		if part := newSolver(pg, 16).value(0); part != whole {
			t.Fatalf("position graph value %d, whole board %d\n%s", part, whole, gm.View(0))
		}
	}
}
