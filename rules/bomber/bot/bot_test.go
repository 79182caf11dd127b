package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
)

// step is one guess and what it revealed.
type step struct {
	guess  Guess
	result bomber.Result // for singles
	right  bool          // for doubles
}

// answer is what hidden says to q.
func answer(hidden bomber.Board, q Guess) step {
	s := step{guess: q}
	if q.Double {
		for _, p := range hidden {
			s.right = s.right || p == q.Plane
		}
		return s
	}
	cells, _ := hidden.Cells()
	if cells.Has(q.Cell) {
		s.result = bomber.Body
		for _, p := range hidden {
			if p.Head == q.Cell {
				s.result = bomber.Head
			}
		}
	}
	return s
}

// referee plays g against hidden like Play does, checking every guess: it
// must be on the board, new, and the game must end within limit guesses.
func referee(t *testing.T, g *Guesser, hidden bomber.Board, limit int) []step {
	t.Helper()
	cells, _ := hidden.Cells()
	var revealed bomber.Set
	seenCell := map[bomber.Cell]bool{}
	seenPlane := map[bomber.Plane]bool{}
	var steps []step
	for revealed.Len() < bomber.WinCells {
		if len(steps) == limit {
			t.Fatalf("board %v: not won after %d guesses", hidden, limit)
		}
		q := g.Next()
		s := answer(hidden, q)
		if q.Double {
			pc, err := q.Plane.Cells()
			if err != nil {
				t.Fatalf("board %v: guess %d: impossible plane %v: %v", hidden, len(steps)+1, q.Plane, err)
			}
			if seenPlane[q.Plane] {
				t.Fatalf("board %v: guess %d repeats double %v", hidden, len(steps)+1, q.Plane)
			}
			seenPlane[q.Plane] = true
			if s.right {
				revealed = revealed.Union(pc)
			}
			g.ObserveDouble(q.Plane, s.right)
		} else {
			if q.Cell >= bomber.Size*bomber.Size {
				t.Fatalf("board %v: guess %d off the board: %d", hidden, len(steps)+1, q.Cell)
			}
			if seenCell[q.Cell] {
				t.Fatalf("board %v: guess %d repeats single %v", hidden, len(steps)+1, q.Cell)
			}
			seenCell[q.Cell] = true
			if cells.Has(q.Cell) {
				revealed = revealed.Add(q.Cell)
			}
			g.ObserveSingle(q.Cell, s.result)
		}
		steps = append(steps, s)
	}
	if !g.Done() {
		t.Fatalf("board %v: all cells revealed but the guesser does not know", hidden)
	}
	return steps
}

func TestBoardCountMatchesServer(t *testing.T) {
	legal := bomber.New(0).Legal(0, nil)
	if len(geo.boards) != len(legal) || len(legal) != 66816 {
		t.Fatalf("bot knows %d boards, server allows %d, want 66816", len(geo.boards), len(legal))
	}
}

func TestRandomBoardValidAndUniform(t *testing.T) {
	const draws = 6000
	rng := rand.New(rand.NewPCG(11, 12))
	var orient [4]int // by direction from head to tail
	covered := make([]int, bomber.Size*bomber.Size)
	for range draws {
		b := RandomBoard(rng)
		cells, err := b.Cells()
		if err != nil {
			t.Fatalf("RandomBoard gave invalid %v: %v", b, err)
		}
		for _, p := range b {
			switch {
			case p.Tail > p.Head+bomber.Size-1:
				orient[0]++
			case p.Tail+bomber.Size-1 < p.Head:
				orient[1]++
			case p.Tail > p.Head:
				orient[2]++
			default:
				orient[3]++
			}
		}
		for c := range covered {
			if cells.Has(bomber.Cell(c)) {
				covered[c]++
			}
		}
	}
	// The board is square, so orientations are equally likely: loose chi-square, 3 dof.
	want := float64(3*draws) / 4
	chi := 0.0
	for _, o := range orient {
		chi += (float64(o) - want) * (float64(o) - want) / want
	}
	if chi > 25 {
		t.Errorf("orientations %v: chi-square %.1f, want them balanced", orient, chi)
	}
	// Each cell is covered as often as the exact share of boards covering it.
	for c := range covered {
		exact := 0
		for i := range geo.boards {
			if geo.boards[i].cells.Has(bomber.Cell(c)) {
				exact++
			}
		}
		p := float64(exact) / float64(len(geo.boards))
		got := float64(covered[c]) / draws
		if d := got - p; d > 0.04 || d < -0.04 {
			t.Errorf("cell %v covered in %.3f of draws, %.3f of boards", bomber.Cell(c), got, p)
		}
	}
}

func TestGuesserWinsWithoutRepeating(t *testing.T) {
	tests := []struct {
		name   string
		search searcher
		boards int
	}{
		{"default", defaultSearcher, 20},
		{"one step", searcher{depth: 1}, 220},
		{"entropy", searcher{entropy: true}, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(21, 22))
			for range tt.boards {
				hidden := RandomBoard(rng)
				g := NewGuesser(rng)
				g.s = tt.search
				referee(t, g, hidden, 100)
			}
		})
	}
}

func TestPlayCountsLikeTheServer(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for range 10 {
		hidden := RandomBoard(rng)
		seed := rng.Uint64()
		want := len(referee(t, NewGuesser(rand.New(rand.NewPCG(seed, 1))), hidden, 100))
		if got := Play(NewGuesser(rand.New(rand.NewPCG(seed, 1))), hidden); got != want {
			t.Errorf("board %v: Play counted %d guesses, referee %d", hidden, got, want)
		}
	}
}

func TestDeterministicForSeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for range 5 {
		hidden := RandomBoard(rng)
		a := referee(t, NewGuesser(rand.New(rand.NewPCG(7, 7))), hidden, 100)
		b := referee(t, NewGuesser(rand.New(rand.NewPCG(7, 7))), hidden, 100)
		if len(a) != len(b) {
			t.Fatalf("board %v: %d then %d guesses with one seed", hidden, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("board %v: guess %d differs with one seed: %+v vs %+v", hidden, i+1, a[i], b[i])
			}
		}
	}
}

// consistent reports whether b gives the answers of steps.
func consistent(b bomber.Board, steps []step) bool {
	for _, s := range steps {
		if answer(b, s.guess) != s {
			return false
		}
	}
	return true
}

// The guesser sees only results: on another board that answers the first k
// guesses alike, the same seed makes the same k+1 first guesses.
func TestGuessesDependOnlyOnResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for range 8 {
		hidden := RandomBoard(rng)
		steps := referee(t, NewGuesser(rand.New(rand.NewPCG(9, 9))), hidden, 100)
		k := 1 + rng.IntN(len(steps)-1)
		var twin bomber.Board
		found := false
		for i := range geo.boards {
			var b bomber.Board
			for j, p := range geo.boards[i].pl {
				b[j] = geo.places[p]
			}
			if consistent(b, steps[:k]) && !consistent(b, steps) {
				twin, found = b, true
				break
			}
		}
		if !found {
			continue // every board agreeing so far is the hidden one
		}
		g := NewGuesser(rand.New(rand.NewPCG(9, 9)))
		for i := 0; i <= k; i++ {
			q := g.Next()
			if q != steps[i].guess {
				t.Fatalf("boards %v and %v answer alike, yet guess %d differs: %+v vs %+v", hidden, twin, i+1, q, steps[i].guess)
			}
			s := answer(twin, q)
			if q.Double {
				g.ObserveDouble(q.Plane, s.right)
			} else {
				g.ObserveSingle(q.Cell, s.result)
			}
		}
	}
}

// An opponent whose answers fit no valid board (here: everything misses)
// still gets fresh guesses only, never a panic.
func TestContradictoryAnswersNeverRepeat(t *testing.T) {
	g := NewGuesser(rand.New(rand.NewPCG(61, 62)))
	cells := map[bomber.Cell]bool{}
	planes := map[bomber.Plane]bool{}
	for i := range 150 {
		q := g.Next()
		if q.Double {
			if planes[q.Plane] {
				t.Fatalf("guess %d repeats double %v", i+1, q.Plane)
			}
			planes[q.Plane] = true
			g.ObserveDouble(q.Plane, false)
			continue
		}
		if cells[q.Cell] || q.Cell >= bomber.Size*bomber.Size {
			t.Fatalf("guess %d repeats or leaves the board: %v", i+1, q.Cell)
		}
		cells[q.Cell] = true
		g.ObserveSingle(q.Cell, bomber.Wrong)
	}
	if len(cells) != bomber.Size*bomber.Size {
		t.Errorf("swept %d cells in 150 guesses, want all 100", len(cells))
	}
	if g.Done() {
		t.Error("Done with nothing revealed")
	}
}

var _ rules.Rand = (*rand.Rand)(nil)
